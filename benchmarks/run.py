"""Benchmark every registered Set against its floors and print one table of ratios.

    .venv/bin/python benchmarks/run.py            # the full run (about 7 minutes)
    .venv/bin/python benchmarks/run.py --quick    # a smoke run, a few seconds per measure
    .venv/bin/python benchmarks/run.py --sets tictactoe,pente

Everything listens on 127.0.0.1 and every load is bounded in time or count. Needs wrk and
nginx (Debian: ``apt-get install wrk nginx-light``), a Chromium (``TOURNOYONS_CHROMIUM``,
else one on the PATH: ``scripts/_bootstrap.py``, which also holds the launch flags) and the
project's test extra (uvloop, httptools, playwright); it installs nothing and says what is
missing. Measures, per Set:

- rps, p50, p99 of a repeated query and of unique queries (every request a new
  ``Name2``: a new context), and of the same bytes from a constant Starlette route on the
  same stack (the framework's floor, best of two alternations with the repeated query)
  and from nginx (the machine's floor); wrk, one thread;
- a conditional request (``If-None-Match`` -> 304) and its rate;
- load: 60 s at 300 requests/s on 100 connections, every Set in turn, its sample query
  with one request in ten a new context (a paced client: wrk cannot pace): errors, p99;
- browser: median time from navigation start to ``html[data-ready="true"]`` over 20 loads
  in headless Chromium at 736x660 with ``Wait=0``, each a new query string after one load
  that fills the HTTP cache (a referee loads a page per move in one iframe), against the
  load event of the original TicTacToe page served by nginx, timed the same way; and the
  same time for a first view in a new context ("cold");
- bytes transferred (CDP), first view and repeat view (new query string, assets cached);
- memory: the server's RSS after 10,000 requests (unique queries, every Set).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.loadgen import run_load  # noqa: E402
from scripts._bootstrap import CHROMIUM_FLAGS, system_chromium  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

REFERENCE = ROOT.parent / "shared" / "reference" / "annex-b-tictactoe.html"
ACCEPT = "gzip, deflate, br"  # what Chromium sends
GOAL_REPEAT = 0.8  # repeated query / constant route
GOAL_UNIQUE = {"tictactoe": 0.5, "pente": 0.25}  # unique queries / constant route
GOAL_FIRST_KB, GOAL_REPEAT_KB, GOAL_RSS_MB = 40.0, 12.0, 80.0


@dataclass
class Plan:
    """How long each measure runs."""

    wrk_seconds: int
    wrk_connections: int
    load_seconds: int
    load_rate: int
    load_connections: int
    browser_loads: int
    memory_requests: int


FULL = Plan(5, 32, 60, 300, 100, 20, 10_000)
QUICK = Plan(1, 8, 1, 100, 20, 1, 200)


@dataclass
class Row:
    """One Set's measures."""

    key: str
    name: str
    query: str
    size: int = 0
    wrk: dict[str, dict[str, float]] = field(default_factory=dict)
    not_modified: bool = False
    ready_ms: float = float("nan")
    cold_ms: float = float("nan")
    first_kb: float = float("nan")
    repeat_kb: float = float("nan")
    load_errors: int = 0
    load_p99: float = float("nan")


# --- prerequisites -----------------------------------------------------------------------


def missing() -> list[str]:
    """Return what this machine lacks for the benchmark, each with how to get it."""
    lacks = []
    for tool, how in (("wrk", "apt-get install wrk"), ("nginx", "apt-get install nginx-light")):
        if not shutil.which(tool) and not Path(f"/usr/sbin/{tool}").exists():
            lacks.append(f"{tool} ({how})")
    if system_chromium() is None:
        lacks.append("Chromium (apt-get install chromium, or set TOURNOYONS_CHROMIUM)")
    for module in ("uvloop", "httptools", "playwright", "uvicorn", "starlette"):
        try:
            __import__(module)
        except ImportError:
            lacks.append(f"Python module {module} (pip install -e '.[test]')")
    return lacks


