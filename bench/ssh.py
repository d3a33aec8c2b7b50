"""SSH table benchmark: `python -m bench.ssh` prints figures (it asserts nothing).

A relay and the SSH server run in this process, as `tabletop-tui serve --ssh` runs them; the
players are asyncssh clients reading the text their terminal would show. Printed:
  * connect to painted menu: from opening the TCP connection to the whole main menu on the
    player's screen (key exchange, login, the child's start and first paint), one player at a
    time, then a burst of players connecting at once (median and slowest; the burst's players
    in a process of their own, as they would be on machines of their own);
  * memory per session: each child app's resident (RSS), proportional (PSS: shared pages split
    among the processes sharing them, from /proc/PID/smaps_rollup) and private (USS) memory
    once all sessions sit idle in the menu, what the server process itself grew by per session,
    and the fork server's own PSS (the app imported once for all sessions);
  * how many idle sessions fit in 1 GiB, from PSS plus the server's and the fork server's share;
  * the same once the kernel has merged the sessions' alike pages, where it does (KSM;
    `--merge` turns it on once the sessions are idle, as root);
  * the aims of issue #25 beside what was measured: the median of a burst of 20 under 0.3 s,
    and under 15 MiB PSS per idle session;
  * under attack: a fresh table with the default limits while an attacker (another process,
    from an address of its own) holds many idle connections, logs in many times and keeps the
    connections, takes as many seats as it can, or floods the input of its sessions; then
    honest players, each from an address of its own, arrive at once: how many get the menu
    and how long it takes them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import asyncssh

from net.relay.server import Relay
from net.ssh.limits import SshLimits
from net.ssh.server import SshConfig, SshTable

MENU = ("Host a game", "Quit")  # the first and the last line of the painted menu
# A terminal's control sequences (CSI, OSC, and the short escapes), which carry no text.
CONTROL = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]")
ATTACKER = "127.0.0.66"  # loopback addresses: every one of 127/8 reaches the table
HONEST = [f"127.0.0.{10 + i}" for i in range(5)]
HONEST_PATIENCE = 30.0  # seconds an honest player waits for the menu before giving up
AIM_BURST = 20  # players arriving at once (issue #25's aims)
AIM_SECONDS = 0.3  # median seconds from connecting to the painted menu in that burst
AIM_PSS_MIB = 15.0  # PSS of an idle session
KSM = "/sys/kernel/mm/ksm"  # the kernel's merging of alike pages
MERGE_SCAN = 2000  # pages it scans a round (20 ms) while --merge has it on (100 by default)
MERGE_WAIT = 120.0  # seconds to wait for its scans at most
# Scans of every page before measuring: a page whose content held still over one scan is a
# candidate, merged when a later one finds its twin.
MERGE_SCANS = 4
MOUSE = b"".join(b"\x1b[<35;%d;%dM" % (1 + i % 100, 1 + i % 30) for i in range(2000))
ATTACKS = {  # what the attacker does, how many times
    "idle": ("holds idle connections that never log in", 400),
    "held": ("logs in, has one session refused, keeps the connection", 150),
    "seats": ("takes as many seats (sessions at the menu) as it can", 30),
    "flood": ("floods mouse reports into its sessions", 3),
}


class Watcher(asyncssh.SSHClientSession[bytes]):
    """One player's screen; `painted` is done once the whole menu has come (an error if the
    session ends before). It reads the text of what came, without the terminal's control
    sequences, and does not draw it: drawing is the player's machine's work, which on this one
    machine would take the cores from the table it measures (a terminal emulator in Python
    costs more than a start)."""

    def __init__(self) -> None:
        self.came = bytearray()
        self.painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.painted.done():
            return  # nothing more to read from its screen
        self.came += data
        if MENU[-1].encode() in self.came:
            text = CONTROL.sub(b"", self.came).decode("utf-8", "replace")
            if all(item in text for item in MENU):
                self.painted.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.painted.done():
            self.painted.set_exception(ConnectionError("the session ended before the menu"))


class Keyless(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""  # log in to the open table as OpenSSH does without keys


async def login(port: int, name: str, addr: str = "127.0.0.1") -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  config=None, agent_path=None, client_keys=None,
                                  client_factory=Keyless, local_addr=(addr, 0))


async def session(port: int, name: str, addr: str = "127.0.0.1",
                  ) -> tuple[float, asyncssh.SSHClientConnection, asyncssh.SSHClientChannel[bytes]]:
    """Seconds from connecting to the painted menu, the connection (left open) and channel."""
    start = time.perf_counter()
    conn = await login(port, name, addr)
    watcher = Watcher()
    try:
        chan, _ = await conn.create_session(lambda: watcher, encoding=None,
                                            term_type="xterm-256color", term_size=(100, 30))
        await asyncio.wait_for(watcher.painted, 60)
    except BaseException:
        conn.close()
        raise
    return time.perf_counter() - start, conn, chan


def memory_kib(pid: int | str) -> dict[str, int]:
    """Rss, Pss and Private_* of a process, in KiB (Linux /proc)."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        fields[name] = int(rest.split()[0])
    fields["Uss"] = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields


