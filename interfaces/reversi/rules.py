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

The Arbitre's part (engine protocol section 4, Reversi; decisions 14, 15, 22): engines get
the settled board ``0``/``3``/``4`` (``Init`` before the first move), the opponent's last
move (a cell or ``XX``) and no Gain; a player with no legal move is asked all the same and
must answer ``XX``. Pages also get the ``Legend`` the spec asks for: "Black passes" /
"White passes" after an ``XX``, "I pass" for a person asked who has no legal move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.grid import Codes
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player, opponent_move, pair_player
from tournoyons_gui.interfaces.reversi.board import (
    CELLS,
    DISC,
    EMPTY,
    GRID,
    HINT,
    INIT_TRAY,
    PASS,
    RAYS,
    TURNING_TO,
    apply_move,
    can_move,
    cell_index,
    cell_name,
    counts,
    legal_moves,
)

__all__ = ["RULES", "ReversiRules", "check_start", "interface_tray", "is_over", "move_number"]

_COLOUR = {Player.ONE: "Black", Player.TWO: "White"}


def is_over(board: str) -> bool:
    """Return whether neither player can move on the settled ``board`` (bitboards:
    :func:`~tournoyons_gui.interfaces.reversi.board.can_move`)."""
    return can_move(board) == (False, False)


def interface_tray(
    board: str,
    turned: tuple[int, ...] = (),
    mover: Player | None = None,
    next_player: Player | None = None,
) -> str:
    """Return the Tray an interface is sent for the settled ``board``.

    The discs in ``turned`` (turned by ``mover``'s move) are coded ``7`` or ``8`` so the page
    shows them turning; the cells legal for ``next_player`` (if any) are coded ``1``/``2``.
    """
    hints = legal_moves(board, next_player) if next_player is not None else ()
    return _marked(board, turned, mover, hints, next_player)


def _marked(
    board: str,
    turned: tuple[int, ...],
    mover: Player | None,
    hints: tuple[int, ...],
    next_player: Player | None,
) -> str:
    """Return :func:`interface_tray` of ``board`` given the cells legal for ``next_player``
    (``hints``), which the caller has computed already."""
    if not (turned and mover is not None) and not (hints and next_player is not None):
        return board
    cells = list(board)
    if mover is not None:
        for index in turned:
            cells[index] = TURNING_TO[mover]
    if next_player is not None:
        for index in hints:
            cells[index] = HINT[next_player]
    return "".join(cells)


#: The codes of a settled board.
_SETTLED = Codes(EMPTY + DISC[Player.ONE] + DISC[Player.TWO])
#: The players as the state numbers them.
_PLAYERS = {int(player): player for player in PAIR}


def _read_state(state: Mapping[str, Any]) -> tuple[str, Player, int]:
    """Return the board, the player to move and the moves played; raise IllegalMove."""
    board = state.get("tray")
    if not isinstance(board, str) or len(board) != CELLS or not _SETTLED.only(board):
        raise IllegalMove("the game's Tray is corrupt")
    number = state.get("player", 1)
    count = state.get("count", 0)
    player = _PLAYERS.get(number) if type(number) is int else None
    if player is None or type(count) is not int:  # not as play writes them: read them
        try:
            player = pair_player(number)
            count = int(count)
        except (TypeError, ValueError) as error:
            raise IllegalMove("the game's state is corrupt") from error
    return board, player, count


#: The four centre cells D4, E4, D5, E5: the standard start's, never emptied.
CENTRE = tuple(i for i, code in enumerate(INIT_TRAY) if code != EMPTY)


