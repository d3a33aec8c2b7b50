"""Cluster benchmark: `python -m bench.cluster` prints figures (it asserts nothing).

Three relays (`tabletop-tui serve` processes sharing one secret) behind HAProxy with the shipped
deploy/haproxy.cfg (bench.relays), all on 127.0.0.1. Printed:
  * the echo floor (peer -> relay -> host -> relay -> peer, one room) straight to a relay and
    through HAProxy, side by side: what the balancer adds to every frame;
  * busy rooms (`--rooms`, default 1,000, of 4 peers each, players thinking 1-3 s per move)
    for `--seconds`, played by load-generator processes (bench.net's raw rooms), once through
    HAProxy and once straight to the relays (each room to one of them), in the same run: the
    move round trip (one frame to the host, one back to every peer) at p50 and p99, each
    relay's rooms and CPU, HAProxy's CPU, and what is the product's beside the round trips:
    each relay's event-loop lateness and its collector's pauses (full ones apart), the load
    generator's own lateness (its round trips are VOID when it woke late by more than
    GENERATOR_LATE at p99: they then measure the generator, not the relays), and a per-core
    figure: the rooms a relay serves with a core to itself at this pace, from its CPU,
    counted only for relays whose own loop kept within TARGET_P99;
  * `--one-relay ROOMS` instead: that many busy rooms straight to one relay, its collector
    tuned as `serve` tunes it (net.relay.server.tune_collector) and then with CPython's
    defaults, each with the heap a full collection scans and one such collection timed;
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
from bench.relays import Balancer, RelayProcess, Watched, ensure_haproxy, log_name, write_secret
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
         relays: list[RelayProcess], lb: Balancer | None, peers: int = PEERS) -> dict[str, Any]:
    """`rooms` rooms played for `seconds` by one load process per url in `urls` (its share
    of the rooms goes there); returns the samples, the rooms each relay held and every
    process's CPU. Through HAProxy, its stick table tells where the rooms went."""
    sticky = Counter(lb.sticky().values()) if lb is not None else Counter()
    ctx = multiprocessing.get_context("spawn")
    go, ready, results = ctx.Event(), ctx.Semaphore(0), ctx.Queue()
    workers = len(urls)
    procs = [ctx.Process(target=load_worker,
                         args=(url, range(i, rooms, workers), seconds, go, ready, results,
                               think, peers))
             for i, url in enumerate(urls)]
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.acquire()
    time.sleep(3.0)  # the last rooms finish joining
    if lb is not None and urls[0] == lb.url:
        now = Counter(lb.sticky().values())
        held = [now[i + 1] - sticky[i + 1] for i in range(len(relays))]
    else:
        held = [len(range(i, rooms, len(urls))) for i in range(len(urls))]
    pids = {f"relay{i + 1}": r.proc.pid for i, r in enumerate(relays) if r.proc}
    if lb is not None:
        pids["haproxy"] = lb.proc.pid
    cpu0 = {name: relay_cpu(pid) for name, pid in pids.items()}
    # With every room open: the heap a full collection scans (a pause of its own, before
    # the window), then each relay's lateness and collections from here on.
    heaps = [relay.watched(census=True) for relay in relays]
    for relay in relays:
        relay.watched()
    start = time.perf_counter()
    go.set()
    samples: list[float] = []
    late: list[float] = []
    for _ in procs:
        got, _pauses, lags = results.get(timeout=seconds + 120)
        samples += got
        late += lags
    elapsed = time.perf_counter() - start
    cpu = {name: relay_cpu(pid) - cpu0[name] for name, pid in pids.items()}
    watched = [relay.watched() for relay in relays]
    for proc in procs:
        proc.join(timeout=30)
    return {"samples": samples, "held": held, "cpu": cpu, "elapsed": elapsed,
            "watched": watched, "generator": late, "heaps": heaps, "peers": peers}


# The p99 a relay should keep a move's round trip under; and how late the load generator's
# own loop may wake at p99 before its round trips say more about it than about the relays.
TARGET_P99 = 0.020
GENERATORS = 4  # load processes for --one-relay (each holds its share of the connections)
GENERATOR_LATE = 0.010


def lateness(label: str, lags: list[float], pauses: list[float] | None = None) -> str:
    """One line: a loop's lateness (p50, p99, max) and, for a relay, its collections."""
    line = (f"  {label:<17}: loop late p50 {pct(lags, 50):5.1f} ms  p99 {pct(lags, 99):6.1f} ms"
            f"  max {max(lags, default=0) * 1000:6.1f} ms")
    if pauses is not None:
        line += (f"; GC {len(pauses)} collections, worst {max(pauses, default=0) * 1000:5.1f}"
                 f" ms, {sum(pauses) * 1000:.0f} ms in all")
    return line


