"""MasterMind: reading ``Tray`` and ``Gain1``/``Gain2`` into the two boards drawn on the page.

Sources: manual chapter V, "Mastermind" (22 February 2013; the June manual's engine side);
spec section 4 (MasterMind).

- Colours ``A``..``H``: white, blue, green, yellow, orange, red, pink, violet. A code is 4
  colours; a line (``ValeurLigne``) is 6 characters: pegs well placed (red marks), pegs
  misplaced (white marks), then the 4 colours guessed: ``30GCCH``.
- ``Tray``: the lines of player one's board, ``***``, the lines of player two's board; 0 to
  8 lines each. ``Init`` (or no Tray) is two empty boards.
- ``Gain1``/``Gain2``: that player's secret code. ``Move1``/``Move2`` are "sans objet" for
  MasterMind and are not read.

**Which board is whose** (decision, from the manual). The interface's Tray is "the lines of
the first player's board, then the lines of the second player's board", while an engine is
sent "the lines of the opponent's board": the lines it needs to break the opponent's code,
its own guesses. A board therefore belongs to the player whose code it hides, as on the
physical game: board 1 (``data-board="1"``, on the left) holds player one's code
(``Gain1``) and the lines player two played against it; board 2 holds player two's code and
player one's lines. Player one, asked to guess, composes on board 2.

**Hot-seat fairness.** While a player is asked for a guess or a code, the opponent's code is
drawn under its cover even when the Arbitre sends it, and is not in the page at all; every
code given is shown with ``Method=End`` (or to spectators, without ``Input``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, ParamError, Player, read_param

COLOURS = "ABCDEFGH"
COLOUR_NAMES = {
    "A": "white",
    "B": "blue",
    "C": "green",
    "D": "yellow",
    "E": "orange",
    "F": "red",
    "G": "pink",
    "H": "violet",
}
PEGS = 4
LINE_LENGTH = 2 + PEGS
MAX_LINES = 8
SEPARATOR = "***"
EMPTY_TRAY = SEPARATOR
# A guess entered by a person carries no marks: the Arbitre computes them (spec section 4).
GUESS_MARKS = "00"


@dataclass(frozen=True)
class Line:
    """One line played: ``well`` pegs well placed (red marks), ``misplaced`` (white marks).

    ``colours`` is the 4-letter guess. ``well + misplaced <= 4``; ``3`` and ``1`` never
    occur together (three well placed leave one peg, which cannot be merely misplaced).
    """

    well: int
    misplaced: int
    colours: str

    @functools.cached_property
    def value(self) -> str:
        """Return the line in the Tray's syntax (``ValeurLigne``): ``30GCCH`` (written
        once: the rules write every line of a game at each move)."""
        return f"{self.well}{self.misplaced}{self.colours}"

    @property
    def found(self) -> bool:
        """Return whether the guess is the code (four red marks)."""
        return self.well == PEGS

    @property
    def marks(self) -> tuple[str, ...]:
        """Return the 4 mark holes: ``"well"`` first, then ``"misplaced"``, then ``""``."""
        return (
            ("well",) * self.well
            + ("misplaced",) * self.misplaced
            + ("",) * (PEGS - self.well - self.misplaced)
        )


def read_code(value: str) -> str:
    """Return a code of 4 colours ``A``..``H`` (any case, returned upper-case).

    Raises ``ValueError`` on anything else.
    """
    code = value.strip().upper()
    if _CODE.fullmatch(code) is None:
        raise ValueError(f"a code is {PEGS} colours A-H, not {value[:20]!r}")
    return code


#: A code once stripped and upper-cased: 4 colours ``A``..``H`` (:func:`read_code`).
_CODE = re.compile(f"[{COLOURS}]{{{PEGS}}}")


def read_line(value: str) -> Line:
    """Return the line of a 6-character ``ValeurLigne`` (``30GCCH``); raise ``ValueError``.

    The marks are digits whose sum is at most 4, never ``3`` well placed with ``1``
    misplaced; the colours as :func:`read_code` reads them. The lines read last are kept
    (by their text, a bounded cache): the rules read every line of a game at each call.
    """
    return _read_line(value)


@functools.lru_cache(maxsize=4096)
def _read_line(value: str) -> Line:
    """Return the line of ``value``: :func:`read_line`."""
    if len(value) != LINE_LENGTH or not value[:2].isascii() or not value[:2].isdigit():
        raise ValueError(f"a line is 2 mark digits and {PEGS} colours, not {value[:20]!r}")
    well, misplaced = int(value[0]), int(value[1])
    if well + misplaced > PEGS or (well == PEGS - 1 and misplaced == 1):
        raise ValueError(f"marks {value[:2]} cannot be given to {PEGS} pegs")
    return Line(well, misplaced, read_code(value[2:]))


def read_board(value: str) -> tuple[Line, ...]:
    """Return the 0..8 lines of one board's part of the Tray; raise ``ValueError``."""
    if len(value) % LINE_LENGTH:
        raise ValueError(f"a board is lines of {LINE_LENGTH} characters")
    if len(value) > MAX_LINES * LINE_LENGTH:
        raise ValueError(f"a board holds at most {MAX_LINES} lines")
    return tuple(read_line(value[i : i + LINE_LENGTH]) for i in range(0, len(value), LINE_LENGTH))


