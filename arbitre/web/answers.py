"""What the JSON API answers, as pydantic models: their schemas are the responses of the
OpenAPI document (:mod:`.openapi`), and the live server's answers are checked against
them by schemathesis (tests/robustness/test_openapi.py), so a field renamed in the code
and not here fails a test.

The routes build their answers as they always did (dicts from the records); these models
are the contract, not the code path. A field an answer may gain later is allowed
(``additionalProperties`` is left open): a client reads the fields it knows.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, RootModel, create_model

from tournoyons_gui.arbitre.web.event_answers import GameEndedEvent, MoveEvent, ProgressEvent
from tournoyons_gui.arbitre.web.ladder_answers import LadderSettings

__all__ = [
    "AddedSet",
    "BotsarenaAnswer",
    "Cancelled",
    "CheckRun",
    "EngineChanged",
    "EnginePage",
    "EngineRecord",
    "EngineRegistered",
    "Error",
    "GameCreated",
    "GameEndedEvent",
    "GamePage",
    "GameRecord",
    "GameRow",
    "GameView",
    "Health",
    "InterfaceOut",
    "InterfacePage",
    "InterfaceRegistered",
    "MatchDocument",
    "MatchPage",
    "MatchRow",
    "MoveEvent",
    "PairStanding",
    "ProgressEvent",
    "RegisteredEngine",
    "SinkEntry",
    "Standing",
    "StandingPage",
    "TableStanding",
    "TesterTurn",
    "TooMany",
    "TournamentCreated",
    "TournamentGame",
    "TournamentGamePage",
    "TournamentPage",
    "TournamentRow",
    "TournamentSummary",
    "paged",
]

#: A moment, as the records write it: ISO 8601 with its UTC offset.
WHEN = "date-time"


class Error(BaseModel):
    """Every refusal: one sentence fit to show a person."""

    error: str = Field(examples=["options.timeout is a whole number"])


class TooMany(Error):
    """429: past a limit of this server (per client address, or per organiser token)."""

    retry_after: int = Field(description="Seconds to wait (also the Retry-After header).")


class SeatRow(BaseModel):
    """A seat as a list shows it."""

    index: int
    kind: str
    name: str


class GameRow(BaseModel):
    """A game in ``GET /api/games``."""

    id: str
    set: str
    status: str = Field(description="playing, over or interrupted.")
    result: str | None
    winner: int | None = Field(description="The winning seat's index, or null.")
    moves: int
    created_at: str = Field(json_schema_extra={"format": WHEN})
    ended_at: str | None
    tournament: str | None
    ladder: bool = Field(description="A game of the standing ladder.")
    seats: list[SeatRow]
    url: str


class GameUrls(BaseModel):
    """Where a game is seen."""

    game: str
    json_: str = Field(alias="json")
    events: str
    log: str


class PersonUrl(BaseModel):
    """A seat played by a person through the pages: its page, its secret token in it."""

    seat: int
    url: str


class GameCreated(BaseModel):
    """201 to ``POST /api/games``."""

    id: str
    urls: GameUrls
    persons: list[PersonUrl]


class RecordSeat(SeatRow):
    """A seat of a game's record (its secret Game id never shown: decision 8)."""

    url: str = Field(description="The engine's URL, or empty.")
    builtin: str = Field(description="The built-in engine's name, or empty.")
    status: int | None = Field(description="Its final Status (engine protocol 3.3), or null.")
    rank: int | None
    score: float | int | None
    error: str | None


class RecordMove(BaseModel):
    """A move of a game's record (``?`` while the game hides it)."""

    number: int
    seat: int
    value: str
    tray: str
    ms: int | None
    query: str
    error: str | None
    at: str = Field(json_schema_extra={"format": WHEN})


class RecordExchange(BaseModel):
    """An exchange with a seat's engine, bot or person, as logged."""

    seat: int | None
    kind: str
    move: str | int | None
    detail: str
    at: str = Field(json_schema_extra={"format": WHEN})


class GameRecord(BaseModel):
    """A game's whole record (``/games/<id>.json``)."""

    id: str
    set: str
    status: str
    result: str | None
    winner: int | None
    reason: str | None
    result_text: str
    options: dict[str, Any]
    start_tray: str | None = Field(description="Its start Tray (an opening); null: the Set's.")
    created_at: str = Field(json_schema_extra={"format": WHEN})
    ended_at: str | None
    seats: list[RecordSeat]
    hidden: bool
    moves: list[RecordMove]
    exchanges: list[RecordExchange]


class Cancelled(BaseModel):
    """A game cancelled."""

    id: str
    status: str = Field(examples=["interrupted"])


class GameView(BaseModel):
    """``/games/<id>/view``: the position after a move, as the game's page shows it."""

    src: str = Field(description="The interface page's URL at that move.")
    move: int
    moves: int
    status: str
    result: str
    asked: Any
    statuses: list[int | None] = Field(description="Each seat's final Status, or null.")
    list_: list[dict[str, Any]] | None = Field(None, alias="list")


