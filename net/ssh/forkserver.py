"""The SSH table's fork server: one process that has imported and warmed the app once, and forks
a child for each session, so a session starts in milliseconds and shares the imported code and
data with every other session copy-on-write (`python -m tui.cli` per session cost ~0.35 s of CPU
and ~29 MiB of its own).

It is its own program (`python -m net.ssh.forkserver APP FD [STARTS]`), started by the table
with nothing of the table's: no event loop, sockets or threads to inherit, which a child forked
from the asyncio server would get in a broken state. APP names the app's module (the table says
`tui.preload`): it must have `warm()`, run once here, and `main(argv)`, run in each child.

Sessions start in turn, oldest first: at most STARTS children (by default one a core) are
starting at once, and a session asked for meanwhile waits to be forked. Twenty players arriving
at once then see their menus one after another, the first within a start's time, rather than
all of them at the end of twenty starts sharing the cores. A child has started once its app says
so (an app module with `SAYS_STARTED = True` calls `started()` when its first screen is on the
terminal; any other app has started once forked), once it has ended, or after START_PATIENCE
seconds whatever it does. The rest of a start (about half its work: the keys under the menu, the
notes) waits while other sessions wait to start or are starting, HOLD_MOST seconds at most, and
runs SETTLED_NICE lower from then on: twenty players arriving at once see their menus in the
time of twenty first screens, each of them filled in a moment later.

Sessions hold most of their memory in pages alike in every session (the fork server's, copied
once a session writes to them, most of them alike again once it settles): the fork server asks
the kernel to merge alike pages (KSM, Linux 6.4 and later), which it does on a machine whose
operator has turned merging on (/sys/kernel/mm/ksm/run), about halving an idle session's memory.
A session runs only this app, so a player cannot run the code that the timing attacks on merged
pages need.

The table talks to it over a Unix SEQPACKET socket (FD), one JSON message a packet:
  * `{"ready": PID, "merging": BOOL}` once warm (merging: whether the kernel was asked to merge
    alike pages, see `merge_alike_pages`);
  * the table asks `{"argv", "env", "cwd", "memory", "nice"}` with the session's pseudo-terminal
    passed along (SCM_RIGHTS), and gets `{"pid": PID}` with a pidfd of the child (to signal it
    with no risk of hitting a reused pid), or `{"error": TEXT}`, in the order asked (a PID once
    the child is forked, which may wait for the starts before it);
  * `{"exit": PID, "code": N}` when a child ends (N as `Popen.returncode`: -SIG if killed).
The fork server ends when the table's end of the socket closes.

The web table (net.web) hands a child one end of a socket pair instead of a terminal: it
becomes the child's stdio just the same, only not its controlling terminal.

A child is a session as `python -m tui.cli` on the terminal was: session leader with the pty as
controlling terminal and stdin/stdout/stderr, the session's environment and directory, fresh
signal dispositions and stdio, its own `random` state (the `random` module reseeds itself after
`os.fork`), Python's own handling of the end (exit code, traceback, threads joined), and below
the table: `nice` (and SETTLED_NICE more once started), an address-space cap (RLIMIT_AS; a
MemoryError then ends only this session, with a line on its terminal) and no core dumps.
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import errno
import fcntl
import gc
import importlib
import json
import locale
import math
import os
import resource
import select
import signal
import socket
import sys
import termios
import threading
import time
from collections import deque
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NoReturn

MAX_MESSAGE = 1 << 16  # bytes of one packet: argv and a clean environment fit many times over
# How much likelier the kernel's out-of-memory killer is to pick a session than the table.
OOM_SCORE_ADJ = 500
# Seconds a child may take to start before the next one is forked all the same.
START_PATIENCE = 2.0
# A child's end of the pipe it closes to say it has started (see `started`), and of the pipe
# whose end tells it to go on with the rest of its start.
START_FD = 3
HOLD_FD = 4
# Seconds a started child holds the rest of its start at most, whoever else is starting.
HOLD_MOST = 1.5
# How much lower a session runs once it has started (nice): a start goes before what the
# sessions already started do (half of a start's work comes after its first screen).
SETTLED_NICE = 3

# Put the player's terminal back as it was if the app could not (killed, out of memory): leave
# the alternate screen, stop mouse and focus reports, the kitty keyboard mode and bracketed
# paste, show the cursor, turn line wrapping and colours back to normal.
TERMINAL_RESET = (
    b"\x1b[<u\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[?1049l\x1b[?25h\x1b[?7h\x1b[0m"
)
# What a session whose app ran out of memory shows (written as it is, for nothing more can be
# allocated then) and its exit code.
OUT_OF_MEMORY_EXIT = 99
OUT_OF_MEMORY_TEXT = TERMINAL_RESET + (
    b"tabletop-tui: this session ran out of memory and was closed; connect again to go on\r\n")


# -- the packets, for both ends ----------------------------------------------------------------
def send(sock: socket.socket, message: dict[str, Any], fds: tuple[int, ...] = ()) -> None:
    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
    sock.sendmsg([json.dumps(message).encode()], ancillary)


def receive(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the descriptors that came with it; (None, []) at the end."""
    fds = array.array("i")
    data, ancdata, _flags, _addr = sock.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(4 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return json.loads(data), list(fds)


# -- the fork server -----------------------------------------------------------------------------
@dataclass
class Job:
    """One session to start: what the table asked, and its terminal."""

    argv: list[str]
    env: dict[str, str]
    cwd: str | None
    memory: int  # bytes of address space; 0: no cap
    nice: int
    terminal: int


def _noop(signum: int, frame: object) -> None:
    """SIGCHLD's handler: its only job is to wake the loop through the wakeup descriptor."""


def serve(sock: socket.socket, starts: int, merging: bool = False) -> Job | None:
    """Fork a child per request until the table goes (None), at most `starts` of them starting
    at once; `merging` is told to the table. Returns in a child only, with its job: the child
    goes on from `main` with nothing of the loop left."""
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, _noop)
    poll = select.poll()  # not select(): the table may pass a descriptor above 1023
    poll.register(sock, select.POLLIN)
    poll.register(wake_r, select.POLLIN)
    waiting: deque[Job | str] = deque()  # asked and not answered yet: a job, or an error
    # A starting child's start pipe: by when it must start, and its hold pipe's end.
    starting: dict[int, tuple[float, int]] = {}
    held: dict[int, float] = {}  # a started child's hold pipe's end: by when it goes on
    send(sock, {"ready": os.getpid(), "merging": merging})
    while True:
        deadlines = [deadline for deadline, _hold in starting.values()] + [*held.values()]
        timeout = (max(0, math.ceil(1000 * (min(deadlines) - time.monotonic())))
                   if deadlines else None)
        readable = {fd for fd, _events in poll.poll(timeout)}
        if wake_r in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 4096)
            _reap(sock)
        now = time.monotonic()
        for fd, (deadline, hold_w) in list(starting.items()):
            if fd in readable or deadline <= now:  # started, ended or out of patience
                poll.unregister(fd)
                os.close(fd)
                del starting[fd]
                held[hold_w] = now + HOLD_MOST
        if sock.fileno() in readable:
            message, fds = receive(sock)
            if message is None:
                return None
            if len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                waiting.append("a session needs exactly one terminal")
            else:
                waiting.append(Job(list(message["argv"]), dict(message["env"]),
                                   message.get("cwd"), int(message.get("memory", 0)),
                                   int(message.get("nice", 0)), fds[0]))
        while waiting and (isinstance(waiting[0], str) or len(starting) < starts):
            job = waiting.popleft()
            if isinstance(job, str):
                send(sock, {"error": job})
                continue
            start_r, start_w = os.pipe2(os.O_CLOEXEC)
            hold_r, hold_w = os.pipe2(os.O_CLOEXEC)
            if _fork(sock, job, start_w, hold_r):
                return job
            os.close(hold_r)
            poll.register(start_r, select.POLLIN)
            starting[start_r] = (time.monotonic() + START_PATIENCE, hold_w)
        quiet = not waiting and not starting
        for fd, deadline in list(held.items()):
            if quiet or deadline <= now:  # the child goes on with the rest of its start
                os.close(fd)
                del held[fd]


