"""The engines' and tournaments' HTML pages over real HTTP (``arbitre/web/tournament_pages.py``):
forms posted as a browser without JavaScript posts them (urlencoded), registrations made,
edited, retired and brought back, bad input refused with 400 and nothing stored, a small
tournament of built-in Nim engines started from the form and followed to its end, the page's
standings as ``/tournaments/<id>.json`` has them, and user text shown escaped everywhere."""

from __future__ import annotations

import re
import urllib.parse
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest

from tests.arbitre.conftest import Served, wait_tournament

VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})
MARKERS = ("data-standings", "data-cross", "data-playing", "data-finished", "data-engines")
XSS = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


class Scan(HTMLParser):
    """What a page shows: the cells of each table row under a marked element, the links
    (with the markers around them), and the attributes of elements by a data attribute."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.rows: dict[str, list[tuple[dict[str, str], list[str]]]] = {m: [] for m in MARKERS}
        self.links: list[tuple[str, frozenset[str], str]] = []
        self.marked: dict[str, dict[str, str]] = {}
        self.cell: list[str] | None = None
        self.row: tuple[dict[str, str], list[str]] | None = None
        self.link: list[Any] | None = None
        self.feed(html)
        self.close()

    def markers(self) -> frozenset[str]:
        """Return the markers of the open elements."""
        return frozenset(m for _tag, attrs in self.stack for m in MARKERS if m in attrs)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        for name in found:
            if name.startswith("data-") and name not in self.marked:
                self.marked[name] = {**found, "tag": tag}
        if tag in VOID:
            return
        self.stack.append((tag, found))
        if tag == "tr":
            self.row = (found, [])
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        elif tag == "a":
            self.link = [found.get("href", ""), self.markers(), []]

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, _attrs = self.stack.pop()
            if open_tag == tag:
                break
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row[1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            for marker in self.markers():
                self.rows[marker].append(self.row)
            self.row = None
        elif tag == "a" and self.link is not None:
            href, markers, text = self.link
            self.links.append((href, markers, " ".join("".join(text).split())))
            self.link = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        if self.link is not None:
            self.link[2].append(data)


def post(served: Served, path: str, form: list[tuple[str, str]]) -> httpx.Response:
    """Post ``form`` urlencoded, as a browser does; the redirect is not followed."""
    return served.http.post(
        path,
        content=urllib.parse.urlencode(form).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )


def register(served: Served, elsewhere: str, name: str, sets: tuple[str, ...] = ("Nim",)) -> str:
    """Register another Arbitre's (``elsewhere``'s) built-in perfect Nim engine under
    ``name`` through the form; return its id (the edit token is in :data:`TOKENS`)."""
    answer = post(
        served,
        "/engines",
        [("name", name), ("url", f"{elsewhere}/engines/nim/perfect")] + [("sets", s) for s in sets],
    )
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    found = re.fullmatch(r"/engines/([A-Za-z0-9_-]+)\?token=([A-Z2-7]{26})", location)
    assert found, location
    TOKENS[found.group(1)] = found.group(2)
    return found.group(1)


#: The edit token of each engine registered by :func:`register`.
TOKENS: dict[str, str] = {}


def engine_json(served: Served, engine_id: str) -> dict[str, Any]:
    """Return the engine's record from the API."""
    answer = served.http.get(f"/api/engines/{engine_id}")
    assert answer.status_code == 200
    return dict(answer.json())


def start(served: Served, form: list[tuple[str, str]]) -> str:
    """Start a tournament through the form; return its id."""
    answer = post(served, "/tournaments", form)
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith("/tournaments/"), location
    return location.rsplit("/", 1)[1]


NIM_FORM = [
    ("set", "Nim"),
    ("format", "round-robin"),
    ("games", "1"),
    ("rounds", "0"),
    ("concurrency", "2"),
    ("timeout", "10"),
    ("level", "1"),
]


def entrant_rows(*rows: tuple[str, str, str]) -> list[tuple[str, str]]:
    """Return eight entrant rows of the form: ``rows`` (kind, engine, name) then empty ones,
    every field of a row sent as a browser sends them (the other kinds' fields empty)."""
    form: list[tuple[str, str]] = []
    for number in range(1, 9):
        kind, engine, name = rows[number - 1] if number <= len(rows) else ("builtin", "", "")
        form += [
            (f"entrant{number}_kind", kind),
            (f"entrant{number}_registered", engine if kind == "registered" else ""),
            (f"entrant{number}_url", engine if kind == "engine" else ""),
            (f"entrant{number}_builtin", engine if kind == "builtin" else ""),
            (f"entrant{number}_name", name),
            (f"entrant{number}_token", TOKENS.get(engine, "") if kind == "registered" else ""),
        ]
    return form


