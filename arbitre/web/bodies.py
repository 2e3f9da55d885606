"""The JSON API's request bodies, each declared once as a pydantic model that both
validates a body and gives its schema to the OpenAPI document
(:mod:`~tournoyons_gui.arbitre.web.openapi`; docs/reference/http-api.md).

A model checks the shape: JSON, an object, the fields it knows and no other, each of its
type (a whole number is a JSON integer, a flag ``true`` or ``false``, a text a string, no
conversion between them). What the Arbitre knows better (a Set that exists, a TimeOut of
4 to 54 seconds, a Level the Set has, a URL the outbound policy allows, a name not taken)
is checked where it always was, by the service the body goes to; the schema says it all
the same (``enum``, ``minimum``, ``maximum``: the same constants). :func:`parse` turns
the first thing wrong into one sentence for ``400 {"error": ...}``: ``options.timeout is
a whole number``, ``unknown field "colour": send {set, seats, options, start_tray}``.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tournoyons_gui.arbitre.match import (
    DEFAULT_BOT_TIMEOUT,
    DEFAULT_TIMEOUT,
    MAX_REGISTERED_NAME,
    MAX_SEED,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    GameError,
    Options,
    SeatSpec,
)
from tournoyons_gui.arbitre.processes import refuse_command
from tournoyons_gui.arbitre.seats import KINDS
from tournoyons_gui.arbitre.tournaments import EntrantSpec
from tournoyons_gui.arbitre.tournaments.registrations import REGISTERED_KINDS
from tournoyons_gui.arbitre.tournaments.service import FORMATS, MAX_ENTRANTS

__all__ = [
    "AddedSetBody",
    "Body",
    "BotsarenaMessage",
    "EngineChange",
    "EngineRegistration",
    "EntrantBody",
    "GameBody",
    "GameOptions",
    "InterfaceChange",
    "InterfaceRegistration",
    "SeatBody",
    "TesterPlay",
    "TournamentBody",
    "changes",
    "explain",
    "options_of",
    "parse",
]

M = TypeVar("M", bound="Body")


def _seat_kinds(schema: dict[str, Any]) -> None:
    # Read when the schema is made: a seat kind registered later is in it too.
    schema["enum"] = list(KINDS)


def _unchanged(schema: dict[str, Any]) -> None:
    # A change's field left out changes nothing: its schema has no default to show.
    schema.pop("default", None)


def keep(alias: str | None = None, description: str | None = None) -> Any:
    """A change's field: absent, it is left as it is (``None`` in the model, no default
    in the schema; ``null`` is refused as any other wrong type)."""
    return Field(None, alias=alias, description=description, json_schema_extra=_unchanged)


class Body(BaseModel):
    """A JSON request body: an object of exactly these fields (``extra="forbid"``), each of
    its type with no conversion (``strict``); :meth:`shape` names them in an error."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @classmethod
    def shape(cls) -> str:
        """Return the fields, as a request names them: ``{set, seats, options}``."""
        return "{" + ", ".join(f.alias or name for name, f in cls.model_fields.items()) + "}"


