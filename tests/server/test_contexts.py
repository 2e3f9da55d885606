"""The interface check's contexts (:mod:`tournoyons_gui.server.contexts`): made by each
Set's own rules, every kind of context the check loads."""

from __future__ import annotations

import pytest

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.contexts import RETURN_URL, WAIT, contexts
from tournoyons_gui.server.hostile import CHECK_TEXTS, PAYLOADS

SETS = [pytest.param(s, id=s.key) for s in load_registry()]


@pytest.mark.parametrize("interface", SETS)
def test_every_kind_of_context_is_made(interface: SetInterface) -> None:
    found = contexts(interface)
    labels = [c.label for c in found]
    assert len(set(labels)) == len(labels)
    for label in ("start", "none", "input One", "input Two", f"wait {WAIT}"):
        assert label in labels, label
    assert "end" in labels and sum(label.startswith("move ") for label in labels) >= 2
    by = {c.label: c.params for c in found}
    assert by["end"]["Method"] == "End" and by["none"]["Method"] == "None"
    assert by[f"wait {WAIT}"]["Wait"] == str(WAIT)
    for word in ("One", "Two"):
        assert by[f"input {word}"]["Input"] == word
        assert by[f"input {word}"]["URLReturn"] == RETURN_URL
    for context in found:
        assert context.params["Set"] == interface.name
        assert ("Input" in context.params) == context.label.startswith(("input", "prepare"))
    hostile = [c for c in found if c.hostile]
    assert [(c.params["Legend"], c.params["Name1"]) for c in hostile] == [
        (legend, name1) for legend, name1, _ in CHECK_TEXTS
    ]
    assert all(text in PAYLOADS for texts in CHECK_TEXTS for text in texts)


@pytest.mark.parametrize("interface", SETS)
def test_prepare_where_the_set_has_it(interface: SetInterface) -> None:
    methods = {c.params.get("Method") for c in contexts(interface)}
    assert ("Prepare" in methods) == (Method.PREPARE in interface.methods)