def collections(seen: Watched) -> str:
    """A relay's full collections in the window, apart from the young ones."""
    young = sorted(seen.pauses)
    for took in seen.full:
        young.remove(took)
    return (f"  {'':<17}  full collections {len(seen.full)} (worst "
            f"{max(seen.full, default=0) * 1000:.1f} ms), young and middle {len(young)} (worst "
            f"{max(young, default=0) * 1000:.1f} ms)")


def report(label: str, run: dict[str, Any], rooms: int) -> None:
    """The round trips, void if the load generator was late; each relay's rooms, CPU,
    lateness and collections; and the per-core figure: the rooms a relay would serve with a
    core to itself, from its CPU at this pace, counted only for relays whose own loop stayed
    within the p99 target (the product's part of the round trip)."""
    samples, elapsed = run["samples"], run["elapsed"]
    generator = run["generator"]
    void = pct(generator, 99) / 1000 > GENERATOR_LATE
    print(f"{label:<19}: {len(samples)} moves in {elapsed:.0f} s; round trip p50 "
          f"{pct(samples, 50):6.2f} ms  p99 {pct(samples, 99):6.2f} ms  "
          f"max {max(samples) * 1000:6.1f} ms" + ("  VOID: the load generator was late"
                                                  if void else ""))
    print(lateness("load generator", generator)
          + f" (its round trips count below {GENERATOR_LATE * 1000:g} ms at p99)")
    per_core = []
    for i, (held, seen) in enumerate(zip(run["held"], run["watched"], strict=True)):
        share = run["cpu"][f"relay{i + 1}"] / elapsed
        print(f"  relay{i + 1}           : {held:5d} rooms, {100 * share:5.1f}% of a core")
        print(lateness(f"relay{i + 1}", seen.lags, seen.pauses))
        print(collections(seen))
        worst = max(pct(seen.lags, 99) / 1000, max(seen.pauses, default=0))
        if share and worst < TARGET_P99:
            per_core.append(held / share)
    if per_core:
        print(f"  per core         : {statistics.mean(per_core):,.0f} rooms a relay serves with "
              f"a core to itself at this pace (its CPU; its loop within "
              f"{TARGET_P99 * 1000:g} ms at p99; {rooms} rooms of {run['peers']} peers in all)")
    else:
        print(f"  per core         : none: no relay kept its loop within "
              f"{TARGET_P99 * 1000:g} ms at p99")
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


def one_relay(folder: Path, secret: Path, rooms: int, seconds: float, tuned: bool,
              peers: int) -> None:
    """`rooms` busy rooms of `peers` peers straight to one relay: its collections and
    lateness, with its collector as `serve` tunes it or with CPython's defaults."""
    relay = RelayProcess(folder, secret, rooms_per_address=100_000, tuned=tuned).start()
    try:
        run = busy([relay.url] * GENERATORS, rooms, seconds, THINK, [relay], None, peers)
        run["held"] = [rooms]
        report(f"one relay ({'tuned' if tuned else 'default'} GC)", run, rooms)
        heap = run["heaps"][0]
        conns = rooms * (peers + 1)
        print(f"  its heap         : {heap.objects:,} objects tracked with {rooms} rooms open "
              f"({heap.objects / conns:.0f} a connection), {heap.frozen:,} frozen; one full "
              f"collection of them took {heap.collect * 1000:.1f} ms "
              f"({heap.collect_cpu * 1000:.1f} ms of the relay's CPU: the pause on a core of "
              "its own)")
    finally:
        relay.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=ROOMS,
                        help=f"busy rooms over the {RELAYS} relays (default {ROOMS})")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"length of each busy window (default {SECONDS:g})")
    parser.add_argument("--games", type=int, default=GAMES,
                        help=f"games in play when a relay is killed (default {GAMES})")
    parser.add_argument("--one-relay", type=int, metavar="ROOMS",
                        help="only: ROOMS busy rooms on one relay, its collector tuned and "
                             "then with CPython's defaults")
    parser.add_argument("--peers", type=int, default=PEERS,
                        help=f"peers a room with --one-relay (default {PEERS}); a relay holds "
                             "ROOMS x (PEERS + 1) connections, each a file, so 5,000 rooms "
                             "fit a stock file limit of 20,000 with 2")
    args = parser.parse_args()
    if args.one_relay:
        folder = Path(tempfile.mkdtemp(prefix="tabletop-tui-cluster-"))
        os.environ.setdefault("TABLETOP_TUI_HOME", str(folder / "home"))
        secret = write_secret(folder / "relay-secret")
        print(f"one relay on 127.0.0.1 ({os.cpu_count()} cores, shared); logs in {folder}")
        for tuned in (True, False):
            one_relay(folder, secret, args.one_relay, args.seconds, tuned, args.peers)
        return
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
