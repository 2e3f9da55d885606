"""Our built-in engines called in process (:mod:`tournoyons_gui.arbitre.builtins`): a fast
engine runs on the event loop once timed, a slow one in a thread, and one slow call sends
a fast engine to a thread for a few calls only (not for good)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Mapping

from tournoyons_gui.arbitre.builtins import TIMED_CALLS, EngineRunner


def test_an_engine_runs_where_its_recent_calls_say() -> None:
    async def run() -> None:
        runner = EngineRunner()
        pause = {"seconds": 0.0}
        where: list[bool] = []  # True: on the event loop's thread

        def engine(params: Mapping[str, str]) -> str:
            where.append(threading.current_thread() is threading.main_thread())
            time.sleep(pause["seconds"])
            return "5"

        name = ("tictactoe", "test")
        for _ in range(TIMED_CALLS):
            assert await runner.call(name, engine, {}) == "5"
        assert not any(where) and runner.inline(name)  # timed in a thread, then inline
        await runner.call(name, engine, {})
        assert where[-1]
        pause["seconds"] = 0.05  # one pause of the whole process
        await runner.call(name, engine, {})
        pause["seconds"] = 0.0
        assert not runner.inline(name)
        await runner.call(name, engine, {})
        assert not where[-1]  # in a thread a while
        for _ in range(40):
            await runner.call(name, engine, {})
        assert runner.inline(name) and where[-1]  # back on the loop
        slow = ("connectfour", "slow")

        def thinker(params: Mapping[str, str]) -> str:
            time.sleep(0.004)
            return "A"

        for _ in range(TIMED_CALLS + 5):
            await runner.call(slow, thinker, {})
        assert not runner.inline(slow)

    asyncio.run(run())
