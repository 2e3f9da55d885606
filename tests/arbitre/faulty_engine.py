"""A TicTacToe engine of the tests' own that fails as real engines do, at a given ply, run as
a process of its own (``python tests/arbitre/faulty_engine.py``; it prints ``engine on
http://127.0.0.1:PORT`` once it listens), so that a test can kill it mid-match and send it
the failure report's ``curl`` command.

It speaks the engine protocol (the callback to ``Referee`` before answering; tester mode,
an empty ``Referee``: the Value in the body) and plays the first free cell, except on the
request whose ``Turn`` is ``N`` in these paths, where it does the same whoever calls:

- ``/good``: never fails;
- ``/timeout/N``: never answers, never calls back (a hang);
- ``/garbage/N``: answers bytes that are not HTTP, and never calls back;
- ``/error/N``: answers ``500`` with a PHP-like error message, and never calls back;
- ``/illegal/N``: calls back (tester mode: answers) cell 1, whether free or not;
- ``/differ/N``: plays the last free cell instead of the first (a version 2 of ``/good``
  that answers otherwise at that ply: ``tournoyons-gui diff`` finds it);
- ``/hang-at-game/K``: from the first request of the K-th game it is asked in on (told
  apart by their ``Game`` ids), hangs every request: a process stuck mid-match.

``--crash-at-game K``: the process exits on the first request of the K-th game it is
asked in (told apart by their ``Game`` ids), before answering it (a crash mid-match):
every request after that finds no one listening.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import urllib.parse
import urllib.request

ERROR_BODY = b"<b>Fatal error</b>: Uncaught TypeError: move(): Argument #1 in engine.php:12"
GARBAGE = b"\x00\x17engine crashed \xff\xfe core dumped\r\n\r\n"
_crash_at = 0
_games: list[str] = []


def first_free(tray: str) -> str:
    """Return TicTacToe's first free cell (1-9) on an engine Tray."""
    return str(tray.index("0") + 1) if len(tray) == 9 and "0" in tray else "1"


def last_free(tray: str) -> str:
    """Return TicTacToe's last free cell (1-9) on an engine Tray."""
    return str(tray.rindex("0") + 1) if len(tray) == 9 and "0" in tray else "1"


def _response(status: str, body: bytes) -> bytes:
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body


def _call_back(referee: str, params: dict[str, str], value: str) -> None:
    query = urllib.parse.urlencode(
        {"Game": params.get("Game", ""), "MoveId": params.get("MoveId", ""), "Value": value}
    )
    try:
        with urllib.request.urlopen(f"{referee}?{query}", timeout=10) as answer:
            answer.read()
    except OSError:
        pass


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
        writer.close()
        return
    target = head.split(b"\r\n", 1)[0].split(b" ")[1].decode()
    parts = urllib.parse.urlsplit(target)
    params = dict(reversed(urllib.parse.parse_qsl(parts.query, keep_blank_values=True)))
    referee = params.get("Referee", "")
    if not params.get("MoveId"):  # a final call, or a check: nothing to play
        writer.write(_response("200 OK", b"OK"))
        await writer.drain()
        writer.close()
        return
    game = params.get("Game", "")
    if game not in _games:
        _games.append(game)
    if _crash_at and len(_games) >= _crash_at:
        os._exit(3)  # a crash: no answer, nobody listening any more
    kind, _, number = parts.path.strip("/").partition("/")
    turn = params.get("Turn", "")
    stuck = kind == "hang-at-game" and _games.index(game) + 1 >= int(number or 1)
    at = number.isdigit() and turn == number
    value = first_free(params.get("Tray", ""))
    try:
        if (kind == "timeout" and at) or stuck:
            await asyncio.sleep(600)
            return
        if kind == "garbage" and at:
            writer.write(GARBAGE)
        elif kind == "error" and at:
            writer.write(_response("500 Internal Server Error", ERROR_BODY))
        else:
            if kind == "illegal" and at:
                value = "1"
            if kind == "differ" and at:
                value = last_free(params.get("Tray", ""))
            if referee:
                await asyncio.to_thread(_call_back, referee, params, value)
                writer.write(_response("200 OK", b"OK"))
            else:
                writer.write(_response("200 OK", value.encode()))
        await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def _serve(port: int) -> None:
    server = await asyncio.start_server(_handle, "127.0.0.1", port)
    bound = server.sockets[0].getsockname()[1]
    print(f"engine on http://127.0.0.1:{bound}", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    """Serve until killed."""
    global _crash_at
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--crash-at-game", type=int, default=0)
    args = parser.parse_args()
    _crash_at = args.crash_at_game
    try:
        asyncio.run(_serve(args.port))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
