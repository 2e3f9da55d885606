"""Default names of engines given by URL (:mod:`tournoyons_gui.arbitre.naming`): pure, no
server. The host alone when it tells the engines apart; the port and the path when they
are what tells apart the engines of one host."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournoyons_gui.arbitre.naming import MAX_NAME, engine_names


def test_two_engines_of_one_host_are_told_apart_by_port_and_path() -> None:
    assert engine_names(["http://127.0.0.1:8001/tictactoe/", "http://127.0.0.1:8080/"]) == [
        "127.0.0.1:8001/tictactoe",
        "127.0.0.1:8080",
    ]


@pytest.mark.parametrize(
    ("urls", "names"),
    [
        # hosts alone differ: just the hosts
        (["http://a.example:8001/x", "https://B.example/y/"], ["a.example", "b.example"]),
        # one engine alone: its host
        (["http://127.0.0.1:9000/reversi"], ["127.0.0.1"]),
        # the ports differ, the path is shared
        (["http://h:8001/ttt", "http://h:8002/ttt"], ["h:8001", "h:8002"]),
        # the paths differ, the port is shared; inner slashes kept
        (["http://h:8001/ttt", "http://h:8001/a/b/"], ["h/ttt", "h/a/b"]),
        # per host: a's port and path matter, b's do not
        (
            ["http://a:1/x", "http://a:2/x", "http://b:3/y", "http://a:1/z"],
            ["a:1/x", "a:2/x", "b", "a:1/z"],
        ),
        # a scheme's default port is no port
        (["http://h/", "http://h:80/", "https://h:443/"], ["h", "h", "h"]),
        (["http://h/", "http://h:8080/"], ["h", "h:8080"]),
        # IPv6 in brackets, as in a URL
        (["http://[::1]:8001/", "http://[::1]:8002/"], ["[::1]:8001", "[::1]:8002"]),
        # the same engine twice: one name, the caller tells them apart
        (["http://h:1/", "http://h:1/"], ["h", "h"]),
        # malformed: still a name, the URL's check refuses it later
        (["http://h:99999/", "not a url"], ["h", "engine"]),
        ([], []),
    ],
)
def test_names(urls: list[str], names: list[str]) -> None:
    assert engine_names(urls) == names


def test_a_long_name_is_cut_to_leave_room_for_a_number() -> None:
    name = engine_names([f"http://{'a' * 40}.example/{'p' * 40}", f"http://{'a' * 40}.example/"])[0]
    assert len(name) == MAX_NAME and name.startswith("a" * 40)


_hosts = st.sampled_from(["127.0.0.1", "a.example", "[::1]"])
_ports = st.sampled_from(["", ":8001", ":8080"])
_paths = st.sampled_from(["", "/", "/t", "/t/", "/u/v"])


@given(st.lists(st.tuples(_hosts, _ports, _paths), max_size=8))
def test_urls_that_differ_in_host_port_or_path_get_different_names(
    parts: list[tuple[str, str, str]],
) -> None:
    urls = [f"http://{host}{port}{path}" for host, port, path in parts]
    names = engine_names(urls)
    assert len(names) == len(urls)
    for i, j in itertools.combinations(range(len(urls)), 2):
        same = parts[i][:2] == parts[j][:2] and parts[i][2].strip("/") == parts[j][2].strip("/")
        assert (names[i] == names[j]) == same, (urls[i], urls[j], names)
