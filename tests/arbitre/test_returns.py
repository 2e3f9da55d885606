"""The persons' returns (``/play/<token>/<n>``, ``arbitre/web/returns.py``) read by the one
reader of the engine protocol (decision 5): ``ReturnValue`` in any case, the first one
wins; and the page a person plays on names every seat and spells the seat asked."""

from __future__ import annotations

import time
import urllib.parse

from tests.arbitre.conftest import Served, start_with_person, wait_moves


def asked_src(served: Served, game_id: str, token: str) -> dict[str, list[str]]:
    """Wait until the person holding ``token`` is asked; return the iframe's parameters."""
    deadline = time.monotonic() + 10
    while True:
        view = served.http.get(f"/games/{game_id}/view", params={"seat": token}).json()
        if "URLReturn=" in view["src"]:
            return urllib.parse.parse_qs(urllib.parse.urlsplit(view["src"]).query)
        assert time.monotonic() < deadline, view
        time.sleep(0.05)


def test_a_return_value_is_read_in_any_case_and_the_first_wins(served: Served) -> None:
    game_id, token = start_with_person(
        served.http,
        "TicTacToe",
        [
            {"kind": "builtin", "engine": "perfect", "name": "Bot"},
            {"kind": "person", "name": "Ann"},
        ],
    )
    params = asked_src(served, game_id, token)
    assert params["Input"] == ["Two"]
    assert (params["Name1"], params["Name2"]) == (["Bot"], ["Ann"])
    taken = served.record(game_id)["moves"][0]["value"]
    free = next(str(n) for n in range(1, 10) if str(n) != taken)
    other = next(str(n) for n in range(1, 10) if str(n) not in (taken, free))
    played = served.http.get(f"/play/{token}/2?returnvalue={free}&ReturnValue={other}")
    assert played.status_code == 200, played.text
    wait_moves(served.http, game_id, 2)
    assert served.record(game_id)["moves"][1]["value"] == free
