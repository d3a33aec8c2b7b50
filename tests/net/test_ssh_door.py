"""The SSH table's door under attack, over real sockets on 127.0.0.1 and ::1: connections that
never close, logins held open, one address taking every seat, password guessing, and a log that
an operator can read through it all."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from ssh_support import OpenTable, Player, connect, exact, stalled_login, until

from net.ssh.access import Access
from net.ssh.limits import SshLimits
from net.ssh.logs import Repeats
from net.ssh.server import SshConfig, SshTable


def held_sockets(port: int) -> int:
    """Sockets this process holds on the server's side of connections to `port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] != "0A":  # 0A: listen
                inodes.add(fields[9])
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    return len(inodes & mine)


class Knocker(asyncssh.SSHClientSession[bytes]):
    """A session that is refused, on a connection its client then leaves open."""

    def __init__(self) -> None:
        self.stderr = b""

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.stderr += data


class Keyless(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""


async def knock_and_stay(port: int) -> asyncssh.SSHClientConnection | Exception:
    """Log in, ask for a session without a terminal (refused), and keep the connection. (On a
    busy machine the server may close it before the session is asked for: the grace.)"""
    try:
        conn = await asyncssh.connect("127.0.0.1", port, username="idle", known_hosts=None,
                                      config=None, agent_path=None, client_keys=None,
                                      client_factory=Keyless)
    except (asyncssh.Error, OSError) as exc:
        return exc
    with contextlib.suppress(asyncssh.Error, OSError):
        chan, _ = await conn.create_session(Knocker, encoding=None)
        await chan.wait_closed()
    return conn


def turned_away(end: object) -> bool:
    """Turned away at the door: told why, or (when the client wrote before it read that)
    just closed."""
    if isinstance(end, asyncssh.ConnectionLost | ConnectionError):
        return True
    return isinstance(end, asyncssh.DisconnectError) and "try again" in end.reason


async def test_connections_left_open_after_a_refused_session_are_closed_after_the_grace(
    open_table: OpenTable,
) -> None:
    """Each connection asks for one session, which is refused, and then sits there: today's
    flood of ~1,000 of them ran the server out of file descriptors."""
    limits = SshLimits(per_address=100, max_startups=100, grace=0.5)
    table = await open_table(per_address=100, max_startups=100, grace=0.5)
    files_before = len(os.listdir("/proc/self/fd"))
    doors = 0

    async def sample() -> None:
        nonlocal doors
        while True:
            doors = max(doors, len(table.doors))
            await asyncio.sleep(0.01)

    sampler = asyncio.ensure_future(sample())
    try:
        ends = await asyncio.gather(*(knock_and_stay(table.port) for _ in range(300)))
        held = [end for end in ends if isinstance(end, asyncssh.SSHClientConnection)]
        assert held and all(end in held or turned_away(end) for end in ends)
        # Those turned away are gone within a few turns of the loop (asyncio accepts up to its
        # backlog of 100 at a time, each then closed at once): the server holds the counted.
        await until(lambda: held_sockets(table.port) <= limits.max_connections,
                    "no more than the cap held")
        async with asyncio.timeout(20):
            for conn in held:
                await conn.wait_closed()  # closed by the server: the client never closes them
        await until(lambda: held_sockets(table.port) == 0, "every server socket closed")
    finally:
        sampler.cancel()
    assert 0 < doors <= limits.max_connections
    assert not table.doors
    # Both ends of every connection are in this process: all go, and the files with them.
    await until(lambda: len(os.listdir("/proc/self/fd")) <= files_before, "the files back")


async def test_an_address_holding_its_logins_in_progress_keeps_nobody_else_out(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    table.group = exact
    most = table.limits.per_address_startups
    held = [await stalled_login(table.port, "127.0.0.2") for _ in range(most)]
    try:
        reader, writer = await stalled_login(table.port, "127.0.0.2")
        said = await asyncio.wait_for(reader.read(), 10)  # then the server closes it
        writer.close()
        assert (f"too many logins in progress from address 127.0.0.2: at most {most} at once; "
                "try again in a moment").encode() in said
        honest = await connect(table.port, "ada", pty=False)
        await honest.wait_closed()
        assert b"needs a terminal" in honest.stderr  # past the door
    finally:
        for _, writer in held:
            writer.close()


async def test_the_table_takes_only_so_many_logins_in_progress_in_all(
    open_table: OpenTable,
) -> None:
    """As OpenSSH's MaxStartups: many addresses holding logins open shut out new ones until
    theirs end (the login timeout ends them)."""
    table = await open_table(max_startups=4)
    table.group = exact
    held = [await stalled_login(table.port, "127.0.0.2") for _ in range(3)]
    held.append(await stalled_login(table.port, "127.0.0.3"))
    reader, writer = await stalled_login(table.port, "127.0.0.4")
    said = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert b"the table has too many logins in progress; try again in a moment" in said
    held.pop()[1].close()
    await until(lambda: len(table.doors) == 3, "a login gone")
    honest = await connect(table.port, "ada", pty=False)
    await honest.wait_closed()
    assert b"needs a terminal" in honest.stderr
    for _, writer in held:
        writer.close()


async def test_one_address_or_one_player_gets_three_sessions_told_in_one_line(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    table.group = exact
    key = asyncssh.generate_private_key("ssh-ed25519")
    players: list[Player] = []
    try:
        for name in ("ada", "bob", "cy"):
            players.append(await connect(table.port, name, key=key if name == "ada" else None))
        await until(lambda: len(table.sessions) == 3, "three sessions")
        fourth = await connect(table.port, "dee")
        await fourth.wait_closed()
        assert fourth.status == 1 and fourth.stderr == (
            b"tabletop-tui: address 127.0.0.1 has 3 sessions at this table already, the most "
            b"one address may have; close one to open another\r\n")
        # The same key from other addresses: the player, not the address, is at the limit.
        for source in ("127.0.0.2", "127.0.0.3"):
            players.append(await connect(table.port, "ada", key=key, source=source))
        await until(lambda: len(table.sessions) == 5, "five sessions")
        again = await connect(table.port, "ada", key=key, source="127.0.0.4")
        await again.wait_closed()
        assert again.status == 1 and again.stderr == (
            b"tabletop-tui: you have 3 sessions at this table already, the most one player may "
            b"have; close one to open another\r\n")
        # One goes, and its place is free again.
        await players[1].close()
        await until(lambda: len(table.sessions) == 4, "bob's session gone")
        back = await connect(table.port, "dee")
        players.append(back)
        await back.wait_for("Host a game", "the menu for dee")
    finally:
        for player in players:
            await player.close()


async def test_the_log_says_how_each_session_ended_and_how_many_are_live(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    table = await open_table()
    table.group = exact
    ada = await connect(table.port, "ada", source="127.0.0.2")
    bob = await connect(table.port, "bob", command="watch K7QX-9MPA-B3CD", source="127.0.0.3")
    cy = await connect(table.port, "cy", source="127.0.0.4")
    for player in (ada, cy):
        await player.wait_for("Host a game", "the menu")
    await bob.wait_closed()  # no such room: the app says so and ends
    ada.press("ctrl+q")
    await ada.wait_closed()
    await cy.hang_up()
    await until(lambda: not table.sessions, "cy's session ended")
    lines = [r.getMessage() for r in caplog.records if r.name == "tabletop.sshd"]
    started = [re.fullmatch(r"ssh session from (\S+) as '(\w+)' \(no key\): (\w+) \((\d) live "
                            r"sessions?\)", line) for line in lines if "(no key): " in line]
    assert sorted(m.group(1, 2, 3) for m in started if m) == [
        ("127.0.0.2", "ada", "menu"), ("127.0.0.3", "bob", "watch"), ("127.0.0.4", "cy", "menu")]
    assert sorted(m.group(4) for m in started if m) == ["1", "2", "3"]
    # How long, why, and how many are left (which of them ends first is the machine's pace).
    ended = {re.sub(r"ended after \d+s: (.*) \(\d live sessions?\)", r"ended: \1", line)
             for line in lines if " ended " in line}
    assert ended == {
        "ssh session from 127.0.0.3 as 'bob' ended: the app ended with 2",
        "ssh session from 127.0.0.2 as 'ada' ended: the player quit",
        "ssh session from 127.0.0.4 as 'cy' ended: the connection closed",
    }
    assert lines[-1].endswith("(0 live sessions)")
    assert not any("K7QX" in line for line in lines)


class Guesser(asyncssh.SSHClient):
    """Tries one password after another on one connection, as fast as the server answers."""

    def __init__(self, guesses: list[str]) -> None:
        self.guesses = guesses
        self.tried = 0

    def password_auth_requested(self) -> str | None:
        if self.tried == len(self.guesses):
            return None
        self.tried += 1
        return self.guesses[self.tried - 1]


async def guessing(port: int, guesses: list[str]) -> tuple[Guesser, object]:
    guesser = Guesser(guesses)
    try:
        conn = await asyncssh.connect("127.0.0.1", port, username="eve", known_hosts=None,
                                      config=None, agent_path=None, client_keys=None,
                                      preferred_auth="password", client_factory=lambda: guesser)
    except (asyncssh.PermissionDenied, asyncssh.DisconnectError) as exc:
        return guesser, exc
    return guesser, conn


async def test_password_guessing_is_slowed_per_address_limited_per_connection_and_logged(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    table = await open_table(Access(password="s3cret"), password_delay=0.5)
    waits: list[float] = []

    async def pause(seconds: float) -> None:  # the waits, without waiting them out
        waits.append(seconds)

    table.pause = pause
    guesser, ended = await guessing(table.port, [f"guess{n}" for n in range(50)])
    assert isinstance(ended, asyncssh.DisconnectError)
    assert ended.reason == "3 wrong passwords; connect again to try again"
    assert guesser.tried <= 4  # the client may send one more before it reads the goodbye
    assert waits == [0.0, 0.5, 1.0]  # nothing before the first, then doubling
    # The next connection from the address goes on where the last left off, the right
    # password too (else a guesser could stop waiting and know its guess was wrong).
    _, ended = await guessing(table.port, ["wrong again"])
    assert waits[3:] == [2.0]
    _, conn = await guessing(table.port, ["s3cret"])
    assert isinstance(conn, asyncssh.SSHClientConnection)
    conn.close()
    assert waits[4:] == [4.0]
    failed = [r.getMessage() for r in caplog.records if "login failed" in r.getMessage()]
    assert len(failed) == 4
    assert failed[0] == ("ssh login failed from 127.0.0.1 as 'eve': wrong password (1 on this "
                         "connection, 1 from its address in 15 minutes; the next waits 0 s)")
    assert not any("guess" in r.getMessage() or "s3cret" in r.getMessage()
                   for r in caplog.records)


async def test_a_flood_of_refused_visitors_is_a_few_lines_in_the_log(tmp_path: Path) -> None:
    """Refusals come at a limited rate: the same refusal again and again is a few lines in
    the log of `serve --ssh`, however many times it happens."""
    log = tmp_path / "serve.log"
    server, port = await serve(log=log)
    try:
        ends = await asyncio.gather(*(knock_and_stay(port) for _ in range(200)))
        for end in ends:
            if isinstance(end, asyncssh.SSHClientConnection):
                end.close()
        assert sum(turned_away(end) for end in ends) > 100
    finally:
        await stopped(server)
    refusals = [line for line in log.read_text().splitlines() if "refused" in line]
    assert 1 <= len(refusals) <= 3 * Repeats().burst, "\n".join(refusals)


def test_repeats_are_counted_and_said_once_the_minute_is_over() -> None:
    now = [0.0]
    repeats = Repeats(burst=2, window=60.0, clock=lambda: now[0])

    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("tabletop.sshd", logging.INFO, __file__, 1, msg, args, None)

    same = [record("ssh session from %s refused: %s", f"192.0.2.{n}", "full") for n in range(9)]
    assert [repeats.filter(r) for r in same] == [True, True] + [False] * 7
    assert repeats.filter(record("ssh connection from %s refused: %s", "x", "y"))  # another kind
    now[0] = 61.0
    later = record("ssh session from %s refused: %s", "192.0.2.99", "full")
    assert repeats.filter(later)
    assert later.getMessage() == ("ssh session from 192.0.2.99 refused: full (and 7 more like "
                                  "this, left out)")
    every = record("ssh session from %s as %r ended", "192.0.2.1", "ada")
    every.every = True
    assert all(repeats.filter(every) for _ in range(10))


def free_port_on_both() -> int:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        probe.bind(("::", 0))
        return int(probe.getsockname()[1])


async def test_the_table_listens_on_ipv4_and_ipv6_by_default(relay: Any) -> None:
    table = SshTable(SshConfig(free_port_on_both()), relay.url)
    await table.start()
    try:
        assert f"SSH table on port {table.port} of every address, IPv4 and IPv6 (open to " \
            "anyone)" in table.banner()
        for host in ("::1", "127.0.0.1"):
            player = await connect(table.port, "ada", pty=False, host=host)
            await player.wait_closed()
            assert b"needs a terminal" in player.stderr, host
    finally:
        await table.stop()


def test_an_ipv6_address_counts_by_its_64() -> None:
    table = SshTable(SshConfig(0, limits=SshLimits(per_minute=1)), "ws://127.0.0.1:1")
    assert table.knock("2001:db8:1:2::5") is None
    refused = table.knock("2001:db8:1:2:ffff::9")
    assert refused is not None
    assert refused("en") == (
        "too many new sessions from network 2001:db8:1:2::/64: at most 1 a minute; wait a "
        "minute and try again")
    assert refused("de") == (
        "zu viele neue Sitzungen von Netz 2001:db8:1:2::/64: höchstens 1 pro Minute; warte "
        "eine Minute und versuch es noch einmal")
    assert table.knock("2001:db8:1:3::5") is None
    assert table.knock("192.0.2.7") is None


async def serve(*args: str, preexec: Callable[[], None] | None = None,
                log: Path) -> tuple[asyncio.subprocess.Process, int]:
    """`tabletop-tui serve --ssh` in a process of its own, its log to `log`; and its port."""
    root = Path(__file__).resolve().parents[2]
    with log.open("wb") as sink:
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "serve", "--port", "0", "--ssh", "0", "--ssh-host",
            "127.0.0.1", *args, cwd=root, env=dict(os.environ), preexec_fn=preexec,
            stdout=asyncio.subprocess.PIPE, stderr=sink)
    assert server.stdout is not None
    async with asyncio.timeout(20):
        banner = (await server.stdout.readline()).decode()
    found = re.search(r"SSH table on 127\.0\.0\.1:(\d+)", banner)
    assert found, banner + log.read_text()
    return server, int(found.group(1))


async def stopped(server: asyncio.subprocess.Process) -> None:
    if server.returncode is None:
        server.terminate()
        await server.wait()


async def test_out_of_files_the_server_logs_a_few_lines_not_thousands(tmp_path: Path) -> None:
    """Today's flood put the event loop's accept failure in the log ~13,700 times a second.
    Here the limits are opened wide and the server given 64 files, so that a flood of
    connections runs it out of them all the same (and penalties are off: the flood and the
    player after it come from one address)."""
    import resource

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    log = tmp_path / "serve.log"
    server, port = await serve("--ssh-per-address", "400", "--ssh-max-startups", "400",
                               "--ssh-penalty", "0", preexec=few_files, log=log)
    flood: list[asyncio.StreamWriter] = []
    try:
        for _ in range(150):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            flood.append(writer)
        await until(lambda: "out of system resource" in log.read_text(), "the failure logged")
        await asyncio.sleep(2.0)  # what it logs meanwhile
        lines = log.read_text().splitlines()
        failures = [line for line in lines if "out of system resource" in line]
        assert 1 <= len(failures) <= Repeats().burst
        assert len(lines) < 200
        for writer in flood:
            writer.close()
        flood.clear()
        # Once the flood is gone, the table takes players again.
        player = await until_connected(port)
        await player.wait_closed()
        assert b"needs a terminal" in player.stderr
    finally:
        for writer in flood:
            writer.close()
        await stopped(server)


async def until_connected(port: int) -> Player:
    for _ in range(100):
        try:
            return await connect(port, "ada", pty=False)
        except (OSError, asyncssh.Error):
            await asyncio.sleep(0.1)
    raise AssertionError("the table never took a player again")

