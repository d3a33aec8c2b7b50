"""The relay's rooms: who hosts each, who is in it, and the rules that share the relay out.
This is bookkeeping only; the relay closes connections.

- A room is *in use* while its host is connected, or while its host is away and somebody in it
  waits for the host. Only rooms in use count against the address of their host (grouped as
  net.relay.addresses says): at most `rooms_per_address` each. Rooms that people opened,
  joined and left count for nobody, so they cannot lock out the others on a shared address.
  A room whose host is away counts while its players wait: else one address could hold rooms
  past its cap by keeping a peer connection in each while dropping the hosts, and a peer's
  connection costs no more than a host's.
- A returning peer (`resume`) whose room is not here yet waits up to `resume_wait` for its host
  to open it (as many as the room could hold, and `resumes_per_address` from one address
  group): after a relay died, hosts and peers reconnect to the next relay together, and
  neither should have to be first. Only a wait that ends without the room counts as a wrong
  code (net.relay.peers).
- A room whose host is away waits `room_grace` for it while somebody is in it, and
  `empty_grace` (about a minute) once nobody is. A host that comes back later reopens the room
  with its token, as below.
- A room is *in play* while its host and at least one peer are connected and a frame passed
  within `play_quiet`. When the relay holds `max_rooms`, a new room may take the place of a
  room not in play (one nobody is in first, then the least recently active room of the
  address holding the most); a room in play is never closed to make space.
- The host of a room the relay holds always gets it back with its token, whatever the caps.
  A room the relay no longer holds is reopened with its token as a new room, under the caps,
  and it may only take the place of a room nobody is in: so a host whose room was closed to
  make space cannot close another's in turn. One exception: in the first `room_grace` after
  the relay started, a code this relay never held is a host coming back after a restart. The
  relay before admitted it under the same caps, so it skips the address cap (hosts sharing a
  machine must not race each other for their own games) and may make space like a new room.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from net.relay import addresses
from net.relay.conns import Conn
from net.relay.limits import Limits
from net.wire import codes

if TYPE_CHECKING:
    from net.relay.listing import Listing


@dataclass
class Room:
    code: str
    host_token: str
    owner: str  # the address group of its host (the last one, while the host is away)
    host: Conn | None = None
    members: dict[int, Conn] = field(default_factory=dict)
    next_cid: int = 1
    host_gone_at: float = 0.0
    occupied_at: float = 0.0  # when the sweep last saw somebody in it
    last_active: float = field(default_factory=time.monotonic)  # the last frame either way
    seat_ids: frozenset[str] = frozenset()  # seat owners the host vouched for
    listing: Listing | None = None  # how the room shows among open tables, if it does

    def counts(self) -> tuple[int, int]:
        """(connections that asked for a seat, spectators) in the room now."""
        watchers = sum(1 for m in self.members.values() if m.watch)
        return len(self.members) - watchers, watchers

    def in_use(self) -> bool:
        return self.host is not None or bool(self.members)


class RoomBook:
    """The rooms of one relay by code, and by the address group of their hosts."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self.by_group: dict[str, set[str]] = {}
        self.started = time.monotonic()
        self.held: set[str] = set()  # codes opened here since the start, while that is recent
        self.listed: set[str] = set()  # codes of the rooms listed as open tables
        self.awaited: dict[str, list[asyncio.Future[Room]]] = {}  # code -> resumes waiting
        self.awaiting: dict[str, int] = {}  # address group -> resumes waiting

    def __len__(self) -> int:
        return len(self.rooms)

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    def free_code(self) -> str:
        """A random room code not in use here."""
        code = codes.new_code()
        while code in self.rooms:
            code = codes.new_code()
        return code

    # -- who hosts which room ---------------------------------------------------------------
    def add(self, code: str, host_token: str, host: Conn) -> Room:
        now = time.monotonic()
        room = self.rooms[code] = Room(code, host_token, addresses.group(host.addr), host=host,
                                       last_active=now)
        self.by_group.setdefault(room.owner, set()).add(code)
        if self._just_started(now):
            self.held.add(code)
        for waiting in self.awaited.pop(code, []):
            if not waiting.done():
                waiting.set_result(room)
        return room

    async def wait_for(self, code: str, addr: str) -> Room | None:
        """The room `code` once a host opens it here, within `resume_wait`; None if it does
        not come, or at once if as many wait for it already as the room could take, or if
        the address group of `addr` has `resumes_per_address` waiting already (a wait holds a
        connection open: one address must not hold thousands).

        A room opened between the caller's decision to wait and this coroutine's first step
        (a host that reconnected a moment after its peer, its frame read in the same turn of
        the event loop) is here already: it is returned at once, since `add` woke only the
        waits registered before it."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        group = addresses.group(addr)
        waiting = self.awaited.get(code, [])
        if (len(waiting) >= self.limits.players + self.limits.spectators
                or self.awaiting.get(group, 0) >= self.limits.resumes_per_address):
            return None
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self.awaited.setdefault(code, waiting).append(future)
        self.awaiting[group] = self.awaiting.get(group, 0) + 1
        try:
            async with asyncio.timeout(self.limits.resume_wait):
                return await future
        except TimeoutError:
            return None
        finally:
            with contextlib.suppress(ValueError):
                waiting.remove(future)
            if not waiting and self.awaited.get(code) is waiting:
                del self.awaited[code]
            self.awaiting[group] -= 1
            if not self.awaiting[group]:
                del self.awaiting[group]

    def attach(self, room: Room, host: Conn) -> None:
        """`host` is the room's host now; the room counts for its address from here on."""
        room.host = host
        owner = addresses.group(host.addr)
        if owner != room.owner:
            self._unindex(room)
            room.owner = owner
            self.by_group.setdefault(owner, set()).add(room.code)

    def detach(self, room: Room) -> None:
        """The room's host went; the room waits for it."""
        room.host = None
        room.host_gone_at = time.monotonic()

    def remove(self, room: Room) -> bool:
        """Forget `room`; False if it was no longer here."""
        if self.rooms.get(room.code) is not room:
            return False
        del self.rooms[room.code]
        self.listed.discard(room.code)
        self._unindex(room)
        return True

    def _unindex(self, room: Room) -> None:
        owned = self.by_group.get(room.owner)
        if owned is not None:
            owned.discard(room.code)
            if not owned:
                del self.by_group[room.owner]

    def _just_started(self, now: float) -> bool:
        return now - self.started < self.limits.room_grace

    def returning(self, code: str) -> bool:
        """Whether a host reopening `code` (not held here) comes back after a restart."""
        return self._just_started(time.monotonic()) and code not in self.held

    # -- the caps -----------------------------------------------------------------------------
    def address_load(self, addr: str) -> tuple[str, int]:
        """The address group of `addr`, and how many rooms in use it hosts."""
        name = addresses.group(addr)
        return name, sum(1 for c in self.by_group.get(name, ()) if self.rooms[c].in_use())

    def full(self) -> bool:
        return len(self.rooms) >= self.limits.max_rooms

    def in_play(self, room: Room, now: float) -> bool:
        return (room.host is not None and bool(room.members)
                and now - room.last_active <= self.limits.play_quiet)

    def evictable(self, now: float, empty_only: bool = False) -> Room | None:
        """The room to close so a new one fits, if any may go: never a room in play; one
        nobody is in first, then the least recently active room of the address group holding
        the most rooms. With `empty_only`, only a room nobody is in."""
        held = {name: len(owned) for name, owned in self.by_group.items()}
        candidates = [r for r in self.rooms.values()
                      if not (r.in_use() if empty_only else self.in_play(r, now))]
        if not candidates:
            return None
        return min(candidates, key=lambda r: (r.in_use(), -held[r.owner], r.last_active))

    def full_message(self, now: float) -> str:
        """Why a full relay takes no more rooms, truly."""
        playing = sum(1 for r in self.rooms.values() if self.in_play(r, now))
        total = len(self.rooms)
        if playing == total:
            return f"this relay is full: {total} rooms in play; try later"
        return f"this relay is full: {total} rooms, {playing} of them in play; try later"

    # -- housekeeping -------------------------------------------------------------------------
    def expired(self, now: float) -> list[Room]:
        """The rooms whose host did not come back in time (see the module's docstring)."""
        if self.held and not self._just_started(now):
            self.held.clear()
        limits = self.limits
        gone = []
        for room in self.rooms.values():
            if room.host is not None:
                continue
            if room.members:
                room.occupied_at = now
                if now - room.host_gone_at > limits.room_grace:
                    gone.append(room)
            elif now - max(room.host_gone_at, room.occupied_at) > limits.empty_grace:
                gone.append(room)
        return gone
