"""Play whole games through a Set's :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules`, in
process.

The same sequence as the Arbitre's game loop, without HTTP: ask the players named by
``asked``, build each one's request as an engine receives it, call the built-in engine,
turn its Value into the rules' value with ``engine_value`` (against the state before the
step), apply the values in player order with ``play``, until ``result`` says the game is
over. Used by the Sets' tests to prove their rules, engine views and engines agree, with
the checks those tests share (requests, pages, games between engines, hot-seat refusals).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    EngineRequest,
    IllegalMove,
    RefereeAnswer,
    RefereeCall,
    Refereeing,
    Result,
    Rules,
    SetInterface,
    Turn,
    starts_from_tray,
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


def arbitre_rules(interface: SetInterface) -> ArbitreRules:
    """Return ``interface``'s Arbitre rules; fail the test if the Set has none."""
    rules = interface.arbitre
    assert rules is not None, f"{interface.name} has no Arbitre rules"
    return rules


def play_out(
    interface: SetInterface,
    engines: Sequence[str] = ("random", "random"),
    *,
    level: int = 1,
    init_as_board: bool = False,
    tray: str | None = None,
) -> Played:
    """Play a game between two of ``interface``'s built-in engines (player one first), from
    the position ``tray`` when given (the Set's rules must start from a Tray, decision 15)."""
    rules = arbitre_rules(interface)
    played = Played()
    if tray is None:
        turn = rules.start(level)
    else:
        assert starts_from_tray(rules), f"{interface.name} cannot start from a Tray"
        turn = rules.start(level, tray)
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
            params = _engine_params(rules, player, request, level)
            played.requests.append((player, params))
            value = interface.engines[engines[int(player) - 1]](params).strip().upper()
            values[player] = rules.engine_value(turn.state, player, value)
        for player in sorted(values):
            turn = rules.play(turn.state, values[player])
            played.turns.append(turn)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def _engine_params(
    rules: ArbitreRules, player: Player, request: EngineRequest, level: int
) -> dict[str, str]:
    """Return the whole query the Arbitre sends ``player``'s engine for ``request``: the
    Arbitre's parameters around the Set's own, in the protocol's order."""
    params = {
        "Set": rules.engine_set,
        "Game": f"GAME{int(player)}",
        "MoveId": str(request.move_id),
        "Status": "0",
        "TimeOut": "20",
    }
    if len(rules.levels) > 1:
        params["Level"] = str(level)
    return params | dict(request.params) | {"Referee": "http://127.0.0.1/referee"}


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


def check_request(
    rules: ArbitreRules,
    state: Mapping[str, Any],
    player: Player,
    move_id: int,
    params: Sequence[tuple[str, str]],
    *,
    init_as_board: bool = False,
) -> None:
    """Check that ``player`` alone is asked in ``state``, and that its engine request is move
    ``move_id`` with exactly ``params``, in that order."""
    assert rules.asked(state) == (player,)
    request = rules.request(state, player, init_as_board=init_as_board)
    assert request.move_id == move_id
    assert list(request.params.items()) == list(params)


def check_pages_show_the_turn(rules: ArbitreRules, turn: Turn, player: Player) -> dict[str, str]:
    """Check that the page asking ``player`` after ``turn`` shows the turn's parameters but
    ``Input`` (the Arbitre's pages hide nothing and never carry it), and that the page asking
    nobody is the same; return that page."""
    page = dict(rules.page(turn, player, asking=True))
    assert page == {name: value for name, value in turn.params.items() if name != "Input"}
    assert dict(rules.page(turn, None, asking=False)) == page
    return page


def play_games(
    interface: SetInterface,
    engines: Sequence[str],
    count: int,
    check: Callable[[Played, bool], None],
) -> list[Played]:
    """Play ``count`` games between ``engines`` (every other one with ``init_as_board``);
    check each one's requests with ``check(game, init_as_board)``, that each turn is over
    exactly when the rules give a result, and that the game's result is the rules' result
    of its last state."""
    rules = arbitre_rules(interface)
    games = []
    for k in range(count):
        init_as_board = k % 2 == 1
        game = play_out(interface, engines, init_as_board=init_as_board)
        check(game, init_as_board)
        for turn in game.turns:
            assert (rules.result(turn.state) is not None) == turn.over
        assert game.result is not None and game.result == rules.result(game.turns[-1].state)
        games.append(game)
    return games


def check_engine_pair(
    interface: SetInterface,
    engines: Sequence[str],
    check: Callable[[Played, bool], None],
    *,
    better: str,
    worse: str,
    at_least: int,
    count: int = 10,
) -> None:
    """Play and check ``count`` games between ``engines`` (:func:`play_games`); when they are
    ``better`` and ``worse``, check that ``better`` won ``at_least`` of them."""
    games = play_games(interface, engines, count, check)
    if better in engines and worse in engines:
        won = wins(games, engines, better)
        assert won >= at_least, f"{better} won only {won} of {count} against {worse}"


def wins(games: Iterable[Played], engines: Sequence[str], engine: str) -> int:
    """Return how many of ``games`` between ``engines`` the player of ``engine`` won."""
    player = Player(list(engines).index(engine) + 1)
    return sum(game.result is not None and game.result.winner is player for game in games)


def wins_against(
    interface: SetInterface,
    engine: str,
    other: str,
    count: int,
    check: Callable[[Played, bool], None] | None = None,
) -> int:
    """Play ``count`` games of ``engine`` against ``other``, ``engine`` first in every other
    one (the first included); check each one's requests with ``check(game, False)`` when
    given; return how many ``engine`` won."""
    won = 0
    for k in range(count):
        engines = (engine, other) if k % 2 == 0 else (other, engine)
        game = play_out(interface, engines)
        if check is not None:
            check(game, False)
        assert game.result is not None
        won += wins([game], engines, engine)
    return won


def turns_from(rules: Rules, first: Turn, values: Iterable[str]) -> list[Turn]:
    """Play ``values`` from ``first``; return every turn, ``first`` included."""
    turns = [first]
    for value in values:
        turns.append(rules.play(turns[-1].state, value))
    return turns


def played(rules: ArbitreRules, *values: str) -> dict[str, Any]:
    """Return the state after ``values`` were played from the start of an Arbitre's game."""
    return dict(turns_from(rules, rules.start(), values)[-1].state)


def hot_seat_pages(rules: Rules, values: Iterable[str]) -> list[dict[str, str]]:
    """Return the page parameters a hot-seat game shows before the first value and after
    each of ``values``."""
    return [dict(turn.params) for turn in turns_from(rules, rules.new_game(), values)]


def check_refused(
    rules: Rules, values: Iterable[str], value: str, match: str | None = None
) -> None:
    """Check that the hot-seat ``rules`` refuse ``value`` (with a message matching ``match``
    when given) once ``values`` were played from a new game."""
    state = turns_from(rules, rules.new_game(), values)[-1].state
    with pytest.raises(IllegalMove, match=match):
        rules.play(state, value)


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
            params = _engine_params(rules, player, rules.request(state, player), level)
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
