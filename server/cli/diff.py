"""``tournoyons-gui diff A.json B.json``: two runs of ``play`` compared game by game (a
"version diff"): where two versions of an engine first play differently.

``A.json`` and ``B.json`` are two ``play --json`` documents of the same Set, ``--seed`` and
openings (engine v1, then v2, each against ``builtin:strong``, say). Their games are
matched by pair and first seat (:mod:`~tournoyons_gui.arbitre.match_diff`); for each
couple that differs it prints the first ply where the two part, the position both games
share there (the Set's rules replaying the common moves from the opening: the board drawn
as text for the grid Sets, else the Tray), who is to move, both values played and both
results, and the address of the two games side by side at that ply
(``/matches/diff?a=...&b=...&ply=N``, a path of ``tournoyons-gui serve`` on the database
both runs were recorded in); then how many couples are the same move for move. Which
entrant differs between the runs is said, with a warning when it is not the first (the
runs then compare opponents, not versions) or when several do.

``--json`` prints ``{"same", "differ": [{"opening", "pair", "ply", "a", "b", "result_a",
"result_b", ...}], ...}`` instead (``docs/reference/command-line.md``). Exit status: 0 when
compared (``--exit-code``: 1 when a couple differs, as ``git diff --exit-code``), 2 when
refused: a file that cannot be read or is not a match document, runs of other Sets,
seeds, openings, rule levels or numbers of seats (the reason said).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tournoyons_gui.arbitre.match_diff import (
    Comparison,
    Difference,
    DiffRefused,
    compare_documents,
    diff_link,
    position_before,
)
from tournoyons_gui.interfaces.plugin import ArbitreRules, position_text
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["MOST_SHOWN", "diff", "entrants_differ", "entrants_words", "read_document"]

#: The differences printed by default (``--most``; ``--json`` lists them all).
MOST_SHOWN = 20
#: The longest Tray printed as it is where the Set draws no board as text.
LONGEST_TRAY = 120


def read_document(path: str) -> dict[str, Any]:
    """Return the JSON object in ``path``; raise :class:`DiffRefused` with the reason when
    it cannot be read or is not an object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as failed:
        raise DiffRefused(f"{path} cannot be read: {failed}") from None
    try:
        document = json.loads(text)
    except ValueError as failed:
        raise DiffRefused(f"{path} is not JSON: {failed}") from None
    if not isinstance(document, dict):
        raise DiffRefused(f"{path} is not a match document of play --json")
    return document


def _rules(set_name: str) -> ArbitreRules | None:
    """Return the rules of the Set called ``set_name`` (``None``: not a Set of ours with
    rules, an added game's)."""
    from tournoyons_gui.interfaces.registry import load_registry

    found = load_registry(only=set_name).get(set_name)
    return found.arbitre if found is not None else None


def _names(document: Mapping[str, Any]) -> list[str]:
    return [str(entrant.get("name", "?")) for entrant in document["entrants"]]


def _game(document: Mapping[str, Any], game_id: str) -> Mapping[str, Any]:
    return next(g for g in document["games_list"] if g.get("id") == game_id)


def _described(
    difference: Difference,
    rules: ArbitreRules | None,
    a: Mapping[str, Any],
    b: Mapping[str, Any],
) -> dict[str, Any]:
    """Return a difference as ``--json`` lists it, with the position before its ply (its
    ``tray``, the board drawn as text in ``position``: ``None`` where the rules cannot
    replay it), whom the ply asks in each run (``to_move_a``, ``to_move_b``: names) and
    the ``link`` of the two games side by side."""
    found = difference.to_json()
    found.update(tray=None, position=None, to_move_a=[], to_move_b=[])
    found["link"] = diff_link(difference.game_a, difference.game_b, difference.ply)
    game_a = _game(a, difference.game_a)
    if rules is not None:
        options = a.get("options") or {}
        turn = position_before(
            rules,
            difference.moves,
            opening=difference.opening,
            seed=game_a.get("seed"),
            level=int(options.get("level", 1) or 1),
            deals=options.get("deals"),
        )
        if turn is not None:
            tray = str(rules.page(turn, None, asking=False, reveal=True).get("Tray", ""))
            found["tray"] = tray or None
            drawn = position_text(rules, turn.state)
            found["position"] = drawn or (tray if tray and len(tray) <= LONGEST_TRAY else None)
            asked: Sequence[Player] = rules.asked(turn.state)
            for side, document, game in (
                ("a", a, game_a),
                ("b", b, _game(b, difference.game_b)),
            ):
                names, seats = _names(document), game.get("seats") or []
                found[f"to_move_{side}"] = [
                    names[seats[int(p) - 1]] for p in asked if int(p) - 1 < len(seats)
                ]
    return found


def _entrant(entrant: Mapping[str, Any]) -> str:
    """Return an entrant as the runs' documents tell it: its name, and what plays it when
    that is not its name (``v1 (http://127.0.0.1:8001/)``)."""
    name, engine = str(entrant.get("name", "?")), str(entrant.get("engine", ""))
    return name if not engine or engine == name else f"{name} ({engine})"