class GameOptions(Body):
    """A match's options (``null`` or absent: the default); the Arbitre checks the ranges
    against the Set (:func:`~tournoyons_gui.arbitre.match.check_options`)."""

    timeout: int | None = Field(
        None,
        description=f"TimeOut, seconds an engine has for a move (default {DEFAULT_TIMEOUT}).",
        json_schema_extra={"minimum": MIN_TIMEOUT, "maximum": MAX_TIMEOUT},
    )
    level: int | None = Field(None, description="The Set's rule Level (default 1; Poker: 1 or 2).")
    wait: int | None = Field(
        None,
        description="Tenths of a second the pages wait between moves (default 0).",
        json_schema_extra={"minimum": 0, "maximum": 600},
    )
    init_as_board: bool | None = Field(
        None, description="Send the explicit empty board instead of Init (decision 14)."
    )
    person_timeout: int | None = Field(
        None,
        description="Seconds a person has for a move (null or absent: 900).",
        json_schema_extra={"minimum": 1, "maximum": 86400},
    )
    bot_timeout: int | None = Field(
        None,
        description=f"Seconds a botsarena bot has to answer (default {DEFAULT_BOT_TIMEOUT}).",
        json_schema_extra={"minimum": 1, "maximum": 60},
    )
    deals: int | None = Field(
        None, description="Deals in a match of a Set played in deals (Tarot: 1 to 40)."
    )
    open_table: bool | None = Field(
        None, description="Spectators see every hand while the game is played (Tarot)."
    )
    seed: int | None = Field(
        None,
        description="The game's seed: its deal (Poker, Tarot) and the built-in engines' "
        "choices, so that the game can be played again (null or absent: none).",
        json_schema_extra={"minimum": 0, "maximum": MAX_SEED},
    )

    def options(self) -> Options:
        """Return the match's :class:`Options`, defaults for what is absent."""
        return Options(
            timeout=DEFAULT_TIMEOUT if self.timeout is None else self.timeout,
            level=1 if self.level is None else self.level,
            wait=self.wait or 0,
            init_as_board=self.init_as_board is True,
            person_timeout=self.person_timeout,
            bot_timeout=DEFAULT_BOT_TIMEOUT if self.bot_timeout is None else self.bot_timeout,
            deals=self.deals,
            open_table=self.open_table is True,
            seed=self.seed,
        )


def options_of(body: GameOptions | None) -> Options:
    """Return the :class:`Options` of a body's ``options`` (``None``: the defaults)."""
    return body.options() if body is not None else Options()


class SeatBody(Body):
    """A seat of a game: its kind, what plays it, the name shown."""

    kind: str = Field(
        description="builtin (our engine), engine (a URL), person, registered, bot ...",
        json_schema_extra=_seat_kinds,
    )
    engine: str = Field(
        "",
        description="builtin: the engine's name (random, perfect ...); engine, service, "
        "sync, bot: its URL; registered: the engine's id; person: empty.",
    )
    name: str = Field("", description="The name shown (default: the engine's).")

    def spec(self) -> SeatSpec:
        """Return the Arbitre's seat; raise :class:`GameError` for a ``cmd:`` engine (a
        process engine is never started from the web: :func:`refuse_command`)."""
        refuse_command(self.engine)
        return SeatSpec(self.kind, self.engine, self.name)


class GameBody(Body):
    """``POST /api/games``: start a game."""

    set: str = Field(description="The Set played (TicTacToe, Reversi ...).")
    seats: list[SeatBody] = Field(description="The seats in order (2, or 4 for Tarot).")
    options: GameOptions | None = None
    start_tray: str | None = Field(
        None, description="The position to start from, a Tray as the Set writes it."
    )


class AddedSetBody(Body):
    """``POST /api/sets``: add a game of one's own (engine protocol, chapter VI)."""

    name: str = Field(description="The Set's name (1-60 characters, not one played here).")
    interface_url: str = Field(description="The game's page (its interface), http(s).")
    referee_url: str = Field(description="Its referee, called for each move, http(s).")
    start_tray: str | None = Field(None, description="The first Tray (default Init).")
    simultaneous: bool | None = Field(None, description="Both players move at once.")


class EntrantBody(Body):
    """An entrant of a tournament: a seat, and a registered engine's edit ``token`` when it
    is not open to every tournament."""

    kind: str = Field(description="builtin, engine, registered ...", json_schema_extra=_seat_kinds)
    engine: str = Field("", description="As a seat's engine.")
    name: str = Field("", description="The name shown in the standings.")
    token: str = Field("", description="A registered engine's edit token.")

    def spec(self) -> EntrantSpec:
        """Return the tournaments' entrant; raise :class:`GameError` for a ``cmd:`` engine
        (:func:`refuse_command`)."""
        refuse_command(self.engine)
        return EntrantSpec(self.kind, self.engine, self.name, self.token)


