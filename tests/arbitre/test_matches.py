"""``play``'s matches in the Arbitre's pages and their JSON twins, and two runs compared
(``tournoyons-gui diff`` and the diff's pages).

Real ``play`` runs, recorded in one database and served by a real ``tournoyons-gui serve``
on it: an SPRT (TicTacToe, ``perfect`` against ``random``), a match an engine of the
tests' own loses by fault, a Tarot match, and two versions of one engine
(:mod:`tests.arbitre.faulty_engine`'s ``/good`` and ``/differ/3``, which answers the last
free cell instead of the first at ply 3) each against ``builtin:random`` from one seed,
the first version twice. Runs that other seeds, openings or Sets make are in databases of
their own, played meanwhile.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.arbitre.conftest import server_process
from tests.arbitre.play_runs import command, faulty_engine, finish, start, words

#: The runs recorded in the served database, in order: name -> play's arguments (the
#: faulty engine's base URL as BASE).
SERVED = {
    "sprt": "--set TicTacToe --engine builtin:perfect --engine builtin:random --sprt 0,50 --seed 1",
    "faults": "--set TicTacToe --engine v=BASE/illegal/3 --engine builtin:random --games 4 "
    "--seed 3 --timeout 4",
    "tarot": "--set Tarot --engine builtin:random --engine builtin:random --engine builtin:random "
    "--engine builtin:random --deals 1 --games 4 --seed 2",
    "v1": "--set TicTacToe --engine v1=BASE/good --engine builtin:random --games 6 --seed 9",
    "v2": "--set TicTacToe --engine v2=BASE/differ/3 --engine builtin:random --games 6 --seed 9",
    "v1again": "--set TicTacToe --engine v1=BASE/good --engine builtin:random --games 6 --seed 9",
}
#: Runs the diff refuses to compare with v1, each in a database of its own.
OTHERS = {
    "seed10": "--set TicTacToe --engine v1=BASE/good --engine builtin:random --games 6 --seed 10",
    "openings": "--set TicTacToe --engine v1=BASE/good --engine builtin:random --games 6 "
    "--seed 9 --openings builtin",
    "connectfour": "--set ConnectFour --engine builtin:random --engine builtin:random --games 2 "
    "--seed 9",
    # The same version against another opponent: what diff compares, and says so.
    "opponent": "--set TicTacToe --engine v1=BASE/good --engine builtin:perfect --games 6 --seed 9",
}


@dataclass
class Recorded:
    """The runs: their ``--json`` documents by name (``path`` gives each file), and a
    client of the server of the database holding :data:`SERVED`."""

    folder: Path
    documents: dict[str, dict[str, Any]]
    http: httpx.Client

    def path(self, name: str) -> Path:
        """Return the ``--json`` file of run ``name``."""
        return self.folder / f"{name}.json"

    def id(self, name: str) -> str:
        """Return run ``name``'s match id."""
        return str(self.documents[name]["match"])


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    folder = tmp_path_factory.mktemp("matches")
    database = folder / "m.sqlite3"

    def args(name: str, line: str, base: str) -> list[str]:
        return [*words(line.replace("BASE", base)), "--json", str(folder / f"{name}.json")]

    with faulty_engine() as (base, _):
        others = [
            start(*args(name, line, base), database=folder / f"{name}.sqlite3")
            for name, line in OTHERS.items()
        ]
        for name, line in SERVED.items():  # one database: one run after the other
            status, out = finish(start(*args(name, line, base), database=database))
            assert status == 0, out
        for process in others:
            status, out = finish(process)
            assert status == 0, out
    documents = {
        name: json.loads((folder / f"{name}.json").read_text()) for name in (*SERVED, *OTHERS)
    }
    with server_process(database) as http:
        yield Recorded(folder, documents, http)


def page(recorded: Recorded, path: str, status: int = 200) -> str:
    """Return the page at ``path``, asserting its status."""
    answer = recorded.http.get(path)
    assert answer.status_code == status, (path, answer.status_code, answer.text[:500])
    return answer.text


def data(text: str, name: str) -> list[str]:
    """Return the text of every element marked ``data-<name>`` (no attribute value)."""
    return [html.unescape(t) for t in re.findall(rf"data-{name}>(.*?)<", text)]


def attribute(text: str, name: str) -> list[str]:
    """Return the values of every ``data-<name>="..."`` attribute, in order."""
    return [html.unescape(v) for v in re.findall(rf'data-{name}="([^"]*)"', text)]


