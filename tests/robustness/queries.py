"""Generated query strings for fuzzing a Set: random and near-valid, derived generically.

Nothing here knows a game: a Set's alphabet and Tray length come from its ``sample`` context
and from the values its ``build()`` says are playable there, so a third-party Set is fuzzed
exactly as a built-in one is.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method, read_context

__all__ = ["Shape", "encode", "random_queries", "shape_of"]

# Every parameter of spec section 2, the aliases, and a few the Arbitre sends that we ignore.
NAMES = (
    "Set",
    "Method",
    "Mode",
    "Tray",
    "Move1",
    "Move2",
    "Gain1",
    "Gain2",
    "Input",
    "Name1",
    "Name2",
    "Legend",
    "Count",
    "Color",
    "URLReturn",
    "Return",
    "Wait",
    "Mute",
    "WebTest",
    "Game",
    "MoveId",
    "Turn",
)
METHODS = (*(m.value for m in Method), "Standard", "END", "nOnE", "Prepare", "", "Bogus", "0")
INPUTS = ("One", "Two", "one", "TWO", "1", "2", "0", "3", "Three", "", " One ", "-1")
COLORS = ("ff0000", "#00F", "abc", "#12345", "red", "red;background:url(javascript:1)", "")
URLS = (
    "http://example.com/r",
    "https://x.test/r?a=1",
    "//host/p",
    "/return?tag=fuzz",
    "javascript:alert(1)",
    "data:text/html,x",
    " \tjava\nscript:1",
    "",
    "ftp://x",
)
WAITS = ("0", "5", "600", "601", "99999999999999999999", "-1", "1.5", "x", "")
JUNK = "\x00\x01\x1f\x7f<>\"'&;=%+#?/\\ éÿ\u2028\ufeff😀\U0010ffff"


@dataclass(frozen=True)
class Shape:
    """What a Set's values look like, read from its sample context."""

    tray: str
    alphabet: str
    values: tuple[str, ...]


def shape_of(interface: SetInterface) -> Shape:
    """Return the Set's sample Tray, the characters of its values, and sample values."""
    sample = dict(interface.sample)
    view = interface.build(read_context({k.lower(): v for k, v in sample.items()}))
    values = (
        tuple(
            v
            for k, v in sample.items()
            if k.lower() in ("move1", "move2", "gain1", "gain2", "tray")
        )
        + tuple(view.playable)
        + (view.tray,)
    )
    alphabet = "".join(sorted(set("".join(values)) | set("0123456789")))
    return Shape(tray=view.tray or sample.get("Tray", ""), alphabet=alphabet, values=values)


def odd_case(rng: random.Random, name: str) -> str:
    """Return ``name`` as written, lower, upper, or in random case."""
    pick = rng.random()
    if pick < 0.5:
        return name
    if pick < 0.6:
        return name.lower()
    if pick < 0.7:
        return name.upper()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in name)


