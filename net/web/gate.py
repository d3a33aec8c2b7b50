"""The web table's own accept: each TCP connection is counted under its address before the web
server reads a byte of it, so that one address cannot hold the table's files open (a thousand
idle connections, or requests sent a byte a minute) and lock everyone else out. A connection
over its address's share, or over the table's, is answered with one line and closed.

Behind a trusted reverse proxy (`--web-trust-proxy`) every connection comes from the proxy:
those count in the table's total only, and the proxy keeps its clients apart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from net.relay import addresses
from net.web.limits import WebLimits

log = logging.getLogger("tabletop.web")

PROXIED = ""  # the group of the connections from a trusted proxy


def refusal(text: str) -> bytes:
    """An HTTP answer of one line, which a browser shows as it is."""
    body = (text + "\n").encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))


class Connections:
    """The table's open connections, each under its address group; `group` is read at each
    connection (how the table counts addresses)."""

    def __init__(self, limits: WebLimits, trusted: tuple[addresses.Network, ...],
                 group: Callable[[str], str]) -> None:
        self.limits = limits
        self.trusted = trusted
        self.group = group
        self.open: list[tuple[str, asyncio.BaseTransport]] = []

    def admit(self, peer: str, transport: asyncio.BaseTransport) -> str | None:
        """Count the connection `transport` from `peer`: None if it may go on, else why not."""
        self.open = [(g, t) for g, t in self.open if not t.is_closing()]
        group = PROXIED if addresses.trusted(peer, self.trusted) else self.group(peer)
        most = self.limits.per_address_connections
        if len(self.open) >= self.limits.max_connections:
            why = "the table has too many connections; try again later"
        elif group != PROXIED and sum(g == group for g, _t in self.open) >= most:
            why = (f"too many connections from {addresses.describe(group)}: at most {most} at "
                   "once; close some tabs or try again later")
        else:
            self.open.append((group, transport))
            return None
        log.info("web connection from %s refused: %s", peer, why)
        return why


class _Door(asyncio.Protocol):
    """A new connection: handed to the web server's protocol, or refused."""

    def __init__(self, connections: Connections, serve: Callable[[], asyncio.Protocol]) -> None:
        self.connections = connections
        self.serve = serve

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        why = self.connections.admit(str(peer[0]) if peer else "", transport)
        if why is not None:
            transport.write(refusal(why))
            transport.close()
            return
        inner = self.serve()
        transport.set_protocol(inner)
        inner.connection_made(transport)


async def listen(connections: Connections, serve: Callable[[], asyncio.Protocol],
                 host: str | None, port: int) -> asyncio.Server:
    """Listen on `host` and `port` (0: any free one); each connection `connections` admits
    is served by a protocol `serve` makes."""
    return await asyncio.get_running_loop().create_server(
        lambda: _Door(connections, serve), host, port, reuse_address=True)