class TournamentBody(Body):
    """``POST /api/tournaments``: start a tournament (anonymous: the server's caps apply;
    an organiser token lifts them)."""

    set: str = Field(description="The Set played.")
    entrants: list[EntrantBody] = Field(
        description=f"2 to {MAX_ENTRANTS} entrants.", json_schema_extra={"minItems": 2}
    )
    format: str = Field("round-robin", json_schema_extra={"enum": list(FORMATS)})
    games: int | None = Field(
        None,
        description="Games per pairing (default 2; at tables: per table, 1 to 4).",
        json_schema_extra={"minimum": 1, "maximum": 100},
    )
    rounds: int | None = Field(
        None, description="Swiss or tables rounds (0 or absent: enough to tell a winner)."
    )
    concurrency: int | None = Field(
        None,
        description="Games at once (default 4).",
        json_schema_extra={"minimum": 1, "maximum": 500},
    )
    options: GameOptions | None = None
    name: str | None = Field(None, description="The tournament's name (up to 100 characters).")


class EngineRegistration(Body):
    """``POST /api/engines``: register an engine (its edit token is answered once)."""

    name: str = Field(description=f"1-{MAX_REGISTERED_NAME} characters, unique here.")
    url: str = Field(description="Its URL (engine protocol), http(s).")
    sets: list[str] = Field(description="The Sets it plays (at least one).")
    poker_level2: bool = Field(False, description="It plays Poker's Level 2.")
    open_entry: bool = Field(
        False, alias="open", description="Anyone may enter it in a tournament."
    )
    call_key: str | None = Field(
        None,
        alias="key",
        description="The key its calls are signed with (up to 64 printable ASCII characters;"
        " a service engine without one is given one).",
    )
    kind: str | None = Field(
        None,
        description="engine (default), service or sync.",
        json_schema_extra={"enum": list(REGISTERED_KINDS)},
    )


class EngineChange(Body):
    """``POST /api/engines/<id>``: change a registration with its edit ``token``; a field
    left out is left as it is."""

    token: str = Field("", description="The edit token answered at registration (without it: 403).")
    name: str = keep()
    url: str = keep()
    sets: list[str] = keep()
    poker_level2: bool = keep()
    open_entry: bool = keep("open")
    retired: bool = keep()
    renew_key: bool = Field(False, description="true: a new call key, answered this once as key.")


class InterfaceRegistration(Body):
    """``POST /api/interfaces``: register a graphical interface (its edit token is answered
    once)."""

    name: str = Field(description=f"1-{MAX_REGISTERED_NAME} characters, unique here.")
    url: str = Field(description="Its page (interface protocol), http(s).")
    sets: list[str] = Field(description="The Sets it draws (at least one).")


class InterfaceChange(Body):
    """``POST /api/interfaces/<id>``: change a registration with its edit ``token``."""

    token: str = Field("", description="The edit token answered at registration (without it: 403).")
    name: str = keep()
    url: str = keep()
    sets: list[str] = keep()
    retired: bool = keep()


class BotsarenaMessage(Body):
    """``POST /engines/<set>/<name>/botsarena``: a botsarena message (seed 003): ``init``
    once, then ``play-turn`` for each move. The ``board`` is the Set's (ConnectFour: 6
    rows of 7 cells ``""``, ``"X"``, ``"O"``, row 0 at the bottom), read by the Set's own
    botsarena module; a field botsarena may add later is let through (``extra="allow"``),
    as botsarena's own bots do."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    action: str = Field(json_schema_extra={"enum": ["init", "play-turn"]})
    game: str | None = Field(None, examples=["connectFour"])
    players: int | None = None
    board: Any = None
    you: str | None = Field(None, description='"X" (the first player) or "O".')
    game_id: str | None = Field(None, alias="game-id")
    player_index: int | None = Field(None, alias="player-index")

    def message(self) -> dict[str, Any]:
        """Return the message as sent, its fields by their botsarena names (absent: left
        out)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class TesterPlay(Body):
    """``POST /tester/<set>/play``: the tester's hot-seat game, one move."""

    state: dict[str, Any] = Field(description="The state the last answer gave.")
    value: str = Field(description="The move, as a page would return it.")


def changes(body: Body, *, skip: Sequence[str] = ("token", "renew_key")) -> dict[str, Any]:
    """Return the fields a change gives (by field name; ``skip`` left out)."""
    return {name: getattr(body, name) for name in body.model_fields_set if name not in skip}


