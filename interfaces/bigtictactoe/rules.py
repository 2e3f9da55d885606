"""BigTicTacToe (Morpion) rules, as the Arbitre applies them, for the tester's hot-seat games.

Players alternate, player one first, one mark per turn on an empty cell of the 10x10
board. Five marks of one player in a row, a column or a diagonal score one alignment,
recorded in that player's ``Gain`` by its first and last cells (``D3H3``). A cell may
belong to alignments in different directions, but not to two in the same direction. The
game ends when the board is full; the player with more alignments wins (equal: a draw).
Source: manual chapter V, "Morpion" (the syntax); our scoring rule (engine protocol decision
21); engine protocol
section 4, BigTicTacToe, and decision 21 (the same rule, as engines are told it).

Consequences and decisions of the same-direction rule:

- A move scores at most one alignment per direction (two fives through the move would
  share its cell), so up to four at once; they are recorded horizontal, vertical,
  diagonal (down-right), anti-diagonal, in that order.
- A line of 6 scores once; a line of 10 scores twice, as two fives sharing no cell.
- When a move completes a run longer than five, the five scored is, among those through
  the move sharing no cell with an earlier alignment of that direction, the first in Tray
  order (leftmost; topmost for the other directions). So ``A0``-``D0`` then ``F0``-``I0``
  and ``E0`` score ``A0E0``; ``J0`` later scores ``F0J0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from tournoyons_gui.interfaces.bigtictactoe.board import (
    CELLS,
    DIRECTIONS,
    EMPTY_TRAY,
    GRID,
    LENGTH,
    MARK,
    Direction,
    cell_name,
    player_to_move,
    read_alignments,
    read_cell,
)
from tournoyons_gui.interfaces.grid import Codes
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player, opponent_move

__all__ = ["RULES", "BigTicTacToeRules", "new_alignments", "recounted_alignments"]


def _run(tray: str, index: int, direction: Direction) -> list[int]:
    """Return the cells of the unbroken line of ``tray[index]``'s mark through ``index``.

    The cells are in Tray order (the run walks back, then forward, along ``direction``).
    """
    dx, dy = direction
    return [*reversed(GRID.run(tray, index, -dx, -dy)), index, *GRID.run(tray, index, dx, dy)]


def new_alignments(tray: str, gain: str, index: int) -> list[str]:
    """Return the alignments (``D3H3`` ...) the mark on ``tray[index]`` completes.

    ``tray`` already holds the mark; ``gain`` is its owner's alignments so far, whose cells
    are not reused in the same direction. See the module docstring for the choice.
    """
    if all(GRID.span(tray, index, *direction) < LENGTH for direction in DIRECTIONS):
        return []  # no five through the move: most moves (the gain need not be read)
    player = Player(int(tray[index]))
    earlier, _ = read_alignments(gain, player, None)
    used = {(cell, a.direction) for a in earlier for cell in a.cells}
    found: list[str] = []
    for direction in DIRECTIONS:
        run = _run(tray, index, direction)
        for first in range(len(run) - LENGTH + 1):
            window = run[first : first + LENGTH]
            if index in window and not any((cell, direction) in used for cell in window):
                found.append(cell_name(window[0]) + cell_name(window[-1]))
                break
    return found


def recounted_alignments(tray: str, player: Player) -> str:
    """Return the alignments ``player``'s marks hold on ``tray`` (a start position,
    decision 15), in the ``Gain`` syntax: the most the marks can score under decision 21.

    Each unbroken run of L of ``player``'s marks in a direction scores L // 5 alignments,
    cut from the run's first cell in Tray order (``A0``-``G0`` scores ``A0E0``; ``F0``, ``G0``
    may join a later alignment). They are written horizontal, vertical, diagonal,
    anti-diagonal, each direction's runs in Tray order of their first cell. Which five a
    game really scored depends on the order of its moves, which a Tray does not keep: the
    recount is the convention, the same as the most a player could have.
    """
    mark = MARK[player]
    found: list[str] = []
    for direction in DIRECTIONS:
        dx, dy = direction
        for index in range(CELLS):
            back = GRID.ray(index, -dx, -dy)
            if tray[index] != mark or (back and tray[back[0]] == mark):
                continue  # not the first cell of a run
            run = _run(tray, index, direction)
            for first in range(0, len(run) - LENGTH + 1, LENGTH):
                found.append(cell_name(run[first]) + cell_name(run[first + LENGTH - 1]))
    return "".join(found)


@lru_cache(maxsize=256)
def _claimed(gain: str) -> int | None:
    """Return the cells of ``gain``'s alignments as a bitboard (bit ``i``: Tray index
    ``i``) when each is readable and none shares a cell with an earlier one in its
    direction (:func:`read_alignments` on no board finds nothing wrong), else ``None``.

    Cached by the Gain's text, which the game master reads several times a move and which
    changes only when an alignment is made."""
    found, bad = read_alignments(gain, Player.ONE, None)
    if bad:
        return None
    cells = 0
    for alignment in found:
        for cell in alignment.cells:
            cells |= 1 << cell
    return cells


#: Each player's marks, read as a bitboard.
_MARKS = {player: Codes(MARK[player]) for player in PAIR}
#: The codes of the engines' Tray.
_ENGINE_CODES = Codes("012")


def _gain_ok(gain: str, player: Player, tray: str) -> bool:
    """Return whether ``gain`` is readable alignments on ``player``'s marks of ``tray``:
    ``not read_alignments(gain, player, tray)[1]``, which holds exactly when they are
    readable on no board (:func:`_claimed`) and every cell they claim holds the mark."""
    cells = _claimed(gain)
    return cells == 0 or (cells is not None and not cells & ~_MARKS[player].bits(tray))


def _read_state(state: Mapping[str, Any]) -> tuple[str, int, dict[Player, str]]:
    """Return ``(tray, count, gains)`` from a game's state; raise IllegalMove if corrupt."""
    tray = state.get("tray")
    count = state.get("count", 0)
    one, two = state.get("gain1", ""), state.get("gain2", "")
    if not isinstance(tray, str) or len(tray) != CELLS or not _ENGINE_CODES.only(tray):
        raise IllegalMove("the game's Tray is corrupt")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise IllegalMove("the game's Count is corrupt")
    for player, gain in ((Player.ONE, one), (Player.TWO, two)):
        if not isinstance(gain, str) or not _gain_ok(gain, player, tray):
            raise IllegalMove(f"the game's Gain{player} is corrupt")
    return tray, count, {Player.ONE: one, Player.TWO: two}


