"""A real PostgreSQL server for the store's tests: one per test session, in a temporary
directory, on a free port of 127.0.0.1 (its unix socket in that directory too), stopped and
removed at the end; each test gets a fresh database of its own in it.

PostgreSQL refuses to run as root, so a root test run starts it as an unprivileged user
(`postgres` when the packages made one, else `nobody`) who owns the directory. A machine with
no server at all is a failure with a sentence saying what to install, never a silent skip:
`.ci/run` installs Debian's `postgresql` package when it finds no `initdb`.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

# Where Debian and other installs put the server's programs, besides PATH.
PLACES = ("/usr/local/bin", "/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin")
USERS = ("postgres", "nobody")
SUPERUSER = "tabletop"


class NoServer(Exception):
    """No PostgreSQL server could be started here, and why."""


def binaries() -> Path:
    """The folder of `initdb`, `pg_ctl` and `postgres`: PATH's first, else the newest install."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for place in PLACES:
        folders = sorted(Path("/").glob(place.lstrip("/")),
                         key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parts])
        for folder in reversed(folders):
            if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
                return folder
    raise NoServer("no PostgreSQL server programs (initdb, pg_ctl) on PATH or in "
                   f"{', '.join(PLACES)}: install them (Debian: apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One PostgreSQL server started for the tests (see the module docstring)."""

    def __init__(self) -> None:
        self.bin = binaries()
        self.base = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = next((u for u in USERS if _exists(u)), None)
            if self.user is None:
                raise NoServer(f"running as root and none of the users {USERS} exists to run "
                               "PostgreSQL as")
            entry = pwd.getpwnam(self.user)
            os.chown(self.base, entry.pw_uid, entry.pw_gid)
        self.url = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        line = [str(self.bin / command[0]), *command[1:]]
        if self.user is not None:
            line = ["runuser", "-u", self.user, "--", *line]
        done = subprocess.run(line, capture_output=True, text=True, timeout=60, cwd=self.base)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise NoServer(f"{' '.join(line)} failed ({done.returncode}): "
                           f"{done.stderr.strip() or done.stdout.strip()}\n{log}")

    def start(self, listen: str | None = "127.0.0.1") -> None:
        """initdb and start; `listen` overrides the configuration's listen_addresses (None:
        the file's word, which an operator's lines may change, `restart` reads again)."""
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "--no-sync",
                  "-E", "UTF8", "--locale=C")
        listening = "" if listen is None else f"-c listen_addresses={listen} "
        self.options = (f"-p {self.port} -k {self.base} {listening}-c fsync=off "
                        "-c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self.options, "-w",
                  "-t", "30", "start")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self.options, "-w",
                  "-t", "30", "restart")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def database(self) -> str:
        """A new, empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url.rpartition("/")[0] + "/" + name


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True