def svg_element(text: str, tag: str, marker: str) -> dict[str, str]:
    """Return the attributes of the first ``<tag ... marker ...>`` element of ``text``."""
    found = re.search(rf"<{tag}\b([^>]*{re.escape(marker)}[^>]*)>", text)
    assert found is not None, (tag, marker)
    return dict(re.findall(r'([\w-]+)="([^"]*)"', found.group(1)))


# --- the match's page -----------------------------------------------------------------


@pytest.mark.slow
def test_the_page_shows_the_summary_and_draws_the_sprt_between_its_bounds(
    recorded: Recorded,
) -> None:
    document = recorded.documents["sprt"]
    text = page(recorded, f"/matches/{recorded.id('sprt')}")
    perfect, random = document["entrants"]
    assert data(text, "name") == ["perfect", "random"]
    assert data(text, "wins") == [str(perfect["wins"]), str(random["wins"])]
    assert data(text, "draws") == [str(perfect["draws"]), str(random["draws"])]
    assert data(text, "losses") == ["0", str(random["losses"])]
    assert data(text, "score")[0] == f"{perfect['score'] * 100:.1f} %"
    assert data(text, "elo")[0].startswith("Elo difference (perfect - random): ")
    assert f"LOS {document['los'] * 100:.1f} %" in data(text, "elo")[0]
    # The verdict, said and drawn: the LLR's line from 0 to past the upper bound.
    sprt = document["sprt"]
    assert sprt["verdict"] == "H1" and attribute(text, "verdict") == ["H1"]
    assert "H1 accepted: perfect is stronger than random" in text
    assert data(text, "llr-value") == [f"{sprt['llr']:+.2f}"]
    # Past its upper bound, it says so (not "between its bounds").
    assert sprt["llr"] >= sprt["upper"]
    assert data(text, "llr-words") == [
        f"past its upper bound {sprt['upper']:+.2f}: H1 accepted (its lower bound "
        f"{sprt['lower']:+.2f})"
    ]
    # Each entrant's thinking time per move, as the document has it.
    assert data(text, "think") == [
        "{p50} / {p95} / {max}".format(**e["think_ms"]) for e in document["entrants"]
    ]
    box = [float(v) for v in attribute(text, "box")[0].split()]
    left, top, right, bottom = box
    line = svg_element(text, "polyline", "data-llr")
    points = [tuple(map(float, p.split(","))) for p in line["points"].split()]
    assert len(points) == len(sprt["history"]) + 1  # from (0, 0): no point dropped here
    assert all(left <= x <= right and top <= y <= bottom for x, y in points)
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    upper = svg_element(text, "line", 'data-bound="upper"')
    lower = svg_element(text, "line", 'data-bound="lower"')
    assert (
        float(upper["data-value"]) == sprt["upper"] and float(lower["data-value"]) == sprt["lower"]
    )
    upper_y, lower_y = float(upper["y1"]), float(lower["y1"])
    assert top <= upper_y < points[0][1] < lower_y <= bottom  # LLR 0 between the bounds
    # It ends past the bound, from below it (the games that ended while the verdict was
    # reached count too, in the order they ended: the line may cross a pair early).
    assert points[-1][1] <= upper_y < max(y for _, y in points)
    assert float(upper["x1"]) == left and float(upper["x2"]) == right
    # The gauge's needle at the dial's H1 end; the pairs' bars.
    assert attribute(text, "gauge") == ["llr-gauge", "los-gauge"]
    assert attribute(text, "pentanomial") == [",".join(map(str, document["pentanomial"]))]
    bars = re.findall(r'data-bar="(\d)" data-count="(\d+)"', text)
    assert [int(count) for _, count in bars] == document["pentanomial"]
    # Every game, linked, in the order played.
    rows = attribute(text, "game-row")
    assert rows == [g["id"] for g in document["games_list"]][:50]
    assert all(f'href="/games/{game}"' in text for game in rows)
    assert attribute(text, "faulted") == ["0"]
    # And each game's page links back to its match.
    second = page(recorded, f"/games/{rows[1]}")
    assert f'Game 2 of <a href="/matches/{recorded.id("sprt")}">' in second


