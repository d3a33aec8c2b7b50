"""A table's relays on this machine behind HAProxy, for tests/net/test_cluster.py and
`python -m bench.cluster`: relays as processes of their own (`tabletop-tui serve`, so one can
be killed with SIGKILL), and HAProxy run with the shipped deploy/haproxy.cfg.

The configuration is the shipped file itself with only its addresses changed: the `bind`
and `server` lines (here on 127.0.0.1) and the stats socket's place (one per HAProxy here).
Its global section runs as shipped (chroot, the haproxy user, the file limit it sizes its
connections by); only a user who is not root, who can neither chroot nor change user, drops
those two lines. A shipped file of another shape is refused rather than half rewritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from net.relay import addresses, tokens
from net.wire import codes

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "deploy" / "haproxy.cfg"
# Where HAProxy may be: Debian keeps it in /usr/sbin, which a user's PATH may lack.
HAPROXY_PLACES = ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")
# What only root may do: dropped for a user who is not.
_ROOTS_ONLY = ("chroot ", "user ", "group ")


def haproxy_binary() -> str | None:
    """The haproxy program, if this machine has one."""
    found = shutil.which("haproxy")
    if found:
        return found
    return next((p for p in HAPROXY_PLACES if os.access(p, os.X_OK)), None)


def ensure_haproxy() -> str | None:
    """The haproxy program, installed from the system's packages if missing and this user
    may (root, or sudo without a password); None if it cannot be had."""
    found = haproxy_binary()
    if found or shutil.which("apt-get") is None:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and shutil.which("sudo") is None:
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for argv in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "haproxy"]):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run([*sudo, *argv], env=env, capture_output=True, timeout=600,
                           check=False)
    return haproxy_binary()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def local_config(relay_ports: Iterable[int], port: int, stats: Path,
                 shipped: str | None = None) -> str:
    """The shipped HAProxy configuration for relays on 127.0.0.1 at `relay_ports` (ids 1, 2,
    ... in that order), listening on `port`, its stats socket at `stats`."""
    text = SHIPPED.read_text() if shipped is None else shipped
    out: list[str] = []
    section = ""
    servers_done = False
    binds = sockets = 0
    for line in text.splitlines():
        stripped = line.strip()
        if line and not line[0].isspace():
            section = stripped.split()[0]
        if section == "global" and stripped.startswith(_ROOTS_ONLY) and os.geteuid() != 0:
            continue
        if section == "global" and stripped.startswith("stats socket "):
            out.append(line.replace(stripped.split()[2], str(stats), 1))
            sockets += 1
            continue
        if section == "frontend" and stripped.startswith("bind "):
            out.append(f"    bind 127.0.0.1:{port}")
            binds += 1
            continue
        if section == "backend" and stripped.startswith("server "):
            if not servers_done:
                out += [f"    server relay{i} 127.0.0.1:{p} id {i}"
                        for i, p in enumerate(relay_ports, 1)]
                servers_done = True
            continue
        out.append(line)
    if binds != 1 or sockets != 1 or not servers_done:
        raise ValueError(f"deploy/haproxy.cfg has another shape than expected: {binds} bind "
                         f"lines, {sockets} stats sockets, servers "
                         f"{'found' if servers_done else 'missing'}")
    return "\n".join(out) + "\n"


def http_get(url: str, timeout: float = 2.0) -> tuple[int, str]:
    """(status, body) of a plain GET; (0, reason) when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except OSError as exc:
        return 0, str(exc)


def write_secret(path: Path) -> Path:
    """A fresh shared relay secret, as README.md says to make one (64 hex digits)."""
    path.write_text(os.urandom(32).hex() + "\n")
    path.chmod(0o600)
    return path


# A relay for a bench: the server `serve` runs, its collector tuned as `serve` tunes it
# (unless told not to), its event loop's lateness and its collections timed; SIGUSR1 writes
# both since the last report to the file it was given (net.relay.server, bench.net).
_WATCHED = """\
import asyncio, gc, json, logging, os, signal, sys, time
from pathlib import Path
from bench.net import GcClock, probe_lag
from net.relay import server
port, cap, tune, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", Path(sys.argv[4])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
clock, lags = GcClock(), []
def report(census=False):
    got = {"pauses": clock.pauses, "full": clock.full, "lags": lags}
    if census:  # the heap a full collection scans, and one timed (a pause of its own)
        gc.collect()
        began, cpu = time.perf_counter(), time.process_time()
        gc.collect()
        got.update(objects=len(gc.get_objects()), frozen=gc.get_freeze_count(),
                   collect=time.perf_counter() - began, collect_cpu=time.process_time() - cpu)
    out.with_suffix(".tmp").write_text(json.dumps(got))
    os.replace(out.with_suffix(".tmp"), out)
    clock.clear()
    lags.clear()
async def main():
    relay = server.Relay(server.Limits(rooms_per_address=cap))
    await relay.start("127.0.0.1", port)
    if tune:
        server.tune_collector()
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, report)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, report, True)
    await probe_lag([float("inf")], lags)
asyncio.run(main())
"""


