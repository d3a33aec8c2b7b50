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
"""

from __future__ import annotations

import ipaddress

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


def describe(name: str) -> str:
    """A group's name as an error message says it."""
    if name == LOOPBACK:
        return "this machine (its loopback addresses 127.0.0.0/8 and ::1 count as one)"
    if "/" in name:
        return f"network {name}"
    return f"address {name}"