def test_a_match_lost_by_fault_lists_each_fault_with_its_report(recorded: Recorded) -> None:
    document = recorded.documents["faults"]
    faulted = [g for g in document["games_list"] if g["fault"]]
    assert [(g["fault"], g["first"], g["ply"]) for g in faulted] == [("illegal", 0, 3)] * 2
    text = page(recorded, f"/matches/{recorded.id('faults')}")
    assert data(text, "faults")[0] == "2 illegal" and attribute(text, "faulted") == ["2"]
    assert attribute(text, "failure") == [g["id"] for g in faulted]
    assert attribute(text, "fault") == ["illegal", "illegal"]
    assert "illegal Value &#39;1&#39;: cell 1 is taken" in text
    requests = data(text, "request")
    assert len(requests) == 2 and all("Game=<seat 1>" in r for r in requests)
    curls = data(text, "curl")
    assert len(curls) == 2 and all(c.startswith("curl -sS --max-time 4 ") for c in curls)
    assert all("Referee=" in c and "Game=TEST" in c for c in curls)
    # Its faults' pages, one game a page.
    first = page(recorded, f"/matches/{recorded.id('faults')}/faults?limit=1")
    assert attribute(first, "failure") == [faulted[0]["id"]]
    after = re.search(r'href="([^"]+)" rel="next"', first)
    assert after is not None
    second = page(recorded, html.unescape(after.group(1)))
    assert attribute(second, "failure") == [faulted[1]["id"]]
    assert 'rel="next"' not in second


def test_a_tarot_match_ranks_its_entrants_by_their_totals(recorded: Recorded) -> None:
    document = recorded.documents["tarot"]
    text = page(recorded, f"/matches/{recorded.id('tarot')}")
    ranked = sorted(document["entrants"], key=lambda e: e["rank"])
    assert data(text, "name") == [e["name"] for e in ranked]
    assert data(text, "rank") == [str(e["rank"]) for e in ranked]
    assert data(text, "total") == [str(e["total"]) for e in ranked]
    assert data(text, "mean-rank") == [f"{e['mean_rank']:.2f}" for e in ranked]
    assert "Elo difference" not in text and "data-llr-chart" not in text
    assert "data-pentanomial" not in text


def test_the_matches_are_listed_newest_first_a_page_at_a_time(recorded: Recorded) -> None:
    ids = [recorded.id(name) for name in reversed(SERVED)]
    assert attribute(page(recorded, "/matches"), "match-row") == ids
    listed = recorded.http.get("/api/matches", params={"limit": 4})
    assert [m["id"] for m in listed.json()["rows"]] == ids[:4]
    rest = recorded.http.get(listed.headers["link"].split(">")[0].lstrip("<"))
    assert [m["id"] for m in rest.json()["rows"]] == ids[4:] and "link" not in rest.headers
    row = next(
        m for m in listed.json()["rows"] + rest.json()["rows"] if m["id"] == recorded.id("sprt")
    )
    sprt = recorded.documents["sprt"]
    assert (row["set"], row["status"], row["verdict"], row["entrants"]) == (
        "TicTacToe",
        "over",
        "H1",
        ["perfect", "random"],
    )
    assert row["over"] == sprt["games"] and row["sprt"]["elo1"] == 50


def test_the_json_twin_is_plays_document_its_games_a_page_at_a_time(recorded: Recorded) -> None:
    for name in ("sprt", "faults", "tarot"):
        document = recorded.documents[name]
        listed: list[dict[str, Any]] = []
        path: str | None = f"/matches/{recorded.id(name)}.json?limit=4"
        while path is not None:
            answer = recorded.http.get(path)
            assert answer.status_code == 200, answer.text
            twin = answer.json()
            assert {k: v for k, v in twin.items() if k not in ("games_list", "games_next")} == {
                k: v for k, v in document.items() if k != "games_list"
            }
            assert len(twin["games_list"]) <= 4
            listed += twin["games_list"]
            path = twin["games_next"]
            assert ("link" in answer.headers) == (path is not None)
        assert listed == document["games_list"]
    api = recorded.http.get(f"/api/matches/{recorded.id('v1')}").json()
    assert api["games_list"] == recorded.documents["v1"]["games_list"]


def test_no_such_match_or_page_is_refused_with_the_reason(recorded: Recorded) -> None:
    assert "data-missing" in page(recorded, "/matches/NOSUCHMATCH", 404)
    answer = recorded.http.get("/matches/NOSUCHMATCH.json")
    assert answer.status_code == 404 and answer.json() == {"error": "no such match"}
    sprt, faults = recorded.id("sprt"), recorded.id("faults")
    forged = recorded.http.get(f"/matches/{sprt}.json", params={"after": "eyJ4Ijo.AAAA"})
    assert forged.status_code == 400 and "not given by this Arbitre" in forged.json()["error"]
    other = recorded.http.get(f"/matches/{faults}.json?limit=1").json()["games_next"]
    cursor = parse_qs(urlsplit(other).query)["after"][0]
    moved = recorded.http.get(f"/matches/{sprt}.json", params={"after": cursor})
    assert moved.status_code == 400 and "another list" in moved.json()["error"]
    assert "data-page-error" in page(recorded, f"/matches/{sprt}?after=forged", 400)
    blank = recorded.http.get(f"/matches/{sprt}.json?limit=0")
    assert blank.status_code == 400
    assert blank.json() == {"error": "limit is a whole number from 1 to 100"}


