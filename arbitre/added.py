"""Added games (manual 002 chapter VI, "jeu ajouté"; engine protocol section 6 and
decision 26): a Set the Arbitre plays with no rules of its own, from an interface URL (any
server speaking the interface protocol) and a referee URL that applies each move.

The Arbitre keeps only what the manual's Tournoyons kept: the ``Tray`` and the ``Gain``s
the referee returned, the moves and their count. For each move it calls the referee with
``Game`` (a 10-character id of the game for the referee), ``Method`` (when one was
returned), ``MoveId``, the move (``Move1`` when the first player's, ``Move2`` the second's,
both in a simultaneous game), ``Gain1``/``Gain2`` and ``Tray`` before the move, and
``ReturnURL`` (``<public_url>/added/return``, no query: decision 4).

The referee's answer is read server-side, never run: an HTTP redirect to ``ReturnURL``
(followed through at most five hops), or in a ``200`` page the first ``ReturnURL?...``
written in it (a ``<meta http-equiv="refresh">``, a link, or the string a script would
assign to ``location.href``). A return that does not echo ``Game`` and ``MoveId``, has a
``ReturnCode`` outside 1-5 or a ``Tray`` with ``/`` or ``|``, or does not come within
``TimeOut`` + 5 s ends the game with Status 9 (decision 26); ``ReturnCode`` 5 makes the
move's player lose, its ``Tray`` being the referee's reason.
"""

from __future__ import annotations

import asyncio
import html
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

from tournoyons_gui.arbitre.answer import Note, note
from tournoyons_gui.arbitre.query import read_query
from tournoyons_gui.arbitre.store import new_id
from tournoyons_gui.arbitre.urls import MAX_BODY, MAX_REDIRECTS, engine_url, host_allowed
from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    Engine,
    EngineRequest,
    IllegalMove,
    Result,
    Turn,
)
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player, opponent_move

__all__ = [
    "AddedRules",
    "AddedSet",
    "RefereeFailed",
    "check_added_name",
]

#: A value an engine or a person may send in an added game: printable ASCII, no space.
_VALUE = re.compile(r"[\x21-\x7e]{1,100}")
#: An added Set's name (a letter, then letters or digits, 2-40 characters), as a pattern
#: the OpenAPI document states too.
ADDED_NAME = r"[A-Za-z][A-Za-z0-9]{1,39}"
_NAME = re.compile(ADDED_NAME)
_CODES = {1: Player.ONE, 2: Player.TWO}


class RefereeFailed(Exception):
    """The referee gave no usable verdict (decision 26): the game ends with Status 9."""


def check_added_name(name: str) -> str:
    """Return ``name`` when it can name an added Set (a letter, then letters or digits, 2-40
    characters: it is sent as ``Set`` and used in URLs); raise ``ValueError``."""
    name = name.strip()
    if not _NAME.fullmatch(name):
        raise ValueError("an added Set's name is 2-40 letters or digits, starting with a letter")
    return name


def _text(value: object, default: str = "") -> str:
    return value if isinstance(value, str) else default


