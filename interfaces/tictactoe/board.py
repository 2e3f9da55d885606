"""TicTacToe: reading ``Tray`` and ``Move1``/``Move2`` into the board drawn on the page.

Source: manual chapter V, "TicTacToe"; spec section 4 (TicTacToe) and annex B (the
original page, which puts each Move's mark on its cell).
"""

from __future__ import annotations

from dataclasses import dataclass

from interfaces.plugin import View
from interfaces.protocol import Context, Method, ParamError, Player

SIZE = 3
CELLS = SIZE * SIZE
EMPTY_TRAY = "0" * CELLS

# Tray codes: 0 empty, 1/2 a player's mark, 3/4 a winning mark of player one/two.
MARK = {Player.ONE: "1", Player.TWO: "2"}
WINNING = {Player.ONE: "3", Player.TWO: "4"}
OWNER = {"1": Player.ONE, "3": Player.ONE, "2": Player.TWO, "4": Player.TWO}

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)


@dataclass(frozen=True)
class Cell:
    """One cell. ``number`` 1..9 (top-left to bottom-right), ``row``/``column`` 0..2.

    ``state`` is the Tray code shown once every impact is drawn; ``before`` the code shown
    from the move until ``Wait`` has elapsed (a winning mark is first an ordinary one), or
    ``None``; ``last_move`` the player whose ``Move`` this cell is, or ``None``.
    """

    number: int
    state: str
    before: str | None = None
    last_move: Player | None = None

    @property
    def row(self) -> int:
        """Return the row, 0 at the top."""
        return (self.number - 1) // SIZE

    @property
    def column(self) -> int:
        """Return the column, 0 at the left."""
        return (self.number - 1) % SIZE


@dataclass(frozen=True, kw_only=True)
class TicTacToeView(View):
    """The board as drawn: nine cells, and the winner when winning marks are shown."""

    cells: tuple[Cell, ...]
    winner: Player | None = None


def read_tray(tray: str | None) -> str | None:
    """Return the 9-character Tray (``Init`` or absent: empty), ``None`` if unreadable."""
    if tray is None or tray.lower() == "init":
        return EMPTY_TRAY
    if len(tray) == CELLS and all(code in "01234" for code in tray):
        return tray
    return None


def read_move(value: str | None) -> int | None:
    """Return the cell number 1..9 of a Move or Value, or ``None`` if it is not one."""
    if value is not None and len(value) == 1 and value in "123456789":
        return int(value)
    return None


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
    errors: list[ParamError] = []
    tray = read_tray(ctx.tray)
    if tray is None:
        errors.append(ParamError("tray", "Tray is 9 characters 0-4, or Init"))
    board = list(tray or EMPTY_TRAY)

    last: dict[int, Player] = {}
    for mover in Player:
        raw = ctx.move(mover)
        if raw is None:
            continue
        number = read_move(raw)
        code = board[number - 1] if number else ""
        if number is None or OWNER.get(code, mover) is not mover:
            errors.append(ParamError(f"move{mover}", "Move is a free or own cell 1-9"))
            continue
        if code == "0":
            board[number - 1] = MARK[mover]
        last[number] = mover

    winners = {OWNER[code] for code in board if code in "34"}
    winner = winners.pop() if len(winners) == 1 else None
    # The winning line is the impact of the move that made it: shown Wait tenths later.
    delay_win = bool(last) and winner is not None
    cells = tuple(
        Cell(
            number=i + 1,
            state=code,
            before=MARK[OWNER[code]] if delay_win and code in "34" else None,
            last_move=last.get(i + 1),
        )
        for i, code in enumerate(board)
    )

    shown = "".join(board)
    over = winner is not None or "0" not in shown or tray is None
    player: Player | None = ctx.input
    if player is None and ctx.webtest:
        player = player_to_move(shown)
    if ctx.method in (Method.END, Method.NONE) or over:
        playable: tuple[str, ...] = ()
    else:
        playable = tuple(str(c.number) for c in cells if c.state == "0")
    return TicTacToeView(
        tray=shown,
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if winner else ("move" if last else None),
        cells=cells,
        winner=winner,
    )