def cpu_seconds(pid: int | str) -> float:
    """User and system CPU seconds a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def spread(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s"


async def open_table(starts: int = 0, **limits: int) -> tuple[Relay, SshTable]:
    relay = Relay()
    await relay.start("127.0.0.1", 0)
    table = SshTable(SshConfig(0, "127.0.0.1", limits=SshLimits(**limits)), relay.url)
    table.forks.starts = starts
    # The players here stand for machines of their own (127.0.0.x each): a table counts every
    # loopback address as one, since on one machine anybody can use any of them.
    table.group = str
    await table.start()
    return relay, table


async def close_table(relay: Relay, table: SshTable) -> None:
    await table.stop()
    await relay.stop()


async def run(sessions: int, burst: int, starts: int, merge: bool) -> None:
    places = sessions + burst + 2  # every player comes from this machine: one address
    relay, table = await open_table(max_sessions=places, per_address=places, per_minute=10_000,
                                    starts=starts)
    port = table.port
    conns: list[asyncssh.SSHClientConnection] = []
    players: asyncio.subprocess.Process | None = None
    try:
        warm, conn, _ = await session(port, "warmup")  # the first also fills the OS caches
        conn.close()
        await asyncio.sleep(1.0)
        server_before = memory_kib("self")
        times = []
        for i in range(sessions):
            seconds, conn, _ = await session(port, f"player{i}")
            times.append(seconds)
            conns.append(conn)
        cpu_before = time.process_time()
        players = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.ssh", "--burst-players", str(port), str(burst),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert players.stdout is not None
        burst_times, burst_wall, players_cpu = json.loads(
            await asyncio.wait_for(players.stdout.readline(), 120))
        burst_cpu = time.process_time() - cpu_before
        await asyncio.sleep(2.0)  # let every child settle in its menu
        pids = [s.child.pid for s in table.sessions if s.child is not None]
        children = [memory_kib(pid) for pid in pids]
        child_cpu = statistics.mean(cpu_seconds(pid) for pid in pids)
        forks = memory_kib(table.forks.pid or "self")
        server_after = memory_kib("self")
        merged = None
        if merge:
            with merging_on():
                merged = await merged_memory(pids)
        elif merging():
            merged = await merged_memory(pids)
    finally:
        if players is not None:
            players.kill()
            await players.wait()
        for conn in conns:
            conn.close()
        await close_table(relay, table)

    rss = statistics.mean(c["Rss"] for c in children)
    pss = statistics.mean(c["Pss"] for c in children)
    uss = statistics.mean(c["Uss"] for c in children)
    count = len(children)
    server_share = max(0, server_after["Rss"] - server_before["Rss"]) / count
    per_session = pss + server_share + forks["Pss"] / count
    print(f"SSH table: {sessions} sessions one after another, then {burst} at once "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}; {f'{starts} starting' if starts else 'one starting a core'}"
          " at once)")
    print(f"  connect to painted menu: first start {warm:.2f} s; then {spread(times)}")
    print(f"  {burst} connecting at once: {spread(burst_times)} "
          f"(all painted after {burst_wall:.2f} s; CPU used by the table's process "
          f"{burst_cpu:.2f} s, by the players' {players_cpu:.2f} s)")
    print(f"  CPU of a session's app to its idle menu: {child_cpu:.3f} s")
    print(f"  memory per idle session ({count} sessions): PSS {mib(pss)} (RSS {mib(rss)}, "
          f"USS {mib(uss)}); the server grew {mib(server_share)} per session; the fork server "
          f"(shared by all) PSS {mib(forks['Pss'])}")
    print(f"  sessions in 1 GiB (PSS + the server's and fork server's shares): "
          f"{int(1024 * 1024 // per_session)}")
    if merged is None:
        print(f"  the kernel's merging of alike pages (KSM) is off here ({KSM}/run); "
              "--merge turns it on for the run")
    else:
        merged_pss, merged_uss = merged
        per_merged = merged_pss + server_share + forks["Pss"] / count
        print(f"  once the kernel merged alike pages (KSM): PSS {mib(merged_pss)} (USS "
              f"{mib(merged_uss)}); sessions in 1 GiB: {int(1024 * 1024 // per_merged)}")
    print("  aims (issue #25): connect to painted menu under "
          f"{AIM_SECONDS} s with {AIM_BURST} arriving at once: "
          + (f"median {statistics.median(burst_times):.2f} s" if burst == AIM_BURST
             else f"not measured (a burst of {burst})")
          + f"; under {AIM_PSS_MIB:.0f} MiB PSS per idle session: {mib(pss)}"
          + ("" if merged is None else f" ({mib(merged[0])} with KSM)"))


def merging() -> bool:
    """Whether the kernel merges alike pages (KSM) on this machine now."""
    try:
        return (Path(KSM) / "run").read_text().strip() == "1"
    except OSError:
        return False


async def merged_memory(pids: list[int]) -> tuple[float, float]:
    """Mean PSS and USS of the idle sessions `pids` in KiB once the kernel's merging has
    scanned every page MERGE_SCANS times, MERGE_WAIT s at most."""
    scans = Path(KSM) / "full_scans"
    until = int(scans.read_text()) + MERGE_SCANS
    for _ in range(int(MERGE_WAIT)):
        if int(scans.read_text()) >= until:
            break
        await asyncio.sleep(1.0)
    memory = [memory_kib(pid) for pid in pids]
    return (statistics.mean(m["Pss"] for m in memory), statistics.mean(m["Uss"] for m in memory))


@contextlib.contextmanager
def merging_on() -> Iterator[None]:
    """The kernel's merging of alike pages on for a while, scanning fast (root only), then as
    it was."""
    knobs = {name: (Path(KSM) / name).read_text().strip() for name in ("run", "pages_to_scan")}
    try:
        (Path(KSM) / "pages_to_scan").write_text(str(MERGE_SCAN))
        (Path(KSM) / "run").write_text("1")
        yield
    finally:
        for name, value in knobs.items():
            (Path(KSM) / name).write_text(value)


async def burst_players(port: int, count: int) -> None:
    """A burst's players, in a process of their own as players are on machines of their own
    (their key exchanges and terminals are not the table's work): they connect at once, print
    their seconds to the menu and the burst's (one JSON line), and stay until killed."""
    started, cpu = time.perf_counter(), time.process_time()
    results = await asyncio.gather(*(session(port, f"burst{i}") for i in range(count)))
    print(json.dumps([[t for t, _, _ in results], time.perf_counter() - started,
                      time.process_time() - cpu]), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


# -- under attack ---------------------------------------------------------------------------------
async def honest_arrivals(port: int) -> str:
    """Honest players, each from an address of its own, arrive at once."""

    async def arrive(addr: str) -> float | None:
        try:
            # Each a name of its own: a name without a key is one player at a table.
            seconds, conn, _ = await asyncio.wait_for(
                session(port, f"honest{addr.rsplit('.', 1)[-1]}", addr), HONEST_PATIENCE)
        except (TimeoutError, OSError, asyncssh.Error):
            return None
        conn.close()
        return seconds

    results = await asyncio.gather(*(arrive(addr) for addr in HONEST))
    got = [t for t in results if t is not None]
    line = f"{len(got)} of {len(HONEST)} honest players got the menu"
    return line + (f" ({spread(got)})" if got else "")


async def attacks() -> None:
    print("Under attack (default limits; the attacker from one address, honest players from "
          f"{len(HONEST)} others, arriving at once):")
    relay, table = await open_table()
    try:
        print(f"  nobody attacking: {await honest_arrivals(table.port)}")
    finally:
        await close_table(relay, table)
    for kind, (what, count) in ATTACKS.items():
        relay, table = await open_table()
        port = table.port
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.ssh", "--attacker", kind, str(port),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        try:
            assert attacker.stdout is not None
            held = (await asyncio.wait_for(attacker.stdout.readline(), 120)).decode().strip()
            line = await honest_arrivals(port)
            print(f"  attacker {what} ({held} of {count}): {line}")
        finally:
            attacker.kill()
            await attacker.wait()
            await close_table(relay, table)


async def attack(kind: str, port: int) -> None:
    """The attacker's process: do `kind`, say how many it holds, hold on until killed."""
    _, count = ATTACKS[kind]
    kept: list[object] = []
    doing: dict[str, Callable[[int], Awaitable[object]]] = {
        "idle": lambda i: idle_connection(port),
        "held": lambda i: refused_session(port, i),
        "seats": lambda i: session(port, f"seat{i}", ATTACKER),
        "flood": lambda i: flooding_session(port, i),
    }
    sequential = kind == "seats"  # one after another, as fast as the table lets it
    if sequential:
        for i in range(count):
            try:
                kept.append(await asyncio.wait_for(doing[kind](i), 20))
            except (TimeoutError, OSError, asyncssh.Error):
                continue  # refused: it tries the next
    else:
        results = await asyncio.gather(*(doing[kind](i) for i in range(count)),
                                       return_exceptions=True)
        kept = [r for r in results if not isinstance(r, BaseException)]
    print(len(kept), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def idle_connection(port: int) -> asyncio.StreamWriter:
    _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
    writer.write(b"SSH-2.0-idle\r\n")
    return writer


async def refused_session(port: int, i: int) -> asyncssh.SSHClientConnection:
    conn = await login(port, f"held{i}", ATTACKER)
    chan, _ = await conn.create_session(asyncssh.SSHClientSession)  # no terminal: refused
    await chan.wait_closed()
    return conn


# Bytes a flooding session may have written but not yet sent before it waits.
FLOOD_BUFFER = 64 * 1024


async def flooding_session(port: int, i: int) -> tuple[object, asyncio.Task[None]]:
    _, conn, chan = await session(port, f"flood{i}", ATTACKER)

    async def flood() -> None:
        # As fast as the connection takes it: a channel has no drain, so wait while what
        # was written is still unsent (the server's window is full) rather than buffer it.
        while True:
            chan.write(MOUSE)
            await asyncio.sleep(0)
            while chan.get_write_buffer_size() > FLOOD_BUFFER:
                await asyncio.sleep(0.01)

    return conn, asyncio.get_running_loop().create_task(flood())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=8, help="sessions opened one by one")
    parser.add_argument("--burst", type=int, default=20, help="sessions opened at once")
    parser.add_argument("--starts", type=int, default=0,
                        help="sessions starting at once, the rest waiting in turn (default: "
                             "one a core, as a table does; 99: all at once, as before #25)")
    parser.add_argument("--no-attacks", action="store_true", help="skip the attacks")
    parser.add_argument("--merge", action="store_true",
                        help="turn the kernel's merging of alike pages (KSM) on once the "
                             "sessions are idle (root), and print their memory once it merged")
    parser.add_argument("--attacker", nargs=2, metavar=("KIND", "PORT"), help=argparse.SUPPRESS)
    parser.add_argument("--burst-players", nargs=2, type=int, metavar=("PORT", "COUNT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.burst_players:
        asyncio.run(burst_players(*args.burst_players))
        return
    if args.attacker:
        asyncio.run(attack(args.attacker[0], int(args.attacker[1])))
        return
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-ssh-") as home:
        os.environ["TABLETOP_TUI_HOME"] = str(Path(home) / "data")
        os.environ["TABLETOP_TUI_ROOMS"] = str(Path(home) / "rooms")
        asyncio.run(run(args.sessions, args.burst, args.starts, args.merge))
        if not args.no_attacks:
            asyncio.run(attacks())


if __name__ == "__main__":
    main()
