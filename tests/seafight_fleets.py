"""Two legal classic Seafight fleets shared by the Seafight tests, with their cells written
out by hand, ship by ship (the oracle the fleet reader is checked against)."""

from __future__ import annotations

# A0-E0, H2-H5, C5-E5, A7-A9, F8-G8.
FLEET = "H5A01V4H21H3C51V3A71H2F81"
_FLEET_CELLS = "A0 B0 C0 D0 E0 H2 H3 H4 H5 C5 D5 E5 A7 A8 A9 F8 G8"
FLEET_CELLS = frozenset(_FLEET_CELLS.split(" "))
# B1-B5, E3-H3, J5-J7, D8-F8, G0-H0.
OTHER = "V5B11H4E31V3J51H3D81H2G01"
_OTHER_CELLS = "B1 B2 B3 B4 B5 E3 F3 G3 H3 J5 J6 J7 D8 E8 F8 G0 H0"
#: In ship order: the last one sinks the last ship.
OTHER_CELLS = tuple(_OTHER_CELLS.split(" "))
