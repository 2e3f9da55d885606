"""Seafight: reading ``Tray``, ``Gain1``/``Gain2`` and ``Move1``/``Move2`` into two boards.

Player one's board (``data-board="1"``, on the left) carries player one's fleet
(``Gain1``) and the shots player two fired at it (``Tray`` before ``***``); player two's
board (on the right) carries ``Gain2`` and the shots after ``***``. ``Move1`` is the shot
that just landed on player one's board, with its result (``C53``), ``Move2`` the one on
player two's board (manual chapter V: "Valeur pour le plateau du joueur concerné").

What each ``Method`` shows (spec section 2, manual chapter V):

- ``Double``: both boards, each with its whole fleet;
- ``Inverse``: a person, player one, against an engine: player one's fleet, and of player
  two's only the ships sunk; ``Standard``: the same with the person as player two;
- ``End``: every fleet; ``None``: no board;
- ``Prepare``: the board of the player asked (``Input``, else player one) with the classic
  fleet to place, the fleet being returned (``View.composed``).

A shot lands in two steps (``Wait``): its cell shows the shell falling (``data-before="0"``),
then the splash, the hit or the sinking; a sinking also turns the ship's other cells from
hit to sunk and, on a hidden board, reveals the ship.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tournoyons_gui.interfaces.grid import Cell
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, ParamError, Player, read_param
from tournoyons_gui.interfaces.seafight.fleet import (
    CLASSIC_FLEET,
    EMPTY_SHOTS,
    GRID,
    HIT,
    SUNK,
    Ship,
    cell_name,
    check_classic,
    check_layout,
    read_fleet,
    read_shot,
    read_shots,
    ship_at,
    ship_state,
    with_state,
)

__all__ = [
    "SEPARATOR",
    "Board",
    "Cell",
    "FleetMark",
    "PrepShip",
    "Preparation",
    "SeafightView",
    "ShipView",
    "build",
    "player_to_move",
    "read_tray",
]

SEPARATOR = "***"
FIRING_METHODS = frozenset({Method.STANDARD, Method.INVERSE, Method.DOUBLE})
# The board whose whole fleet each Method shows; the other shows its sunk ships only.
_REVEALED: dict[Method, frozenset[Player]] = {
    Method.DOUBLE: frozenset(PAIR),
    Method.END: frozenset(PAIR),
    Method.INVERSE: frozenset({Player.ONE}),
    Method.STANDARD: frozenset({Player.TWO}),
}
UNKNOWN = "0"  # a ship of a hidden fleet not sunk yet, in the row under its board
HIDDEN = "hidden"  # a sunk ship of a hidden fleet, before the shot that sank it lands


# Each cell (:class:`tournoyons_gui.interfaces.grid.Cell`) in each plain shot code, made
# once: most cells of a page are these. A cell's ``before`` is ``"0"`` on the cell a shot is
# landing on, ``"2"`` on the other cells of the ship it sinks.
PLAIN_CELLS = Cell.table(GRID, "0123")


@dataclass(frozen=True)
class ShipView:
    """A ship drawn on its board, ``state`` as the shots show it; ``before`` as for cells."""

    ship: Ship
    state: str
    before: str | None = None

    @property
    def code(self) -> str:
        """Return the ship in the manual's syntax, with the state drawn."""
        return with_state(self.ship, self.state).code


@dataclass(frozen=True)
class FleetMark:
    """One ship in the row under a board: ``size`` and ``state`` (``"0"``: not known)."""

    size: int
    state: str
    before: str | None = None


@dataclass(frozen=True)
class Board:
    """One player's board: the shots it took, the ships shown, and the fleet row.

    ``revealed``: the whole fleet is shown (else only its sunk ships); ``target``: the
    board the player asked fires at; ``lost``: every ship of the fleet is sunk.
    """

    player: Player
    cells: tuple[Cell, ...]
    ships: tuple[ShipView, ...]
    fleet: tuple[FleetMark, ...]
    revealed: bool
    target: bool = False
    lost: bool = False

    @property
    def shots(self) -> str:
        """Return the board's shots as shown once every impact has landed."""
        return "".join(cell.state for cell in self.cells)


@dataclass(frozen=True)
class PrepShip:
    """A ship of the fleet being prepared: its ``size`` and where it starts (or docked)."""

    size: int
    placed: Ship | None = None


