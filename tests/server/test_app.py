"""The HTTP side: routes, headers, caching, the sink, the tester's API, plugins."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tournoyons_gui.interfaces.plugin import SetInterface, View
from tournoyons_gui.interfaces.protocol import Context
from tournoyons_gui.interfaces.registry import Registry, load_registry
from tournoyons_gui.server import create_app

PAGES = [
    "/?Set=TicTacToe&Tray=Init&Input=One",
    "/?Set=Rochambeau&Move1=1&Move2=2&Gain1=1&Gain2=3",
    "/?Method=None&Legend=x",
    "/tictactoe/?Tray=333020200&Move1=3&Method=End",
    "/?Set=Nim&Tray=Init&Input=Two",
]


def html_of(client: TestClient, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, url
    return answer.text


def test_no_query_is_the_tester(client: TestClient) -> None:
    page = html_of(client, "/")
    assert "Tournoyons interface tester" in page
    for name in ("TicTacToe", "Rochambeau", "Nim"):
        assert f'<option value="{name}">' in page


def test_a_query_without_set_is_an_empty_interface(client: TestClient) -> None:
    page = html_of(client, "/?Method=None&Legend=Entre+deux+parties")
    assert 'data-method="none"' in page
    assert "Entre deux parties" in page
    assert "tester" not in page
    assert "data-error" not in page
    # Without Set and not between games, the page says what is missing.
    assert 'data-error="set"' in html_of(client, "/?Tray=Init")


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/?Set=TicTacToe", "TicTacToe"),
        ("/?set=tictactoe", "TicTacToe"),
        ("/?SET=TICTACTOE", "TicTacToe"),
        ("/?Set=ChiFouMi", "Rochambeau"),
        ("/?Set=rochambeau", "Rochambeau"),
        ("/tictactoe/", "TicTacToe"),
        ("/TicTacToe", "TicTacToe"),
        ("/chifoumi/?Move1=1", "Rochambeau"),
        ("/tictactoe/?Set=Rochambeau", "TicTacToe"),
        ("/nim/", "Nim"),
    ],
)
def test_sets_by_name_alias_and_path(client: TestClient, url: str, name: str) -> None:
    assert f'data-set="{name}"' in html_of(client, url)


@pytest.mark.parametrize("url", ["/?Set=Chess", "/chess/", "/chess", "/?Set=%3Cscript%3E"])
def test_unknown_set_is_404_listing_the_sets(client: TestClient, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 404
    assert 'data-error="set"' in answer.text
    for name in ("TicTacToe", "Rochambeau", "Nim"):
        assert f'data-set-link="{name}"' in answer.text
    assert "<script>" not in answer.text


def test_healthz(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok"


@pytest.mark.parametrize("url", [*PAGES, "/", "/?Set=Chess", "/healthz", "/return?ReturnValue=1"])
def test_security_headers(client: TestClient, url: str) -> None:
    headers = client.get(url).headers
    csp = headers["content-security-policy"]
    script_src = re.search(r"script-src ([^;]*)", csp)
    assert script_src and script_src.group(1).strip() == "'self'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors *" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert "x-frame-options" not in headers
    assert "set-cookie" not in headers


def test_frame_ancestors_is_configurable(tmp_path: Path) -> None:
    app = create_app(
        frame_ancestors="'self' https://tournoyons.com", database=str(tmp_path / "arbitre.sqlite3")
    )
    with TestClient(app) as client:
        csp = client.get(PAGES[0]).headers["content-security-policy"]
    assert csp.endswith("frame-ancestors 'self' https://tournoyons.com")


class ScriptAudit(HTMLParser):
    """Collects inline scripts and on* handlers: the CSP would block them."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.problems += [f"{tag} {n}" for n in names if n.startswith("on")]
        if tag == "script":
            if "src" in names:
                self.scripts.append(names["src"] or "")
            elif names.get("type") != "application/json":
                self.problems.append("inline script")


@pytest.mark.parametrize("url", [*PAGES, "/", "/?Set=Chess", "/return?ReturnValue=1"])
def test_pages_have_no_inline_script_and_only_hashed_assets(client: TestClient, url: str) -> None:
    audit = ScriptAudit()
    audit.feed(client.get(url).text)
    assert audit.problems == []
    assert all(re.fullmatch(r"/static/[0-9a-f]{12}/[a-z]+/[\w./-]+", s) for s in audit.scripts)


