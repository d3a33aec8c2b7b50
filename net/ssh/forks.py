"""The table's side of its fork server (net.ssh.forkserver): start it, ask it for session
children, hear how they end, and start a new one when it dies.

A child is a grandchild of this process, so its exit status comes from the fork server; a
pidfd sent along with its pid signals it (a pid could be reused once the fork server has reaped
it). When the fork server dies, the children it forked go on (each is its own session): they
are orphans then, and the pidfd alone tells when one ends, without a status.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from net.ssh import forkserver

log = logging.getLogger("tabletop.sshd")

# Seconds before starting a fork server again after one that died young (doubling up to the
# most), so a fork server that cannot start does not spin; one that lived long is replaced at once.
RESTART_DELAY = 0.5
RESTART_MOST = 30.0
YOUNG = 10.0  # a fork server that lived less than this many seconds died young
START_TIMEOUT = 60.0  # seconds a fork server may take to import and warm the app
LOG_LINE = 300  # characters kept of a line the fork server writes on its stderr
KSM_RUN = "/sys/kernel/mm/ksm/run"  # "1" while the kernel merges alike pages


class ForkServerGone(OSError):
    """The fork server ended before it answered."""


class Forked:
    """A session's child process, forked by the fork server."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.returncode: int | None = None
        self._ended = asyncio.Event()

    def send_signal(self, sig: int) -> None:
        if self.returncode is None and self.pidfd >= 0:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, sig)

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode

    def _exited(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
            self._ended.set()
            self._close()

    def _orphaned(self) -> None:
        """Its fork server is gone: watch the pidfd, which is readable once the child ends."""
        if self.returncode is not None:
            return
        loop = asyncio.get_running_loop()

        def ended() -> None:
            log.info("ssh session app %d ended after its fork server; exit status unknown",
                     self.pid)
            loop.remove_reader(self.pidfd)
            self._exited(0)

        loop.add_reader(self.pidfd, ended)

    def _close(self) -> None:
        if self.pidfd >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1


class _Server:
    """One fork server process and the socket to it."""

    def __init__(self, proc: asyncio.subprocess.Process, sock: socket.socket) -> None:
        self.proc = proc
        self.sock = sock
        self.started = time.monotonic()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.gone = asyncio.Event()
        self.asked: deque[asyncio.Future[Forked]] = deque()
        self.children: dict[int, Forked] = {}
        self.merging = False  # whether it asked the kernel to merge alike pages
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(sock.fileno(), self._readable)
        assert proc.stderr is not None
        self._log = self._loop.create_task(_relay_log(proc.stderr, proc.pid))

    def _readable(self) -> None:
        try:
            message, fds = forkserver.receive(self.sock)
        except (BlockingIOError, InterruptedError):
            return
        except (OSError, ValueError):
            message, fds = None, []
        if message is None:
            self._lost()
            return
        if "ready" in message:
            self.merging = bool(message.get("merging"))
            if not self.ready.done():
                self.ready.set_result(None)
        elif "exit" in message:
            child = self.children.pop(message["exit"], None)
            code = int(message["code"])
            if code == forkserver.OUT_OF_MEMORY_EXIT:
                log.warning("ssh session app %d ran out of memory and ended", message["exit"])
            if child is not None:
                child._exited(code)
        elif self.asked:
            answer = self.asked.popleft()
            if "pid" in message and fds:
                forked = Forked(int(message["pid"]), fds[0])
                self.children[forked.pid] = forked
                if answer.cancelled():
                    forked.send_signal(signal.SIGKILL)
                else:
                    answer.set_result(forked)
                return
            answer.set_exception(OSError(message.get("error", "the fork server said no")))
        for fd in fds:
            os.close(fd)

    def _lost(self) -> None:
        if self.gone.is_set():
            return
        self.gone.set()
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.sock.fileno())
        self.sock.close()
        error = ForkServerGone("the fork server ended")
        if not self.ready.done():
            self.ready.set_exception(error)
            self.ready.exception()  # seen: whoever waits for it gets it all the same
        while self.asked:
            answer = self.asked.popleft()
            if not answer.done():
                answer.set_exception(error)
        for child in self.children.values():
            child._orphaned()
        self.children.clear()

    async def fork(self, request: dict[str, Any], terminal: int) -> Forked:
        if self.gone.is_set():
            raise ForkServerGone("the fork server ended")
        answer: asyncio.Future[Forked] = self._loop.create_future()
        try:
            forkserver.send(self.sock, request, (terminal,))
        except BlockingIOError:
            raise OSError("the fork server is not keeping up") from None
        except OSError as exc:
            self._lost()  # dead before its end of the socket was read: the next ask waits
            raise ForkServerGone(f"the fork server ended: {exc}") from None
        self.asked.append(answer)
        return await answer

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def stop(self) -> None:
        """Close the socket, which ends the fork server (its children go on)."""
        self._lost()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            self.kill()
            await self.proc.wait()


