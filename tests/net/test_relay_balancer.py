"""A relay behind a load balancer, over real sockets on 127.0.0.1: it counts each client under
the address a trusted balancer forwards (X-Forwarded-For) and under its own address when
anybody else sends that header; and a returning peer that reaches the relay before its host
waits there for the room instead of being told the code is wrong."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from netsupport import ME
from websockets.asyncio.client import ClientConnection, connect
from websockets.sync.client import connect as sync_connect

from net.relay import addresses, server, tokens
from net.relay.server import Limits, Relay
from net.wire import codes
from net.wire.frames import decode, encode
from tui import cli

WAIT = 10.0  # seconds any answer may take here (a resume's wait is shorter in these tests)
BALANCER = addresses.networks("127.0.0.1")  # the balancer, as these relays are told to trust
# A peer's return, as the relay sees it (the host checks its proof; the relay does not).
RESUME = {"watch": False, "ticket": None, "rid": "r" * 32, "nonce": bytes(16), "epub": bytes(32)}

# This process's loopback connections, as the relay counts them (its sockets' owner).
MINE = addresses.group(ME)


@asynccontextmanager
async def running(relay: Relay) -> AsyncIterator[Relay]:
    await relay.start()
    try:
        yield relay
    finally:
        await relay.stop()


async def until(done: Callable[[], bool]) -> None:
    """Until the relay's books show `done()`."""
    async with asyncio.timeout(WAIT):
        while not done():
            await asyncio.sleep(0.01)


async def answer(ws: ClientConnection) -> dict[str, Any]:
    return decode(await asyncio.wait_for(ws.recv(), WAIT))


async def first(relay: Relay, t: str, code: str, forwarded: str | None = None,
                source: str = "127.0.0.1", **fields: Any,
                ) -> tuple[ClientConnection, dict[str, Any]]:
    """Connect from `source` (an X-Forwarded-For header if given), send frame `t` for room
    `code`; the open connection and the relay's first answer."""
    headers = None if forwarded is None else {"X-Forwarded-For": forwarded}
    ws = await connect(relay.url + codes.room_path(code), additional_headers=headers,
                       local_addr=(source, 0))
    await ws.send(encode(t, seq=1, code=code, **fields))
    return ws, await answer(ws)


async def open_room(relay: Relay, forwarded: str | None = None,
                    source: str = "127.0.0.1") -> tuple[ClientConnection, dict[str, Any]]:
    return await first(relay, "open", codes.new_code(), forwarded, source, host_token=None)


async def guess(relay: Relay, forwarded: str | None = None, source: str = "127.0.0.1",
                ) -> dict[str, Any]:
    """A join with a code no room has: the relay's answer."""
    ws, said = await first(relay, "join", codes.new_code(), forwarded, source, watch=False,
                           seat_id=None, nonce=None, pake=bytes(33))
    await ws.close()
    return said


# -- whose address a connection counts under ---------------------------------------------------
async def test_behind_a_trusted_balancer_each_client_has_its_own_cap() -> None:
    opened = []
    async with running(Relay(Limits(rooms_per_address=2), proxies=BALANCER)) as relay:
        try:
            # Through the balancer (here: this test, at 127.0.0.1) two clients open two rooms
            # each; the balancer's own address would have allowed two in all. The balancer's
            # header comes last: what a client wrote before it does not count.
            for client in ("203.0.113.9", "203.0.113.9", "198.51.100.7",
                           "10.1.1.1, 198.51.100.7"):
                opened.append(await open_room(relay, client))
            assert [said["t"] for _, said in opened] == ["opened"] * 4
            owners = sorted(room.owner for room in relay.rooms.rooms.values())
            assert owners == ["198.51.100.7", "198.51.100.7", "203.0.113.9", "203.0.113.9"]
            opened.append(await open_room(relay, "203.0.113.9"))
            refused = opened[-1][1]
            assert refused["code"] == "busy" and "203.0.113.9" in refused["message"]
        finally:
            for ws, _ in opened:
                await ws.close()


async def test_behind_a_trusted_balancer_wrong_codes_slow_down_the_guesser_only() -> None:
    limits = Limits(wrong_code_free=2, wrong_code_delay=0.01, wrong_code_max_delay=0.01)
    async with running(Relay(limits, proxies=BALANCER)) as relay:
        answers = [await guess(relay, "203.0.113.9") for _ in range(3)]
        assert [said["code"] for said in answers] == ["no_room"] * 3
        assert answers[-1]["retry_after"] > 0  # the guesser is slowed down
        assert (await guess(relay, "198.51.100.7"))["retry_after"] == 0  # its neighbour is not


