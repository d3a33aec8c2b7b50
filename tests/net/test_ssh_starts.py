"""Sessions start in turn (net.ssh.forkserver): at most so many children of the fork server are
starting at once, oldest first, so players arriving together see their menus one after another
rather than all late. Told over the fork server's own socket, as the table tells it, with
stand-in apps (tests/net/startling.py, forkling.py) and the real one."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ssh_support import OpenTable, connect
from test_ssh_forks import child_of

from net.ssh import forkserver

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ANSWER = 20.0  # seconds to wait for an answer the fork server must give (not a measure)
SILENCE = 0.5  # seconds in which an answer the fork server must not give does not come


class ForkServer:
    """A fork server running `app` with `starts` children starting at once, on its socket."""

    def __init__(self, app: str, starts: int) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(HERE)))}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "net.ssh.forkserver", app, str(theirs.fileno()), str(starts)],
            pass_fds=(theirs.fileno(),), env=env, cwd=ROOT)
        theirs.close()
        self.sock = ours
        self.terminals: list[int] = []  # our ends of the children's terminals
        self.pids: list[int] = []
        assert "ready" in self.answer()

    def ask(self, with_terminal: bool = True) -> int:
        """Ask for a child; our end of its terminal (-1 without one)."""
        request = {"argv": [], "env": {"PYTHONPATH": os.pathsep.join((str(ROOT), str(HERE)))}}
        if not with_terminal:
            forkserver.send(self.sock, request)
            return -1
        ours, theirs = os.openpty()
        try:
            forkserver.send(self.sock, request, (theirs,))
        finally:
            os.close(theirs)
        self.terminals.append(ours)
        return ours

    def answer(self, timeout: float = ANSWER) -> dict[str, object]:
        """The next answer that is not a child's exit; TimeoutError if none comes in time."""
        self.sock.settimeout(timeout)
        while True:
            message, fds = forkserver.receive(self.sock)
            for fd in fds:
                os.close(fd)
            assert message is not None, "the fork server ended"
            if "exit" not in message:
                if "pid" in message:
                    self.pids.append(int(message["pid"]))  # type: ignore[arg-type]
                return message

    def no_answer(self) -> None:
        with pytest.raises(TimeoutError):
            pytest.fail(f"the fork server answered {self.answer(SILENCE)}")

    def close(self) -> None:
        for pid in self.pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.sock.close()
        self.proc.wait(ANSWER)
        for fd in self.terminals:
            os.close(fd)


StartForkServer = Callable[[str, int], ForkServer]


@pytest.fixture
def fork_server() -> Iterator[StartForkServer]:
    servers: list[ForkServer] = []

    def starting(app: str, starts: int) -> ForkServer:
        server = ForkServer(app, starts)
        servers.append(server)
        return server

    yield starting
    for server in servers:
        server.close()


def read_until(fd: int, text: bytes) -> bytes:
    """What the child on the terminal `fd` writes, until `text`."""
    seen = b""
    while text not in seen:
        chunk = os.read(fd, 4096)
        assert chunk, f"the terminal closed before {text!r}"
        seen += chunk
    return seen


def test_sessions_start_in_turn_oldest_first(fork_server: StartForkServer) -> None:
    server = fork_server("startling", 1)
    ada = server.ask()
    assert "pid" in server.answer()
    read_until(ada, b"startling pid=")
    bob = server.ask()
    cy = server.ask()
    server.no_answer()  # ada is starting: bob and cy wait
    os.write(ada, b"started\n")
    assert server.answer()["pid"] == server.pids[1]  # bob first
    read_until(bob, b"startling pid=")
    server.no_answer()  # bob is starting now: cy waits
    os.write(bob, b"quit\n")  # a child that ends has started (or never will)
    assert "pid" in server.answer()
    read_until(cy, b"startling pid=")


