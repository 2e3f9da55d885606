"""Seafight rules, as the Arbitre applies them, for the tester's hot-seat games.

Manual chapter V, "Bataille navale": on the first turn each player returns a fleet (here
through ``Method=Prepare``, player one then player two; the classic fleet of sizes 5, 4, 3,
3, 2, inside the board, no overlap); then they fire in turn, player one first, one cell not
fired at yet on the opponent's board. A shot is water (``1``), a hit (``2``), or sinks the
ship when it was the ship's last cell not hit (every cell of the ship becomes ``3`` and the
ship's state ``3``). A player whose ships are all sunk loses; the game ends with
``Method=End`` and both fleets shown.

Hot-seat fairness: each turn's page shows what the player to move may see, as the Arbitre
shows a person playing an engine: player one's turns use ``Method=Inverse`` (``Gain1`` the
whole fleet, ``Gain2`` only player two's sunk ships), player two's ``Method=Standard``
(``Gain2`` whole, ``Gain1`` sunk ships only). ``Move1``/``Move2`` is the shot that just
landed on that player's board, with its result (``C53``): the board of the player now to
move, who sees it land.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tournoyons_gui.interfaces.memo import Memo
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import (
    PAIR,
    Method,
    PageParams,
    Player,
    opponent_move,
    pair_player,
)
from tournoyons_gui.interfaces.seafight.board import SEPARATOR, player_to_move
from tournoyons_gui.interfaces.seafight.fleet import (
    CELLS,
    EMPTY_SHOTS,
    HIT,
    INTACT,
    SUNK,
    FleetError,
    Ship,
    cell_name,
    check_classic,
    format_fleet,
    read_cell,
    read_fleet,
    read_shots,
    ship_at,
    ship_state,
    with_state,
)

__all__ = ["RULES", "SeafightRules", "fire"]

WATER = "1"
INIT = "Init"
#: A fleet's length in a referee Tray: 5 ships of 5 characters.
FLEET_LENGTH = 25


def fire(fleet: tuple[Ship, ...], shots: str, index: int) -> tuple[str, str]:
    """Fire at cell ``index`` of a board holding ``fleet``; return ``(shots, result)``.

    ``result`` is ``1`` water, ``2`` hit, ``3`` sunk (then every cell of the ship is ``3``).
    The cell must not have been fired at (raises :class:`IllegalMove`).
    """
    if shots[index] != "0":
        raise IllegalMove(f"{cell_name(index)} has been fired at already")
    codes = list(shots)
    ship = ship_at(fleet, index)
    if ship is None:
        codes[index] = WATER
        return "".join(codes), WATER
    codes[index] = HIT
    if all(codes[cell] in (HIT, SUNK) for cell in ship.cells()):
        for cell in ship.cells():
            codes[cell] = SUNK
        return "".join(codes), SUNK
    return "".join(codes), HIT


def _referee_board(text: str, owner: Player) -> tuple[str, tuple[Ship, ...]]:
    """Return the shots and the fleet of one board of a referee Tray: 100 shot codes,
    then ``owner``'s fleet (25 characters) once prepared; raise :class:`IllegalMove`."""
    shots = read_shots(text[:CELLS])
    if shots is None or len(text) not in (CELLS, CELLS + FLEET_LENGTH):
        raise IllegalMove(f"board {int(owner)} is 100 shot codes 0-3, then the fleet once prepared")
    try:
        fleet = read_fleet(text[CELLS:])
        if fleet:
            check_classic(fleet)
    except FleetError as error:
        raise IllegalMove(f"fleet {int(owner)}: {error}") from None
    for index, code in enumerate(shots):
        ship = ship_at(fleet, index)
        if code == "0" or (ship is None and code == WATER):
            continue
        sunk = ship is not None and all(shots[cell] != "0" for cell in ship.cells())
        if ship is None or code != (SUNK if sunk else HIT):
            raise IllegalMove(
                f"the shot on {cell_name(index)} of board {int(owner)} is not what fleet "
                f"{int(owner)} gives"
            )
    for ship in fleet:
        if ship.state != ship_state(with_state(ship, INTACT), shots):
            raise IllegalMove(f"ship {ship.code} has not the state the shots give it")
    return shots, tuple(with_state(ship, INTACT) for ship in fleet)


@functools.lru_cache(maxsize=1024)
def _not_classic(fleet: str) -> str | None:
    """Return why the fleet written ``fleet`` (readable: :func:`read_fleet`) is not a
    classic fleet laid out on the board (:func:`check_classic`), or ``None``; kept by text
    (a bounded cache): a game's two fleets are checked at every call of its rules."""
    try:
        check_classic(read_fleet(fleet))
    except FleetError as error:
        return str(error)
    return None


