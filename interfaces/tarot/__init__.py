"""Tarot (French Tarot for four, the federation's rules): the Set's plugin object.

Cards numbered 0..77 as MaitreTarot numbers them, bids 0..4, a Tray of nine fields joined
by ``.`` (:mod:`.cards`), four seats with ``Input`` ``One`` .. ``Four``; the rules, the
engines' view and the built-in engines in :mod:`.rules` and :mod:`.engines`. Methods
Standard, End, None. Source: ``docs/reference/tarot.md`` sections 1-3; seed 001.
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

# Seat 1's page at the first trick of the first deal: seat 2 took with a garde and put 6
# cards aside, seat 1 leads (tests check it against the rules).
SAMPLE_TRAY = ".".join(
    (
        "01P",
        "0200",
        "001620242830313238394447485860627077",
        "??" * 18,
        "??" * 18,
        "??" * 18,
        "??" * 6,
        "1--------",
        "",
    )
)

interface = SetInterface(
    name="Tarot",
    package=__name__,
    aliases=("FrenchTarot", "TarotFrancais", "MaitreTarot"),
    sample={
        "Tray": SAMPLE_TRAY,
        "Input": "One",
        "Name3": "MsThree",
        "Name4": "MrFour",
        "Move1": "0",
        "Move2": "??" * 6,
        "Move3": "0",
        "Move4": "0",
        "Gain1": "0",
        "Gain2": "0",
        "Gain3": "0",
        "Gain4": "0",
        "Count": "0",
    },
)
