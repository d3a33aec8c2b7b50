"""A stand-in app for the SSH table's fork server (net.ssh.forkserver), for tests of what the
fork server must do whatever the app: it shows its process and its first random number, then
answers lines typed on its terminal (`grow`: take memory until there is none; `quit`)."""

from __future__ import annotations

import os
import random
import sys

HOARD_STEP = 1 << 20


def warm() -> None:
    random.random()  # the fork server's own state: a child that kept it would repeat this


def main(argv: list[str]) -> None:
    print(f"forkling pid={os.getpid()} random={random.random()!r}", flush=True)
    hoard: list[bytearray] = []
    for line in sys.stdin:
        word = line.strip()
        if word == "quit":
            return
        if word == "grow":
            while True:
                hoard.append(bytearray(HOARD_STEP))
        print(f"forkling: {word!r}?", flush=True)
