"""SPAKE2 benchmark: `python -m bench.pake` prints figures (it asserts nothing).

One side of a join's key exchange (net.wire.pake: its message, then its finish with the
other side's message), timed for side A and side B, and for many passwords in turn: the
spread of the per-password fastest times shows whether the time depends on the password
(libsodium's operations should not). The `spake2` package's own side, where installed (the
test extra), runs the same for comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from net.wire.channel import ID_HOST, ID_PEER
from net.wire.pake import SIDE_A, SIDE_B, Spake2

Side = Callable[[bytes, bytes], object]  # (password, the other side's message) -> key


def ours(side: bytes) -> Side:
    def run(password: bytes, theirs: bytes) -> object:
        return Spake2(side, password, ID_PEER, ID_HOST).finish(theirs)
    return run


def package(side: bytes) -> Side:
    from spake2 import SPAKE2_A, SPAKE2_B

    kind = SPAKE2_A if side == SIDE_A else SPAKE2_B

    def run(password: bytes, theirs: bytes) -> object:
        exchange = kind(password, idA=ID_PEER, idB=ID_HOST)
        exchange.start()
        return exchange.finish(theirs)
    return run


def measure(run: Side, theirs: bytes, passwords: list[bytes], rounds: int) -> list[list[float]]:
    """Microseconds per side: `rounds` times over, each password once per round (so the
    machine's noise falls on all of them alike)."""
    for _ in range(20):
        run(b"warm up", theirs)
    times: list[list[float]] = [[] for _ in passwords]
    for _ in range(rounds):
        for i, password in enumerate(passwords):
            began = time.perf_counter_ns()
            run(password, theirs)
            times[i].append((time.perf_counter_ns() - began) / 1000)
    return times


def report(name: str, times: list[list[float]]) -> None:
    every = [t for per in times for t in per]
    fastest = [min(per) for per in times]
    medians = [statistics.median(per) for per in times]
    print(f"{name:<22}: p50 {statistics.median(every):7.0f} us, min {min(every):7.0f} us; "
          f"per password, fastest {min(fastest):.0f}-{max(fastest):.0f} us, "
          f"median {min(medians):.0f}-{max(medians):.0f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passwords", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    passwords = [os.urandom(28) for _ in range(args.passwords)]
    # The other side's message: a real one, for a password of its own (the keys then differ,
    # which costs the same).
    to = {SIDE_A: Spake2(SIDE_B, b"other", ID_PEER, ID_HOST).message,
          SIDE_B: Spake2(SIDE_A, b"other", ID_PEER, ID_HOST).message}
    sides: list[tuple[str, Callable[[bytes], Side]]] = [("net.wire.pake", ours)]
    try:
        import spake2  # noqa: F401
        sides.append(("spake2 package", package))
    except ImportError:
        pass
    for name, make in sides:
        for side in (SIDE_A, SIDE_B):
            rounds = args.rounds if make is ours else max(3, args.rounds // 10)
            report(f"{name} side {side.decode()}",
                   measure(make(side), to[side], passwords, rounds))


if __name__ == "__main__":
    main()
