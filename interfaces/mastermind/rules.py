"""MasterMind rules, as the Arbitre applies them, for the tester's hot-seat games.

1. Each player prepares a secret code: ``Method=Prepare`` with ``Input=One``, then ``Two``;
   the value is the code, 4 colours ``A``..``H``.
2. They alternate guesses at the other's code, player one first; a guess is a
   ``ValeurLigne`` whose marks the Arbitre computes (a person returns ``00`` + the 4
   colours, spec section 4). The line goes on the opponent's board with its marks.
3. The first to find wins; when player one finds on line n, player two still plays line n
   and a find there is a draw; neither found after 8 lines each is a draw.

The pages follow the Arbitre's ways: ``Move1``/``Move2`` are not sent ("sans objet"); only
the code of the player asked is sent (``Gain1`` or ``Gain2``) until ``Method=End``, when
both are, so a hot-seat page never shows a person the opponent's code.
For the Arbitre (engine protocol section 4, MasterMind; decisions 14, 18, 23): Turn 1 asks
player one for its code, Turn 2 player two, then the guesses alternate, player one on odd
Turns. An engine is sent ``Turn`` and its own guess lines as ``Tray`` (``ValeurLigne`` with
the marks the Arbitre computed; the empty value when it has none, never ``Init``), no
``Move`` and no ``Gain``. Its guess is ``00`` + 4 colours (any two mark digits, ignored) or
the 4 colours alone. Pages show a person only its own code, spectators both codes once the
game is over (or in a replay).
Source: manual chapter V, "Mastermind"; engine protocol decision 18.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.mastermind.board import (
    GUESS_MARKS,
    LINE_LENGTH,
    MAX_LINES,
    PEGS,
    SEPARATOR,
    Line,
    found_at,
    guesses,
    outcome,
    player_to_move,
    read_board,
    read_code,
    read_line,
    score,
    write_tray,
)
from tournoyons_gui.interfaces.memo import Memo
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, Method, PageParams, Player

_CODE = re.compile(r"[A-H]{4}")
_GUESS = re.compile(r"[0-9]{2}[A-H]{4}")
_PLAYED = {Player.ONE: "player one", Player.TWO: "player two"}


def _code(state: Mapping[str, Any], player: Player) -> str | None:
    raw = state.get(f"code{player}")
    if raw is None:
        return None
    try:
        return read_code(str(raw))
    except ValueError:
        raise IllegalMove("the game's codes are corrupt") from None


def _board(state: Mapping[str, Any], owner: Player) -> tuple[Line, ...]:
    raw = state.get(f"board{owner}", [])
    if not isinstance(raw, list):
        raise IllegalMove("the game's boards are corrupt")
    values = tuple(raw) if all(type(value) is str for value in raw) else tuple(map(str, raw))
    lines = _BOARDS.get(values)
    if lines is not None:
        return lines
    try:
        return _BOARDS.keep(values, tuple(read_line(value) for value in values))
    except ValueError:
        raise IllegalMove("the game's boards are corrupt") from None


#: The boards read last, by their lines' text (``ValeurLigne`` each), and those ``play``
#: wrote (a bounded memo: the rules read both boards at each call).
_BOARDS: Memo[tuple[str, ...], tuple[Line, ...]] = Memo(512)


#: ``Method`` of a page, ``Method=End``, and ``Method`` with ``Input`` of each player's
#: turn to guess, as :class:`PageParams` writes them.
_METHODS = {method: PageParams().method(method).params for method in Method}
_END = _METHODS[Method.END]
_GUESSING = {player: PageParams().method(Method.STANDARD).input(player).params for player in PAIR}


def _prepare(player: Player) -> PageParams:
    """Return the page asking ``player`` for its code (the Tray not played yet)."""
    return PageParams().method(Method.PREPARE).input(player).tray("Init")


def _referee_board(text: str, owner: Player) -> tuple[str | None, tuple[Line, ...]]:
    """Return the code and the lines of one board of a referee Tray: the lines played on
    ``owner``'s board (``ValeurLigne`` each), then ``owner``'s code (4 colours); ``""``
    while the code is not prepared."""
    if not text:
        return None, ()
    if len(text) % LINE_LENGTH != PEGS:
        raise IllegalMove(
            f"board {int(owner)} is lines of {LINE_LENGTH} characters then a code of {PEGS}"
        )
    try:
        return read_code(text[-PEGS:]), read_board(text[:-PEGS])
    except ValueError as error:
        raise IllegalMove(f"board {int(owner)}: {error}") from None


class MasterMindRules:
    """The game: ``state`` is ``{"code1", "code2", "board1", "board2", "count"}``.

    ``code1``/``code2`` are the secret codes (``None`` until prepared); ``board1`` the lines
    (``ValeurLigne`` strings) player two played on player one's board, ``board2`` player
    one's lines; ``count`` the values played, codes included.
    """

    def new_game(self) -> Turn:
        """Return the first step: player one prepares a code."""
        return Turn(
            state={"code1": None, "code2": None, "board1": [], "board2": [], "count": 0},
            params=_prepare(Player.ONE).count(0).params,
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Record a code while preparing, else a guess at the opponent's code."""
        codes = {player: _code(state, player) for player in PAIR}
        boards = {owner: _board(state, owner) for owner in PAIR}
        count = int(state.get("count", 0)) + 1
        for player in PAIR:
            if codes[player] is None:
                if not _CODE.fullmatch(value):
                    raise IllegalMove(f"{value!r} is not a code of 4 colours A-H")
                new = {**state, f"code{player}": value, "count": count}
                if player is Player.ONE:
                    page = _prepare(Player.TWO)
                else:
                    page = (
                        PageParams()
                        .method(Method.STANDARD)
                        .input(Player.ONE)
                        .tray(write_tray((), ()))
                        .gain(Player.ONE, str(codes[Player.ONE]))
                    )
                return Turn(state=new, params=page.count(count).params)

        board1, board2 = boards[Player.ONE], boards[Player.TWO]
        if outcome(board1, board2)[0]:
            raise IllegalMove("the game is over")
        if not _GUESS.fullmatch(value):
            raise IllegalMove(f"{value!r} is not {GUESS_MARKS} and 4 colours A-H")
        mover = player_to_move(board1, board2)
        target = mover.opponent
        well, misplaced = score(str(codes[target]), value[2:])
        boards[target] = (*boards[target], Line(well, misplaced, value[2:]))
        board1, board2 = boards[Player.ONE], boards[Player.TWO]
        written = [line.value for line in boards[target]]
        _BOARDS.keep(tuple(written), boards[target])  # as _board will read it
        new = {
            **state,
            "board1": written if target is Player.ONE else [line.value for line in board1],
            "board2": written if target is Player.TWO else [line.value for line in board2],
            "count": count,
        }
        params = {"Tray": write_tray(board1, board2), "Count": str(count)}
        if outcome(board1, board2)[0]:
            params.update(_END)
            params.update(Gain1=str(codes[Player.ONE]), Gain2=str(codes[Player.TWO]))
            return Turn(state=new, params=params, over=True)
        following = player_to_move(board1, board2)
        params.update(_GUESSING[following])
        params[f"Gain{int(following)}"] = str(codes[following])
        return Turn(state=new, params=params)

    # --- the Arbitre's part (engine protocol section 4, MasterMind) -----------------------

    engine_set = "MasterMind"
    levels: tuple[int, ...] = (1,)

    def start(self, level: int = 1) -> Turn:
        """Return the first step of a game for the Arbitre (one level only)."""
        return self.new_game()

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return player one for its code, then player two for its code, then the next
        guesser (player one when both played as many lines); nobody once over."""
        for player in PAIR:
            if _code(state, player) is None:
                return (player,)
        board1, board2 = _board(state, Player.ONE), _board(state, Player.TWO)
        if outcome(board1, board2)[0]:
            return ()
        return (player_to_move(board1, board2),)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (values played, codes included, plus one) and ``Tray``: the lines
        ``player`` played, oldest first, marks computed (``""`` when none, whatever
        ``init_as_board``: decision 14)."""
        turn = int(state.get("count", 0)) + 1
        return EngineRequest(
            move_id=turn, params={"Turn": str(turn), "Tray": self._own_lines(state, player)}
        )

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the code (4 colours ``A``..``H``) when ``player`` is asked for one; on a
        guess, ``00`` + the colours of a ``ValeurLigne`` (its marks ignored) or of 4 bare
        colours (decision 18)."""
        if self._asked_for_code(state, player):
            if not _CODE.fullmatch(value):
                raise IllegalMove(f"{value!r} is not a code of 4 colours A-H")
            return value
        if _GUESS.fullmatch(value):
            return GUESS_MARKS + value[2:]
        if _CODE.fullmatch(value):
            return GUESS_MARKS + value
        raise IllegalMove(f"{value!r} is not a guess: 4 colours A-H, or 2 digits and 4 colours")

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the code a Prepare returned (4 colours), or a guess as the page returns
        it (``00`` + 4 colours; any two digits are accepted and replaced by ``00``)."""
        if self._asked_for_code(state, player):
            if not _CODE.fullmatch(value):
                raise IllegalMove(f"{value!r} is not a code of 4 colours A-H")
            return value
        if not _GUESS.fullmatch(value):
            raise IllegalMove(f"{value!r} is not a guess: {GUESS_MARKS} and 4 colours A-H")
        return GUESS_MARKS + value[2:]

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the first to find the other's code (both on the same line: a draw;
        neither after 8 lines each: a draw), else ``None``."""
        if any(_code(state, player) is None for player in PAIR):
            return None
        board1, board2 = _board(state, Player.ONE), _board(state, Player.TWO)
        over, winner = outcome(board1, board2)
        if not over:
            return None
        lines = {player: guesses(player, board1, board2) for player in PAIR}
        if winner is not None:
            return Result(
                winner, f"{_PLAYED[winner]} found the code on line {found_at(lines[winner])}"
            )
        if any(found_at(played) for played in lines.values()):
            return Result(None, f"both found the code on line {found_at(lines[Player.ONE])}")
        return Result(None, f"neither found the code in {MAX_LINES} lines")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (values played) and ``Tray`` (``player``'s own lines); MasterMind
        sends no ``Move`` and no ``Gain`` to engines."""
        return {"Turn": str(int(state.get("count", 0))), "Tray": self._own_lines(state, player)}

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return ``Tray`` (board 1 ``***`` board 2; ``Init`` while codes are prepared),
        ``Count``, ``Method`` (``Prepare`` when ``viewer`` is asked for its code, ``End``
        once over, else ``Standard``) and the codes: ``viewer``'s own in ``Gain1``/``Gain2``,
        both once over or with ``reveal`` (decision 23)."""
        state = turn.state
        codes = {player: _code(state, player) for player in PAIR}
        prepared = all(code is not None for code in codes.values())
        boards = (_board(state, Player.ONE), _board(state, Player.TWO)) if prepared else None
        over = boards is not None and outcome(*boards)[0]  # as self.result(state) is not None
        if asking and viewer is not None and codes[viewer] is None:
            method = Method.PREPARE
        else:
            method = Method.END if over else Method.STANDARD
        params = dict(_METHODS[method])
        params["Tray"] = write_tray(*boards) if all(codes.values()) and boards else "Init"
        params["Count"] = str(int(state.get("count", 0)))
        for player in PAIR:
            code = codes[player]
            if code is not None and (over or reveal or player is viewer):
                params[f"Gain{int(player)}"] = code
        return params

    def _asked_for_code(self, state: Mapping[str, Any], player: Player) -> bool:
        """Return whether ``player`` is asked for its code now; raise :class:`IllegalMove`
        when it is not asked at all."""
        asked = self.asked(state)
        if not asked:
            raise IllegalMove("the game is over")
        if player not in asked:
            raise IllegalMove(f"{_PLAYED[player]} is not asked for a value now")
        return _code(state, player) is None

    @staticmethod
    def _own_lines(state: Mapping[str, Any], player: Player) -> str:
        """Return the lines ``player`` played (on the opponent's board) as one string."""
        return "".join(line.value for line in _board(state, player.opponent))

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the referee Tray: the two boards separated by ``***``, each the lines
        played on it (``ValeurLigne``, oldest first, as the page's Tray) followed by the
        code they guess, which engines never see: ``30ABCCABCD***00AABB10CGGGCDEF``. A
        board is empty while its code is not prepared (``Init`` or empty: nothing
        prepared; then ``ABCD***`` once player one's code is). Codes are prepared in
        turn, player one's first, as for engines (decision 18), then the guesses
        alternate, player one first; who is asked follows from the Tray (``MoveId`` and
        ``Method`` are not read). MasterMind keeps no gains.

        Raise :class:`IllegalMove` when a board cannot be read, a line's marks are not its
        guess's against the code, the lines' counts are not those of alternate guesses, or
        a line was played after the game was over."""
        tray = "" if call.tray.lower() in ("", "init") else call.tray
        parts = tray.split(SEPARATOR) if tray else ["", ""]
        if len(parts) != 2:
            raise IllegalMove(f"the Tray is two boards separated by one {SEPARATOR}")
        code1, board1 = _referee_board(parts[0], Player.ONE)
        code2, board2 = _referee_board(parts[1], Player.TWO)
        if code1 is None and code2 is not None:
            raise IllegalMove("player one prepares its code first")
        if (code1 is None or code2 is None) and (board1 or board2):
            raise IllegalMove("lines are played once both codes are prepared")
        for code, board in ((code1, board1), (code2, board2)):
            for line in board:
                if (line.well, line.misplaced) != score(str(code), line.colours):
                    raise IllegalMove(f"line {line.value} has not the marks of its guess")
        ones, twos = guesses(Player.ONE, board1, board2), guesses(Player.TWO, board1, board2)
        if len(ones) - len(twos) not in (0, 1):
            raise IllegalMove(f"{len(ones)} lines of player one against {len(twos)} of player two")
        for played in range(len(ones) + len(twos)):  # every position before the last line
            if outcome(twos[: played // 2], ones[: (played + 1) // 2])[0]:
                raise IllegalMove("lines were played after the game was over")
        return {
            "code1": code1,
            "code2": code2,
            "board1": [line.value for line in board1],
            "board2": [line.value for line in board2],
            "count": (code1 is not None) + (code2 is not None) + len(ones) + len(twos),
        }

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the referee Tray (see :meth:`referee_position`); MasterMind keeps no
        gains (the call's are echoed)."""
        boards = [
            "".join(line.value for line in _board(state, owner)) + (_code(state, owner) or "")
            for owner in PAIR
        ]
        return SEPARATOR.join(boards), "", ""


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = MasterMindRules()
