"""A match's summary, its pairs and seeds, and its failure report, from records made by
hand (no server): what ``play`` prints and ``--json`` writes, and
the store's listing of a match's games in order along an index."""

from __future__ import annotations

import asyncio
import datetime as dt
import shlex
from pathlib import Path

import pytest

from tournoyons_gui.arbitre.faults import curl_command, failure_of, stopped_answering
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.match_summary import Outcome, Tally, summarize
from tournoyons_gui.arbitre.matches import MatchPlan, check_sprt, pair_games
from tournoyons_gui.arbitre.stats import Sprt, estimate_pentanomial, estimate_wdl
from tournoyons_gui.arbitre.store import Exchange, Game, Match, MatchGame, Seat, Store
from tournoyons_gui.interfaces.openings import Opening, pair_seed

T0 = dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC)
#: The summary document's keys as ``docs/reference/match-json.md`` gives them.
DOCUMENTED_KEYS = {
    "set",
    "games",
    "wins",
    "draws",
    "losses",
    "faults",
    "score",
    "pentanomial",
    "elo",
    "elo_ci95",
    "los",
    "sprt",
    "games_list",
}


def match(entrants: int = 2, sprt: dict[str, float] | None = None, **fields: object) -> Match:
    """Return a match record of ``entrants`` named A, B, C, D."""
    base: dict[str, object] = {
        "id": "MATCH0000001",
        "set_name": "ConnectFour" if entrants == 2 else "Tarot",
        "entrants": [
            {"name": name, "kind": "builtin", "engine": "random"} for name in "ABCD"[:entrants]
        ],
        "options": {},
        "seed": 7,
        "openings": "",
        "games": 10,
        "sprt": sprt,
        "llr": None,
        "verdict": "",
        "status": "over",
        "created_at": T0,
    }
    base.update(fields)
    return Match(**base)  # type: ignore[arg-type]


def two(number: int, first_points: float | None, *, fault: str = "", by: int = 1) -> Outcome:
    """Return game ``number`` of a two-entrant match (pairs of two, seats swapped) where
    the first entrant scores ``first_points`` (``None``: no result)."""
    pair, turn = divmod(number, 2)
    seats = (0, 1) if turn == 0 else (1, 0)
    points = None if first_points is None else (first_points, 1.0 - first_points)
    faults = ((by, fault),) if fault else ()
    return Outcome(
        f"G{number:011d}",
        number,
        pair,
        seats,
        "over",
        points,
        (None, None),
        (None, None),
        fault,
        by if fault else None,
        5 if fault else None,
        T0 + dt.timedelta(seconds=number),
        "",
        4,
        faults=faults,
    )


def test_the_document_has_the_documented_keys_and_counts_from_the_first_side() -> None:
    # Pairs: (win, win) (win, draw) (loss, loss by B's timeout) and a game unpaired.
    outcomes = [
        two(0, 1.0),
        two(1, 1.0),
        two(2, 1.0),
        two(3, 0.5),
        two(4, 0.0),
        two(5, 1.0, fault="timeout", by=1),
        two(6, 0.0, fault="illegal", by=0),
    ]
    document = summarize(match(), outcomes, {"G00000000000": ["D", "C"]})
    assert set(document) >= DOCUMENTED_KEYS
    assert (document["wins"], document["draws"], document["losses"]) == (4, 1, 2)
    assert document["games"] == 7 and document["score"] == pytest.approx(4.5 / 7, abs=1e-4)
    assert document["faults"] == {"timeout": 0, "illegal": 1, "unreachable": 0, "malformed": 0}
    b = document["entrants"][1]
    assert b["faults"]["timeout"] == 1 and (b["wins"], b["losses"]) == (2, 4)
    # Three whole pairs (2, 1.5 and 1 points); game 6 is alone: not in the counts.
    assert document["pentanomial"] == [0, 0, 1, 1, 1]
    assert document["elo_model"] == "pentanomial"
    expected = estimate_pentanomial([0, 0, 1, 1, 1])
    assert document["elo"] == pytest.approx(expected.elo, abs=0.01)
    assert document["elo_ci95"][0] == pytest.approx(expected.elo_low, abs=0.01)
    assert document["los"] == pytest.approx(expected.los, abs=1e-4)
    listed = document["games_list"]
    assert {"id", "opening", "pair", "first", "result", "fault"} <= set(listed[0])
    assert [g["first"] for g in listed[:4]] == [0, 1, 0, 1]
    assert [g["result"] for g in listed] == ["win", "win", "win", "draw", "loss", "win", "loss"]
    assert listed[5]["fault"] == "timeout" and listed[5]["fault_by"] == 1
    assert listed[0]["moves"] == ["D", "C"] and listed[1]["moves"] == []
    assert document["sprt"] is None


