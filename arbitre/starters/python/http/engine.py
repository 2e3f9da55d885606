"""A Tournoyons engine in Python: plays TicTacToe, ConnectFour and Rochambeau.

Run it with ``python3 engine.py 8001``: its URL is then ``http://127.0.0.1:8001/`` (add an
address after the port, ``python3 engine.py 8001 0.0.0.0``, to be reached from elsewhere).
It needs nothing but Python 3.9 or newer.

Your engine is the three functions just below, one per Set. Each receives the game as
the Arbitre sees it (the board, which player you are, the legal moves ...) and returns
the move to play; as given, each plays a legal move at random. Everything under "The
plumbing" speaks the engine protocol for you: you need not read it to start.
"""

from __future__ import annotations

import http.client
import random
import sys
import traceback
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypedDict

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
# The plumbing: the Tournoyons engine protocol. Nothing below needs changing to play.
# ======================================================================================

#: Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
BOARDS = {"TicTacToe": (9, "012"), "ConnectFour": (42, "012")}
#: The longest query read (the Sets above need a few hundred characters).
MAX_QUERY = 16 * 1024
#: The most seconds spent calling the Referee back (and on reading a request).
CALLBACK_TIMEOUT = 10
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


def answer(query: str) -> tuple[int, str]:
    """Answer one call of the Arbitre, ``query`` its raw query string: return the HTTP
    status and text. A move request is answered after calling the Referee back with the
    move; in tester mode (an empty Referee) the answer is the move alone; a final call
    (a Status other than 0) only says OK."""
    if len(query) > MAX_QUERY:
        return 414, f"query over {MAX_QUERY} characters"
    if not query:
        return 200, f"A Tournoyons engine: it plays {', '.join(PLAYERS)}.\n"
    call: dict[str, str] = {}
    for name, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        call.setdefault(name, value)  # the first of a repeated name counts
    status = call.get("Status", "0")
    if status not in ("", "0"):  # the final call: the game is over, never call back
        result = RESULTS.get(status, f"Status {status}")
        say(f"{call.get('Set', '?')} game {call.get('Game', '?')} over: {result}")
        return 200, "OK"
    if "Referee" not in call:
        return 400, "not a move request: no Referee (a final call has a Status)"
    set_name = call.get("Set") or guess_set(call)
    if set_name not in PLAYERS:
        return 400, f"unknown Set {set_name!r}: this engine plays {', '.join(PLAYERS)}"
    game = read_game(set_name, call)
    if isinstance(game, str):
        return 400, game
    value = str(PLAYERS[set_name](game)).strip()
    if value not in game["moves"]:
        say(f"warning: {set_name} got {value!r} from your function, not one of {game['moves']}")
    referee = call["Referee"]
    if not referee:  # tester mode: the answer is the move, and nothing else
        return 200, value
    if not referee.startswith(("http://", "https://")):
        return 400, "the Referee is no http:// or https:// URL"
    if not call.get("Game") or not call.get("MoveId"):
        return 400, "no Game or no MoveId: the Referee could not be told which move this is"
    failed = call_back(referee, call, value, seconds(call))
    if failed:
        say(f"{set_name} game {call['Game']} turn {call.get('Turn', '?')}: {failed}")
        return 502, failed
    say(f"{set_name} game {call['Game']} turn {call.get('Turn', '?')}: played {value}")
    return 200, "OK"


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


def seconds(call: dict[str, str]) -> float:
    """Return how long to wait for the Referee: the call's TimeOut (the Arbitre takes no
    answer after it), at most :data:`CALLBACK_TIMEOUT` seconds, at least one."""
    timeout = number(call.get("TimeOut", "")) or CALLBACK_TIMEOUT
    return max(1, min(timeout, CALLBACK_TIMEOUT))


def number(text: str) -> int:
    """Return ``text`` as a number when it is one (a few digits), else 0."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


def call_back(referee: str, call: dict[str, str], value: str, timeout: float) -> str:
    """Call the Referee back with the move: ``GET <Referee>?Game=..&MoveId=..&Value=..``;
    return "" when it said OK, else what went wrong."""
    back = urllib.parse.urlencode({"Game": call["Game"], "MoveId": call["MoveId"], "Value": value})
    url = referee + ("&" if "?" in referee else "?") + back
    try:
        with urllib.request.urlopen(url, timeout=timeout):
            return ""
    except urllib.error.HTTPError as refused:  # 404: too late, or no such move
        return f"the Referee answered {refused.code} to {value}"
    except (OSError, ValueError, http.client.HTTPException) as failure:
        return f"could not call the Referee back: {failure or type(failure).__name__}"


def say(line: str) -> None:
    """Print one line of what the engine did."""
    print(line, flush=True)


class Engine(BaseHTTPRequestHandler):
    """Answers each GET with :func:`answer`; a request must arrive within
    :data:`CALLBACK_TIMEOUT` seconds."""

    timeout = CALLBACK_TIMEOUT

    def do_GET(self) -> None:
        try:
            status, text = answer(urllib.parse.urlsplit(self.path).query)
        except Exception:  # a mistake in your function: answered, and the engine goes on
            traceback.print_exc()
            status, text = 500, "the engine failed: see its output"
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing per request: :func:`answer` prints a line per move."""


def main() -> None:
    """Serve on the port (and address) given on the command line."""
    if len(sys.argv) not in (2, 3) or not sys.argv[1].isdigit():
        sys.exit("usage: python3 engine.py PORT [ADDRESS]   (ADDRESS: 127.0.0.1 by default)")
    port, host = int(sys.argv[1]), sys.argv[2] if len(sys.argv) == 3 else "127.0.0.1"
    server = ThreadingHTTPServer((host, port), Engine)
    print(f"engine listening on http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
