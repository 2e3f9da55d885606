"""Record what the rules of MasterMind, Poker, Seafight and Tarot answered before they were
made fast.

    .venv/bin/python -m tests.interfaces.record_rules > tests/interfaces/rules_recorded.json

These rules were made fast (tables, memos, one read of a state per position); their
answers had to stay the same, and the games stored by the code before must load and go on.
This program plays a few games of each Set with its ``random`` engine and writes, for
positions spread over each game, the state as the store keeps it (JSON) and everything
the Arbitre asks the rules on it: ``result``, ``asked``, each asked seat's ``request``
(and ``final``), the ``engine_value`` and ``person_value`` of the engine's Value and of
values that break the rules, ``play`` of the Value when the rules play it the same way
twice (not when it deals cards from a fresh shuffle), and ``page`` for each viewer.
:mod:`tests.interfaces.test_rules_recorded` asks the rules the same and compares.

It was run once on the code before they were made fast (commit 2b4a46b); running it on later
code would only record that code's answers: a failing comparison is a change of behaviour to
look at, not a file to write again.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove, Result, Turn, seat_count
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.registry import load_registry

#: The Sets recorded, their games and the positions kept per game.
SETS = ("mastermind", "poker", "seafight", "tarot")
GAMES = 1
POSITIONS = 7
#: Values every Set refuses or reads in its own way, tried on every position recorded.
ODD_VALUES = ("ZZ", "-1", "0", "99", "A0", "00ABCD", "H5A01V4J21H3C51V3A51H2G91")


def answer(call: Callable[[], Any]) -> Any:
    """Return ``call()`` as JSON, or ``{"illegal": reason}`` when it raises IllegalMove."""
    try:
        value = call()
    except IllegalMove as error:
        return {"illegal": str(error)}
    return as_json(value)


def as_json(value: Any) -> Any:
    """Return a rules' answer as JSON data (a Turn, a Result, a request, players ...)."""
    if isinstance(value, Turn):
        return {"state": as_json(value.state), "params": dict(value.params), "over": value.over}
    if isinstance(value, Result):
        return {"winner": value.winner, "reason": value.reason, "ranks": list(value.ranks)}
    if hasattr(value, "move_id") and hasattr(value, "params"):
        return {"move_id": value.move_id, "params": dict(value.params)}
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(item) for item in value]
    return value


def stored(state: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``state`` as the store gives it back: through JSON."""
    loaded: dict[str, Any] = json.loads(json.dumps(state))
    return loaded


def views(seats: list[Player]) -> list[tuple[Player | None, bool, bool]]:
    """Return the pages recorded, ``(viewer, asking, reveal)``: a spectator's and a
    replay's, then each seat's, not asked and asked."""
    pages: list[tuple[Player | None, bool, bool]] = [(None, False, False), (None, False, True)]
    return pages + [(seat, asking, False) for seat in seats for asking in (False, True)]


def record(rules: ArbitreRules, state: Mapping[str, Any], value: str | None) -> dict[str, Any]:
    """Return every answer of ``rules`` on ``state``; ``value``: the engine's Value."""
    seats = [Player(number) for number in range(1, seat_count(rules) + 1)]
    asked = answer(lambda: rules.asked(state))
    out: dict[str, Any] = {"state": state, "result": answer(lambda: rules.result(state))}
    out["asked"] = asked
    out["requests"] = {str(int(p)): answer(partial(rules.request, state, p)) for p in seats}
    out["finals"] = {str(int(p)): answer(partial(rules.final, state, p)) for p in seats}
    values: dict[str, Any] = {}
    for player in seats:
        for given in (value, *ODD_VALUES) if value is not None else ODD_VALUES:
            assert given is not None
            engine = answer(partial(rules.engine_value, state, player, given))
            person = answer(partial(rules.person_value, state, player, given))
            # A person's value is read as the engine's but for a few Sets' spellings.
            values[f"{int(player)} {given}"] = {"engine": engine, "person": person}
            if person == engine:
                del values[f"{int(player)} {given}"]["person"]
    out["values"] = values
    plays: dict[str, Any] = {}
    tried = list(ODD_VALUES)
    if value is not None and isinstance(asked, list) and asked:
        tried.append(value)
        rules_value = answer(lambda: rules.engine_value(state, Player(asked[0]), value))
        if isinstance(rules_value, str):
            tried.append(rules_value)
    for given in tried:
        once, twice = (answer(partial(rules.play, state, given)) for _ in range(2))
        if once == twice:  # not a fresh shuffle
            plays[given] = once
    out["plays"] = plays
    turn = Turn(state=state, params={})
    pages = {}
    for viewer, asking, reveal in views(seats):
        name = f"{0 if viewer is None else int(viewer)} {int(asking)} {int(reveal)}"
        pages[name] = answer(partial(rules.page, turn, viewer, asking=asking, reveal=reveal))
    out["pages"] = pages
    return out


def games(key: str) -> list[dict[str, Any]]:
    """Return the positions recorded for the Set ``key``."""
    interface = next(found for found in load_registry(()) if found.key == key)
    rules, engine = interface.arbitre, interface.engines["random"]
    assert rules is not None
    seats = seat_count(rules)
    random.seed(27)
    recorded: list[dict[str, Any]] = []
    for _ in range(GAMES):
        turn = rules.start(rules.levels[0])
        steps: list[tuple[dict[str, Any], str | None]] = []
        while True:
            state = stored(turn.state)
            asked = rules.asked(state)
            if not asked:
                steps.append((state, None))
                break
            player = asked[0]
            params = {"Turn": str(rules.request(state, player).move_id)}
            params.update(rules.request(state, player).params)
            if seats > 2:
                params.update(Seat=str(int(player)), Players=str(seats))
            value = engine(params).strip().upper()
            steps.append((state, value))
            turn = rules.play(state, rules.engine_value(state, player, value))
        chosen = sorted({*range(0, len(steps), max(1, len(steps) // POSITIONS)), len(steps) - 1})
        recorded.extend(record(rules, *steps[index]) for index in chosen)
    return recorded


def main() -> int:
    """Write the recorded answers of every Set of :data:`SETS` as JSON on stdout."""
    json.dump({key: games(key) for key in SETS}, sys.stdout, indent=None)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
