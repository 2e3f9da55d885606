"""No amplification through the Arbitre's own URLs, and one
outbound policy (no SSRF) for every request the server makes, over real HTTP on
127.0.0.1. A *public* server here is one built with a listen address that is not
loopback (``listen=("0.0.0.0", port)``), served on 127.0.0.1 all the same."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.engines import QuirkyEngines
from tests.arbitre.secure_engines import SecureEngines


@pytest.fixture(scope="module")
def targets() -> Iterator[SecureEngines]:
    """The tests' engines and targets on 127.0.0.1."""
    with SecureEngines().running() as running:
        yield running


def _public(tmp_path: Path, *allowed: str) -> Served:
    """A server whose outbound policy is public (listening on 0.0.0.0, served on
    127.0.0.1), ``allowed`` its ``--allow-hosts``."""
    from tournoyons_gui.arbitre.web.guard import UNLIMITED

    return Served(
        tmp_path / "public.sqlite3",
        listen=("0.0.0.0", 0),
        allow_hosts=allowed,
        limits=UNLIMITED,
    )


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A public server that allows nothing internal."""
    served = _public(tmp_path_factory.mktemp("public"))
    try:
        yield served
    finally:
        served.stop()


def _games(served: Served) -> int:
    """Return the number of games the server has recorded (its games page's count)."""
    found = re.search(r"<p data-total>(\d+) game", served.http.get("/games").text)
    assert found is not None
    return int(found.group(1))


def _internal_targets(port: int) -> list[str]:
    """The 19 internal targets (loopback in every spelling, on this server's
    port and others, the private, link-local, unique-local and metadata addresses)."""
    return [
        "http://127.0.0.1:9/",
        "http://localhost:9/",
        "http://127.1:9/",
        "http://2130706433:9/",
        "http://0x7f000001:9/",
        "http://[::1]:9/",
        "http://[::ffff:127.0.0.1]:9/",
        "http://0.0.0.0:9/",
        "http://10.0.0.1/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00::1]/",
        "http://[::ffff:169.254.169.254]/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://127.0.0.1:22/",
        "http://127.0.0.1:6379/",
        f"http://127.0.0.1:{port}/engine-check",
        "http://[fe80::1]/",
    ]


def _register(served: Served, url: str) -> httpx.Response:
    return served.http.post(
        "/api/engines", json={"name": f"t {abs(hash(url))}", "url": url, "sets": ["TicTacToe"]}
    )


def test_the_19_internal_targets_are_refused_on_a_public_listener(public: Served) -> None:
    """SSRF: by default 18 of the 19 internal targets were accepted as engine URLs;
    a public server refuses each, as an engine seat and as a registration."""
    targets = _internal_targets(public.port)
    assert len(targets) == 19
    for url in targets:
        seat = {"kind": "engine", "engine": url}
        answer = public.http.post(
            "/api/games", json={"set": "TicTacToe", "seats": [seat, {"kind": "builtin"}]}
        )
        assert answer.status_code == 400, (url, answer.text)
        assert re.search(r"internal host|own", answer.json()["error"]), (url, answer.text)
        assert _register(public, url).status_code == 400, url


def test_the_internal_targets_are_accepted_with_allow_hosts(tmp_path: Path) -> None:
    """SSRF: ``--allow-hosts`` lets a public server call the internal hosts it lists
    (names, addresses and networks); its own ``/engine-check`` never."""
    allowed = (
        "127.0.0.0/8",
        "localhost",
        "::1",
        "0.0.0.0",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "fd00::/8",
        "fe80::/10",
        "metadata.google.internal",
    )
    served = _public(tmp_path, *allowed)
    try:
        for url in _internal_targets(served.port)[:-2]:
            assert _register(served, url).status_code == 201, url
        last = _internal_targets(served.port)
        assert _register(served, last[-1]).status_code == 201
        own = _register(served, last[-2])
        assert own.status_code == 400 and "own" in own.json()["error"]
    finally:
        served.stop()


def test_a_name_is_resolved_once_and_the_checked_address_connected_to(
    quirky: QuirkyEngines,
) -> None:
    """SSRF (DNS rebinding): a name is checked by the address it resolves to when the
    connection is made, resolved once, and that address connected to: a name that
    resolves to 127.0.0.1 (whatever it resolved to before) is refused, and an allowed name
    reaches the address its one resolution gave (no name here exists in any real DNS)."""
    from tournoyons_gui.arbitre.calls import engine_client
    from tournoyons_gui.arbitre.outbound import Outbound, OutboundRefused

    resolved: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        resolved.append(host)
        return ["127.0.0.1"]

    port = urllib.parse.urlsplit(quirky.base).port
    policy = Outbound.for_server(
        "http://arbitre.example",
        ("0.0.0.0", 8000),
        resolver=resolver,
        allow_hosts=["allowed.example"],
    )
    assert policy.public
    assert policy.check_url(f"http://rebind.example:{port}/good")  # spelled, it is a name

    async def call(host: str) -> httpx.Response:
        async with engine_client(outbound=policy) as client:
            return await client.get(f"http://{host}:{port}/good?Referee=")

    with pytest.raises(OutboundRefused, match="internal address"):
        asyncio.run(call("rebind.example"))
    before = len(quirky.requests_to("/good"))
    resolved.clear()
    answer = asyncio.run(call("allowed.example"))
    assert answer.status_code == 200 and resolved == ["allowed.example"]
    assert len(quirky.requests_to("/good")) == before + 1


def test_the_move_paths_client_resolves_once_and_connects_to_the_checked_address(
    quirky: QuirkyEngines,
) -> None:
    """The same holds for the move path's client (aiohttp: engine requests, final calls,
    bots, our engines' callbacks): a name resolving to 127.0.0.1 is refused as
    unreachable and nothing is sent; an allowed name is resolved once and its address
    reached; this server's own port is refused even allowed."""
    from tournoyons_gui.arbitre.client import Calls, Unreachable
    from tournoyons_gui.arbitre.outbound import Outbound

    resolved: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        resolved.append(host)
        return ["127.0.0.1"]

    port = urllib.parse.urlsplit(quirky.base).port
    assert port is not None
    policy = Outbound.for_server(
        "http://arbitre.example",
        ("0.0.0.0", port + 1 if port < 65535 else port - 1),
        resolver=resolver,
        allow_hosts=["allowed.example"],
    )

    async def call(url: str, keepalive: bool) -> int:
        calls = Calls(policy, keepalive=keepalive)
        try:
            return (await calls.get(url, read=100)).status
        finally:
            await calls.close()

    before = len(quirky.requests_to("/good"))
    for keepalive in (False, True):
        with pytest.raises(Unreachable, match="internal address"):
            asyncio.run(call(f"http://rebind.example:{port}/good?Referee=", keepalive))
        with pytest.raises(Unreachable, match="internal address"):
            asyncio.run(call(f"http://127.0.0.1:{port}/good?Referee=", keepalive))
    assert len(quirky.requests_to("/good")) == before
    resolved.clear()
    assert asyncio.run(call(f"http://allowed.example:{port}/good?Referee=", False)) == 200
    assert resolved == ["allowed.example"]
    assert len(quirky.requests_to("/good")) == before + 1
    own = Outbound.for_server(
        "http://arbitre.example", ("0.0.0.0", port), allow_hosts=["127.0.0.1"]
    )
    with pytest.raises(Unreachable, match="own URL"):
        asyncio.run(Calls(own, keepalive=False).get(f"http://127.0.0.1:{port}/good"))


def test_the_tester_holds_every_redirect_to_the_policy_and_shows_only_the_value(
    tmp_path: Path, targets: SecureEngines
) -> None:
    """SSRF: the tester followed any redirect (one from an allowed host to
    ``localhost`` showed the secret) and showed any URL's whole body. Now each hop's
    address is checked, and the page shows only the Value read (the body's first line)."""
    served = _public(tmp_path, "localhost")
    try:
        port = urllib.parse.urlsplit(targets.base).port
        allowed = f"http://localhost:{port}"
        secret = f"{targets.base}/secret"  # 127.0.0.1: not listed
        page = served.http.post(
            "/engine-tester",
            data={"url": f"{allowed}/to?u={urllib.parse.quote(secret)}", "set": "TicTacToe"},
        )
        assert page.status_code == 200
        assert "SECRET-BODY" not in page.text and "internal address" in page.text
        direct = served.http.post(
            "/engine-tester", data={"url": f"{allowed}/secret", "set": "TicTacToe"}
        )
        assert "data-value>SECRET-BODY</code>" in direct.text
        assert "line 2" not in direct.text
    finally:
        served.stop()


def test_a_builtin_engines_referee_is_held_to_the_policy(
    public: Served, targets: SecureEngines
) -> None:
    """SSRF: the built-in engines called any ``Referee`` URL back, ignoring every
    rule; on a public server an internal one is refused, and the same engines still play
    its games as ``builtin`` seats, in process."""
    before = len(targets.hits)
    answer = public.http.get(
        "/engines/tictactoe/random",
        params={"Game": "G", "MoveId": "1", "Tray": "000000000", "Referee": f"{targets.base}/hit"},
    )
    assert answer.status_code == 200
    assert len(targets.hits) == before
    game = public.create("TicTacToe", [{"kind": "builtin"}, {"kind": "builtin"}])
    record = public.finished(game)
    assert record["status"] == "over" and record["result"] in ("seat1", "seat2", "draw")


def test_engine_check_starts_no_work_from_a_link_or_another_site(
    served: Served, quirky: QuirkyEngines
) -> None:
    """Amplification: ``/engine-check`` took a GET, so a link or an image tag started games.
    Now a GET shows the form alone, and a POST from another site is refused."""
    before = _games(served)
    query = {"url": quirky.base + "/good", "set": "TicTacToe", "games": "1"}
    assert served.http.get("/engine-check", params=query).status_code == 200
    assert served.http.get("/engine-tester", params={**query, "turn": "1"}).status_code == 200
    foreign = served.http.post(
        "/engine-check", data=query, headers={"Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403
    referred = served.http.post(
        "/api/games",
        json={"set": "TicTacToe", "seats": [{"kind": "builtin"}, {"kind": "builtin"}]},
        headers={"Referer": "https://evil.example/page"},
    )
    assert referred.status_code == 403
    assert _games(served) == before
    mine = served.http.post("/engine-check", data=query, headers={"Origin": served.base})
    assert mine.status_code == 200 and _games(served) == before + 1


@pytest.mark.slow
def test_the_three_deep_amplification_makes_exactly_one_game(
    served: Served, targets: SecureEngines
) -> None:
    """Amplification: an engine URL that was the server's own ``/engine-check``, nested three
    deep, made 7 games from one request. Its own URLs (any of its names) are refused as
    engines, and a redirect to one is refused at the connection: one check of one game
    makes exactly one game."""
    own = f"{served.base}/engine-check"
    nested = own
    for _ in range(3):
        nested = f"{own}?" + urllib.parse.urlencode({"url": nested, "set": "TicTacToe"})
    before = _games(served)
    for spelling in (nested, nested.replace("127.0.0.1", "localhost")):
        refused = served.http.post(
            "/engine-check", data={"url": spelling, "set": "TicTacToe", "games": "1"}
        )
        assert refused.status_code == 400 and "own" in refused.text
    assert _games(served) == before
    redirected = f"{targets.base}/to?" + urllib.parse.urlencode({"u": nested})
    page = served.http.post(
        "/engine-check", data={"url": redirected, "set": "TicTacToe", "games": "1", "timeout": "4"}
    )
    assert page.status_code == 200
    (game_id,) = [part.split('"')[0] for part in page.text.split('data-check-log="')[1:]]
    record = served.finished(game_id)
    assert record["status"] == "over"
    log = served.http.get(f"/games/{game_id}/log").text
    assert "own URL is not a target" in log
    assert _games(served) == before + 1


@pytest.mark.parametrize(
    "path",
    [
        "/engines/tictactoe/random",
        "/engines/connectfour/random/botsarena",
        "/referee",
        "/referee/tictactoe",
        "/tictactoe/",
    ],
)
@pytest.mark.slow
def test_no_url_of_its_own_is_an_engine_a_bot_a_referee_or_an_interface(
    served: Served, targets: SecureEngines, path: str
) -> None:
    """Amplification: "no URL of the Arbitre's own, on any of its names, may be an engine, a
    referee or an interface", its built-in engines, referees and Sets' pages included
    (they are offered as ``builtin`` seats and built-in interfaces); a redirect to one is
    refused at the connection."""
    before = _games(served)
    for base in (served.base, served.base.replace("127.0.0.1", "localhost")):
        url = base + path
        given: list[tuple[str, dict[str, object]]] = [
            ("/api/engines", {"name": f"own {path}", "url": url, "sets": ["TicTacToe"]}),
            ("/api/interfaces", {"name": f"own {path}", "url": url, "sets": ["TicTacToe"]}),
            ("/api/sets", {"name": "OwnAdded", "interface_url": url, "referee_url": url}),
            (
                "/api/games",
                {
                    "set": "TicTacToe",
                    "seats": [{"kind": "engine", "engine": url}, {"kind": "builtin"}],
                },
            ),
            (
                "/api/games",
                {
                    "set": "ConnectFour",
                    "seats": [{"kind": "botsarena", "engine": url}, {"kind": "builtin"}],
                },
            ),
        ]
        for route, body in given:
            refused = served.http.post(route, json=body)
            assert refused.status_code == 400, (route, url, refused.text)
            assert "Arbitre's own" in refused.json()["error"], (route, refused.text)
    assert _games(served) == before
    if path == "/referee":
        return  # a redirect to the Referee URL is the engine's callback (decision 7)
    # Through a redirect: the game is played, the engine's request refused on the way.
    redirected = f"{targets.base}/to?" + urllib.parse.urlencode({"u": served.base + path})
    game = served.create(
        "TicTacToe", [{"kind": "engine", "engine": redirected}, {"kind": "builtin"}], timeout=4
    )
    record = served.finished(game)
    assert record["result"] == "seat2" and record["seats"][0]["error"]
    log = served.http.get(f"/games/{game}/log").text
    assert "own URL is not a target" in log


def test_a_builtin_seats_final_call_is_answered_in_process(served: Served) -> None:
    """A built-in seat's final call is logged as an engine's, with the URL an outsider
    would call, and answered in this process (no call to the Arbitre's own URL)."""
    game = served.create("TicTacToe", [{"kind": "builtin"}, {"kind": "builtin"}])
    record = served.finished(game)
    finals = [e for e in record["exchanges"] if e["kind"] == "final"]
    assert [e["seat"] for e in finals] == [0, 1]
    assert all(e["detail"].startswith(f"{served.base}/engines/tictactoe/") for e in finals)
    deadline = time.monotonic() + 10
    while True:
        answers = [e["detail"] for e in served.record(game)["exchanges"] if e["kind"] == "answer"]
        if len(answers) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert answers == ["final call answered: 200"] * 2


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/\x00x", "http://127.0.0.1:9/a\tb", "http://127.0.0.1:9/a\x85b"]
)
def test_a_url_with_a_control_character_is_refused_where_it_is_given(
    served: Served, url: str
) -> None:
    before = _games(served)
    seats = [{"kind": "engine", "engine": url}, {"kind": "builtin", "engine": "random"}]
    game = served.http.post("/api/games", json={"set": "TicTacToe", "seats": seats})
    assert game.status_code == 400 and "control character" in game.json()["error"]
    assert _games(served) == before
    engine = _register(served, url)
    assert engine.status_code == 400 and "control character" in engine.json()["error"]
