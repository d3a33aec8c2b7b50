"""What an SSH table allows, so that one busy address cannot crowd out everyone else.

Sessions: at once in all, at once per address and per player, new ones per address per minute,
and how long a session may sit without a key pressed. Connections: a connection is only a
socket until it logs in and opens a session, so the table caps the logins in progress per
address (as OpenSSH's `PerSourceMaxStartups`) and in all, where above a start mark it turns
newcomers away at random, the more the fuller it is (OpenSSH's `MaxStartups start:rate:full`:
a holder of slots cannot tell a gap from a newcomer's way in); it gives a client a few seconds
to begin its key exchange and a little longer to log in, closes a logged-in connection that
has had no session for a short grace, and turns away for a growing while an address whose
logins keep stalling or failing (net.ssh.penalties). Wrong passwords: a few per connection,
and a delay before every answer to an address that has been guessing, doubling with each
wrong guess. Every limit a visitor hits is told in one line.

An address is counted as net.relay.addresses groups it: IPv4 alone, IPv6 by its /64, the
machine's own loopback addresses as one.
"""

from __future__ import annotations

import logging
import resource
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from net.relay.limits import raise_open_files

log = logging.getLogger("tabletop.sshd")

# The longest wait before answering a password, however long an address has been guessing.
MAX_PASSWORD_DELAY = 30.0
# File descriptors the server needs besides its SSH connections and sessions (the relay's
# listeners and clients, logs, the event loop), and per session (its pseudo-terminal, its
# child's watcher, the child's connection to the relay).
FILES_BESIDES = 128
FILES_PER_SESSION = 3


@dataclass(frozen=True)
class SshLimits:
    max_sessions: int = 20  # child apps at once (each a process of about 16 MiB when idle)
    per_address: int = 3  # sessions at once from one address, and for one player (key or name)
    per_minute: int = 10  # new sessions one address may start in a minute
    idle_minutes: float = 30.0  # minutes without a key pressed before a session is closed; 0: never
    max_startups: int = 60  # connections logging in at once, from all addresses (full)
    startups_begin: int = 10  # above this many, newcomers are turned away at random...
    startups_rate: int = 30  # ...this percent of them, rising to all at max_startups
    hello_timeout: float = 10.0  # seconds a client has to begin its key exchange
    login_timeout: float = 30.0  # seconds a connection may take to log in (a host key to
    #                              check, a passphrase or password to type)
    penalty_after: float = 45.0  # seconds of stalled logins an address may owe before it
    #                              is refused (net.ssh.penalties)
    penalty_most: float = 600.0  # the longest it is refused; 0: never
    grace: float = 10.0  # seconds a logged-in connection may stay without a session
    password_tries: int = 3  # wrong passwords on one connection before it is closed
    password_delay: float = 1.0  # seconds before answering an address's next password, after
    #                              its first wrong one; doubled for each wrong one after that
    keepalive: float = 30.0  # seconds between keepalives, so a vanished client is noticed
    max_cols: int = 500  # a window larger than this is drawn at this size (memory per child)
    max_rows: int = 200
    session_memory: int = 1024  # MiB of address space a session's app may take (RLIMIT_AS)
    session_nice: int = 5  # how much lower a session's app runs than the server (nice)

    def __post_init__(self) -> None:
        if min(self.max_sessions, self.per_address, self.per_minute, self.max_startups,
               self.password_tries, self.startups_begin) < 1 or self.idle_minutes < 0:
            raise ValueError("SSH limits: sessions, sessions per address and per minute, logins "
                             "at once and password tries must be at least 1, the idle timeout "
                             "0 (never) or more")
        if not 0 <= self.startups_rate <= 100:
            raise ValueError("SSH limits: the rate of logins turned away is a percentage")
        if min(self.hello_timeout, self.login_timeout, self.penalty_after) <= 0 or \
                self.penalty_most < 0:
            raise ValueError("SSH limits: the login timeouts and the penalty's start must be "
                             "above 0, its longest 0 (never) or more")

    @property
    def startups_from(self) -> int:
        """Logins in progress above which newcomers are turned away at random."""
        return min(self.startups_begin, self.max_startups)

    def turn_away_chance(self, startups: int) -> float:
        """The chance that a newcomer is turned away while `startups` logins are in progress:
        none below the start mark, `startups_rate` percent at it, rising in a line to all at
        the full mark (OpenSSH's MaxStartups)."""
        start, full = self.startups_from, self.max_startups
        if startups >= full:
            return 1.0
        if startups < start:
            return 0.0
        return (self.startups_rate + (100 - self.startups_rate) * (startups - start)
                / (full - start)) / 100

    @property
    def per_address_startups(self) -> int:
        """Connections one address may have logging in at once: as many as its sessions."""
        return self.per_address

    @property
    def max_connections(self) -> int:
        """Connections at once, logged in or not: a session's and one coming or going for
        each place at the table, and the logins in progress."""
        return 2 * self.max_sessions + self.max_startups

    @property
    def per_address_connections(self) -> int:
        """Connections one address may hold at once: its sessions, as many coming or going,
        and its logins in progress."""
        return 2 * self.per_address + self.per_address_startups

    def files_needed(self) -> int:
        return self.max_connections + FILES_PER_SESSION * self.max_sessions + FILES_BESIDES


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


class Guesses:
    """Wrong passwords per address in the last quarter of an hour, and how long to wait before
    answering that address's next password: nothing before its first wrong one, then `base`
    seconds, doubling with each wrong one (at most MAX_PASSWORD_DELAY). The wait comes before
    the answer to every password, the right one too: a guesser who gave up waiting after a
    moment would otherwise learn that its guess was wrong without paying for it."""

    WINDOW = 15 * 60.0
    KEPT = 32  # wrong passwords remembered per address (the delay is long before that)

    def __init__(self, base: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.base = base
        self.clock = clock
        self._wrong: dict[str, deque[float]] = {}

    def count(self, addr: str) -> int:
        wrong = self._wrong.get(addr)
        if wrong is None:
            return 0
        while wrong and wrong[0] <= self.clock() - self.WINDOW:
            wrong.popleft()
        if not wrong:
            del self._wrong[addr]
        return len(wrong)

    def delay(self, addr: str) -> float:
        count = self.count(addr)
        return 0.0 if not count else min(MAX_PASSWORD_DELAY, self.base * 2 ** (count - 1))

    def wrong(self, addr: str) -> int:
        """Count a wrong password from `addr`; how many it has given lately."""
        now = self.clock()
        self._wrong.setdefault(addr, deque(maxlen=self.KEPT)).append(now)
        if len(self._wrong) >= 1024:  # forget addresses that stopped guessing
            for quiet in [a for a, w in self._wrong.items() if w[-1] <= now - self.WINDOW]:
                del self._wrong[quiet]
        return self.count(addr)


def raise_file_limit(limits: SshLimits) -> int:
    """Raise this process's soft limit on open files to its hard limit (a public table's
    connections are sockets; the usual soft limit of 1,024 is low for a server), and warn
    once if even that is below what the table's limits may take. Returns the limit."""
    soft = raise_open_files()
    if soft != resource.RLIM_INFINITY and soft < limits.files_needed():
        log.warning("the limit on open files is %d, below the %d the SSH table's limits may "
                    "take: raise it (LimitNOFILE= in a systemd unit) or lower the limits",
                    soft, limits.files_needed())
    return soft

