"""Which connections the relay counts as one address, for the caps that span connections
(rooms in use per address, wrong codes per address).

- An IPv4 address counts on its own. It is often many people already (a household, a school,
  a carrier's NAT), so counting a wider block would let one neighbour shut out many.
- An IPv6 address counts by its /64. One subscriber gets at least a /64 and may use any of its
  2^64 addresses (privacy addresses change by themselves), so counting each address would be
  no cap at all. An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) counts as IPv4.
- The loopback addresses (127.0.0.0/8 and ::1) count as one: every user of the machine can
  connect from any of 16 million of them, and they are all this one machine. That is why the
  per-address cap counts only rooms in use (net.relay.rooms): people sharing a machine share
  one cap, and a room nobody uses must not hold a place in it.
- Behind a load balancer, a connection counts under the client's address that the balancer
  forwarded, if the relay trusts that balancer (`client`, below).
"""

from __future__ import annotations

import ipaddress
import os

LOOPBACK = "loopback"


def group(addr: str) -> str:
    """The name `addr` is counted under: an IPv4 address, an IPv6 /64, or `LOOPBACK`."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr  # not an IP address (e.g. a Unix socket): counted as itself
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return LOOPBACK
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def network(addr: str) -> str:
    """The wider network `addr` belongs to, for the caps one subscriber could otherwise
    multiply (open tables listed): an IPv6 /48 (what a site is given, 65,536 /64s), an IPv4
    /24, or for anything else (loopback, a Unix socket) its group."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return group(addr)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return group(addr)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 80 << 80, 48)))
    return str(ipaddress.IPv4Network((int(ip) >> 8 << 8, 24)))


def describe(name: str) -> str:
    """A group's name as an error message says it."""
    if name == LOOPBACK:
        return "this machine (its loopback addresses 127.0.0.0/8 and ::1 count as one)"
    if "/" in name:
        return f"network {name}"
    return f"address {name}"


# -- behind a load balancer ------------------------------------------------------------------
# Relays behind a load balancer see every connection come from the balancer. The balancer
# names the client in `X-Forwarded-For` (HAProxy: `option forwardfor`), and a relay believes
# that header only from the balancers it was told to trust (`serve --trust-proxy`, or this
# variable: addresses or networks, separated by commas or spaces); from anybody else it is
# ignored, or any client could choose the address it is counted under.
PROXIES_ENV = "TABLETOP_TUI_RELAY_PROXIES"
FORWARDED = "X-Forwarded-For"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[Network, ...]:
    """`10.0.0.5, 10.0.1.0/24 ::1` -> networks; ValueError saying which part is no address."""
    found = []
    for part in text.replace(",", " ").split():
        try:
            found.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is no IP address or network") from None
    return tuple(found)


def trusted_proxies() -> tuple[Network, ...]:
    """The balancers this relay trusts (`PROXIES_ENV`); ValueError for a wrong entry."""
    return networks(os.environ.get(PROXIES_ENV, ""))


def trusted(peer: str, proxies: tuple[Network, ...]) -> bool:
    """Whether `peer` is one of the proxies (balancers) `proxies` names."""
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in proxies)


def client(peer: str, forwarded: list[str], proxies: tuple[Network, ...]) -> str:
    """The address a connection from `peer` counts under: `peer` itself, unless `peer` is a
    trusted proxy; then the last address in its `forwarded` headers (the one that proxy
    wrote: a client's own header comes before it)."""
    if not forwarded or not trusted(peer, proxies):
        return peer
    last = forwarded[-1].split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return peer