# --- tournoyons-gui diff ----------------------------------------------------------------


def diff(recorded: Recorded, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``tournoyons-gui diff`` on runs by name (other arguments as they are)."""
    return command("diff", *(str(recorded.path(a)) if a in recorded.documents else a for a in args))


def free_cells(tray: str) -> list[str]:
    return [str(index + 1) for index, code in enumerate(tray) if code == "0"]


def test_diff_finds_the_ply_where_the_second_version_answers_otherwise(
    recorded: Recorded,
) -> None:
    done = diff(recorded, "--json", "v1", "v2")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    v1, v2 = recorded.documents["v1"], recorded.documents["v2"]
    first = [g for g in v1["games_list"] if g["first"] == 0]
    # v2 plays first in three games: each parts from v1's at its second move, ply 3; in
    # the three it plays second, it never has ply 3 to play, and nothing differs.
    assert found["same"] == 3 and found["unfinished"] == found["only_a"] == found["only_b"] == 0
    assert [(d["pair"], d["first"], d["ply"]) for d in found["differ"]] == [
        (g["pair"], 0, 3) for g in first
    ]
    by_id = {g["id"]: g for g in v2["games_list"]}
    for difference, game in zip(found["differ"], first, strict=True):
        other = by_id[difference["game_b"]]
        assert difference["game_a"] == game["id"] and (other["pair"], other["first"]) == (
            game["pair"],
            0,
        )
        assert difference["moves"] == game["moves"][:2] == other["moves"][:2]
        free = free_cells(difference["tray"])
        assert (difference["a"], difference["b"]) == (free[0], free[-1])
        assert (difference["a"], difference["b"]) == (game["moves"][2], other["moves"][2])
        assert (difference["result_a"], difference["result_b"]) == (game["result"], other["result"])
        rows = difference["position"].splitlines()
        assert "".join(rows).replace(" ", "") == difference["tray"].translate(
            str.maketrans("012", ".XO")
        )
        assert difference["to_move_a"] == ["v1"] and difference["to_move_b"] == ["v2"]
        assert difference["link"] == (f"/matches/diff?a={game['id']}&b={other['id']}&ply=3")
    said = diff(recorded, "v1", "v2")
    assert said.returncode == 0
    assert "6 games compared, 3 the same move for move, 3 differ." in said.stdout
    assert said.stdout.count(": ply 3\n") == 3
    assert f"  A  {first[0]['id']}  v1 played {first[0]['moves'][2]}  -> " in said.stdout
    # Each run's own entrant is to move there, and the one that differs is named.
    assert said.stdout.count("  before ply 3, v1 to move in A, v2 in B:\n") == 3, said.stdout
    assert "Entrant 1 differs: v1 (" in said.stdout and "Warning" not in said.stdout
    assert found["entrants_differ"][0]["entrant"] == 0
    assert found["differ"][0]["link"] in said.stdout and "serve --database" in said.stdout
    assert diff(recorded, "--exit-code", "v1", "v2").returncode == 1


def test_diff_says_when_the_runs_compare_opponents_not_versions(recorded: Recorded) -> None:
    said = diff(recorded, "v1", "opponent")
    assert said.returncode == 0, said.stderr
    assert "Entrant 2 differs: random in A, perfect in B." in said.stdout
    assert "Warning: the first entrant, v1 (" in said.stdout
    assert "the runs compare opponents, not two versions of one engine" in said.stdout
    found = json.loads(diff(recorded, "--json", "v1", "opponent").stdout)
    assert found["entrants_differ"] == [{"entrant": 1, "a": "random", "b": "perfect"}]


def test_two_runs_of_one_version_are_the_same_move_for_move(recorded: Recorded) -> None:
    done = diff(recorded, "--json", "--exit-code", "v1", "v1again")
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    assert (found["same"], found["differ"]) == (6, [])
    assert "6 the same move for move, 0 differ" in diff(recorded, "v1", "v1again").stdout


def test_diff_refuses_runs_that_did_not_play_the_same_games(recorded: Recorded) -> None:
    garbage = recorded.folder / "garbage.json"
    garbage.write_text("{nope")
    listed = recorded.folder / "list.json"
    listed.write_text("[1, 2]")
    cases = {
        ("v1", "seed10"): "the runs have other seeds: 9 and 10",
        ("v1", "openings"): "the runs have other openings: pair 0 starts from the start in A",
        ("v1", "connectfour"): "the runs are of other Sets: TicTacToe and ConnectFour",
        ("v1", "tarot"): "the runs are of other Sets: TicTacToe and Tarot",
        ("v1", str(garbage)): "is not JSON",
        ("v1", str(listed)): "is not a match document of play --json",
        ("v1", str(recorded.folder / "none.json")): "cannot be read",
    }
    for (a, b), reason in cases.items():
        done = diff(recorded, a, b)
        assert done.returncode == 2, (a, b, done.stdout)
        assert done.stdout == "" and reason in done.stderr, (a, b, done.stderr)
        assert done.stderr.startswith("tournoyons-gui diff: refused: ")


# --- the diff's pages -----------------------------------------------------------------


def test_the_match_page_links_the_runs_it_can_be_compared_with(recorded: Recorded) -> None:
    text = page(recorded, f"/matches/{recorded.id('v1')}")
    assert sorted(attribute(text, "run")) == sorted([recorded.id("v2"), recorded.id("v1again")])
    listed = page(recorded, f"/matches/{recorded.id('v1')}/diff?with={recorded.id('v2')}")
    assert attribute(listed, "diff-counts") == ["3 3 0"]
    found = json.loads(diff(recorded, "--json", "v1", "v2").stdout)["differ"]
    assert attribute(listed, "difference") == [f"{d['pair']}-0" for d in found]
    assert attribute(listed, "ply") == ["3"] * 3
    links = re.findall(r'<a href="([^"]+)" data-side-by-side>', listed)
    assert [html.unescape(link) for link in links] == [d["link"] for d in found]
    same = page(recorded, f"/matches/{recorded.id('v1')}/diff?with={recorded.id('v1again')}")
    assert attribute(same, "diff-counts") == ["6 0 0"]
    refused = page(recorded, f"/matches/{recorded.id('v1')}/diff?with={recorded.id('tarot')}", 400)
    assert "the runs are of other Sets: TicTacToe and Tarot" in refused
    assert "data-diff-error" in page(recorded, f"/matches/{recorded.id('v1')}/diff?with=NOPE", 400)


def test_the_side_by_side_page_shows_each_game_at_the_ply_where_they_part(
    recorded: Recorded,
) -> None:
    found = json.loads(diff(recorded, "--json", "v1", "v2").stdout)["differ"][0]
    a, b = found["game_a"], found["game_b"]

    def trays(text: str) -> list[str]:
        sources = re.findall(r'<iframe [^>]*src="([^"]+)"', text)
        return [parse_qs(urlsplit(html.unescape(s)).query)["Tray"][0] for s in sources]

    parted = page(recorded, f"/matches/diff?a={a}&b={b}")  # the ply found by itself
    assert data(parted, "differ-ply") == ["3"] and attribute(parted, "move") == ["3"]
    # The number each frame shows between the names is labelled: the page's Count.
    counts = [
        parse_qs(urlsplit(html.unescape(src)).query)["Count"][0]
        for src in re.findall(r'<iframe [^>]*src="([^"]+)"', parted)
    ]
    assert [label.split(",")[1].strip() for label in data(parted, "count-label")] == counts
    assert "is the page's Count" in parted and "Plies count the moves played" in parted
    after = trays(parted)
    for tray, value in zip(after, (found["a"], found["b"]), strict=True):
        assert tray[int(value) - 1] == "1"  # each game's own answer, drawn
        assert [c for c in range(9) if tray[c] != found["tray"][c]] == [int(value) - 1]
    assert trays(page(recorded, f"/matches/diff?a={a}&b={b}&ply=3&move=2")) == [found["tray"]] * 2
    rows = re.findall(r'<tr data-ply="(\d+)"( class="wrong")?', parted)
    assert [ply for ply, wrong in rows if wrong] == ["3"]
    other = page(
        recorded, f"/matches/diff?a={a}&b={recorded.documents['tarot']['games_list'][0]['id']}", 400
    )
    assert "the games are of other Sets: TicTacToe and Tarot" in other
    assert "data-missing" in page(recorded, f"/matches/diff?a={a}&b=NOSUCHGAME", 404)