def _fork(sock: socket.socket, job: Job, start_w: int, hold_r: int) -> bool:
    """Fork the child for `job` and tell the table; True in the child, which keeps `start_w`
    to say it has started and `hold_r` to hear when to go on, and whose end of the other
    descriptors `become_session` closes."""
    global _start_fd, _hold_fd
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()  # whatever the loop made since: the child's collector never touches it
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(job.terminal)
        os.close(start_w)
        send(sock, {"error": f"cannot fork: {exc.strerror or exc}"})
        return False
    if pid == 0:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        # A table started under nohup passes SIGHUP on ignored; a session must go when hung up.
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        _start_fd, _hold_fd = start_w, hold_r
        return True
    os.close(job.terminal)
    os.close(start_w)
    pidfd = os.pidfd_open(pid)  # the child cannot have been reaped yet: it is ours
    try:
        send(sock, {"pid": pid}, (pidfd,))
    finally:
        os.close(pidfd)
    return False


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        send(sock, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})


# -- a child -----------------------------------------------------------------------------------
_start_fd = -1  # in a child still starting: the start pipe's end it closes when it has started
_hold_fd = -1  # and the hold pipe's end, at whose end it goes on


def started() -> None:
    """Say that this session's app has started (its first screen is out): the next session
    waiting is forked, and this one runs SETTLED_NICE lower from now on, once the sessions
    waiting or starting have started (HOLD_MOST seconds at most: the caller waits here). Once;
    later calls, and calls outside a child, do nothing."""
    global _start_fd, _hold_fd
    if _start_fd >= 0:
        fd, _start_fd = _start_fd, -1
        os.close(fd)
        if SETTLED_NICE:
            lower(SETTLED_NICE)
    if _hold_fd >= 0:
        fd, _hold_fd = _hold_fd, -1
        with contextlib.suppress(InterruptedError):
            select.select([fd], [], [], HOLD_MOST)
        os.close(fd)


