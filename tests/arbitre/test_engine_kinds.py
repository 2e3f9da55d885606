"""What the manual adds (seed 002): signed calls (chapter VII) and engines behind
a school's wall (chapter VIII: the ``service`` and ``sync`` seat kinds), with engines of
the tests' own over real HTTP on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.arbitre.conftest import Served, create_tournament, wait_tournament
from tests.arbitre.secure_engines import KEY, SecureEngines

RANDOM = {"kind": "builtin", "engine": "random"}


@pytest.fixture(scope="module")
def engines() -> Iterator[SecureEngines]:
    """The tests' engines on 127.0.0.1."""
    with SecureEngines().running() as running:
        yield running


def _register(served: Served, name: str, url: str, **more: Any) -> dict[str, Any]:
    answer = served.http.post(
        "/api/engines",
        json={"name": name, "url": url, "sets": ["TicTacToe"], "open": True, **more},
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _one_game(served: Served, engine_id: str) -> dict[str, Any]:
    """Play one tournament game of the registered engine against the built-in random
    engine; return its record."""
    tournament_id = create_tournament(
        served.http,
        "TicTacToe",
        [{"kind": "registered", "engine": engine_id}, RANDOM],
        games=1,
        timeout=4,
    )
    summary = wait_tournament(served.http, tournament_id, within=60)
    (game,) = summary["games"]
    return served.record(game["id"])


def test_a_signature_is_the_hmac_of_the_query_before_it() -> None:
    """Manual VII: ``Signature`` is the HMAC-SHA256 of the query as sent, last."""
    from tournoyons_gui.arbitre.signing import sign_url, signature, verify_query

    url = sign_url("http://e.example/play?Set=TicTacToe&Game=G&MoveId=1&Referee=http://a/r", KEY)
    query = url.split("?", 1)[1]
    assert query.endswith("&Signature=" + signature(KEY, query.rsplit("&Signature=", 1)[0]))
    assert verify_query(query, KEY) and not verify_query(query, "another key")
    assert not verify_query(query.replace("MoveId=1", "MoveId=2"), KEY)
    assert sign_url("http://e.example/?a=1", "") == "http://e.example/?a=1"


@pytest.mark.slow
def test_an_engine_that_checks_signatures_plays_signed_calls_only(
    served: Served, engines: SecureEngines
) -> None:
    """Manual VII: an engine of the tests' own refuses unsigned or wrongly signed requests
    and plays signed ones: registered with its key, it plays a whole game, each request
    signed in the ``Signature`` parameter and the ``X-Tournoyons-Signature`` header."""
    signed = _register(served, "Signed engine", f"{engines.base}/signed", key=KEY)
    before = len(engines.signed)
    record = _one_game(served, signed["id"])
    assert record["status"] == "over" and not record["seats"][0]["error"], record["reason"]
    requests = engines.signed[before:]
    assert requests and all("&Signature=" in q for q in requests)
    assert engines.headers[-1] == requests[-1].rsplit("Signature=", 1)[1]
    refused = len(engines.refused)
    wrong = _register(served, "Wrongly signed", f"{engines.base}/signed?w=1", key="not-the-key")
    record = _one_game(served, wrong["id"])
    assert record["seats"][0]["error"] and len(engines.refused) > refused
    unsigned = served.create(
        "TicTacToe", [{"kind": "engine", "engine": f"{engines.base}/signed"}, RANDOM], timeout=4
    )
    record = served.finished(unsigned, within=30)
    assert record["result"] == "seat2" and record["seats"][0]["error"]


@pytest.mark.slow
def test_a_service_engine_plays_whole_games_and_its_key_is_renewed(
    served: Served, engines: SecureEngines
) -> None:
    """Manual VIII: a ``service`` engine is POSTed the whole context as JSON with its key
    and answers ``{"Value"}``; it plays whole games, as a seat and registered; its owner
    renews its key with the edit token."""
    game = served.create(
        "TicTacToe", [{"kind": "service", "engine": f"{engines.base}/service"}, RANDOM]
    )
    record = served.finished(game)
    assert record["status"] == "over" and not record["seats"][0]["error"], record["reason"]
    context = engines.service_calls[-1]
    assert context["Set"] == "TicTacToe" and "Tray" in context and "Referee" not in context
    registered = _register(
        served,
        "Service engine",
        f"{engines.base}/service?key=svc-key",
        kind="service",
        key="svc-key",
    )
    assert registered["kind"] == "service" and registered["key"] == "svc-key"
    record = _one_game(served, registered["id"])
    assert record["status"] == "over" and not record["seats"][0]["error"], record["reason"]
    assert engines.service_calls[-1]["Key"] == "svc-key"
    path = f"/api/engines/{registered['id']}"
    assert served.http.post(path, json={"renew_key": True}).status_code == 403
    renewed = served.http.post(path, json={"renew_key": True, "token": registered["edit_token"]})
    assert renewed.status_code == 200 and renewed.json()["key"] not in ("", "svc-key")
    # The engine still expects the old key: it refuses, and loses.
    record = _one_game(served, registered["id"])
    assert record["seats"][0]["error"]
    assert engines.service_calls[-1]["Key"] == renewed.json()["key"]


def test_a_sync_engine_plays_whole_games(served: Served, engines: SecureEngines) -> None:
    """Manual VIII: a ``sync`` engine, given an empty ``Referee``, answers the Value in its
    body; it plays whole games."""
    before = len(engines.sync_calls)
    game = served.create("TicTacToe", [RANDOM, {"kind": "sync", "engine": f"{engines.base}/sync"}])
    record = served.finished(game)
    assert record["status"] == "over" and not record["seats"][1]["error"], record["reason"]
    calls = [call for call in engines.sync_calls[before:] if "MoveId" in call]
    assert len(record["moves"]) >= 5 and len(calls) >= 2
    assert all(call["Referee"] == "" for call in calls)
    assert [c["Status"] for c in engines.sync_calls[before:] if "MoveId" not in c] != []