def read_tray(tray: str | None) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Return the lines of board 1 and of board 2; ``Init`` or no Tray: two empty boards.

    Raises ``ValueError`` when the Tray has not exactly one ``***`` or a board is unreadable.
    """
    if tray is None or tray.lower() == "init":
        return (), ()
    parts = tray.split(SEPARATOR)
    if len(parts) != 2:
        raise ValueError(f"the Tray is two boards separated by one {SEPARATOR}")
    return read_board(parts[0]), read_board(parts[1])


def write_tray(board1: tuple[Line, ...] | list[Line], board2: tuple[Line, ...] | list[Line]) -> str:
    """Return the Tray of two boards: ``<board 1 lines>***<board 2 lines>``."""
    return (
        "".join(line.value for line in board1) + SEPARATOR + "".join(line.value for line in board2)
    )


def score(code: str, guess: str) -> tuple[int, int]:
    """Return the marks of ``guess`` against ``code``: (well placed, misplaced).

    Well placed pegs are counted first; each remaining colour of the guess then scores a
    white mark as many times as it remains in the code (``min`` of the two counts), so a
    colour repeated in the guess is not credited more often than the code holds it.
    """
    well = sum(1 for c, g in zip(code, guess, strict=True) if c == g)
    common = sum(min(code.count(colour), guess.count(colour)) for colour in set(guess))
    return well, common - well


def found_at(lines: tuple[Line, ...] | list[Line]) -> int | None:
    """Return the number (1..8) of the first line that found the code, or ``None``."""
    for number, line in enumerate(lines, start=1):
        if line.well == PEGS:  # line.found
            return number
    return None


def guesses(player: Player, board1: tuple[Line, ...], board2: tuple[Line, ...]) -> tuple[Line, ...]:
    """Return the lines ``player`` played: on the opponent's board."""
    return board2 if player is Player.ONE else board1


def outcome(board1: tuple[Line, ...], board2: tuple[Line, ...]) -> tuple[bool, Player | None]:
    """Return (over, winner) for the lines played; ``winner`` ``None`` is a draw.

    Player one guesses first. The first to find wins; when player one finds on line n,
    player two still plays up to line n and a find on that line is a draw. Neither found
    after 8 lines each: a draw. Source: manual chapter V, "Mastermind", as the tester plays it.
    """
    ones, twos = guesses(Player.ONE, board1, board2), guesses(Player.TWO, board1, board2)
    one, two = found_at(ones), found_at(twos)
    if one is not None and two is not None:
        return True, (Player.ONE if one < two else Player.TWO if two < one else None)
    if one is not None:
        return len(twos) >= one, Player.ONE
    if two is not None:
        return len(ones) >= two, Player.TWO
    return len(ones) >= MAX_LINES and len(twos) >= MAX_LINES, None


def player_to_move(board1: tuple[Line, ...], board2: tuple[Line, ...]) -> Player:
    """Return whose guess is next: player one when both have played as many lines."""
    ones, twos = guesses(Player.ONE, board1, board2), guesses(Player.TWO, board1, board2)
    return Player.ONE if len(ones) <= len(twos) else Player.TWO


