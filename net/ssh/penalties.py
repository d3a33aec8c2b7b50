"""Addresses whose logins keep stalling or failing are turned away for a while that grows, as
OpenSSH's `PerSourcePenalties` do.

A login in progress holds one of the table's few slots for logins (net.ssh.limits), so an
attacker from a handful of addresses who opens connections and never finishes logging in
keeps every newcomer out, even when each connection is cut at the login timeout: it just
opens the next. Each connection that leaves without logging in therefore charges its address
the seconds it held its slot (a little more if it tried a wrong password or key, so quick
failures add up too), and a logged-in connection closed for having no session its grace.
Charges add up and are paid off in real time; once an address owes `after` seconds it is
refused until it has paid its debt, and every refusal it earned in the last hour doubles what
its next stalls cost, up to `most` seconds of refusal. A person who gives up at a password
or passphrase prompt once owes less than `after`; a client that holds slots owes it within a
few of its connections.

Charges are kept per address group (net.relay.addresses: IPv4 alone, IPv6 by its /64). The
table never charges a balancer it trusts for its own connections (its health checks) and,
like OpenSSH by default, keeps books for at most MAX_SOURCES addresses: beyond that a new
address goes uncharged rather than refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

# What a connection that tried a wrong password or key and left costs beyond the seconds it
# held its slot, and what any connection that left without logging in costs at least.
FAILED_LOGIN = 5.0
LEAST_CHARGE = 1.0
# How long an address's refusals make its later stalls cost more.
REMEMBERED = 3600.0
MAX_SOURCES = 65536


@dataclass
class Debt:
    """One address's account: refused until `until` once `refused`; `strikes` refusals in
    the last REMEMBERED seconds, the last at `struck`."""

    until: float
    refused: bool = False
    strikes: int = 0
    struck: float = 0.0


class Penalties:
    """Charges per address and the refusals they earn; `most` 0: nobody is ever refused."""

    def __init__(self, after: float, most: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.after = after
        self.most = most
        self.clock = clock
        self._debts: dict[str, Debt] = {}

    def refused(self, group: str) -> float:
        """The seconds `group` stays refused (0: it may come in)."""
        debt = self._debts.get(group)
        if debt is None or not debt.refused:
            return 0.0
        return max(0.0, debt.until - self.clock())

    def charge(self, group: str, seconds: float) -> float:
        """Charge `group` `seconds` (LEAST_CHARGE at least); the seconds it is now refused
        for if this charge begins a refusal, else 0."""
        if not self.most:
            return 0.0
        now = self.clock()
        debt = self._debts.get(group)
        if debt is None:
            if len(self._debts) >= MAX_SOURCES and not self._prune(now):
                return 0.0
            debt = self._debts[group] = Debt(now)
        if debt.until <= now:  # paid off: a fresh start, but strikes are remembered a while
            debt.until, debt.refused = now, False
        if debt.strikes and debt.struck <= now - REMEMBERED:
            debt.strikes = 0
        cost = max(seconds, LEAST_CHARGE) * 2 ** min(debt.strikes, 16)
        debt.until = min(debt.until + cost, now + self.most)
        if debt.refused or debt.until - now < self.after:
            return 0.0
        debt.refused, debt.strikes, debt.struck = True, debt.strikes + 1, now
        return debt.until - now

    def _prune(self, now: float) -> bool:
        """Forget the addresses that owe nothing and have no strike to remember; whether
        there is room for another now."""
        for group in [g for g, d in self._debts.items()
                      if d.until <= now and (not d.strikes or d.struck <= now - REMEMBERED)]:
            del self._debts[group]
        return len(self._debts) < MAX_SOURCES
