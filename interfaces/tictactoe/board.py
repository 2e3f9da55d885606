"""TicTacToe: reading ``Tray`` and ``Move1``/``Move2`` into the board drawn on the page.

Source: manual chapter V, "TicTacToe"; spec section 4 (TicTacToe) and annex B (the
original page, which puts each Move's mark on its cell).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournoyons_gui.interfaces import grid
from tournoyons_gui.interfaces.lines import MARK, OWN, OWNER
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import Context, Player

GRID = grid.Grid.numbered(3, 3)
EMPTY_TRAY = GRID.empty
CODES = "01234"

# Tray codes 0 empty, 1/2 a player's mark, 3/4 a winning one: MARK, WINNING, OWNER, OWN
# (interfaces/lines.py).

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),  # rows
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),  # columns
    (0, 4, 8),
    (2, 4, 6),  # diagonals
)


class Cell(grid.Cell):
    """One cell (:class:`tournoyons_gui.interfaces.grid.Cell`): ``index`` 0..8 from the
    top left, named ``1``..``9``.

    A winning mark drawn after a Move is first shown as an ordinary one (``before``).
    """

    __slots__ = ()

    @property
    def number(self) -> int:
        """Return the cell's number, 1..9 (top-left to bottom-right)."""
        return self.index + 1


PLAIN_CELLS = Cell.table(GRID, CODES)


@dataclass(frozen=True, kw_only=True)
class TicTacToeView(View):
    """The board as drawn: nine cells, and the winner when winning marks are shown."""

    cells: tuple[Cell, ...]
    winner: Player | None = None


def read_move(value: str | None) -> int | None:
    """Return the cell number 1..9 of a Move or Value, or ``None`` if it is not one."""
    index = GRID.index(value)
    return None if index is None else index + 1


def player_to_move(tray: str) -> Player:
    """Return whose turn it is on ``tray``: player one when both have as many marks."""
    ones = sum(1 for code in tray if OWNER.get(code) is Player.ONE)
    twos = sum(1 for code in tray if OWNER.get(code) is Player.TWO)
    return Player.ONE if ones <= twos else Player.TWO


def build(ctx: Context) -> TicTacToeView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` draws an empty board with nothing playable and the error code
    ``tray``; an unreadable ``Move1``/``Move2``, or one on a cell the other player holds,
    is not drawn and gives ``move1``/``move2``. A valid Move puts that player's mark on an
    empty cell, as annex B does.
    """
    position = GRID.read_position(
        ctx,
        CODES,
        own=OWN,
        mark=MARK,
        tray_error="Tray is 9 characters 0-4, or Init",
        move_error="Move is a free or own cell 1-9",
    )
    board, last = position.board, position.moves

    winners = {OWNER[code] for code in board if code in "34"}
    winner = winners.pop() if len(winners) == 1 else None
    # The winning line is the impact of the move that made it: shown Wait tenths later.
    delay_win = bool(last) and winner is not None
    cells: list[Cell] = []
    for i, code in enumerate(board):
        before = MARK[OWNER[code]] if delay_win and code in "34" else None
        cells.append(
            PLAIN_CELLS[i][code]
            if before is None and i not in last
            else Cell.on(GRID, i, code, before, last.get(i))
        )

    shown = "".join(board)
    over = winner is not None or "0" not in shown or position.tray is None
    player, playable = GRID.offer(ctx, shown, over=over, to_move=lambda: player_to_move(shown))
    return TicTacToeView(
        tray=shown,
        player=player,
        playable=playable,
        errors=tuple(position.errors),
        sound=position.sound(winner is not None),
        cells=tuple(cells),
        winner=winner,
    )
