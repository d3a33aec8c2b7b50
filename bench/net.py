"""Network benchmark: `python -m bench.net` prints figures (it asserts nothing).

The relay runs in its own process (as `tabletop-tui serve` would); hosts and peers run in
this one. Printed:
  * end-to-end encryption: the join time (connect to welcome) and the move round trip with
    the product's channel (SPAKE2 + ChaCha20-Poly1305) against a null one (bench.null_crypto),
    side by side (`--e2e-only` prints just these);
  * the echo floor: peer -> relay -> host -> relay -> peer with a host that only echoes;
  * a move round trip: peer sends a move -> relay -> host (engine checks and applies it,
    builds every seat's view) -> relay -> the same peer has its new view;
  * busy rooms: 200 rooms of 4 peers playing at once for 60 s (`--seconds` shortens it),
    driven by a light load generator in separate processes (raw websockets, no kept views):
    the move round trip (p50, p99, max) beside the generator's own GC pauses, the frames the
    relay forwarded, and the relay's CPU and memory.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from bench.null_crypto import NULL
from net.host.authority import NetHost
from net.peer.remote import RemoteLink
from net.table.link import Message
from net.wire import codes
from net.wire.channel import BUCKETS, CRYPTO, TAG_BYTES, TO_PEER, Crypto, pad
from net.wire.frames import decode, encode, unpack

ROOMS = 200
PEERS = 4
THINK = (0.3, 0.7)  # seconds a busy-room peer waits before its move (a very fast player)
BUSY_SECONDS = 60.0  # the busy-rooms window; `--seconds` shortens it for a quick look


def sealed(seq: int | None, n: int, t: str, **fields: Any) -> bytes:
    """A raw load generator's stand-in for a sealed frame: as long as the real one (padded
    payload plus tag), opaque to the relay just the same; nobody opens it."""
    plain = pad(msgpack.packb({"t": t, **fields}, use_bin_type=True), BUCKETS[TO_PEER])
    size = len(plain) + TAG_BYTES
    return encode("sealed", n=n, data=bytes(size), **({} if seq is None else {"seq": seq}))


JOIN = {"watch": False, "seat_id": None, "nonce": None, "pake": bytes(33)}  # as v3 sends it


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


GC_REPORT = Path("/tmp/tabletop-tui-bench-relay-gc.json")


def start_relay() -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The real relay, with the per-connection rate limit lifted (back-to-back round trips from
    # one peer are far above what a person sends, 50 frames/s, and would be throttled) and the
    # rooms-per-address cap too (all load comes from 127.0.0.1). SIGUSR1 makes it write its
    # GC pauses since the last report to GC_REPORT.
    script = (
        "import asyncio, json, signal, time\n"
        "from bench.net import GC_REPORT, GcClock, probe_lag\n"
        "from net.relay.server import Limits, Relay\n"
        "clock = GcClock()\n"
        "lags = []\n"
        "def report(*_):\n"
        "    GC_REPORT.write_text(json.dumps([clock.pauses, lags]))\n"
        "    clock.clear()\n"
        "    lags.clear()\n"
        "signal.signal(signal.SIGUSR1, report)\n"
        "async def main():\n"
        "    relay = Relay(Limits(rate=1e6, burst=1e6, rooms_per_address=100000))\n"
        f"    await relay.start('127.0.0.1', {port})\n"
        "    await probe_lag([float('inf')], lags)\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stderr=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1],
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"ws://127.0.0.1:{port}"
        time.sleep(0.05)
    raise SystemExit("the relay did not start")


async def echo_room(url: str) -> tuple[ClientConnection, ClientConnection, asyncio.Task[None]]:
    """A room whose host answers every echo frame at once, and one peer in it."""
    host = await connect(url, compression=None)
    await host.send(encode("open", seq=1, code=None, host_token=None))
    code = decode(await host.recv())["code"]

    async def echo() -> None:
        seq = n = 1
        async for raw in host:
            frame = decode(raw, 1 << 20)
            if frame["t"] == "from":
                inner = decode(frame["data"])
                if inner["t"] == "sealed":  # an echo: the same size comes back
                    seq, n = seq + 1, n + 1
                    reply = encode("sealed", n=n, data=inner["data"])
                    await host.send(encode("send", seq=seq, items=[
                        {"to": [frame["cid"]], "data": reply}]))

    task = asyncio.get_running_loop().create_task(echo())
    peer = await connect(url, compression=None)
    await peer.send(encode("join", seq=1, code=code, **JOIN))
    return host, peer, task


async def echo_floor(url: str, rounds: int = 2000) -> list[float]:
    host, peer, task = await echo_room(url)
    samples = []
    for i in range(rounds):
        start = time.perf_counter()
        await peer.send(sealed(i + 2, i, "echo", data=i))
        while decode(await peer.recv())["t"] != "sealed":
            pass
        samples.append(time.perf_counter() - start)
    task.cancel()
    await peer.close()
    await host.close()
    return samples[100:]


async def throughput(url: str, rooms: int = 20, window: int = 32, seconds: float = 3.0) -> float:
    """Frames per second the relay forwards when pushed: each room's peer keeps `window`
    echoes in flight; every echo is two forwarded frames (peer -> host, host -> peer)."""
    pairs = [await echo_room(url) for _ in range(rooms)]
    counts = [0] * rooms
    stop = time.perf_counter() + seconds

    async def pump(index: int, peer: ClientConnection) -> None:
        seq = 1
        for _ in range(window):
            seq += 1
            await peer.send(sealed(seq, seq, "echo", data=seq))
        while time.perf_counter() < stop:
            if decode(await peer.recv())["t"] == "sealed":
                counts[index] += 1
                seq += 1
                await peer.send(sealed(seq, seq, "echo", data=seq))

    start = time.perf_counter()
    await asyncio.gather(*(pump(i, peer) for i, (_, peer, _) in enumerate(pairs)))
    elapsed = time.perf_counter() - start
    for host, peer, task in pairs:
        task.cancel()
        await peer.close()
        await host.close()
    return 2 * sum(counts) / elapsed


class Timed:
    """A peer that plays random legal moves and times each from send to its new view."""

    def __init__(self, link: RemoteLink, think: tuple[float, float] | None, seed: int) -> None:
        self.link, self.think = link, think
        self.rng = random.Random(seed)
        self.samples: list[float] = []
        self.done = asyncio.Event()
        self._sent: tuple[int, float] | None = None
        link.set_listener(self.hear)

    def hear(self, message: Message) -> None:
        if message["type"] not in ("sync", "update"):
            return
        if self._sent is not None and message["state_no"] > self._sent[0]:
            self.samples.append(time.perf_counter() - self._sent[1])
            self._sent = None
        if message["result"] is not None:
            self.done.set()
        elif message["legal"] and self.link.seat in message["view"]["to_act"]:
            asyncio.get_running_loop().create_task(self.move(message))

    async def move(self, message: Message) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(*self.think))
        self._sent = (message["state_no"], time.perf_counter())
        await self.link.send_move(message["seat"], self.rng.choice(message["legal"]),
                                  message["state_no"])


async def open_room(url: str, peers: int, think: tuple[float, float] | None,
                    seed: int, crypto: Crypto = CRYPTO) -> tuple[NetHost, list[Timed]]:
    host = NetHost("schoene", peers, relay_url=url, bot_delay=0, keep_record=False, seed=seed)
    host.autostart = True
    host.keys.crypto = crypto
    code = await host.open()
    players = []
    for i in range(peers):
        link = RemoteLink(code, f"p{i}", server=url, remember=False)
        link.crypto = crypto
        players.append(Timed(link, think, seed * 10 + i))
        await link.connect()
    return host, players


async def move_round_trip(url: str, games: int = 20, crypto: Crypto = CRYPTO) -> list[float]:
    samples: list[float] = []
    for game in range(games):
        host, players = await open_room(url, 3, None, game, crypto)
        await asyncio.gather(*(p.done.wait() for p in players))
        samples += [s for p in players for s in p.samples]
        for p in players:
            await p.link.close()
        await host.close()
    return samples


# -- busy rooms: a light load generator in separate processes ---------------------------------
# The relay is measured, not the client: each worker process plays its rooms with raw
# websockets and msgpack (a host that answers every move with one view per seat, as a real
# host does, and peers that keep no views), so the client's own garbage stays small; its
# collector's pauses are timed and printed beside p99 all the same.
VIEW_BYTES = 1500  # about a real seat's view of a card game (schoene: 1.2-1.8 KiB)


class GcClock:
    """Times this process's garbage collections (gc.callbacks)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self.full: list[float] = []  # the pauses of full collections (the oldest generation)
        self._began = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        self.pauses.append(took)
        if info.get("generation") == 2:
            self.full.append(took)

    def clear(self) -> None:
        self.pauses.clear()
        self.full.clear()


