"""Sessions of an SSH table start from its fork server (net.ssh.forkserver), over real sockets:
each session is a process of its own forked from one that has the app imported, with its own
random numbers and limits; a crash stays one player's, a dead fork server is replaced, and a
session out of memory ends with a line."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
from pathlib import Path

import pytest
from ssh_support import OpenTable, Player, connect

from net.ssh.forkserver import OUT_OF_MEMORY_EXIT, SETTLED_NICE
from net.ssh.server import SshTable

HERE = Path(__file__).resolve().parent


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def child_of(table: SshTable, player: Player) -> int:
    """The process id of `player`'s app."""
    (session,) = [s for s in table.sessions if s.visitor.username == player_name(player)]
    assert session.child is not None
    return session.child.pid


def player_name(player: Player) -> str:
    assert player.conn is not None
    return str(player.conn.get_extra_info("username"))


async def test_sessions_are_forked_apart_and_a_crash_ends_only_its_own(
    open_table: OpenTable,
) -> None:
    table = await open_table(session_memory=900, session_nice=7)
    ada = await connect(table.port, "ada")
    bob = await connect(table.port, "bob")
    try:
        for player in (ada, bob):
            await player.wait_for("Host a game", "the main menu")
            # The keys under it come with the rest of the start, after the first frame.
            await player.wait_for("^q", "the keys under the main menu")
        ada_pid, bob_pid = child_of(table, ada), child_of(table, bob)
        assert ada_pid != bob_pid
        for pid in (ada_pid, bob_pid):
            assert parent_of(pid) == table.forks.pid  # forked, not started afresh
            assert os.getsid(pid) == pid  # a session of its own, on its own terminal
            limits = Path(f"/proc/{pid}/limits").read_text()
            assert re.search(rf"Max address space\s+{900 << 20}\s+{900 << 20}", limits)
            assert re.search(r"Max core file size\s+0\s+0", limits)
            # Its own nice, and lower still since its first frame (a start goes first).
            assert os.getpriority(os.PRIO_PROCESS, pid) == \
                os.getpriority(os.PRIO_PROCESS, 0) + 7 + SETTLED_NICE
            # Its scheduling group (a kernel's autogroup: one a session) is as nice as it is.
            group = Path(f"/proc/{pid}/autogroup")
            if group.exists():
                assert group.read_text().split()[-1] == \
                    str(os.getpriority(os.PRIO_PROCESS, 0) + 7 + SETTLED_NICE)
            assert Path(f"/proc/{pid}/oom_score_adj").read_text().strip() == "500"
        os.kill(ada_pid, signal.SIGSEGV)
        await ada.wait_closed()
        assert ada.status not in (None, 0)
        bob.press("down", "enter")
        await bob.wait_for("Host a networked game", "bob's host form, after ada's crash")
    finally:
        await ada.close()
        await bob.close()


async def test_each_session_draws_its_own_random_numbers(
    open_table: OpenTable, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    table = await open_table(app="forkling")
    players = [await connect(table.port, name) for name in ("ada", "bob", "cy")]
    try:
        drawn = [await p.wait_for(lambda p=p: re.search(r"random=(\S+)", p.text()), "a number")
                 for p in players]
        assert len({found.group(1) for found in drawn}) == len(players)
    finally:
        for player in players:
            await player.close()


async def test_a_killed_fork_server_is_replaced_and_its_sessions_go_on(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    table = await open_table()
    ada = await connect(table.port, "ada")
    bob: Player | None = None
    try:
        await ada.wait_for("Host a game", "the main menu")
        first = table.forks.pid
        assert first is not None
        with caplog.at_level(logging.INFO, "tabletop.sshd"):
            os.kill(first, signal.SIGKILL)
            bob = await connect(table.port, "bob")
            await bob.wait_for("Host a game", "a new player's menu, from a new fork server")
        assert table.forks.pid not in (None, first)
        assert parent_of(child_of(table, bob)) == table.forks.pid
        assert f"the fork server (pid {first}) ended (killed by signal 9)" in caplog.text
        assert "starting a new one" in caplog.text
        # The session forked by the dead one goes on, and ends as it should.
        ada.press("down", "enter")
        await ada.wait_for("Host a networked game", "ada's host form")
        ada.press("ctrl+q")
        await ada.wait_closed()
        assert ada.status == 0
    finally:
        await ada.close()
        if bob is not None:
            await bob.close()


async def test_a_session_out_of_memory_ends_with_a_line_and_the_others_go_on(
    open_table: OpenTable, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    table = await open_table(app="forkling", session_memory=96)
    ada = await connect(table.port, "ada")
    bob = await connect(table.port, "bob")
    try:
        for player in (ada, bob):
            await player.wait_for("forkling", "the stand-in app")
        with caplog.at_level(logging.WARNING, "tabletop.sshd"):
            ada.press("grow", "enter")
            await ada.wait_closed()
        assert ada.status == OUT_OF_MEMORY_EXIT
        assert "this session ran out of memory and was closed; connect again" in ada.text()
        assert "ran out of memory and ended" in caplog.text
        bob.press("still here?", "enter")
        await bob.wait_for("'still here?'?", "bob's app answering")
    finally:
        await ada.close()
        await bob.close()


async def test_a_table_whose_fork_server_cannot_start_does_not_open(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, "tabletop.sshd"), \
            pytest.raises(OSError, match="fork server does not start"):
        await open_table(app="no_such_app")
    assert "No module named 'no_such_app'" in caplog.text


async def test_a_player_who_hangs_up_leaves_no_process_behind(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    ada = await connect(table.port, "ada")
    await ada.wait_for("Host a game", "the main menu")
    assert table.forks.pid is not None and children_of(table.forks.pid) == [child_of(table, ada)]
    await ada.hang_up()
    await asyncio.wait_for(_no_children(table), 20)


async def _no_children(table: SshTable) -> None:
    assert table.forks.pid is not None
    while children_of(table.forks.pid):
        await asyncio.sleep(0.05)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if parent_of(int(entry.name)) == pid:
                    found.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return found


MERGE_ANY = re.compile(r"^ksm_merge_any: (\w+)$", re.M)


async def test_sessions_let_the_kernel_merge_their_alike_pages(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture,
) -> None:
    ours = Path("/proc/self/ksm_stat")
    if not ours.exists() or not MERGE_ANY.search(ours.read_text()):
        pytest.skip("this kernel cannot be asked to merge a process's pages (Linux 6.4)")
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    table = await open_table()
    ada = await connect(table.port, "ada")
    try:
        await ada.wait_for("Host a game", "the main menu")
        for pid in (table.forks.pid, child_of(table, ada)):
            stat = MERGE_ANY.search(Path(f"/proc/{pid}/ksm_stat").read_text())
            assert stat is not None and stat[1] == "yes"
        said = [r.getMessage() for r in caplog.records if "alike memory pages" in r.getMessage()]
        assert said and ("merged by the kernel" in said[0] or "merging is off" in said[0])
    finally:
        await ada.close()