@dataclass(frozen=True)
class Preparation:
    """``Method=Prepare``: the classic fleet for ``player`` to place, in size order."""

    player: Player
    ships: tuple[PrepShip, ...]


@dataclass(frozen=True, kw_only=True)
class SeafightView(View):
    """The page: the boards drawn (two, or the preparing player's one) and the winner."""

    boards: tuple[Board, ...] = ()
    preparation: Preparation | None = None
    winner: Player | None = None


def read_tray(tray: str | None) -> tuple[str, str] | None:
    """Return the shots on player one's and player two's boards, ``None`` if unreadable.

    ``Init`` (any case) or no Tray is two boards never fired at; otherwise the Tray is two
    strings of 100 codes ``0``..``3`` separated by ``***``.
    """
    if tray is None or tray.lower() == "init":
        return EMPTY_SHOTS, EMPTY_SHOTS
    parts = tray.split(SEPARATOR)
    if len(parts) != 2:
        return None
    one, two = read_shots(parts[0]), read_shots(parts[1])
    if one is None or two is None:
        return None
    return one, two


def player_to_move(shots: tuple[str, str]) -> Player:
    """Return who fires next: player one (who fires at board two) unless ahead."""
    fired_by_one = sum(code != "0" for code in shots[1])
    fired_by_two = sum(code != "0" for code in shots[0])
    return Player.ONE if fired_by_one <= fired_by_two else Player.TWO


def _laid_out(value: str) -> tuple[Ship, ...]:
    """Return the fleet ``value`` (a ``Gain``); raise :class:`FleetError` unless every ship
    is inside the board and none overlap."""
    ships = read_fleet(value)
    check_layout(ships)
    return ships


def _classic(value: str) -> tuple[Ship, ...]:
    """Return the fleet ``value`` (a ``Gain``); raise :class:`FleetError` unless it is a
    classic fleet, laid out (``check_classic``)."""
    ships = read_fleet(value)
    check_classic(ships)
    return ships


def _lost(fleet: tuple[Ship, ...] | None, shots: str, revealed: bool) -> bool:
    """Return whether every ship of the board is sunk.

    A revealed fleet is the whole fleet. A hidden one may be its sunk ships only: it is
    lost once they make up the classic fleet; without a fleet, once 17 cells are sunk.
    """
    sunk = [ship for ship in fleet or () if ship_state(ship, shots) == SUNK]
    if revealed and fleet:
        return len(sunk) == len(fleet)
    if sunk and not Counter(CLASSIC_FLEET) - Counter(ship.size for ship in sunk):
        return True
    return shots.count(SUNK) >= sum(CLASSIC_FLEET)


def _fleet_row(
    fleet: tuple[Ship, ...] | None, shown: list[ShipView], revealed: bool
) -> tuple[FleetMark, ...]:
    if revealed and fleet is not None:
        return tuple(FleetMark(v.ship.size, v.state, v.before) for v in shown)
    # A hidden fleet: its sunk ships, and the rest of the classic fleet not known yet.
    remaining = Counter(CLASSIC_FLEET)
    marks = [FleetMark(v.ship.size, SUNK, UNKNOWN if v.before else None) for v in shown]
    for mark in marks:
        remaining[mark.size] -= 1
    for size in CLASSIC_FLEET:
        if remaining[size] > 0:
            remaining[size] -= 1
            marks.append(FleetMark(size, UNKNOWN))
    return tuple(sorted(marks, key=lambda mark: -mark.size))


def _board(
    player: Player,
    shots: str,
    fleet: tuple[Ship, ...] | None,
    revealed: bool,
    move: tuple[int, str] | None,
    target: bool,
) -> Board:
    codes = list(shots)
    before: dict[int, str] = {}
    sunk_now: Ship | None = None
    if move is not None:
        index, result = move
        before[index] = "0"
        ship = ship_at(fleet or (), index)
        if result == SUNK and ship is not None:
            sunk_now = ship
            for other in ship.cells():
                if other != index and codes[other] in (HIT, SUNK):
                    codes[other] = SUNK
                    before[other] = HIT
    shots = "".join(codes)
    shown: list[ShipView] = []
    for ship in fleet or ():
        state = ship_state(ship, shots)
        if not revealed and state != SUNK:
            continue
        ship_before = None
        if ship is sunk_now:
            ship_before = HIT if revealed else HIDDEN
        shown.append(ShipView(ship, state, ship_before))
    landed = move[0] if move is not None else None
    cells = tuple(
        Cell.on(GRID, i, code, before.get(i), player if i == landed else None)
        if i == landed or i in before
        else PLAIN_CELLS[i][code]
        for i, code in enumerate(codes)
    )
    return Board(
        player=player,
        cells=cells,
        ships=tuple(shown),
        fleet=_fleet_row(fleet, shown, revealed),
        revealed=revealed,
        target=target,
        lost=_lost(fleet, shots, revealed),
    )


