"""A tournament at tables of four over real HTTP: 6 entrants over 3 rounds of
Tarot, every round dealing them to 2 tables filled by built-in engines named as such; the
standings (match points, total score) recomputed from the games' own records; the
exports; the two-seat formats refused for Tarot and tables for a two-seat Set."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import pytest

from tests.arbitre.conftest import Served, builtin_engines, create_tournament, wait_tournament
from tournoyons_gui.arbitre.tables import rank_points


@pytest.mark.slow
def test_a_tables_tournament_of_six_over_three_rounds_completes(served: Served) -> None:
    entrants = builtin_engines("strong", "random", "strong", "random", "strong", "random")
    tournament_id = create_tournament(
        served.http,
        "Tarot",
        entrants,
        format="tables",
        rounds=3,
        games=1,
        concurrency=6,
        options={"deals": 1},
    )
    summary = wait_tournament(served.http, tournament_id, within=300)
    assert summary["format"] == "tables" and summary["rounds"] == 3
    assert summary["progress"] == {"planned": 6, "over": 6, "playing": 0}
    names = [e["name"] for e in summary["entrants"]]
    points: defaultdict[int, float] = defaultdict(float)
    scores: defaultdict[int, int] = defaultdict(int)
    played: defaultdict[int, int] = defaultdict(int)
    for round_ in (1, 2, 3):
        seated = [
            s["entrant"] for g in summary["games"] if g["round"] == round_ for s in g["seats"]
        ]
        assert sorted(e for e in seated if e is not None) == list(range(6))
        assert seated.count(None) == 2  # one filler at each table
    for game in summary["games"]:
        record = served.http.get(f"/games/{game['id']}.json").json()
        assert record["status"] == "over" and record["result"] == "ranked", record["reason"]
        assert len(record["seats"]) == 4
        ranks = [s["rank"] for s in record["seats"]]
        earned = rank_points(ranks)
        for seat, meta in zip(record["seats"], game["seats"], strict=True):
            if meta["entrant"] is None:
                assert seat["name"] == "random (filler)" and seat["builtin"] == "random"
                continue
            assert seat["name"] == names[meta["entrant"]]
            points[meta["entrant"]] += earned[seat["index"]]
            scores[meta["entrant"]] += seat["score"]
            played[meta["entrant"]] += 1
    for row in summary["standings"]:
        assert row["points"] == points[row["entrant"]], (row, dict(points))
        assert row["score"] == scores[row["entrant"]] and row["played"] == played[row["entrant"]]
        assert row["played"] == 3
    keys = [(-r["points"], -r["score"]) for r in summary["standings"]]
    assert keys == sorted(keys) and summary["standings"][0]["rank"] == 1
    # The table of meetings: 2 others a game, 3 games each: 6 meetings each.
    for i, row in enumerate(summary["cross_table"]):
        assert row[i] == ""
        assert sum(sum(map(int, cell.split("-"))) for cell in row if cell) == 6
    # Exports: the CSV of the standings at tables, the page with its table of meetings.
    text = served.http.get(f"/tournaments/{tournament_id}/standings.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == [s["name"] for s in summary["standings"]]
    assert [float(r["points"]) for r in rows] == [s["points"] for s in summary["standings"]]
    page = served.http.get(f"/tournaments/{tournament_id}").text
    assert "Table of meetings" in page and "Match points" in page and "random (filler)" in page


def test_formats_and_seats_must_agree(served: Served) -> None:
    for set_name, format, seats, refused in (
        ("Tarot", "round-robin", 4, "format tables"),
        ("Tarot", "swiss", 4, "format tables"),
        ("TicTacToe", "tables", 4, "round-robin or swiss"),
        ("Tarot", "tables", 3, "4 entrants or more"),
    ):
        answer = served.http.post(
            "/api/tournaments",
            json={
                "set": set_name,
                "entrants": builtin_engines(*["random"] * seats),
                "format": format,
            },
        )
        assert answer.status_code == 400 and refused in answer.text, answer.text