def test_the_pages_are_linked_and_unknown_ids_are_404(served: Served) -> None:
    for path in ("/engines", "/tournaments", "/arbitre", "/arbitre/new", "/ladder"):
        answer = served.http.get(path)
        assert answer.status_code == 200, path
        assert 'href="/engines"' in answer.text and 'href="/tournaments"' in answer.text
        assert answer.headers["cache-control"] == "no-store"
    for path in ("/engines/nosuchid", "/tournaments/nosuchid"):
        answer = served.http.get(path)
        assert answer.status_code == 404
        assert "data-missing" in answer.text
    assert post(served, "/engines/nosuchid", [("action", "retire")]).status_code == 404
    # The JSON and the exports are still the API's, before the page's one-segment route.
    assert served.http.get("/tournaments/nosuchid.json").status_code == 404
    assert served.http.get("/tournaments/nosuchid.json").json() == {"error": "no such tournament"}
    # The built-in engines' two-segment route is untouched.
    assert served.http.get("/engines/nim/perfect").text == "OK"


def test_an_engine_is_registered_edited_retired_and_brought_back(
    served: Served, elsewhere: str
) -> None:
    page = Scan(served.http.get("/engines").text)
    assert "data-engine-form" in page.marked
    form = served.http.get("/engines").text
    assert 'name="sets" value="Nim"' in form and 'name="poker_level2"' in form

    engine_id = register(served, elsewhere, "Form engine")
    record = engine_json(served, engine_id)
    assert record["name"] == "Form engine" and record["sets"] == ["Nim"]
    assert record["poker_level2"] is False and record["retired"] is False
    listed = Scan(served.http.get("/engines").text)
    rows = {cells[0]: cells for attrs, cells in listed.rows["data-engines"] if cells}
    assert rows["Form engine"][1:4] == ["Nim", "no", "active"]
    assert (f"/engines/{engine_id}", frozenset({"data-engines"}), "Form engine") in listed.links

    shown = served.http.get(f"/engines/{engine_id}", params={"token": TOKENS[engine_id]})
    assert shown.status_code == 200
    assert "No game finished yet." in shown.text and 'value="Form engine"' in shown.text
    assert f'value="{TOKENS[engine_id]}" data-token' in shown.text
    # Without its edit token, nobody changes or retires it.
    for token in ("", "A" * 26):
        refused = post(served, f"/engines/{engine_id}", [("action", "retire"), ("token", token)])
        assert refused.status_code == 403 and "wrong edit token" in refused.text
        api = served.http.post(f"/api/engines/{engine_id}", json={"retired": True, "token": token})
        assert api.status_code == 403
    assert 'value=""' in served.http.get(f"/engines/{engine_id}").text  # not shown to others
    assert engine_json(served, engine_id)["retired"] is False

    edited = post(
        served,
        f"/engines/{engine_id}",
        [
            ("token", TOKENS[engine_id]),
            ("action", "edit"),
            ("name", "Form engine renamed"),
            ("url", f"{elsewhere}/engines/nim/random"),
            ("sets", "Nim"),
            ("sets", "TicTacToe"),
            ("poker_level2", "on"),
        ],
    )
    assert edited.status_code == 303
    assert edited.headers["location"] == f"/engines/{engine_id}?token={TOKENS[engine_id]}"
    record = engine_json(served, engine_id)
    assert record["name"] == "Form engine renamed"
    assert record["url"].endswith("/engines/nim/random")
    assert record["sets"] == ["Nim", "TicTacToe"] and record["poker_level2"] is True

    # Retired: marked so, and no longer offered to new tournaments.
    with_token = ("token", TOKENS[engine_id])
    assert (
        post(served, f"/engines/{engine_id}", [("action", "retire"), with_token]).status_code == 303
    )
    assert engine_json(served, engine_id)["retired"] is True
    page_text = served.http.get(f"/engines/{engine_id}").text
    assert "data-unretire" in page_text and "(retired)" in page_text
    assert f'value="{engine_id}"' not in served.http.get("/tournaments").text
    assert (
        post(served, f"/engines/{engine_id}", [("action", "unretire"), with_token]).status_code
        == 303
    )
    assert engine_json(served, engine_id)["retired"] is False
    assert f'value="{engine_id}"' in served.http.get("/tournaments").text


