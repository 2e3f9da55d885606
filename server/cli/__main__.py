"""``python -m tournoyons_gui.server.cli``: the command line, as ``tournoyons-gui``."""

from __future__ import annotations

import sys

from tournoyons_gui.server.cli import main

sys.exit(main())