class AddedSet(BaseModel):
    """201 to ``POST /api/sets``: the Set's name and its key (its pages' path)."""

    name: str
    key: str


class RegisteredEngine(LadderSettings):
    """A registered engine (never its edit token), with its ladder settings."""

    id: str
    name: str
    url: str
    sets: list[str]
    poker_level2: bool
    retired: bool
    open: bool
    kind: str
    created_at: str = Field(json_schema_extra={"format": WHEN})


class EngineRegistered(RegisteredEngine):
    """201 to ``POST /api/engines``: the engine, its edit token and call key (shown once)."""

    edit_token: str
    key: str


class EngineChanged(RegisteredEngine):
    """200 to a change; ``key`` only when it was renewed (``renew_key``)."""

    key: str | None = None


class EngineRecord(RegisteredEngine):
    """An engine's record: results per Set, its rating now and over time per Set (at most
    200 points a Set, evenly spread), a page of its opponents and a page of its games
    (newest first), each with the next page's cursor (``null`` on the last)."""

    filling: bool = Field(
        description="True while the Arbitre fills its engines' records from the games it "
        "holds (after an upgrade) and has not reached this one: per_set, rating, ratings "
        "and per_opponent then count only the games that ended since."
    )
    per_set: dict[str, dict[str, int]]
    rating: dict[str, dict[str, float]]
    ratings: dict[str, list[dict[str, Any]]]
    games_total: int
    per_opponent: list[dict[str, Any]]
    per_opponent_order: str = Field(json_schema_extra={"enum": ["name", "games"]})
    per_opponent_next: str | None
    games: list[dict[str, Any]]
    games_next: str | None


class InterfaceOut(BaseModel):
    """A graphical interface (ours are ``builtin``)."""

    id: str
    name: str
    url: str
    sets: list[str]
    retired: bool
    builtin: bool
    created_at: str | None = None


class InterfaceRegistered(InterfaceOut):
    """201 to ``POST /api/interfaces``: with its edit token (shown once)."""

    edit_token: str


class TournamentUrls(BaseModel):
    """Where a tournament is seen."""

    page: str
    json_: str = Field(alias="json")
    standings_csv: str
    games_csv: str


class TournamentCreated(BaseModel):
    """201 to ``POST /api/tournaments``."""

    id: str
    urls: TournamentUrls


class TournamentRow(BaseModel):
    """A tournament in ``GET /api/tournaments``."""

    id: str
    name: str
    set: str
    format: str
    status: str
    created_at: str = Field(json_schema_extra={"format": WHEN})


class PairStanding(BaseModel):
    """A line of the standings of a tournament played in pairs (round-robin, Swiss):
    points (1 a win, 1/2 a draw), then the tie-breaks, Buchholz and Sonneborn-Berger, and
    the openskill rating (mu, sigma, ordinal = mu - 3 sigma)."""

    rank: int = Field(description="From 1; entrants level on every tie-break share it.")
    entrant: int = Field(description="The entrant's index, from 0, in the tournament's order.")
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    errors: int = Field(description="Games it lost by a fault (no answer, illegal move ...).")
    points: float | int
    buchholz: float | int
    sonneborn_berger: float | int
    mu: float | int
    sigma: float | int
    ordinal: float | int


class TableStanding(BaseModel):
    """A line of the standings of a tournament at tables of four: match points (by rank at
    each table), firsts, the total score, Buchholz and the openskill rating."""

    rank: int
    entrant: int
    name: str
    played: int
    firsts: int
    errors: int
    points: float | int
    score: float | int
    buchholz: float | int
    mu: float | int
    sigma: float | int
    ordinal: float | int


class Standing(RootModel[PairStanding | TableStanding]):
    """A line of the standings: in pairs or at tables of four, as the format is."""


class TournamentGame(BaseModel):
    """A game of a tournament in its ``games.json``."""

    id: str
    url: str
    round: int | None
    first: str
    second: str
    status: str
    result: str | None
    winner: str | None
    moves: int


class Progress(BaseModel):
    """How far a tournament is."""

    planned: int
    over: int
    playing: int


class TournamentSummary(BaseModel):
    """A tournament's whole state."""

    id: str
    name: str
    set: str
    format: str
    games_per_pairing: int
    rounds: int
    concurrency: int
    options: dict[str, Any]
    status: str
    created_at: str = Field(json_schema_extra={"format": WHEN})
    ended_at: str | None
    progress: Progress
    entrants: list[dict[str, Any]]
    standings: list[PairStanding | TableStanding]
    cross_table: Any
    byes: list[list[Any]]
    in_play: list[dict[str, Any]] = Field(
        description="Its games in play (at most its concurrency), as in games."
    )
    games: list[dict[str, Any]] = Field(description="Its first 200 games in the order made.")
    games_next: str | None = Field(
        description="The cursor of the next page of /tournaments/<id>/games.json (give it "
        "as ?after=); null when there is none."
    )