def mutate(rng: random.Random, text: str, alphabet: str) -> str:
    """Return ``text`` with a few characters replaced, inserted, deleted, or cut short."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        where = rng.randint(0, len(chars))
        if op < 0.4 and chars:
            chars[min(where, len(chars) - 1)] = rng.choice(alphabet)
        elif op < 0.7:
            chars.insert(where, rng.choice(alphabet))
        elif chars:
            del chars[min(where, len(chars) - 1)]
    if rng.random() < 0.1:
        chars = chars[: rng.randint(0, len(chars))]
    return "".join(chars)


def value_for(rng: random.Random, name: str, shape: Shape) -> str:
    """Return a value for parameter ``name``: near-valid most of the time, else hostile."""
    key = name.lower()
    pick = rng.random()
    if pick < 0.04:
        return "".join(rng.choice(JUNK + shape.alphabet) for _ in range(rng.randint(0, 40)))
    if pick < 0.041:  # huge: past MAX_TEXT, now and then far past it
        return rng.choice(shape.alphabet + "9x") * rng.choice((2500, 2500, 2500, 60000))
    if key in ("method", "mode"):
        return rng.choice(METHODS)
    if key == "input":
        return rng.choice(INPUTS)
    if key == "color":
        return rng.choice(COLORS)
    if key in ("urlreturn", "return"):
        return rng.choice(URLS)
    if key == "wait":
        return rng.choice(WAITS)
    if key == "tray":
        r = rng.random()
        if r < 0.1:
            return rng.choice(("Init", "init", "INIT", "", " "))
        if r < 0.35:
            return shape.tray
        if r < 0.75:
            return mutate(rng, shape.tray, shape.alphabet)
        size = max(0, len(shape.tray) + rng.randint(-3, 3))
        return "".join(rng.choice(shape.alphabet) for _ in range(size))
    if key in ("move1", "move2", "gain1", "gain2"):
        seed = rng.choice(shape.values)
        r = rng.random()
        if r < 0.4:
            return seed[:40] if len(seed) > 60 else seed
        if r < 0.8:
            return mutate(rng, seed[:40], shape.alphabet)
        return "".join(rng.choice(shape.alphabet) for _ in range(rng.randint(0, 12)))
    if key in ("name1", "name2", "legend", "count"):
        return "".join(rng.choice(string.printable + "éà€😀") for _ in range(rng.randint(0, 20)))
    if key == "set":
        return rng.choice(("TicTacToe", "Pente", "nim", "Nope", ""))
    return "".join(rng.choice(shape.alphabet) for _ in range(rng.randint(0, 6)))


def encode(rng: random.Random, text: str) -> bytes:
    """Return ``text`` percent-encoded in one of the ways a host (or an attacker) might."""
    pick = rng.random()
    if pick < 0.45:
        return quote(text, safe="").encode()
    if pick < 0.6:  # legacy %uXXXX escapes, as JavaScript escape() writes them
        return "".join(_escape_u(c) for c in text).encode()
    if pick < 0.7:  # Latin-1 bytes, as unescape() would expect
        return quote(text.encode("latin-1", errors="replace"), safe="").encode()
    if pick < 0.85:  # raw, unencoded bytes (& and = included: they split the pair)
        return text.encode("utf-8", errors="surrogatepass")
    # broken escapes sprinkled in
    out = quote(text, safe="")
    for _ in range(rng.randint(1, 3)):
        where = rng.randint(0, len(out))
        out = (
            out[:where]
            + rng.choice(
                (
                    "%",
                    "%z",
                    "%4",
                    "%u",
                    "%u12",
                    "%uD800",
                    "%uDC00",
                    "%%",
                    "%G0",
                    "%u00e9",
                    "%C3",
                    "%FF%FE",
                )
            )
            + out[where:]
        )
    return out.encode()


def _escape_u(c: str) -> str:
    if c.isascii() and c.isalnum():
        return c
    if ord(c) < 0x100:
        return f"%{ord(c):02X}"
    data = c.encode("utf-16-be", errors="surrogatepass")
    return "".join(f"%u{data[i]:02X}{data[i + 1]:02X}" for i in range(0, len(data), 2))


def random_query(rng: random.Random, shape: Shape) -> bytes:
    """Return one query string: each parameter absent, present, or repeated, in any order."""
    pairs: list[bytes] = []
    for name in NAMES:
        r = rng.random()
        if r < 0.45:
            continue
        for _ in range(1 if r < 0.9 else rng.randint(2, 3)):
            written = odd_case(rng, name)
            if rng.random() < 0.03:
                pairs.append(written.encode())  # a name without "="
                continue
            pairs.append(encode(rng, written) + b"=" + encode(rng, value_for(rng, name, shape)))
    if rng.random() < 0.05:
        pairs.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 30))))
    rng.shuffle(pairs)
    separator = b"&" if rng.random() < 0.95 else rng.choice((b"&&", b";", b"&amp;"))
    return separator.join(pairs)


def random_queries(interface: SetInterface, count: int, seed: int = 0) -> Iterator[bytes]:
    """Yield ``count`` query strings for ``interface``, the same ones for the same seed."""
    rng = random.Random(f"{interface.key}:{seed}")
    shape = shape_of(interface)
    for _ in range(count):
        yield random_query(rng, shape)