def _fleet_shown(fleet: tuple[Ship, ...], shots: str, whole: bool) -> str:
    """Return ``fleet`` with the states its shots give: every ship, or the sunk ones only."""
    codes = []
    for ship in fleet:
        state = ship_state(ship, shots)
        if whole or state == SUNK:
            head = _HEADS.get((ship.vertical, ship.size, ship.column, ship.row))
            if head is None:  # a ship no fleet of ours holds: its code, state replaced
                code = ship.code
                head = code[: len(code) - len(ship.state)]
            codes.append(head + state)
    return "".join(codes)


#: Each ship a fleet can write, as its code writes it without its state (``V3C5``).
_HEADS = {
    (vertical, size, column, row): Ship(vertical, size, column, row).code[:-1]
    for vertical in (False, True)
    for size in range(2, 6)
    for column in range(10)
    for row in range(10)
}


def _person_method(player: Player) -> Method:
    """Return the Method of a person's page: ``Inverse`` for player one, else ``Standard``
    (their own fleet whole, the other's sunk ships only)."""
    return Method.INVERSE if player is Player.ONE else Method.STANDARD


def _prepare(player: Player, count: int) -> PageParams:
    """Return the page asking ``player`` for a fleet."""
    return PageParams().method(Method.PREPARE).input(player).count(count)


#: ``Method`` and ``Input`` of the page of each player's turn to fire, as
#: :class:`PageParams` writes them (``Inverse``/``Standard``: :func:`_person_method`).
_FIRING_HEAD = {
    player: PageParams().method(_person_method(player)).input(player).params for player in PAIR
}


def _firing(
    player: Player, fleets: Sequence[tuple[Ship, ...]], shots: Sequence[str], count: int
) -> dict[str, str]:
    """Return the page of ``player``'s turn to fire: their fleet, the other's sunk ships
    (``Method``, ``Input``, ``Tray``, ``Gain1``, ``Gain2``, ``Count``, in this order)."""
    return {
        **_FIRING_HEAD[player],
        "Tray": SEPARATOR.join(shots),
        "Gain1": _fleet_shown(fleets[0], shots[0], whole=player is Player.ONE),
        "Gain2": _fleet_shown(fleets[1], shots[1], whole=player is Player.TWO),
        "Count": str(count),
    }


class _Position(NamedTuple):
    """A state read back (:func:`_read`): ``phase``, ``player`` (its ``next``), both
    ``fleets`` (``()`` until prepared) and their ``texts`` as the state writes them, the
    ``shots`` on both boards, ``fired`` (its ``count``)."""

    phase: str
    player: Player
    fleets: tuple[tuple[Ship, ...], ...]
    texts: tuple[str, ...]
    shots: tuple[str, ...]
    fired: int


#: A state's values as :func:`_read` keys them: ``phase``, ``next``, both fleets, both
#: shots, ``count``.
_Key = tuple[str, int, str, str, str, str, int]

#: The positions read last, by their state's values, and those ``play`` made, by the
#: values of the state it returns (a bounded memo).
_POSITIONS: Memo[_Key, _Position] = Memo(256)


def _read(state: Mapping[str, Any]) -> _Position:
    """Read a state back; raise :class:`IllegalMove` when it is not one of ours.

    A state of the shape :meth:`SeafightRules._state` writes (strings and whole numbers)
    is read once and kept, by its values (:data:`_POSITIONS`): every call of the rules on
    a position reads the same state."""
    phase, number, count = state.get("phase"), state.get("next"), state.get("count")
    fleets, shots = state.get("fleets"), state.get("shots")
    if (
        type(phase) is str
        and type(number) is int
        and type(count) is int
        and type(fleets) is list
        and type(shots) is list
        and len(fleets) == len(shots) == 2
        and all(type(text) is str for text in (*fleets, *shots))
    ):
        key = (phase, number, fleets[0], fleets[1], shots[0], shots[1], count)
        position = _POSITIONS.get(key)
        return position if position is not None else _POSITIONS.keep(key, _read_any(state))
    return _read_any(state)


def _kept(position: _Position) -> _Position:
    """Keep ``position``, which ``play`` made, as :func:`_read` would read its state
    (:meth:`SeafightRules._state` writes the fleets as ``position.texts``); return it."""
    phase, player, _, texts, shots, fired = position
    key = (phase, int(player), texts[0], texts[1], shots[0], shots[1], fired)
    return _POSITIONS.keep(key, position)


