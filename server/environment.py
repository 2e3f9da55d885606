"""The one Jinja environment: the server's templates, the shared interface templates, the
Arbitre's, and every registered Set's, autoescaped, with ``static()`` for asset URLs."""

from __future__ import annotations

import jinja2

from tournoyons_gui.interfaces.fragments import FragmentExtension
from tournoyons_gui.interfaces.registry import Registry
from tournoyons_gui.server.assets import AssetStore

__all__ = ["INTERFACE_TEMPLATES", "SERVER_TEMPLATES", "make_environment"]

# The packages whose templates/ folders hold the shared templates (found through the
# package, never the source tree, so that an installed wheel serves them too).
SERVER_TEMPLATES = "tournoyons_gui.server"
INTERFACE_TEMPLATES = "tournoyons_gui.interfaces"


def make_environment(registry: Registry, assets: AssetStore) -> jinja2.Environment:
    """Return the environment over every template the server renders.

    Templates are looked up in this order: ``server/templates`` (tester, sink, unknown
    Set), ``interfaces/templates`` (the page every Set's template extends), the Arbitre's
    package, then each Set's package's ``templates/`` in the registry's order (names are
    namespaced by Set: ``<key>/page.html``). The global ``static(namespace, name)`` returns
    an asset's hashed URL from ``assets`` (``KeyError`` for an unknown asset).
    """
    loaders: list[jinja2.BaseLoader] = [
        jinja2.PackageLoader(SERVER_TEMPLATES, "templates"),
        jinja2.PackageLoader(INTERFACE_TEMPLATES, "templates"),
        jinja2.PackageLoader("tournoyons_gui.arbitre", "templates"),
    ]
    loaders += [jinja2.PackageLoader(interface.package, "templates") for interface in registry]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates are package files: no stat() of three files on every render.
        auto_reload=False,
        extensions=[FragmentExtension],
    )
    env.globals["static"] = assets.url
    return env