# --- errors ----------------------------------------------------------------------------


def parse(model: type[M], body: bytes) -> M:
    """Return ``body`` (a request's bytes) read as ``model``; raise :class:`GameError` with
    one sentence for the first thing wrong (an empty body: ``send a JSON object {...}``)."""
    if not body.strip():
        raise GameError(f"send a JSON object {model.shape()}")
    try:
        return model.model_validate_json(body)
    except ValidationError as refused:
        raise GameError(explain(model, refused.errors(include_url=False)[0], body)) from None


def _not_json(body: bytes, why: str) -> str:
    """Return why ``body`` could not be read (``why``: the parser's words)."""
    if "number out of range" in why:
        return "a number in the body is too large"
    try:
        json.dumps(json.loads(body), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "the body holds a lone surrogate (\\ud800-\\udfff): not text"
    except (ValueError, RecursionError):
        pass
    return "the body is not JSON"


def _where(loc: Sequence[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _described(annotation: Any) -> str:
    """Return what a value of ``annotation`` is, in words: ``a whole number``, ``a list of
    strings``, ``a list of {kind, engine, name}``."""
    annotation = _bare(annotation)
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin is list and args:
        inner = _described(args[0])
        return (
            f"a list of {inner.removeprefix('a ')}s"
            if inner.startswith("a ")
            else (f"a list of {inner}")
        )
    if isinstance(annotation, type) and issubclass(annotation, Body):
        return annotation.shape()
    if origin is dict or annotation is dict:
        return "an object"
    return {int: "a whole number", bool: "true or false", str: "a string"}.get(
        annotation, "a value"
    )


def _bare(annotation: Any) -> Any:
    """Return ``annotation`` without its ``| None``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _field_at(model: type[Body], loc: Sequence[int | str]) -> tuple[type[Body], Any]:
    """Return the model holding the field at ``loc`` and that field's annotation (``None``
    when the model has no such field)."""
    holder: type[Body] = model
    annotation: Any = None
    for part in loc:
        if isinstance(part, int):  # an item of a list
            annotation = next(iter(typing.get_args(_bare(annotation))), None)
            continue
        if annotation is not None:
            inner = _body_in(annotation)
            if inner is None:
                return holder, None
            holder = inner
        annotation = _by_alias(holder).get(part)
        if annotation is None:
            return holder, None
    return holder, annotation


def _body_in(annotation: Any) -> type[Body] | None:
    if isinstance(annotation, type) and issubclass(annotation, Body):
        return annotation
    for arg in typing.get_args(annotation):
        found = _body_in(arg)
        if found is not None:
            return found
    return None


def _by_alias(model: type[Body]) -> Mapping[str, Any]:
    return {(f.alias or name): f.annotation for name, f in model.model_fields.items()}


_KINDS = {
    "int_type": int,
    "int_parsing": int,
    "int_from_float": int,
    "bool_type": bool,
    "bool_parsing": bool,
    "string_type": str,
}


def explain(model: type[Body], error: Mapping[str, Any], body: bytes = b"") -> str:
    """Return one of pydantic's errors about a body of ``model`` as a sentence."""
    kind, loc = error["type"], tuple(error["loc"])
    where = _where(loc)
    if kind == "json_invalid":
        return _not_json(body, str(error.get("msg", "")))
    if not loc:
        return f"send a JSON object {model.shape()}"
    holder, annotation = _field_at(model, loc)
    if kind == "extra_forbidden":
        return f'unknown field "{where}": send {holder.shape()}'
    if kind == "missing":
        return f"{where} is required: send {holder.shape()}"
    if kind in _KINDS:
        return f"{where} is {_described(_KINDS[kind])}"
    if kind in ("model_type", "model_attributes_type", "dict_type", "list_type"):
        what = _described(annotation) if annotation is not None else "an object"
        return (
            f"{where} is {what}"
            if what.startswith(("a ", "an "))
            else (f"{where} is an object {what}")
        )
    return f"{where}: {error.get('msg', 'refused')}"
