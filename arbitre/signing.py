"""Signed calls (manual VII): how an engine knows the Arbitre called it.

The manual told engines to compare the caller's IP with Tournoyons'; behind proxies an
address proves little. A registered engine given a key at registration has each request
(and final call) signed: the HMAC-SHA256, in lower-case hex, of the query string exactly
as sent (everything after ``?``), keyed with the engine's key, appended as the last
parameter ``Signature`` and sent in the ``X-Tournoyons-Signature`` header too. An engine
checks it in a few lines in any language: cut ``&Signature=...`` off the end of its raw
query, compute the HMAC of the rest, compare.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["SIGNATURE_HEADER", "sign_url", "signature", "verify_query"]

#: The header carrying a call's signature (the same as its ``Signature`` parameter).
SIGNATURE_HEADER = "X-Tournoyons-Signature"


def signature(key: str, query: str) -> str:
    """Return the HMAC-SHA256 of ``query`` keyed with ``key``, lower-case hex."""
    return hmac.new(key.encode(), query.encode(), hashlib.sha256).hexdigest()


def sign_url(url: str, key: str) -> str:
    """Return ``url`` with ``&Signature=<HMAC of its query>`` appended (``url`` has a
    query: an engine call always has one); ``url`` itself when ``key`` is empty."""
    if not key:
        return url
    query = url.split("?", 1)[1] if "?" in url else ""
    return f"{url}{'&' if query else '?'}Signature={signature(key, query)}"


def verify_query(raw_query: str, key: str) -> bool:
    """Whether ``raw_query`` (a request's query string as received) ends with a
    ``Signature`` parameter that is the HMAC of what precedes it, keyed with ``key``."""
    body, sep, sent = raw_query.rpartition("Signature=")
    if not sep or (body and not body.endswith("&")):
        return False
    return hmac.compare_digest(signature(key, body.removesuffix("&")), sent)