async def light_room(url: str, seed: int, go: asyncio.Event, stop: list[float],
                     samples: list[float], think: tuple[float, float] = THINK,
                     peers_in: int = PEERS) -> None:
    """One room of `peers_in` peers taking turns: the mover thinks, sends a move, and times it
    until the host's update for that move is back; the host sends every seat its own view. Its
    connections name the room in their path, as real ones do (a load balancer routes by it)."""
    rng = random.Random(seed)
    code = codes.new_code()
    path = codes.room_path(code)
    host = await connect(url + path, compression=None, max_size=None)
    await host.send(encode("open", seq=1, code=code, host_token=None))
    decode(await host.recv(), 1 << 20)
    peers = []
    for _ in range(peers_in):
        peer = await connect(url + path, compression=None, max_size=None)
        await peer.send(encode("join", seq=1, code=code, **JOIN))
        peers.append(peer)
    cids: list[int] = []
    while len(cids) < peers_in:
        frame = decode(await host.recv(), 1 << 20)
        if frame["t"] == "from":
            cids.append(frame["cid"])
    pad = bytes(VIEW_BYTES)

    async def serve() -> None:
        seq, state = 1, 0
        async for raw in host:
            frame = decode(raw, 1 << 20)
            if frame["t"] != "from":
                continue
            inner = unpack(frame["data"])
            if inner.get("t") != "sealed":  # a move: the relay cannot tell, nor need we
                continue
            state += 1
            seq += 1
            items = [{"to": [cid], "data": sealed(None, state, "update", state_no=state,
                                                  view=pad)}
                     for cid in cids]
            await host.send(encode("send", seq=seq, items=items))

    async def drain(peer: ClientConnection, box: list[int], heard: asyncio.Event) -> None:
        async for raw in peer:
            frame = unpack(raw)
            if frame.get("t") == "sealed":  # one update per move, in order
                box[0] += 1
                heard.set()

    states = [[0] for _ in peers]
    heard = [asyncio.Event() for _ in peers]
    tasks = [asyncio.ensure_future(serve())]
    tasks += [asyncio.ensure_future(drain(p, b, h))
              for p, b, h in zip(peers, states, heard, strict=True)]
    await go.wait()
    seqs = [1] * peers_in
    turn = state = 0
    try:
        while time.time() < stop[0]:
            await asyncio.sleep(rng.uniform(*think))
            seqs[turn] += 1
            heard[turn].clear()
            began = time.perf_counter()
            await peers[turn].send(sealed(seqs[turn], seqs[turn], "move", seat=turn,
                                          state_no=state, move={"type": "take"}))
            while states[turn][0] <= state:
                await heard[turn].wait()
                heard[turn].clear()
            samples.append(time.perf_counter() - began)
            state += 1
            turn = (turn + 1) % peers_in
    finally:
        for task in tasks:
            task.cancel()
        for ws in [host, *peers]:
            await ws.close()


