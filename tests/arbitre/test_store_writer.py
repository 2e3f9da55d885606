"""The SQLite writer's group commit (``Database.write``): writes asked together share one
transaction, each in a savepoint, so one that fails is rolled back alone; each caller
hears of its own write only once it is committed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Connection, event, insert, select

from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.store.schema import MetaRow


def test_writes_asked_together_commit_once_and_fail_alone(tmp_path: Path) -> None:
    """Twenty writes asked at once: the one that raises after writing leaves nothing,
    the nineteen others are all there, and they took fewer commits than writes."""

    async def run() -> tuple[int, list[str], list[str | BaseException]]:
        store = await Store.open(str(tmp_path / "a.sqlite3"))
        commits = 0

        def counted(_connection: object) -> None:
            nonlocal commits
            commits += 1

        assert store._sync is not None
        event.listen(store._sync, "commit", counted)

        def put(key: str, fail: bool) -> Callable[[Connection], str]:
            def work(connection: Connection) -> str:
                connection.execute(insert(MetaRow).values(key=key, value="x"))
                if fail:
                    raise RuntimeError(f"{key} failed after writing")
                return key

            return work

        results = await asyncio.gather(
            *(store.write(put(f"k{n}", n == 7)) for n in range(20)), return_exceptions=True
        )
        async with store.sessions() as session:
            keys = sorted(await session.scalars(select(MetaRow.key).where(MetaRow.key.like("k%"))))
        await store.close()
        return commits, keys, results

    commits, keys, results = asyncio.run(run())
    assert keys == sorted(f"k{n}" for n in range(20) if n != 7)
    assert isinstance(results[7], RuntimeError) and "k7 failed" in str(results[7])
    assert [r for n, r in enumerate(results) if n != 7] == [f"k{n}" for n in range(20) if n != 7]
    assert 1 <= commits < 20


def test_a_write_alone_that_fails_leaves_nothing(tmp_path: Path) -> None:
    """A write alone in its transaction that raises after writing is rolled back whole,
    and the next write goes on."""

    async def run() -> list[str]:
        store = await Store.open(str(tmp_path / "b.sqlite3"))

        def broken(connection: Connection) -> None:
            connection.execute(insert(MetaRow).values(key="half", value="x"))
            raise ValueError("broken")

        with pytest.raises(ValueError, match="broken"):
            await store.write(broken)
        await store.write(lambda c: c.execute(insert(MetaRow).values(key="whole", value="y")))
        async with store.sessions() as session:
            found = sorted(await session.scalars(select(MetaRow.key)))
        await store.close()
        return found

    found = asyncio.run(run())
    assert "whole" in found and "half" not in found
