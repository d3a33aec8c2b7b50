"""A room shown among its relay's open tables (net.relay.listing), for strangers at a public
table to find: the host's lobby switch. What the relay shows is kept in step with the lobby
(the seats still free), is withdrawn when the game starts and shown again for a rematch. A
listed room may fill its free seats with bots after a wait the host chose, and start: a
stranger who opened a room by "Quick play" gets a game even at an empty table. A room whose
seats people have all taken by then waits for its host to start it.

Listing gives the whole join code to the relay and to everyone who asks it: a public room is
a public place. The host's name goes with its identity key and a signature over room and
name, so the table can show the host's rating and finished share beside it.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from net.players import identity

if TYPE_CHECKING:
    from net.host.authority import NetHost

# The longest wait before bots fill a listed room (the relay refuses longer ones).
MAX_FILL_AFTER = 3600.0


class Billboard:
    """One room's listing at its relay, as the host's lobby sets it."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        self.public = False
        self.fill_after: float | None = None  # seconds after listing when bots fill the room
        self.listed_at: float | None = None  # when the room went up, for this lobby
        self._filling: asyncio.Task[None] | None = None
        self._signed: tuple[str, str, bytes, bytes] | None = None  # room, name, key, sig

    def set(self, public: bool, fill_after: float | None = None) -> None:
        """The lobby's switch: list the room (bots filling it after `fill_after` seconds,
        None: never) or keep it private."""
        if fill_after is not None and not 0 <= fill_after <= MAX_FILL_AFTER:
            raise ValueError(f"bots may fill the room after 0 to {MAX_FILL_AFTER:g} seconds")
        self.public, self.fill_after = public, fill_after
        self.listed_at = None
        self.update()

    def refused(self, message: str) -> None:
        """The relay would not list the room (too many from this address): it stays private."""
        self.public = False
        self.update()
        self.host.notice(f"This room stays private: {message}")

    def state(self) -> dict[str, Any]:
        """For the lobby screens: listed or not, and when bots come."""
        bots_in = None
        if self.listed_at is not None and self.fill_after is not None and self._free():
            bots_in = max(0.0, self.listed_at + self.fill_after - time.monotonic())
        return {"public": self.public and not self.host.started, "bots_in": bots_in,
                "min_finished": self.host.min_finished}

    def update(self) -> None:
        """Show the relay what the lobby is now (or nothing, once the game started)."""
        host = self.host
        shown = self.public and not host.started and bool(host.uplink.code)
        if not shown:
            self.listed_at = None
            self._stop_filling()
            host.uplink.show(None)
            return
        if self.listed_at is None:
            self.listed_at = time.monotonic()
            self._stop_filling()
            if self.fill_after is not None:
                self._filling = asyncio.get_running_loop().create_task(self._fill())
        host.uplink.show(self._fields())

    def _fields(self) -> dict[str, Any]:
        host = self.host
        local = next((s for s in host.seats if s.local), None)
        name = local.name if local is not None and local.name else "host"
        fields: dict[str, Any] = {
            "game": host.engine.id, "seats": len(host.seats),
            "free": sum(1 for s in host.seats if s.empty), "secret": host.keys.secret,
            "name": name, "level": host.level, "fill_after": self.fill_after,
            "min_finished": host.min_finished}
        signed = self._sign(host.room, name)
        if signed is not None:
            fields.update(key=signed[0], sig=signed[1])
        return fields

    def _sign(self, room: str, name: str) -> tuple[bytes, bytes] | None:
        """The host's key and its signature listing `room` under `name` (kept while both
        stay); None for a host without an identity (it is listed unrated)."""
        if self._signed is None or self._signed[:2] != (room, name):
            me = identity.mine()
            if me is None:
                return None
            self._signed = (room, name, me.public, me.list_room(room, name))
        return self._signed[2], self._signed[3]

    async def _fill(self) -> None:
        assert self.fill_after is not None
        await asyncio.sleep(self.fill_after)
        self._filling = None
        if not self.host.started and not self._free():  # people in every seat: theirs to say
            self.host.notice("Every seat has a player: the host starts the game")
        elif not self.host.started:  # bots take the free seats, and the game begins
            self.host.notice("Nobody else came in time: bots take the free seats")
            self.host.start()

    def _free(self) -> bool:
        """Whether a seat is free for a bot to take (people in every seat need none)."""
        return any(seat.empty for seat in self.host.seats)

    def _stop_filling(self) -> None:
        if self._filling is not None:
            self._filling.cancel()
            self._filling = None