def check_start(board: str) -> str:
    """Return ``board`` when it is a start position (decision 15): 64 codes ``0``/``3``/``4``,
    the four centre cells taken, every disc linked to them through neighbouring discs
    (each move lays a disc next to one it turns), and a player able to move. Raise
    :class:`IllegalMove` with the reason otherwise."""
    if len(board) != CELLS or set(board) - {EMPTY, DISC[Player.ONE], DISC[Player.TWO]}:
        raise IllegalMove("a Reversi Tray is 64 characters 0, 3 (black) or 4 (white)")
    if any(board[i] == EMPTY for i in CENTRE):
        raise IllegalMove("the four centre cells D4, E4, D5, E5 are never empty")
    linked, todo = set(CENTRE), list(CENTRE)
    while todo:
        for ray in RAYS[todo.pop()]:
            if board[ray[0]] != EMPTY and ray[0] not in linked:
                linked.add(ray[0])
                todo.append(ray[0])
    loose = [i for i, code in enumerate(board) if code != EMPTY and i not in linked]
    if loose:
        raise IllegalMove(f"the disc on {cell_name(loose[0])} is not linked to the centre")
    if is_over(board):
        raise IllegalMove("neither player can move: the game is over")
    return board


def move_number(call: RefereeCall) -> int:
    """Return a referee call's ``MoveId``, the move number (1, 2 ...); raise
    :class:`IllegalMove` when it is missing or not a positive decimal number."""
    raw = call.move_id.strip()
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise IllegalMove("MoveId is the move number, 1 or more: odd when player one moves")
    return int(raw)


