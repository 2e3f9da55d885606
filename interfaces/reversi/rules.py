"""Reversi rules (standard Othello), as the Arbitre applies them, for the tester's games.

Black (player one) moves first from the standard start. A move lays a disc that encloses,
in a straight line in any of the eight directions, one or more of the opponent's discs
between it and another of the mover's; every enclosed disc is turned. A player with no
legal move passes, returning ``XX``, and only then. The game ends when neither player can
move; the one with more discs wins (equal counts: a draw).

The pages sent carry what the manual gives an interface: the Tray with ``1``/``2`` on the
cells legal for the next player and ``7``/``8`` on the discs the last move turned, the
mover's ``Move1``/``Move2``, ``Count`` (moves played, passes included), ``Input``, and
``Method=End`` once the game is over. Source: manual chapter V, "Reversi"; spec section 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player
from interfaces.reversi.board import (
    CELLS,
    DISC,
    HINT,
    INIT_TRAY,
    PASS,
    TURNING_TO,
    apply_move,
    cell_index,
    legal_moves,
)

__all__ = ["ReversiRules", "interface_tray", "is_over"]

_INPUT = {Player.ONE: "One", Player.TWO: "Two"}


def is_over(board: str) -> bool:
    """Return whether neither player can move on the settled ``board``."""
    return not legal_moves(board, Player.ONE) and not legal_moves(board, Player.TWO)


def interface_tray(
    board: str, turned: tuple[int, ...] = (), mover: Player | None = None,
    next_player: Player | None = None,
) -> str:
    """Return the Tray an interface is sent for the settled ``board``.

    The discs in ``turned`` (turned by ``mover``'s move) are coded ``7`` or ``8`` so the page
    shows them turning; the cells legal for ``next_player`` (if any) are coded ``1``/``2``.
    """
    cells = list(board)
    if mover is not None:
        for index in turned:
            cells[index] = TURNING_TO[mover]
    if next_player is not None:
        for index in legal_moves(board, next_player):
            cells[index] = HINT[next_player]
    return "".join(cells)


def _read_state(state: Mapping[str, Any]) -> tuple[str, Player, int]:
    """Return the board, the player to move and the moves played; raise IllegalMove."""
    board = state.get("tray")
    if (not isinstance(board, str) or len(board) != CELLS
            or set(board) - {"0", DISC[Player.ONE], DISC[Player.TWO]}):
        raise IllegalMove("the game's Tray is corrupt")
    try:
        player = Player(int(state.get("player", 1)))
        count = int(state.get("count", 0))
    except (TypeError, ValueError) as error:
        raise IllegalMove("the game's state is corrupt") from error
    return board, player, count


class ReversiRules:
    """The game.

    ``state`` is ``{"tray": 64 chars 0/3/4 (settled board), "player": 1 or 2 (to move),
    "count": moves played}``.
    """

    def new_game(self) -> Turn:
        """Return the standard start, black (player one) to move."""
        return Turn(
            state={"tray": INIT_TRAY, "player": int(Player.ONE), "count": 0},
            params={"Tray": "Init", "Input": "One", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Play ``value`` (``A1``..``H8``, or ``XX`` with no legal move) for the player to move.

        Raises :class:`IllegalMove` when the value is not a cell or ``XX``, the cell is not
        legal, ``XX`` is sent with a legal move available, or the game is over.
        """
        board, player, count = _read_state(state)
        if is_over(board):
            raise IllegalMove("the game is over")
        legal = legal_moves(board, player)
        turned: tuple[int, ...] = ()
        if value == PASS:
            if legal:
                raise IllegalMove("XX is only for a player with no legal move")
        else:
            index = cell_index(value)
            if index is None:
                raise IllegalMove(f"{value!r} is not a cell A1-H8 or XX")
            if index not in legal:
                raise IllegalMove(f"{value} is not a legal move")
            board, turned = apply_move(board, index, player)

        count += 1
        following = player.opponent
        over = is_over(board)
        params = {
            "Tray": interface_tray(board, turned, player, None if over else following),
            f"Move{int(player)}": value,
            "Count": str(count),
        }
        if over:
            params["Method"] = "End"
        else:
            params["Input"] = _INPUT[following]
        new_state = {"tray": board, "player": int(following), "count": count}
        return Turn(state=new_state, params=params, over=over)
