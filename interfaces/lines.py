"""What the Sets won by a line of marks share: TicTacToe (three in a row on 3x3) and
ConnectFour (four in a row on 7 columns by 6 rows).

- Tray codes: ``0`` empty, ``1``/``2`` a mark (a disc) of player one/two, ``3``/``4`` a
  winning mark of player one/two (pages only: they light the line; engines see 1/2).
- The game: players alternate, player one first, one mark per turn; ``state`` is
  ``{"tray": the engines' Tray (0/1/2), "count": moves played, "move1", "move2": each
  player's last move or absent}``; the player to move follows from the marks' count.
- Engines get ``Turn``, the opponent's last move and the explicit Tray (never ``Init``:
  decision 14); as a chapter VI referee the Tray is the same and no gain is kept.
- The end of a game: a completed line wins, a full board without one is a draw; the final
  call carries ``Turn`` (moves played), the opponent's last move and the Tray; the page
  hides nothing.

Sources: manual chapter V, "TicTacToe"; interface protocol section 4, ConnectFour; engine
protocol section 4 and decision 10.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.grid import Codes
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player, opponent_move

__all__ = ["ENGINE_CODES", "MARK", "OWN", "OWNER", "TEXT_MARKS", "WINNING", "LineRules"]

MARK = {Player.ONE: "1", Player.TWO: "2"}
WINNING = {Player.ONE: "3", Player.TWO: "4"}
OWNER = {"1": Player.ONE, "3": Player.ONE, "2": Player.TWO, "4": Player.TWO}
#: The codes a player's Move may point at: their mark, plain or winning.
OWN = {player: MARK[player] + WINNING[player] for player in PAIR}
#: A mark's code drawn as text (``tournoyons-gui diff``): player one's ``X``, two's ``O``.
TEXT_MARKS = {"1": "X", "2": "O", "3": "X", "4": "O"}
#: The codes of the engines' Tray (no winning mark), read at C speed.
ENGINE_CODES = Codes("012")


class LineRules(ABC):
    """What a line game's rules (:class:`~tournoyons_gui.interfaces.plugin.ArbitreRules`
    and :class:`~tournoyons_gui.interfaces.plugin.Refereeing`) share whatever the board's
    shape. A Set's rules class gives ``empty`` (its empty Tray), ``line`` (the result's
    reason), :meth:`lines`, and its own ``play``, ``engine_value``, ``person_value`` and
    ``referee_position`` (which may use :meth:`counted`); :meth:`placed` writes the turn
    after a mark."""

    #: The empty board's Tray (``0`` repeated).
    empty = ""
    #: The reason a line wins, as the record says it ("three in a row").
    line = "a line"
    levels: tuple[int, ...] = (1,)

    @abstractmethod
    def lines(self, tray: str, player: Player) -> set[int]:
        """Return the Tray indexes of every line ``player`` completed on ``tray``."""

    def board(self, state: Mapping[str, Any]) -> str:
        """Return the engines' Tray of ``state``; raise :class:`IllegalMove` when it is
        not one (the stored game is corrupt)."""
        tray = str(state.get("tray", ""))
        if len(tray) != len(self.empty) or not ENGINE_CODES.only(tray):
            raise IllegalMove("the game's Tray is corrupt")
        return tray

    @staticmethod
    def to_move(tray: str) -> Player:
        """Return the player to move on ``tray``: one when both have as many marks."""
        return Player.ONE if tray.count("1") == tray.count("2") else Player.TWO

    def counted(self, tray: str) -> Mapping[str, Any]:
        """Return the state of a position read from a Tray (a referee's): its count of
        marks; raise :class:`IllegalMove` unless player one has as many as player two or
        one more."""
        ones, twos = tray.count("1"), tray.count("2")
        if ones - twos not in (0, 1):
            raise IllegalMove(f"{ones} marks of player one against {twos} of player two")
        return {"tray": tray, "count": ones + twos}

    def new_game(self) -> Turn:
        """Return the empty board, player one to play."""
        return Turn(
            state={"tray": self.empty, "count": 0},
            params=PageParams().tray("Init").input(Player.ONE).count(0).params,
        )

    #: A game may start from a position (``TrayStarts``, decision 15).
    tray_starts = True

    @abstractmethod
    def read_start(self, tray: str) -> str:
        """Return ``tray`` when it is the Set's Tray syntax (and, for ConnectFour, has no
        floating disc); raise :class:`IllegalMove` with the reason otherwise."""

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only), from the
        position ``tray`` when given (decision 15).

        ``tray``: the engines' Tray (``Init`` or the empty board: the usual start). It must
        be the Set's syntax (:meth:`read_start`), hold as many marks of player one as of
        player two (player one moves, ``Turn`` 1) or one more (player two moves, ``Turn``
        2), hold no completed line (the game would be over) and not be full. Raise
        :class:`IllegalMove` otherwise. ``count`` starts at ``Turn`` - 1 (0 or 1), not at
        the marks on the board, so that odd ``Turn`` means player one; no ``move1``/
        ``move2`` yet.
        """
        if tray is None or tray in ("Init", self.empty):
            return self.new_game()
        state = self.counted(self.read_start(tray))
        for player in PAIR:
            if self.lines(tray, player):
                raise IllegalMove(f"player {int(player)} has already won: {self.line}")
        if "0" not in tray:
            raise IllegalMove("the board is full: the game is over")
        player = self.to_move(tray)
        count = int(player) - 1
        params = PageParams().tray(tray).input(player).count(count).params
        return Turn(state={**state, "count": count}, params=params)

    def placed(self, state: Mapping[str, Any], tray: str, player: Player, move: str) -> Turn:
        """Return the turn after ``player`` put a mark, named ``move``, making ``tray``: the
        page's Tray lights a completed line (codes 3/4), asks the opponent or ends."""
        count = int(state.get("count", 0)) + 1
        new_state = {**state, "tray": tray, "count": count, f"move{int(player)}": move}
        won = self.lines(tray, player)
        shown = tray
        if won:
            shown = "".join(WINNING[player] if i in won else code for i, code in enumerate(tray))
        over = bool(won) or "0" not in tray
        params = PageParams().played(player, move, shown, count, over).params
        return Turn(state=new_state, params=params, over=over)

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move, or nobody once the game is over."""
        tray = self.board(state)
        if self.ended(tray) is not None:
            return ()
        return (self.to_move(tray),)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn``, the opponent's last move and the Tray (always explicit)."""
        turn = int(state.get("count", 0)) + 1
        params = {"Turn": str(turn), **opponent_move(state, player), "Tray": self.board(state)}
        return EngineRequest(move_id=turn, params=params)

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray; no gains are kept (the referee echoes the call's)."""
        return self.board(state), "", ""

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the winner of a line, a draw on a full board, else ``None``."""
        return self.ended(self.board(state))

    def ended(self, tray: str) -> Result | None:
        """Return how the game on the engines' ``tray`` ended (:meth:`result`): a line of
        player one, else of player two, else a draw on a full board; ``None`` while it
        runs."""
        for player in PAIR:
            if self.lines(tray, player):
                return Result(player, self.line)
        if "0" not in tray:
            return Result(None, "full board")
        return None

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the opponent's last move, the final Tray."""
        return {
            "Turn": str(int(state.get("count", 0))),
            **opponent_move(state, player),
            "Tray": self.board(state),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: nothing is hidden."""
        return PageParams.shown(turn.params).params
