"""Seafight rules, as the Arbitre applies them, for the tester's hot-seat games.

Manual chapter V, "Bataille navale": on the first turn each player returns a fleet (here
through ``Method=Prepare``, player one then player two; the classic fleet of sizes 5, 4, 3,
3, 2, inside the board, no overlap); then they fire in turn, player one first, one cell not
fired at yet on the opponent's board. A shot is water (``1``), a hit (``2``), or sinks the
ship when it was the ship's last cell not hit (every cell of the ship becomes ``3`` and the
ship's state ``3``). A player whose ships are all sunk loses; the game ends with
``Method=End`` and both fleets shown.

Hot-seat fairness: each turn's page shows what the player to move may see, as the Arbitre
shows a person playing an engine: player one's turns use ``Method=Inverse`` (``Gain1`` the
whole fleet, ``Gain2`` only player two's sunk ships), player two's ``Method=Standard``
(``Gain2`` whole, ``Gain1`` sunk ships only). ``Move1``/``Move2`` is the shot that just
landed on that player's board, with its result (``C53``): the board of the player now to
move, who sees it land.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player
from interfaces.seafight.board import SEPARATOR
from interfaces.seafight.fleet import (
    EMPTY_SHOTS,
    HIT,
    SUNK,
    FleetError,
    Ship,
    cell_name,
    check_classic,
    format_fleet,
    read_cell,
    read_fleet,
    read_shots,
    ship_at,
    ship_state,
    with_state,
)

__all__ = ["SeafightRules", "fire"]

_INPUT = {Player.ONE: "One", Player.TWO: "Two"}
WATER = "1"


def fire(fleet: tuple[Ship, ...], shots: str, index: int) -> tuple[str, str]:
    """Fire at cell ``index`` of a board holding ``fleet``; return ``(shots, result)``.

    ``result`` is ``1`` water, ``2`` hit, ``3`` sunk (then every cell of the ship is ``3``).
    The cell must not have been fired at (raises :class:`IllegalMove`).
    """
    if shots[index] != "0":
        raise IllegalMove(f"{cell_name(index)} has been fired at already")
    codes = list(shots)
    ship = ship_at(fleet, index)
    if ship is None:
        codes[index] = WATER
        return "".join(codes), WATER
    codes[index] = HIT
    if all(codes[cell] in (HIT, SUNK) for cell in ship.cells()):
        for cell in ship.cells():
            codes[cell] = SUNK
        return "".join(codes), SUNK
    return "".join(codes), HIT


def _fleet_shown(fleet: tuple[Ship, ...], shots: str, whole: bool) -> str:
    """Return ``fleet`` with the states its shots give: every ship, or the sunk ones only."""
    ships = [with_state(ship, ship_state(ship, shots)) for ship in fleet]
    return format_fleet(ship for ship in ships if whole or ship.state == SUNK)


class SeafightRules:
    """The game. ``state`` is a JSON object:

    ``{"phase": "prepare" | "fire" | "over", "next": 1 | 2 (the player to play),
    "fleets": [fleet of one, fleet of two] ("" until prepared), "shots": [shots on one's
    board, shots on two's board], "count": shots fired}``.
    """

    def new_game(self) -> Turn:
        """Return the first turn: player one prepares a fleet."""
        state = {"phase": "prepare", "next": 1, "fleets": ["", ""],
                 "shots": [EMPTY_SHOTS, EMPTY_SHOTS], "count": 0}
        return Turn(state=state, params={"Method": "Prepare", "Input": "One", "Count": "0"})

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply ``value``: a fleet while preparing, else a cell to fire at (``C5``)."""
        phase, player, fleets, shots, count = self._read(state)
        if phase == "over":
            raise IllegalMove("the game is over")
        if phase == "prepare":
            try:
                fleet = read_fleet(value)
                check_classic(fleet)
            except FleetError as error:
                raise IllegalMove(str(error)) from error
            fleets[player - 1] = tuple(with_state(ship, "1") for ship in fleet)
            if player is Player.ONE:
                new = self._state("prepare", Player.TWO, fleets, shots, count)
                return Turn(state=new, params={"Method": "Prepare", "Input": "Two",
                                               "Count": str(count)})
            new = self._state("fire", Player.ONE, fleets, shots, count)
            return Turn(state=new, params=self._params(Player.ONE, fleets, shots, count))

        index = read_cell(value.strip().upper())
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        target = player.opponent
        board, result = fire(fleets[target - 1], shots[target - 1], index)
        shots[target - 1] = board
        count += 1
        move = {f"Move{target}": cell_name(index) + result}
        if all(ship_state(ship, board) == SUNK for ship in fleets[target - 1]):
            new = self._state("over", target, fleets, shots, count)
            params = {
                "Method": "End",
                "Tray": SEPARATOR.join(shots),
                "Gain1": _fleet_shown(fleets[0], shots[0], whole=True),
                "Gain2": _fleet_shown(fleets[1], shots[1], whole=True),
                "Count": str(count),
                **move,
            }
            return Turn(state=new, params=params, over=True)
        new = self._state("fire", target, fleets, shots, count)
        return Turn(state=new, params={**self._params(target, fleets, shots, count), **move})

    @staticmethod
    def _params(player: Player, fleets: list[tuple[Ship, ...]], shots: list[str],
                count: int) -> dict[str, str]:
        """Return the page of ``player``'s turn: their fleet, the other's sunk ships."""
        return {
            "Method": "Inverse" if player is Player.ONE else "Standard",
            "Input": _INPUT[player],
            "Tray": SEPARATOR.join(shots),
            "Gain1": _fleet_shown(fleets[0], shots[0], whole=player is Player.ONE),
            "Gain2": _fleet_shown(fleets[1], shots[1], whole=player is Player.TWO),
            "Count": str(count),
        }

    @staticmethod
    def _state(phase: str, player: Player, fleets: list[tuple[Ship, ...]], shots: list[str],
               count: int) -> dict[str, Any]:
        return {"phase": phase, "next": int(player),
                "fleets": [format_fleet(fleet) for fleet in fleets],
                "shots": list(shots), "count": count}

    @staticmethod
    def _read(state: Mapping[str, Any]) -> tuple[
            str, Player, list[tuple[Ship, ...]], list[str], int]:
        """Read a state back; raise :class:`IllegalMove` when it is not one of ours."""
        try:
            phase = str(state["phase"])
            player = Player(int(state["next"]))
            fleets = [read_fleet(str(fleet)) for fleet in state["fleets"]]
            shots = [read_shots(str(board)) for board in state["shots"]]
            count = int(state["count"])
        except (KeyError, TypeError, ValueError) as error:
            raise IllegalMove(f"the game's state is corrupt: {error}") from error
        if phase not in ("prepare", "fire", "over") or len(fleets) != 2 or len(shots) != 2:
            raise IllegalMove("the game's state is corrupt")
        if shots[0] is None or shots[1] is None:
            raise IllegalMove("the game's state is corrupt: shots")
        if phase != "prepare":
            for fleet in fleets:
                try:
                    check_classic(fleet)
                except FleetError as error:
                    raise IllegalMove(f"the game's state is corrupt: {error}") from error
        return phase, player, fleets, [shots[0], shots[1]], count
