"""The "no added words" rule as the interface protocol's reference states it
(``docs/reference/interface-protocol.md``, *What counts as an added word*) and as the
interface check applies it (``server/words.py``): each example of the reference's table,
allowed or not, and the edges of a run of letters."""

from __future__ import annotations

import pytest

from tournoyons_gui.server.words import added_words, given_words

#: A TicTacToe load's parameters and its Set's name, as the check gives them.
GIVEN = given_words(["TicTacToe", "Morpion", "Ann", "perfect", "12 coups", "100020000"])


@pytest.mark.parametrize(
    "text",
    [
        "X O X",  # pieces drawn as letters
        "K D C",  # a king, a card's rank, a column
        "C5 h8 AA12 zz9",  # coordinates: one or two letters, then a digit
        "12 3/60 -40 ●1 E4 ●2 D6",  # numbers, signs, symbols, coordinates
        "Ann ANN ann perfect",  # given by a parameter, in any case
        "TicTacToe tictactoe Morpion",  # the Set's name and an alias
        "12 coups",  # a parameter's words
        "→ ✕ ◯ ♠ ★ ✓",  # symbols
        "",
    ],
)
def test_what_the_reference_allows(text: str) -> None:
    assert added_words(text, GIVEN) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Your move", ["Your", "move"]),
        ("Player 1", ["Player"]),
        ("12 pts", ["pts"]),
        ("2nd", ["nd"]),  # an ordinal's letters: after the digit, not before it
        ("ABC1", ["ABC"]),  # three letters before a digit: no coordinate
        ("Tour 3", ["Tour"]),
        ("OK", ["OK"]),
        ("Annie", ["Annie"]),  # a given name's longer cousin
        ("Tic", ["Tic"]),  # part of the Set's name is not the name
        ("αβ 対局", ["αβ", "対局"]),  # letters of every alphabet
        ("café", ["café"]),
        ("move move MOVE", ["MOVE", "move"]),  # once each, as written
    ],
)
def test_what_the_reference_calls_added_words(text: str, words: list[str]) -> None:
    assert added_words(text, GIVEN) == words


def test_an_accent_typed_apart_from_its_letter_is_one_word() -> None:
    """``é`` as ``e`` and a combining acute (U+0301) is the word ``café``, not ``caf``
    and a lone ``e``; and it matches a parameter that wrote it composed."""
    decomposed = "cafe\u0301"
    assert added_words(decomposed, GIVEN) == ["café"]
    assert added_words(decomposed, given_words(["café"])) == []
