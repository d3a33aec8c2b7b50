"""Which connections the relay counts as one address, for the caps that span connections
(rooms in use per address, wrong codes per address).

- An IPv4 address counts on its own. It is often many people already (a household, a school,
  a carrier's NAT), so counting a wider block would let one neighbour shut out many.
- An IPv6 address counts by its /64. One subscriber gets at least a /64 and may use any of its
  2^64 addresses (privacy addresses change by themselves), so counting each address would be
  no cap at all. An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) counts as IPv4.
- The loopback addresses (127.0.0.0/8 and ::1) count as one per local user: every user of
  the machine can connect from any of 16 million of them, so the address says nothing, but on
  Linux the kernel tells who owns the connecting socket (asked for that one socket through
  sock_diag, as `ss` asks; else read from `/proc/net/tcp` and `tcp6`, as identd did), and
  each user of a shared machine counts on their own (`local_user`). Where that
  cannot be known (no /proc, another system, a socket gone before it was looked up) all
  loopback counts as one, so people sharing such a machine share one cap; that is also why
  the per-address cap counts only rooms in use (net.relay.rooms): a room nobody uses must not
  hold a place in it. Sessions of an SSH or web table are all the table's own user.
- Behind a load balancer, a connection counts under the client's address that the balancer
  forwarded, if the relay trusts that balancer (`client`, below).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
import sys

LOOPBACK = "loopback"
USER = LOOPBACK + " user "  # + uid: the group of a local user's connections
USER_MARK = " user "  # `127.0.0.1 user 1000`: a loopback address and its socket's owner
TCP_TABLES = ("/proc/net/tcp", "/proc/net/tcp6")


def _ip(addr: str) -> Address | None:
    """`addr` as an IP address (a v4-mapped one as IPv4); None if it is none."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def group(addr: str) -> str:
    """The name `addr` is counted under: an IPv4 address, an IPv6 /64, `LOOPBACK`, or a
    local user's name as `local_user` made it."""
    if USER_MARK in addr:
        return USER + addr.rsplit(USER_MARK, 1)[1]
    ip = _ip(addr)
    if ip is None:
        return addr  # not an IP address (e.g. a Unix socket): counted as itself
    if ip.is_loopback:
        return LOOPBACK
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def network(addr: str) -> str:
    """The wider network `addr` belongs to, for the caps one subscriber could otherwise
    multiply (open tables listed): an IPv6 /48 (what a site is given, 65,536 /64s), an IPv4
    /24, or for anything else (loopback, a Unix socket) its group."""
    ip = _ip(addr)
    if ip is None or ip.is_loopback:
        return group(addr)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 80 << 80, 48)))
    return str(ipaddress.IPv4Network((int(ip) >> 8 << 8, 24)))


def is_loopback(addr: str) -> bool:
    ip = _ip(addr)
    return ip is not None and ip.is_loopback


def _endpoint(text: str) -> tuple[Address, int]:
    """`0100007F:1F90` (an address as /proc/net/tcp* prints it: 32-bit words in the host's
    byte order, then the port) as an address and a port; a v4-mapped address as IPv4."""
    hexaddr, hexport = text.split(":")
    raw = bytes.fromhex(hexaddr)
    order = "little" if sys.byteorder == "little" else "big"
    packed = b"".join(int.from_bytes(raw[i:i + 4], order).to_bytes(4, "big")
                      for i in range(0, len(raw), 4))
    ip = _ip(str(ipaddress.ip_address(packed)))
    assert ip is not None
    return ip, int(hexport, 16)


def plain(host: str, port: int) -> tuple[Address, int]:
    ip = _ip(host.split("%")[0])
    if ip is None:
        raise ValueError(host)
    return ip, port


def socket_owner(peer: tuple[str, int], local: tuple[str, int],
                 tables: tuple[str, ...] = TCP_TABLES) -> int | None:
    """The uid owning the TCP socket that connected from `peer` to our `local` end (the
    connecting side's socket is the one whose local end is `peer` and whose remote end is
    `local`): asked of the kernel for that one socket (`diag_owner`), or, where it can't be
    asked so, read from its lists in /proc (`proc_owner`); None where neither tells."""
    try:
        want = (plain(*peer), plain(*local))
    except ValueError:
        return None
    try:
        return diag_owner(*want)
    except OSError:
        return proc_owner(want, tables)


