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
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic.config import JsonDict

from tournoyons_gui.arbitre.added import ADDED_NAME
from tournoyons_gui.arbitre.match import (
    DEFAULT_BOT_TIMEOUT,
    DEFAULT_PERSON_TIMEOUT,
    DEFAULT_TIMEOUT,
    MAX_REGISTERED_NAME,
    MAX_SEAT_NAME,
    MAX_SEED,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    TEXT_PATTERN,
    GameError,
    Options,
    SeatSpec,
)
from tournoyons_gui.arbitre.outbound import MAX_URL
from tournoyons_gui.arbitre.seats import KINDS
from tournoyons_gui.arbitre.tables import TABLE_SEATS
from tournoyons_gui.arbitre.tournaments import EntrantSpec
from tournoyons_gui.arbitre.tournaments.registrations import KEY, REGISTERED_KINDS
from tournoyons_gui.arbitre.tournaments.service import (
    ENTRANT_KINDS,
    FORMATS,
    MAX_CONCURRENCY,
    MAX_ENTRANTS,
    MAX_GAMES,
    MAX_TOURNAMENT_NAME,
)

__all__ = [
    "AddedSetBody",
    "Body",
    "EngineChange",
    "EngineRegistration",
    "EntrantBody",
    "GameBody",
    "GameOptions",
    "InterfaceChange",
    "InterfaceRegistration",
    "SeatBody",
    "TournamentBody",
    "changes",
    "explain",
    "options_of",
    "parse",
]

M = TypeVar("M", bound="Body")


def _whole(value: Any) -> Any:
    # JSON Schema's integer is a number without a fraction: 20.0 is 20 (RFC 8259 has one
    # kind of number); 20.5, "20" and true stay refused by the strict check after this.
    if type(value) is float and value.is_integer():
        return int(value)
    return value


#: A whole number as JSON Schema's ``integer`` reads it (``20`` or ``20.0``).
Whole = Annotated[int, BeforeValidator(_whole)]


def _seat_kinds(schema: dict[str, Any]) -> None:
    # Read when the schema is made: a seat kind registered later is in it too.
    schema["enum"] = list(KINDS)


#: The mark of a Set's name in a schema: the document puts there the names of the Sets
#: its server plays (:func:`~tournoyons_gui.arbitre.web.openapi.document`).
SETS = "x-sets"


def _set_name(schema: dict[str, Any]) -> None:
    schema[SETS] = True


def _set_names(schema: dict[str, Any]) -> None:
    schema["items"][SETS] = True
    schema["minItems"] = 1


#: A URL's schema: http(s), at most the outbound policy's length (the policy checks the
#: rest: a host, no credentials, a host allowed here).
URL: JsonDict = {"maxLength": MAX_URL, "pattern": "^\\s*[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9]"}
#: A registered name's schema: 1 to 60 characters, no control character.
REGISTERED_NAME: JsonDict = {
    "minLength": 1,
    "maxLength": MAX_REGISTERED_NAME,
    "pattern": TEXT_PATTERN,
}


def keep(
    alias: str | None = None,
    description: str | None = None,
    extra: JsonDict | Callable[[dict[str, Any]], None] | None = None,
) -> Any:
    """A change's field: absent, it is left as it is (``None`` in the model, no default
    in the schema; ``null`` is refused as any other wrong type); ``extra``: its schema's
    limits, as the registration's field has them."""

    def unchanged(schema: dict[str, Any]) -> None:
        schema.pop("default", None)
        if callable(extra):
            extra(schema)
        elif extra:
            schema.update(extra)

    return Field(None, alias=alias, description=description, json_schema_extra=unchanged)


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

    timeout: Whole | None = Field(
        None,
        description=f"TimeOut, seconds an engine has for a move (default {DEFAULT_TIMEOUT}).",
        json_schema_extra={"minimum": MIN_TIMEOUT, "maximum": MAX_TIMEOUT},
    )
    level: Whole | None = Field(
        None, description="The Set's rule Level (default 1; Poker: 1 or 2)."
    )
    wait: Whole | None = Field(
        None,
        description="Tenths of a second the pages wait between moves (default 0).",
        json_schema_extra={"minimum": 0, "maximum": 600},
    )
    init_as_board: bool | None = Field(
        None, description="Send the explicit empty board instead of Init (decision 14)."
    )
    person_timeout: Whole | None = Field(
        None,
        description=f"Seconds a person has for a move (null or absent: {DEFAULT_PERSON_TIMEOUT}).",
        json_schema_extra={"minimum": 1, "maximum": 86400},
    )
    bot_timeout: Whole | None = Field(
        None,
        description=f"Seconds a botsarena bot has to answer (default {DEFAULT_BOT_TIMEOUT}).",
        json_schema_extra={"minimum": 1, "maximum": 60},
    )
    deals: Whole | None = Field(
        None, description="Deals in a match of a Set played in deals (Tarot: 1 to 40)."
    )
    open_table: bool | None = Field(
        None, description="Spectators see every hand while the game is played (Tarot)."
    )
    seed: Whole | None = Field(
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
        description="person (played through the pages), builtin (one of our engines), "
        "engine (a Tournoyons engine's URL), botsarena (a botsarena bot's URL), service or "
        "sync (an engine behind a school's wall), maitretarot (a MaitreTarot client), irc "
        "(seated by a timi room, never through this API).",
        json_schema_extra=_seat_kinds,
    )
    engine: str = Field(
        "",
        description="builtin: the engine's name (random, perfect ...; empty: the Set's "
        "first); engine, botsarena, service, sync: its URL; person: empty.",
        json_schema_extra={"maxLength": MAX_URL},
    )
    name: str = Field(
        "",
        description=f"The name shown (empty: the engine's; at most {MAX_SEAT_NAME} "
        "characters once its spaces are folded).",
        json_schema_extra={"pattern": TEXT_PATTERN},
    )

    def spec(self) -> SeatSpec:
        """Return the Arbitre's seat."""
        return SeatSpec(self.kind, self.engine, self.name)


