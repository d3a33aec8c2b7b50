"""SSH table benchmark: `python -m bench.ssh` prints figures (it asserts nothing).

A relay and the SSH server run in this process, as `tabletop-tui serve --ssh` runs them; the
players are asyncssh clients feeding a terminal emulator (pyte, from the test extra). Printed:
  * connect to painted menu: from opening the TCP connection to the whole main menu on the
    player's screen (key exchange, login, the child's start and first paint), one player at a
    time, then a burst of players connecting at once;
  * memory per session: each child app's resident (RSS), proportional (PSS: shared pages split
    among the processes sharing them) and private (USS) memory once all sessions sit idle in
    the menu, and what the server process itself grew by per session;
  * how many idle sessions fit in 1 GiB, from PSS plus the server's share.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

MENU = ("Host a game", "Quit")  # the first and the last line of the painted menu


class Watcher(asyncssh.SSHClientSession[bytes]):
    """One player's screen; `painted` is set once the whole menu shows."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(100, 30)
        self.stream = pyte.ByteStream(self.screen)
        self.painted = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.stream.feed(data)
        if not self.painted.is_set():
            text = "\n".join(self.screen.display)
            if all(item in text for item in MENU):
                self.painted.set()


class Keyless(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""  # log in to the open table as OpenSSH does without keys


async def session(port: int, name: str) -> tuple[float, asyncssh.SSHClientConnection]:
    """Seconds from connecting to the painted menu, and the connection (left open)."""
    start = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  config=None, agent_path=None, client_keys=None,
                                  client_factory=Keyless)
    watcher = Watcher()
    await conn.create_session(lambda: watcher, encoding=None, term_type="xterm-256color",
                              term_size=(100, 30))
    await asyncio.wait_for(watcher.painted.wait(), 60)
    return time.perf_counter() - start, conn


def memory_kib(pid: int | str) -> dict[str, int]:
    """Rss, Pss and Private_* of a process, in KiB (Linux /proc)."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        fields[name] = int(rest.split()[0])
    fields["Uss"] = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


async def run(sessions: int, burst: int) -> None:
    from net.relay.server import Relay
    from net.ssh.limits import SshLimits
    from net.ssh.server import SshConfig, SshTable

    relay = Relay()
    await relay.start("127.0.0.1", 0)
    places = sessions + burst + 2  # every player comes from this machine: one address
    limits = SshLimits(max_sessions=places, per_address=places, per_minute=10_000)
    table = SshTable(SshConfig(0, "127.0.0.1", limits=limits), relay.url)
    port = await table.start()
    conns: list[asyncssh.SSHClientConnection] = []
    try:
        warm, conn = await session(port, "warmup")  # the first start also fills the OS caches
        conn.close()
        await asyncio.sleep(1.0)
        server_before = memory_kib("self")
        times = []
        for i in range(sessions):
            seconds, conn = await session(port, f"player{i}")
            times.append(seconds)
            conns.append(conn)
        await asyncio.sleep(2.0)  # let every child settle in its menu
        children = [memory_kib(s.child.pid) for s in table.sessions if s.child is not None]
        server_after = memory_kib("self")
        started = time.perf_counter()
        burst_results = await asyncio.gather(*(session(port, f"burst{i}") for i in range(burst)))
        burst_wall = time.perf_counter() - started
        conns += [c for _, c in burst_results]
    finally:
        for conn in conns:
            conn.close()
        await table.stop()
        await relay.stop()

    rss = statistics.mean(c["Rss"] for c in children)
    pss = statistics.mean(c["Pss"] for c in children)
    uss = statistics.mean(c["Uss"] for c in children)
    server_share = max(0, server_after["Rss"] - server_before["Rss"]) / sessions
    per_session = pss + server_share
    print(f"SSH table: {sessions} sessions one after another, then {burst} at once "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    print(f"  connect to painted menu: first start {warm:.2f} s; then median "
          f"{statistics.median(times):.2f} s, max {max(times):.2f} s")
    burst_times = sorted(t for t, _ in burst_results)
    print(f"  {burst} connecting at once: median {statistics.median(burst_times):.2f} s, "
          f"slowest {burst_times[-1]:.2f} s (all painted after {burst_wall:.2f} s)")
    print(f"  memory per idle session (child app): RSS {mib(rss)}, PSS {mib(pss)}, "
          f"USS {mib(uss)}; the server grew {mib(server_share)} per session")
    print(f"  sessions in 1 GiB (PSS + server share): {int(1024 * 1024 // per_session)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=8, help="sessions opened one by one")
    parser.add_argument("--burst", type=int, default=4, help="sessions opened at once")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-ssh-") as home:
        os.environ["TABLETOP_TUI_HOME"] = str(Path(home) / "data")
        os.environ["TABLETOP_TUI_ROOMS"] = str(Path(home) / "rooms")
        asyncio.run(run(args.sessions, args.burst))


if __name__ == "__main__":
    main()
