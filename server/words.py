"""The interface protocol's "no added words" rule, as the interface check applies it.

The protocol's first rule: an interface is international, it "adds no text of its own"
(``docs/reference/interface-protocol.md``, section 1, which states the rule this module
implements). Everything written on the page comes from the parameters or is a number, a
coordinate or a symbol. Read on a page's visible text, a **word** is a run of two letters
or more (letters of any alphabet; a digit, a space, a sign or a symbol ends a run) that
is none of these:

- a word of a parameter's value (``Name1``, ``Legend``, ``Count`` ...: any run of
  letters in any value of the load, compared without regard to case), or of the Set's name
  or one of its aliases;
- a coordinate: one or two letters followed at once by a digit (``C5``, ``h8``, ``AA12``).

A letter alone is never a word: a piece drawn as a letter (``X``, ``O``, a king's ``K``),
a column's letter (``C``), a card's rank (``D``) are symbols. Numbers and signs are not
letters. So ``X``, ``O``, ``C5``, ``AA12``, ``12``, ``●1 E4`` and ``3/60`` are allowed,
and ``Your move``, ``2nd``, ``ABC1``, ``pts``, ``Tour`` are added words unless a parameter
gave them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["added_words", "given_words"]

#: A run of letters (any alphabet: a letter is a word character that is neither a digit
#: nor ``_``) and the character after it when it is a digit.
_RUN = re.compile(r"([^\W\d_]+)(\d?)")
#: The longest run of letters that a digit after it makes a coordinate (``AA12``).
COORDINATE_LETTERS = 2


def given_words(texts: Iterable[str]) -> set[str]:
    """Return the runs of letters of ``texts`` (the load's parameter values, the Set's
    name and aliases), case-folded: the words a page may show."""
    return {m[1].casefold() for text in texts for m in _RUN.finditer(_nfc(text))}


def added_words(text: str, given: set[str]) -> list[str]:
    """Return, sorted and once each, the words of ``text`` (a page's visible text) that
    the rule of this module forbids: runs of two letters or more, neither in ``given``
    (:func:`given_words`) nor a coordinate."""
    found = set()
    for match in _RUN.finditer(_nfc(text)):
        letters, digit = match[1], match[2]
        if len(letters) < 2 or letters.casefold() in given:
            continue
        if digit and len(letters) <= COORDINATE_LETTERS:
            continue
        found.add(letters)
    return sorted(found)


def _nfc(text: str) -> str:
    """Return ``text`` composed (NFC): an accent typed apart from its letter would end a
    run of letters (``é`` as ``e`` and U+0301)."""
    return unicodedata.normalize("NFC", text)