# --- processes ---------------------------------------------------------------------------


def free_port() -> int:
    """Return a port free on 127.0.0.1 just now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_http(url: str, seconds: float = 20.0) -> None:
    """Wait until ``url`` answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@contextmanager
def uvicorn_server(*args: str) -> Iterator[tuple[int, int]]:
    """Run ``benchmarks/serve.py ARGS``; yield (port, pid)."""
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("serve.py")), *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("port "):
            raise RuntimeError(f"server did not start: {line!r}")
        port = int(line.split()[1])
        wait_http(
            f"http://127.0.0.1:{port}/healthz" if args[0] == "app" else f"http://127.0.0.1:{port}/"
        )
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def nginx_server(root: Path) -> Iterator[int]:
    """Serve the files of ``root`` with nginx on 127.0.0.1 (one worker); yield the port."""
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(f"""
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {root}/t1; proxy_temp_path {root}/t2; fastcgi_temp_path {root}/t3;
  uwsgi_temp_path {root}/t4; scgi_temp_path {root}/t5;
  types {{ text/html html bin; }}
  server {{ listen 127.0.0.1:{port}; root {root}/www; }}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-c", str(conf), "-p", str(root)], stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/alive.html")
        yield port
    finally:
        process.terminate()
        process.wait(10)


def rss_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- wrk ---------------------------------------------------------------------------------

UNIQUE_LUA = """
local prefix
local counter = 0
function init(args) prefix = args[1] end
function request()
  counter = counter + 1
  return wrk.format("GET", prefix .. counter, {["Accept-Encoding"] = "ACCEPT"})
end
""".replace("ACCEPT", ACCEPT)


def _seconds(text: str) -> float:
    for unit, scale in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text)


def wrk(
    url: str,
    plan: Plan,
    *,
    headers: dict[str, str] | None = None,
    script: Path | None = None,
    script_args: tuple[str, ...] = (),
) -> dict[str, float]:
    """Run wrk (one thread) on ``url``; return rps, p50 and p99 (ms) and bad answers."""
    cmd = ["wrk", "-t1", f"-c{plan.wrk_connections}", f"-d{plan.wrk_seconds}s", "--latency"]
    for name, value in (headers or {}).items():
        cmd += ["-H", f"{name}: {value}"]
    if script:
        cmd += ["-s", str(script)]
    cmd.append(url)
    if script_args:
        cmd += ["--", *script_args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    found: dict[str, float] = {"bad": 0.0}
    for line in out.splitlines():
        words = line.split()
        if line.startswith("Requests/sec:"):
            found["rps"] = float(words[1])
        elif words[:1] == ["50%"]:
            found["p50"] = _seconds(words[1]) * 1000
        elif words[:1] == ["99%"]:
            found["p99"] = _seconds(words[1]) * 1000
        elif line.strip().startswith(("Non-2xx", "Socket errors")):
            found["bad"] += sum(int(w.strip(",")) for w in words if w.strip(",").isdigit())
    return found


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``url``; return status, headers and the raw (still encoded) body."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


# --- browser -----------------------------------------------------------------------------

READY_PROBE = """
(() => {
  const seen = () => {
    if (document.documentElement && document.documentElement.dataset.ready === "true"
        && window.__readyAt === undefined) window.__readyAt = performance.now();
  };
  new MutationObserver(seen).observe(document, {attributes: true, subtree: true,
                                                attributeFilter: ["data-ready"]});
})();
"""


def browser_measures(port: int, nginx_port: int, rows: list[Row], plan: Plan) -> float:
    """Fill ready_ms, first_kb and repeat_kb of ``rows``; return the reference's load ms."""
    from playwright.sync_api import sync_playwright

    viewport: ViewportSize = {"width": 736, "height": 660}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=system_chromium(), args=list(CHROMIUM_FLAGS))
        try:
            reference = math.nan  # without the reference page, its column is empty
            if REFERENCE.exists():
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                loads = []
                for n in range(plan.browser_loads + 1):
                    page.goto(
                        f"http://127.0.0.1:{nginx_port}/reference.html?{n}", wait_until="load"
                    )
                    loads.append(
                        page.evaluate(
                            "performance.getEntriesByType('navigation')[0].loadEventStart"
                        )
                    )
                context.close()
                reference = statistics.median(loads[1:])
            for row in rows:
                # one context per Set: the first load fills the HTTP cache (the referee
                # loads a new page per move in the same iframe), the next ones are timed
                context = browser.new_context(viewport=viewport)
                context.add_init_script(READY_PROBE)
                page = context.new_page()
                times = []
                for n in range(plan.browser_loads + 1):
                    page.goto(
                        f"http://127.0.0.1:{port}/{row.key}/?{row.query}&Wait=0&Name2=B{n}",
                        wait_until="commit",
                    )
                    page.wait_for_selector(
                        "html[data-ready='true']", state="attached", timeout=20_000
                    )
                    times.append(page.evaluate("window.__readyAt"))
                context.close()
                row.ready_ms = statistics.median(times[1:])
                row.first_kb, row.repeat_kb, row.cold_ms = _view_bytes(browser, port, row, viewport)
            return float(reference)
        finally:
            browser.close()


