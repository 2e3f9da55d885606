"""MaitreTarot's network protocol (seed 001; ``docs/reference/tarot.md`` section 4): our
server's tables and our client.

- :mod:`.codec`: the messages of the seed's tables 3 to 15, their names and bytes;
- :mod:`.protocol`: the flow, sans I/O: one :class:`~.protocol.Connection` per client,
  the same for the server's side and a client's;
"""
