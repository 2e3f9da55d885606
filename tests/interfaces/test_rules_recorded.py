"""The rules of MasterMind, Poker, Seafight and Tarot answer as before they were made fast.

``rules_recorded.json`` holds positions of games played by the code before these rules were
made fast, as the store keeps them (JSON), with every answer that code gave on them
(:mod:`tests.interfaces.record_rules`): the games stored then must load and go on, and
each call must answer the same, parameters in the same order, errors with the same words.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.interfaces.record_rules import answer, views
from tournoyons_gui.interfaces.memo import Memo
from tournoyons_gui.interfaces.plugin import ArbitreRules, Turn, seat_count
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.registry import load_registry

RECORDED: dict[str, list[dict[str, Any]]] = json.loads(
    (Path(__file__).parent / "rules_recorded.json").read_text(encoding="utf-8")
)


def rules_of(key: str) -> ArbitreRules:
    """Return the Arbitre's rules of the Set ``key``."""
    rules = next(found for found in load_registry(()) if found.key == key).arbitre
    assert rules is not None
    return rules


def same(found: Any, recorded: Any, what: str) -> None:
    """Assert that an answer is the recorded one, mappings in the same order."""
    assert found == recorded, what
    assert json.dumps(found) == json.dumps(recorded), f"{what}: not in the recorded order"


def check_position(rules: ArbitreRules, position: dict[str, Any], where: str) -> None:
    """Assert that ``rules`` give every answer recorded on ``position``."""
    state = position["state"]
    seats = [Player(number) for number in range(1, seat_count(rules) + 1)]

    def check(call: Callable[[], Any], recorded: Any, what: str) -> None:
        same(answer(call), recorded, f"{where}: {what}")

    check(lambda: rules.result(state), position["result"], "result")
    check(lambda: rules.asked(state), position["asked"], "asked")
    for player in seats:
        seat = str(int(player))
        check(partial(rules.request, state, player), position["requests"][seat], "request")
        check(partial(rules.final, state, player), position["finals"][seat], "final")
    for name, recorded in position["values"].items():
        seat, _, value = name.partition(" ")
        player = Player(int(seat))
        check(
            partial(rules.engine_value, state, player, value),
            recorded["engine"],
            f"engine_value {name!r}",
        )
        check(
            partial(rules.person_value, state, player, value),
            recorded.get("person", recorded["engine"]),
            f"person_value {name!r}",
        )
    for value, recorded in position["plays"].items():
        check(partial(rules.play, state, value), recorded, f"play {value!r}")
    turn = Turn(state=state, params={})
    for viewer, asking, reveal in views(seats):
        name = f"{0 if viewer is None else int(viewer)} {int(asking)} {int(reveal)}"
        check(
            partial(rules.page, turn, viewer, asking=asking, reveal=reveal),
            position["pages"][name],
            f"page {name}",
        )


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_every_recorded_position_gets_the_recorded_answers(key: str) -> None:
    rules = rules_of(key)
    for number, position in enumerate(RECORDED[key]):
        check_position(rules, position, f"{key} position {number}")


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_a_recorded_game_goes_on_to_its_end(key: str) -> None:
    rules = rules_of(key)
    engine = next(found for found in load_registry(()) if found.key == key).engines["random"]
    seats = seat_count(rules)
    state = RECORDED[key][len(RECORDED[key]) // 2]["state"]
    for _ in range(5000):
        if rules.result(state) is not None:
            break
        for player in rules.asked(state):
            params = {"Turn": str(rules.request(state, player).move_id)}
            params.update(rules.request(state, player).params)
            if seats > 2:
                params.update(Seat=str(int(player)), Players=str(seats))
            value = rules.engine_value(state, player, engine(params).strip().upper())
            state = json.loads(json.dumps(rules.play(state, value).state))
    assert rules.result(state) is not None


def written_otherwise(value: Any, how: str) -> Any:
    """Return a state's ``value`` with its whole numbers written as ``how`` says: floats
    (``1.0``), booleans where they are 0 or 1, or strings: what a store or a hand may
    give back, which the rules read as they read the numbers (``int``) or refuse."""
    if isinstance(value, dict):
        return {key: written_otherwise(item, how) for key, item in value.items()}
    if isinstance(value, list):
        return [written_otherwise(item, how) for item in value]
    if type(value) is int:
        if how == "float":
            return float(value)
        if how == "bool":
            return bool(value) if value in (0, 1) else value
        return str(value)
    return value


def forget(key: str) -> None:
    """Empty what the rules of the Set ``key`` keep (their memos and caches)."""
    package = next(found for found in load_registry(()) if found.key == key).package
    for name, module in list(sys.modules.items()):
        if name.startswith(package):
            for value in vars(module).values():
                if isinstance(value, Memo):
                    value.clear()
                elif callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


@pytest.mark.parametrize("key", sorted(RECORDED))
@pytest.mark.parametrize("how", ["float", "bool", "str"])
def test_a_state_written_otherwise_reads_as_before_whatever_was_read_first(
    key: str, how: str
) -> None:
    """The rules keep what they read by the state's values: a state whose numbers are
    written otherwise gets, after the state as written was read and kept (equal values
    for a dict's key), what it gets read alone."""
    rules = rules_of(key)
    for number, position in enumerate(RECORDED[key]):
        state, other = position["state"], written_otherwise(position["state"], how)
        forget(key)
        alone = answer(partial(rules.asked, other)), answer(partial(rules.result, other))
        forget(key)
        rules.asked(state)  # read and kept first
        after = answer(partial(rules.asked, other)), answer(partial(rules.result, other))
        assert after == alone, (key, number, how)