def test_bad_input_is_refused_with_400_and_nothing_stored(served: Served, elsewhere: str) -> None:
    before = served.http.get("/api/engines").json()["rows"]
    for form, error in (
        ([("name", "No set"), ("url", "http://127.0.0.1:9/e")], "at least one Set"),
        ([("name", "Bad URL"), ("url", "ftp://example.org/e"), ("sets", "Nim")], "http"),
        ([("name", ""), ("url", "http://127.0.0.1:9/e"), ("sets", "Nim")], "1-60"),
        ([("name", "Bad Set"), ("url", "http://127.0.0.1:9/e"), ("sets", "Nope")], "Set"),
    ):
        answer = post(served, "/engines", form)
        assert answer.status_code == 400, form
        page = Scan(answer.text)
        assert "data-form-error" in page.marked and error in answer.text
        # The form comes back as it was filled.
        assert f'value="{dict(form)["name"]}"' in answer.text
    assert served.http.get("/api/engines").json()["rows"] == before

    taken = register(served, elsewhere, "Taken name")
    answer = post(
        served,
        "/engines",
        [("name", "Taken name"), ("url", "http://127.0.0.1:9/e"), ("sets", "Nim")],
    )
    assert answer.status_code == 400 and "already registered" in answer.text
    answer = post(
        served,
        f"/engines/{taken}",
        [("action", "edit"), ("name", "Taken name"), ("url", "http://127.0.0.1:9/e")],
    )
    assert answer.status_code == 400 and "at least one Set" in answer.text
    assert 'value="http://127.0.0.1:9/e"' in answer.text  # refilled with what was sent
    assert engine_json(served, taken)["url"].endswith("/engines/nim/perfect")
    assert post(served, f"/engines/{taken}", [("action", "explode")]).status_code == 400

    tournaments = served.http.get("/api/tournaments").json()["rows"]
    for form, error in (
        (NIM_FORM + entrant_rows(("builtin", "random", "")), "2 to 64 entrants"),
        (
            [(k, "x" if k == "games" else v) for k, v in NIM_FORM]
            + entrant_rows(("builtin", "random", ""), ("builtin", "perfect", "")),
            "whole number",
        ),
        (
            [(k, "Nope" if k == "set" else v) for k, v in NIM_FORM]
            + entrant_rows(("builtin", "random", ""), ("builtin", "perfect", "")),
            "unknown Set",
        ),
        (
            NIM_FORM + entrant_rows(("builtin", "random", ""), ("builtin", "", "Named only")),
            "choose its engine",
        ),
        (
            NIM_FORM + entrant_rows(("builtin", "random", ""), ("registered", "nosuchid", "")),
            "no registered engine",
        ),
    ):
        answer = post(served, "/tournaments", form)
        assert answer.status_code == 400, (form, answer.text[:300])
        assert error in answer.text, error
        assert "data-form-error" in Scan(answer.text).marked
    answer = post(
        served,
        "/tournaments",
        [(k, "Nope" if k == "set" else v) for k, v in NIM_FORM]
        + entrant_rows(("builtin", "random", "Kept name")),
    )
    assert 'value="Kept name"' in answer.text  # refilled
    # A row's registered engine comes back chosen in that row, and only there; every row
    # still offers it.
    answer = post(
        served,
        "/tournaments",
        [(k, "x" if k == "games" else v) for k, v in NIM_FORM]
        + entrant_rows(("builtin", "random", ""), ("registered", taken, "")),
    )
    assert answer.status_code == 400
    rows = answer.text.split('data-entrant-row="')[1:]
    offered = f'<option value="{taken}" data-sets="Nim"'
    assert [f"{offered} selected>" in row for row in rows] == [False, True] + [False] * 6
    assert all(row.count(offered) == 1 for row in rows)
    assert served.http.get("/api/tournaments").json()["rows"] == tournaments


