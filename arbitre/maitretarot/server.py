"""Our MaitreTarot server: listens for clients on TCP, seats them in connection order, and
makes each full table of four a Tarot game of the Arbitre (its seats of kind
``maitretarot``, named by the clients' nicks, TimeOut and deals from the
:class:`~tournoyons_gui.arbitre.maitretarot.lobby.Settings`). Games made from the web or
the API with seats left to MaitreTarot clients are filled first (their tables open in the
same lobby when first asked).
"""

from __future__ import annotations

import asyncio
import logging
import socket

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.maitretarot.lobby import Lobby, Opening, Settings
from tournoyons_gui.arbitre.maitretarot.peer import Peer
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.seats.maitretarot import TAROT, MaitreTarotSeat, addresses

__all__ = ["MaitreTarotServer"]

log = logging.getLogger(__name__)


class MaitreTarotServer:
    """The MaitreTarot server of ``arbitre`` with ``settings``: :meth:`start` listens on
    ``host``:``port`` (0: a free port, :attr:`port` says which); :meth:`close` stops it
    and its tables."""

    def __init__(self, arbitre: Arbitre, settings: Settings) -> None:
        self.arbitre = arbitre
        self.settings = settings
        kind = next((k for k in arbitre.kinds.values() if isinstance(k, MaitreTarotSeat)), None)
        if kind is None:
            raise RuntimeError("the maitretarot seat kind is not registered")
        self.kind = kind
        self.lobby = Lobby(settings, self._new_table, kind.open_waiting)
        kind.lobby = self.lobby
        interface = arbitre.lookup(TAROT)
        kind.rules = None if interface is None else interface.arbitre
        self.server: asyncio.Server | None = None
        self.port = 0
        #: The ids of the games whose tables ended, in the order they ended.
        self.ended: asyncio.Queue[str] = asyncio.Queue()

    async def start(
        self, host: str = "127.0.0.1", port: int = 0, *, sock: socket.socket | None = None
    ) -> None:
        """Listen on ``host``:``port``, or on the bound socket ``sock``."""
        if sock is not None:
            self.server = await asyncio.start_server(self.lobby.handle, sock=sock)
        else:
            self.server = await asyncio.start_server(self.lobby.handle, host, port)
        self.port = int(self.server.sockets[0].getsockname()[1])
        # The tables' games are bound to this process: the other workers leave them to it.
        await self.arbitre.hold(MaitreTarotSeat.name)

    async def close(self) -> None:
        """Stop listening; close the tables and the clients waiting."""
        if self.server is not None:
            self.server.close()
        await self.lobby.close()
        if self.server is not None:
            await self.server.wait_closed()
        try:
            await self.arbitre.hold(MaitreTarotSeat.name, held=False)
        except Exception:
            log.exception("saying the MaitreTarot tables are no longer held here")

    def _new_table(self) -> Opening:
        return Opening([0, 1, 2, 3], {}, self._start, tag="table")

    async def _start(self, opening: Opening, peers: dict[int, Peer], names: list[str]) -> None:
        """Make the full table's game and play it."""
        del opening
        interface = self.arbitre.lookup(TAROT)
        rules = None if interface is None else interface.arbitre
        where = addresses([peers[place] for place in sorted(peers)])
        seats = [SeatSpec(MaitreTarotSeat.name, where[p], names[p]) for p in range(4)]
        options = Options(timeout=int(self.settings.timeout), deals=self.settings.deals)
        try:
            if rules is None:
                raise GameError("this server does not play Tarot")
            game_id = await self.arbitre.create(TAROT, seats, options)
        except GameError as refused:
            log.warning("MaitreTarot table refused: %s", refused)
            for peer in peers.values():
                await peer.close()
            return
        log.info("MaitreTarot table: game %s", game_id)
        try:
            await self.kind.run_table(game_id, rules, peers, options.timeout)
        finally:
            self.ended.put_nowait(game_id)
