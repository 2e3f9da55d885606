"""The store's interface checks (once held in one process's memory): a check run
by one web process is a row that every process of the database reads, its progress
written as it goes, its report and contact sheet once it ends; a restart keeps them.

A check is held by the worker running it until ``until`` (seconds since the epoch by the
database's clock), renewed with its progress: a worker that dies or stops mid-check stops
renewing it, and the check is then read as ``interrupted`` (and written so by the next
check started, or at once by a worker stopping cleanly), never ``running`` forever. Only
the last :data:`KEPT_CHECKS` checks are kept (their sheets are some hundred KB each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, insert, select, update

from tournoyons_gui.arbitre.store.base import Database, aware
from tournoyons_gui.arbitre.store.records import CheckRun
from tournoyons_gui.arbitre.store.schema import CheckRow

__all__ = ["INTERRUPTED", "KEPT_CHECKS", "CheckStore"]

_CHECKS = cast(Table, CheckRow.__table__)
#: The checks kept (the oldest ones beyond are deleted as a new one starts).
KEPT_CHECKS = 100
#: What an interrupted check says (its worker stopped or died while it ran).
INTERRUPTED = "interrupted: the server running it stopped before it ended"
#: The columns read for a check (the sheet left out: read alone).
_READ = [c for c in _CHECKS.c if c.name not in ("sheet", "owner")]


class CheckStore(Database):
    """Interface checks: started, their progress, their end, read by any worker."""

    def _epoch(self) -> float:
        return self.now().timestamp()

    async def start_check(self, run: CheckRun, owner: str, seconds: float) -> None:
        """Store ``run`` (``running``) held by worker ``owner`` for ``seconds``; mark the
        checks whose worker stopped renewing them as interrupted, and delete those beyond
        the newest :data:`KEPT_CHECKS`."""
        at = self.now()
        row = {
            "id": run.id,
            "interface_id": run.interface_id,
            "name": run.name[:60],
            "url": run.url,
            "set_name": run.set_name,
            "status": "running",
            "done": run.done,
            "total": run.total,
            "label": run.label[:200],
            "error": "",
            "report": None,
            "sheet": None,
            "owner": owner,
            "until": at.timestamp() + seconds,
            "started_at": at,
        }
        kept = select(_CHECKS.c.id).order_by(_CHECKS.c.started_at.desc()).limit(KEPT_CHECKS)
        gone = _gone(at.timestamp())

        def start(connection: Connection) -> None:
            connection.execute(gone)
            connection.execute(insert(_CHECKS), [row])
            # A subquery of the same table: MySQL would refuse it, SQLite and PostgreSQL
            # take it; the ids kept are read first, then the rest deleted.
            ids = list(connection.scalars(kept))
            connection.execute(
                delete(_CHECKS).where(_CHECKS.c.id.not_in(ids), _CHECKS.c.status != "running")
            )

        await self.write(start)

    async def check_progress(
        self, run_id: str, owner: str, done: int, total: int, label: str, seconds: float
    ) -> bool:
        """Write a running check's progress and hold it ``seconds`` more; return whether
        ``owner`` still held it (``False``: it was marked interrupted meanwhile)."""
        statement = (
            update(_CHECKS)
            .where(_CHECKS.c.id == run_id, _CHECKS.c.owner == owner, _CHECKS.c.status == "running")
            .values(done=done, total=total, label=label[:200], until=self._epoch() + seconds)
        )
        return await self.statement(lambda connection: connection.execute(statement).rowcount == 1)

    async def end_check(
        self,
        run_id: str,
        owner: str,
        *,
        error: str = "",
        report: dict[str, Any] | None = None,
        sheet: bytes | None = None,
        done: int | None = None,
        label: str | None = None,
    ) -> bool:
        """End ``owner``'s check: ``done`` with its ``report`` and ``sheet``, or ``failed``
        with its ``error``; return whether it was still running."""
        values: dict[str, Any] = {
            "status": "failed" if error else "done",
            "error": error[:2000],
            "report": report,
            "sheet": sheet or None,
            "ended_at": self.now(),
        }
        if done is not None:
            values["done"] = done
        if label is not None:
            values["label"] = label[:200]
        statement = (
            update(_CHECKS)
            .where(_CHECKS.c.id == run_id, _CHECKS.c.owner == owner, _CHECKS.c.status == "running")
            .values(**values)
        )
        return await self.write(lambda connection: connection.execute(statement).rowcount == 1)

    async def interrupt_checks(self, owner: str, run_ids: Sequence[str] | None = None) -> int:
        """Mark ``owner``'s running checks (those of ``run_ids``, or all) as interrupted
        (the worker stops); return how many."""
        condition = (_CHECKS.c.owner == owner) & (_CHECKS.c.status == "running")
        if run_ids is not None:
            condition = condition & _CHECKS.c.id.in_(list(run_ids))
        statement = (
            update(_CHECKS)
            .where(condition)
            .values(status="interrupted", error=INTERRUPTED, ended_at=self.now())
        )
        return await self.write(lambda connection: int(connection.execute(statement).rowcount))

    async def check(self, run_id: str) -> CheckRun | None:
        """Return a check (a ``running`` one past its hold read as ``interrupted``), or
        ``None``."""
        statement = select(*_READ, (_CHECKS.c.sheet.is_not(None)).label("has_sheet")).where(
            _CHECKS.c.id == run_id
        )
        row = await self.read(lambda connection: connection.execute(statement).one_or_none())
        if row is None:
            return None
        found = CheckRun(**{name: getattr(row, name) for name in CheckRun.__dataclass_fields__})
        if found.started_at is not None:
            found.started_at = aware(found.started_at)
        if found.ended_at is not None:
            found.ended_at = aware(found.ended_at)
        found.has_sheet = bool(found.has_sheet)
        if found.status == "running" and row.until < self._epoch():
            found.status, found.error = "interrupted", INTERRUPTED
        return found

    async def check_sheet(self, run_id: str) -> bytes | None:
        """Return a check's contact sheet (PNG), or ``None``."""
        statement = select(_CHECKS.c.sheet).where(_CHECKS.c.id == run_id)
        found = await self.read(lambda connection: connection.scalar(statement))
        return bytes(found) if found else None


def _gone(at: float) -> Any:
    """Return the statement marking the running checks not renewed by ``at`` (seconds since
    the epoch) as interrupted."""
    return (
        update(_CHECKS)
        .where(_CHECKS.c.status == "running", _CHECKS.c.until < at)
        .values(status="interrupted", error=INTERRUPTED)
    )
