"""Fragments of a Set's template rendered once and reused: the ``fragment`` tag.

A page is mostly the same markup from one request to the next: the head and its asset
links, the SVG symbols, a board's grid and coordinates, and, cell by cell, the markup of a
cell in each of its few states. The tag renders such a part once per distinct key and then
answers it from memory, so that a new context costs only what changed::

    {% fragment %}<path class="grid" d="..."/>{% endfragment %}
    {% fragment interface.key %}<link rel="stylesheet" href="...">{% endfragment %}
    {% fragment point for point in view.points %}<circle data-cell="{{ point.name }}"/>
    {% endfragment %}

- ``{% fragment %}``: rendered once (per template position and Environment).
- ``{% fragment key[, key...] %}``: rendered once per distinct value of its keys.
- ``{% fragment item[, key...] for item in items %}``: the body rendered once per distinct
  ``item`` (and keys) and joined in order, without the cost of a template loop on a hit (one
  dictionary lookup an item): the form for the cells of a board.

What makes this safe is checked when the template is compiled: the body may read only what
its keys are (a key ``view.cells`` lets it read ``view.cells`` and below, never
``view.winner``; the loop's ``item`` and all below it), names it assigns, defines or
imports itself (a macro imported without context sees only its arguments), and the
Environment's globals, so it cannot depend on anything its keys do not name. Attribute and
constant-item access are followed (``view.a``, ``view["a"]``); a key that is computed
(``view.cells | length``) names nothing the body may read. Keys that are
equal must draw the same (``1`` and ``True`` are one key). A key that cannot be hashed
renders the body every time. Output is escaped exactly as it would be in place: the cached
value is the Markup the body produced.

The memory is bounded: at most ``FRAGMENT_CACHE_SIZE`` fragments per Environment; past it,
the oldest half is dropped.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

__all__ = ["FRAGMENT_CACHE_SIZE", "FragmentExtension"]

FRAGMENT_CACHE_SIZE = 50_000
# Names a template may always read: Jinja's own, and what a loop or a caller defines.
_ALWAYS = frozenset(
    {"loop", "caller", "varargs", "kwargs", "true", "false", "none", "True", "False", "None"}
)


class FragmentExtension(Extension):
    """The ``{% fragment [key | item for item in items] %}...{% endfragment %}`` tag.

    Shapes: the cache maps ``(position, keys)`` (or, in the loop form, ``((position, keys),
    item)``) to Markup, ``position`` being the template's name and the tag's line and order.
    Errors: a body that reads a name its keys do not raises ``TemplateSyntaxError`` when the
    template is compiled.
    """

    tags = {"fragment"}  # noqa: RUF012 (declared so by jinja2.ext.Extension)

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        self.cache: dict[tuple[Any, Any], Markup] = {}
        self._positions = itertools.count()

    def parse(self, parser: Parser) -> nodes.Node:
        """Parse the tag: its keys or loop, then its body up to ``endfragment``."""
        lineno = next(parser.stream).lineno
        position = f"{parser.name}:{lineno}:{next(self._positions)}"
        keys: list[nodes.Expr] = []
        target: nodes.Name | None = None
        items: nodes.Expr | None = None
        if parser.stream.current.type != "block_end":
            keys.append(parser.parse_expression())
            while parser.stream.skip_if("comma"):
                keys.append(parser.parse_expression())
            if parser.stream.skip_if("name:for"):
                assigned = parser.parse_assign_target(name_only=True)
                if not (
                    isinstance(keys[0], nodes.Name)
                    and isinstance(assigned, nodes.Name)
                    and keys[0].name == assigned.name
                ):
                    parser.fail(
                        "fragment item[, key...] for item in items: name the loop's item first",
                        lineno,
                    )
                target = assigned
                parser.stream.expect("name:in")
                items = parser.parse_expression()
        body = parser.parse_statements(("name:endfragment",), drop_needle=True)
        template = nodes.Template(body)
        own = _ALWAYS | set(self.environment.globals) | _names(template, "store")
        named = [path for path in map(_path, keys) if path is not None]
        free = sorted(
            ".".join(path)
            for path in _reads(template)
            if path[0] not in own and not any(path[: len(key)] == key for key in named)
        )
        if free:
            raise TemplateSyntaxError(
                f"fragment body reads {', '.join(free)}, which its keys do not name",
                lineno,
                parser.name,
                parser.filename,
            )
        if target is not None and items is not None:
            extra = nodes.Tuple(keys[1:], "load")
            call = self.call_method("_each", [nodes.Const(position), items, extra])
            return nodes.CallBlock(call, [nodes.Name(target.name, "param")], [], body).set_lineno(
                lineno
            )
        key_node = nodes.Tuple(keys, "load") if keys else nodes.Const(None)
        call = self.call_method("_once", [nodes.Const(position), key_node])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _store(self, slot: tuple[Any, Any], markup: Markup) -> Markup:
        cache = self.cache
        if len(cache) >= FRAGMENT_CACHE_SIZE:
            for old in list(itertools.islice(cache, FRAGMENT_CACHE_SIZE // 2)):
                del cache[old]
        cache[slot] = markup
        return markup

    def _once(self, position: str, key: Any, caller: Callable[[], str]) -> Markup:
        """Return the body for ``key``, rendered on the first call only."""
        slot = (position, key)
        try:
            found = self.cache.get(slot)
        except TypeError:  # an unhashable key: no memory for it
            return Markup(caller())
        return found if found is not None else self._store(slot, Markup(caller()))

    def _each(
        self,
        position: str,
        items: Iterable[Any],
        extra: tuple[Any, ...],
        caller: Callable[[Any], str],
    ) -> Markup:
        """Return the body for every item, joined; each distinct item rendered once."""
        cache = self.cache
        parts: list[str] = []
        append = parts.append
        where = (position, extra)
        for item in items:
            slot = (where, item)
            try:
                found = cache.get(slot)
            except TypeError:
                append(caller(item))
                continue
            append(found if found is not None else self._store(slot, Markup(caller(item))))
        return Markup("".join(parts))


def _path(node: nodes.Node) -> tuple[str, ...] | None:
    """Return the access path ``node`` reads (``view.cells`` -> ``("view", "cells")``), or
    ``None`` when it is not a name followed by attributes and constant items."""
    if isinstance(node, nodes.Name):
        return (node.name,) if node.ctx == "load" else None
    if isinstance(node, nodes.Getattr):
        base = _path(node.node)
        return None if base is None else (*base, node.attr)
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
        base = _path(node.node)
        return None if base is None else (*base, str(node.arg.value))
    return None


def _reads(node: nodes.Node) -> set[tuple[str, ...]]:
    """Return every access path ``node`` reads, each as long as it goes."""
    found: set[tuple[str, ...]] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        path = _path(current)
        if path is not None:
            found.add(path)
            continue
        stack.extend(current.iter_child_nodes())
    return found


def _names(node: nodes.Node, ctx: str) -> set[str]:
    """Return the names ``node`` reads (``ctx="load"``) or assigns (``"store"``/``"param"``)."""
    every = [*([node] if isinstance(node, nodes.Name) else []), *node.find_all(nodes.Name)]
    found = {name.name for name in every if name.ctx == ctx}
    if ctx == "store":
        found |= {name.name for name in every if name.ctx == "param"}
        for macro in node.find_all(nodes.Macro):
            found.add(macro.name)
        for imported in node.find_all(nodes.FromImport):  # {% from "t" import a, b as c %}
            found.update(name if isinstance(name, str) else name[1] for name in imported.names)
        for module in node.find_all(nodes.Import):  # {% import "t" as m %}
            found.add(module.target)
    return found
