"""The ``fragment`` tag: rendered once per key, escaped as in place, never a stale page."""

from __future__ import annotations

from itertools import count
from typing import Any

import jinja2
import pytest

import tournoyons_gui.interfaces.fragments as fragments
from tests.robustness.queries import random_queries
from tournoyons_gui.interfaces.fragments import FragmentExtension
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.assets import load_assets
from tournoyons_gui.server.environment import make_environment
from tournoyons_gui.server.pages import Pages
from tournoyons_gui.server.tester import Tester


@pytest.fixture
def env() -> jinja2.Environment:
    environment = jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, extensions=[FragmentExtension]
    )
    ticks = count(1)
    environment.globals["tick"] = lambda: next(ticks)
    return environment


def cache(env: jinja2.Environment) -> dict[Any, Any]:
    extension = env.extensions[FragmentExtension.identifier]
    assert isinstance(extension, FragmentExtension)
    return extension.cache


def test_a_fragment_without_key_is_rendered_once(env: jinja2.Environment) -> None:
    template = env.from_string("{% fragment %}<b>{{ tick() }}</b>{% endfragment %}")
    assert [template.render(), template.render()] == ["<b>1</b>", "<b>1</b>"]


def test_a_keyed_fragment_is_rendered_once_per_key(env: jinja2.Environment) -> None:
    template = env.from_string("{% fragment x %}{{ x }}:{{ tick() }}{% endfragment %}")
    assert [template.render(x=k) for k in ("a", "b", "a", "b")] == ["a:1", "b:2", "a:1", "b:2"]


def test_the_loop_form_joins_each_item_rendered_once(env: jinja2.Environment) -> None:
    template = env.from_string(
        "{% fragment c, p for c in cells %}[{{ c }}{{ p }}{{ tick() }}]{% endfragment %}"
    )
    assert template.render(cells=[1, 2, 1], p="x") == "[1x1][2x2][1x1]"
    assert template.render(cells=[2, 1], p="y") == "[2y3][1y4]"
    assert template.render(cells=[], p="y") == ""


def test_output_is_escaped_as_in_place(env: jinja2.Environment) -> None:
    template = env.from_string(
        "{% fragment x %}<i>{{ x }}</i>{% endfragment %}|"
        "{% fragment c for c in cells %}{{ c }}{% endfragment %}"
    )
    assert template.render(x="<script>", cells=["\"&'"]) == (
        "<i>&lt;script&gt;</i>|&#34;&amp;&#39;"
    )


def test_an_unhashable_key_is_rendered_every_time(env: jinja2.Environment) -> None:
    template = env.from_string(
        "{% fragment x %}{{ tick() }}{% endfragment %}{% fragment c for c in cells %}"
        "{{ c|length }}{{ tick() }}{% endfragment %}"
    )
    assert template.render(x=[1], cells=[[1], [2, 3]]) == "11223"
    assert template.render(x=[1], cells=[[1]]) == "415"
    assert cache(env) == {}


@pytest.mark.parametrize(
    "source",
    [
        "{% fragment %}{{ view.tray }}{% endfragment %}",
        "{% fragment x %}{{ y }}{% endfragment %}",
        "{% fragment c for c in cells %}{{ preview }}{% endfragment %}",
        "{% fragment c for c in cells %}{{ self.title() }}{% endfragment %}",
        # A key names a path, not its root: view.a does not let the body read view.b.
        "{% fragment view.a %}{{ view.b }}{% endfragment %}",
        "{% fragment view['a'] %}{{ view.b }}{% endfragment %}",
        "{% fragment view.a.x %}{{ view.a.y }}{% endfragment %}",
        "{% fragment view.a %}{{ view }}{% endfragment %}",
        "{% fragment view.cells | length %}{{ view.cells[0] }}{% endfragment %}",
        "{% fragment c, view.a for c in cells %}{{ c }}{{ view.b }}{% endfragment %}",
    ],
)
def test_a_body_reading_what_its_key_does_not_name_is_refused(
    env: jinja2.Environment, source: str
) -> None:
    with pytest.raises(jinja2.TemplateSyntaxError, match="which its keys do not name"):
        env.from_string(source)


@pytest.mark.parametrize(
    "source",
    [
        "{% fragment view.a %}{{ view.a }}{{ view.a.x }}{{ view.a['y'] }}{% endfragment %}",
        "{% fragment view %}{{ view.b }}{% endfragment %}",
        "{% fragment c for c in cells %}{{ c.name }}{{ c[0] }}{% endfragment %}",
        "{% fragment view.a %}{% set z = 1 %}{{ z }}{{ view.a.b }}{% endfragment %}",
    ],
)
def test_a_body_reading_below_its_keys_compiles(env: jinja2.Environment, source: str) -> None:
    env.from_string(source)


def test_the_first_context_of_a_path_key_is_never_shown_to_another(env: jinja2.Environment) -> None:
    template = env.from_string("{% fragment view.a %}{{ view.a.x }}{% endfragment %}")
    assert template.render(view={"a": {"x": 1}}) == "1"
    assert template.render(view={"a": {"x": 2}}) == "2"


def test_the_loop_form_names_its_item_first(env: jinja2.Environment) -> None:
    with pytest.raises(jinja2.TemplateSyntaxError, match="name the loop's item first"):
        env.from_string("{% fragment p, c for c in cells %}{{ c }}{% endfragment %}")


def test_names_a_body_assigns_or_receives_are_its_own(env: jinja2.Environment) -> None:
    template = env.from_string(
        "{% fragment %}{% macro m(a) %}{{ a }}{% endmacro %}{% set z = 2 %}"
        "{% for k in range(z) %}{{ m(k) }}{% endfor %}{% endfragment %}"
    )
    assert template.render() == "01"


def test_the_cache_is_bounded(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fragments, "FRAGMENT_CACHE_SIZE", 10)
    template = env.from_string("{% fragment x %}{{ x }}{% endfragment %}")
    for k in range(100):
        assert template.render(x=k) == str(k)
    assert len(cache(env)) <= 10
    assert template.render(x=99) == "99"


def test_no_page_depends_on_what_was_rendered_before() -> None:
    """Every Set's pages are the same from an empty fragment cache and from one warmed in
    another order: a fragment never answers for a context it was not rendered for."""
    registry = load_registry()

    def pages() -> Pages:
        env = make_environment(registry, load_assets(registry))
        return Pages(registry, env, home=Tester(registry, env).page)

    warm, cold = pages(), pages()
    for interface in registry:
        queries = list(random_queries(interface, 60, seed=3))
        first = []
        for query in queries[:15]:
            cache(cold.env).clear()
            first.append(cold.render(interface, query).body)
        again = [warm.render(interface, q).body for q in reversed(queries)]
        assert list(reversed(again))[:15] == first, interface.key


def test_an_imported_macro_is_the_bodys_own(env: jinja2.Environment) -> None:
    env.loader = jinja2.DictLoader({"m.html": "{% macro twice(a) %}{{ a }}{{ a }}{% endmacro %}"})
    template = env.from_string(
        '{% fragment x %}{% from "m.html" import twice %}{{ twice(x) }}{% endfragment %}'
        '{% fragment x %}{% import "m.html" as m %}{{ m.twice(x) }}{% endfragment %}'
    )
    assert template.render(x="<") == "&lt;&lt;" * 2
