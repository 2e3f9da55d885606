"""``tournoyons-gui token [--database D] [--note WHO]``: make an organiser token,
store its SHA-256 in the records (the token itself is printed once, never stored)
and print it. Every ``serve`` on those records accepts it as ``Authorization: Bearer``."""

from __future__ import annotations

import argparse
import secrets

from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.web.guard import hash_token

__all__ = ["make_token"]


async def make_token(args: argparse.Namespace) -> int:
    """Make, store and print a token; return 0."""
    token = secrets.token_urlsafe(32)
    store = await Store.open(args.database)
    try:
        await store.add_organiser(hash_token(token), args.note)
    finally:
        await store.close()
    print(token, flush=True)
    return 0
