"""A stand-in app for the SSH table's fork server (net.ssh.forkserver) that says it has started
only when told: it shows its process, then answers lines typed on its terminal (`started`: say
so to the fork server; `quit`)."""

from __future__ import annotations

import os
import sys

from net.ssh import forkserver

SAYS_STARTED = True


def warm() -> None:
    """Nothing to warm."""


def main(argv: list[str]) -> None:
    print(f"startling pid={os.getpid()}", flush=True)
    for line in sys.stdin:
        word = line.strip()
        if word == "quit":
            return
        if word == "started":
            forkserver.started()
        print(f"startling: {word}", flush=True)
