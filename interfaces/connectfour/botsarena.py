"""ConnectFour's side of botsarena's JSON bots (seed 003; engine protocol section 4,
ConnectFour): the ``board`` of a ``play-turn`` message, and the bot's ``play`` read back.

botsarena's ``board`` is 6 rows of 7 cells, **row 0 at the bottom** (the Tray's order:
Tray index ``i`` is ``board[i // 7][i % 7]``), each cell ``""`` (empty), ``"X"`` (the first
player) or ``"O"``. A bot answers ``{"play": <column 0-6>}``, a number or a string of one
digit; column ``n`` is the engine protocol's letter ``chr(65 + n)``.

Read leniently, as the seed's own example board writes ``"0"`` for ``"O"``: a cell ``"0"``
(or lower case ``"x"``/``"o"``) is read as that player's disc.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.connectfour.board import COLUMNS, EMPTY_TRAY, HEIGHT, WIDTH
from tournoyons_gui.interfaces.connectfour.rules import check_tray
from tournoyons_gui.interfaces.plugin import Botsarena, IllegalMove

__all__ = ["BOTSARENA", "GAME", "board", "play", "request", "value"]

#: The ``game`` field of botsarena's messages (seed 003's spelling).
GAME = "connectFour"

_CELL = {"1": "X", "2": "O", "0": ""}
_CODE = {"": "0", "X": "1", "O": "2", "0": "2"}
_SYMBOL = {"X": "1", "O": "2", "0": "2"}


def board(params: Mapping[str, str]) -> list[list[str]]:
    """Return the ``board`` of the ``play-turn`` message for an engine request's parameters:
    6 rows of 7 cells ``""``/``"X"``/``"O"``, row 0 at the bottom, from its ``Tray`` (42
    codes ``0``/``1``/``2``, bottom row first; ``Init`` or none: the empty board). Raise
    :class:`IllegalMove` when the Tray is not one."""
    tray = params.get("Tray", "")
    if tray in ("", "Init"):
        tray = EMPTY_TRAY
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        raise IllegalMove("a ConnectFour Tray is 42 characters 0, 1 or 2")
    return [[_CELL[tray[row * WIDTH + column]] for column in range(WIDTH)] for row in range(HEIGHT)]


def value(answer: object) -> str:
    """Return the engine protocol's ``Value`` (a column letter ``A``..``G``) of a bot's
    ``play``: an integer 0-6 or a string of one digit 0-6 (``True`` and ``False`` are not
    numbers here). Raise :class:`IllegalMove` for anything else."""
    if isinstance(answer, bool):
        raise IllegalMove(f"play is a column 0-6, not {answer!r}")
    if isinstance(answer, int):
        column = answer
    elif isinstance(answer, str) and len(answer) == 1 and answer in "0123456":
        column = int(answer)
    else:
        raise IllegalMove(f"play is a column 0-6, not {str(answer)[:40]!r}")
    if not 0 <= column < WIDTH:
        raise IllegalMove(f"play is a column 0-6, not {column}")
    return COLUMNS[column]


def request(message: Mapping[str, Any]) -> Mapping[str, str]:
    """Return the engine request's parameters ``{"Turn": ..., "Tray": ...}`` a built-in
    engine reads for a botsarena ``play-turn`` message (decoded JSON): the Tray from
    ``board``, ``Turn`` the discs on it plus one (odd when the first player, ``X``, is to
    move). Raise :class:`IllegalMove` when the message is malformed: not a ``play-turn``,
    a board that is not 6 rows of 7 cells ``""``/``"X"``/``"O"`` or not a position of a game
    (:func:`~tournoyons_gui.interfaces.connectfour.rules.check_tray`), or ``you`` /
    ``player-index`` that are not the side to move."""
    if not isinstance(message, Mapping):
        raise IllegalMove("a play-turn message is a JSON object")
    action = message.get("action", "play-turn")
    if action != "play-turn":
        raise IllegalMove(f"action is play-turn, not {str(action)[:40]!r}")
    rows = message.get("board")
    if not isinstance(rows, list) or len(rows) != HEIGHT:
        raise IllegalMove("board is 6 rows of 7 cells")
    codes: list[str] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != WIDTH:
            raise IllegalMove("board is 6 rows of 7 cells")
        for cell in row:
            code = _CODE.get(cell.upper()) if isinstance(cell, str) else None
            if code is None:
                raise IllegalMove(f'a cell is "", "X" or "O", not {str(cell)[:20]!r}')
            codes.append(code)
    tray = check_tray("".join(codes))
    discs = sum(1 for code in tray if code != "0")
    first_to_move = discs % 2 == 0
    you = message.get("you")
    if you is not None:
        symbol = _SYMBOL.get(you.upper()) if isinstance(you, str) else None
        if symbol is None:
            raise IllegalMove(f'you is "X" or "O", not {str(you)[:20]!r}')
        if (symbol == "1") != first_to_move:
            raise IllegalMove(f"{you} is not to move on this board")
    index = message.get("player-index")
    if index is not None:
        if not isinstance(index, int) or isinstance(index, bool) or index not in (0, 1):
            raise IllegalMove(f"player-index is 0 or 1, not {str(index)[:20]!r}")
        if (index == 0) != first_to_move:
            raise IllegalMove(f"player {index} is not to move on this board")
    return {"Turn": str(discs + 1), "Tray": tray}


def play(column: str) -> int:
    """Return botsarena's ``play`` (the column number 0-6) for a built-in engine's ``Value``
    (a column letter ``A``..``G``). Raise :class:`IllegalMove` for anything else."""
    if len(column) != 1 or column.upper() not in COLUMNS:
        raise IllegalMove(f"{column[:40]!r} is not a column A-G")
    return COLUMNS.index(column.upper())


#: What the Arbitre needs to call a botsarena bot, and to answer as one (seed 003).
BOTSARENA = Botsarena(game=GAME, board=board, value=value, request=request, play=play)
