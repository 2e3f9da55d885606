"""Server-side fuzzing: generated query strings never break a Set's page.

Per registered Set (the third-party Nim included), ``TOURNOYONS_FUZZ_EXAMPLES`` query
strings (default 3,000; 100,000 with ``--long``) from a seeded generator
(:mod:`tests.robustness.queries`: random and near-valid Trays and values, every parameter
absent, present, repeated or in odd case, the aliases, junk bytes, broken and legacy
``%u`` escapes, huge values) are sent to the ASGI application in-process (the first
``TOURNOYONS_FUZZ_PAGES``, default 1,500). Each answer is a 200 page with a board, a
visible error sign, or Method None, and the Set's ``build()`` never raises on the query's
context (the page would show that as ``data-error="set"``).
Hypothesis adds a smaller, shrinking property per Set.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.robustness.asgi import get_many
from tests.robustness.queries import NAMES, random_queries, shape_of
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import read_context
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server import create_app

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]
EXAMPLES = int(os.environ.get("TOURNOYONS_FUZZ_EXAMPLES", "3000"))
# Of those, how many are also rendered as a whole page through the application.
PAGES = min(EXAMPLES, int(os.environ.get("TOURNOYONS_FUZZ_PAGES", "1500")))
# Hypothesis examples per Set (shrinking-friendly failures), beside the seeded bulk.
PROPERTY_EXAMPLES = int(os.environ.get("TOURNOYONS_FUZZ_PROPERTY", "100"))

BOARD = re.compile(rb"<[^<>]*\sdata-board[\s=>]")
ERROR = re.compile(rb'<[^<>]*\sdata-error="([^"]+)"')
METHOD_NONE = re.compile(rb'<html[^>]*\sdata-method="none"')


@pytest.fixture(scope="module")
def fuzz_app() -> Any:
    """A fresh application (its own page cache and sink) for this module."""
    return create_app()


def page_problem(status: int, body: bytes) -> str | None:
    """Return what is wrong with an answer, or ``None`` if it is a proper page."""
    if status != 200:
        return f"status {status}"
    error = ERROR.search(body)
    if error and b"set" in error.group(1).split():
        return f"the Set failed to draw (data-error={error.group(1)!r})"
    if not (BOARD.search(body) or error or METHOD_NONE.search(body[:600])):
        return "no board, no error sign, and not Method None"
    return None


def check(
    interface: SetInterface, app: Any, queries: list[bytes], pages: int | None = None
) -> list[str]:
    """Return what broke on each query: the Set's build(), or the page (first ``pages``).

    A query rendered as a page has its context built there (the page says
    ``data-error="set"`` if ``build()`` raised); it is built again on its own only when the
    page builds another context (a Method the Set does not offer is drawn as Standard).
    """
    failures: list[str] = []
    pages = len(queries) if pages is None else pages
    for number, query in enumerate(queries):
        ctx = read_context(query)
        if number < pages and ctx.method in interface.methods:
            continue
        try:
            interface.build(ctx)
        except Exception as error:
            failures.append(f"build raised {error!r} on {query[:300]!r}")

    def answer(query: bytes, status: int, body: bytes) -> None:
        problem = page_problem(status, body)
        if problem:
            failures.append(f"{problem} on {query[:300]!r}")

    get_many(app, f"/{interface.key}/", queries[:pages], answer)
    return failures


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS)
def test_generated_queries_give_a_page_with_a_board_or_an_error_sign(
    interface: SetInterface, fuzz_app: Any
) -> None:
    queries = list(random_queries(interface, EXAMPLES))
    assert len(set(queries)) > EXAMPLES * 0.95  # the generator does not repeat itself
    failures = check(interface, fuzz_app, queries, PAGES)
    assert failures == [], f"{len(failures)} failures, first: {failures[:5]}"


def test_the_oracle_tells_a_broken_page() -> None:
    assert page_problem(500, b"") == "status 500"
    assert page_problem(200, b'<html data-method="standard"><p>x data-board</p>')
    assert page_problem(200, b'<span class="error-sign" data-error="set tray">')
    assert page_problem(200, b'<html data-method="standard"><svg data-board>') is None
    assert page_problem(200, b'<html data-method="none"><main></main>') is None
    assert page_problem(200, b'<span class="e" data-error="tray">') is None


def _pairs(interface: SetInterface) -> st.SearchStrategy[bytes]:
    shape = shape_of(interface)
    text = st.text(alphabet=st.sampled_from(shape.alphabet + "%u&=+ *?<>\"'\x00é😀"), max_size=30)
    value = st.one_of(
        st.sampled_from(shape.values),
        text,
        st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
    )
    name = st.sampled_from(NAMES).flatmap(
        lambda n: st.sampled_from((n, n.lower(), n.upper(), n.swapcase()))
    )

    def encode(pair: tuple[str, str]) -> bytes:
        return (pair[0] + "=" + pair[1]).encode("utf-8", errors="surrogatepass")

    return st.lists(st.tuples(name, value).map(encode), max_size=12).map(b"&".join)


@pytest.mark.parametrize("interface", SETS)
def test_hypothesis_queries_never_break_build_or_page(
    interface: SetInterface, fuzz_app: Any
) -> None:
    @settings(
        max_examples=PROPERTY_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(query=_pairs(interface))
    def prop(query: bytes) -> None:
        assert check(interface, fuzz_app, [query]) == []

    prop()
