"""One network cannot hide the open tables: a flood of listings from one IPv6 /48 (its 65,536
/64s each an address group) is capped per network as per address, the relay answers a
bounded list a page at a time, closest to starting first, and a client given a list too long
takes the rows that fit instead of refusing them all. A real relay on 127.0.0.1 that trusts
the test as its load balancer, so each connection counts under the address it presents."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
from test_open_tables import answering
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import serve

from net.peer.tables import MAX_BYTES, MAX_ROWS, open_tables
from net.relay import addresses
from net.relay.limits import Limits
from net.relay.server import Relay
from net.wire import codes
from net.wire.frames import encode


@pytest.fixture
async def trusting() -> AsyncIterator[Relay]:
    """A relay that believes the test's X-Forwarded-For, with pages of four rows."""
    relay = Relay(Limits(sweep_every=0.5, tables_page=4),
                  proxies=addresses.networks("127.0.0.1"))
    await relay.start("127.0.0.1", 0)
    try:
        yield relay
    finally:
        await relay.stop()


async def list_from(relay: Relay, addr: str, name: str, free: int = 1,
                    game: str = "schoene") -> tuple[ClientConnection, dict[str, Any] | None]:
    """A host at `addr` opens a room and lists it; its socket and the refusal (None: listed)."""
    code = codes.new_code()
    ws = await connect(relay.url + codes.room_path(code),
                       additional_headers={addresses.FORWARDED: addr})
    await ws.send(encode("open", seq=1, code=code, host_token=None))
    assert msgpack.unpackb(await ws.recv(), raw=False)["t"] == "opened"
    await ws.send(encode("list", seq=2, game=game, seats=3, free=free, secret="B3CD",
                         name=name))
    # A wrong listing after it is refused (and changes nothing): if that refusal is the first
    # answer, the listing before it was taken.
    await ws.send(encode("list", seq=3, game=game, seats=3, free=9, secret="B3CD", name=name))
    answer = msgpack.unpackb(await ws.recv(), raw=False)
    if answer["code"] == "bad_field":
        return ws, None
    assert msgpack.unpackb(await ws.recv(), raw=False)["code"] == "bad_field"
    return ws, answer


async def fetch(relay: Relay, query: str = "") -> dict[str, Any]:
    """`GET /tables` as it comes (off the loop: the relay answers on it)."""
    url = f"http://127.0.0.1:{relay.port}/tables{query}"

    def get() -> dict[str, Any]:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return json.loads(answer.read())

    return await asyncio.to_thread(get)


async def test_a_flood_from_one_48_lists_a_few_rooms_and_an_honest_room_stays_listed(
    trusting: Relay,
) -> None:
    sockets = []
    try:
        ws, refused = await list_from(trusting, "198.51.100.7", "Honest", free=2)
        sockets.append(ws)
        assert refused is None
        refusals = []
        for i in range(60):  # 60 /64s of one /48, the honest room's next door
            ws, refused = await list_from(trusting, f"2001:db8:7:{i:x}::1", f"Flood{i}")
            sockets.append(ws)
            if refused is not None:
                refusals.append(refused)
        limit = Limits().public_per_network
        assert len(refusals) == 60 - limit
        assert all(r["code"] == "public_limit" and not r["fatal"]
                   and "network 2001:db8:7::/48" in r["message"] for r in refusals)
        answer = await fetch(trusting)
        assert answer["total"] == limit + 1
        found = []
        for page in range(answer["pages"]):
            found += await open_tables(trusting.url, page=page)
        assert "Honest" in {t.host for t in found} and len(found) == limit + 1
        # Another /48 of the same subscriber's neighbours lists on its own.
        ws, refused = await list_from(trusting, "2001:db8:8::1", "Neighbour")
        sockets.append(ws)
        assert refused is None
    finally:
        for ws in sockets:
            await ws.close()


async def test_the_list_comes_a_page_at_a_time_closest_to_starting_first(
    trusting: Relay,
) -> None:
    sockets = []
    try:
        for i, free in enumerate((2, 0, 1, 2, 1, 0, 2, 1, 2, 1)):
            ws, refused = await list_from(trusting, f"192.0.2{i}.5", f"Room{i}", free=free)
            sockets.append(ws)
            assert refused is None
        pages = [await fetch(trusting, f"?page={n}") for n in range(3)]
        assert [(p["page"], p["pages"], p["total"]) for p in pages] == [
            (0, 3, 10), (1, 3, 10), (2, 3, 10)]
        assert [len(p["tables"]) for p in pages] == [4, 4, 2]
        free = [row["free"] for p in pages for row in p["tables"]]
        assert free == sorted(free)
        # In each tier the longest waiting first: listed in the order of their names.
        rows = [row for p in pages for row in p["tables"]]
        assert [r["host"] for r in rows if r["free"] == 1] == ["Room2", "Room4", "Room7", "Room9"]
        assert (await fetch(trusting, "?page=99"))["page"] == 2  # past the end: the last page
        assert [t.host for t in await open_tables(trusting.url, page=1)] == [
            r["host"] for r in pages[1]["tables"]]
        with pytest.raises(urllib.error.HTTPError) as refused:
            await fetch(trusting, "?page=-1")
        assert refused.value.code == 400
    finally:
        for ws in sockets:
            await ws.close()


def row(n: int) -> dict[str, Any]:
    symbols = codes.ALPHABET[n % 32] + codes.ALPHABET[n // 32 % 32]
    return {"code": codes.display(f"K7QX9MPA{symbols}CD"),
            "game": "schoene", "seats": 3, "free": 1, "host": f"Host{n}", "identity": None,
            "rating": None, "finished": None, "waiting": n, "bots_in": None,
            "min_finished": None}


async def test_a_hostile_relays_list_too_long_still_shows_what_fits() -> None:
    few = json.dumps({"tables": [row(n) for n in range(3)]})
    many = json.dumps({"tables": [row(n) for n in range(MAX_ROWS + 100)]})
    flood = few[:-2] + ", " + json.dumps(row(3)) * 1 + ", " + '{"host": "' + "x" * MAX_BYTES
    cases = [(flood.encode(), 4), (many.encode(), MAX_ROWS),
             (few[:-2].encode(), 3),  # broken off after its last row
             ((few[:-2] + ', {"code": "K7Q').encode(), 3)]  # ... and in the middle of one
    assert len(flood) > MAX_BYTES
    for body, count in cases:
        async with serve(lambda ws: ws.close(), "127.0.0.1", 0,
                         process_request=answering(body)) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            found = await open_tables(f"ws://127.0.0.1:{port}")
            assert [t.host for t in found] == [f"Host{n}" for n in range(count)]