# The kernel's socket monitoring interface (Linux's sock_diag over netlink): one request names
# one TCP socket by its four addresses and the answer carries its owner. Reading /proc/net/tcp
# instead costs a line per socket of the machine, for every connection a relay takes: with ten
# thousand connections open, that made each new one slower than the last.
_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_NLMSG_HEADER = struct.Struct("=IHHII")  # length, type, flags, sequence, port id
_DIAG_REQUEST = struct.Struct("=BBBBI")  # family, protocol, extensions, pad, states
_NO_COOKIE = struct.pack("=III", 0, 0xFFFFFFFF, 0xFFFFFFFF)  # any interface, no cookie
_UID_AT = _NLMSG_HEADER.size + 4 + 48 + 12  # in the answer: its header, sock id, three u32s


def diag_owner(peer: tuple[Address, int], local: tuple[Address, int]) -> int | None:
    """The owner of the TCP socket from `peer` to `local` as sock_diag answers for it (None:
    there is no such socket); OSError where the interface can't be reached."""
    for src, dst in _spellings(peer, local):
        family = socket.AF_INET if src[0].version == 4 else socket.AF_INET6
        request = (_DIAG_REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF)
                   + struct.pack("!HH", src[1], dst[1])
                   + src[0].packed.ljust(16, b"\0") + dst[0].packed.ljust(16, b"\0")
                   + _NO_COOKIE)
        header = _NLMSG_HEADER.pack(_NLMSG_HEADER.size + len(request), _SOCK_DIAG_BY_FAMILY,
                                    _NLM_F_REQUEST, 1, 0)
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG) as ask:
            ask.settimeout(1.0)
            ask.sendto(header + request, (0, 0))
            answer = ask.recv(8192)
        kind = _NLMSG_HEADER.unpack_from(answer)[1]
        if kind != _NLMSG_ERROR and len(answer) >= _UID_AT + 4:
            return int(struct.unpack_from("=I", answer, _UID_AT)[0])
    return None


def _spellings(peer: tuple[Address, int], local: tuple[Address, int]
               ) -> list[tuple[tuple[Address, int], tuple[Address, int]]]:
    """The ways the kernel may hold a connection: as written, and for IPv4 also as an IPv6
    socket's v4-mapped addresses (a dual-stack socket's view of the same connection)."""
    out = [(peer, local)]
    if peer[0].version == 4 and local[0].version == 4:
        mapped = [(ipaddress.IPv6Address(f"::ffff:{ip}"), port) for ip, port in (peer, local)]
        out.append((mapped[0], mapped[1]))
    return out


def proc_owner(want: tuple[tuple[Address, int], tuple[Address, int]],
               tables: tuple[str, ...] = TCP_TABLES) -> int | None:
    """The owner of the connection `want` (peer, local) as /proc/net/tcp* list it."""
    for table in tables:
        try:
            with open(table, encoding="ascii") as lines:
                next(lines, None)  # the heading
                for line in lines:
                    fields = line.split()
                    if len(fields) < 8:
                        continue
                    try:
                        if (_endpoint(fields[1]), _endpoint(fields[2])) == want:
                            return int(fields[7])
                    except ValueError:
                        continue
        except OSError:
            continue
    return None


def local_user(addr: str, peer: tuple[str, int] | None, local: tuple[str, int] | None) -> str:
    """The address a connection from `addr` counts under: for loopback, `addr` with its
    socket's owner (`127.0.0.1 user 1000`, grouped as `USER` + uid) when the kernel tells
    whose socket it is, else `addr` itself."""
    if peer is None or local is None or not is_loopback(addr):
        return addr
    uid = socket_owner((str(peer[0]), int(peer[1])), (str(local[0]), int(local[1])))
    return addr if uid is None else f"{addr}{USER_MARK}{uid}"


def describe(name: str) -> str:
    """A group's name as an error message says it."""
    if name == LOOPBACK:
        return "this machine (its loopback addresses 127.0.0.0/8 and ::1 count as one)"
    if name.startswith(USER):
        return f"user {name[len(USER):]} of this machine"
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
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


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
    ip = _ip(peer)
    return ip is not None and any(ip in net for net in proxies)


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
