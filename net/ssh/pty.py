"""One SSH player's app: a process of its own on a pseudo-terminal of its own.

Each session is its own process because Textual apps share process-wide state (stdout, signal
handlers), one busy table would stall every other and a crash must stay one player's. The
child is forked by the table's fork server (net.ssh.forks) as a session leader with the pty as
its controlling terminal, so it sees a real terminal: the size the client reports (TIOCSWINSZ,
and SIGWINCH to redraw), and a hangup when the player goes.

Ctrl-Z must never freeze a session (there is no shell to bring the app back): the pty's
line discipline has its suspend character disabled, so no SIGTSTP is ever raised by a key
(Textual's own handler would answer one with SIGSTOP). Ctrl-\\ (SIGQUIT) is disabled alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable

from net.ssh.forks import Forked, Forks
from net.ssh.forkserver import TERMINAL_RESET

__all__ = ["TERMINAL_RESET", "PtyChild", "set_size"]

# Seconds a child gets to go after a hangup before it is killed.
HANGUP_GRACE = 3.0
# Bytes of typed input held while the app is busy; beyond this they are dropped (a session
# writes only once the last write was taken, net.ssh.flood: this bounds any other writer).
INPUT_BACKLOG = 64 * 1024
READ_CHUNK = 65536


def _no_job_control_keys(fd: int) -> None:
    attrs = termios.tcgetattr(fd)
    disabled = os.fpathconf(fd, "PC_VDISABLE")
    for slot in (termios.VSUSP, termios.VQUIT):
        attrs[6][slot] = bytes([disabled])
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtyChild:
    """A running child app. Its output goes to `sink` as it comes; `pause_output` stops
    reading it (a slow client: the child then blocks on its own terminal, not our memory)."""

    def __init__(self, proc: Forked, master: int, sink: Callable[[bytes], None]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.master = master
        self.sink = sink
        self._loop = asyncio.get_running_loop()
        self._backlog = bytearray()
        self._paused = False
        self._eof = asyncio.Event()
        self.drained: Callable[[], None] = lambda: None  # called once the backlog is taken
        self._loop.add_reader(master, self._readable)

    @classmethod
    async def start(cls, forks: Forks, argv: list[str], env: dict[str, str], cols: int,
                    rows: int, sink: Callable[[bytes], None]) -> PtyChild:
        """The app with command line `argv`, forked by `forks`; OSError if it cannot be."""
        master, slave = os.openpty()
        try:
            _no_job_control_keys(slave)
            set_size(master, cols, rows)
            # In the player's own directory: a file they export stays theirs.
            proc = await forks.spawn(argv, env, env.get("TABLETOP_TUI_HOME"), slave)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        return cls(proc, master, sink)

    # -- output --------------------------------------------------------------------------------
    def _readable(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: every holder of the terminal's other end is gone
            data = b""
        if not data:
            self._stop_reading()
            self._eof.set()
            return
        self.sink(data)

    def _stop_reading(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.master)

    def pause_output(self) -> None:
        if not self._paused and not self._eof.is_set():
            self._paused = True
            self._stop_reading()

    def resume_output(self) -> None:
        if self._paused and not self._eof.is_set():
            self._paused = False
            self._loop.add_reader(self.master, self._readable)

    # -- input and size --------------------------------------------------------------------------
    @property
    def input_waiting(self) -> int:
        """Bytes written that the app's terminal has not taken yet."""
        return len(self._backlog)

    def write(self, data: bytes) -> None:
        if self._eof.is_set():
            return
        if self._backlog:
            self._backlog += data[: INPUT_BACKLOG - len(self._backlog)]
            return
        try:
            sent = os.write(self.master, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            return
        if sent < len(data):
            self._backlog += data[sent:INPUT_BACKLOG]
            self._loop.add_writer(self.master, self._writable)

    def _writable(self) -> None:
        try:
            sent = os.write(self.master, self._backlog)
        except BlockingIOError:
            return
        except OSError:
            sent = len(self._backlog)
        del self._backlog[:sent]
        if not self._backlog:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_writer(self.master)
            self.drained()

    def resize(self, cols: int, rows: int) -> None:
        """New window size: set on the terminal (the kernel signals the child), and SIGWINCH
        sent as well so a size set twice in a row is still redrawn."""
        if self._eof.is_set():
            return
        with contextlib.suppress(OSError):
            set_size(self.master, cols, rows)
        self._signal(signal.SIGWINCH)

    # -- ending ----------------------------------------------------------------------------------
    def _signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    async def wait(self) -> int:
        """Wait for the child to end and its last output to be passed on; its exit code."""
        code = await self.proc.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._eof.wait(), 1.0)
        self._close()
        return code

    async def hang_up(self) -> None:
        """The player is gone (or timed out): SIGHUP, then SIGKILL if it lingers."""
        if self.proc.returncode is None:
            self._signal(signal.SIGHUP)
            try:
                await asyncio.wait_for(self.proc.wait(), HANGUP_GRACE)
            except TimeoutError:
                self._signal(signal.SIGKILL)
                await self.proc.wait()
        self._close()

    def _close(self) -> None:
        if self.master >= 0:
            self._stop_reading()
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_writer(self.master)
            os.close(self.master)
            self.master = -1