def _read_move(
    ctx: Context, player: Player, shots: list[str], errors: list[ParamError]
) -> tuple[int, str] | None:
    """Read ``Move<player>`` and put its result on the board's shots when not there yet."""
    raw = ctx.move(player)
    if raw is None:
        return None
    shot = read_shot(raw.upper())
    if shot is None:
        errors.append(ParamError(f"move{player}", "Move is a cell and a result, C53"))
        return None
    index, result = shot
    code = shots[player - 1][index]
    if code not in ("0", result):
        errors.append(ParamError(f"move{player}", f"Tray shows {code} on {cell_name(index)}"))
        return None
    if code == "0":
        board = shots[player - 1]
        shots[player - 1] = board[:index] + result + board[index + 1 :]
    return shot


def _prepare(ctx: Context, tray: str, errors: list[ParamError]) -> SeafightView:
    player = ctx.input or Player.ONE
    ships: tuple[PrepShip, ...] = tuple(PrepShip(size) for size in CLASSIC_FLEET)
    # A fleet given to the preparing player is where its ships start.
    fleet = read_param(_classic, ctx.gain(player), f"gain{player}", errors)
    if fleet is not None:
        ordered = sorted(fleet, key=lambda ship: -ship.size)
        ships = tuple(PrepShip(ship.size, with_state(ship, "1")) for ship in ordered)
    board = Board(
        player=player,
        cells=tuple(cells["0"] for cells in PLAIN_CELLS),
        ships=(),
        fleet=(),
        revealed=True,
    )
    return SeafightView(
        tray=tray,
        player=player,
        composed=True,
        errors=tuple(errors),
        boards=(board,),
        preparation=Preparation(player, ships),
    )


def build(ctx: Context) -> SeafightView:
    """Build the page's view model from the Context; never raises.

    Unreadable parameters are reported by name and left out: ``tray`` (two boards never
    fired at are drawn and nothing is playable), ``gain1``/``gain2`` (a fleet that is not
    whole ships, or with a ship past the edge or on another: no ship drawn),
    ``move1``/``move2`` (not ``C53``, or a result the Tray contradicts: not drawn).
    """
    errors: list[ParamError] = []
    read = read_tray(ctx.tray)
    if read is None:
        errors.append(ParamError("tray", "Tray is 100 shots 0-3, ***, 100 shots 0-3, or Init"))
    shots = list(read or (EMPTY_SHOTS, EMPTY_SHOTS))
    if ctx.method is Method.PREPARE:
        return _prepare(ctx, SEPARATOR.join(shots), errors)

    fleets = {
        player: read_param(_laid_out, ctx.gain(player), f"gain{player}", errors) for player in PAIR
    }
    moves = {player: _read_move(ctx, player, shots, errors) for player in PAIR}

    player: Player | None = ctx.input
    if player is None and ctx.webtest:
        player = player_to_move((shots[0], shots[1]))
    revealed = _REVEALED.get(ctx.method, frozenset())
    boards = tuple(
        _board(
            p,
            shots[p - 1],
            fleets[p],
            p in revealed,
            moves[p],
            target=player is not None and p is player.opponent,
        )
        for p in PAIR
    )
    losers = [board.player for board in boards if board.lost]
    winner = losers[0].opponent if len(losers) == 1 else None
    over = bool(losers)

    playable: tuple[str, ...] = ()
    if player is not None and ctx.method in FIRING_METHODS and read is not None and not over:
        target = boards[player.opponent - 1]
        playable = tuple(cell.name for cell in target.cells if cell.state == "0")
    if not playable:
        boards = tuple(
            Board(b.player, b.cells, b.ships, b.fleet, b.revealed, False, b.lost) for b in boards
        )
    moved = any(moves.values())
    return SeafightView(
        tray=SEPARATOR.join(board.shots for board in boards),
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if ctx.method is Method.END and winner else ("move" if moved else None),
        boards=boards,
        winner=winner,
    )
