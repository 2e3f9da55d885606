"""Play whole games through a Set's :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules`, in
process.

The same sequence as the Arbitre's game loop, without HTTP: ask the players named by
``asked``, build each one's request as an engine receives it, call the built-in engine,
turn its Value into the rules' value with ``engine_value`` (against the state before the
step), apply the values in player order with ``play``, until ``result`` says the game is
over. Used by the Sets' tests to prove their rules, engine views and engines agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    RefereeAnswer,
    RefereeCall,
    Refereeing,
    Result,
    Rules,
    SetInterface,
    Turn,
)
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.referee import GOES_ON, referee

MAX_STEPS = 5000


@dataclass
class Played:
    """A game played out: every turn (the first included), the requests sent, the result."""

    turns: list[Turn] = field(default_factory=list)
    requests: list[tuple[Player, dict[str, str]]] = field(default_factory=list)
    result: Result | None = None


def play_out(
    interface: SetInterface,
    engines: Sequence[str] = ("random", "random"),
    *,
    level: int = 1,
    init_as_board: bool = False,
) -> Played:
    """Play a game between two of ``interface``'s built-in engines (player one first)."""
    rules: ArbitreRules | None = interface.arbitre
    assert rules is not None, f"{interface.name} has no Arbitre rules"
    played = Played()
    turn = rules.start(level)
    played.turns.append(turn)
    for _ in range(MAX_STEPS):
        result = rules.result(turn.state)
        if result is not None:
            assert rules.asked(turn.state) == ()
            played.result = result
            return played
        asked = rules.asked(turn.state)
        assert asked, "a game in progress asks somebody"
        values: dict[Player, str] = {}
        for player in asked:
            request = rules.request(turn.state, player, init_as_board=init_as_board)
            params = {
                "Set": rules.engine_set,
                "Game": f"GAME{int(player)}",
                "MoveId": str(request.move_id),
                "Status": "0",
                "TimeOut": "20",
            }
            if len(rules.levels) > 1:
                params["Level"] = str(level)
            params.update(request.params)
            params["Referee"] = "http://127.0.0.1/referee"
            played.requests.append((player, params))
            value = interface.engines[engines[int(player) - 1]](params).strip().upper()
            values[player] = rules.engine_value(turn.state, player, value)
        for player in sorted(values):
            turn = rules.play(turn.state, values[player])
            played.turns.append(turn)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def check_alternating_requests(
    game: Played, *, first: str, gains: bool, alphabet: str | None = None
) -> None:
    """Check every request of a game of alternating moves against the engine protocol:
    ``Turn`` = ``MoveId`` = the move asked, odd for player one; on Turn 1 only ``Turn`` and
    ``Tray`` = ``first`` (``Init`` or the explicit board); from Turn 2 the ``Gain1``/``Gain2``
    of the position when the Set has ``gains``, the opponent's last move, and the Tray before
    the move (its codes among ``alphabet`` when given)."""
    for k, (player, params) in enumerate(game.requests):
        opponent = player.opponent
        assert player is (Player.ONE if k % 2 == 0 else Player.TWO)
        assert params["Turn"] == params["MoveId"] == str(k + 1)
        names = [n for n in params if n in ("Turn", "Gain1", "Gain2", "Move1", "Move2", "Tray")]
        if k == 0:
            assert names == ["Turn", "Tray"]
            assert params["Tray"] == first
            continue
        before = game.turns[k]
        expected = ["Turn", *(("Gain1", "Gain2") if gains else ()), f"Move{opponent}", "Tray"]
        assert names == expected
        assert params[f"Move{opponent}"] == before.params[f"Move{opponent}"]
        assert params["Tray"] == before.state["tray"]
        if alphabet is not None:
            assert not set(params["Tray"]) - set(alphabet)
        if gains:
            assert (params["Gain1"], params["Gain2"]) == (
                before.params["Gain1"],
                before.params["Gain2"],
            )


def check_first_request(rules: ArbitreRules, *, explicit: str, init: str = "Init") -> None:
    """Check Turn 1's request: ``Init`` (``init``) or, with ``init_as_board``, the explicit
    board; player one alone is asked."""
    start = rules.start().state
    request = rules.request(start, Player.ONE)
    assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": init})
    request = rules.request(start, Player.ONE, init_as_board=True)
    assert dict(request.params) == {"Turn": "1", "Tray": explicit}
    assert rules.asked(start) == (Player.ONE,)


def played(rules: ArbitreRules, *values: str) -> dict[str, Any]:
    """Return the state after ``values`` were played from the start of an Arbitre's game."""
    state = rules.start().state
    for value in values:
        state = rules.play(state, value).state
    return dict(state)


