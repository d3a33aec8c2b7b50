"""Cluster benchmark: `python -m bench.cluster` prints figures (it asserts nothing).

Three relays (`tabletop-tui serve` processes sharing one secret) behind HAProxy with the shipped
deploy/haproxy.cfg (bench.relays), all on 127.0.0.1. Printed:
  * the echo floor (peer -> relay -> host -> relay -> peer, one room) straight to a relay and
    through HAProxy, side by side: what the balancer adds to every frame;
  * busy rooms (`--rooms`, default 1,000, of 4 peers each, players thinking 1-3 s per move)
    for `--seconds`, played by load-generator processes (bench.net's raw rooms), once through
    HAProxy and once straight to the relays (each room to one of them), in the same run: the
    move round trip (one frame to the host, one back to every peer) at p50 and p99, each
    relay's rooms and CPU and so its rooms per core at this pace, and HAProxy's CPU;
  * failover: real games (NetHost, RemoteLinks playing random moves) through HAProxy, one relay
    killed with SIGKILL mid-game: how long until a peer of a moved game moves again, and
    whether every game finished.
The whole default run takes about three minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.net import PEERS, Timed, load_worker, open_room, pct, relay_cpu
from bench.relays import Balancer, RelayProcess, ensure_haproxy, log_name, write_secret
from net.host.authority import NetHost
from net.wire import codes
from net.wire.frames import decode, encode

RELAYS = 3
ROOMS = 1000
THINK = (1.0, 3.0)  # seconds a busy-room player thinks: a quick card player
SECONDS = 30.0
GAMES = 24
GAME_THINK = (0.05, 0.2)  # the failover games' players: quick, so the games are short
JOIN = {"watch": False, "seat_id": None, "nonce": None, "pake": bytes(33)}


# -- the echo floor ---------------------------------------------------------------------------
async def echo_floor(url: str, rounds: int = 1500) -> list[float]:
    """Round trips of one peer's frame through a host that echoes it at once."""
    from websockets.asyncio.client import connect

    code = codes.new_code()
    path = codes.room_path(code)
    host = await connect(url + path, compression=None)
    await host.send(encode("open", seq=1, code=code, host_token=None))
    await host.recv()
    peer = await connect(url + path, compression=None)
    await peer.send(encode("join", seq=1, code=code, **JOIN))

    async def echo() -> None:
        seq = 1
        async for raw in host:
            frame = decode(raw, 1 << 20)
            inner = decode(frame["data"]) if frame["t"] == "from" else {}
            if inner.get("t") == "sealed":  # the same size goes back
                seq += 1
                reply = encode("sealed", n=inner["n"], data=inner["data"])
                await host.send(encode("send", seq=seq, items=[
                    {"to": [frame["cid"]], "data": reply}]))

    task = asyncio.ensure_future(echo())
    samples = []
    for i in range(rounds):
        began = time.perf_counter()
        await peer.send(encode("sealed", seq=i + 2, n=i, data=bytes(200)))
        await peer.recv()
        samples.append(time.perf_counter() - began)
    task.cancel()
    await peer.close()
    await host.close()
    return samples[100:]


async def floors(direct: str, balanced: str) -> None:
    """Alternated in rounds, so the machine's noise hits both alike."""
    got: dict[str, list[float]] = {"direct": [], "haproxy": []}
    for _ in range(3):
        got["direct"] += await echo_floor(direct)
        got["haproxy"] += await echo_floor(balanced)
    d, h = got["direct"], got["haproxy"]
    print(f"echo floor         : p50 {pct(d, 50):.3f} ms direct, {pct(h, 50):.3f} ms through "
          f"HAProxy (+{pct(h, 50) - pct(d, 50):.3f} ms); p99 {pct(d, 99):.3f} / "
          f"{pct(h, 99):.3f} ms   ({len(d)} each)")


# -- busy rooms -------------------------------------------------------------------------------
def busy(urls: list[str], rooms: int, seconds: float, think: tuple[float, float],
         relays: list[RelayProcess], lb: Balancer) -> dict[str, Any]:
    """`rooms` rooms played for `seconds` by one load process per url in `urls` (its share
    of the rooms goes there); returns the samples, the rooms each relay held and every
    process's CPU. Through HAProxy, its stick table tells where the rooms went."""
    sticky = Counter(lb.sticky().values())
    ctx = multiprocessing.get_context("spawn")
    go, ready, results = ctx.Event(), ctx.Semaphore(0), ctx.Queue()
    workers = len(urls)
    procs = [ctx.Process(target=load_worker,
                         args=(url, range(i, rooms, workers), seconds, go, ready, results,
                               think))
             for i, url in enumerate(urls)]
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.acquire()
    time.sleep(3.0)  # the last rooms finish joining
    if urls[0] == lb.url:
        now = Counter(lb.sticky().values())
        held = [now[i + 1] - sticky[i + 1] for i in range(len(relays))]
    else:
        held = [len(range(i, rooms, len(urls))) for i in range(len(urls))]
    pids = {**{f"relay{i + 1}": r.proc.pid for i, r in enumerate(relays) if r.proc},
            "haproxy": lb.proc.pid}
    cpu0 = {name: relay_cpu(pid) for name, pid in pids.items()}
    start = time.perf_counter()
    go.set()
    samples: list[float] = []
    for _ in procs:
        got, _pauses, _lags = results.get(timeout=seconds + 120)
        samples += got
    elapsed = time.perf_counter() - start
    cpu = {name: relay_cpu(pid) - cpu0[name] for name, pid in pids.items()}
    for proc in procs:
        proc.join(timeout=30)
    return {"samples": samples, "held": held, "cpu": cpu, "elapsed": elapsed}


