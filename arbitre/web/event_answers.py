"""What the live streams send (``text/event-stream``), as pydantic models: each event's data
schema in the OpenAPI document (:mod:`.openapi`), beside the JSON answers of
:mod:`.answers`. A game's stream sends ``move`` events, a tournament's ``progress`` and
``game`` events."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["GameEndedEvent", "MoveEvent", "ProgressEvent"]


class MoveEvent(BaseModel):
    """A game's ``move`` event: how many moves its record holds, whether it is over, and
    while a person is asked, which seat (its index, from 0). Read the record for the rest."""

    moves: int
    over: bool
    asked: int | None = Field(None, description="The seat a person plays, asked now.")


class ProgressEvent(BaseModel):
    """A tournament's ``progress`` event: its status and its games (as its ``progress``)."""

    status: str = Field(description="running, then over (played out or cancelled).")
    planned: int
    over: int
    playing: int


class GameEndedEvent(BaseModel):
    """A tournament's ``game`` event: one of its games ended."""

    id: str
    status: str = Field(description="over, or interrupted.")
    result: str | None = Field(description="seat1, seat2, draw, error ... or null.")
    winner: int | None = Field(description="The winning seat's index, from 0, or null.")
