"""The built-in SSH server over real sockets on 127.0.0.1, read through a terminal emulator:
the menu in the player's terminal, resizing, refusals, limits, and who a player is."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import asyncssh
import pytest
from ssh_support import OpenTable, box_at, connect

from net.relay.server import Relay
from net.ssh import server
from net.ssh.access import Access, Visitor, identity, player_name
from net.ssh.limits import AddressRate
from net.ssh.pty import TERMINAL_RESET
from net.ssh.server import SshConfig, SshTable
from net.ssh.session import DEFAULT_TERM, command_args

BOX_WIDTH = 44  # the menu's title box, centred on the screen


async def test_a_terminal_session_gets_the_menu_and_redraws_when_resized(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    ada = await connect(table.port, "ada", size=(100, 30), env={"COLORTERM": "truecolor"})
    try:
        await ada.wait_for("Host a game", "the main menu")
        col, _ = await ada.wait_for("╔", "the title box")
        assert col == (100 - BOX_WIDTH) // 2
        # Colours follow the client's COLORTERM: 24-bit colours are sent.
        assert b"\x1b[38;2;" in ada.raw
        ada.resize(80, 24)
        await ada.wait_for(lambda: box_at(ada) == (80 - BOX_WIDTH) // 2,
                           "the menu drawn at 80 columns")
        # Ctrl-Z does not stop the app: it still answers keys. The SSH user name is the
        # player's name in the host form.
        ada.press("ctrl+z", "down", "enter")
        await ada.wait_for("Host a networked game", "the host form")
        await ada.wait_for("ada", "the name in the host form")
        ada.press("ctrl+q")
        await ada.wait_closed()
        assert ada.status == 0
    finally:
        await ada.close()


async def test_a_session_without_a_terminal_is_told_to_use_ssh_t(open_table: OpenTable) -> None:
    table = await open_table()
    for command, input_ends in ((None, False), ("join K7QX-9MPA-B3CD", True)):
        piped = await connect(table.port, "ada", pty=False, command=command,
                              input_ends=input_ends)
        await piped.wait_closed()
        assert piped.status == 1
        assert piped.stderr.count(b"\n") == 1
        assert b"needs a terminal: connect with `ssh -t`" in piped.stderr
    assert not table.sessions


async def test_a_command_other_than_join_or_watch_is_refused_with_the_allowed_ones(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    shell = await connect(table.port, "mallory", command="bash -i")
    await shell.wait_closed()
    assert shell.status == 1 and shell.stderr.count(b"\n") == 1
    assert b"'bash -i' is not something this table does" in shell.stderr
    assert b"`join CODE`" in shell.stderr and b"`watch CODE`" in shell.stderr
    wrong = await connect(table.port, "ada", command="join K7QX-9MP!")
    await wrong.wait_closed()
    assert wrong.status == 1 and b"is not a join code" in wrong.stderr
    assert not table.sessions


async def test_a_german_client_is_refused_in_german_and_the_log_stays_english(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    """The client's locale (LANG, as OpenSSH sends it) chooses the refusal's language; LC_ALL
    comes first, as it does for the app."""
    table = await open_table()
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    piped = await connect(table.port, "ada", pty=False, env={"LANG": "de_DE.UTF-8"})
    await piped.wait_closed()
    assert piped.status == 1
    assert b"der Tisch braucht ein Terminal: verbinde dich mit `ssh -t`" in piped.stderr
    shell = await connect(table.port, "ada", command="bash -i",
                          env={"LANG": "en_GB.UTF-8", "LC_ALL": "de_AT.UTF-8"})
    await shell.wait_closed()
    assert "'bash -i' kann dieser Tisch nicht; möglich sind: kein Befehl für das Menü".encode() \
        in shell.stderr
    wrong = await connect(table.port, "ada", command="join K7QX-9MP!", env={"LANG": "de_DE"})
    await wrong.wait_closed()
    assert b"'K7QX-9MP!' ist kein Beitrittscode: a join code has only digits" in wrong.stderr
    english = await connect(table.port, "ada", pty=False, env={"LANG": "fr_FR.UTF-8"})
    await english.wait_closed()
    assert b"the table needs a terminal" in english.stderr
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 4 and not any("Tisch" in line for line in refusals), refusals
    assert not table.sessions


async def test_the_table_takes_no_more_sessions_than_its_limit(open_table: OpenTable) -> None:
    table = await open_table(max_sessions=1)
    ada = await connect(table.port, "ada")
    try:
        await ada.wait_for("Host a game", "the main menu")
        bob = await connect(table.port, "bob")
        await bob.wait_closed()
        assert bob.status == 1
        assert b"this table is full (1 session at once); try again later" in bob.stderr
        assert "Host a game" not in bob.text()
        berta = await connect(table.port, "berta", env={"LANG": "de_DE.UTF-8"})
        await berta.wait_closed()
        assert b"dieser Tisch ist voll (1 Sitzung gleichzeitig)" in berta.stderr
    finally:
        await ada.close()


async def test_an_address_gets_only_so_many_new_sessions_a_minute(open_table: OpenTable) -> None:
    table = await open_table(per_minute=2)
    lines = []
    for _ in range(3):
        knock = await connect(table.port, "ada", pty=False)
        await knock.wait_closed()
        lines.append(knock.stderr)
    assert all(b"needs a terminal" in line for line in lines[:2])
    assert lines[2] == (b"tabletop-tui: too many new sessions from this machine (its loopback "
                        b"addresses 127.0.0.0/8 and ::1 count as one): at most 2 a minute; "
                        b"wait a minute and try again\n")


def test_the_rate_forgets_an_address_after_a_minute() -> None:
    now = [0.0]
    rate = AddressRate(2, clock=lambda: now[0])
    assert rate.allow("a") and rate.allow("a") and not rate.allow("a")
    assert rate.allow("b")  # another address has its own count
    now[0] = 30.0
    assert not rate.allow("a")  # knocking again while refused keeps it refused
    now[0] = 91.0
    assert rate.allow("a")


async def test_a_closed_table_lets_in_listed_keys_or_the_password_only(
    open_table: OpenTable, tmp_path: Path,
) -> None:
    listed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(listed.export_public_key())
    table = await open_table(Access.load(str(keys_file), "s3cret"))
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, "eve", key=stranger, pty=False)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, "eve", password="guess", pty=False)
    for way in ({"key": listed}, {"password": "s3cret"}):
        inside = await connect(table.port, "ada", pty=False, **way)  # type: ignore[arg-type]
        await inside.wait_closed()
        assert b"needs a terminal" in inside.stderr  # past the door


def test_bad_access_options_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the SSH keys file"):
        Access.load(str(tmp_path / "missing"), None)
    garbage = tmp_path / "keys"
    garbage.write_text("not a key\n")
    with pytest.raises(ValueError, match="not in authorized_keys format"):
        Access.load(str(garbage), None)
    with pytest.raises(ValueError, match="non-empty password"):
        Access.load(None, "")


def test_the_allowed_commands() -> None:
    assert command_args("") == []
    assert command_args("join k7qx9mpab3cd") == ["join", "K7QX-9MPA-B3CD"]
    assert command_args("watch K7QX-9MPA-B3CD") == ["join", "K7QX-9MPA-B3CD", "--watch"]
    for bad in ("rm -rf /", "join", "join A B", "play schoene", "watch 'unclosed"):
        with pytest.raises(ValueError, match="allowed: no command for the menu"):
            command_args(bad)


def test_identity_is_the_key_else_the_name() -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    assert identity(key, "ada") == identity(key, "someone else")
    assert identity(None, "Ada") == identity(None, "ada") != identity(None, "bob")
    assert identity(key, "ada") != identity(None, "ada")
    assert player_name("ada\x1b[31m\n") == "ada"  # the whole escape, not just its ESC
    assert player_name("\x00\t") == "player" and len(player_name("x" * 99)) == 32


async def test_a_child_gets_the_clients_terminal_and_its_own_directories(
    relay: Relay,
) -> None:
    table = SshTable(SshConfig(0), relay.url)
    ada = Visitor("192.0.2.1", "ada", asyncssh.generate_private_key("ssh-ed25519"))
    env = table.child_env(ada, "xterm-kitty", {"COLORTERM": "truecolor", "LANG": "de_DE.UTF-8",
                                                "LD_PRELOAD": "/tmp/evil.so", "LC_ALL": "$(x)"})
    assert env["TERM"] == "xterm-kitty" and env["COLORTERM"] == "truecolor"
    assert env["LANG"] == "de_DE.UTF-8"
    assert "LD_PRELOAD" not in env and "LC_ALL" not in env
    assert "LINES" not in env and "COLUMNS" not in env  # they would pin the window's size
    assert env["USER"] == "ada" and env[server.TABLE_RELAY_ENV] == relay.url
    home = Path(env["TABLETOP_TUI_HOME"])
    assert home.parent.name == ada.identity and home.is_dir()
    assert Path(env["TABLETOP_TUI_CONFIG"]).parent == home.parent
    assert table.child_env(ada, "vt100; rm -rf", {})["TERM"] == DEFAULT_TERM
    assert table.child_argv(["join", "K7QX-9MPA"])[-2:] == ["--server", relay.url]


async def test_a_session_without_a_key_pressed_is_closed_with_a_line(
    open_table: OpenTable,
) -> None:
    # Three seconds, so a loaded machine still draws the menu before the session is closed.
    table = await open_table(idle_minutes=3 / 60)
    ada = await connect(table.port, "ada")
    berta = await connect(table.port, "berta", env={"LC_MESSAGES": "de_CH.UTF-8"})
    await ada.wait_closed()  # (with or without the menu painted first: the machine's pace)
    assert ada.status == 1
    assert ada.stderr.endswith(b"tabletop-tui: closed after 3 seconds without a key pressed; "
                               b"connect again to go on\r\n")
    await berta.wait_closed()
    assert berta.stderr.endswith(b"tabletop-tui: geschlossen nach 3 Sekunden ohne Tastendruck; "
                                 b"verbinde dich neu, um weiterzuspielen\r\n")
    # The player's terminal is put back: out of the app's screen, cursor shown, mouse off.
    assert ada.stderr.startswith(TERMINAL_RESET)
    assert not table.sessions


async def test_a_login_that_never_asks_for_a_session_is_closed(open_table: OpenTable) -> None:
    table = await open_table(grace=0.5)
    conn = await asyncssh.connect("127.0.0.1", table.port, username="idle", known_hosts=None,
                                  config=None, agent_path=None, client_keys=None,
                                  password="unused", preferred_auth="keyboard-interactive")
    await asyncio.wait_for(conn.wait_closed(), 10)
