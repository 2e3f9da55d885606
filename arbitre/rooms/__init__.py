"""Connect Four rooms with spectators on a chat system: the timi protocol (seed 004,
``timi-rooms.md``), as the referee and as a player.

- :mod:`.timi`: the grammar and a room's referee, sans I/O (texts in, verdicts out);
- :mod:`.chat`: the chat system behind one small interface (join, part, say, notice,
  board, lag, events); :mod:`.irc`: IRC, its first implementation (jaraco's ``irc``
  library); :mod:`.pace`: how its lines go out (order, pace, lag), sans I/O;
- :mod:`.session`: one room's game as its ``irc`` seats see it;
- :mod:`.referee`: a worker's rooms: leases, seating, games, ends, archives.
"""
