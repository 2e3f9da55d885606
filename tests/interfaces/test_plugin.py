"""The Set contract (``interfaces/plugin.py``): what a Set leaves to the convention."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
import urllib.parse

import pytest
from starlette.testclient import TestClient

from tournoyons_gui.interfaces import Context, SetInterface, View
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.tictactoe import board as tictactoe_board

SETS = list(load_registry())


@pytest.mark.parametrize("interface", SETS, ids=lambda s: s.key)
def test_a_set_page_and_assets_are_found_in_its_package(interface: SetInterface) -> None:
    """Template ``<key>/page.html``; scripts and styles: the static folder's, by name."""
    assert interface.template == f"{interface.key}/page.html"
    assert interface.resources("templates").joinpath(interface.template).is_file()
    static = interface.resources("static")
    names = sorted(e.name for e in static.iterdir()) if static.is_dir() else []
    assert interface.scripts == tuple(n for n in names if n.endswith(".js"))
    assert interface.styles == tuple(n for n in names if n.endswith(".css"))
    for name in (*interface.scripts, *interface.styles):
        assert static.joinpath(name).is_file()


def test_the_package_is_builds() -> None:
    """Built-in and third-party alike: the package of the module defining ``build``."""
    by_key = {s.key: s for s in SETS}
    assert by_key["tictactoe"].package == "tournoyons_gui.interfaces.tictactoe"
    assert (
        by_key["rochambeau"].package == "tournoyons_gui.interfaces.rochambeau"
    )  # build in game.py
    assert by_key["nim"].package == "tournoyons_nim"  # build in __init__.py
    assert by_key["nim"].scripts == by_key["nim"].styles == ()  # no static/ folder


def test_a_package_alone_finds_build_rules_engines_and_botsarena() -> None:
    """``package=`` is enough: ``board.build``, ``rules.RULES``, ``engines.ENGINES`` and
    ``botsarena.BOTSARENA`` are taken from it, players' names added to the sample."""
    package = "tournoyons_gui.interfaces.connectfour"
    found = SetInterface(name="Drop", package=package, sample={"Tray": "Init"})
    modules = {m: importlib.import_module(f"{package}.{m}") for m in ("board", "rules")}
    assert found.build is modules["board"].build
    # One object serves the three protocols.
    served: list[object] = [found.rules, found.arbitre, found.referee]
    assert all(each is modules["rules"].RULES for each in served)
    assert list(found.engines) == ["random", "strong"]
    assert found.botsarena is importlib.import_module(f"{package}.botsarena").BOTSARENA
    assert found.sample == {"Name1": "MissOne", "Name2": "MrTwo", "Tray": "Init"}
    named = SetInterface(name="Drop", package=package, sample={"Name1": "Ann"})
    assert named.sample == {"Name1": "Ann", "Name2": "MrTwo"}


def test_what_a_package_lacks_stays_empty_and_a_build_is_needed() -> None:
    """A module without the conventional name, or no module, gives no rules or engines;
    no ``build`` found and none given is refused, as is a Set with neither."""
    # tournoyons_nim has rules.py (NimRules, no RULES) and engines.py (ENGINES).
    nim = SetInterface(name="Pile", package="tournoyons_nim", build=tictactoe_board.build)
    assert nim.rules is None and list(nim.engines) == ["random", "perfect"]
    assert nim.botsarena is None
    with pytest.raises(TypeError, match="give build="):
        SetInterface(name="Pile", package="tournoyons_nim")
    with pytest.raises(TypeError, match="package="):
        SetInterface(name="Nothing")


def test_none_given_wins_over_the_convention() -> None:
    """A Set borrowing TicTacToe's ``build`` says it has no rules, engines or bots: it gets
    none of TicTacToe's, and the Arbitre cannot play it."""
    variant = SetInterface(
        name="Variant", build=tictactoe_board.build, rules=None, engines={}, botsarena=None
    )
    assert variant.package == "tournoyons_gui.interfaces.tictactoe"
    assert variant.rules is None and variant.arbitre is None
    assert dict(variant.engines) == {} and variant.botsarena is None
    borrowed = SetInterface(name="Variant", build=tictactoe_board.build)
    assert borrowed.arbitre is not None and list(borrowed.engines) == ["random", "perfect"]


def test_a_set_in_a_plain_module_finds_nothing_by_convention() -> None:
    """A Set whose package is a single module (no ``__path__``) is made as before: nothing
    is looked up beside it."""
    single = SetInterface(
        name="Single", build=tictactoe_board.build, package="string", scripts=(), styles=()
    )
    assert single.rules is None and dict(single.engines) == {} and single.botsarena is None


def test_seafight_loads_its_prepare_and_its_firing_scripts() -> None:
    """Seafight's Prepare is a script of its own, found like the other."""
    seafight = next(s for s in SETS if s.key == "seafight")
    assert seafight.scripts == ("seafight-prepare.js", "seafight.js")
    assert seafight.styles == ("seafight.css",)


def test_values_given_win() -> None:
    """An explicit package, template, scripts or styles is kept, ``()`` meaning none."""
    given = SetInterface(
        name="Other",
        build=tictactoe_board.build,
        package="tournoyons_nim",
        template="nim/page.html",
        scripts=(),
        styles=("x.css",),
    )
    assert (given.package, given.template) == ("tournoyons_nim", "nim/page.html")
    assert (given.scripts, given.styles) == ((), ("x.css",))
    found = SetInterface(name="Other", build=tictactoe_board.build)
    assert found.package == "tournoyons_gui.interfaces.tictactoe"
    assert found.template == "other/page.html"
    assert found.scripts == ("tictactoe.js",)


def test_a_build_without_a_module_needs_a_package() -> None:
    """A ``build`` whose package cannot be told is refused unless ``package`` is given."""

    def build(ctx: Context, extra: int) -> View:
        return View()

    bound = functools.partial(build, extra=1)
    with pytest.raises(TypeError, match="package="):
        SetInterface(name="Partial", build=bound)
    assert SetInterface(
        name="Partial", build=bound, package="tournoyons_gui.interfaces.pente"
    ).styles == ("pente.css",)


def test_a_set_is_frozen_and_hashed_by_identity() -> None:
    """Frozen, and equal only to itself: it is a fragment-cache key."""
    one = SetInterface(name="Same", build=tictactoe_board.build)
    two = SetInterface(name="Same", build=tictactoe_board.build)
    assert one != two
    assert len({one, two}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.template = "x"  # type: ignore[misc]


@pytest.mark.parametrize("interface", SETS, ids=lambda s: s.key)
def test_the_page_loads_the_sets_assets_in_order(
    client: TestClient, interface: SetInterface
) -> None:
    """The sample page links every style, then the runtime, then every script, deferred."""
    query = urllib.parse.urlencode({"Set": interface.name, **interface.sample})
    page = client.get(f"/?{query}").text
    styles = re.findall(r'<link rel="stylesheet" href="/static/\w+/([\w/.-]+)">', page)
    scripts = re.findall(r'<script src="/static/\w+/([\w/.-]+)"( defer)?></script>', page)
    assert styles == ["shared/interface.css", *(f"{interface.key}/{n}" for n in interface.styles)]
    assert scripts == [
        ("shared/tournoyons.js", ""),
        *((f"{interface.key}/{n}", " defer") for n in interface.scripts),
    ]