class Forks:
    """The table's fork server: running from `start()` to `stop()`, replaced when it dies."""

    def __init__(self, app: str, env: dict[str, str], memory: int, nice: int,
                 starts: int = 0) -> None:
        self.app = app  # the module the fork server warms and runs (see net.ssh.forkserver)
        self.env = env  # the fork server's environment (each child gets its session's own)
        self.memory = memory  # bytes of address space a child may use; 0: no cap
        self.nice = nice
        self.starts = starts  # children starting at once, the rest waiting; 0: one a core
        self._server: _Server | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._stopping = False
        self._failing = False  # the last fork server ended before it was ready

    @property
    def pid(self) -> int | None:
        """The running fork server's process id (None between one and the next)."""
        server = self._server
        return server.proc.pid if server is not None and not server.gone.is_set() else None

    def start(self) -> None:
        self._keeper = asyncio.get_running_loop().create_task(self._keep())

    async def stop(self) -> None:
        self._stopping = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        if self._server is not None:
            await self._server.stop()
            self._server = None

    async def ready(self) -> None:
        """Wait for the fork server to be ready; OSError if it cannot start."""
        await self._running()

    async def spawn(self, argv: list[str], env: dict[str, str], cwd: str | None,
                    terminal: int) -> Forked:
        """A child running the app with `argv` on `terminal` (the pty's other end, which the
        caller still closes); OSError if there is no fork server to be had."""
        request = {"argv": argv, "env": env, "cwd": cwd, "memory": self.memory,
                   "nice": self.nice}
        for _ in range(2):  # a fork server that died just now is replaced once
            server = await self._running()
            try:
                return await server.fork(request, terminal)
            except ForkServerGone:
                continue
        raise OSError("the fork server keeps ending")

    async def _running(self) -> _Server:
        async with asyncio.timeout(START_TIMEOUT):
            while True:
                server = self._server
                if server is not None and not server.gone.is_set():
                    with contextlib.suppress(ForkServerGone):
                        await asyncio.shield(server.ready)
                        return server
                if self._stopping or self._failing or self._keeper is None:
                    raise OSError("the table's fork server does not start (see the log)")
                self._changed.clear()
                await self._changed.wait()

    async def _keep(self) -> None:
        """Run a fork server; when it ends, say so and start another."""
        delay = 0.0
        told = False  # whether the log has said if the kernel merges sessions' alike pages
        while True:
            try:
                server = await self._launch()
            except OSError as exc:
                log.error("cannot start the fork server: %s", exc)
                self._failing = True
            else:
                self._server = server
                self._changed.set()
                try:
                    # Not wait_for: in Python 3.11 it swallows a cancellation that comes as the
                    # fork server gets ready, and `stop()` right after `start()` never ended.
                    async with asyncio.timeout(START_TIMEOUT):
                        await asyncio.shield(server.ready)
                    self._failing = False
                    if not told:
                        told = True
                        log.info("sessions' alike memory pages: %s", merging_said(server.merging))
                except TimeoutError:
                    log.error("the fork server (pid %d) did not get ready in %.0f s",
                              server.proc.pid, START_TIMEOUT)
                    server.kill()
                except ForkServerGone:
                    pass
                await server.gone.wait()
                code = await server.proc.wait()
                lived = time.monotonic() - server.started
                self._failing = server.ready.exception() is not None
                log.error("the fork server (pid %d) ended (%s) after %.1f s; starting a new one",
                          server.proc.pid, _status(code), lived)
                if lived >= YOUNG:
                    delay = 0.0
            self._changed.set()
            await asyncio.sleep(delay)
            delay = min(max(delay * 2, RESTART_DELAY), RESTART_MOST)

    async def _launch(self) -> _Server:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "net.ssh.forkserver", self.app, str(theirs.fileno()),
                str(self.starts), stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
                # Two malloc arenas, not eight a core: an address-space cap then caps memory
                # rather than reservations (each arena reserves 64 MiB).
                env={**self.env, "MALLOC_ARENA_MAX": "2"},
                # Its own session: a Ctrl-C on the server's terminal is the server's to handle.
                start_new_session=True)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        return _Server(proc, ours)


def merging_said(asked: bool) -> str:
    """Whether the kernel merges sessions' alike pages, for the operator (see
    net.ssh.forkserver): it must have been asked, and merging must be on."""
    if not asked:
        return "not merged (this kernel cannot be asked to: Linux 6.4 or later can)"
    try:
        running = Path(KSM_RUN).read_text().strip() == "1"
    except OSError:
        running = False
    if running:
        return "merged by the kernel (KSM)"
    return (f"not merged: the kernel's merging is off ({KSM_RUN}); turning it on about halves "
            "an idle session's memory")


def _status(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit status {code}"


async def _relay_log(stream: asyncio.StreamReader, pid: int) -> None:
    """What the fork server writes on its stderr (a failed import, a traceback) goes to the
    table's log, line by line."""
    while True:
        try:
            line = await stream.readline()
        except ValueError:  # a line longer than the stream's buffer: take a piece of it
            line = await stream.read(LOG_LINE)
        if not line:
            return
        text = line.decode("utf-8", "replace").rstrip()
        if text:
            log.warning("fork server %d: %s", pid, text[:LOG_LINE])