class GameBody(Body):
    """``POST /api/games``: start a game."""

    set: str = Field(
        description="The Set played: one of this server's (any case is read).",
        json_schema_extra=_set_name,
    )
    seats: list[SeatBody] = Field(
        description=f"The seats in order (2, or {TABLE_SEATS} for a Set played at tables).",
        json_schema_extra={"minItems": 2, "maxItems": TABLE_SEATS},
    )
    options: GameOptions | None = None
    start_tray: str | None = Field(
        None, description="The position to start from, a Tray as the Set writes it."
    )


class AddedSetBody(Body):
    """``POST /api/sets``: add a game of one's own (engine protocol, chapter VI)."""

    name: str = Field(
        description="The Set's name: a letter, then letters or digits, 2-40 characters; not "
        "one played here.",
        json_schema_extra={"pattern": f"^\\s*{ADDED_NAME}\\s*$"},
    )
    interface_url: str = Field(
        description="The game's page (its interface), http(s).", json_schema_extra=URL
    )
    referee_url: str = Field(
        description="Its referee, called for each move, http(s).", json_schema_extra=URL
    )
    start_tray: str | None = Field(
        None,
        description="The first Tray (null, absent or blank: Init); at most 4000 characters, "
        "never / or |.",
        json_schema_extra={"maxLength": 4000, "pattern": "^[^/|]*$"},
    )
    simultaneous: bool | None = Field(None, description="Both players move at once.")


class EntrantBody(Body):
    """An entrant of a tournament: a seat, and a registered engine's edit ``token`` when it
    is not open to every tournament."""

    kind: str = Field(
        description="registered (a registered engine, by its id), engine (an engine's URL, "
        "registered on the way), botsarena (a bot's URL) or builtin (one of our engines).",
        json_schema_extra={"enum": list(ENTRANT_KINDS)},
    )
    engine: str = Field(
        "",
        description="registered: the engine's id; engine, botsarena: its URL; builtin: "
        "the engine's name (empty: the Set's first).",
        json_schema_extra={"maxLength": MAX_URL},
    )
    name: str = Field(
        "",
        description=f"The name shown in the standings (at most {MAX_REGISTERED_NAME} "
        "characters; a registered engine's own unless its token is given).",
        json_schema_extra={"maxLength": MAX_REGISTERED_NAME, "pattern": TEXT_PATTERN},
    )
    token: str = Field(
        "",
        description="A registered engine's edit token: needed to enter one that is not open "
        "to every tournament.",
    )

    def spec(self) -> EntrantSpec:
        """Return the tournaments' entrant."""
        return EntrantSpec(self.kind, self.engine, self.name, self.token)