def report(label: str, run: dict[str, Any], rooms: int) -> None:
    samples, elapsed = run["samples"], run["elapsed"]
    print(f"{label:<19}: {len(samples)} moves in {elapsed:.0f} s; round trip p50 "
          f"{pct(samples, 50):6.2f} ms  p99 {pct(samples, 99):6.2f} ms  "
          f"max {max(samples) * 1000:6.1f} ms")
    per_core = []
    for i, held in enumerate(run["held"]):
        share = run["cpu"][f"relay{i + 1}"] / elapsed
        per_core.append(held / share if share else float("inf"))
        print(f"  relay{i + 1}           : {held:5d} rooms, {100 * share:5.1f}% of a core -> "
              f"{per_core[-1]:,.0f} rooms per core at this pace")
    print(f"  rooms per core   : {statistics.mean(per_core):,.0f} (mean of the relays; "
          f"{rooms} rooms of {PEERS} peers in all)")
    if run["cpu"].get("haproxy"):
        print(f"  HAProxy          : {100 * run['cpu']['haproxy'] / elapsed:5.1f}% of a core")


# -- failover ---------------------------------------------------------------------------------
async def failover(lb: Balancer, relays: list[RelayProcess], games: int) -> None:
    tables: list[tuple[NetHost, list[Timed]]] = []
    moves: dict[str, list[float]] = {}
    for game in range(games):
        tables.append(await open_room(lb.url, 3, GAME_THINK, 100 + game))
    try:
        async with asyncio.timeout(60):
            while not all(h.session is not None and h.session.state_no >= 3 for h, _ in tables):
                await asyncio.sleep(0.05)
        for host, _ in tables:
            stamps = moves.setdefault(host.room, [])
            assert host.session is not None
            host.session.subscribe(lambda *_, s=stamps: s.append(time.monotonic()))
        victim = max(relays, key=lambda r: r.rooms())
        names = set(victim.opened())
        moved = [h.room for h, _ in tables
                 if log_name(h.room) in names and h.session is not None and not h.session.over]
        killed = time.monotonic()
        victim.kill()
        try:
            async with asyncio.timeout(120):
                await asyncio.gather(*(p.done.wait() for _, players in tables for p in players))
        except TimeoutError:
            pass
        finished = sum(all(p.done.is_set() for p in players) for _, players in tables)
        waits = sorted(next(t for t in moves[r] if t > killed) - killed for r in moved
                       if any(t > killed for t in moves[r]))
        print(f"failover           : relay killed (SIGKILL) with {len(moved)} games in play on "
              f"it; a moved game's next move after {waits[0]:.2f} s (first), "
              f"{waits[len(waits) // 2]:.2f} s (median), {waits[-1]:.2f} s (last); "
              f"{len(waits)}/{len(moved)} moved games moved again, {finished}/{games} games "
              "finished")
    finally:
        for host, players in tables:
            await asyncio.gather(*(p.link.close() for p in players))
            await host.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=ROOMS,
                        help=f"busy rooms over the {RELAYS} relays (default {ROOMS})")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"length of each busy window (default {SECONDS:g})")
    parser.add_argument("--games", type=int, default=GAMES,
                        help=f"games in play when a relay is killed (default {GAMES})")
    args = parser.parse_args()
    if ensure_haproxy() is None:
        raise SystemExit("haproxy is not installed and could not be installed")
    folder = Path(tempfile.mkdtemp(prefix="tabletop-tui-cluster-"))
    os.environ.setdefault("TABLETOP_TUI_HOME", str(folder / "home"))
    secret = write_secret(folder / "relay-secret")
    os.environ["TABLETOP_TUI_RELAY_SECRET_FILE"] = str(secret)
    relays = [RelayProcess(folder, secret, rooms_per_address=100_000).start()
              for _ in range(RELAYS)]
    lb = Balancer(folder, [r.port for r in relays]).start()
    print(f"{RELAYS} relays behind HAProxy on 127.0.0.1 ({os.cpu_count()} cores, shared); "
          f"logs in {folder}")
    try:
        asyncio.run(floors(relays[0].url, lb.url))
        through = busy([lb.url] * RELAYS, args.rooms, args.seconds, THINK, relays, lb)
        report("through HAProxy", through, args.rooms)
        direct = busy([r.url for r in relays], args.rooms, args.seconds, THINK, relays, lb)
        direct["cpu"].pop("haproxy")
        report("straight to relays", direct, args.rooms)
        extra = [pct(through["samples"], p) - pct(direct["samples"], p) for p in (50, 99)]
        print(f"HAProxy's overhead : p50 {extra[0]:+.2f} ms, p99 {extra[1]:+.2f} ms on a move "
              "round trip")
        asyncio.run(failover(lb, relays, args.games))
    finally:
        lb.stop()
        for relay in relays:
            relay.stop()


if __name__ == "__main__":
    main()