def _read_any(state: Mapping[str, Any]) -> _Position:
    """Read a state back, whatever its values' types; raise :class:`IllegalMove` when it
    is not one of ours (:func:`_read`)."""
    try:
        phase = str(state["phase"])
        player = pair_player(state["next"])
        fleets = [read_fleet(str(fleet)) for fleet in state["fleets"]]
        shots = [read_shots(str(board)) for board in state["shots"]]
        count = int(state["count"])
    except (KeyError, TypeError, ValueError) as error:
        raise IllegalMove(f"the game's state is corrupt: {error}") from error
    if phase not in ("prepare", "fire", "over") or len(fleets) != 2 or len(shots) != 2:
        raise IllegalMove("the game's state is corrupt")
    if shots[0] is None or shots[1] is None:
        raise IllegalMove("the game's state is corrupt: shots")
    if phase != "prepare":
        for fleet in state["fleets"]:
            problem = _not_classic(str(fleet))
            if problem is not None:
                raise IllegalMove(f"the game's state is corrupt: {problem}")
    texts = tuple(format_fleet(fleet) for fleet in fleets)
    return _Position(phase, player, tuple(fleets), texts, (shots[0], shots[1]), count)


class SeafightRules:
    """The game. ``state`` is a JSON object:

    ``{"phase": "prepare" | "fire" | "over", "next": 1 | 2 (the player to play; once over,
    the player whose fleet is sunk), "fleets": [fleet of one, fleet of two] ("" until
    prepared), "shots": [shots on one's board, shots on two's board], "count": shots fired,
    "move1", "move2": each player's last shot with its result (``C53``), "" before it}``.
    """

    #: The Set as engines receive it (engine protocol decision 2).
    engine_set = "SeaFight"
    levels = (1,)

    def new_game(self) -> Turn:
        """Return the first turn: player one prepares a fleet."""
        state = {
            "phase": "prepare",
            "next": 1,
            "fleets": ["", ""],
            "shots": [EMPTY_SHOTS, EMPTY_SHOTS],
            "count": 0,
            "move1": "",
            "move2": "",
        }
        return Turn(state=state, params=_prepare(Player.ONE, 0).params)

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply ``value``: a fleet while preparing, else a cell to fire at (``C5``)."""
        phase, player, read_fleets, texts, boards, count = _read(state)
        fleets, shots = list(read_fleets), list(boards)
        moves = [str(state.get("move1") or ""), str(state.get("move2") or "")]
        if phase == "over":
            raise IllegalMove("the game is over")
        if phase == "prepare":
            try:
                fleet = read_fleet(value)
                check_classic(fleet)
            except FleetError as error:
                raise IllegalMove(str(error)) from error
            fleets[player - 1] = tuple(with_state(ship, "1") for ship in fleet)
            if player is Player.ONE:
                new = self._state("prepare", Player.TWO, fleets, shots, count, moves)
                return Turn(state=new, params=_prepare(Player.TWO, count).params)
            new = self._state("fire", Player.ONE, fleets, shots, count, moves)
            return Turn(state=new, params=_firing(Player.ONE, fleets, shots, count))

        index = read_cell(value.strip().upper())
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        target = player.opponent
        board, result = fire(fleets[target - 1], shots[target - 1], index)
        shots[target - 1] = board
        count += 1
        moves[player - 1] = cell_name(index) + result
        boards = (shots[0], shots[1])
        if all(ship_state(ship, board) == SUNK for ship in fleets[target - 1]):
            _kept(_Position("over", target, read_fleets, texts, boards, count))
            new = self._state("over", target, texts, shots, count, moves)
            page = (
                PageParams()
                .method(Method.END)
                .tray(SEPARATOR.join(shots))
                .gains(
                    _fleet_shown(fleets[0], shots[0], whole=True),
                    _fleet_shown(fleets[1], shots[1], whole=True),
                )
                .count(count)
            )
            return Turn(state=new, params=page.move(target, moves[player - 1]).params, over=True)
        _kept(_Position("fire", target, read_fleets, texts, boards, count))
        new = self._state("fire", target, texts, shots, count, moves)
        params = _firing(target, fleets, shots, count)
        params[f"Move{int(target)}"] = moves[player - 1]
        return Turn(state=new, params=params)

    @staticmethod
    def _state(
        phase: str,
        player: Player,
        fleets: Sequence[tuple[Ship, ...] | str],
        shots: list[str],
        count: int,
        moves: list[str],
    ) -> dict[str, Any]:
        """Return the state of these values; ``fleets`` as ships, or as the state writes
        them (:func:`format_fleet`)."""
        return {
            "phase": phase,
            "next": int(player),
            "fleets": [
                fleet if isinstance(fleet, str) else format_fleet(fleet) for fleet in fleets
            ],
            "shots": list(shots),
            "count": count,
            "move1": moves[0],
            "move2": moves[1],
        }

    # --- the Arbitre's part (engine protocol section 4, SeaFight; decisions 14, 15, 17, 23) ---

    def start(self, level: int = 1) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only): player one's
        fleet is asked."""
        return self.new_game()

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to prepare or to fire, or nobody once the game is over."""
        position = _read(state)
        phase, player = position.phase, position.player
        return () if phase == "over" else (player,)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn``, the opponent's last shot with its result, and the Tray.

        ``Turn`` counts every move, fleets included (decision 15): 1 and 2 are the fleets,
        then ``count + 3``. ``Move1``/``Move2`` (``C53``) is the opponent's last shot, on
        this engine's board, absent before it. ``Tray`` is 200 characters: this engine's own
        shots (on the opponent's board) then the shots on its own board; ``Init`` while both
        are empty, or the 200 zeros with ``init_as_board`` (decisions 14, 17).
        """
        phase, next_player, _, _, shots, count = _read(state)
        turn = self._played(phase, next_player, count) + 1
        params = {
            "Turn": str(turn),
            **opponent_move(state, player),
            "Tray": self._engine_tray(shots, player, init_as_board),
        }
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for an engine's ``Value``: on its fleet turn a classic
        fleet of intact ships (``H5A01V4J21H3C51V3A51H2G91``, state ``1`` or ``I``), written
        back with state ``1``; then a cell ``A0``..``J9`` it has not fired at yet."""
        phase, asked, _, _, shots, _ = _read(state)
        if phase == "over":
            raise IllegalMove("the game is over")
        if player is not asked:
            raise IllegalMove(f"player {int(player)} is not asked now")
        if phase == "prepare":
            try:
                fleet = read_fleet(value)
                check_classic(fleet)
            except FleetError as error:
                raise IllegalMove(f"bad fleet: {error}") from error
            if any(ship.state != "1" for ship in fleet):
                raise IllegalMove("bad fleet: a prepared ship is intact (state 1)")
            return format_fleet(fleet)
        index = read_cell(value)
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        if shots[player.opponent - 1][index] != "0":
            raise IllegalMove(f"{value} has been fired at already")
        return value

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for a person's ``ReturnValue``: the fleet a ``Prepare``
        page returns, then a cell; letters in any case (decision 24)."""
        return self.engine_value(state, player, value.strip().upper())

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the winner once a fleet is all sunk (``play`` ends the game then)."""
        position = _read(state)
        phase, sunk = position.phase, position.player
        if phase != "over":
            return None
        return Result(sunk.opponent, "every ship sunk")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played, fleets included), both fleets with their ships'
        states in ``Gain1``/``Gain2`` (revealed on the final call only, decision 17), the
        opponent's last shot and this engine's 200-character Tray (``Init`` if no shot)."""
        phase, next_player, fleets, _, shots, count = _read(state)
        gains = {f"Gain{p}": _fleet_shown(fleets[p - 1], shots[p - 1], whole=True) for p in PAIR}
        return {
            "Turn": str(self._played(phase, next_player, count)),
            **gains,
            **opponent_move(state, player),
            "Tray": self._engine_tray(shots, player, init_as_board=False),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the page's parameters (interface protocol section 4, Seafight).

        - a person asked for a fleet: ``Method=Prepare`` and ``Count`` only;
        - the game over: ``Method=End``, both fleets;
        - a person's page: ``Inverse`` (player one) or ``Standard`` (player two), their own
          fleet whole, the opponent's sunk ships only (decision 23);
        - spectators: ``Double``; the fleets only when ``reveal`` (a replay). A hidden fleet
          is left out altogether, as ``Double`` draws whatever fleet it is given as whole.

        ``Tray`` is the shots on player one's board ``***`` those on player two's;
        ``Move1``/``Move2`` the shot just landed on that board, with its result.
        """
        state = turn.state
        phase, next_player, fleets, _, shots, count = _read(state)
        if phase == "prepare" and asking:
            return PageParams().method(Method.PREPARE).count(count).params
        page = PageParams().tray(SEPARATOR.join(shots))
        everyone = frozenset(PAIR)
        if phase == "over":
            method, shown = Method.END, everyone
        elif reveal:
            method, shown = Method.DOUBLE, everyone
        elif viewer is None:
            method, shown = Method.DOUBLE, frozenset()
        else:
            method, shown = _person_method(viewer), frozenset({viewer})
        page = page.method(method)
        for p in PAIR:
            if not fleets[p - 1]:
                continue
            if p in shown:
                page = page.gain(p, _fleet_shown(fleets[p - 1], shots[p - 1], whole=True))
            elif viewer is not None:  # a hidden board of Inverse/Standard: its sunk ships
                page = page.gain(p, _fleet_shown(fleets[p - 1], shots[p - 1], whole=False))
        # The shot just landed: fired by the player who moved last, on the other's board.
        if phase != "prepare" and count:
            shooter = next_player.opponent
            last = str(state.get(f"move{shooter}") or "")
            if last:
                page = page.move(shooter.opponent, last)
        return page.count(count).params

    @staticmethod
    def _played(phase: str, player: Player, count: int) -> int:
        """Return the moves played in a state of ``phase`` whose ``next`` is ``player``
        and ``count`` shots: the fleets prepared, then every shot (decision 15)."""
        return int(player) - 1 if phase == "prepare" else count + 2

    @staticmethod
    def _engine_tray(shots: Sequence[str], player: Player, init_as_board: bool) -> str:
        """Return ``player``'s engine Tray: own shots (on the opponent's board), then the
        shots on its own board; ``Init`` while both are empty unless ``init_as_board``."""
        tray = shots[player.opponent - 1] + shots[player - 1]
        if not init_as_board and tray == EMPTY_SHOTS * 2:
            return INIT
        return tray

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the referee Tray: the page's two boards separated by ``***``, shots on
        player one's board first (100 codes ``0`` not shot, ``1`` water, ``2`` hit, ``3``
        sunk, row 0 first), each followed by its owner's fleet, which engines do not see
        (25 characters, the ships' states as the shots give them); a board has no fleet
        while it is not prepared. ``Init`` or empty: nothing prepared.

        Fleets are prepared in turn (player one's, then player two's, as for engines:
        decision 17; ``Method=Prepare`` is echoed, not read), then player one fires first
        and they alternate: who is asked follows from the Tray (``MoveId`` is not read). A
        fleet all sunk is a game over. SeaFight keeps no gains (the fleets go in the Tray).
        Raise :class:`IllegalMove` when a board or a fleet cannot be read, or the shots are
        not those of the fleets and of alternate turns."""
        tray = call.tray
        if tray.lower() in ("", "init"):
            tray = EMPTY_SHOTS + SEPARATOR + EMPTY_SHOTS
        parts = tray.split(SEPARATOR)
        if len(parts) != 2:
            raise IllegalMove(f"the Tray is two boards separated by one {SEPARATOR}")
        (shots1, fleet1), (shots2, fleet2) = (
            _referee_board(part, owner) for part, owner in zip(parts, PAIR, strict=True)
        )
        fleets, shots = [fleet1, fleet2], [shots1, shots2]
        if not fleet1 or not fleet2:
            if fleet2 or shots1 != EMPTY_SHOTS or shots2 != EMPTY_SHOTS:
                raise IllegalMove("player one's fleet comes first, and shots after both")
            preparing = Player.TWO if fleet1 else Player.ONE
            return self._state("prepare", preparing, fleets, shots, 0, ["", ""])
        by_one, by_two = (sum(code != "0" for code in board) for board in (shots2, shots1))
        sunk = [p for p in PAIR if all(ship_state(s, shots[p - 1]) == SUNK for s in fleets[p - 1])]
        if by_one - by_two not in (0, 1) or len(sunk) > 1:
            raise IllegalMove(f"{by_one} shots of player one against {by_two} of player two")
        if sunk and by_one - by_two != (1 if sunk[0] is Player.TWO else 0):
            raise IllegalMove("a shot was fired after the last ship was sunk")
        phase, player = ("over", sunk[0]) if sunk else ("fire", player_to_move((shots1, shots2)))
        return self._state(phase, player, fleets, shots, by_one + by_two, ["", ""])

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the referee Tray (see :meth:`referee_position`); SeaFight keeps no gains
        (the call's are echoed)."""
        _, _, fleets, _, shots, _ = _read(state)
        boards = (
            shots[p - 1] + (_fleet_shown(fleets[p - 1], shots[p - 1], whole=True)) for p in PAIR
        )
        return SEPARATOR.join(boards), "", ""


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = SeafightRules()
