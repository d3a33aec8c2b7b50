"""`serve --ssh` and `host --ssh` as a user starts them: the relay and the SSH server in one
process, the host key's fingerprint printed, and the options checked before anything starts."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh
import pytest
from ssh_support import connect

from net import home
from net.host.hosting import TABLE_RELAY_ENV, HostPlan, open_room, start_relay
from net.relay.server import Relay
from net.ssh.keys import HOST_KEY, fingerprint
from net.ssh.server import SshConfig, hosting_with_table
from tui.cli import main

CLI = [sys.executable, "-m", "tui.cli"]
ROOT = Path(__file__).resolve().parents[2]


async def test_serve_with_ssh_prints_the_key_and_serves_the_menu_until_stopped() -> None:
    server = await asyncio.create_subprocess_exec(
        *CLI, "serve", "--port", "0", "--ssh", "0", "--ssh-host", "127.0.0.1", cwd=ROOT,
        env=dict(os.environ), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    try:
        async with asyncio.timeout(20):
            banner = (await server.stdout.readline()).decode()
        found = re.search(r"SSH table on 127\.0\.0\.1:(\d+) \(open to anyone\); host key "
                          r"(SHA256:\S+ \(ED25519\))", banner)
        assert found, banner
        port, printed = int(found.group(1)), found.group(2)
        player = await connect(port, "ada")
        assert player.conn is not None
        # What the player's client sees is the key the server printed and keeps.
        seen = player.conn.get_server_host_key()
        assert seen is not None and fingerprint(seen) == printed
        assert (home.data_dir() / "ssh" / HOST_KEY).stat().st_mode & 0o777 == 0o600
        await player.wait_for("Host a game", "the menu")
        server.send_signal(signal.SIGTERM)
        await player.wait_closed()
        assert b"the table is closing" in player.stderr
        async with asyncio.timeout(20):
            assert await server.wait() == 0
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_an_ssh_node_of_a_bigger_table_shows_the_shared_key_and_uses_its_relays(
    tmp_path: Path, relay: Relay,
) -> None:
    """`serve --ssh --relay URL --ssh-host-key FILE`: no relay of its own, the shared key."""
    shared = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "host_key"
    key_file.write_bytes(shared.export_private_key())
    server = await asyncio.create_subprocess_exec(
        *CLI, "serve", "--ssh", "0", "--ssh-host", "127.0.0.1", "--relay", relay.url,
        "--ssh-host-key", str(key_file), cwd=ROOT, env=dict(os.environ),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    try:
        async with asyncio.timeout(20):
            banner = (await server.stdout.readline()).decode()
            using = (await server.stdout.readline()).decode()
        assert fingerprint(shared) in banner, banner
        assert f"sessions use the relays at {relay.url}" in using, using
        assert not (home.data_dir() / "ssh" / HOST_KEY).exists()
        server.send_signal(signal.SIGTERM)
        async with asyncio.timeout(20):
            assert await server.wait() == 0
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_host_with_ssh_runs_a_relay_whose_rooms_ssh_players_join() -> None:
    plan = HostPlan("schoene", 3, port=0, host_name=None)
    lines: list[str] = []

    async def hosting() -> None:
        assert plan.server is not None  # the room opens on the relay started alongside
        room = await open_room(plan)
        try:
            port = int(re.findall(r"127\.0\.0\.1:(\d+)", lines[0])[0])
            bob = await connect(port, "bob", command=f"join {room.host.display_code}")
            await bob.wait_for("Waiting for the host to start", "bob's lobby")
            assert room.host.seat_list()[0]["name"] == "bob"
            await bob.close()
        finally:
            await room.close()

    await hosting_with_table(SshConfig(0, "127.0.0.1"), plan, lines.append, hosting)
    assert "host key SHA256:" in lines[0]


@pytest.mark.parametrize(("args", "message"), [
    (["serve", "--ssh-keys", "keys"], "--ssh-keys needs --ssh PORT"),
    (["serve", "--ssh", "0", "--ssh-keys", "/nonexistent/keys"],
     "cannot read the SSH keys file /nonexistent/keys"),
    (["serve", "--ssh", "0", "--ssh-max-sessions", "0"], "expected 1 or more"),
    (["serve", "--ssh", "0", "--ssh-idle", "soon"], "expected minutes"),
    (["host", "schoene", "--headless", "--ssh", "2222"], "--ssh needs the host's screen"),
    (["serve", "--relay", "ws://10.0.0.5:8765"], "--relay needs --ssh PORT"),
    (["serve", "--ssh-trust-proxy", "10.0.0.5"], "--ssh-trust-proxy needs --ssh PORT"),
    (["serve", "--ssh", "0", "--ssh-trust-proxy", "haproxy"],
     "'haproxy' is no IP address or network"),
    (["serve", "--ssh", "0", "--ssh-host-key", "/nonexistent/key"],
     "cannot read the SSH host key /nonexistent/key"),
])
def test_bad_ssh_options_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as ended:
        main(args)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_damaged_host_key_is_one_line_naming_the_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = home.data_dir() / "ssh"
    path.mkdir()
    (path / HOST_KEY).write_text("garbage\n")
    with pytest.raises(SystemExit) as ended:
        main(["serve", "--ssh", "0"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert f"cannot read the SSH host key {path / HOST_KEY}" in err and err.count("\n") == 1


async def test_a_session_of_the_table_opens_no_relay_of_its_own(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An SSH player who empties the host form's relay field and asks for the LAN still hosts
    on the table's relay: no port opened, nothing advertised on the server's network."""
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    started, url = await start_relay(HostPlan("schoene", 3, server=None, lan=True), print)
    assert started is None and url == relay.url


@pytest.mark.parametrize(("args", "option", "module"), [
    (["serve", "--port", "0", "--ssh", "0"], "--ssh", "asyncssh"),
    (["serve", "--port", "0", "--web", "0"], "--web", "textual_serve"),
    (["players", "--db", "postgresql://tabletop@db.example.org/tabletop"], "--db", "psycopg"),
])
def test_a_serving_option_without_the_serving_parts_says_which_pip_command_installs_them(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], option: str, module: str) -> None:
    """A player's install (`pip install .`) has no SSH server, web server or PostgreSQL driver:
    an option that needs one stops with one line naming the pip command, exit 2, and
    starts nothing."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == module else find_spec(name, *a))
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [f"tabletop-tui: {option} needs the serving parts, which are not installed: "
                    "pip install 'tabletop-tui[serve]' (in a checkout: pip install '.[serve]')"]
