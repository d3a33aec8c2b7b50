"""SSH nodes behind a load balancer in TCP mode: the client's address from the PROXY protocol.

Behind HAProxy every connection comes from the balancer, so the per-address limits
(net.ssh.limits) would count the whole world as one address. HAProxy (`send-proxy-v2`) writes
the client's address in a binary header before the client's first byte; this module reads it,
then hands the socket to asyncssh (`asyncssh.run_server`), so the SSH handshake begins on the
byte after the header. asyncssh has no hook before its handshake, hence this small acceptor in
front of it (used only when the table trusts a balancer: `--ssh-trust-proxy`).

Only the balancers the table trusts may name an address: from them a header is required (a
connection without a valid one is closed before anything is sent), from anybody else no
header is read at all, so a forged one is just bytes the SSH handshake refuses. The header is
checked strictly (the signature, version 2, a known command, a TCP address of the family it
says, a length within bounds); TLVs after the addresses are read and ignored. A `LOCAL`
header (HAProxy's own health checks) counts under the balancer's own address.

The format is the one of haproxy.org's proxy-protocol.txt, section 2.2. It is parsed here
rather than by a package: what one would add is these few checks, and the acceptor that must
read exactly the header off a raw socket and no byte more.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from net.relay.addresses import Network, trusted

log = logging.getLogger("tabletop.sshd")

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
HEADER = 16  # the signature, version and command, family and transport, length
LOCAL, PROXY = 0x20, 0x21
TCP4, TCP6, UNSPEC = 0x11, 0x21, 0x00
_ADDRESSES = {TCP4: (4, 12), TCP6: (16, 36)}  # address size, block size
# HAProxy's TLVs are a few dozen bytes; a balancer sending more is misconfigured.
MOST = 1024
READ_SECONDS = 10.0


class BadHeader(ValueError):
    """A PROXY header that is none, with what is wrong with it."""


@dataclass(frozen=True)
class Origin:
    """Where a connection came from and the address and port it reached (the balancer's, which
    players type), as the balancer saw them; None for each: the socket's own (a `LOCAL`
    header)."""

    client: str | None
    reached: str | None
    port: int | None = None


def length(head: bytes) -> int:
    """How many bytes follow the first `HEADER` bytes; BadHeader if they are no v2 header."""
    if len(head) != HEADER or head[:12] != SIGNATURE:
        raise BadHeader("no PROXY protocol v2 signature")
    if head[12] not in (LOCAL, PROXY):
        raise BadHeader(f"version and command {head[12]:#04x} are not v2 LOCAL or PROXY")
    size = struct.unpack("!H", head[14:16])[0]
    if size > MOST:
        raise BadHeader(f"a header of {size} bytes is longer than {MOST}")
    return size


def origin(head: bytes, rest: bytes) -> Origin:
    """The origin a complete header (`head`: its first 16 bytes, `rest`: the others) names;
    BadHeader for anything but a v2 header of a TCP connection, or a LOCAL one."""
    if length(head) != len(rest):
        raise BadHeader("the header's length is not what was read")
    family = head[13]
    if family != UNSPEC and family not in _ADDRESSES:
        raise BadHeader(f"family and transport {family:#04x} are not TCP over IPv4 or IPv6")
    if head[12] == LOCAL or family == UNSPEC:
        return Origin(None, None)
    size, block = _ADDRESSES[family]
    if len(rest) < block:
        raise BadHeader(f"{len(rest)} bytes cannot hold the {block} of the addresses")
    source = ipaddress.ip_address(rest[:size])
    target = ipaddress.ip_address(rest[size:2 * size])
    port = struct.unpack("!H", rest[2 * size + 2:2 * size + 4])[0]
    return Origin(str(source), str(target), port)


async def _exactly(loop: asyncio.AbstractEventLoop, sock: socket.socket, size: int) -> bytes:
    """`size` bytes off `sock` and not one more (what follows is the SSH client's)."""
    got = bytearray()
    while len(got) < size:
        chunk = await loop.sock_recv(sock, size - len(got))
        if not chunk:
            raise BadHeader(f"the connection closed after {len(got)} bytes of the header")
        got += chunk
    return bytes(got)


async def read_origin(sock: socket.socket) -> Origin:
    """Read a connection's PROXY header; BadHeader (or TimeoutError) if it sends none."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(READ_SECONDS):
        head = await _exactly(loop, sock, HEADER)
        return origin(head, await _exactly(loop, sock, length(head)))


Serve = Callable[[socket.socket, Origin], Awaitable[None]]


class ProxiedListener:
    """Accepts TCP connections, reads the PROXY header of those from `proxies`, and hands
    each socket to `serve` with its origin."""

    def __init__(self, proxies: tuple[Network, ...], serve: Serve) -> None:
        self.proxies = proxies
        self.serve = serve
        self.socks: list[socket.socket] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, bind: str, port: int) -> int:
        """Listen on `bind` (every address if empty) and `port` (0: a free one); its port."""
        if not bind and socket.has_dualstack_ipv6():
            first = socket.create_server(("", port), family=socket.AF_INET6,
                                         dualstack_ipv6=True, reuse_port=False)
        else:
            family = socket.AF_INET6 if ":" in bind else socket.AF_INET
            first = socket.create_server((bind, port), family=family)
        first.setblocking(False)
        self.socks.append(first)
        self._spawn(self._accept(first))
        return int(first.getsockname()[1])

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(listener)
            except OSError as exc:  # out of file descriptors, for one: wait, then go on
                log.error("ssh: cannot accept a connection: %s", exc)
                await asyncio.sleep(0.5)
                continue
            sock.setblocking(False)
            self._spawn(self._take(sock, str(peer[0])))

    async def _take(self, sock: socket.socket, peer: str) -> None:
        if trusted(peer, self.proxies):
            try:
                found = await read_origin(sock)
            except (BadHeader, TimeoutError, OSError, ValueError) as exc:
                log.info("ssh connection from balancer %s dropped: %s", peer,
                         str(exc) or "no PROXY header in time")
                sock.close()
                return
        else:
            found = Origin(None, None)
        try:
            await self.serve(sock, found)
        except Exception as exc:  # a handshake that failed (every health check's): closed
            log.debug("ssh connection from %s ended before its login: %s", peer, exc)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for sock in self.socks:
            sock.close()
        self.socks.clear()
