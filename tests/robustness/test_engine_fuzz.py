"""Engine fuzzing: every built-in engine of every Set answers any request, never raising.

A built-in engine is a web server of ours that engine authors play against and that the
tester calls with whatever a person types; it reads only the engine protocol's parameters
(engine protocol section 4). Per engine, ``TOURNOYONS_ENGINE_FUZZ`` requests (default 150)
from a seeded generator: the Tray, Moves and Gains near-valid or hostile
(:mod:`tests.robustness.queries`, seeded with the Set's sample page and its first real
engine request), ``Turn`` a number, absent, zero, negative, huge, or digits that are not
ASCII (``²``, ``٣``: ``str.isdigit`` says yes, ``int`` says no). Each answer is a short
Value; none is an exception (the engine route would answer 500).
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from tests.robustness.queries import shape_of, value_for
from tournoyons_gui.interfaces.plugin import Engine, SetInterface
from tournoyons_gui.interfaces.registry import load_registry

REGISTRY = load_registry()
ENGINES = [
    pytest.param(interface, name, engine, id=f"{interface.key}-{name}")
    for interface in REGISTRY
    for name, engine in interface.engines.items()
]
EXAMPLES = int(os.environ.get("TOURNOYONS_ENGINE_FUZZ", "150"))
TURNS = ("", "0", "-1", "1", "2", "3", "4", "²", "٣", "1e3", "99999999999999999999", " 1", "x")


def _first_request(interface: SetInterface) -> dict[str, str]:
    """Return the parameters of the first request the Arbitre sends the Set's engines."""
    rules = interface.arbitre
    if rules is None:
        return {}
    turn = rules.start(1)
    asked = rules.asked(turn.state)
    return dict(rules.request(turn.state, asked[0]).params) if asked else {}


@pytest.mark.slow
@pytest.mark.parametrize(("interface", "name", "engine"), ENGINES)
def test_a_built_in_engine_answers_any_request(
    interface: SetInterface, name: str, engine: Engine
) -> None:
    rng = random.Random(f"{interface.key}-{name}")
    first = _first_request(interface)
    shape = shape_of(interface)
    shapes = [shape]
    if first.get("Tray"):
        shapes.append(replace(shape, tray=first["Tray"]))
    for _ in range(EXAMPLES):
        seeded = rng.choice(shapes)
        params = {"Game": "fuzz", "MoveId": "1", "Status": "0", "Referee": ""}
        for key in ("Tray", "Move1", "Move2", "Gain1", "Gain2"):
            if rng.random() < 0.8:
                params[key] = value_for(rng, key, seeded)
        if rng.random() < 0.9:
            params["Turn"] = rng.choice(TURNS) if rng.random() < 0.5 else str(rng.randint(1, 250))
        value = engine(params)
        assert isinstance(value, str) and 0 < len(value) <= 200, (params, value)
