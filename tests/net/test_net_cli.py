"""The headless commands as a user runs them: real processes, real ports, code alone."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
from pathlib import Path

from netsupport import TIMEOUT, Player
from test_net_faults import to_act

from net.peer.remote import RemoteLink

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


async def spawn(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *CLI, *args, cwd=ROOT, env=dict(os.environ), stdout=asyncio.subprocess.PIPE,
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
