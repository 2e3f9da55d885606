"""What the JSON API answers of the standing ladder, as pydantic models (the contract the
OpenAPI document shows: :mod:`.answers` has the others and the rules they follow)."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["LadderEntry", "LadderPause", "LadderSettings", "LadderTable"]


class LadderPause(BaseModel):
    """Why the ladder paused an engine: its last fault's kind, its message, the game."""

    fault: str = Field(description="timeout, unreachable, malformed or illegal.")
    reason: str
    game: str


class LadderSettings(BaseModel):
    """A registered engine's ladder settings and pause, as its JSON gives them."""

    ladder: bool = Field(description="On the standing ladder of every Set it plays.")
    ladder_concurrency: int = Field(description="Ladder games it plays at once.")
    ladder_rest: int = Field(description="Seconds of rest after each ladder game.")
    ladder_paused: LadderPause | None = Field(
        description="Paused by its faults (until its owner sets ladder true), or null."
    )


class LadderEntry(BaseModel):
    """An engine on a Set's ladder."""

    rank: int | None = Field(description="Among the ranked engines; null: provisional or paused.")
    id: str
    name: str
    rating: float = Field(description="The conservative rating, openskill's ordinal mu - 3 sigma.")
    mu: float
    sigma: float
    games: int = Field(description="Its rated games in the Set (won, drawn or lost).")
    wins: int
    draws: int
    losses: int
    provisional: bool = Field(description="Fewer than 10 rated games in the Set.")
    paused: bool
    reason: str = Field(description="Why it is paused: the fault, its message, the game.")
    last_game: str = Field(description="Its last ladder game's id, or empty.")


class LadderTable(BaseModel):
    """A Set's leaderboard: ranked (by rating), then provisional, then paused."""

    set: str
    engines: list[LadderEntry]
    next: str | None = Field(description="The next page's cursor (give it as ?after=), or null.")
    next_url: str | None = Field(description="The next page's URL, or null on the last.")