@dataclass
class Watched:
    """A bench relay's collections (all, and the full ones) and event-loop lateness
    (seconds) over a window; with a census, the objects its collector tracks (and those
    frozen out of it) and how long one full collection of them took."""

    pauses: list[float]
    full: list[float]
    lags: list[float]
    objects: int = 0
    frozen: int = 0
    collect: float = 0.0
    collect_cpu: float = 0.0


class RelayProcess:
    """`tabletop-tui serve --port PORT --secret-file FILE --trust-proxy 127.0.0.1` (HAProxy
    here) in a process of its own, logging to `folder/relay-PORT.log`. `rooms_per_address`
    lifts the per-address cap for loads that all come from this machine (every loopback
    address counts as one); the relay then runs from a short script instead of the command
    line, the same server otherwise, watched (`watched`): with its collector as `serve`
    tunes it, or with CPython's defaults (`tuned=False`)."""

    def __init__(self, folder: Path, secret: Path, port: int | None = None,
                 rooms_per_address: int | None = None, tuned: bool = True) -> None:
        self.folder, self.secret = folder, secret
        self.port = port or free_port()
        self.rooms_per_address, self.tuned = rooms_per_address, tuned
        self.log = folder / f"relay-{self.port}.log"
        self.report = folder / f"relay-{self.port}.watch.json"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> RelayProcess:
        env = {**os.environ, tokens.SECRET_FILE_ENV: str(self.secret),
               addresses.PROXIES_ENV: "127.0.0.1",
               "TABLETOP_TUI_HOME": str(self.folder / f"home-{self.port}")}
        if self.rooms_per_address is None:
            argv = [sys.executable, "-m", "tui.cli", "serve", "--port", str(self.port),
                    "--secret-file", str(self.secret), "--trust-proxy", "127.0.0.1"]
        else:
            argv = [sys.executable, "-c", _WATCHED, str(self.port),
                    str(self.rooms_per_address), "1" if self.tuned else "0", str(self.report)]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=log, cwd=ROOT, env=env,
                                         start_new_session=True)
        deadline = time.monotonic() + 20
        while self.health()[0] != 200:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the relay on port {self.port} did not start: "
                                   f"{self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        return self

    def watched(self, census: bool = False) -> Watched:
        """The relay's collections and loop lateness since the last call (a watched relay:
        one started with `rooms_per_address`); with `census`, its heap too."""
        assert self.proc is not None and self.rooms_per_address is not None
        self.report.unlink(missing_ok=True)
        self.proc.send_signal(signal.SIGUSR2 if census else signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while not self.report.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the relay on port {self.port} did not report")
            time.sleep(0.02)
        return Watched(**json.loads(self.report.read_text()))

    def health(self) -> tuple[int, str]:
        return http_get(f"http://127.0.0.1:{self.port}/health")

    def rooms(self) -> int:
        """How many rooms the relay holds now (its /health answer)."""
        status, text = self.health()
        if status != 200:
            raise RuntimeError(f"relay {self.port} is not answering: {text}")
        return int(text.split(":")[1].split()[0])

    def opened(self) -> list[str]:
        """The rooms opened on this relay, by the short names its log gives them."""
        found = re.findall(r"room ([0-9a-f]{8}) opened by", self.log.read_text())
        return found

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone, as when a machine dies."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def log_name(room: str) -> str:
    """The name a relay's log gives room `room` (net.relay.tokens.log_name)."""
    return tokens.log_name(codes.normalise(room))


@dataclass
class Server:
    """One relay line as HAProxy's stats tell it."""

    name: str
    status: str  # UP, DOWN, MAINT, ... (with transitions such as "UP 1/2")
    sessions: int


def runtime_command(stats: Path, line: str) -> str:
    """One command on an HAProxy's runtime API (its stats socket), and the whole answer."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(5)
        sock.connect(str(stats))
        sock.sendall(line.encode() + b"\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()


class Balancer:
    """`haproxy -f CFG -db` with the shipped configuration for `relay_ports`. `add_relay`
    puts one more on the ring while it runs; `reload` starts a new process on the same port
    with `-sf` (the old one cuts what it still carries after the shipped `hard-stop-after`)."""

    def __init__(self, folder: Path, relay_ports: list[int], port: int | None = None,
                 nofile: int | None = None) -> None:
        binary = haproxy_binary()
        if binary is None:
            raise RuntimeError("haproxy is not installed (apt-get install haproxy)")
        self.binary, self.folder = binary, folder
        self.port = port or free_port()
        self.generation = 0
        self.procs: list[subprocess.Popen[bytes]] = []
        self.relay_ports = list(relay_ports)
        self.stats = folder / "haproxy.sock"
        self.nofile = nofile  # the file limit it starts with (None: this process's)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        return self.procs[-1]

    def start(self) -> Balancer:
        self.generation += 1
        self.stats = self.folder / f"haproxy-{self.generation}.sock"
        cfg = self.folder / f"haproxy-{self.generation}.cfg"
        cfg.write_text(local_config(self.relay_ports, self.port, self.stats))
        argv = [self.binary, "-f", str(cfg), "-db"]
        if self.procs and self.procs[-1].poll() is None:
            argv += ["-sf", str(self.procs[-1].pid)]
        log = (self.folder / f"haproxy-{self.generation}.log").open("ab")
        with log:
            self.procs.append(subprocess.Popen(argv, stdout=log, stderr=log,
                                               start_new_session=True, preexec_fn=self._limit))
        deadline = time.monotonic() + 20
        while not self._up():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                text = (self.folder / f"haproxy-{self.generation}.log").read_text()
                raise RuntimeError(f"haproxy did not start: {text[-3000:]}")
            time.sleep(0.05)
        return self

    def _limit(self) -> None:
        """In the child, before HAProxy starts: the file limit it is given, as a unit's
        `LimitNOFILE=` would."""
        if self.nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def info(self) -> dict[str, str]:
        """HAProxy's `show info`, by field."""
        pairs = (line.split(":", 1) for line in self.command("show info").splitlines())
        return {p[0].strip(): p[1].strip() for p in pairs if len(p) == 2}

    def reload(self, relay_ports: list[int]) -> Balancer:
        """Soft reload onto `relay_ports` (ids in that order: keep the old ones first)."""
        self.relay_ports = list(relay_ports)
        return self.start()

    def add_relay(self, port: int) -> None:
        """A relay joins the ring while HAProxy runs (its runtime API, no reload: the stick
        table stays as it is), as README.md tells an operator to add one."""
        self.relay_ports.append(port)
        number = len(self.relay_ports)
        for line in (f"add server relays/relay{number} 127.0.0.1:{port} id {number} "
                     f"{self.server_options()}",
                     f"enable health relays/relay{number}", f"enable server relays/relay{number}"):
            answer = self.command(line).strip()
            if answer and "registered" not in answer:
                raise RuntimeError(f"haproxy refused {line!r}: {answer}")
        self.wait_for(self._up)

    def server_options(self) -> str:
        """The shipped `default-server` options, which a server added at run time lacks."""
        for line in SHIPPED.read_text().splitlines():
            if line.strip().startswith("default-server "):
                return line.strip().removeprefix("default-server ")
        raise ValueError("deploy/haproxy.cfg has no default-server line")

    def _up(self) -> bool:
        if not self.stats.exists():
            return False
        try:
            servers = self.servers()
        except OSError:
            return False
        return len(servers) == len(self.relay_ports) and all(
            s.status == "UP" for s in servers)

    def command(self, line: str) -> str:
        """One command on the runtime API (the stats socket) of the newest process."""
        return runtime_command(self.stats, line)

    def servers(self) -> list[Server]:
        lines = self.command("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        found = []
        for line in lines[1:]:
            row = dict(zip(header, line.split(","), strict=False))
            if row.get("pxname") == "relays" and row.get("svname", "").startswith("relay"):
                found.append(Server(row["svname"], row["status"], int(row["scur"] or 0)))
        return found

    def sticky(self) -> dict[str, int]:
        """The stick table: room path -> server id."""
        table = {}
        for line in self.command("show table relays").splitlines():
            key = re.search(r" key=(\S+)", line)
            server = re.search(r" server_id=(\d+)", line)
            if key and server:
                table[key.group(1)] = int(server.group(1))
        return table

    def wait_for(self, predicate: object, timeout: float = 20.0) -> None:
        """Poll `predicate()` (a callable) until true."""
        assert callable(predicate)
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError("haproxy did not get there in time")
            time.sleep(0.05)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
