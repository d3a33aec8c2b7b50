"""Network benchmark: `python -m bench.net` prints figures (it asserts nothing).

The relay runs in its own process (as `tabletop-tui serve` would); hosts and peers run in
this one. Printed:
  * the echo floor: peer -> relay -> host -> relay -> peer with a host that only echoes;
  * a move round trip: peer sends a move -> relay -> host (engine checks and applies it,
    builds every seat's view) -> relay -> the same peer has its new view;
  * frames per second the relay forwarded while 200 rooms of 4 peers play at once, the p99
    move round trip under that load, and the relay's resident memory per room.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from net.client import RemoteLink
from net.host import NetHost
from net.link import Message
from net.protocol import decode, encode

ROOMS = 200
PEERS = 4
THINK = (0.3, 0.7)  # seconds a busy-room peer waits before its move (a very fast player)
BUSY_SECONDS = 10.0


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_relay() -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The real relay, with the per-connection rate limit lifted: back-to-back round trips from
    # one peer are far above what a person sends (50 frames/s) and would be throttled.
    script = (
        "import asyncio\n"
        "from net.relay import Limits, Relay\n"
        "async def main():\n"
        "    relay = Relay(Limits(rate=1e6, burst=1e6))\n"
        f"    await relay.start('127.0.0.1', {port})\n"
        "    await asyncio.Event().wait()\n"
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
        seq = 1
        async for raw in host:
            frame = decode(raw, 1 << 20)
            if frame["t"] == "from":
                inner = decode(frame["data"])
                if inner["t"] == "echo":
                    seq += 1
                    reply = encode("echo", data=inner["data"])
                    await host.send(encode("send", seq=seq, items=[
                        {"to": [frame["cid"]], "data": reply}]))

    task = asyncio.get_running_loop().create_task(echo())
    peer = await connect(url, compression=None)
    await peer.send(encode("join", seq=1, code=code, name="p", token=None, watch=False))
    return host, peer, task


async def echo_floor(url: str, rounds: int = 2000) -> list[float]:
    host, peer, task = await echo_room(url)
    samples = []
    for i in range(rounds):
        start = time.perf_counter()
        await peer.send(encode("echo", seq=i + 2, data=i))
        while decode(await peer.recv())["t"] != "echo":
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
            await peer.send(encode("echo", seq=seq, data=seq))
        while time.perf_counter() < stop:
            if decode(await peer.recv())["t"] == "echo":
                counts[index] += 1
                seq += 1
                await peer.send(encode("echo", seq=seq, data=seq))

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
                    seed: int) -> tuple[NetHost, list[Timed]]:
    host = NetHost("schoene", peers, relay_url=url, bot_delay=0, keep_record=False, seed=seed)
    host.autostart = True
    code = await host.open()
    players = []
    for i in range(peers):
        link = RemoteLink(code, f"p{i}", server=url, remember=False)
        players.append(Timed(link, think, seed * 10 + i))
        await link.connect()
    return host, players


async def move_round_trip(url: str, games: int = 20) -> list[float]:
    samples: list[float] = []
    for game in range(games):
        host, players = await open_room(url, 3, None, game)
        await asyncio.gather(*(p.done.wait() for p in players))
        samples += [s for p in players for s in p.samples]
        for p in players:
            await p.link.close()
        await host.close()
    return samples


async def busy_rooms(url: str, relay_pid: int) -> None:
    before = rss_kib(relay_pid)
    rooms = []
    for i in range(ROOMS):
        rooms.append(await open_room(url, PEERS, THINK, 1000 + i))
    after_open = rss_kib(relay_pid)
    gc.collect()
    gc.freeze()  # the long-lived rooms need no scanning: keeps collector pauses out of p99
    # Measure a window in which every room is mid-game; games that end start again.
    for _, players in rooms:
        for p in players:
            p.samples.clear()
    start = time.perf_counter()
    moves = 0
    while time.perf_counter() - start < BUSY_SECONDS:
        await asyncio.sleep(0.5)
        for index, (host, players) in enumerate(rooms):
            if host.over:
                moves += len(host.session.moves) if host.session else 0
                for p in players:
                    await p.link.close()
                await host.close()
                rooms[index] = await open_room(url, PEERS, THINK, 5000 + index)
    elapsed = time.perf_counter() - start
    samples = [s for _, players in rooms for p in players for s in p.samples]
    moves += sum(len(h.session.moves) for h, _ in rooms if h.session)
    # Every move is 1 frame peer -> host and PEERS views host -> peers (presence and other
    # frames are not counted, so this is a floor).
    frames = len(samples) * (1 + PEERS)
    print(f"busy rooms         : {ROOMS} rooms x {PEERS} peers, think {THINK[0]}-{THINK[1]} s, "
          f"{elapsed:.0f} s")
    print(f"  move round trip  : p50 {pct(samples, 50):6.2f} ms   p99 {pct(samples, 99):6.2f} ms"
          f"   ({len(samples)} moves)")
    print(f"  relay forwarded  : >= {frames / elapsed:,.0f} frames/s (the load, not the limit)")
    print(f"  relay memory     : {(after_open - before) / ROOMS:,.0f} KiB per room "
          f"(RSS {before / 1024:.1f} -> {after_open / 1024:.1f} MiB)")
    for host, players in rooms:
        for p in players:
            await p.link.close()
        await host.close()


async def main() -> None:
    os.environ.setdefault("TABLETOP_TUI_HOME", "/tmp/tabletop-tui-bench")
    relay, url = start_relay()
    try:
        floor = await echo_floor(url)
        print(f"echo floor         : p50 {pct(floor, 50):6.2f} ms   p99 {pct(floor, 99):6.2f} ms")
        trips = await move_round_trip(url)
        ratio = statistics.median(trips) / statistics.median(floor)
        print(f"move round trip    : p50 {pct(trips, 50):6.2f} ms   p99 {pct(trips, 99):6.2f} ms"
              f"   ({ratio:.1f}x the floor at p50)")
        rate = await throughput(url)
        print(f"relay throughput   : {rate:,.0f} frames/s forwarded (20 rooms pushing echoes)")
        await busy_rooms(url, relay.pid)
    finally:
        relay.terminate()
        relay.wait()


if __name__ == "__main__":
    asyncio.run(main())
