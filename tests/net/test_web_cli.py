"""`serve --web` and `host --web` as a user starts them: the relay and the web table in one
process (sharing the SSH table's fork server when `--ssh` runs too), the address printed, the
room hosted at the screen joined from a browser, and the options checked before anything
starts."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest
from test_ssh_cli import test_bad_ssh_options_are_one_line_and_exit_2 as one_line_and_exit_2
from web_support import WebPlayer

from net.host.hosting import HostPlan, open_room
from net.ssh.server import SshConfig, hosting_with_table
from net.web.server import WebConfig, beside

CLI = [sys.executable, "-m", "tui.cli"]
ROOT = Path(__file__).resolve().parents[2]


async def test_serve_with_web_prints_its_address_and_serves_the_menu_until_stopped() -> None:
    server = await asyncio.create_subprocess_exec(
        *CLI, "serve", "--port", "0", "--web", "0", cwd=ROOT, env=dict(os.environ),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    player: WebPlayer | None = None
    try:
        async with asyncio.timeout(30):
            banner = (await server.stdout.readline()).decode()
        found = re.search(r"web table on http://127\.0\.0\.1:(\d+)/ \(open to anyone\)", banner)
        assert found, banner
        player = WebPlayer(int(found.group(1)))
        await player.load()
        await player.open()
        await player.wait_for("Host a game", "the menu")
        server.send_signal(signal.SIGTERM)
        await player.wait_closed()
        assert "the table is closing" in player.reason()
        async with asyncio.timeout(20):
            assert await server.wait() == 0
    finally:
        if player is not None:
            await player.close()
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_host_with_ssh_and_web_lets_a_browser_join_the_hosted_room_by_code() -> None:
    """`host --ssh --web`: one fork server for both tables; a browser player (here a raw
    websocket client) takes a seat in the room hosted at the screen."""
    plan = HostPlan("schoene", 3, port=0, host_name=None)
    lines: list[str] = []

    async def hosting() -> None:
        room = await open_room(plan)
        port = int(re.findall(r"web table on http://127\.0\.0\.1:(\d+)/", "\n".join(lines))[0])
        player = WebPlayer(port)
        try:
            await player.load()
            await player.open()
            await player.wait_for("Join by code", "the menu")
            await player.press("down", "down", "enter")
            await player.wait_for("Join code (e.g.", "the join form")
            await player.press(room.host.display_code, "enter")
            await player.wait_for("Waiting for the host to start", "the browser's lobby")
            assert room.host.seat_list()[0]["name"] == "player"
        finally:
            await player.close()
            await room.close()

    web = WebConfig(0, "127.0.0.1")
    await hosting_with_table(SshConfig(0, "127.0.0.1"), plan, lines.append, hosting,
                             beside(web, lines.append))
    assert any("host key SHA256:" in line for line in lines), lines


@pytest.mark.parametrize(("args", "message"), [
    (["serve", "--web-password", "x"], "--web-password needs --web PORT"),
    (["serve", "--web-name", "example.org"], "--web-name needs --web PORT"),
    (["serve", "--web", "0", "--web-password", ""], "--web-password needs a non-empty"),
    (["serve", "--web", "0", "--web-trust-proxy", "nginx"], "'nginx' is no IP address"),
    (["serve", "--web", "0", "--web-max-tabs", "0"], "expected 1 or more"),
    (["host", "schoene", "--headless", "--web", "8080"], "--web needs the host's screen"),
])
def test_bad_web_options_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str],
) -> None:
    one_line_and_exit_2(args, message, capsys)