def test_a_session_runs_lower_once_it_has_started(fork_server: StartForkServer) -> None:
    server = fork_server("startling", 1)
    ada = server.ask()
    pid = int(server.answer()["pid"])  # type: ignore[call-overload]
    read_until(ada, b"startling pid=")
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, pid) == ours  # the fork server's, asked for nice 0
    os.write(ada, b"started\n")
    read_until(ada, b"startling: started")
    assert os.getpriority(os.PRIO_PROCESS, pid) == ours + forkserver.SETTLED_NICE


def silent_about(fd: int, text: bytes) -> bytes:
    """What the child on `fd` writes within SILENCE seconds, which must not hold `text`."""
    seen = b""
    while select.select([fd], [], [], SILENCE)[0]:
        chunk = os.read(fd, 4096)
        assert text not in seen + chunk, f"{text!r} came"
        seen += chunk
    return seen


def started_while_another_starts(server: ForkServer) -> tuple[int, int]:
    """Ada's terminal and Bob's: Ada has said she started while Bob waited, and Bob is
    forked and starting."""
    ada = server.ask()
    assert "pid" in server.answer()
    read_until(ada, b"startling pid=")
    bob = server.ask()
    os.write(ada, b"started\n")
    assert "pid" in server.answer()
    read_until(bob, b"startling pid=")
    return ada, bob


def test_the_rest_of_a_start_waits_while_others_start(fork_server: StartForkServer) -> None:
    ada, bob = started_while_another_starts(fork_server("startling", 1))
    silent_about(ada, b"startling: started")  # ada holds while bob starts
    os.write(bob, b"started\n")  # nobody starting, nobody waiting: both go on
    read_until(bob, b"startling: started")
    read_until(ada, b"startling: started")


def test_a_start_that_never_ends_holds_the_others_only_for_a_while(
    fork_server: StartForkServer,
) -> None:
    ada, _bob = started_while_another_starts(fork_server("startling", 1))
    read_until(ada, b"startling: started")  # though bob never says it has started


def test_an_error_is_answered_in_turn(fork_server: StartForkServer) -> None:
    server = fork_server("startling", 1)
    ada = server.ask()
    assert "pid" in server.answer()
    server.ask()
    server.ask(with_terminal=False)  # refused, but only after bob, asked before it
    server.no_answer()
    os.write(ada, b"started\n")
    assert "pid" in server.answer()
    assert server.answer() == {"error": "a session needs exactly one terminal"}


def test_a_child_that_never_says_it_started_holds_its_turn_only_for_a_while(
    fork_server: StartForkServer,
) -> None:
    server = fork_server("startling", 1)
    server.ask()
    assert "pid" in server.answer()
    bob = server.ask()
    assert "pid" in server.answer(ANSWER + forkserver.START_PATIENCE)
    read_until(bob, b"startling pid=")


def test_an_app_that_does_not_say_has_started_once_forked(
    fork_server: StartForkServer,
) -> None:
    server = fork_server("forkling", 1)
    first = server.ask()
    second = server.ask()
    assert "pid" in server.answer()
    assert "pid" in server.answer(SILENCE * 4)  # no wait for the first's patience
    read_until(first, b"forkling pid=")
    read_until(second, b"forkling pid=")


async def test_the_app_says_it_has_started_once_its_menu_is_drawn(
    open_table: OpenTable,
) -> None:
    table = await open_table(starts=1)
    ada = await connect(table.port, "ada")
    try:
        await ada.wait_for("Host a game", "the main menu")
        pid = child_of(table, ada)
        assert os.readlink(f"/proc/{pid}/fd/0").startswith("/dev/pts/")
        # Its end of the start pipe is closed: the next session need not wait.
        assert not os.path.exists(f"/proc/{pid}/fd/{forkserver.START_FD}") or not \
            os.readlink(f"/proc/{pid}/fd/{forkserver.START_FD}").startswith("pipe:")
    finally:
        await ada.close()
