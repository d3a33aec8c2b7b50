"""One SSH session under a stream of input: `python -m bench.ssh_input` prints figures (it
asserts nothing).

A relay and the SSH table run in this process with their default limits; one player logs in
over SSH, waits for the menu, and then sends keys (arrow keys by default) as fast as the table
takes them (it paces what a session may send: net.ssh.flood), for `--seconds`. Printed: the
session's app's resident memory (RSS) and the CPU share it used, every `--every` seconds;
then a resize storm (`--storm` seconds of window sizes sent as fast as the client can, two
sizes in turn): the CPU share the app used meanwhile and how many sizes reached it. The aims
of issue #35 are printed beside: under 150 MiB after 10 minutes of the worst stream, a resize
storm a small share of a core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

import asyncssh

from bench.ssh import MENU, close_table, cpu_seconds, login, memory_kib, mib, open_table
from net.ssh.server import SshTable

KEYS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
        "tab": b"\t", "shift+tab": b"\x1b[Z", "f2": b"\x1bOQ", "f3": b"\x1bOR", "a": b"a"}
AIM_MIB = 150.0
STORM_SIZES = ((80, 24), (250, 80))


class Sink(asyncssh.SSHClientSession[bytes]):
    """A terminal that throws away what it is sent, once the menu has come (a bench client
    that kept it would grow by hundreds of MiB)."""

    def __init__(self) -> None:
        self.seen = b""
        self.menu = asyncio.get_running_loop().create_future()
        self.received = 0

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.received += len(data)
        if self.menu.done():
            return
        self.seen = (self.seen + data)[-20000:]
        if all(word.encode() in self.seen for word in MENU):
            self.menu.set_result(None)


async def open_session(table: SshTable, name: str, game: bool,
                       ) -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientChannel[bytes],
                                  Sink]:
    """A session at the menu, or with `game` at a local game of the first game against bots
    (Enter, Enter, F5: the keys a player presses)."""
    conn = await login(table.port, name)
    sink = Sink()
    chan, _ = await conn.create_session(lambda: sink, encoding=None,
                                        term_type="xterm-256color", term_size=(100, 30))
    await asyncio.wait_for(sink.menu, 60)
    if game:
        for key in (b"\r", b"\r", b"\x1b[15~"):
            chan.write(key)
            await asyncio.sleep(1.5)
    return conn, chan, sink


def app_pid(table: SshTable) -> int:
    session = next(iter(table.sessions))
    assert session.child is not None
    return session.child.pid


async def stream(chan: asyncssh.SSHClientChannel[bytes], keys: list[bytes],
                 until: float) -> int:
    """Send `keys` in turn until `until`, as fast as the channel takes them; bytes sent."""
    block = b"".join(keys) * max(1, 512 // len(b"".join(keys)))
    sent = 0
    while time.monotonic() < until:
        chan.write(block)
        sent += len(block)
        while chan.get_write_buffer_size() > 4096 and time.monotonic() < until:
            await asyncio.sleep(0.005)  # the table has stopped reading: SSH's window is full
    return sent


async def run(seconds: float, every: float, storm: float, keys: list[str], game: bool) -> None:
    relay, table = await open_table()
    where = "a game against bots" if game else "the menu"
    try:
        conn, chan, _ = await open_session(table, "ada", game)
        pid = app_pid(table)
        print(f"session app {pid}: {mib(memory_kib(pid)['Rss'])} RSS at {where}; sending "
              f"{'+'.join(keys)} for {seconds:g} s")
        start = time.monotonic()
        sender = asyncio.ensure_future(
            stream(chan, [KEYS[k] for k in keys], start + seconds))
        cpu_then, then = cpu_seconds(pid), start
        while not sender.done():
            await asyncio.wait([sender], timeout=every)
            now, cpu = time.monotonic(), cpu_seconds(pid)
            print(f"  {now - start:6.0f} s  RSS {mib(memory_kib(pid)['Rss']):>10}  "
                  f"CPU {100 * (cpu - cpu_then) / (now - then):5.1f} % of a core", flush=True)
            cpu_then, then = cpu, now
        sent = sender.result()
        rss = memory_kib(pid)["Rss"] / 1024
        print(f"sent {sent / 1024:.0f} KiB ({sent / 1024 / seconds:.1f} KiB/s) in "
              f"{seconds:g} s; RSS {rss:.1f} MiB (aim: under {AIM_MIB:g} MiB after 10 minutes)")
        conn.close()
        await storm_on_a_fresh_session(table, storm, game)
    finally:
        await close_table(relay, table)


async def storm_on_a_fresh_session(table: SshTable, seconds: float, game: bool) -> None:
    """A resize storm on a session of its own at the menu (the key stream's session still
    has keys to handle: a client that floods waits behind its window and the table's queue)."""
    await until_gone(table)
    conn, chan, sink = await open_session(table, "bob", game)
    pid = app_pid(table)
    await asyncio.sleep(2.0)
    idle_from, idle_cpu = time.monotonic(), cpu_seconds(pid)
    await asyncio.sleep(3.0)
    idle = (cpu_seconds(pid) - idle_cpu) / (time.monotonic() - idle_from)
    session = next(iter(table.sessions))
    passed = [0]
    resize = session._pass_size

    def counted() -> None:
        passed[0] += 1
        resize()

    session._resizes.apply = counted
    drawn = sink.received
    before, cpu_then, sent = time.monotonic(), cpu_seconds(pid), 0
    while time.monotonic() < before + seconds:
        chan.change_terminal_size(*STORM_SIZES[sent % 2])
        sent += 1
        await asyncio.sleep(0.0005 if sent % 2 else 0.05)  # each size for a while, in turn
    await asyncio.sleep(1.0)
    spent = cpu_seconds(pid) - cpu_then
    wall = time.monotonic() - before
    print(f"resize storm: {sent} sizes sent in {seconds:g} s, {passed[0]} passed on to the "
          f"app; it used {100 * spent / wall:.1f} % of a core (the storm and 1 s after; "
          f"{100 * idle:.1f} % idle before); it drew "
          f"{(sink.received - drawn) / 1024:.0f} KiB meanwhile")
    conn.close()


async def until_gone(table: SshTable) -> None:
    while table.sessions:
        await asyncio.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds of the key stream")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between samples")
    parser.add_argument("--storm", type=float, default=20.0, help="seconds of the resize storm")
    parser.add_argument("--keys", default="down,up", help=f"keys sent in turn, of {sorted(KEYS)}")
    parser.add_argument("--game", action="store_true",
                        help="at a local game against bots rather than the menu")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-input-") as home:
        os.environ["TABLETOP_TUI_HOME"] = str(Path(home) / "data")
        os.environ["TABLETOP_TUI_ROOMS"] = str(Path(home) / "rooms")
        os.environ["TABLETOP_TUI_CONFIG"] = str(Path(home) / "config")
        asyncio.run(run(args.seconds, args.every, args.storm, args.keys.split(","), args.game))


if __name__ == "__main__":
    main()
