"""What an SSH client types, over real sockets: bytes that are no UTF-8 (a Latin-1 "ä", xterm's
8-bit Alt) reach the app replaced, not as its end; a character split across two packets
arrives whole; a flood of input is paced and a flood of window sizes thinned out, so one
session cannot take the memory or the time of the others."""

from __future__ import annotations

import asyncio
import time

from ssh_support import OpenTable, Player, box_at, code_on, connect

from net.ssh.flood import INPUT_BURST, INPUT_RATE, INPUT_WINDOW, RESIZE_EVERY
from net.ssh.server import SshTable
from net.ssh.session import TableSession

BOX_WIDTH = 44  # the menu's title box, centred on the screen
MAX_PACKET = 32768  # the most one SSH data message carries (asyncssh's default)


def session_of(table: SshTable, name: str) -> TableSession:
    return next(s for s in table.sessions if s.visitor.name == name)


async def to_the_chat_line(player: Player) -> None:
    """F4, and wait until the chat line has the focus (its edge changes colour): what is
    typed before goes to whatever had it."""
    col, row = await player.wait_for("Say something", "the chat line")

    def edge() -> object:
        return player.screen.buffer[row][col - 3]

    unfocused = edge()
    player.press("f4")
    await player.wait_for(lambda: edge() != unfocused, "the chat line focused")


async def test_bytes_that_are_no_utf8_are_replaced_and_a_split_character_arrives_whole(
    open_table: OpenTable,
) -> None:
    """As host and as guest: once, the host's "ä" in Latin-1 ended its app (a traceback on
    the player's screen, exit status 0) and with it the room for everyone."""
    table = await open_table()
    ada = await connect(table.port, "ada")
    bob: Player | None = None
    try:
        await ada.wait_for("Host a game", "the menu")
        ada.press("down", "enter")
        await ada.wait_for("Host a networked game", "the host form")
        ada.press("f5")
        code = await ada.wait_for(lambda: code_on(ada), "the join code")
        bob = await connect(table.port, "bob", command=f"join {code}")
        await bob.wait_for("Waiting for the host to start", "bob's lobby")
        await ada.wait_for("bob", "bob in the host's lobby")

        await to_the_chat_line(ada)
        ada.chan.write(b"\xe4")  # Latin-1 "ä": no UTF-8 at all
        ada.chan.write(b"!\r")
        await ada.wait_for("ada: \ufffd!", "the host's line, its bad byte replaced")
        await bob.wait_for("ada: \ufffd!", "the host's line at the guest's")

        await to_the_chat_line(bob)
        bob.chan.write(b"\xc3")  # UTF-8 "ä" in two packets
        await asyncio.sleep(0.2)
        bob.chan.write(b"\xa4\xe1\r")  # and xterm's Alt+a with 8-bit meta
        await bob.wait_for("bob: ä\ufffd", "the guest's line")
        await ada.wait_for("bob: ä\ufffd", "the guest's line at the host's")
        assert not ada.closed.is_set() and not bob.closed.is_set()
        assert "Waiting for the host to start" in bob.text()  # the room is still there
    finally:
        for player in (ada, bob):
            if player is not None:
                await player.close()


async def test_a_flood_of_input_is_paced_and_the_table_goes_on(open_table: OpenTable) -> None:
    """A million mouse reports once grew one session's app from 40 to 378 MiB: the app queues
    events faster than it handles them. The session now reads no faster than its budget."""
    table = await open_table()
    ada = await connect(table.port, "ada")
    bob = await connect(table.port, "bob")
    try:
        await ada.wait_for("Host a game", "ada's menu")
        await bob.wait_for("Host a game", "bob's menu")
        child = session_of(table, "ada").child
        assert child is not None
        passed = 0
        write = child.write

        def counted(data: bytes) -> None:
            nonlocal passed
            passed += len(data)
            write(data)

        child.write = counted  # type: ignore[method-assign]
        reports = b"".join(b"\x1b[<35;%d;%dM" % (10 + i % 60, 3 + i % 20) for i in range(80_000))
        start = time.monotonic()
        ada.chan.write(reports)  # about a MiB
        bob.press("down", "enter")  # meanwhile the table answers everyone else
        await bob.wait_for("Host a networked game", "bob's host form")
        await asyncio.sleep(1.0)
        allowed = INPUT_BURST + INPUT_RATE * (time.monotonic() - start) + MAX_PACKET
        assert 0 < passed <= allowed, (passed, allowed, len(reports))
        assert not ada.closed.is_set()
    finally:
        await ada.close()
        await bob.close()


async def test_a_client_that_sends_faster_than_its_pace_waits_and_nothing_is_lost(
    open_table: OpenTable,
) -> None:
    """Arrow keys sent as fast as the client's channel takes them: what the table holds of
    them stays within its window and its own queue however long it goes on (asyncssh, paused
    and resumed a packet at a time, once held 26 MB after ten seconds), and what reaches the
    app is exactly what was sent, in order, none dropped."""
    table = await open_table()
    ada = await connect(table.port, "ada")
    try:
        await ada.wait_for("Host a game", "the menu")
        session = session_of(table, "ada")
        child = session.child
        assert child is not None and ada.chan is not None
        passed = bytearray()
        write = child.write

        def counted(data: bytes) -> None:
            passed.extend(data)
            write(data)

        child.write = counted  # type: ignore[method-assign]
        stream = b"\x1b[A\x1b[B" * 200_000  # 2.4 MB
        ada.chan.write(stream)
        held = []
        for _ in range(30):
            await asyncio.sleep(0.1)
            arrived = len(stream) - ada.chan.get_write_buffer_size()
            held.append(arrived - len(passed))
        assert max(held) <= 2 * INPUT_WINDOW + MAX_PACKET, held
        assert passed and stream.startswith(passed)
        assert session._inflow is not None and session._inflow.paused
    finally:
        await ada.close()


async def test_window_sizes_are_passed_on_at_most_every_tenth_of_a_second(
    open_table: OpenTable,
) -> None:
    """Dragging a window's corner sends dozens of sizes; a flood of them once gave everyone
    else at the table a second of lag, as the app redrew for each. The last size wins."""
    table = await open_table()
    ada = await connect(table.port, "ada", size=(100, 30))
    try:
        await ada.wait_for("Host a game", "the menu")
        child = session_of(table, "ada").child
        assert child is not None
        sizes: list[tuple[int, int]] = []
        resize = child.resize

        def counted(cols: int, rows: int) -> None:
            sizes.append((cols, rows))
            resize(cols, rows)

        child.resize = counted  # type: ignore[method-assign]
        start = time.monotonic()
        for i in range(300):
            ada.resize(80 + i % 40, 24 + i % 10)
        ada.resize(90, 28)
        await ada.wait_for(lambda: sizes and sizes[-1] == (90, 28), "the last size passed on")
        took = time.monotonic() - start
        assert len(sizes) <= took / RESIZE_EVERY + 2, (len(sizes), took)
        await ada.wait_for(lambda: box_at(ada) == (90 - BOX_WIDTH) // 2,
                           "the menu drawn at 90 columns")
    finally:
        await ada.close()
