"""What a relay allows: the limits (tests tighten them, docs/protocol.md lists the defaults)
and the bookkeeping that enforces wrong codes per address (rooms per address: net.relay.rooms).
Both count an address as net.relay.addresses groups them."""

from __future__ import annotations

import resource
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from net.relay import addresses
from net.wire.frames import MAX_FRAME


@dataclass
class Limits:
    max_frame: int = MAX_FRAME  # bytes per frame from a peer
    host_max_frame: int = 4 * MAX_FRAME  # a host's "send" may batch several views
    rate: float = 50.0  # frames per second a peer may send, sustained
    burst: float = 100.0  # ... and in a burst
    host_rate: float = 5000.0
    host_burst: float = 10000.0
    flood_close: int = 200  # frames dropped in a row before the connection is closed
    players: int = 16  # connections per room that may take a seat (owners not counted)
    spectators: int = 16  # connections per room that only watch
    max_rooms: int = 10000
    rooms_per_address: int = 50  # rooms in use per address group (net.relay.rooms)
    public_per_address: int = 3  # rooms an address group lists as open tables
    public_per_network: int = 6  # ... and its wider network (net.relay.addresses.network)
    tables_page: int = 50  # rows in one page of `GET /tables`
    hello_timeout: float = 10.0  # seconds to send "open" or "join" after connecting
    idle_timeout: float = 3600.0  # seconds without a frame or a pong before closing
    room_grace: float = 900.0  # seconds a room waits for a lost host while somebody is in it
    empty_grace: float = 60.0  # ... and once nobody is
    # Seconds a "resume" for a room this relay does not hold waits for the room's host to
    # open it: after a relay died, a room's host and peers reconnect to the next relay at
    # once, and a peer is often there first (net.relay.rooms).
    resume_wait: float = 10.0
    resumes_per_address: int = 50  # ... at most this many at once per address group
    play_quiet: float = 600.0  # a room with its host and peers is in play while frames pass
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    close_timeout: float = 2.0
    peer_buffer: int = 1024 * 1024  # bytes queued for a peer before it is cut as too slow
    host_buffer: int = 8 * 1024 * 1024
    sweep_every: float = 5.0
    wrong_code_free: int = 5  # wrong codes per address per window before slowing down
    wrong_code_window: float = 60.0
    wrong_code_delay: float = 0.5  # first delay; doubles with every further wrong code
    wrong_code_max_delay: float = 10.0


def guessing(addr: str, room: str) -> str:
    """What wrong secrets are counted under: the address group and the room guessed at."""
    return f"{addresses.group(addr)} {room}"


class WrongCodeGuard:
    """Slows down addresses that keep trying codes: after a few misses every further wrong
    answer to that address waits, doubling each time, so guessing 40-bit codes is hopeless.
    Only wrong answers wait: a right code is never held up by others' guesses, which matters
    on a shared machine, whose loopback addresses all count as one."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._misses: dict[str, deque[float]] = {}

    def _recent(self, addr: str) -> int:
        misses = self._misses.get(addr)
        if not misses:
            return 0
        horizon = self.clock() - self.limits.wrong_code_window
        while misses and misses[0] < horizon:
            misses.popleft()
        if not misses:
            del self._misses[addr]
            return 0
        return len(misses)

    def delay(self, addr: str) -> float:
        """How long the next wrong answer to `addr` waits."""
        over = self._recent(addresses.group(addr)) - self.limits.wrong_code_free
        if over < 0:
            return 0.0
        return min(self.limits.wrong_code_max_delay, self.limits.wrong_code_delay * 2**over)

    def penalty(self, addr: str) -> float:
        """How long `addr`'s next attempt waits, once it has missed more than the free tries
        (for wrong secrets, which the relay learns of only after the host answered)."""
        over = self._recent(addr) - self.limits.wrong_code_free
        if over <= 0:
            return 0.0
        return min(self.limits.wrong_code_max_delay, self.limits.wrong_code_delay * 2**(over - 1))

    def miss(self, addr: str) -> float:
        """Count a wrong code; returns how long this answer waits."""
        wait = self.delay(addr)
        self._misses.setdefault(addresses.group(addr), deque()).append(self.clock())
        return wait

    def prune(self) -> None:
        for addr in list(self._misses):
            self._recent(addr)


def raise_open_files() -> int:
    """Raise this process's soft limit on open files to its hard limit and return it: every
    connection of a server is a file, and the usual soft limit of 1,024 would cap a relay at
    a few hundred rooms long before its memory or CPU (a relay holds one file a connection)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(soft, 65536) if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft
