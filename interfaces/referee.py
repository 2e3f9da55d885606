"""The added-game referee (manual 002 chapter VI; engine protocol section 6), for any Set
whose rules are :class:`~tournoyons_gui.interfaces.plugin.Refereeing`.

A referee is stateless: it reads the board before the move from ``Tray`` and the
``Gain``s, applies ``Move1`` (the first player's move), ``Move2`` (the second's) or both (a
simultaneous round), and answers the board and gains after it with a ``ReturnCode``:

====  ====================================================================
3     the game goes on
1     game over, the first player wins
2     game over, the second player wins
4     game over, a draw
5     game over, error in the move received; ``Tray`` holds the reason
====  ====================================================================

The manual forbids ``/`` and ``|`` in a ``Tray``; a reason is English prose written by
:func:`tray_text`, which spells them ``-`` and ``!`` and drops control characters, and cuts
it at :data:`MAX_REASON` characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    IllegalMove,
    RefereeAnswer,
    RefereeCall,
    Refereeing,
)
from tournoyons_gui.interfaces.protocol import Player

__all__ = [
    "GOES_ON",
    "MAX_REASON",
    "MOVE_ERROR",
    "read_call",
    "referee",
    "referee_number",
    "tray_text",
]

GOES_ON = 3
MOVE_ERROR = 5
#: A reason sent in ``Tray`` is cut at this many characters.
MAX_REASON = 200

_CODES = {None: 4, Player.ONE: 1, Player.TWO: 2}
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]+")


def tray_text(reason: str) -> str:
    """Return ``reason`` as a ``Tray`` may carry it: no ``/`` (written ``-``), no ``|``
    (written ``!``), no control character, at most :data:`MAX_REASON` characters."""
    text = _UNSAFE.sub(" ", reason).replace("/", "-").replace("|", "!")
    return " ".join(text.split())[:MAX_REASON]


def referee_number(value: str, name: str, most: int) -> int:
    """Return a referee call's field ``value`` (a Gain, a count in a Tray) as a whole number
    0..``most``, the empty string read as 0 (the first move's Gains, engine protocol
    section 6); raise :class:`IllegalMove` naming the field (``name``) otherwise."""
    if value == "":
        return 0
    if not (value.isascii() and value.isdigit()) or int(value) > most:
        raise IllegalMove(f"{name} is a number 0 to {most}")
    return int(value)


def read_call(params: Mapping[str, str]) -> RefereeCall:
    """Return the :class:`RefereeCall` of a referee request's query (names as the manual
    spells them, looked up case-insensitively: decision 5)."""
    lower: dict[str, str] = {}
    for name, value in params.items():
        lower.setdefault(name.lower(), value)

    def move(name: str) -> str | None:
        value = lower.get(name)
        return value.strip().upper() if value is not None and value.strip() else None

    return RefereeCall(
        game=lower.get("game", ""),
        method=lower.get("method", ""),
        move_id=lower.get("moveid", ""),
        tray=lower.get("tray", "").strip(),
        gain1=lower.get("gain1", "").strip(),
        gain2=lower.get("gain2", "").strip(),
        move1=move("move1"),
        move2=move("move2"),
    )


def _error(call: RefereeCall, reason: str) -> RefereeAnswer:
    return RefereeAnswer(
        return_code=MOVE_ERROR,
        tray=tray_text(reason),
        gain1=call.gain1,
        gain2=call.gain2,
        method=call.method,
    )


def referee(rules: Refereeing, call: RefereeCall) -> RefereeAnswer:
    """Apply the move(s) of ``call`` with ``rules`` (a Set's rules, both
    :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules` and
    :class:`~tournoyons_gui.interfaces.plugin.Refereeing`) and return the verdict.

    Never raises: a Tray the rules cannot read, a move from a player not asked, a missing
    or illegal move, and a game already over all answer ``ReturnCode`` 5 with the reason.
    """
    play: ArbitreRules = rules  # type: ignore[assignment]
    try:
        state = rules.referee_position(call)
    except IllegalMove as unreadable:
        return _error(call, f"unreadable Tray: {unreadable}")
    if play.result(state) is not None:
        return _error(call, "the game is already over")
    moves = {
        player: value
        for player, value in ((Player.ONE, call.move1), (Player.TWO, call.move2))
        if value is not None
    }
    asked = play.asked(state)
    if not moves:
        return _error(call, "no move received (Move1 or Move2)")
    if set(moves) != set(asked):
        wanted = " and ".join(f"Move{int(p)}" for p in asked)
        return _error(call, f"the move expected is {wanted}")
    values: dict[Player, str] = {}
    for player in asked:
        try:
            values[player] = play.engine_value(state, player, moves[player])
        except IllegalMove as illegal:
            return _error(call, f"illegal Move{int(player)} {moves[player]!r}: {illegal}")
    try:
        for player in sorted(values):
            state = play.play(state, values[player]).state
    except IllegalMove as illegal:
        return _error(call, f"illegal move: {illegal}")
    tray, gain1, gain2 = rules.referee_tray(state)
    gain1, gain2 = gain1 or call.gain1, gain2 or call.gain2
    result = play.result(state)
    code = GOES_ON if result is None else _CODES[result.winner]
    return RefereeAnswer(return_code=code, tray=tray, gain1=gain1, gain2=gain2, method=call.method)