async def test_a_client_that_forges_x_forwarded_for_at_the_relay_is_counted_as_itself() -> None:
    """The relay trusts its balancer at 127.0.0.1; an attacker reaching the relay from
    elsewhere (127.0.0.2) names itself other addresses: it still counts under its own, for
    rooms and for wrong codes. A relay that trusts no balancer ignores the header too."""
    limits = Limits(rooms_per_address=2, wrong_code_free=2, wrong_code_delay=0.01,
                    wrong_code_max_delay=0.01)
    opened = []
    async with running(Relay(limits, proxies=BALANCER)) as relay, \
            running(Relay(limits, proxies=())) as alone:
        try:
            for target, source in ((relay, "127.0.0.2"), (alone, "127.0.0.1")):
                for client in ("203.0.113.9", "198.51.100.7", "192.0.2.1"):
                    opened.append(await open_room(target, client, source))
                assert [said["t"] for _, said in opened[-3:]] == ["opened", "opened", "error"]
                assert opened[-1][1]["code"] == "busy"
                assert {room.owner for room in target.rooms.rooms.values()} == {
                    MINE}
                assert {room.host.addr for room in target.rooms.rooms.values()
                        if room.host is not None} == {source + ME.removeprefix("127.0.0.1")}
                forged = [await guess(target, f"203.0.113.{n}", source) for n in range(3)]
                assert forged[-1]["retry_after"] > 0  # new names every time: slowed all the same
        finally:
            for ws, _ in opened:
                await ws.close()


# -- a returning peer that is there before its host ---------------------------------------------
async def test_a_returning_peer_that_beats_its_host_to_the_relay_waits_for_it_unpenalised(
) -> None:
    """After a relay died, a room's host and peers reconnect to the next relay together: a
    peer's `resume` that arrives first waits there for the room and gets in, instead of being
    told the code is wrong, which would count against its address as a guess."""
    limits = Limits(resume_wait=WAIT, wrong_code_free=1, wrong_code_delay=0.5)
    async with running(Relay(limits)) as relay:
        code = codes.new_code()
        peer = await connect(relay.url + codes.room_path(code))
        await peer.send(encode("resume", seq=1, code=code, **RESUME))
        await until(lambda: code in relay.rooms.awaited)  # at the relay before the host
        host, opened = await first(relay, "open", code, host_token=None)
        assert opened["t"] == "opened"
        came = await answer(host)
        assert came["t"] == "from" and decode(came["data"])["t"] == "resume"
        room = relay.rooms.get(code)
        assert room is not None and [m.cid for m in room.members.values()] == [came["cid"]]
        assert relay.guard.delay(ME) == 0  # no wrong code was counted
        assert relay.rooms.awaited == {} and relay.rooms.awaiting == {}
        await peer.close()
        await host.close()


async def test_a_peer_a_moment_before_its_host_gets_in_at_once_not_after_the_wait() -> None:
    """The failover race: a peer's `resume` and its host's reopening reach the next relay
    together, the peer's first, both read in one turn of the relay's event loop. The peer's
    wait for the room must see the room the host opened in that same turn: the host hears the
    peer at once, long before `resume_wait` (a minute here) would have ended in a refusal."""
    async with running(Relay(Limits(resume_wait=60.0))) as relay:
        code = codes.new_code()
        url = relay.url + codes.room_path(code)
        # The handshakes are made in threads (the relay answers them in this loop), then both
        # frames are written from this thread without yielding to the loop: the relay reads
        # them in the same turn, the peer's first.
        peer = await asyncio.to_thread(sync_connect, url)
        host = await asyncio.to_thread(sync_connect, url)
        try:
            peer.send(encode("resume", seq=1, code=code, **RESUME))
            host.send(encode("open", seq=1, code=code,
                             host_token=tokens.host_token(relay.secret, code)))
            opened = decode(await asyncio.to_thread(host.recv, WAIT))
            assert opened["t"] == "opened"
            came = decode(await asyncio.to_thread(host.recv, WAIT))  # not 60 s later
            assert came["t"] == "from" and decode(came["data"])["t"] == "resume"
            room = relay.rooms.get(code)
            assert room is not None and list(room.members) == [came["cid"]]
            assert relay.rooms.awaited == {} and relay.rooms.awaiting == {}
            assert relay.guard.delay("127.0.0.1") == 0
        finally:
            await asyncio.to_thread(peer.close)
            await asyncio.to_thread(host.close)