class ReversiRules:
    """The game.

    ``state`` is ``{"tray": 64 chars 0/3/4 (settled board), "player": 1 or 2 (to move),
    "count": moves played, "move1", "move2"}``; ``move1``/``move2`` are each player's last
    move, a cell or ``XX`` (absent before their first), which the engines are sent.
    """

    engine_set = "Reversi"
    levels: tuple[int, ...] = (1,)

    def new_game(self) -> Turn:
        """Return the standard start, black (player one) to move."""
        return Turn(
            state={"tray": INIT_TRAY, "player": int(Player.ONE), "count": 0},
            params=PageParams().tray("Init").input(Player.ONE).count(0).params,
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Play ``value`` (``A1``..``H8``, or ``XX`` with no legal move) for the player to move.

        Raises :class:`IllegalMove` when the value is not a cell or ``XX``, the cell is not
        legal, ``XX`` is sent with a legal move available, or the game is over.
        """
        board, player, count = _read_state(state)
        legal = legal_moves(board, player)
        if not legal and is_over(board):
            raise IllegalMove("the game is over")
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
        hints = legal_moves(board, following)
        over = not hints and is_over(board)
        asked = None if over else following
        params = (
            PageParams()
            .tray(_marked(board, turned, player, hints, asked))
            .move(player, value)
            .count(count)
            .ask(asked)
            .params
        )
        new_state = {
            **state,
            "tray": board,
            "player": int(following),
            "count": count,
            f"move{int(player)}": value,
        }
        return Turn(state=new_state, params=params, over=over)

    def text(self, state: Mapping[str, Any]) -> str:
        """Return the position drawn as text (``tournoyons-gui diff`` prints it): the eight
        rows, the top one first, of ``X`` (black, player one), ``O`` (white) and ``.``,
        with the rows' numbers and the columns' letters."""
        board = str(state.get("tray", ""))
        return GRID.drawn(board, {"3": "X", "4": "O"}, columns="ABCDEFGH", rows="12345678")

    # --- the Arbitre's part (engine protocol section 4, Reversi; decisions 14, 15, 22) -----

    #: A game may start from a position (``TrayStarts``, decision 15).
    tray_starts = True

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only), from the
        position ``tray`` when given (decision 15).

        ``tray``: the engines' settled Tray, 64 characters ``0``/``3``/``4`` (``Init`` or
        the standard start: the usual start), checked by :func:`check_start`. **Decision**:
        who moves follows from the discs' parity, as in a game without a pass: an even
        number of discs (4 + the moves), black (player one, ``Turn`` 1); odd, white
        (``Turn`` 2). A position reached through a pass is thus played with the other
        player to move; the player to move is asked even with no legal move and answers
        ``XX`` (decision 22). Raise :class:`IllegalMove` when the Tray is not a start
        position. ``count`` starts at ``Turn`` - 1 (0 or 1), so odd ``Turn`` means black.
        """
        if tray is None or tray in ("Init", INIT_TRAY):
            return self.new_game()
        board = check_start(tray)
        player = Player.ONE if sum(counts(board)) % 2 == 0 else Player.TWO
        count = int(player) - 1
        params = (
            PageParams()
            .tray(interface_tray(board, next_player=player))
            .input(player)
            .count(count)
            .params
        )
        return Turn(state={"tray": board, "player": int(player), "count": count}, params=params)

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move, even one with no legal move (it answers ``XX``,
        decision 22), or nobody once neither player can move."""
        board, player, _ = _read_state(state)
        return () if is_over(board) else (player,)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (moves played, passes and the one asked included), the opponent's
        last move (a cell or ``XX``) and the settled Tray ``0``/``3``/``4``: ``Init`` before
        the first move (the start position with ``init_as_board``; a game started from
        another position sends it from Turn 1). No Gain is sent."""
        board, _, count = _read_state(state)
        turn = count + 1
        begun = bool(count) or board != INIT_TRAY
        params = {
            "Turn": str(turn),
            **opponent_move(state, player),
            "Tray": board if begun or init_as_board else "Init",
        }
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when ``player`` is to move and it is a cell ``A1``..``H8`` that
        turns at least one disc, or ``XX`` when ``player`` has no such cell."""
        board, to_move, _ = _read_state(state)
        legal = legal_moves(board, to_move)
        if not legal and is_over(board):
            raise IllegalMove("the game is over")
        if player is not to_move:
            raise IllegalMove(f"player {int(player)} is not to move")
        if value == PASS:
            if legal:
                raise IllegalMove("XX is only for a player with no legal move")
            return value
        index = cell_index(value)
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A1-H8 or XX")
        if board[index] != "0":
            raise IllegalMove(f"cell {value} is taken")
        if index not in legal:
            raise IllegalMove(f"{value} turns no disc")
        return value

    person_value = engine_value

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the result once neither player can move: more discs wins, equal draws."""
        board, _, _ = _read_state(state)
        if not is_over(board):
            return None
        black, white = counts(board)
        if black == white:
            return Result(None, f"equal discs {black}-{white}")
        return Result(Player.ONE if black > white else Player.TWO, f"more discs {black}-{white}")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the opponent's last move and the final settled
        Tray (decision 10); no Gain."""
        board, _, count = _read_state(state)
        return {"Turn": str(count), **opponent_move(state, player), "Tray": board}

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input`` (nothing is hidden), with
        ``Legend`` "Black passes"/"White passes" after an ``XX``, or "I pass" when the page
        asks ``viewer`` and ``viewer`` has no legal move (interface protocol section 4)."""
        page = PageParams.shown(turn.params)
        passed = [p for p in PAIR if turn.params.get(f"Move{int(p)}") == PASS]
        if passed:
            page = page.legend(f"{_COLOUR[passed[-1]]} passes")
        if asking and viewer is not None and not turn.over:
            board, _, _ = _read_state(turn.state)
            if not legal_moves(board, viewer):
                page = page.legend("I pass")
        return page.params

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray: the settled board, 64 characters ``0``/``3``/``4``
        (``Init`` or empty: the standard start).

        The board cannot tell who is to move once a player has passed, so ``MoveId`` does,
        as ``Turn`` does for engines (decision 15: every move counts, ``XX`` included):
        odd, black (player one); even, white. Raise :class:`IllegalMove` when the Tray or
        ``MoveId`` cannot be read."""
        board = INIT_TRAY if call.tray.lower() in ("", "init") else call.tray
        if len(board) != CELLS or set(board) - {"0", DISC[Player.ONE], DISC[Player.TWO]}:
            raise IllegalMove("a Reversi Tray is 64 characters 0, 3 (black) or 4 (white)")
        number = move_number(call)
        player = Player.ONE if number % 2 else Player.TWO
        return {"tray": board, "player": int(player), "count": number - 1}

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray (the settled board, never ``Init``); Reversi keeps no
        gains (the call's are echoed)."""
        board, _, _ = _read_state(state)
        return board, "", ""


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = ReversiRules()