def test_unpaired_games_take_the_trinomial_model_and_errors_count_apart() -> None:
    outcomes = [two(0, 1.0), two(2, 0.5), two(4, None), two(6, 0.0)]
    document = summarize(match(), outcomes)
    assert document["pentanomial"] == [0, 0, 0, 0, 0]
    assert document["elo_model"] == "trinomial"
    assert document["elo"] == pytest.approx(estimate_wdl(1, 1, 1).elo, abs=0.01)
    assert document["errors"] == 1 and document["games"] == 4
    assert document["games_list"][2]["result"] is None


def test_a_match_won_whole_has_no_finite_elo_in_its_json() -> None:
    document = summarize(match(), [two(n, 1.0) for n in range(4)])
    assert document["elo"] is None and document["elo_ci95"] == [None, None]
    assert document["los"] == 1.0 and document["score"] == 1.0


def test_the_sprt_s_llr_is_the_pentanomial_one_with_its_history() -> None:
    sprt = {"elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05}
    outcomes = [two(n, 1.0 if n % 3 else 0.5) for n in range(8)]
    document = summarize(match(sprt=sprt, verdict="H1", llr=3.0), outcomes)
    test = Sprt(0.0, 50.0)
    counts = document["pentanomial"]
    assert document["sprt"]["llr"] == pytest.approx(test.llr(counts), abs=1e-4)
    assert document["sprt"]["lower"] == pytest.approx(test.lower, abs=1e-4)
    assert document["sprt"]["verdict"] == "H1"
    history = document["sprt"]["history"]
    assert [games for games, _ in history] == [2, 4, 6, 8]
    assert history[-1][1] == pytest.approx(document["sprt"]["llr"], abs=1e-4)


def test_a_tally_counts_a_pair_once_both_games_have_ended() -> None:
    tally = Tally(2, 2, Sprt(0.0, 10.0))
    assert not tally.add(two(1, 0.0))  # the pair's second game first
    assert tally.add(two(0, 1.0))
    assert tally.pentanomial == (0, 0, 1, 0, 0) and tally.verdict is None
    assert tally.wdl["win"] == 1 and tally.wdl["loss"] == 1


def test_four_seats_rank_the_entrants_by_their_totals() -> None:
    def tarot(number: int, ranks: tuple[int, ...], totals: tuple[int, ...]) -> Outcome:
        points = tuple((1.0 if ranks.count(1) == 1 else 0.5) if r == 1 else 0.0 for r in ranks)
        rotation = number % 4
        seats = tuple((seat + rotation) % 4 for seat in range(4))
        return Outcome(f"T{number}", number, number // 4, seats, "over", points, ranks, totals)

    outcomes = [
        tarot(0, (1, 2, 3, 4), (90, 10, -30, -70)),
        tarot(1, (2, 1, 4, 3), (20, 60, -50, -30)),
    ]
    document = summarize(match(4), outcomes)
    lines = {line["name"]: line for line in document["entrants"]}
    assert lines["A"]["total"] == 110 and lines["A"]["rank"] == 1
    assert lines["B"]["rank"] == 2 and lines["D"]["rank"] == 4
    assert lines["A"]["wins"] == 1 and lines["B"]["wins"] == 1
    assert document["pentanomial"] is None and document["elo"] is None
    assert document["games_list"][1]["first"] == 1


def test_pairs_swap_the_seats_and_share_a_seed_derived_from_the_run_s() -> None:
    seats = [SeatSpec("builtin", "strong", "strong"), SeatSpec("builtin", "random", "random")]
    plan = MatchPlan("ConnectFour", seats, Options(), 5, seed=42)
    games = [plan.planned(n) for n in range(5)]
    assert [g.seats for g in games] == [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]
    assert [g.pair for g in games] == [0, 0, 1, 1, 2]
    assert games[0].seed == games[1].seed == pair_seed(42, 1) != games[2].seed
    assert pair_games(2, 5) == "5 games: 2 pairs and 1 game unpaired"
    assert pair_games(2, 1) == "1 game" and pair_games(4, 8) == "8 games in 2 pairs of 4 games"
    tarot = MatchPlan("Tarot", seats * 2, Options(), 4, seed=1)
    assert [tarot.planned(n).seats[0] for n in range(4)] == [0, 1, 2, 3]
    with pytest.raises(GameError, match="4 seats"):
        check_sprt(Sprt(0, 5), 4)


def test_the_openings_order_is_the_seed_s() -> None:
    openings = [Opening(n, f"tray {n}", "book.txt") for n in range(1, 21)]
    seats = [SeatSpec("builtin", "random", "a"), SeatSpec("builtin", "random", "b")]

    def order(seed: int) -> list[int]:
        plan = MatchPlan("ConnectFour", seats, Options(), 40, seed, openings, "builtin")
        played = [plan.planned(n).opening for n in range(40)]
        assert all(o is not None for o in played)
        return [o.line for o in played if o is not None]

    first = order(3)
    assert first == order(3) != order(4)
    assert first[0::2] == first[1::2]  # both games of a pair start from its opening
    assert sorted(first[0::2]) == list(range(1, 21))  # each opening once


def seat(index: int, kind: str = "engine", fault: str = "") -> Seat:
    return Seat(
        "GAME00000001",
        index,
        kind,
        f"engine {index + 1}",
        "http://127.0.0.1:9/e",
        f"KEY{index}ABCDEF",
        f"token{index}",
        error="no callback within 4 s" if fault else "",
        fault=fault,
    )


def exchange(seat_index: int, kind: str, detail: str, ms: int) -> Exchange:
    return Exchange(
        "GAME00000001", seat_index, kind, "", detail, T0 + dt.timedelta(milliseconds=ms)
    )


def test_a_failure_is_told_from_the_exchange_log_with_secrets_redacted() -> None:
    seats = [seat(0, fault="malformed"), seat(1)]
    request = (
        "http://127.0.0.1:9/e?Set=TicTacToe&Game=KEY0ABCDEF&MoveId=3&Turn=3&Status=0"
        "&TimeOut=4&Tray=120000000&Referee=http://127.0.0.1:8000/referee&Signature=abc123"
    )
    log = [
        exchange(0, "request", request.replace("MoveId=3", "MoveId=1"), 0),
        exchange(0, "callback", "Game=KEY0ABCDEF&MoveId=1&Value=1", 5),
        exchange(1, "request", "http://127.0.0.1:9/e?Game=KEY1ABCDEF&MoveId=2", 6),
        exchange(0, "request", request, 10),
        exchange(0, "answer", "500 http://127.0.0.1:9/e?Set=TicTacToe", 13),
        exchange(0, "body", "500 'Fatal error'", 4010),
        exchange(0, "error", "malformed: no callback within 4 s; the engine answered 500", 4010),
        exchange(0, "final", "http://127.0.0.1:9/e?Status=3", 4020),
        exchange(0, "answer", "final call answered: 200", 4030),
    ]
    outcome = two(0, 0.0, fault="malformed", by=0)
    failure = failure_of(outcome, seats, log)
    assert failure is not None
    assert failure.kind == "malformed" and failure.ply == 5 and failure.seat == 0
    assert "KEY0" not in failure.request and "Game=<seat 1>" in failure.request
    assert "Signature=<signature>" in failure.request and "abc123" not in failure.request
    assert failure.answer == "HTTP 500 'Fatal error'"
    assert failure.latency_ms == 3 and failure.waited_ms == 4000
    assert failure.curl is not None
    words = shlex.split(failure.curl)
    assert words[:4] == ["curl", "-sS", "--max-time", "4"]
    url = words[-1]
    assert "Game=TEST" in url and url.endswith("&Referee=") and "Signature" not in url
    assert failure_of(two(1, 1.0), seats, log) is None


def test_a_bot_s_post_is_reproduced_as_a_post_and_a_builtin_not_at_all() -> None:
    bot = seat(0, kind="botsarena")
    command = curl_command('POST http://127.0.0.1:9/bot {"game-id":"KEY0ABCDEF","you":"X"}', bot)
    assert command is not None
    words = shlex.split(command)
    assert "--data-binary" in words and '{"game-id":"TEST","you":"X"}' in words
    assert words[-1] == "http://127.0.0.1:9/bot"
    assert curl_command("http://127.0.0.1:1/engines/x?Game=K", seat(0, kind="builtin")) is None


def test_an_engine_that_stopped_answering_is_said_so() -> None:
    outcomes = [
        two(0, 1.0),
        two(1, 0.5),
        two(2, 1.0, fault="unreachable", by=1),
        two(3, 1.0, fault="unreachable", by=1),
        two(4, 1.0, fault="unreachable", by=1),
    ]
    said = stopped_answering(outcomes, ["A", "B"])
    assert len(said) == 1 and said[0].startswith("B lost its last 3 games by fault (unreachable)")
    assert "G00000000002" in said[0]
    every = [two(n, 1.0, fault="timeout", by=1) for n in range(2)]
    assert stopped_answering(every, ["A", "B"])[0].startswith("B lost every game by fault")
    # Illegal Values are answers: an engine that plays them is not silent.
    illegal = [two(n, 1.0, fault="illegal", by=1) for n in range(3)]
    assert stopped_answering(illegal, ["A", "B"]) == []
    assert stopped_answering([*every, two(2, 1.0, fault="illegal", by=1)], ["A", "B"]) == []


async def match_listed_in_order(store: Store) -> None:
    """Store a match and three games made out of order; check the store lists them in
    order with their seats, finds a game's place and ends the match (any database)."""
    await store.create_match(match(status="running"))
    for number in (2, 0, 1):  # made out of order
        game_id = f"GAME{number:08d}"
        game = Game(game_id, "ConnectFour", "over", {}, {"s": 1}, {}, 3, 0, "seat1", "", T0)
        seats = [
            Seat(game_id, i, "builtin", n, "random", f"K{number}{i}", f"T{number}{i}", entrant=i)
            for i, n in enumerate("AB")
        ]
        place = MatchGame("MATCH0000001", number, game_id, number // 2, 0, None, "", 2**62)
        await store.create_game(game, seats, place)
    listed = await store.match_games("MATCH0000001")
    assert [e.place.number for e in listed] == [0, 1, 2]
    assert [e.game.id for e in listed] == ["GAME00000000", "GAME00000001", "GAME00000002"]
    assert [s.name for s in listed[0].seats] == ["A", "B"] and listed[0].game.turn == {}
    assert listed[0].place.seed == 2**62 and listed[0].game.created_at == T0
    assert (await store.game_place("GAME00000001")) == listed[1].place
    await store.end_match("MATCH0000001", "over", 1.5, "H1")
    ended = await store.match("MATCH0000001")
    assert ended is not None and (ended.status, ended.verdict, ended.llr) == ("over", "H1", 1.5)


def test_a_match_s_games_are_listed_in_order_along_an_index(tmp_path: Path) -> None:
    async def run() -> None:
        store = await Store.open(str(tmp_path / "m.sqlite3"))
        try:
            await match_listed_in_order(store)
            plan = await store.read(
                lambda c: c.exec_driver_sql(
                    "EXPLAIN QUERY PLAN SELECT * FROM match_games WHERE match_id = 'M' "
                    "ORDER BY number"
                ).all()
            )
            steps = " ".join(str(row[-1]) for row in plan)
            assert "SEARCH match_games USING" in steps and "TEMP B-TREE" not in steps, steps
        finally:
            await store.close()

    asyncio.run(run())