class BigTicTacToeRules:
    """The game: ``state`` is ``{"tray": 100 chars 0/1/2, "count", "gain1", "gain2",
    "move1", "move2"}``.

    ``gain1``/``gain2`` are the players' alignments in the ``Gain`` syntax, in the order
    they were made; ``move1``/``move2`` each player's last cell (absent before their first
    move), which the engines are sent.
    """

    engine_set = "BigTicTacToe"
    levels: tuple[int, ...] = (1,)

    def new_game(self) -> Turn:
        """Return the empty board, player one to play, no alignment yet."""
        return Turn(
            state={"tray": EMPTY_TRAY, "count": 0, "gain1": "", "gain2": ""},
            params=PageParams().tray("Init").gains("", "").input(Player.ONE).count(0).params,
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the mark of the player to move on cell ``value`` (``A0``..``J9``).

        Raise :class:`IllegalMove` when ``value`` is not a cell, the cell is taken, the
        board is full or ``state`` is corrupt. The next page's params carry the Tray with
        the mark, ``Move1``/``Move2``, both Gains, the Count, and ``Input`` for the other
        player, or ``Method=End`` once the board is full.
        """
        tray, count, gains = _read_state(state)
        if "0" not in tray:
            raise IllegalMove("the game is over")
        index = read_cell(value) if value.isupper() else None  # the syntax is upper-case
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        if tray[index] != "0":
            raise IllegalMove(f"cell {value} is taken")
        player = player_to_move(tray)
        tray = tray[:index] + MARK[player] + tray[index + 1 :]
        gains[player] += "".join(new_alignments(tray, gains[player], index))
        count += 1
        new_state = {
            **state,
            "tray": tray,
            "count": count,
            "gain1": gains[Player.ONE],
            "gain2": gains[Player.TWO],
            f"move{player}": cell_name(index),
        }
        over = "0" not in tray
        written = (gains[Player.ONE], gains[Player.TWO])
        params = PageParams().played(player, cell_name(index), tray, count, over, written).params
        return Turn(state=new_state, params=params, over=over)

    def text(self, state: Mapping[str, Any]) -> str:
        """Return the position drawn as text (``tournoyons-gui diff`` prints it): the ten
        rows, the top one first, of ``X`` (player one), ``O`` and ``.``, with the rows'
        numbers and the columns' letters."""
        board = str(state.get("tray", ""))
        return GRID.drawn(board, {"1": "X", "2": "O"}, columns="ABCDEFGHIJ", rows="0123456789")

    # --- the Arbitre's part (engine protocol section 4, BigTicTacToe; decisions 14, 21) ----

    #: A game may start from a position (``TrayStarts``, decision 15).
    tray_starts = True

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only), from the
        position ``tray`` when given (decision 15).

        ``tray``: the engines' Tray, 100 characters ``0``/``1``/``2`` (``Init`` or the
        empty board: the usual start), with as many marks of player one as of player two
        (player one moves, ``Turn`` 1) or one more (player two moves, ``Turn`` 2), and an
        empty cell (a full board is over). Alignments already on the board are recounted
        (:func:`recounted_alignments`) and sent in ``Gain1``/``Gain2`` from the first
        request on: they score as if played. Raise :class:`IllegalMove` otherwise.
        ``count`` starts at ``Turn`` - 1 (0 or 1), so odd ``Turn`` means player one.
        """
        if tray is None or tray in ("Init", EMPTY_TRAY):
            return self.new_game()
        if len(tray) != CELLS or set(tray) - set("012"):
            raise IllegalMove("a BigTicTacToe Tray is 100 characters 0, 1 or 2")
        ones, twos = tray.count("1"), tray.count("2")
        if ones - twos not in (0, 1):
            raise IllegalMove(f"{ones} marks of player one against {twos} of player two")
        if "0" not in tray:
            raise IllegalMove("the board is full: the game is over")
        player = player_to_move(tray)
        count = int(player) - 1
        gains = {p: recounted_alignments(tray, p) for p in PAIR}
        one, two = gains[Player.ONE], gains[Player.TWO]
        state = {"tray": tray, "count": count, "gain1": one, "gain2": two}
        params = PageParams().tray(tray).gains(one, two).input(player).count(count).params
        return Turn(state=state, params=params)

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move, or nobody once the board is full."""
        tray, _, _ = _read_state(state)
        return (player_to_move(tray),) if "0" in tray else ()

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (moves played, the one asked included), both Gains once a move is
        played (alignments ``D3H3``..., empty when none), the opponent's last cell, and the
        Tray: ``Init`` while nothing is played (100 ``0`` with ``init_as_board``). A game
        started from a position (:meth:`start`) sends the Gains and its Tray from Turn 1."""
        tray, count, gains = _read_state(state)
        turn = count + 1
        begun = bool(count) or tray != EMPTY_TRAY
        params = {"Turn": str(turn)}
        if begun:
            params.update(Gain1=gains[Player.ONE], Gain2=gains[Player.TWO])
        params.update(opponent_move(state, player))
        params["Tray"] = tray if begun or init_as_board else "Init"
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is an empty cell ``A0``..``J9`` (upper case) and
        ``player`` is to move."""
        tray, _, _ = _read_state(state)
        if "0" not in tray:
            raise IllegalMove("the game is over")
        if player is not player_to_move(tray):
            raise IllegalMove(f"player {int(player)} is not to move")
        index = read_cell(value)
        if index is None or cell_name(index) != value:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        if tray[index] != "0":
            raise IllegalMove(f"cell {value} is taken")
        return value

    person_value = engine_value

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the result once the board is full: more alignments wins, equal draws."""
        tray, _, gains = _read_state(state)
        if "0" in tray:
            return None
        one, two = len(gains[Player.ONE]) // 4, len(gains[Player.TWO]) // 4
        if one == two:
            return Result(None, f"equal alignments {one}-{two}")
        winner = Player.ONE if one > two else Player.TWO
        return Result(winner, f"more alignments {one}-{two}")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), both final Gains, the opponent's last cell and
        the final Tray (decision 10)."""
        tray, count, gains = _read_state(state)
        return {
            "Turn": str(count),
            "Gain1": gains[Player.ONE],
            "Gain2": gains[Player.TWO],
            **opponent_move(state, player),
            "Tray": tray,
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: nothing is hidden."""
        return PageParams.shown(turn.params).params

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray (100 characters ``0``/``1``/``2``, row 0 first; ``Init``
        or empty: the empty board) and the alignments ``Gain1``/``Gain2`` (``D3H3`` ...,
        empty when none), each on its player's marks. The player to move follows from the
        marks' count (player one when both have as many), as on the page; ``MoveId`` is not
        needed. Raise :class:`IllegalMove` when the Tray or a Gain cannot be read."""
        tray = EMPTY_TRAY if call.tray.lower() in ("", "init") else call.tray
        if len(tray) != CELLS or set(tray) - set("012"):
            raise IllegalMove("a BigTicTacToe Tray is 100 characters 0, 1 or 2")
        ones, twos = tray.count("1"), tray.count("2")
        if ones - twos not in (0, 1):
            raise IllegalMove(f"{ones} marks of player one against {twos} of player two")
        gains = {Player.ONE: call.gain1, Player.TWO: call.gain2}
        for player, gain in gains.items():
            if not _gain_ok(gain, player, tray):
                raise IllegalMove(
                    f"Gain{player} is not alignments (D3H3) of player {int(player)}'s marks"
                )
        return {
            "tray": tray,
            "count": ones + twos,
            "gain1": gains[Player.ONE],
            "gain2": gains[Player.TWO],
        }

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray (never ``Init``) and both players' alignments; an empty
        Gain (no alignment yet) echoes the call's, which is empty too."""
        tray, _, gains = _read_state(state)
        return tray, gains[Player.ONE], gains[Player.TWO]


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = BigTicTacToeRules()
