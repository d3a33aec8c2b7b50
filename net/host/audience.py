"""Everyone who hears a hosted table: the peers in the room, reached through the relay, and
the host's own terminal, reached through listeners.

Who gets which view is decided here and only here, so a seat's hidden cards go to the
connections playing that seat and to nobody else; spectators get the public view.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from net.host.seats import Peer
from net.host.uplink import Uplink
from net.table.link import Message

Listener = Callable[[Message], None]


class Audience:
    """The peers by connection id, the host terminal's listeners, and the ways to reach them."""

    def __init__(self, uplink: Uplink) -> None:
        self.uplink = uplink
        self.peers: dict[int, Peer] = {}
        self._listeners: list[Listener] = []

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def spectators(self) -> int:
        return sum(1 for p in self.peers.values() if p.seat is None)

    def local(self, message: Message) -> None:
        """Tell the host's own terminal only."""
        for listener in list(self._listeners):
            listener(message)

    def everyone(self, t: str, **fields: Any) -> None:
        """Tell every admitted peer (each sealed for it) and the host's own terminal the same
        thing."""
        self.uplink.post(list(self.peers), t, **fields)
        self.local({"type": t, **fields})

    def send(self, cids: list[int], message: Message) -> None:
        """Send a message shaped like a local one (its "type" is the frame type) to `cids`."""
        t = message.pop("type")
        self.uplink.post(cids, t, **message)

    def seat(self, seat: int, message: Message, local: bool) -> None:
        """One seat's table message to the connections playing it (and this terminal's, if
        the seat is played here)."""
        cids = [p.cid for p in self.peers.values() if p.seat == seat]
        if cids:
            self.send(cids, dict(message))
        if local:
            self.local(message)

    def table(self, message_for: Callable[[int | None], Message],
              local_seats: Iterable[int]) -> None:
        """Give every connection its seat's table message (spectators: the public one, seat
        None) and the host's terminal one for each of its `local_seats`."""
        seated: dict[int, list[int]] = {}
        watchers: list[int] = []
        for peer in self.peers.values():
            if peer.seat is None:
                watchers.append(peer.cid)
            else:
                seated.setdefault(peer.seat, []).append(peer.cid)
        for seat, cids in seated.items():
            self.send(cids, message_for(seat))
        if watchers:
            self.send(watchers, message_for(None))
        for seat in local_seats:
            self.local(message_for(seat))