def test_a_tournament_started_from_the_form_is_followed_to_its_end(
    served: Served, elsewhere: str
) -> None:
    engine_id = register(served, elsewhere, "Nim registered")
    tournament_id = start(
        served,
        [
            *NIM_FORM,
            ("name", "Page cup"),
            *entrant_rows(
                ("builtin", "random", ""),
                ("builtin", "perfect", "Perfect one"),
                ("registered", engine_id, ""),
            ),
        ],
    )
    first = served.http.get(f"/tournaments/{tournament_id}")
    assert first.status_code == 200
    page = Scan(first.text)
    assert page.marked["data-progress"]["tag"] == "progress"
    assert page.marked["data-progress"]["max"] == "3"
    assert "data-cross" in page.marked and "data-playing" in page.marked
    assert 'id="tournament-config"' in first.text and "tournament.js" in first.text
    if page.marked["data-status"]["data-status"] == "running":
        assert f'href="/tournaments/{tournament_id}"' in first.text  # the Refresh link

    summary = wait_tournament(served.http, tournament_id, within=120)
    answer = served.http.get(f"/tournaments/{tournament_id}")
    page = Scan(answer.text)
    assert page.marked["data-status"]["data-status"] == "over"
    assert "data-refresh" not in page.marked
    assert page.marked["data-progress"]["value"] == "3"
    assert page.marked["data-progress"]["max"] == "3"
    assert "3 of 3 games over, 0 in play." in answer.text

    # The standings as the JSON has them, row by row.
    rows = [
        (attrs["data-entrant"], cells)
        for attrs, cells in page.rows["data-standings"]
        if "data-entrant" in attrs
    ]
    assert len(rows) == 3
    for (entrant, cells), standing in zip(rows, summary["standings"], strict=True):
        assert entrant == str(standing["entrant"])
        columns = ("rank", "name", "played", "wins", "draws", "losses", "errors")
        assert cells[:8] == [*(str(standing[key]) for key in columns), f"{standing['points']:g}"]
        assert cells[10] == f"{standing['mu']:.2f} ± {standing['sigma']:.2f}"
    assert {c[1] for _e, c in rows} == {"random", "Perfect one", "Nim registered"}

    # The cross table: a row per entrant, W-D-L cells as the JSON's.
    cross = [cells for _attrs, cells in page.rows["data-cross"]]
    names = [e["name"] for e in summary["entrants"]]
    assert cross[0] == ["Entrant", *names]
    assert [c[1:] for c in cross[1:]] == summary["cross_table"]

    # Every game is in the finished list, linked to its page, with its result.
    finished = [(href, text) for href, markers, text in page.links if "data-finished" in markers]
    assert sorted(href for href, _ in finished) == sorted(
        f"/games/{g['id']}" for g in summary["games"]
    )
    by_href = {f"/games/{g['id']}": g for g in summary["games"]}
    for href, text in finished:  # "first – second" to the eye, "first against second" heard
        first, second = by_href[href]["first"], by_href[href]["second"]
        assert text == f"{names[first]} –against {names[second]}", text
    said = re.findall(r"<span data-result>([^<]*)</span>", answer.text)
    expected = []
    for game in summary["games"]:
        assert game["status"] == "over" and game["result"] in ("seat1", "seat2", "draw"), game
        seat = game["first"] if game["winner"] == 0 else game["second"]
        expected.append("draw" if game["winner"] is None else f"{names[seat]} wins")
    assert said == expected
    assert not [href for href, markers, _ in page.links if "data-playing" in markers]
    assert served.http.get(finished[0][0]).status_code == 200

    # The exports are linked.
    for path in ("standings.csv", "standings.json", "games.csv", "games.json"):
        assert f'href="/tournaments/{tournament_id}/{path}"' in answer.text
        assert served.http.get(f"/tournaments/{tournament_id}/{path}").status_code == 200
    assert f'href="/tournaments/{tournament_id}.json"' in answer.text

    # The list shows it, over, 3 of 3.
    listed = served.http.get("/tournaments").text
    assert f'href="/tournaments/{tournament_id}">Page cup</a>' in listed
    assert 'value="3" max="3"' in listed

    # The registered engine's page: its games, results, and a rating chart.
    record = served.http.get(f"/engines/{engine_id}").text
    engine = engine_json(served, engine_id)
    assert len(engine["games"]) == 2
    for game_row in engine["games"]:
        assert f'href="/games/{game_row["id"]}"' in record
    assert f'href="/tournaments/{tournament_id}"' in record
    counts = engine["per_set"]["Nim"]
    assert re.search(
        rf"<th scope=\"row\">Nim</th><td data-won>{counts['won']}</td><td data-drawn>"
        rf"{counts['drawn']}</td><td data-lost>{counts['lost']}</td>",
        record,
    )
    assert 'data-rating-chart="Nim"' in record and "<polyline" in record and "<polygon" in record
    assert re.search(r'<svg [^>]*role="img" aria-labelledby="chart1-title chart1-desc"', record)


@pytest.mark.parametrize("where", ["engine", "tournament"])
def test_user_text_is_shown_escaped_on_every_page(
    served: Served, elsewhere: str, where: str
) -> None:
    name = XSS if where == "engine" else XSS + " 2"
    engine_id = register(served, elsewhere, name)
    tournament_id = start(
        served,
        [
            *NIM_FORM,
            ("name", XSS),
            *entrant_rows(("registered", engine_id, ""), ("builtin", "random", XSS)),
        ],
    )
    wait_tournament(served.http, tournament_id, within=120)
    for path in (
        "/engines",
        f"/engines/{engine_id}",
        "/tournaments",
        f"/tournaments/{tournament_id}",
    ):
        text = served.http.get(path).text
        assert XSS not in text, path
        assert ESCAPED in text, path
    refused = post(served, "/engines", [("name", XSS), ("url", "javascript:alert(1)")])
    assert refused.status_code == 400
    assert XSS not in refused.text and ESCAPED in refused.text
