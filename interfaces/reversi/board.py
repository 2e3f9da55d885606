"""Reversi: reading ``Tray`` and ``Move1``/``Move2`` into the board drawn on the page.

The board is 8x8, columns ``A``..``H`` left to right, rows ``1``..``8`` top to bottom; a
cell is named column first (``C5``). ``Tray`` is 64 characters, the top row first:

- ``0`` empty; ``1`` empty and legal for black (player one); ``2`` empty and legal for
  white (player two);
- ``3`` a black disc; ``4`` a white disc;
- ``7`` a disc turning from white to black; ``8`` a disc turning from black to white
  (shown first in its old colour, then turned ``Wait`` tenths of a second later).

``Move1``/``Move2`` is a cell, or ``XX``: "I pass" (no legal move). The game logic here
(flips in the eight directions, legal moves) is shared with
:mod:`tournoyons_gui.interfaces.reversi.rules`.

Sources: manual chapter V, "Reversi"; spec ``interface-protocol.md`` section 4 (Reversi),
whose Decision sets ``Init`` to the standard start and lets the page compute legal moves
when the Tray carries no ``1``/``2`` hints.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tournoyons_gui.interfaces.grid import Cell, Codes, Grid, cells_of
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, Player

__all__ = [
    "CELLS",
    "GRID",
    "INIT_TRAY",
    "PASS",
    "Cell",
    "ReversiView",
    "apply_move",
    "build",
    "can_move",
    "cell_index",
    "cell_name",
    "counts",
    "flips",
    "legal_moves",
    "player_to_move",
    "read_move",
    "read_tray",
    "settle",
]

# Columns A..H left to right, rows 1..8 top to bottom: A1 top left.
GRID = Grid.lettered("ABCDEFGH", "12345678")
CELLS = GRID.size
PASS = "XX"

EMPTY = "0"
CODES = frozenset("0123478")
EMPTY_CODES = frozenset("012")

# A player's disc, the hint of a cell legal for them, a disc turning to their colour.
DISC = {Player.ONE: "3", Player.TWO: "4"}
HINT = {Player.ONE: "1", Player.TWO: "2"}
TURNING_TO = {Player.ONE: "7", Player.TWO: "8"}
# The disc as it stands once every impact is shown (7 and 8 have turned).
SETTLED = {"0": "0", "1": "0", "2": "0", "3": "3", "4": "4", "7": "3", "8": "4"}
# A turning disc's colour before the impact.
BEFORE = {"7": "4", "8": "3"}
# The codes a player's Move may point at: their disc, or their disc now being turned
# (when both Moves are sent, the older one may be turned by the newer one).
MOVE_CODES = {Player.ONE: frozenset("38"), Player.TWO: frozenset("47")}

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)
# From each cell, the cells along each of the eight directions to the edge, nearest first.
RAYS = tuple(
    tuple(ray for dx, dy in DIRECTIONS if (ray := GRID.ray(index, dx, dy)))
    for index in range(CELLS)
)


#: The name (``A1``..``H8``) of the cell at ``index`` 0..63 (row-major).
cell_name = GRID.name
#: The index 0..63 of cell ``name`` (``A1``..``H8``, upper case), ``None`` if not one.
cell_index = GRID.index


def _start() -> str:
    board = list(GRID.empty)
    for name, code in (("D4", "4"), ("E5", "4"), ("D5", "3"), ("E4", "3")):
        index = cell_index(name)
        assert index is not None
        board[index] = code
    return "".join(board)


# The standard start: D4 and E5 white, D5 and E4 black; black moves first.
INIT_TRAY = _start()


def read_tray(tray: str | None) -> str | None:
    """Return the 64-character Tray (``Init`` or absent: the start), ``None`` if unreadable."""
    return GRID.read_tray(tray, CODES, INIT_TRAY)


def read_move(value: str | None) -> str | None:
    """Return a Move or Value as ``A1``..``H8`` or ``XX`` (any case), ``None`` if not one."""
    if value is None:
        return None
    move = value.strip().upper()
    if move == PASS or cell_index(move) is not None:
        return move
    return None


def settle(tray: str) -> str:
    """Return ``tray`` as it stands once every impact is shown: ``0``, ``3`` and ``4`` only.

    Hints (``1``/``2``) become ``0``; turning discs (``7``/``8``) take their new colour.
    ``tray`` must be a readable Tray (see :func:`read_tray`).
    """
    return "".join(SETTLED[code] for code in tray)


# The rules on bitboards (:class:`~tournoyons_gui.interfaces.grid.Codes`: bit ``i`` is cell
# ``i``, row-major, so a step right is a shift by 1, down by 8, down-right by 9, down-left
# by 7). Each player's discs, and the cells a disc may be laid on (hints are empty).
_DISCS = {player: Codes(DISC[player]) for player in PAIR}
_OPEN = Codes("".join(sorted(EMPTY_CODES)))
# Columns B..G: a disc enclosed along a row or a diagonal is never on the edge columns, so
# keeping the runs to these stops a shift from wrapping a row's end onto the next row.
_INNER = int.from_bytes(b"\x7e" * 8, "little")
# Each step between neighbours' indexes (right, down, down-right, down-left), with whether
# the line runs along rows (kept to the inner columns).
_STEPS = ((1, True), (8, False), (9, True), (7, True))


def _enclosing(own: int, other: int, open_cells: int) -> int:
    """Return the cells of ``open_cells`` where a disc encloses, in some direction, one or
    more of ``other`` between it and one of ``own`` (bitboards): the legal moves of the
    owner of ``own``. Each direction is a Kogge-Stone fill of up to six discs from ``own``
    across ``other``, both ways along the line."""
    moves = 0
    inner = other & _INNER
    for step, along_rows in _STEPS:
        across = inner if along_rows else other
        pairs = across & (across << step)
        run = across & (own << step)
        run |= across & (run << step)
        run |= pairs & (run << 2 * step)
        run |= pairs & (run << 2 * step)
        moves |= run << step
        pairs = across & (across >> step)
        run = across & (own >> step)
        run |= across & (run >> step)
        run |= pairs & (run >> 2 * step)
        run |= pairs & (run >> 2 * step)
        moves |= run >> step
    return moves & open_cells


def _turned(own: int, other: int, move: int) -> int:
    """Return the discs of ``other`` a disc of ``own``'s owner laid on ``move`` (a
    bitboard of one cell) turns: in each direction, the run of ``other`` from the move when
    one of ``own`` ends it (the cell after the run's last: ``run`` shifted once more holds
    it, and otherwise only the run's own cells)."""
    turned = 0
    inner = other & _INNER
    for step, along_rows in _STEPS:
        across = inner if along_rows else other
        run, cell = 0, (move << step) & across
        while cell:
            run |= cell
            cell = (cell << step) & across
        if (run << step) & own:
            turned |= run
        run, cell = 0, (move >> step) & across
        while cell:
            run |= cell
            cell = (cell >> step) & across
        if (run >> step) & own:
            turned |= run
    return turned


def flips(board: str, index: int, player: Player) -> tuple[int, ...]:
    """Return the discs ``player`` would turn by playing at ``index`` on ``board``.

    ``board`` is a settled Tray (``0``/``3``/``4``; hints count as empty). The result is the
    indexes of the opponent's discs enclosed in a straight line, in any of the eight
    directions, between the new disc and another of ``player``'s, in index order; ``()``
    when the cell is taken or the move turns nothing (it is then not legal).
    """
    if board[index] not in EMPTY_CODES:
        return ()
    own, other = _DISCS[player].bits(board), _DISCS[player.opponent].bits(board)
    return cells_of(_turned(own, other, 1 << index))


@lru_cache(maxsize=2048)
def _mobility(board: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the legal moves of black and of white on ``board`` (:func:`legal_moves`).

    Cached by the board's text: the game master asks the same position for its result,
    the player asked, the value checked and the move played (each of which needs these),
    and a board is an immutable string, so a cached answer cannot go stale. Bounded (about
    a megabyte): many games at once only make more of their positions computed twice."""
    black, white = _DISCS[Player.ONE].bits(board), _DISCS[Player.TWO].bits(board)
    open_cells = _OPEN.bits(board)
    return (
        cells_of(_enclosing(black, white, open_cells)),
        cells_of(_enclosing(white, black, open_cells)),
    )


def legal_moves(board: str, player: Player) -> tuple[int, ...]:
    """Return the indexes where ``player`` may play on the settled ``board`` (64 codes),
    row-major: the cells where a disc turns one or more (:func:`flips`)."""
    return _mobility(board)[0 if player is Player.ONE else 1]


def can_move(board: str) -> tuple[bool, bool]:
    """Return whether black (player one) and white (player two) have a legal move on the
    settled ``board`` (64 codes): the game is over when neither has."""
    black, white = _mobility(board)
    return bool(black), bool(white)


def apply_move(board: str, index: int, player: Player) -> tuple[str, tuple[int, ...]]:
    """Play ``player``'s disc at ``index``: return the new settled board and the turned discs.

    Raises :class:`ValueError` when the move is not legal (cell taken, nothing turned).
    """
    turned = flips(board, index, player)
    if not turned:
        raise ValueError(f"{cell_name(index)} is not a legal move for player {int(player)}")
    cells = list(board)
    for i in (index, *turned):
        cells[i] = DISC[player]
    return "".join(cells), turned


def counts(board: str) -> tuple[int, int]:
    """Return the number of black and white discs on the settled ``board``."""
    return board.count(DISC[Player.ONE]), board.count(DISC[Player.TWO])


def player_to_move(tray: str, last_movers: tuple[Player, ...] = ()) -> Player:
    """Return whose turn it is on a readable ``tray``, for WebTest when ``Input`` is absent.

    The Tray's hints say it when they are all one player's; else the opponent of the only
    player whose Move is given; else the parity of the discs laid (black first, as if no
    one had passed).
    """
    hinted = {player for player, code in HINT.items() if code in tray}
    if len(hinted) == 1:
        return hinted.pop()
    if len(last_movers) == 1:
        return last_movers[0].opponent
    discs = sum(1 for code in tray if code not in EMPTY_CODES)
    return Player.ONE if discs % 2 == 0 else Player.TWO


# Each cell (:class:`tournoyons_gui.interfaces.grid.Cell`) in each code drawn, made once:
# ``state`` is ``0``-``4`` (a turning disc is drawn in its new colour, ``before`` it in its
# old one).
PLAIN_CELLS = Cell.table(GRID, "01234")


@dataclass(frozen=True, kw_only=True)
class ReversiView(View):
    """The board as drawn.

    - ``cells``: the 64 cells, row-major.
    - ``counts``: black's and white's discs once the impacts are shown; ``None`` when the
      Tray could not be read.
    - ``passed``: the players whose Move is ``XX``.
    - ``winner``: the player with more discs at the end (``Method=End``, or neither player
      can move); ``None`` during the game and on a draw.
    """

    cells: tuple[Cell, ...]
    counts: tuple[int, int] | None = None
    passed: tuple[Player, ...] = ()
    winner: Player | None = None

    @property
    def asks_pass(self) -> bool:
        """Return whether the only value the player may return is ``XX`` (no legal move)."""
        return self.playable == (PASS,)


def build(ctx: Context) -> ReversiView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` draws an empty board with nothing playable and the error code
    ``tray``. An unreadable ``Move1``/``Move2``, or one on a cell that does not hold that
    player's disc, is not drawn and gives ``move1``/``move2``. A Move ``XX`` shows that
    player's pass. The player asked may play the cells the Tray hints for them, or, when it
    hints none, the legal cells computed here; with none, only ``XX``.
    """
    position = GRID.read_position(
        ctx,
        CODES,
        start=INIT_TRAY,
        own=MOVE_CODES,
        passing=PASS,
        tray_error="Tray is 64 characters 0-4, 7, 8, or Init",
        move_error="Move is XX or a cell A1-H8 holding the player's disc",
    )
    tray, last, passed, errors = position.tray, position.moves, position.passed, position.errors

    drawn = "".join(position.board)
    board = settle(drawn)
    cells = tuple(
        Cell.on(GRID, i, SETTLED[code], BEFORE.get(code), last.get(i))
        if code in BEFORE or i in last
        else PLAIN_CELLS[i][code]
        for i, code in enumerate(drawn)
    )
    can_move = {p: bool(legal_moves(board, p)) for p in PAIR}
    hinted = {p: tuple(i for i, code in enumerate(drawn) if code == HINT[p]) for p in PAIR}
    over = tray is None or not (
        can_move[Player.ONE] or can_move[Player.TWO] or hinted[Player.ONE] or hinted[Player.TWO]
    )

    player: Player | None = ctx.input
    if player is None and ctx.webtest and tray is not None:
        player = player_to_move(drawn, tuple(dict.fromkeys([*last.values(), *passed])))
    playable: tuple[str, ...] = ()
    if player is not None and not over and ctx.method.takes_input:
        legal = hinted[player] or legal_moves(board, player)
        playable = tuple(cell_name(i) for i in legal) or (PASS,)

    score = counts(board) if tray is not None else None
    winner: Player | None = None
    if score is not None and (over or ctx.method is Method.END) and score[0] != score[1]:
        winner = Player.ONE if score[0] > score[1] else Player.TWO
    return ReversiView(
        tray="".join(cell.state for cell in cells),
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound=position.sound(winner is not None),
        cells=cells,
        counts=score,
        passed=tuple(passed),
        winner=winner,
    )
