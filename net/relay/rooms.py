"""The relay's rooms: who opened each (its address), who is in it, and the caps that keep one
address from taking every room. This is bookkeeping only; the relay closes connections.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from net.relay.conns import Conn
from net.relay.limits import Limits
from net.wire import codes


@dataclass
class Room:
    code: str
    host_token: str
    owner: str  # the address that opened it
    host: Conn | None = None
    members: dict[int, Conn] = field(default_factory=dict)
    next_cid: int = 1
    host_gone_at: float = 0.0
    used: bool = False  # someone joined it
    last_active: float = field(default_factory=time.monotonic)
    seat_ids: frozenset[str] = frozenset()  # seat owners the host vouched for

    def counts(self) -> tuple[int, int]:
        """(connections that asked for a seat, spectators) in the room now."""
        watchers = sum(1 for m in self.members.values() if m.watch)
        return len(self.members) - watchers, watchers


class RoomBook:
    """The rooms of one relay by code, and by the address that opened them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self.by_addr: dict[str, set[str]] = {}

    def __len__(self) -> int:
        return len(self.rooms)

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    def all(self) -> list[Room]:
        return list(self.rooms.values())

    def free_code(self) -> str:
        """A random room code not in use here."""
        code = codes.new_code()
        while code in self.rooms:
            code = codes.new_code()
        return code

    def add(self, code: str, host_token: str, addr: str) -> Room:
        room = self.rooms[code] = Room(code, host_token, addr)
        self.by_addr.setdefault(addr, set()).add(code)
        return room

    def remove(self, room: Room) -> bool:
        """Forget `room`; False if it was no longer here."""
        if self.rooms.get(room.code) is not room:
            return False
        del self.rooms[room.code]
        owned = self.by_addr.get(room.owner)
        if owned is not None:
            owned.discard(room.code)
            if not owned:
                del self.by_addr[room.owner]
        return True

    def over_address_cap(self, addr: str) -> int | None:
        """How many rooms `addr` holds, if that is already the most it may."""
        mine = len(self.by_addr.get(addr, ()))
        return mine if mine >= self.limits.rooms_per_address else None

    def full(self) -> bool:
        return len(self.rooms) >= self.limits.max_rooms

    def evictable(self) -> Room | None:
        """The least recently active room of the address holding the most rooms."""
        if not self.by_addr:
            return None
        heaviest = max(self.by_addr.values(), key=len)
        return min((self.rooms[c] for c in heaviest), key=lambda r: r.last_active)
