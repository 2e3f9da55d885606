"""The contexts the interface check loads an interface with, made by the Set's own
rules: the start, positions from a game played out between the Set's ``random`` engines,
the end, Method ``None``, ``Input`` for each player, ``Prepare`` where the Set has it,
``Wait``, and hostile ``Legend`` and ``Name`` texts from our XSS corpus
(:data:`~tournoyons_gui.server.hostile.CHECK_TEXTS`).

Each context is the query the Arbitre's game page would send (interface protocol section
2): a spectator's page (hidden information hidden) unless it asks a player, whose page it
then is. A Set without the Arbitre's rules or engines gets its sample context instead of
played positions. Pure: no browser, no HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournoyons_gui.interfaces.plugin import ArbitreRules, SetInterface, Turn, seat_count
from tournoyons_gui.interfaces.protocol import Method, Player
from tournoyons_gui.server.hostile import CHECK_TEXTS

__all__ = ["MAX_STEPS", "NAMES", "PLAYED_SHOWN", "RETURN_URL", "WAIT", "Context", "contexts"]

#: The most steps a game is played out for its positions (then it is cut short).
MAX_STEPS = 2000
#: Positions of the played game shown (besides its start and its end), evenly spread.
PLAYED_SHOWN = 3
#: The ``Wait`` of the Wait context, in tenths of a second.
WAIT = 5
#: The players' names of every context but the hostile ones (up to four seats).
NAMES = ("Ann", "Bob", "Cyd", "Dee")
#: Where an ``Input`` context's move goes: a host no one resolves, answered by the
#: checking browser itself (the check watches the return, never lets it out).
RETURN_URL = "http://return.check.invalid/return"


@dataclass(frozen=True)
class Context:
    """One context of the check: its ``label`` (``start``, ``move 4``, ``input One`` ...),
    the query ``params`` in order, and whether it carries ``hostile`` texts."""

    label: str
    params: Mapping[str, str]
    hostile: bool = False
    notes: tuple[str, ...] = field(default=())


def _named(interface: SetInterface, seats: int) -> dict[str, str]:
    params = {"Set": interface.name}
    params.update((f"Name{n}", NAMES[n - 1]) for n in range(1, min(seats, len(NAMES)) + 1))
    return params


def _played(interface: SetInterface, rules: ArbitreRules) -> list[Turn]:
    """Return the turns of a game between the Set's ``random`` engines (its first engine
    when it has none called so), the first included; cut at :data:`MAX_STEPS`."""
    engine = interface.engines.get("random") or next(iter(interface.engines.values()))
    turn = rules.start(rules.levels[0])
    turns = [turn]
    for _ in range(MAX_STEPS):
        if rules.result(turn.state) is not None:
            break
        values: dict[Player, str] = {}
        for player in rules.asked(turn.state):
            request = rules.request(turn.state, player)
            query = {
                "Set": rules.engine_set,
                "Game": f"CHECK{int(player)}",
                "MoveId": str(request.move_id),
                "Status": "0",
                "TimeOut": "20",
                **request.params,
            }
            value = engine(query).strip().upper()
            values[player] = rules.engine_value(turn.state, player, value)
        if not values:
            break
        for player in sorted(values):
            turn = rules.play(turn.state, values[player])
            turns.append(turn)
    return turns


def _spread(count: int, shown: int) -> list[int]:
    """Return up to ``shown`` indexes strictly inside ``0..count-1``, evenly spread."""
    inside = range(1, count - 1)
    if len(inside) <= shown:
        return list(inside)
    return sorted({inside[(k * len(inside)) // (shown + 1)] for k in range(1, shown + 1)})


def _from_rules(interface: SetInterface, rules: ArbitreRules) -> list[Context]:
    seats = seat_count(rules)
    base = _named(interface, seats)
    turns = _played(interface, rules)
    over = rules.result(turns[-1].state) is not None

    def shown(turn: Turn, **extra: str) -> dict[str, str]:
        return {**base, **rules.page(turn, None, asking=False), **extra}

    found = [Context("start", shown(turns[0]))]
    found += [Context(f"move {k}", shown(turns[k])) for k in _spread(len(turns), PLAYED_SHOWN)]
    end = {**base, **rules.page(turns[-1], None, asking=False, reveal=True)}
    if over:
        end["Method"] = "End"
    found.append(Context("end" if over else f"move {len(turns) - 1}", end))
    found.append(Context("none", {**base, "Method": "None"}))
    prepared = False
    for number in range(1, seats + 1):
        player = Player(number)
        asked = next((t for t in turns if player in rules.asked(t.state)), None)
        if asked is None:
            continue
        params = {**base, **rules.page(asked, player, asking=True)}
        if params.get("Method") == "Prepare":
            prepared = True
            params.setdefault("Legend", "Ready")  # the validate button's label, as ours
        params |= {"Input": player.word, "URLReturn": RETURN_URL}
        found.append(Context(f"input {player.word}", params))
    if Method.PREPARE in interface.methods and not prepared:
        params = {**shown(turns[0]), "Method": "Prepare", "Legend": "Ready"}
        found.append(Context("prepare", params | {"Input": "One", "URLReturn": RETURN_URL}))
    middle = turns[len(turns) // 2] if len(turns) > 2 else turns[-1]
    found.append(Context(f"wait {WAIT}", shown(middle, Wait=str(WAIT))))
    found += _hostile(interface, shown(middle), seats)
    return found


def _hostile(interface: SetInterface, shown: Mapping[str, str], seats: int) -> list[Context]:
    found = []
    for k, (legend, name1, name2) in enumerate(CHECK_TEXTS, 1):
        params = {**shown, "Legend": legend, "Name1": name1}
        if seats >= 2:
            params["Name2"] = name2
        found.append(Context(f"hostile {k}", params, hostile=True))
    return found


def _from_sample(interface: SetInterface) -> list[Context]:
    sample = {"Set": interface.name, **interface.sample}
    return [
        Context("sample", sample),
        Context("none", {**sample, "Method": "None"}),
        Context("input One", {**sample, "Input": "One", "URLReturn": RETURN_URL}),
        Context(f"wait {WAIT}", {**sample, "Wait": str(WAIT)}),
        *_hostile(interface, sample, 2),
    ]


def contexts(interface: SetInterface) -> Sequence[Context]:
    """Return the check's contexts for ``interface``'s Set, in the order they are shown:
    made by its rules and engines when it has them (the Arbitre's part), its sample
    context otherwise."""
    rules = interface.arbitre
    if rules is None or not interface.engines:
        return _from_sample(interface)
    return _from_rules(interface, rules)