class TournamentBody(Body):
    """``POST /api/tournaments``: start a tournament (anonymous: the server's caps apply;
    an organiser token lifts them)."""

    set: str = Field(
        description="The Set played: one of this server's (any case is read).",
        json_schema_extra=_set_name,
    )
    entrants: list[EntrantBody] = Field(
        description=f"2 to {MAX_ENTRANTS} entrants.",
        json_schema_extra={"minItems": 2, "maxItems": MAX_ENTRANTS},
    )
    format: str = Field(
        "round-robin",
        description="round-robin or swiss for a Set of two seats, tables for one of four.",
        json_schema_extra={"enum": list(FORMATS)},
    )
    games: Whole | None = Field(
        None,
        description=f"Games per pairing (null or absent: 2; 1 to {MAX_GAMES}; at tables: "
        "per table, 1 to 4).",
        json_schema_extra={"minimum": 1, "maximum": MAX_GAMES},
    )
    rounds: Whole | None = Field(
        None,
        description="Swiss or tables rounds (0, null or absent: enough to tell a winner).",
        json_schema_extra={"minimum": 0},
    )
    concurrency: Whole | None = Field(
        None,
        description=f"Games at once (null or absent: 4; at most {MAX_CONCURRENCY}).",
        json_schema_extra={"minimum": 1, "maximum": MAX_CONCURRENCY},
    )
    options: GameOptions | None = None
    name: str | None = Field(
        None,
        description=f"The tournament's name (longer than {MAX_TOURNAMENT_NAME} characters: "
        "cut; null, absent or blank: the Set and the format).",
        json_schema_extra={"pattern": TEXT_PATTERN},
    )


class EngineRegistration(Body):
    """``POST /api/engines``: register an engine (its edit token is answered once)."""

    name: str = Field(
        description=f"1-{MAX_REGISTERED_NAME} characters, unique here.",
        json_schema_extra=REGISTERED_NAME,
    )
    url: str = Field(description="Its URL (engine protocol), http(s).", json_schema_extra=URL)
    sets: list[str] = Field(
        description="The Sets it plays (at least one; any case is read).",
        json_schema_extra=_set_names,
    )
    poker_level2: bool = Field(False, description="It plays Poker's Level 2.")
    open_entry: bool = Field(
        False, alias="open", description="Anyone may enter it in a tournament."
    )
    call_key: str | None = Field(
        None,
        alias="key",
        description="The key its calls are signed with (up to 64 printable ASCII characters;"
        " a service engine without one is given one).",
        json_schema_extra={"pattern": f"^\\s*{KEY}\\s*$"},
    )
    kind: str | None = Field(
        None,
        description="engine (null or absent: engine), service or sync.",
        json_schema_extra={"enum": [*REGISTERED_KINDS, None]},
    )


class EngineChange(Body):
    """``POST /api/engines/<id>``: change a registration with its edit ``token``; a field
    left out is left as it is."""

    token: str = Field("", description="The edit token answered at registration (without it: 403).")
    name: str = keep(extra=REGISTERED_NAME)
    url: str = keep(extra=URL)
    sets: list[str] = keep(extra=_set_names)
    poker_level2: bool = keep()
    open_entry: bool = keep("open")
    retired: bool = keep()
    renew_key: bool = Field(False, description="true: a new call key, answered this once as key.")


class InterfaceRegistration(Body):
    """``POST /api/interfaces``: register a graphical interface (its edit token is answered
    once)."""

    name: str = Field(
        description=f"1-{MAX_REGISTERED_NAME} characters, unique here.",
        json_schema_extra=REGISTERED_NAME,
    )
    url: str = Field(description="Its page (interface protocol), http(s).", json_schema_extra=URL)
    sets: list[str] = Field(
        description="The Sets it draws (at least one; any case is read).",
        json_schema_extra=_set_names,
    )


class InterfaceChange(Body):
    """``POST /api/interfaces/<id>``: change a registration with its edit ``token``."""

    token: str = Field("", description="The edit token answered at registration (without it: 403).")
    name: str = keep(extra=REGISTERED_NAME)
    url: str = keep(extra=URL)
    sets: list[str] = keep(extra=_set_names)
    retired: bool = keep()


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


#: What an item of a list is called in a message, by the list's field: seats and
#: entrants are counted from 1, as the pages count them (seat 1 is the first).
ITEMS = {"seats": "seat", "entrants": "entrant"}


def _where(loc: Sequence[int | str]) -> str:
    """Return where ``loc`` (pydantic's location: field names and list indexes from 0) is,
    in words counted from 1: ``("seats", 0, "kind")`` -> ``seat 1's kind``, ``("sets",
    2)`` -> ``sets item 3``, ``("options", "timeout")`` -> ``options.timeout``."""
    text = ""
    parts = list(loc)
    for number, part in enumerate(parts):
        if isinstance(part, int):
            previous = parts[number - 1] if number else ""
            item = ITEMS.get(str(previous))
            if item is not None and text.endswith(str(previous)):
                text = text[: -len(str(previous))] + f"{item} {part + 1}"
            else:
                text += f" item {part + 1}"
        elif not text:
            text = part
        elif isinstance(parts[number - 1], int):
            text += f"'s {part}"
        else:
            text += f".{part}"
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
        inside = f" in {_where(loc[:-1])}" if len(loc) > 1 else ""
        return f'unknown field "{loc[-1]}"{inside}: send {holder.shape()}'
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
