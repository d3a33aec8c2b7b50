"""What an SSH table allows: sessions at once, new sessions per address per minute, and how long
a session may sit without a key pressed. Every limit a visitor hits is told in one line, so the
defaults only need to keep one busy address from crowding out everyone else."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SshLimits:
    max_sessions: int = 20  # child apps at once (each a process of about 16 MiB when idle)
    per_minute: int = 10  # new sessions one address may start in a minute
    idle_minutes: float = 30.0  # minutes without a key pressed before a session is closed; 0: never
    login_timeout: float = 30.0  # seconds a connection may take to log in
    keepalive: float = 30.0  # seconds between keepalives, so a vanished client is noticed
    max_cols: int = 500  # a window larger than this is drawn at this size (memory per child)
    max_rows: int = 200
    session_memory: int = 1024  # MiB of address space a session's app may take (RLIMIT_AS)
    session_nice: int = 5  # how much lower a session's app runs than the server (nice)

    def __post_init__(self) -> None:
        if self.max_sessions < 1 or self.per_minute < 1 or self.idle_minutes < 0:
            raise ValueError("SSH limits: sessions and sessions per minute must be at least 1, "
                             "the idle timeout 0 (never) or more")


class AddressRate:
    """New sessions per address in the last minute. Refused attempts count too: a client that
    keeps knocking stays refused until it waits."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._starts: dict[str, deque[float]] = {}

    def allow(self, addr: str) -> bool:
        now = self.clock()
        starts = self._starts.setdefault(addr, deque(maxlen=self.per_minute + 1))
        while starts and starts[0] <= now - self.WINDOW:
            starts.popleft()
        starts.append(now)
        self._prune(now)
        return len(starts) <= self.per_minute

    def _prune(self, now: float) -> None:
        """Forget addresses that have been quiet for a minute, so the table stays small."""
        if len(self._starts) < 1024:
            return
        for addr in [a for a, s in self._starts.items() if not s or s[-1] <= now - self.WINDOW]:
            del self._starts[addr]


def counted(number: float, word: str) -> str:
    return f"{number:.0f} {word}" + ("" if round(number) == 1 else "s")
