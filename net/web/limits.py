"""What a web table allows, so that one busy address cannot crowd out everyone else: tabs at
once in all, per address and per player (a browser's identity), connections at once in all
and per address, new tabs per address per minute, logins in progress per address, how long a
tab may sit without a key pressed, and how much one tab may send. Counted as the SSH table
counts (net.ssh.limits, whose rate and password clocks it uses): IPv4 alone, IPv6 by its /64,
the machine's own loopback as one.
"""

from __future__ import annotations

from dataclasses import dataclass

BROWSER_FETCHES = 6  # connections a browser opens to one site at most, for its page and files


@dataclass(frozen=True)
class WebLimits:
    max_tabs: int = 20  # apps at once (each a process of about 16 MiB when idle)
    per_address: int = 3  # tabs at once from one address, and for one browser; as many logins
    per_minute: int = 10  # new tabs one address may open in a minute
    idle_minutes: float = 30.0  # minutes without a key pressed before a tab is closed; 0: never
    password_delay: float = 1.0  # seconds before answering an address's next password, after
    #                              its first wrong one; doubled for each wrong one after that
    max_message: int = 64 * 1024  # bytes of one websocket message from a browser
    max_cols: int = 500  # a window larger than this is drawn at this size (memory per child)
    max_rows: int = 200
    session_memory: int = 1024  # MiB of address space a tab's app may take (RLIMIT_AS)
    session_nice: int = 5  # how much lower a tab's app runs than the server (nice)

    @property
    def per_address_connections(self) -> int:
        """Connections one address may hold open at once: for each of its tabs, its websocket
        and a browser's fetches of the page and its files (six at a time)."""
        return self.per_address * (1 + BROWSER_FETCHES)

    @property
    def max_connections(self) -> int:
        """Connections open at once from all addresses: as many for each tab, and for an
        address's worth of tabs coming."""
        return (self.max_tabs + self.per_address) * (1 + BROWSER_FETCHES)

    def __post_init__(self) -> None:
        if min(self.max_tabs, self.per_address, self.per_minute) < 1 or self.idle_minutes < 0:
            raise ValueError("web limits: tabs, tabs per address and per minute must be at "
                             "least 1, the idle timeout 0 (never) or more")