@dataclass(frozen=True)
class Board:
    """One board: its owner's code and the lines the opponent played against it.

    ``owner`` is the player whose code the board hides (board 1: player one); the lines
    are the ``guesser``'s. ``code`` is the code drawn (``None``: under the cover);
    ``compose`` is ``"code"`` when the owner chooses the code here (Prepare), ``"line"``
    when the guesser composes line ``len(lines) + 1``, ``""`` otherwise. ``last`` is whether
    the board's last line is the last one played: its marks appear ``Wait`` tenths after
    its pegs.
    """

    owner: Player
    lines: tuple[Line, ...]
    code: str | None = None
    compose: str = ""
    last: bool = False

    @property
    def guesser(self) -> Player:
        """Return the player who plays lines on this board."""
        return self.owner.opponent

    @property
    def next_line(self) -> int | None:
        """Return the number of the next free line, ``None`` when the board is full."""
        return len(self.lines) + 1 if len(self.lines) < MAX_LINES else None

    def line(self, number: int) -> Line | None:
        """Return line ``number`` (1..8), ``None`` if not played."""
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else None


@dataclass(frozen=True, kw_only=True)
class MasterMindView(View):
    """Both boards, where the person composes, and the end of the game.

    ``prefill`` is the composition the page starts from when input is on: the guesser's
    previous guess (to change, as players do), or the code given with a Prepare; ``""``
    for empty holes. ``turn`` is (the player to play, the board they play on): the
    preparing player and their own board, or the next guesser and the opponent's board;
    ``None`` once over. ``over`` and ``winner`` come from the lines (``winner`` ``None``
    when over is a draw).
    """

    boards: tuple[Board, Board]
    prefill: str = ""
    turn: tuple[Player, Player] | None = None
    over: bool = False
    winner: Player | None = None

    @property
    def compose_board(self) -> Board | None:
        """Return the board the person composes on, if any."""
        return next((board for board in self.boards if board.compose), None)


def build(ctx: Context) -> MasterMindView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` (no single ``***``, lines not 6 characters, unknown colours,
    marks above 4, more than 8 lines) draws two empty boards, takes no input and gives the
    error ``tray``; an unreadable ``Gain1``/``Gain2`` is drawn covered, error
    ``gain1``/``gain2``. ``Method=Prepare`` asks ``Input`` (player one by default) for a
    code; otherwise ``Input`` (or, under WebTest, the player to move) composes a guess on
    the opponent's board while it has a free line and the game is not decided for them.
    """
    errors: list[ParamError] = []
    try:
        board1, board2 = read_tray(ctx.tray)
        broken = False
    except ValueError as error:
        errors.append(ParamError("tray", str(error)))
        board1, board2, broken = (), (), True

    codes: dict[Player, str | None] = {}
    for owner in PAIR:
        codes[owner] = read_param(read_code, ctx.gain(owner), f"gain{owner}", errors)

    lines = {Player.ONE: board1, Player.TWO: board2}
    over, winner = outcome(board1, board2)
    method = ctx.method
    player: Player | None = None
    compose: tuple[Player, str] | None = None  # (board owner, "code" or "line")
    prefill = ""
    if not broken and method is Method.PREPARE:
        player = ctx.input or Player.ONE
        compose = (player, "code")
        prefill = codes[player] or ""
    elif not broken and method is Method.STANDARD and not over:
        player = ctx.input
        if player is None and ctx.webtest:
            player = player_to_move(board1, board2)
        played = guesses(player, board1, board2) if player else ()
        if player and len(played) < MAX_LINES and found_at(played) is None:
            compose = (player.opponent, "line")
            prefill = played[-1].colours if played else ""
        else:
            player = None

    turn: tuple[Player, Player] | None = None
    if compose:
        turn = (compose[0] if compose[1] == "code" else compose[0].opponent, compose[0])
    elif method is Method.STANDARD and not over and not broken:
        mover = player_to_move(board1, board2)
        turn = (mover, mover.opponent)

    ones, twos = len(guesses(Player.ONE, board1, board2)), len(guesses(Player.TWO, board1, board2))
    last_guesser = Player.ONE if ones > twos else (Player.TWO if twos else None)
    if method is Method.PREPARE:
        last_guesser = None

    # The person the page is for never sees the opponent's code (hot-seat fairness).
    viewer = None if method is Method.END else (player or ctx.input)
    boards = tuple(
        Board(
            owner=owner,
            lines=lines[owner],
            code=None if viewer is not None and owner is not viewer else codes[owner],
            compose=compose[1] if compose and compose[0] is owner else "",
            last=last_guesser is owner.opponent,
        )
        for owner in PAIR
    )
    return MasterMindView(
        tray=write_tray(board1, board2),
        player=player,
        composed=player is not None,
        errors=tuple(errors),
        sound="win" if over and winner else ("move" if last_guesser else None),
        boards=(boards[0], boards[1]),
        prefill=prefill,
        turn=turn,
        over=over,
        winner=winner if over else None,
    )
