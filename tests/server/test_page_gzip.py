"""Interface pages are served gzipped when accepted, each encoding with its own ETag."""

from __future__ import annotations

import gzip

from starlette.testclient import TestClient

from tournoyons_gui.server.http import make_page

PAGE = "/tictactoe/?Tray=Init&Input=One&Name1=MissOne&Name2=MrTwo"


def test_pages_are_gzipped_when_accepted(client: TestClient) -> None:
    plain = client.get(PAGE, headers={"Accept-Encoding": "identity"})
    zipped = client.get(PAGE, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert plain.headers["vary"] == zipped.headers["vary"] == "Accept-Encoding"
    assert zipped.content == plain.content  # the client decompressed it
    assert int(zipped.headers["content-length"]) < len(plain.content) / 2
    assert zipped.headers["content-type"] == "text/html; charset=utf-8"
    assert "frame-ancestors" in zipped.headers["content-security-policy"]


def test_each_encoding_has_its_own_etag_and_both_answer_304(client: TestClient) -> None:
    plain = client.get(PAGE, headers={"Accept-Encoding": "identity"}).headers["etag"]
    zipped = client.get(PAGE, headers={"Accept-Encoding": "gzip"}).headers["etag"]
    assert plain != zipped and zipped == plain[:-1] + '-gz"'
    for held in (plain, zipped, f"W/{zipped}", f'"other", {plain}'):
        again = client.get(PAGE, headers={"Accept-Encoding": "gzip", "If-None-Match": held})
        assert again.status_code == 304 and again.content == b""
    other = client.get(PAGE, headers={"Accept-Encoding": "gzip", "If-None-Match": '"x-gz"'})
    assert other.status_code == 200


def test_the_gzipped_body_is_the_page() -> None:
    page = make_page(b"<!doctype html>" + b"<p>x</p>" * 500)
    assert page.gzipped is not None and gzip.decompress(page.gzipped) == page.body
    assert make_page(b"x").gzipped is None  # not smaller: served as it is
