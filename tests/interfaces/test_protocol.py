"""The shared protocol layer: names, aliases, decoding, validation (spec sections 2-3)."""

from __future__ import annotations

import pytest

from tournoyons_gui.interfaces.protocol import (
    MAX_WAIT,
    Method,
    Player,
    decode_value,
    error_codes,
    parse_query,
    read_context,
    safe_return_url,
)


def codes(query: str) -> set[str]:
    return {error.code for error in read_context(query).errors}


def test_the_manuals_example_call() -> None:
    ctx = read_context(
        "Set=Chess&Game=CH7613&Mode=standard&Name1=MissOne&Name2=MrTwo&Tray=Init&Input=One"
        "&Return=http://tournoyons.com/arbitre/retour.php"
    )
    assert ctx.set_name == "Chess"
    assert ctx.method is Method.STANDARD
    assert (ctx.name1, ctx.name2) == ("MissOne", "MrTwo")
    assert ctx.tray_is_init
    assert ctx.input is Player.ONE
    assert ctx.url_return == "http://tournoyons.com/arbitre/retour.php"
    assert ctx.errors == ()


def test_names_are_case_insensitive_and_aliases_fold() -> None:
    params = parse_query(b"SET=TicTacToe&mOdE=End&RETURN=http://a/b&urlReturn=http://c/d")
    assert params["set"] == "TicTacToe"
    assert params["method"] == "End"
    # Return and URLReturn are one parameter: the last one given wins, as in annex B.
    assert params["urlreturn"] == "http://c/d"


def test_last_repeated_parameter_wins_and_unknown_ones_are_ignored() -> None:
    ctx = read_context("Tray=111111111&Tray=000000000&Game=X&MoveId=3&Turn=2")
    assert ctx.tray == "000000000"
    assert ctx.errors == ()


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"%E9t%E9", "été"),  # legacy Latin-1, as JavaScript unescape
        (b"%u00E9t%u00E9", "été"),  # %uXXXX
        (b"%C3%A9t%C3%A9", "été"),  # UTF-8
        (b"Miss+One", "Miss One"),
        (b"%uD83D%uDE00", "\U0001f600"),  # a surrogate pair in %u form
        (b"100%", "100%"),  # a lone % stays
        (b"%zz%4", "%zz%4"),
        (b"caf\xc3\xa9", "café"),  # raw UTF-8 bytes
        (b"%C3%28", "Ã("),  # not UTF-8: each byte is Latin-1
        (b"%F0%9F%98%80", "\U0001f600"),
        (b"%uD83D", "\ufffd"),  # a lone surrogate
        (b"%3Cscript%3E", "<script>"),
    ],
)
def test_decode_value(raw: bytes, text: str) -> None:
    assert decode_value(raw) == text


def test_texts_are_decoded_and_kept_as_text() -> None:
    ctx = read_context("Name1=%3Cb%3EAnn%3C/b%3E&Legend=Les+noirs+passent&Count=12%20coups")
    assert ctx.name1 == "<b>Ann</b>"
    assert ctx.legend == "Les noirs passent"
    assert ctx.count == "12 coups"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("standard", Method.STANDARD),
        ("END", Method.END),
        ("None", Method.NONE),
        ("Prepare", Method.PREPARE),
        ("double", Method.DOUBLE),
        ("Inverse", Method.INVERSE),
    ],
)
def test_methods(value: str, expected: Method) -> None:
    assert read_context(f"Method={value}").method is expected


def test_unknown_method_is_standard_with_an_error() -> None:
    ctx = read_context("Method=Sideways")
    assert ctx.method is Method.STANDARD
    assert codes("Method=Sideways") == {"method"}


@pytest.mark.parametrize(
    ("value", "player"),
    [("One", Player.ONE), ("two", Player.TWO), ("ONE", Player.ONE), ("2", Player.TWO)],
)
def test_input(value: str, player: Player) -> None:
    assert read_context(f"Input={value}").input is player


def test_junk_input_asks_nobody() -> None:
    assert read_context("Input=three").input is None
    assert codes("Input=three") == {"input"}


@pytest.mark.parametrize(
    ("value", "color"), [("e0ecff", "#e0ecff"), ("ABC", "#abc"), ("%23123456", "#123456")]
)
def test_color(value: str, color: str) -> None:
    assert read_context(f"Color={value}").color == color


@pytest.mark.parametrize(
    "value", ["red", "e0ecf", "e0ecff;background:url(x)", "12345g", "expression(alert(1))"]
)
def test_color_other_than_hex_is_ignored(value: str) -> None:
    ctx = read_context(f"Color={value}")
    assert ctx.color is None
    assert codes(f"Color={value}") == {"color"}


@pytest.mark.parametrize(
    "url",
    [
        "http://tournoyons.com/arbitre/retour.php",
        "https://a.b/r?x=1",
        "/return?tag=1",
        "retour.php",
        "//host/path",
        "HTTP://A/B",
    ],
)
def test_http_return_urls_are_kept(url: str) -> None:
    assert safe_return_url(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "\x01javascript:alert(1)",
        "java\nscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox",
        "file:///etc/passwd",
        "\\\\evil/share",
        "blob:http://a/b",
    ],
)
def test_other_return_urls_are_refused(url: str) -> None:
    assert safe_return_url(url) is None


def test_refused_return_url_is_an_error() -> None:
    ctx = read_context("URLReturn=javascript%3Aalert(1)")
    assert ctx.url_return is None
    assert codes("URLReturn=javascript%3Aalert(1)") == {"urlreturn"}


def test_wait_in_tenths() -> None:
    assert read_context("Wait=15").wait == 15
    assert read_context("").wait == 0
    assert read_context("Wait=99999999").wait == MAX_WAIT
    assert codes("Wait=99999999") == {"wait"}
    assert read_context("Wait=-3").wait == 0
    assert codes("Wait=1.5") == {"wait"}


def test_mute_is_any_value() -> None:
    assert read_context("Mute").mute
    assert read_context("Mute=non").mute
    assert not read_context("Set=x").mute


@pytest.mark.parametrize(
    ("value", "on"),
    [
        ("yes", True),
        ("oui", True),
        ("1", True),
        ("", False),
        ("no", False),
        ("non", False),
        ("0", False),
        ("false", False),
    ],
)
def test_webtest(value: str, on: bool) -> None:
    assert read_context(f"WebTest={value}").webtest is on


def test_empty_values_are_absent() -> None:
    ctx = read_context("Tray=&Move1=&Gain1=&Set=")
    assert (ctx.tray, ctx.move1, ctx.gain1, ctx.set_name) == (None, None, None, None)


def test_error_codes_are_distinct_and_ordered() -> None:
    ctx = read_context("Color=x&Wait=x&Color=y&Input=x")
    assert error_codes(ctx.errors) == "input color wait"


def test_huge_and_junk_values_never_raise() -> None:
    junk = bytes(range(256)) * 50
    ctx = read_context(b"Name1=" + junk + b"&Legend=" + b"%" * 5000 + b"&=&&&==&Tray=" + junk)
    assert len(ctx.name1) <= 2000