def load_worker(url: str, rooms: range, stop_after: float, go: Any, ready: Any,
                results: Any, think: tuple[float, float] = THINK, peers: int = PEERS) -> None:
    """A load-generator process: its share of the rooms, then its samples and GC pauses."""
    clock = GcClock()
    samples: list[float] = []
    lags: list[float] = []

    async def run() -> None:
        stop = [0.0]
        started = asyncio.Event()
        # Rooms open one after another (as people arrive), then all play from `go` on.
        openers = []
        for index in rooms:
            openers.append(asyncio.ensure_future(
                light_room(url, 7000 + index, started, stop, samples, think, peers)))
            await asyncio.sleep(0.005)
        ready.release()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        gc.collect()
        gc.freeze()  # the connections live for the whole run: no need to scan them again
        clock.clear()
        stop[0] = time.time() + stop_after
        started.set()
        lag_probe = asyncio.ensure_future(probe_lag(stop, lags))
        failed = [r for r in await asyncio.gather(*openers, return_exceptions=True) if r]
        lag_probe.cancel()
        if failed:
            print(f"  (a worker lost {len(failed)} rooms: {failed[0]!r})", file=sys.stderr)

    asyncio.run(run())
    results.put((samples, clock.pauses, lags))


async def probe_lag(stop: list[float], lags: list[float]) -> None:
    """How late this process's event loop wakes up (work, or the machine, holding it up)."""
    while time.time() < stop[0]:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - began - 0.01)