def hot_seat_pages(rules: Rules, values: Iterable[str]) -> list[dict[str, str]]:
    """Return the page parameters a hot-seat game shows before the first value and after
    each of ``values``."""
    turn = rules.new_game()
    shown = [dict(turn.params)]
    for value in values:
        turn = rules.play(turn.state, value)
        shown.append(dict(turn.params))
    return shown


@dataclass
class Refereed:
    """A game played through a Set's chapter VI referee alone: each call sent (the Tray
    and Gains the previous answer returned, the next ``MoveId``, the moves), its answer, and
    the engines' Values it carried, by player (the Values as sent, before ``engine_value``)."""

    calls: list[RefereeCall] = field(default_factory=list)
    answers: list[RefereeAnswer] = field(default_factory=list)
    values: list[dict[Player, str]] = field(default_factory=list)

    @property
    def last(self) -> RefereeAnswer:
        """Return the last answer (the verdict once the game is over)."""
        return self.answers[-1]


def referee_out(
    interface: SetInterface,
    engines: Sequence[str] = ("random", "random"),
    *,
    level: int = 1,
    gains: tuple[str, str] = ("", ""),
) -> Refereed:
    """Play a game through ``interface``'s referee alone, as Tournoyons plays an added game.

    It starts from ``Init`` with ``gains`` and ``MoveId=1``; each call carries the Tray and
    Gains of the previous answer and the next ``MoveId``. The players asked and what their
    engines see are those of the position the referee reads
    (:meth:`~tournoyons_gui.interfaces.plugin.Refereeing.referee_position` of the call
    without its moves); the built-in ``engines`` (player one's, player two's) choose the
    moves. It stops at the first answer whose ``ReturnCode`` is not 3.
    """
    rules: ArbitreRules | None = interface.arbitre
    judge: Refereeing | None = interface.referee
    assert rules is not None and judge is not None, f"{interface.name} has no referee"
    game = Refereed()
    for move_id in range(1, MAX_STEPS + 1):
        position = _next_position(game, gains, move_id)
        state = judge.referee_position(position)
        values: dict[Player, str] = {}
        for player in rules.asked(state):
            request = rules.request(state, player)
            params = {
                "Set": rules.engine_set,
                "Game": f"GAME{int(player)}",
                "MoveId": str(request.move_id),
                "Status": "0",
                "TimeOut": "20",
                **({"Level": str(level)} if len(rules.levels) > 1 else {}),
                **request.params,
                "Referee": "http://127.0.0.1/referee",
            }
            values[player] = interface.engines[engines[int(player) - 1]](params).strip().upper()
        if _refereed(judge, game, position, values) != GOES_ON:
            return game
    raise AssertionError(f"no end after {MAX_STEPS} referee calls")


def referee_moves(
    interface: SetInterface,
    moves: Sequence[Mapping[Player, str]],
    *,
    gains: tuple[str, str] = ("", ""),
) -> Refereed:
    """Play ``moves`` (each call's moves by player) through ``interface``'s referee alone,
    from ``Init`` with ``gains``, as :func:`referee_out` does; stop at the first answer whose
    ``ReturnCode`` is not 3, or after the last move."""
    judge: Refereeing | None = interface.referee
    assert judge is not None, f"{interface.name} has no referee"
    game = Refereed()
    for move_id, values in enumerate(moves, start=1):
        position = _next_position(game, gains, move_id)
        if _refereed(judge, game, position, dict(values)) != GOES_ON:
            break
    return game


def _next_position(game: Refereed, gains: tuple[str, str], move_id: int) -> RefereeCall:
    """Return the call of move ``move_id`` without its moves: the start (``Init`` and
    ``gains``), then the Tray and Gains of the last answer."""
    if not game.answers:
        return RefereeCall(
            game="REFEREE01", move_id=str(move_id), tray="Init", gain1=gains[0], gain2=gains[1]
        )
    last = game.last
    return RefereeCall(
        game="REFEREE01", move_id=str(move_id), tray=last.tray, gain1=last.gain1, gain2=last.gain2
    )


def _refereed(
    judge: Refereeing, game: Refereed, position: RefereeCall, values: dict[Player, str]
) -> int:
    """Send ``position`` with the moves ``values`` to the referee, record the call and its
    answer in ``game``; return the answer's ``ReturnCode``."""
    call = replace(position, move1=values.get(Player.ONE), move2=values.get(Player.TWO))
    answer = referee(judge, call)
    game.calls.append(call)
    game.answers.append(answer)
    game.values.append(values)
    return answer.return_code
