"""The installed layout: the repository's ``server/``, ``interfaces/``, ``arbitre/`` and
``static/`` become ``tournoyons_gui.server`` ... (one distribution package name, nothing
generic at the top of site-packages), found by looking, so that a new Set's folder needs
no line here. Everything else is in ``pyproject.toml``."""

from setuptools import find_packages, setup

TOPS = ("server", "interfaces", "arbitre", "static")

setup(
    packages=[
        f"tournoyons_gui.{name}"
        for top in TOPS
        for name in find_packages(include=[top, f"{top}.*"])
    ],
    package_dir={f"tournoyons_gui.{top}": top for top in TOPS},
    package_data={
        "": ["templates/**/*", "static/**/*", "py.typed", "*.js", "*.css", "openings.txt"],
        # The starter engines: each language's files, written out by new-engine.
        "tournoyons_gui.arbitre.starters": ["*/*"],
        # The HTTP API's examples, captured from a running server (its OpenAPI document).
        "tournoyons_gui.arbitre.web": ["examples.json"],
    },
)
