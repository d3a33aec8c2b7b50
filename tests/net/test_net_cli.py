"""The headless commands as a user runs them: real processes, real ports, code alone."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
from pathlib import Path

import pyte
from netsupport import TIMEOUT, Player
from test_net_faults import to_act

from net.host.hosting import HostPlan, open_room
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.ssh.forks import Forks
from net.ssh.pty import PtyChild
from net.ssh.server import APP
from net.wire import codes

CLI = [sys.executable, "-m", "tui.cli"]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A free port below the ephemeral range: a client retrying a dead port in that range
    can be connected to itself by the kernel (TCP self-connect) and hang."""
    rng = random.Random()
    while True:
        port = rng.randrange(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


async def spawn(*args: str, env: dict[str, str] | None = None,
                stdin: bool = False) -> asyncio.subprocess.Process:
    """`tabletop-tui ARGS` as a process, with `env` added to ours and, if `stdin`, a pipe for
    its input."""
    return await asyncio.create_subprocess_exec(
        *CLI, *args, cwd=ROOT, env={**os.environ, **(env or {})},
        stdin=asyncio.subprocess.PIPE if stdin else None, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def first_line(proc: asyncio.subprocess.Process) -> str:
    assert proc.stdout is not None
    async with asyncio.timeout(TIMEOUT):
        return (await proc.stdout.readline()).decode().strip()


async def outcome(proc: asyncio.subprocess.Process) -> tuple[int, list[str], str]:
    async with asyncio.timeout(60):
        out, err = await proc.communicate()
    return proc.returncode or 0, out.decode().splitlines(), err.decode()


async def test_headless_host_and_two_bot_peers_agree_on_the_result() -> None:
    host = await spawn("host", "schoene", "--headless", "--bots", "1", "--seats", "3",
                       "--port", "0")
    code = await first_line(host)
    assert len(code) == 14 and code[4] == code[9] == "-"
    peers = [await spawn("join", code.lower(), "--bot", "random", "--name", name)
             for name in ("Ann", "Bo")]
    results = [await outcome(p) for p in [host, *peers]]
    for rc, _, err in results:
        assert rc == 0, err
    host_lines = results[0][1]
    assert host_lines[-1].startswith("result: scores [")
    for _, lines, _ in results[1:]:
        assert lines == [host_lines[-1], "shuffles verified"]
    winners = host_lines[-1].split("winners [", 1)[1].rstrip("]").split(", ")
    assert winners and set(winners) <= {"Ann", "Bo", "Bot 1"}, host_lines[-1]


def command_line(proc: asyncio.subprocess.Process) -> str:
    """What every user of the machine reads as the process's command line (`ps`)."""
    raw = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode()


async def test_a_join_code_from_the_command_line_the_environment_or_stdin_never_shows_in_ps(
) -> None:
    host = await spawn("host", "schoene", "--headless", "--bots", "1", "--seats", "4",
                       "--port", "0")
    procs = [host]
    try:
        code = await first_line(host)
        typed = await spawn("join", code.lower(), "--bot", "random", "--name", "Ann")
        procs.append(typed)
        assert typed.stderr is not None
        async with asyncio.timeout(TIMEOUT):
            joined = (await typed.stderr.readline()).decode()
        assert "joined" in joined, joined
        # Running, and its command line names no code: the one typed is out of the title.
        assert command_line(typed) == " ".join(
            [*CLI, "join", "[code hidden]", "--bot", "random", "--name", "Ann"])
        procs.append(await spawn("join", "--bot", "random", "--name", "Bo",
                                 env={codes.CODE_ENV: code.lower()}))
        piped = await spawn("join", "--bot", "random", "--name", "Cy", stdin=True)
        procs.append(piped)
        assert piped.stdin is not None
        piped.stdin.write(f"{code}\n".encode())
        await piped.stdin.drain()
        piped.stdin.close()
        results = [await outcome(p) for p in procs]
        for rc, _, err in results:
            assert rc == 0, err
        host_lines = results[0][1]
        for _, lines, _ in results[1:]:
            assert lines == [host_lines[-1], "shuffles verified"]
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


class Terminal:
    """The app on a pseudo-terminal of its own, as the SSH table runs it (forked from its fork
    server), read through a terminal emulator."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(100, 30)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.child: PtyChild | None = None
        self.forks = Forks(APP, {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)}, 0, 0)

    async def start(self, *args: str) -> PtyChild:
        env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
        Path(env["TABLETOP_TUI_HOME"]).mkdir(parents=True, exist_ok=True)
        self.forks.start()
        self.child = await PtyChild.start(self.forks, list(args), env, 100, 30, self.hear)
        return self.child

    async def close(self) -> None:
        if self.child is not None:
            await self.child.hang_up()
        await self.forks.stop()

    def hear(self, data: bytes) -> None:
        self.stream.feed(data)
        self.changed.set()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def shows(self, what: str, times: int = 1) -> None:
        try:
            async with asyncio.timeout(TIMEOUT):
                while self.text().count(what) < times:
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"no {what!r} on the screen:\n{self.text()}") from None


async def test_join_without_a_code_asks_for_it_on_the_terminal_before_the_app(
    relay: Relay,
) -> None:
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    terminal = Terminal()
    child = await terminal.start("join", "--name", "Ann", "--server", relay.url)
    try:
        await terminal.shows("Join code (e.g. K7QX-9MPA-B3CD):")
        child.write(b"K7QX-9MPA\r")  # one that cannot be: said, and asked again
        await terminal.shows("Join code (e.g. K7QX-9MPA-B3CD):", times=2)
        assert "now have 12 symbols" in terminal.text()
        child.write(room.host.display_code.lower().encode() + b"\r")
        await terminal.shows("Waiting for the host to start")
        async with asyncio.timeout(TIMEOUT):
            while "Ann" not in [s["name"] for s in room.host.seat_list()]:
                await asyncio.sleep(0.05)
    finally:
        await terminal.close()
        await room.close()


async def test_a_join_code_that_is_missing_or_wrong_is_one_line() -> None:
    silent = await spawn("join", "--bot", "random", stdin=True)
    assert silent.stdin is not None
    silent.stdin.close()
    rc, _, err = await outcome(silent)
    assert rc == 2 and "no join code" in err and codes.CODE_ENV in err
    rc, _, err = await outcome(await spawn("join", "--bot", "random",
                                           env={codes.CODE_ENV: "K7QX-9MP"}))
    assert rc == 2 and err.startswith(f"tabletop-tui: {codes.CODE_ENV}: ") and "12" in err
    rc, out, _ = await outcome(await spawn("join", "--help"))
    assert rc == 0 and codes.CODE_ENV in " ".join(out)


async def test_a_wrong_code_ends_with_a_clear_message() -> None:
    rc, _, err = await outcome(await spawn("join", "K7QX-9MPA-B3CD", "--bot", "random",
                                           "--server", f"127.0.0.1:{free_port()}"))
    assert rc == 2 and "cannot join K7QX-9MPA" in err and "cannot reach the relay" in err
    rc, _, err = await outcome(await spawn("join", "K7QX-9MP", "--bot", "random"))
    assert rc == 2 and "12 characters" in err
    rc, _, err = await outcome(await spawn("join", "K7QX-9MPA", "--bot", "random"))
    assert rc == 2 and "now have 12 symbols" in err and "older tabletop-tui" in err


async def test_a_killed_host_is_resumed_and_the_peers_rejoin() -> None:
    port = str(free_port())
    # Seed 13 lets seat 2 (Per) start, so the game is under way when Pia stops to think.
    host = await spawn("host", "schoene", "--headless", "--bots", "1", "--seats", "3",
                       "--port", port, "--seed", "13")
    code = await first_line(host)
    pia = Player(RemoteLink(code, "Pia"), seed=1)
    per = Player(RemoteLink(code, "Per"), seed=2)
    resumed = None
    try:
        pia.play = False
        await pia.link.connect()
        await per.link.connect()
        seat = pia.link.seats[0]
        await pia.wait_for(lambda m: to_act(seat)(m) and m["state_no"] > 0)
        host.send_signal(signal.SIGKILL)
        await host.wait()
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "reconnecting")
        pia.play = True
        resumed = await spawn("host", "--resume", "--headless", "--port", port)
        assert await first_line(resumed) == code
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(pia.done.wait(), per.done.wait())
        rc, lines, err = await outcome(resumed)
        assert rc == 0, err
        assert pia.result is not None and pia.result["verified"], pia.result
        assert pia.result == per.result
        assert f"result: scores {pia.result['scores']}".replace("'", '"') in lines[-1]
    finally:
        await pia.link.close()
        await per.link.close()
        for proc in (host, resumed):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