def relay_gc(pid: int) -> tuple[list[float], list[float]]:
    """The relay's GC pauses and event-loop lateness since the last call."""
    GC_REPORT.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    for _ in range(100):
        if GC_REPORT.exists():
            with contextlib.suppress(ValueError):
                pauses, lags = json.loads(GC_REPORT.read_text())
                return [float(x) for x in pauses], [float(x) for x in lags]
        time.sleep(0.05)
    return [], []


def relay_cpu(pid: int) -> float:
    """CPU seconds (user + system) the relay process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def busy_rooms(url: str, relay_pid: int, seconds: float, workers: int = 2) -> None:
    before = rss_kib(relay_pid)
    ctx = multiprocessing.get_context("spawn")
    go, ready, results = ctx.Event(), ctx.Semaphore(0), ctx.Queue()
    shares = [range(i, ROOMS, workers) for i in range(workers)]
    procs = [ctx.Process(target=load_worker, args=(url, share, seconds, go, ready, results))
             for share in shares]
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.acquire()
    time.sleep(2.0)  # the last rooms finish joining
    after_open = rss_kib(relay_pid)
    relay_gc(relay_pid)  # start counting the relay's collections now
    cpu0, start = relay_cpu(relay_pid), time.perf_counter()
    go.set()
    peak = after_open
    while any(p.is_alive() for p in procs) and results.qsize() < workers:
        time.sleep(0.5)
        peak = max(peak, rss_kib(relay_pid))
        if time.perf_counter() - start > seconds + 1:
            break
    cpu = relay_cpu(relay_pid) - cpu0
    elapsed = time.perf_counter() - start
    relay_pauses, relay_lags = relay_gc(relay_pid)
    samples: list[float] = []
    pauses: list[float] = []
    lags: list[float] = []
    for _ in procs:
        got, paused, late = results.get(timeout=120)
        samples += got
        pauses += paused
        lags += late
    for proc in procs:
        proc.join(timeout=30)
    # Every move is 1 frame peer -> host and PEERS views host -> peers.
    frames = len(samples) * (1 + PEERS)
    print(f"busy rooms         : {ROOMS} rooms x {PEERS} peers, think {THINK[0]}-{THINK[1]} s, "
          f"{elapsed:.0f} s, load from {workers} processes (raw websockets, no kept views)")
    print(f"  move round trip  : p50 {pct(samples, 50):6.2f} ms   p99 {pct(samples, 99):6.2f} ms"
          f"   max {max(samples) * 1000:6.1f} ms   ({len(samples)} moves)")
    print(f"  client GC pauses : {len(pauses)} collections, max {max(pauses, default=0) * 1000:.1f}"
          f" ms, total {sum(pauses) * 1000:.0f} ms; its loop woke late by p99 "
          f"{pct(lags, 99):.1f} ms, max {max(lags, default=0) * 1000:.1f} ms")
    print(f"  relay forwarded  : {frames / elapsed:,.0f} frames/s (the load, not the limit)")
    print(f"  relay CPU        : {cpu:.1f} s in {elapsed:.0f} s = {100 * cpu / elapsed:.0f}% of "
          "one core")
    print(f"  relay GC pauses  : {len(relay_pauses)} collections, max "
          f"{max(relay_pauses, default=0) * 1000:.1f} ms, total {sum(relay_pauses) * 1000:.0f} ms; "
          f"its loop woke late by p99 {pct(relay_lags, 99):.1f} ms, max "
          f"{max(relay_lags, default=0) * 1000:.1f} ms")
    print(f"  relay memory     : {(after_open - before) / ROOMS:,.0f} KiB per room "
          f"(RSS {before / 1024:.1f} -> {after_open / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB)")


def host_process(url: str, null: bool, opened: Any, stop: Any) -> None:
    """A host in a process of its own, as on another machine: its SPAKE2 work runs beside the
    peer's, not behind it on one interpreter lock."""

    async def run() -> None:
        host = NetHost("schoene", 3, relay_url=url, keep_record=False)
        if null:
            host.keys.crypto = NULL
        opened.put(await host.open())
        await asyncio.get_running_loop().run_in_executor(None, stop.wait)
        await host.close()

    asyncio.run(run())