def test_interface_pages_carry_an_etag_and_answer_304(client: TestClient) -> None:
    first, second = client.get(PAGES[1]), client.get(PAGES[1])
    assert first.content == second.content
    etag = first.headers["etag"]
    assert etag == second.headers["etag"]
    assert first.headers["cache-control"] == "public, max-age=60"
    again = client.get(PAGES[1], headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert client.get(PAGES[1], headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get(PAGES[0]).headers["etag"] != etag


def asset_urls(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', page)


def test_static_assets_are_immutable_under_their_digest(client: TestClient) -> None:
    urls = asset_urls(html_of(client, PAGES[0]))
    assert len(urls) == 4  # shared and TicTacToe: a script and a stylesheet each
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert answer.headers["content-type"].startswith(("text/javascript", "text/css"))
        digest = url.split("/")[2]
        stale = client.get(url.replace(digest, "000000000000"))
        assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"


def test_static_assets_are_gzipped_when_asked(client: TestClient) -> None:
    url = next(u for u in asset_urls(html_of(client, PAGES[0])) if u.endswith("tournoyons.js"))
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.content == plain.content  # the client decompressed it
    assert client.get("/static/0/shared/nothing.js").status_code == 404


def test_static_assets_answer_304_to_their_etag_or_any(client: TestClient) -> None:
    url = asset_urls(html_of(client, PAGES[0]))[0]
    etag = client.get(url).headers["etag"]
    for held in (etag, f"W/{etag}", "*"):
        again = client.get(url, headers={"If-None-Match": held})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_return_sink_logs_every_value(client: TestClient) -> None:
    client.get("/return?tag=sinktest&ReturnValue=5")
    client.get("/return?tag=sinktest&ReturnValue=%3Cb%3E")
    answer = client.get("/return?tag=sinktest&ReturnValue=7")
    assert answer.headers["cache-control"] == "no-store"
    values = [
        e["value"]
        for e in client.get("/return/log?tag=sinktest").json()
        if e["params"].get("tag") == "sinktest"
    ]
    assert values == ["5", "<b>", "7"]
    assert "<b>" not in client.get("/return?tag=sinktest&ReturnValue=%3Cb%3E").text


def test_the_sink_log_names_only_the_tags_asked(client: TestClient) -> None:
    client.get("/return?tag=mine&ReturnValue=1")
    client.get("/return?tag=theirs&ReturnValue=2")
    assert client.get("/return/log").status_code == 400
    assert [e["value"] for e in client.get("/return/log?tag=mine").json()] == ["1"]


def test_the_sink_is_off_unless_asked(tmp_path: Path) -> None:
    with TestClient(create_app(database=str(tmp_path / "a.sqlite3"))) as client:
        assert client.get("/return?tag=x&ReturnValue=1").status_code == 404
        assert client.get("/return/log?tag=x").status_code == 404


def test_tester_api_plays_a_game(client: TestClient) -> None:
    new = client.post("/tester/tictactoe/new").json()
    assert new["params"] == {"Tray": "Init", "Input": "One", "Count": "0"}
    played = client.post("/tester/TicTacToe/play", json={"state": new["state"], "value": "5"})
    assert played.status_code == 200
    assert played.json()["params"]["Tray"] == "000010000"
    taken = client.post(
        "/tester/tictactoe/play", json={"state": played.json()["state"], "value": "5"}
    )
    assert taken.status_code == 422
    assert "taken" in taken.json()["error"]


@pytest.mark.parametrize(
    ("url", "body", "status"),
    [
        ("/tester/chess/new", None, 404),
        ("/tester/nim/jump", None, 404),
        ("/tester/tictactoe/jump", None, 404),
        ("/tester/tictactoe/play", b"not json", 400),
        ("/tester/tictactoe/play", b'{"state": 3, "value": "1"}', 400),
        ("/tester/tictactoe/play", b'{"state": {}, "value": 1}', 400),
    ],
)
def test_tester_api_refuses_nonsense(
    client: TestClient, url: str, body: bytes | None, status: int
) -> None:
    assert client.post(url, content=body).status_code == status


def test_the_third_party_set_is_registered_by_its_entry_point() -> None:
    registry = load_registry()
    nim = registry.get("nim")
    assert nim is not None and nim.package == "tournoyons_nim"
    names = [s.name for s in registry]
    assert {"Nim", "Rochambeau", "TicTacToe"} <= set(names)
    assert names == sorted(names, key=str.lower)


def _explode(ctx: Context) -> View:
    raise RuntimeError("a broken plugin")


def test_a_failing_set_never_answers_500(tmp_path: Path) -> None:
    broken = SetInterface(
        name="Broken",
        build=_explode,
        package="tournoyons_gui.interfaces.tictactoe",
        template="tictactoe/page.html",
    )
    app = create_app(registry=Registry([broken]), database=str(tmp_path / "arbitre.sqlite3"))
    with TestClient(app) as client:
        answer = client.get("/?Set=Broken&Name1=Ann&Legend=hello")
    assert answer.status_code == 200
    assert 'data-error="set"' in answer.text
    assert "Ann" in answer.text and "hello" in answer.text


@pytest.mark.parametrize(
    "query",
    [
        "Set=TicTacToe&Tray=%00%01%FF",
        "Set=TicTacToe&Tray=" + "1" * 5000,
        "Set=Rochambeau&Gain1=%uZZZZ&Move1=%",
        "Set=TicTacToe&Name1=" + "%E9" * 3000,
        "Set=TicTacToe&Wait=999999999999999999999",
        "Set=TicTacToe&&&===&Input=3&Method=x",
        "Set=TicTacToe&Color=%22%3E%3Cscript%3E",
        "Set=Rochambeau&URLReturn=javascript:alert(1)",
    ],
)
def test_junk_never_answers_500(client: TestClient, query: str) -> None:
    answer = client.get("/?" + query)
    assert answer.status_code == 200
    assert "data-error=" in answer.text or "Name1" in query
    assert "<script>" not in answer.text.split('id="tournoyons-context"')[0]