def _view_bytes(
    browser: Any, port: int, row: Row, viewport: ViewportSize
) -> tuple[float, float, float]:
    """Return the KB transferred by a first and a repeat view, and the first's ready ms."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(READY_PROBE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    total = [0.0]
    cdp.on(
        "Network.loadingFinished", lambda e: total.__setitem__(0, total[0] + e["encodedDataLength"])
    )
    sizes = []
    cold = float("nan")
    for name in ("First", "Repeat"):
        total[0] = 0.0
        page.goto(
            f"http://127.0.0.1:{port}/{row.key}/?{row.query}&Wait=0&Name2=View{name}",
            wait_until="networkidle",
        )
        page.wait_for_selector("html[data-ready='true']", state="attached")
        sizes.append(total[0] / 1024)
        if name == "First":
            cold = float(page.evaluate("window.__readyAt"))
    context.close()
    return sizes[0], sizes[1], cold


# --- the run -----------------------------------------------------------------------------


def sample_rows(only: set[str] | None) -> list[Row]:
    """Return one row per registered Set, with its sample query less Name2."""
    from tournoyons_gui.interfaces.registry import load_registry

    rows = []
    for interface in load_registry():
        if only and interface.key not in only:
            continue
        params = {k: v for k, v in interface.sample.items() if k != "Name2"}
        rows.append(Row(interface.key, interface.name, urlencode(params)))
    return rows


def run(plan: Plan, only: set[str] | None) -> str:
    """Measure everything; return the table (markdown)."""
    rows = sample_rows(only)
    work = Path(tempfile.mkdtemp(prefix="tournoyons-bench-"))
    os.chmod(work, 0o755)
    (work / "www").mkdir()
    os.chmod(work / "www", 0o755)
    (work / "www" / "alive.html").write_text("alive")  # what nginx is waited for with
    if REFERENCE.exists():  # not the project's to publish: beside the repository, or not
        shutil.copy(REFERENCE, work / "www" / "reference.html")
    lua = work / "unique.lua"
    lua.write_text(UNIQUE_LUA)
    loadavg = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M")
    extra: dict[str, float] = {}
    try:
        with uvicorn_server("app") as (port, pid):
            base = f"http://127.0.0.1:{port}"
            # memory first, on a fresh server
            extra["rss_start"] = rss_mb(pid)
            targets = [
                (r.key, f"/{r.key}/?{r.query}&Name2=M{i}")
                for i in range(plan.memory_requests)
                for r in rows
            ]
            asyncio.run(
                run_load(
                    port,
                    targets[: plan.memory_requests],
                    total=plan.memory_requests,
                    connections=10,
                    rate=None,
                )
            )
            extra["rss"] = rss_mb(pid)
            _progress("memory", f"{extra['rss']:.1f} MB")
            for row in rows:
                path = f"/{row.key}/?{row.query}&Name2=MrTwo"
                status, headers, body = fetch(base + path, {"Accept-Encoding": ACCEPT})
                assert status == 200, (row.key, status)
                row.size = len(body)
                (work / "www" / f"{row.key}.bin").write_bytes(body)
                floor_headers = {
                    k: v
                    for k, v in headers.items()
                    if k.lower()
                    in (
                        "etag",
                        "cache-control",
                        "content-security-policy",
                        "x-content-type-options",
                        "content-encoding",
                        "vary",
                    )
                }
                (work / f"{row.key}.json").write_text(json.dumps(floor_headers))
                gz = {"Accept-Encoding": ACCEPT}
                unique = f"/{row.key}/?{row.query}&Name2=U"
                etag = headers.get("etag", headers.get("ETag", ""))
                status, _, _ = fetch(base + path, {"If-None-Match": etag, **gz})
                row.not_modified = status == 304
                # the floor runs beside the server, measured right after it: same load
                with uvicorn_server(
                    "floor", str(work / "www" / f"{row.key}.bin"), str(work / f"{row.key}.json")
                ) as (floor_port, _):
                    # best of two alternations: the machine may be shared
                    for _ in range(2):
                        _best(row.wrk, "repeat", wrk(base + path, plan, headers=gz))
                        _best(
                            row.wrk,
                            "const",
                            wrk(f"http://127.0.0.1:{floor_port}/{row.key}/", plan, headers=gz),
                        )
                    row.wrk["unique"] = wrk(base + unique, plan, script=lua, script_args=(unique,))
                    row.wrk["304"] = wrk(base + path, plan, headers={"If-None-Match": etag, **gz})
                _progress(row.key, row.wrk)
            # load: every Set in turn, its sample query, one request in ten a new context
            total = plan.load_seconds * plan.load_rate
            targets = [
                (r.key, f"/{r.key}/?{r.query}&Name2=" + ("MrTwo" if i % 10 else f"L{i}"))
                for i in range(total // len(rows) + 1)
                for r in rows
            ]
            load = asyncio.run(
                run_load(
                    port,
                    targets,
                    total=total,
                    connections=plan.load_connections,
                    rate=plan.load_rate,
                )
            )
            extra["load_errors"] = load.errors
            extra["load_p99"] = load.percentile(0.99) * 1000
            extra["load_rps"] = load.sent / load.seconds
            for row in rows:
                row.load_errors = load.failures.get(row.key, 0)
                row.load_p99 = load.percentile(0.99, row.key) * 1000
            _progress("load", extra)
            with nginx_server(work) as nginx_port:
                for row in rows:
                    row.wrk["nginx"] = wrk(f"http://127.0.0.1:{nginx_port}/{row.key}.bin", plan)
                extra["reference_ms"] = browser_measures(port, nginx_port, rows, plan)
                _progress("browser", extra["reference_ms"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return table(rows, plan, extra, loadavg, started)


def _best(measures: dict[str, dict[str, float]], name: str, new: dict[str, float]) -> None:
    if name not in measures or new["rps"] > measures[name]["rps"]:
        measures[name] = new


def _progress(what: str, value: object) -> None:
    print(f"  .. {what}: {value}", file=sys.stderr, flush=True)


def table(
    rows: list[Row],
    plan: Plan,
    extra: dict[str, float],
    loadavg: tuple[float, float, float],
    started: str,
) -> str:
    """Return the results as a markdown table with a header of conditions and goals."""
    cpus = os.cpu_count()
    lines = [
        f"Benchmark {started}, {cpus} CPUs, load average "
        f"{loadavg[0]:.2f} {loadavg[1]:.2f} {loadavg[2]:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at end; wrk -t1 -c{plan.wrk_connections} "
        f"-d{plan.wrk_seconds}s, Accept-Encoding: gzip.",
        "",
        "| Set | page B | repeat rps (p50/p99 ms) | unique rps (p50/p99 ms) | const rps "
        "| nginx rps | repeat/const | unique/const | 304 rps | load err, p99 ms "
        "| ready ms (/ref), cold | first KB | repeat KB |",
        "|" + "---|" * 13,
    ]
    ref = extra.get("reference_ms", float("nan"))
    for r in rows:
        rep, uni, const = r.wrk["repeat"], r.wrk["unique"], r.wrk["const"]
        unique_goal = GOAL_UNIQUE.get(r.key)
        rep_ratio = rep["rps"] / const["rps"]
        uni_ratio = uni["rps"] / const["rps"]
        lines.append(
            f"| {r.name} | {r.size} | {rep['rps']:.0f} ({rep['p50']:.1f}/{rep['p99']:.1f}) "
            f"| {uni['rps']:.0f} ({uni['p50']:.1f}/{uni['p99']:.1f}) | {const['rps']:.0f} "
            f"| {r.wrk['nginx']['rps']:.0f} "
            f"| {rep_ratio:.2f}{_mark(rep_ratio >= GOAL_REPEAT)} "
            f"| {uni_ratio:.2f}"
            f"{_mark(uni_ratio >= unique_goal) if unique_goal else ''} "
            f"| {r.wrk['304']['rps']:.0f}{'' if r.not_modified else ' (no 304!)'} "
            f"| {r.load_errors}{_mark(r.load_errors == 0)}, {r.load_p99:.1f} "
            f"| {r.ready_ms:.0f} ({r.ready_ms / ref:.2f}{_mark(r.ready_ms <= ref)}), "
            f"cold {r.cold_ms:.0f} "
            f"| {r.first_kb:.1f}{_mark(r.first_kb <= GOAL_FIRST_KB)} "
            f"| {r.repeat_kb:.1f}{_mark(r.repeat_kb <= GOAL_REPEAT_KB)} |"
        )
    bad = sum(r.wrk[k]["bad"] for r in rows for k in r.wrk)
    lines += [
        "",
        f"Original TicTacToe page (nginx), load event: {ref:.0f} ms median; ready ms: "
        f"median of {plan.browser_loads} loads with the HTTP cache warm (a new query "
        "string each), cold: a first view in a new context. "
        f"Load: {plan.load_seconds} s at {plan.load_rate} requests/s on "
        f"{plan.load_connections} connections, every Set in turn, one request in ten a new "
        "context: "
        f"{extra['load_errors']:.0f} errors{_mark(extra['load_errors'] == 0)}, "
        f"p99 {extra['load_p99']:.1f} ms, {extra['load_rps']:.0f} requests/s sent. "
        f"Memory: RSS {extra['rss_start']:.1f} MB at start, {extra['rss']:.1f} MB after "
        f"{plan.memory_requests} requests{_mark(extra['rss'] <= GOAL_RSS_MB)}. "
        f"Bad answers under wrk: {bad:.0f}.",
        "Goals (✓ met, ✗ missed): repeat/const ≥ 0.8; unique/const ≥ 0.5 TicTacToe, "
        "≥ 0.25 Pente; load errors 0; ready/ref ≤ 1.0; first view ≤ 40 KB; repeat view "
        "≤ 12 KB; RSS ≤ 80 MB.",
    ]
    return "\n".join(lines)


def _mark(ok: bool) -> str:
    return " ✓" if ok else " ✗"


def main(argv: list[str] | None = None) -> int:
    """Parse the options, check the prerequisites, run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--sets", help="comma-separated Set keys (default: every Set)")
    args = parser.parse_args(argv)
    lacks = missing()
    if lacks:
        print("benchmarks/run.py: missing:\n  " + "\n  ".join(lacks), file=sys.stderr)
        return 2
    only = set(args.sets.lower().split(",")) if args.sets else None
    print(run(QUICK if args.quick else FULL, only), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