async def test_a_resume_whose_room_never_comes_is_refused_after_the_wait_as_one_wrong_code(
) -> None:
    # One free wrong code: the refusal's retry_after is 0.05 s after exactly one counted (0
    # after none, 0.1 s after two).
    limits = Limits(resume_wait=0.2, wrong_code_free=1, wrong_code_delay=0.05)
    async with running(Relay(limits)) as relay:
        code = codes.new_code()
        ws = await connect(relay.url + codes.room_path(code))
        await ws.send(encode("resume", seq=1, code=code, **RESUME))
        await until(lambda: code in relay.rooms.awaited)  # it waits for the room
        refused = await answer(ws)
        assert refused["t"] == "error" and refused["code"] == "no_room" and refused["fatal"]
        assert refused["retry_after"] == 0.05
        assert relay.rooms.awaited == {} and relay.rooms.awaiting == {}
        await ws.close()


async def test_one_address_cannot_hold_more_waiting_resumes_than_its_share() -> None:
    """Each waiting resume holds a connection open: one address gets `resumes_per_address` of
    them, and a resume past that is answered at once as a wrong code; a connection that
    closes while it waits gives its place back at once."""
    limits = Limits(resume_wait=60.0, resumes_per_address=2, wrong_code_free=1,
                    wrong_code_delay=0.05)
    async with running(Relay(limits)) as relay:
        waiting = []
        for _ in range(2):
            code = codes.new_code()
            ws = await connect(relay.url + codes.room_path(code))
            await ws.send(encode("resume", seq=1, code=code, **RESUME))
            waiting.append(ws)
        await until(lambda: relay.rooms.awaiting.get(MINE) == 2)
        # From another loopback address: the same machine, the same share.
        ws, refused = await first(relay, "resume", codes.new_code(), source="127.0.0.3",
                                  **RESUME)
        assert refused["code"] == "no_room" and refused["retry_after"] == 0.05
        assert relay.rooms.awaiting == {MINE: 2}  # the two still wait
        await ws.close()
        await waiting[0].close()
        await until(lambda: relay.rooms.awaiting.get(MINE) == 1)
        assert len(relay.rooms.awaited) == 1
        await waiting[1].close()
        await until(lambda: not relay.rooms.awaiting)
        assert relay.rooms.awaited == {}


# -- the operator's side: `serve --trust-proxy` ------------------------------------------------
def test_serve_trusts_the_balancers_it_is_given_and_refuses_a_wrong_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv(addresses.PROXIES_ENV, raising=False)
    started: list[Relay] = []
    monkeypatch.setattr(server, "serve_forever", lambda *_: started.append(Relay()))
    cli.main(["serve", "--trust-proxy", "10.0.0.10", "--trust-proxy", "fd00::/64"])
    assert started[0].proxies == addresses.networks("10.0.0.10 fd00::/64")
    monkeypatch.setenv(addresses.PROXIES_ENV, "")
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--trust-proxy", "balancer.example"])
    assert stopped.value.code == 2 and len(started) == 1
    assert "'balancer.example' is no IP address" in capsys.readouterr().err


# -- a relay process's collector -----------------------------------------------------------------
def test_serve_tunes_the_collector_once_it_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` freezes what it made before its first room out of every later collection and
    collects the young generation less often (python -m bench.cluster --one-relay prints
    what that does to the pauses). Here in a process of its own, as `serve` runs."""
    listening: list[bool] = []

    def tuned() -> None:  # the relay listens by now; stop it there
        listening.append(True)
        raise KeyboardInterrupt

    monkeypatch.setattr(server, "tune_collector", tuned)
    server.serve_forever("127.0.0.1", 0)
    assert listening == [True]
    probe = ("import gc\nfrom net.relay.server import GC_YOUNG, tune_collector\n"
             "assert gc.get_freeze_count() == 0\ntune_collector()\n"
             "print(gc.get_freeze_count() > 10_000, gc.get_threshold()[0] == GC_YOUNG)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr
