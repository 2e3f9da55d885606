"""A game's seed: two games of one seed, played by a real Arbitre on a
real SQLite file among other games in flight, are the same move for move: the built-in
engines' choices come from the seed, the entrant and the move, and the cards of a Set the
Arbitre deals (Poker, Tarot) from the seed and the deal, whoever sits where. Another
seed plays another game; an unseeded game keeps the system's randomness."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import MAX_SEED, GameError, Options, SeatSpec
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.web.bodies import GameOptions, options_of, parse
from tournoyons_gui.interfaces.plugin import seat_count
from tournoyons_gui.interfaces.registry import load_registry

REGISTRY = load_registry()
#: Every Set the Arbitre plays with built-in engines, ours and the test plugin Nim.
SETS = sorted(s.name for s in REGISTRY if s.arbitre is not None and s.engines)
#: Options that keep a game short where the Set allows it (a Tarot match of one deal).
SHORT: dict[str, dict[str, Any]] = {"Tarot": {"deals": 2}}


def seats(set_name: str, engines: Sequence[str] | None = None) -> list[SeatSpec]:
    """Return the Set's seats, each its first built-in engine (``random`` where it has
    one: the most choices) unless ``engines`` names them."""
    interface = REGISTRY.get(set_name)
    assert interface is not None and interface.arbitre is not None
    count = seat_count(interface.arbitre)
    default = "random" if "random" in interface.engines else next(iter(interface.engines))
    names = list(engines or [default] * count)
    return [SeatSpec("builtin", name, f"{name} {n}") for n, name in enumerate(names, 1)]


async def arbitre_in(tmp_path: Path) -> tuple[Arbitre, Store]:
    store = await Store.open(str(tmp_path / "arbitre.sqlite3"))
    arbitre = Arbitre(REGISTRY, store, "http://127.0.0.1:9")
    await arbitre.run()
    return arbitre, store


async def played(
    arbitre: Arbitre, set_name: str, order: list[SeatSpec], seed: int | None, **more: Any
) -> tuple[str, list[tuple[int, str]], list[dict[str, Any]]]:
    """Play one game to its end; return its id, its moves (seat, value) and its turns."""
    options = Options(seed=seed, **{**SHORT.get(set_name, {}), **more})
    game_id = await arbitre.create(set_name, order, options)
    await asyncio.wait_for(arbitre.wait(game_id), 120)
    found = await arbitre.store.game(game_id)
    assert found is not None and found[0].status == "over", found
    moves = await arbitre.store.moves(game_id)
    return game_id, [(m.seat, m.value) for m in moves], [m.turn for m in moves]


@pytest.mark.parametrize("set_name", SETS)
def test_two_games_of_one_seed_are_the_same_move_for_move(tmp_path: Path, set_name: str) -> None:
    async def run() -> None:
        arbitre, store = await arbitre_in(tmp_path)
        try:
            order = seats(set_name)
            games = await asyncio.gather(
                played(arbitre, set_name, order, 20261203),
                played(arbitre, set_name, order, None),  # in flight meanwhile
                played(arbitre, set_name, order, 20261203),
                played(arbitre, set_name, order, None),
                played(arbitre, set_name, order, 7),
            )
            (_, first, _), (_, free1, _), (_, again, _), (_, free2, _), (_, other, _) = games
            assert first == again and len(first) > 1
            # Every Set's random engine has choices: another seed, another game.
            assert other != first
            assert free1 != first or free2 != first
            record = await arbitre.store.game(games[0][0])
            assert record is not None and record[0].options["seed"] == 20261203
        finally:
            await arbitre.close()
            await store.close()

    asyncio.run(run())


def test_a_pair_is_two_games_not_one_mirrored(tmp_path: Path) -> None:
    """The built-in engines' choices follow who plays, not the seat: the two games of a
    pair (one seed, seats swapped) between two copies of ``random`` are two games (seeded
    by seat, they were one game played twice, and every pair scored 1 point); two seats of
    one name in one game still draw apart (Rochambeau's hands, asked at the same move)."""

    async def run() -> None:
        arbitre, store = await arbitre_in(tmp_path)
        try:
            order = seats("ConnectFour")
            (_, first, _), (_, swapped, _) = await asyncio.gather(
                played(arbitre, "ConnectFour", order, 5),
                played(arbitre, "ConnectFour", order[::-1], 5),
            )
            assert [v for _, v in first] != [v for _, v in swapped]
            twins = [SeatSpec("builtin", "random", "random")] * 2
            _, hands, _ = await played(arbitre, "Rochambeau", twins, 5)
            rounds = [(hands[n][1], hands[n + 1][1]) for n in range(0, len(hands) - 1, 2)]
            assert any(a != b for a, b in rounds), rounds
        finally:
            await arbitre.close()
            await store.close()

    asyncio.run(run())


@pytest.mark.parametrize(("set_name", "turns"), [("Poker", [1, 0]), ("Tarot", [1, 2, 3, 0])])
def test_a_seed_deals_the_same_cards_whoever_sits_where(
    tmp_path: Path, set_name: str, turns: list[int]
) -> None:
    """A duplicate deal: the seats swapped (Poker) or rotated (Tarot), each deal's cards
    are the same, seat by seat, in both games."""

    async def run() -> None:
        arbitre, store = await arbitre_in(tmp_path)
        try:
            interface = REGISTRY.get(set_name)
            assert interface is not None
            names = list(interface.engines)
            count = len(turns)
            engines = [names[n % len(names)] for n in range(count)]
            order = seats(set_name, engines)
            rotated = [order[(n + 1) % count] for n in range(count)]
            (_, _, a), (_, _, b), (_, _, c) = await asyncio.gather(
                played(arbitre, set_name, order, 99),
                played(arbitre, set_name, rotated, 99),
                played(arbitre, set_name, order, 100),
            )
            deals_a, deals_b, deals_c = dealt(set_name, a), dealt(set_name, b), dealt(set_name, c)
            shared = min(len(deals_a), len(deals_b))
            assert shared >= 2, (deals_a, deals_b)
            assert [deals_a[n] for n in sorted(deals_a)[:shared]] == [
                deals_b[n] for n in sorted(deals_b)[:shared]
            ]
            assert deals_c[1] != deals_a[1]  # another seed, other cards
        finally:
            await arbitre.close()
            await store.close()

    asyncio.run(run())


def dealt(set_name: str, turns: list[dict[str, Any]]) -> dict[int, Any]:
    """Return each deal's cards by its number, as the rules' states hold them."""
    found: dict[int, Any] = {}
    for turn in turns:
        state = turn["state"]
        if set_name == "Poker":
            found.setdefault(int(state["deal"]), tuple(state["cards"]))
        elif state["phase"] == "B" and not any(state["tricks"]):
            found.setdefault(int(state["deal"]), (state["hands"], state["dog"]))
    return found


def test_a_seed_is_a_whole_number_in_range(tmp_path: Path) -> None:
    async def run() -> None:
        arbitre, store = await arbitre_in(tmp_path)
        try:
            for wrong in (-1, MAX_SEED + 1, True):
                with pytest.raises(GameError, match="a seed is a whole number"):
                    await arbitre.create("TicTacToe", seats("TicTacToe"), Options(seed=wrong))
            assert not (await arbitre.store.list_games()).games
            game_id = await arbitre.create("TicTacToe", seats("TicTacToe"), Options(seed=MAX_SEED))
            await arbitre.wait(game_id)
        finally:
            await arbitre.close()
            await store.close()

    asyncio.run(run())


def test_options_stored_before_seeds_read_as_unseeded() -> None:
    old = Options().to_json()
    del old["seed"]
    assert Options.from_json(old).seed is None
    assert Options.from_json(Options(seed=5).to_json()).seed == 5


def test_a_record_hides_the_seed_while_the_game_is_played(tmp_path: Path) -> None:
    """The seed tells the cards to come and the built-in engines' next choices: the
    record shows it once the game is over, not before."""

    async def run() -> None:
        arbitre, store = await arbitre_in(tmp_path)
        try:
            people = [SeatSpec("person", "", "Ann"), SeatSpec("builtin", "random", "random")]
            waiting = await arbitre.create("Poker", people, Options(seed=42))
            record = await arbitre.record(waiting)
            assert record is not None and record["options"]["seed"] == "?"
            _, _, _ = await played(arbitre, "TicTacToe", seats("TicTacToe"), 42)
            over = [g for g in (await arbitre.store.list_games()).games if g.id != waiting]
            record = await arbitre.record(over[0].id)
            assert record is not None and record["options"]["seed"] == 42
        finally:
            await arbitre.close()
            await store.close()

    asyncio.run(run())


def test_the_json_api_reads_a_seed() -> None:
    def seed_of(raw: str) -> int | None:
        return options_of(parse(GameOptions, raw.encode())).seed

    assert seed_of('{"seed": 12}') == 12
    assert seed_of('{"seed": null}') is None and seed_of("{}") is None
    for wrong in ('"12"', "1.5", "true", "[1]"):
        with pytest.raises(GameError, match="seed is a whole number"):
            seed_of(f'{{"seed": {wrong}}}')
    assert GameOptions.model_json_schema()["properties"]["seed"]["maximum"] == MAX_SEED


@pytest.mark.parametrize("set_name", ["Poker", "Tarot", "Seafight"])
def test_the_rules_benchmark_plays_the_same_games_for_one_seed(set_name: str) -> None:
    from benchmarks.rules import measure

    interface = REGISTRY.get(set_name)
    assert interface is not None
    rules = interface.arbitre
    assert rules is not None
    engine = interface.engines["random"]

    def values(seed: int) -> list[str]:
        played: list[str] = []

        def recording(params: Mapping[str, str]) -> str:
            played.append(engine(params))
            return played[-1]

        assert measure(rules, recording, 0.0, seed)[1] == 1  # one game
        return played

    first = values(27)
    assert values(27) == first and len(first) > 10
    assert values(28) != first


def test_a_petit_sec_redeal_follows_from_the_seed() -> None:
    """Seed 1040's first pack deals a petit sec (found by scanning seeds): the deal is
    dealt again from the seed's next pack, the same every time."""
    tarot = REGISTRY.get("Tarot")
    assert tarot is not None and tarot.arbitre is not None
    start: Any = tarot.arbitre.start
    first, again = start(1, deals=1, seed=1040).state, start(1, deals=1, seed=1040).state
    assert first["redeals"] == 1 and first == again
    unseeded = [start(1, deals=1).state["hands"] for _ in range(2)]
    assert unseeded[0] != unseeded[1]
    assert start(1, deals=1, seed=1041).state["hands"] != first["hands"]