class CheckRun(BaseModel):
    """A server-run interface check: its progress, then its report. Kept in the records:
    any web process of the Arbitre answers it, and a restart keeps it."""

    id: str
    interface: str
    url: str
    set: str
    status: str = Field(
        description="running, done, failed, or interrupted (the server running it stopped)",
        examples=["running"],
    )
    done: int
    total: int
    label: str
    finished: bool
    error: str
    report: dict[str, Any] | None


class Health(BaseModel):
    """``/healthz``."""

    status: str = Field(examples=["ok"])
    sets: list[str]


class SinkEntry(BaseModel):
    """A value the tester's return sink received."""

    id: int
    value: str | None
    params: dict[str, str]


class TesterTurn(BaseModel):
    """The tester's next context."""

    state: dict[str, Any]
    params: dict[str, str]
    over: bool


class BotsarenaAnswer(BaseModel):
    """``{"name"}`` to ``init``, ``{"play": <column>}`` to ``play-turn``."""

    name: str | None = None
    play: int | None = None


class SprtAsked(BaseModel):
    """An SPRT as ``play --sprt`` asks it: H0's and H1's normalized Elo, α and β."""

    elo0: float
    elo1: float
    alpha: float
    beta: float


class MatchRow(BaseModel):
    """A match of ``play`` in ``GET /api/matches``."""

    id: str
    set: str
    status: str = Field(description="running, over or interrupted.")
    entrants: list[str] = Field(description="The entrants' names, in command line order.")
    seed: int
    openings: str | None
    games: int = Field(description="The games planned (the most, under an SPRT).")
    made: int = Field(description="The games made so far.")
    over: int = Field(description="The games played to an end.")
    sprt: SprtAsked | None
    llr: float | None
    verdict: str | None = Field(description="H0, H1, or null.")
    created_at: str = Field(json_schema_extra={"format": WHEN})
    ended_at: str | None
    url: str


class MatchFaults(BaseModel):
    """Losses by fault, by kind."""

    timeout: int
    illegal: int
    unreachable: int
    malformed: int


class MatchSprt(SprtAsked):
    """A match's SPRT: its LLR, its bounds, its verdict and the LLR after each pair."""

    model: str
    llr: float
    lower: float
    upper: float
    verdict: str | None
    history: list[list[float]] = Field(description="[games, LLR] after each pair completed.")


class MatchEntrant(BaseModel):
    """An entrant's counts in a match."""

    name: str
    kind: str
    engine: str
    games: int
    wins: int
    draws: int
    losses: int
    errors: int
    faults: MatchFaults
    points: float
    score: float | None
    total: int | None
    mean_rank: float | None
    rank: int


class MatchGameLine(BaseModel):
    """A game of a match, from the first entrant's side, with its moves."""

    id: str
    opening: str | None
    opening_line: int | None
    pair: int
    first: int
    seats: list[int]
    seed: int
    status: str
    result: str | None = Field(description="win, draw, loss (the first entrant's), or null.")
    fault: str | None
    fault_by: int | None
    ply: int | None
    plies: int
    ranks: list[int | None]
    totals: list[int | None]
    reason: str
    moves: list[str]


class MatchDocument(BaseModel):
    """A match's document (``play --json``'s), a page of its games in ``games_list``."""

    set: str
    games: int
    wins: int
    draws: int
    losses: int
    faults: MatchFaults
    score: float | None
    pentanomial: list[int] | None
    elo: float | None
    elo_ci95: list[float | None] | None
    los: float | None
    sprt: MatchSprt | None
    games_list: list[MatchGameLine]
    games_next: str | None = Field(description="The next page of games, or null on the last.")
    match: str
    status: str
    seed: int
    openings: str | None
    errors: int
    points: float
    elo_model: str | None
    entrants: list[MatchEntrant]
    nelo: float | None
    nelo_ci95: list[float | None] | None
    options: dict[str, Any]
    created_at: str = Field(json_schema_extra={"format": WHEN})
    ended_at: str | None


def paged(model: type[BaseModel], what: str) -> type[BaseModel]:
    """Return the model of a page of ``model`` rows: ``{"rows", "next", "next_url"}``."""
    page: type[BaseModel] = create_model(
        f"{model.__name__}Page",
        __doc__=f"A page of {what}: the rows, then the next page's cursor and URL (null on "
        "the last page; also in the Link header).",
        rows=(list[model], ...),  # type: ignore[valid-type]
        next=(str | None, Field(description="Give it as ?after= for the next page.")),
        next_url=(str | None, Field(description="The next page's URL, as Link names it.")),
    )
    return page


GamePage = paged(GameRow, "the games")
EnginePage = paged(RegisteredEngine, "the registered engines")
InterfacePage = paged(InterfaceOut, "the interfaces")
TournamentPage = paged(TournamentRow, "the tournaments")
StandingPage = paged(Standing, "the standings")
TournamentGamePage = paged(TournamentGame, "a tournament's games")
MatchPage = paged(MatchRow, "the matches")
