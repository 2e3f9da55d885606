"""HTTP plumbing: the one conditional-GET helper, the 304, the security headers."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from tournoyons_gui.server.http import (
    NotModifiedResponse,
    SecurityHeaders,
    content_security_policy,
    is_not_modified,
    make_page,
    respond,
)

TAG, GZ = '"abc"', '"abc-gz"'


@pytest.mark.parametrize(
    ("header", "held"),
    [
        ("", False),
        ("*", True),
        (TAG, True),
        (GZ, True),
        (f"W/{TAG}", True),
        (f'"x", {TAG}', True),
        (f'"x" , W/{GZ}', True),
        ('"x"', False),
        ('"abc', False),
        ("abc", False),
        ('"x-gz"', False),
    ],
)
def test_is_not_modified(header: str, held: bool) -> None:
    assert is_not_modified(header, TAG, GZ) is held


def test_is_not_modified_only_for_the_tags_given() -> None:
    assert not is_not_modified(GZ, TAG)
    assert not is_not_modified(TAG)


def test_a_304_keeps_only_the_headers_a_304_may_carry() -> None:
    answer = NotModifiedResponse(
        [
            (b"etag", b'"a"'),
            (b"cache-control", b"no-cache"),
            (b"vary", b"Accept-Encoding"),
            (b"content-encoding", b"gzip"),
            (b"content-length", b"12"),
            (b"content-type", b"text/html"),
            (b"expires", b"0"),
        ]
    )
    assert answer.status_code == 304 and answer.body == b""
    assert answer.raw_headers == [
        (b"etag", b'"a"'),
        (b"cache-control", b"no-cache"),
        (b"vary", b"Accept-Encoding"),
        (b"expires", b"0"),
    ]


def _app() -> Starlette:
    page, missing = make_page(b"<p>hello</p>" * 100), make_page(b"<p>no</p>" * 100, 404)

    async def ok(request: Request) -> Response:
        return respond(request, page, "no-cache")

    async def gone(request: Request) -> Response:
        return respond(request, missing, "no-cache")

    async def boom(request: Request) -> Response:
        raise RuntimeError("boom")

    return Starlette(routes=[Route("/", ok), Route("/gone", gone), Route("/boom", boom)])


def test_respond_negotiates_gzip_and_answers_304_for_either_tag() -> None:
    client = TestClient(_app())
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    zipped = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["etag"][:-1] + '-gz"' == zipped.headers["etag"]
    assert zipped.headers["content-encoding"] == "gzip" and plain.content == zipped.content
    for held in (plain.headers["etag"], zipped.headers["etag"], "*"):
        again = client.get("/", headers={"Accept-Encoding": "gzip", "If-None-Match": held})
        assert again.status_code == 304 and again.content == b""
        assert set(again.headers) == {"etag", "cache-control", "vary"}
    # Only a 200 page is ever 304.
    gone = client.get("/gone")
    assert client.get("/gone", headers={"If-None-Match": gone.headers["etag"]}).status_code == 404


def test_security_headers_are_on_every_answer_even_a_500() -> None:
    client = TestClient(
        SecurityHeaders(_app(), frame_ancestors="'self'"), raise_server_exceptions=False
    )
    for url, status in (("/", 200), ("/gone", 404), ("/boom", 500)):
        answer = client.get(url)
        assert answer.status_code == status
        assert answer.headers["content-security-policy"] == content_security_policy("'self'")
        assert answer.headers["x-content-type-options"] == "nosniff"
