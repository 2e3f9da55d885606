"""The engine protocol's reference (``docs/reference/engine-protocol.md``) against the
rules it describes: every Set the Arbitre plays is named among ``Set``'s values, ``Turn``
from a start position is said as the rules send it, the boards' row order is said for
ConnectFour's bottom-first Tray too; and the match document's reference speaks to a reader
who cannot open the project's issues."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.registry import load_registry

PROTOCOL = (ROOT / "docs" / "reference" / "engine-protocol.md").read_text()


def row(parameter: str) -> str:
    """Return the table row of section 2.1 for ``parameter``."""
    found = re.search(rf"^\| `{parameter}` \|.*$", PROTOCOL, re.M)
    assert found is not None, parameter
    return found.group(0)


def test_every_set_the_arbitre_plays_is_named_among_set_s_values() -> None:
    named = set(re.findall(r"`(\w+)`", row("Set")))
    played = {  # the project's own Sets (a third party's names itself)
        s.arbitre.engine_set
        for s in load_registry()
        if s.arbitre is not None and type(s.arbitre).__module__.startswith("tournoyons_gui.")
    }
    assert played - named == set(), played - named


def test_turn_from_a_start_position_is_said_as_the_rules_send_it() -> None:
    interface = load_registry(only="ConnectFour").get("ConnectFour")
    assert interface is not None and interface.arbitre is not None
    rules = interface.arbitre
    # Three discs on the board, the second player to move: its first request is Turn 2.
    opening = "1210000" + "0" * 35
    first = rules.start(1, opening)  # type: ignore[call-arg]
    assert rules.asked(first.state) == (Player.TWO,)
    assert rules.request(first.state, Player.TWO).params["Turn"] == "2"
    said = row("Turn")
    assert "from a start position" in said.lower() and "2 when the second does" in said
    assert "including the one asked." not in said  # what a start position contradicts


def test_the_boards_row_order_is_said_with_connectfour_s_exception() -> None:
    general = next(p for p in PROTOCOL.split("\n\n") if p.startswith("Coordinates:"))
    assert "top row first" in general and "ConnectFour" in general and "bottom row" in general
    assert "bottom row first" in PROTOCOL.split("### ConnectFour")[1].split("###")[0]


def test_the_match_document_s_reference_names_no_issue() -> None:
    text = (ROOT / "docs" / "reference" / "match-json.md").read_text()
    assert not re.search(r"\bissue \d+", text), re.findall(r".{40}\bissue \d+.{20}", text)
