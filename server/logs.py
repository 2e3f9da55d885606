"""The access log without secrets: a seat's token is a person's right to play
it, so ``/play/<token>/<n>`` and ``?seat=<token>`` are written with the token redacted,
as are an engine's ``Game`` id in a callback's query and an organiser's or owner's
``token``."""

from __future__ import annotations

import logging
import re

__all__ = ["REDACTED", "RedactSecrets", "redact_path"]

#: What a secret is written as.
REDACTED = "<redacted>"
_PATH = re.compile(r"(/play/)[^/?#\s]+")
_QUERY = re.compile(r"([?&](?:seat|token|game|key|signature)=)[^&#\s]*", re.IGNORECASE)


def redact_path(path: str) -> str:
    """Return ``path`` (with its query) with seat tokens, ``Game`` ids, tokens, keys and
    signatures replaced by :data:`REDACTED`."""
    return _QUERY.sub(rf"\g<1>{REDACTED}", _PATH.sub(rf"\g<1>{REDACTED}", path))


class RedactSecrets(logging.Filter):
    """A filter for uvicorn's access logger (``uvicorn.access``), whose records carry
    ``(client, method, path, http version, status)`` as their arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record's path; keep the record."""
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_path(args[2]), *args[3:])
        return True