class AddedRules:
    """:class:`~tournoyons_gui.interfaces.plugin.ArbitreRules` for an added game: the
    turn order and the engines' parameters are generic, the verdicts the referee's.

    ``state``: ``{"tray", "gain1", "gain2", "method": the last returned (or ""),
    "count": moves applied (rounds in a simultaneous game), "move1", "move2": each player's
    last move, "code": the last ReturnCode, "movers": [players of the last move],
    "reason": ReturnCode 5's reason, "referee_game": the Game id sent to the referee}``.
    """

    levels: tuple[int, ...] = (1,)

    def __init__(self, added: AddedSet) -> None:
        self.added = added
        self.engine_set = added.name

    # --- the tester's part: an added game is not played hot-seat ------------------------

    def new_game(self) -> Turn:
        """Return the first turn (``Tray`` as registered, gains 0)."""
        return self.start()

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Refuse: only the referee applies a move (:meth:`apply`)."""
        raise IllegalMove("an added game's moves are applied by its referee")

    # --- the Arbitre's part ------------------------------------------------------------

    def start(self, level: int = 1) -> Turn:
        """Return the registered start position, gains ``0``, player one to move."""
        state: dict[str, Any] = {
            "tray": self.added.start_tray,
            "gain1": "0",
            "gain2": "0",
            "method": "",
            "count": 0,
            "code": 3,
            "movers": [],
            "reason": "",
            "referee_game": new_id(10),
        }
        return Turn(state=state, params=self._page(state))

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return both players in a simultaneous game, else the first on even counts."""
        if self.result(state) is not None:
            return ()
        if self.added.simultaneous:
            return (Player.ONE, Player.TWO)
        return (Player.ONE if int(state.get("count", 0)) % 2 == 0 else Player.TWO,)

    def move_id(self, state: Mapping[str, Any]) -> int:
        """Return the next move's ``MoveId`` (the move or round number)."""
        return int(state.get("count", 0)) + 1

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (odd for the first player), the gains, the opponent's last move
        and the Tray the referee returned (sections 1-3 with the game's name as ``Set``)."""
        move_id = self.move_id(state)
        turn = 2 * move_id - (2 - int(player)) if self.added.simultaneous else move_id
        params = {
            "Turn": str(turn),
            "Gain1": _text(state.get("gain1"), "0"),
            "Gain2": _text(state.get("gain2"), "0"),
            **opponent_move(state, player),
            "Tray": _text(state.get("tray")),
        }
        return EngineRequest(move_id=move_id, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it can be sent to the referee (1-100 printable ASCII
        characters); whether it is legal is the referee's verdict."""
        if not _VALUE.fullmatch(value):
            raise IllegalMove("a move is 1-100 printable characters without spaces")
        return value

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """The same check as an engine's ``Value`` (a person's ``ReturnValue``)."""
        return self.engine_value(state, player, value.strip())

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the verdict of the last ReturnCode (5: the move's player loses)."""
        code = state.get("code", 3)
        if code in _CODES:
            return Result(_CODES[code], f"the referee: player {code} wins")
        if code == 4:
            return Result(None, "the referee: a draw")
        if code == 5:
            movers = [Player(int(p)) for p in state.get("movers", [])]
            why = f"the referee: error in the move ({_text(state.get('reason'))})"
            return Result(movers[0].opponent if len(movers) == 1 else None, why)
        return None

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the gains, the opponent's last move, the Tray."""
        return {
            "Turn": str(int(state.get("count", 0))),
            "Gain1": _text(state.get("gain1"), "0"),
            "Gain2": _text(state.get("gain2"), "0"),
            **opponent_move(state, player),
            "Tray": _text(state.get("tray")),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the outside interface's parameters: the Tray as returned (nothing is
        hidden: an added game's Tray is public), the last moves, gains, count, Method."""
        return self._page(turn.state)

    def _page(self, state: Mapping[str, Any]) -> dict[str, str]:
        writer = PageParams().tray(_text(state.get("tray")))
        for player in PAIR:
            move = state.get(f"move{int(player)}")
            if isinstance(move, str):
                writer = writer.move(player, move)
        writer = writer.gains(_text(state.get("gain1"), "0"), _text(state.get("gain2"), "0"))
        params = writer.count(int(state.get("count", 0))).params
        method = _text(state.get("method"))
        if self.result(state) is not None:
            method = "End"
        if method:
            params["Method"] = method
        return params

    # --- calling the referee -----------------------------------------------------------

    async def apply(
        self,
        client: httpx.AsyncClient,
        state: Mapping[str, Any],
        moves: Mapping[Player, str],
        *,
        return_url: str,
        timeout: float,
        log: list[Note],
        allowed_hosts: frozenset[str] | None = None,
    ) -> Turn:
        """Send ``moves`` to the referee and return the turn after them; raise
        :class:`RefereeFailed` (the game then ends with Status 9). ``log`` gets the request,
        each hop and the verdict."""
        game = _text(state.get("referee_game")) or new_id(10)
        move_id = str(self.move_id(state))
        params: dict[str, str] = {"Game": game}
        if state.get("method"):
            params["Method"] = _text(state.get("method"))
        params["MoveId"] = move_id
        for player in PAIR:
            if player in moves:
                params[f"Move{int(player)}"] = moves[player]
        params["Gain1"] = _text(state.get("gain1"), "0")
        params["Gain2"] = _text(state.get("gain2"), "0")
        params["Tray"] = _text(state.get("tray"))
        params["ReturnURL"] = return_url
        url = engine_url(self.added.referee_url, params)
        log.append(note("referee", url[:8192]))
        import httpx

        try:
            async with asyncio.timeout(timeout):
                query = await _follow(client, url, return_url, log, timeout, allowed_hosts)
        except TimeoutError:
            raise RefereeFailed(f"the referee gave no verdict within {timeout:g} s") from None
        except httpx.TimeoutException:
            raise RefereeFailed(f"the referee gave no verdict within {timeout:g} s") from None
        except httpx.HTTPError as broken:
            raise RefereeFailed(f"the referee failed: {type(broken).__name__}") from None
        log.append(note("verdict", query[:8192]))
        returned = read_query(query)
        if returned.get("game") != game or returned.get("moveid") != move_id:
            raise RefereeFailed("the referee's return does not echo Game and MoveId")
        code_text = returned.get("returncode", "").strip()
        if code_text not in ("1", "2", "3", "4", "5"):
            raise RefereeFailed(f"the referee's ReturnCode {code_text[:20]!r} is not 1-5")
        tray = returned.get("tray", "")
        code = int(code_text)
        if code != 5 and ("/" in tray or "|" in tray):
            raise RefereeFailed("the referee's Tray carries / or |")
        count = int(state.get("count", 0)) + 1
        new: dict[str, Any] = {**state, "count": count, "code": code, "movers": sorted(moves)}
        new["method"] = returned.get("method", _text(state.get("method")))[:40]
        for player, value in moves.items():
            new[f"move{int(player)}"] = value
        if code == 5 and len(moves) > 1:
            reason = " ".join(tray.split())[:200]
            raise RefereeFailed(f"the referee found an error in a round of both: {reason}")
        if code == 5:
            new["reason"] = " ".join(tray.split())[:200]
        else:
            new["tray"] = tray[:MAX_BODY]
            new["gain1"] = returned.get("gain1", new.get("gain1", "0"))[:40]
            new["gain2"] = returned.get("gain2", new.get("gain2", "0"))[:40]
        return Turn(state=new, params=self._page(new), over=code != 3)


_REDIRECTS = (301, 302, 303, 307, 308)


async def _follow(
    client: httpx.AsyncClient,
    url: str,
    return_url: str,
    log: list[Note],
    timeout: float,
    allowed_hosts: frozenset[str] | None = None,
) -> str:
    """GET ``url``, following redirects, until one names ``return_url``; return that URL's
    query. Raises :class:`RefereeFailed`."""
    import httpx

    target = urllib.parse.urlsplit(return_url)

    def returns(candidate: str) -> str | None:
        parts = urllib.parse.urlsplit(candidate)
        same = (parts.scheme, parts.netloc, parts.path.rstrip("/")) == (
            target.scheme,
            target.netloc,
            target.path.rstrip("/"),
        )
        return parts.query if same else None

    for _hop in range(MAX_REDIRECTS + 1):
        async with client.stream("GET", url, timeout=httpx.Timeout(timeout)) as answer:
            location = answer.headers.get("location")
            log.append(note("answer", f"{answer.status_code} {url[:300]}"))
            if answer.status_code in _REDIRECTS and location:
                url = urllib.parse.urljoin(url, location)
                query = returns(url)
                if query is not None:
                    return query
                if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
                    raise RefereeFailed("the referee redirected to a non-http URL")
                if not host_allowed(url, allowed_hosts):
                    raise RefereeFailed("the referee redirected to a host not allowed here")
                log.append(note("redirect", url[:500]))
                continue
            if answer.status_code != 200:
                raise RefereeFailed(f"the referee answered HTTP {answer.status_code}")
            body = b""
            async for chunk in answer.aiter_bytes():
                body += chunk
                if len(body) >= MAX_BODY:
                    break
        text = html.unescape(body[:MAX_BODY].decode("utf-8", "replace"))
        found = re.search(re.escape(return_url) + r"\?[^\s\"'<>\\]*", text)
        if found is None:
            raise RefereeFailed("the referee's page names no return to ReturnURL")
        query = returns(found.group(0))
        return query or ""
    raise RefereeFailed(f"the referee redirected more than {MAX_REDIRECTS} times")


@dataclass(frozen=True, eq=False)
class AddedSet:
    """A Set added by a person (chapter VI): its ``name`` (sent as ``Set``; its ``key`` the
    lower-case name), the outside ``interface_url`` shown in the game's iframe with the
    interface protocol's parameters, the ``referee_url``, the ``start_tray`` (``Init`` by
    default) and whether both players move at once (``simultaneous``). It quacks like a
    :class:`~tournoyons_gui.interfaces.plugin.SetInterface` where the Arbitre needs one:
    ``name``, ``key``, ``arbitre`` (its :class:`AddedRules`), ``engines`` (none) and
    ``botsarena`` (none)."""

    name: str
    interface_url: str
    referee_url: str
    start_tray: str = "Init"
    simultaneous: bool = False
    engines: Mapping[str, Engine] = field(default_factory=dict)
    botsarena: None = None
    rules: AddedRules = field(init=False)

    def __post_init__(self) -> None:
        """Make the Set's rules."""
        object.__setattr__(self, "rules", AddedRules(self))

    @property
    def key(self) -> str:
        """Return the lower-case name."""
        return self.name.lower()

    @property
    def arbitre(self) -> ArbitreRules:
        """Return the Set's rules (the referee's, through :class:`AddedRules`)."""
        return self.rules

    def page_url(self, query: str) -> str:
        """Return the outside interface's URL with ``query`` added."""
        joiner = "&" if "?" in self.interface_url else "?"
        return f"{self.interface_url}{joiner}{query}"
