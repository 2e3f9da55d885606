"""The Arbitre: drives Tournoyons engines, persons and built-in engines through games.

It knows no game: a Set's :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules` say who is asked,
what
an engine is sent and what a page shows; the Arbitre calls the seats, records every move
in its store (SQLite or PostgreSQL through SQLAlchemy), publishes live events, and serves
the pages and the JSON API. Contract: the Tournoyons engine protocol (the manuals of June
2013 and February 2013, chapters III, V and VI), with our decisions where they are vague.
Imports run one way: ``server`` -> ``arbitre`` -> ``interfaces``.
"""

from __future__ import annotations
