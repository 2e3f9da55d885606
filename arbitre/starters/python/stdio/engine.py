"""A Tournoyons engine in Python over standard input and output: plays TicTacToe,
ConnectFour and Rochambeau.

The Arbitre starts it and talks to it one line at a time: each request comes as a line on
its standard input (the query string an engine over HTTP would get), and the engine
answers with its move as one line on its standard output. No web server, no port:

    tournoyons-gui play --set ConnectFour --engine cmd:"python3 engine.py" --engine builtin:random

It needs nothing but Python 3.9 or newer. Your engine is the three functions just below,
one per Set. Each receives the game as the Arbitre sees it (the board, which player you
are, the legal moves ...) and returns the move to play; as given, each plays a legal move
at random. Print whatever you like to standard error (``say``): it goes to the game's
log. Standard output is the Arbitre's: one line per request, nothing else.
"""

from __future__ import annotations

import random
import sys
import traceback
import urllib.parse
from typing import TypedDict

# ======================================================================================
# Your engine: one function per Set. Start here.
# ======================================================================================


class Game(TypedDict):
    """What each function receives: the position as the Arbitre sent it."""

    board: str  # the board (see each Set's function); "" in Rochambeau
    me: str  # "1" if you play first, "2" if second
    moves: list[str]  # the legal moves
    last: str  # the opponent's last move ("" before its first)
    turn: int  # the Turn: odd when you play first, even when second
    call: dict[str, str]  # every parameter the Arbitre sent, as sent


def tictactoe(game: Game) -> str:
    """Return the cell to play, "1" to "9" (top left to bottom right, row by row).

    game["board"]  9 characters, row by row from the top: "0" empty, "1" a mark of the
                   first player, "2" of the second.
    game["me"]     "1" if you play first, "2" if second: your marks on the board.
    game["moves"]  the free cells, such as ["1", "5", "9"].
    game["last"]   the opponent's last cell ("" before its first).
    game["call"]   every parameter the Arbitre sent, as sent.
    """
    return random.choice(game["moves"])


def connectfour(game: Game) -> str:
    """Return the column to drop your disc in, "A" to "G".

    game["board"]  42 characters, 6 rows of 7 cells, the BOTTOM row first: the cell of
                   column c (0 is "A") and row r (0 is the bottom) is board[r * 7 + c];
                   "0" empty, "1" a disc of the first player, "2" of the second.
    game["me"]     "1" if you play first, "2" if second.
    game["moves"]  the columns that are not full, such as ["A", "C", "D"].
    game["last"]   the opponent's last column ("" before its first).
    """
    return random.choice(game["moves"])


def rochambeau(game: Game) -> str:
    """Return your hand: "1" rock, "2" paper, "3" scissors (rock beats scissors,
    scissors beat paper, paper beats rock; the first to win 5 rounds wins).

    game["moves"]  always ["1", "2", "3"].
    game["last"]   the opponent's hand in the last round ("" in the first round).
    game["me"]     "1" if you are the first player, "2" if second.
    game["call"]["Gain1"], game["call"]["Gain2"]: the first and second player's scores
                   (from round 2).
    """
    return random.choice(game["moves"])


#: The Sets this engine plays: the Set's name as the Arbitre sends it -> your function.
PLAYERS = {"TicTacToe": tictactoe, "ConnectFour": connectfour, "Rochambeau": rochambeau}


# ======================================================================================
# The plumbing: a line in, a line out. Nothing below needs changing to play.
# ======================================================================================

#: Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
BOARDS = {"TicTacToe": (9, "012"), "ConnectFour": (42, "012")}
#: What the final call's Status means.
RESULTS = {
    "1": "won (first player)",
    "2": "won (second player)",
    "3": "lost (first player)",
    "4": "lost (second player)",
    "5": "draw",
    "9": "ended by an error that is nobody's fault",
}


