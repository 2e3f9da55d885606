"""The request bodies of what this server serves besides its own API: our engines as
botsarena bots (seed 003) and the tester's hot-seat games; declared as the API's are
(:class:`~.bodies.Body`: one model both checks a body and gives its schema to the OpenAPI
document)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from tournoyons_gui.arbitre.web.bodies import Body, Whole

__all__ = ["BotsarenaMessage", "TesterPlay"]


class BotsarenaMessage(Body):
    """``POST /engines/<set>/<name>/botsarena``: a botsarena message (seed 003): ``init``
    once, then ``play-turn`` for each move. The ``board`` is the Set's (ConnectFour: 6
    rows of 7 cells ``""``, ``"X"``, ``"O"``, row 0 at the bottom), read by the Set's own
    botsarena module; a field botsarena may add later is let through (``extra="allow"``),
    as botsarena's own bots do."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        frozen=True,
        # play-turn: a board (init takes none).
        json_schema_extra={
            "if": {"properties": {"action": {"const": "play-turn"}}},
            "then": {
                "required": ["board"],
                "properties": {
                    "board": {
                        "type": "array",
                        "minItems": 6,
                        "maxItems": 6,
                        "items": {
                            "type": "array",
                            "minItems": 7,
                            "maxItems": 7,
                            "items": {"type": "string", "pattern": "^[XxOo]?$"},
                        },
                    },
                    "you": {"pattern": "^[XxOo]$"},
                    "player-index": {"minimum": 0, "maximum": 1},
                },
            },
        },
    )

    action: str = Field(json_schema_extra={"enum": ["init", "play-turn"]})
    game: str | None = Field(None, examples=["connectFour"])
    players: Whole | None = None
    board: Any = Field(
        None,
        description="play-turn: the Set's board (ConnectFour: 6 rows of 7 cells, each "
        '"", "X" or "O", row 0 at the bottom), a position of a game; init: not read.',
    )
    you: str | None = Field(
        None, description='play-turn: "X" (the first player) or "O", the side to move.'
    )
    game_id: str | None = Field(None, alias="game-id")
    player_index: Whole | None = Field(
        None,
        alias="player-index",
        description="play-turn: 0 (the first player) or 1, the side to move.",
    )

    def message(self) -> dict[str, Any]:
        """Return the message as sent, its fields by their botsarena names (absent: left
        out)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class TesterPlay(Body):
    """``POST /tester/<set>/play``: the tester's hot-seat game, one move."""

    state: dict[str, Any] = Field(description="The state the last answer gave.")
    value: str = Field(description="The move, as a page would return it.")