def entrants_differ(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the entrants that differ between the runs ``a`` and ``b`` (by name, kind or
    what plays them), in command line order: ``{"entrant": index, "a": ..., "b": ...}``."""
    found = []
    for index, (one, other) in enumerate(zip(a["entrants"], b["entrants"], strict=False)):
        keys = ("name", "kind", "engine")
        if any(one.get(k) != other.get(k) for k in keys):
            found.append({"entrant": index, "a": _entrant(one), "b": _entrant(other)})
    return found


def entrants_words(differ: Sequence[Mapping[str, Any]], a: Mapping[str, Any]) -> list[str]:
    """Return what the runs' entrants say of the comparison, in sentences: which entrant
    differs; a warning when it is not the first (the runs then compare the first
    entrant's opponents, not two versions of one engine) or when several do."""
    if not differ:
        return ["The runs have the same entrants: an engine changed behind its address?"]
    said = [f"Entrant {d['entrant'] + 1} differs: {d['a']} in A, {d['b']} in B." for d in differ]
    if len(differ) > 1:
        said.append(
            "Warning: more than one entrant differs: the runs played other pairings, and "
            "their games differ for more than one reason."
        )
    elif differ[0]["entrant"] != 0:
        first = _entrant(a["entrants"][0])
        said.append(
            f"Warning: the first entrant, {first}, is the same in both runs and its "
            "opponent differs: the runs compare opponents, not two versions of one engine "
            "(diff expects the version changed in one --engine, the same opponent)."
        )
    return said


def _value(value: str | None, end: str) -> str:
    return value if value is not None else f"(no move: {end})"


def _print_text(
    comparison: Comparison,
    described: Sequence[Mapping[str, Any]],
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    paths: Sequence[str],
    most: int,
) -> None:
    """Print the comparison for a person (see the module)."""
    names_a, names_b = _names(a), _names(b)
    for label, path, document, names in (("A", paths[0], a, names_a), ("B", paths[1], b, names_b)):
        print(f"{label}: {path}, match {document.get('match', '?')}: {' - '.join(names)}")
    said = f"{a['set']}, seed {a['seed']}"
    if a.get("openings"):
        said += f", openings {a['openings']}"
    print(
        f"{said}: {comparison.compared} games compared, {comparison.same} the same move for move, "
        f"{len(comparison.differ)} differ",
        end="",
    )
    if comparison.unfinished:
        print(f", {comparison.unfinished} not played to an end in one run", end="")
    if comparison.only_a or comparison.only_b:
        print(f"; {comparison.only_a} played in A alone, {comparison.only_b} in B alone", end="")
    print(".")
    for line in entrants_words(entrants_differ(a, b), a):
        print(line)
    shown = described if most <= 0 else described[:most]
    for found in shown:
        game = _game(a, found["game_a"])
        seated = " - ".join(names_a[i] for i in game.get("seats") or [])
        opening = (
            f", opening line {found['opening_line']}"
            if found["opening_line"] is not None
            else (f", opening {found['opening']}" if found["opening"] else "")
        )
        print(f"\npair {found['pair']} ({seated}){opening}: ply {found['ply']}")
        if found["position"]:
            mover_a, mover_b = " and ".join(found["to_move_a"]), " and ".join(found["to_move_b"])
            asked = f", {mover_a} to move" if mover_a else ""
            if mover_a != mover_b:  # each run's own entrant at this seat
                asked = f", {mover_a or '?'} to move in A, {mover_b or '?'} in B"
            since = " (plies counted from the opening)" if found["opening"] else ""
            print(f"  before ply {found['ply']}{since}{asked}:")
            for row in str(found["position"]).splitlines():
                print(f"    {row}")
        for side in ("a", "b"):
            movers = found[f"to_move_{side}"]
            verb = f"{' and '.join(movers)} played" if movers else "played"
            value = _value(found[side], found[f"end_{side}"])
            result = found[f"result_{side}"] or "no result"
            print(f"  {side.upper()}  {found[f'game_{side}']}  {verb} {value}  -> {result}")
        print(f"  {found['link']}")
    if len(shown) < len(described):
        print(
            f"\n... and {len(described) - len(shown)} more "
            "(--most 0 shows them all; --json lists them)"
        )
    if described:
        print(
            "\nEach link is a page of `tournoyons-gui serve --database FILE` on the database both "
            "runs were recorded in (play's --database, arbitre.sqlite3 by default), at the "
            f"address it serves: {described[0]['link']} (http://127.0.0.1:8000 by default)"
        )


def diff(args: argparse.Namespace) -> int:
    """Compare the runs ``args.a`` and ``args.b``; return the exit status (see the
    module)."""
    try:
        a, b = read_document(args.a), read_document(args.b)
        comparison = compare_documents(a, b)
    except DiffRefused as refused:
        print(f"tournoyons-gui diff: refused: {refused}", file=sys.stderr)
        return 2
    rules = _rules(str(a["set"])) if comparison.differ else None
    described = [_described(d, rules, a, b) for d in comparison.differ]
    if args.json:
        print(
            json.dumps(
                {
                    "same": comparison.same,
                    "differ": described,
                    "unfinished": comparison.unfinished,
                    "only_a": comparison.only_a,
                    "only_b": comparison.only_b,
                    "set": a["set"],
                    "seed": a["seed"],
                    "a": a.get("match"),
                    "b": b.get("match"),
                    "entrants_differ": entrants_differ(a, b),
                },
                ensure_ascii=False,
                indent=1,
            )
        )
    else:
        try:
            _print_text(comparison, described, a, b, (args.a, args.b), args.most)
        except BrokenPipeError:  # `diff ... | head`: the reader has what it wanted
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (closed at exit)
    return 1 if args.exit_code and comparison.differ else 0