def legal_moves(set_name: str, board: str) -> list[str]:
    """Return the legal moves of ``set_name`` on ``board``."""
    if set_name == "TicTacToe":
        return [str(cell + 1) for cell in range(9) if board[cell] == "0"]
    if set_name == "ConnectFour":  # a column is open while its top cell (row 5) is empty
        return [letter for column, letter in enumerate("ABCDEFG") if board[35 + column] == "0"]
    if set_name == "Rochambeau":
        return ["1", "2", "3"]
    return []


def answer(query: str) -> str:
    """Return the line that answers one request, ``query`` its query string: the move to
    play; ``OK`` to a final call (a Status other than 0: the game is over); an empty line
    (no move) to a request this engine cannot read, the reason on standard error."""
    call: dict[str, str] = {}
    for name, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        call.setdefault(name, value)  # the first of a repeated name counts
    status = call.get("Status", "0")
    if status not in ("", "0"):  # the final call: the game is over
        result = RESULTS.get(status, f"Status {status}")
        say(f"{call.get('Set', '?')} game {call.get('Game', '?')} over: {result}")
        return "OK"
    if "Referee" not in call:  # every request has one (empty: the answer is this line)
        say("not a move request: no Referee (a final call has a Status)")
        return ""
    set_name = call.get("Set") or guess_set(call)
    if set_name not in PLAYERS:
        say(f"unknown Set {set_name!r}: this engine plays {', '.join(PLAYERS)}")
        return ""
    game = read_game(set_name, call)
    if isinstance(game, str):
        say(game)
        return ""
    value = str(PLAYERS[set_name](game)).strip()
    if value not in game["moves"]:
        say(f"warning: {set_name} got {value!r} from your function, not one of {game['moves']}")
    say(f"{set_name} game {call.get('Game', '?')} turn {call.get('Turn', '?')}: played {value}")
    return value


def guess_set(call: dict[str, str]) -> str:
    """Return the Set of a call that does not name it (the original tester's form), from
    its Tray: 9 characters TicTacToe, 42 ConnectFour, none Rochambeau."""
    if "Tray" not in call:
        return "Rochambeau"
    return {9: "TicTacToe", 42: "ConnectFour"}.get(len(call["Tray"]), "")


def read_game(set_name: str, call: dict[str, str]) -> Game | str:
    """Return what the Set's function receives (see the functions above), or what is
    wrong with the call."""
    board = ""
    if set_name in BOARDS:
        size, codes = BOARDS[set_name]
        board = call.get("Tray", "")
        if board == "Init":  # "nothing played yet"
            board = "0" * size
        if len(board) != size or not set(board) <= set(codes):
            return f"the {set_name} Tray is {size} characters {', '.join(codes)}"
    moves = legal_moves(set_name, board)
    if not moves:
        return "no legal move on this board"
    turn = number(call.get("Turn", ""))
    if turn:  # an odd Turn asks the first player, an even one the second
        me = "1" if turn % 2 else "2"
    else:  # no Turn: the first player moves when both have as many stones
        me = "1" if board.count("1") == board.count("2") else "2"
    return {
        "board": board,
        "me": me,
        "moves": moves,
        "last": call.get("Move2" if me == "1" else "Move1", ""),
        "turn": turn,
        "call": call,
    }


def number(text: str) -> int:
    """Return ``text`` as a number when it is one (a few digits), else 0."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


def say(line: str) -> None:
    """Write one line of what the engine did to standard error (the game's log)."""
    print(line, file=sys.stderr, flush=True)


def main() -> None:
    """Answer each line of standard input with one line on standard output, until the
    input ends (the Arbitre closes it at the end of the match)."""
    for line in sys.stdin:
        try:
            value = answer(line.rstrip("\r\n"))
        except Exception:  # a mistake in your function: no move, and the engine goes on
            traceback.print_exc()
            value = ""
        sys.stdout.write(value.replace("\n", " ") + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