async def join_times(url: str, crypto: Crypto, joins: int) -> list[float]:
    """Seconds from starting a join to the host's welcome, one spectator after another (a
    moment apart, as people arrive: the host prepares its next exchange in between)."""
    ctx = multiprocessing.get_context("spawn")
    opened, stop = ctx.Queue(), ctx.Event()
    proc = ctx.Process(target=host_process, args=(url, crypto is NULL, opened, stop))
    proc.start()
    code = await asyncio.get_running_loop().run_in_executor(None, opened.get, True, 30)
    samples = []
    for _ in range(joins):
        await asyncio.sleep(0.3)
        link = RemoteLink(code, "p", server=url, watch=True, remember=False)
        link.crypto = crypto
        began = time.perf_counter()
        await link.connect()
        samples.append(time.perf_counter() - began)
        await link.close()
    stop.set()
    proc.join(timeout=30)
    return samples


async def e2e_figures(url: str, rounds: int = 4) -> None:
    """With and without encryption, alternated in rounds so the machine's noise hits both."""
    joins: dict[str, list[float]] = {"sealed": [], "null": []}
    trips: dict[str, list[float]] = {"sealed": [], "null": []}
    for _ in range(rounds):
        for name, crypto in (("sealed", CRYPTO), ("null", NULL)):
            joins[name] += await join_times(url, crypto, 15)
            trips[name] += await move_round_trip(url, 4, crypto)
    for label, got in (("join time", joins), ("move round trip", trips)):
        with_, without = pct(got["sealed"], 50), pct(got["null"], 50)
        print(f"{label:<19}: p50 {with_:6.2f} ms encrypted, {without:6.2f} ms null channel "
              f"(+{with_ - without:.2f} ms); min {min(got['sealed']) * 1000:.2f} / "
              f"{min(got['null']) * 1000:.2f} ms; p90 {pct(got['sealed'], 90):.2f} / "
              f"{pct(got['null'], 90):.2f} ms   ({len(got['sealed'])} each)")


async def quick_figures(url: str) -> None:
    floor = await echo_floor(url)
    print(f"echo floor         : p50 {pct(floor, 50):6.2f} ms   p99 {pct(floor, 99):6.2f} ms")
    trips = await move_round_trip(url)
    ratio = statistics.median(trips) / statistics.median(floor)
    print(f"move round trip    : p50 {pct(trips, 50):6.2f} ms   p99 {pct(trips, 99):6.2f} ms"
          f"   ({ratio:.1f}x the floor at p50)")
    rate = await throughput(url)
    print(f"relay throughput   : {rate:,.0f} frames/s forwarded (20 rooms pushing echoes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=BUSY_SECONDS,
                        help=f"length of the busy-rooms window (default {BUSY_SECONDS:g})")
    parser.add_argument("--busy-only", action="store_true", help="skip the quick figures")
    parser.add_argument("--e2e-only", action="store_true",
                        help="only join time and move round trip, encrypted against not")
    parser.add_argument("--workers", type=int, default=2,
                        help="load-generator processes (default 2)")
    args = parser.parse_args()
    os.environ.setdefault("TABLETOP_TUI_HOME", "/tmp/tabletop-tui-bench")
    relay, url = start_relay()
    try:
        if args.e2e_only:
            asyncio.run(e2e_figures(url))
            return
        if not args.busy_only:
            asyncio.run(e2e_figures(url))
            asyncio.run(quick_figures(url))
        busy_rooms(url, relay.pid, args.seconds, args.workers)
    finally:
        relay.terminate()
        relay.wait()


if __name__ == "__main__":
    main()