def lower(nice: int) -> None:
    """Run `nice` lower, against the other sessions too. Each session is a session leader, which
    a kernel with autogroups (most desktop and server kernels) puts in a scheduling group of its
    own, and groups share the processor equally whatever their processes' nice: the group's
    nice must follow (best effort: the kernel lets an unprivileged process change it only so
    often; a table in a cgroup of its own, see the README's unit, has no autogroups)."""
    os.nice(nice)
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
        group.write(str(os.getpriority(os.PRIO_PROCESS, 0)))


def become_session(job: Job) -> None:
    """Turn a freshly forked child into the session's process (see the module's docstring)."""
    gc.enable()
    os.setsid()
    for fd in (0, 1, 2):
        os.dup2(job.terminal, fd)
    if os.isatty(0):  # a web tab's child is handed a socket, which controls nothing
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # Nothing of the fork server stays open but the start and hold pipes: not its socket to the
    # table, its wakeup pipe, other children's pipes and terminals, and the terminal's extra
    # descriptor (the imports hold no file open).
    global _start_fd, _hold_fd
    kept = [(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, HOLD_FD + 1) if fd >= 0 else -1, to)
            for fd, to in ((_start_fd, START_FD), (_hold_fd, HOLD_FD))]
    for copy, to in kept:  # in their places (close-on-exec: never held open by a subprocess)
        if copy >= 0:
            os.dup2(copy, to, inheritable=False)
        else:
            with contextlib.suppress(OSError):
                os.close(to)
    _start_fd, _hold_fd = (to if copy >= 0 else -1 for copy, to in kept)
    os.closerange(HOLD_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    os.environ.clear()
    os.environ.update(job.env)
    with contextlib.suppress(locale.Error):  # as Python's start does, for the player's locale
        locale.setlocale(locale.LC_CTYPE, "")
    if job.cwd:
        os.chdir(job.cwd)
    sys.stdin = sys.__stdin__ = open(  # noqa: SIM115 - the process's own stdio, never closed
        0, encoding="utf-8", errors="surrogateescape", closefd=False)
    sys.stdout = sys.__stdout__ = open(  # noqa: SIM115
        1, "w", encoding="utf-8", errors="surrogateescape", buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = open(  # noqa: SIM115
        2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if job.memory:
        resource.setrlimit(resource.RLIMIT_AS, (job.memory, job.memory))
    if job.nice > 0:
        lower(job.nice)
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as adj:
        adj.write(str(OOM_SCORE_ADJ))


def run(app: ModuleType, job: Job) -> None:
    """The session's app, to its end; running out of memory ends it at once, with a line."""
    sys.argv = ["tabletop-tui", *job.argv]
    if not getattr(app, "SAYS_STARTED", False):
        started()
    try:
        app.main(job.argv)
    except MemoryError:
        out_of_memory()


def out_of_memory() -> NoReturn:
    """End this session now: its app ran out of memory (an app that catches its errors calls
    this for a MemoryError). Nothing is allocated, nothing more is run."""
    with contextlib.suppress(OSError):
        os.write(2, OUT_OF_MEMORY_TEXT)
    os._exit(OUT_OF_MEMORY_EXIT)


# prctl's option to let the kernel merge alike pages of all this process's memory, and its
# children's (Linux 6.4).
PR_SET_MEMORY_MERGE = 67


def merge_alike_pages() -> bool:
    """Ask the kernel to merge this process's and its children's alike memory pages (see the
    module's docstring); False where it cannot (an older kernel, no C library to ask)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def warm(app_name: str) -> ModuleType:
    """Import the app and let it warm up; the fork server must stay single-threaded."""
    app = importlib.import_module(app_name)
    app.warm()
    if threading.active_count() != 1:
        names = ", ".join(t.name for t in threading.enumerate() if t is not threading.main_thread())
        raise SystemExit(f"fork server: warming {app_name} left threads running ({names}); "
                         "a forked child would have none of them")
    return app


def main(argv: list[str]) -> int:
    app_name, fd = argv[:2]
    starts = int(argv[2]) if len(argv) > 2 else 0
    gc.disable()  # no holes punched in the imported objects' pages before they are shared
    sock = socket.socket(fileno=int(fd))
    merging = merge_alike_pages()
    app = warm(app_name)
    gc.freeze()
    try:
        job = serve(sock, starts or len(os.sched_getaffinity(0)), merging)
    except OSError as exc:
        if exc.errno not in (errno.EPIPE, errno.ECONNRESET):
            raise
        return 0  # the table is gone
    if job is None:
        return 0
    sock.detach()  # closed with the rest in become_session, never later by the collector
    become_session(job)
    run(app, job)
    return 0


if __name__ == "__main__":
    # One module, whoever imports it: the app's `started()` is this run's (`python -m` runs it
    # as __main__, which an import of net.ssh.forkserver would load afresh beside it).
    sys.modules.setdefault("net.ssh.forkserver", sys.modules[__name__])
    sys.exit(main(sys.argv[1:]))
