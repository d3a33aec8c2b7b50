"""One table on two SSH nodes behind a real HAProxy in TCP mode (the shipped
deploy/haproxy-ssh.cfg, its addresses changed), sharing a host key, the relay and a PostgreSQL
database: a player whose node goes away comes back through the other one, with their key, to
their seat and their rating identity, and HAProxy's PROXY headers name each client (and only
HAProxy's do)."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pg_server import Server
from ssh_support import connect
from test_ssh_play import cards_left, until

from bench.relays import free_port, haproxy_binary, runtime_command, write_secret
from net.host.hosting import HostPlan, open_room
from net.peer import tokens
from net.players import identity, ladder
from net.players.postgres import PostgresLadders
from net.players.sql import SEATS_KEPT
from net.players.store import SeatRow, StoreError
from net.relay import addresses
from net.relay.server import Relay
from net.relay.tokens import shared_secret
from net.ssh.access import Access, Visitor
from net.ssh.limits import SshLimits
from net.ssh.server import SshConfig, SshTable

HAPROXY = haproxy_binary()
pytestmark = pytest.mark.skipif(
    HAPROXY is None, reason="haproxy is not installed (apt-get install haproxy; .ci/run does it)")
SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "haproxy-ssh.cfg"


def local_config(nodes: list[int], port: int, stats: Path) -> str:
    """The shipped SSH section for nodes on 127.0.0.1 at `nodes`, listening on `port`."""
    out = ["global", f"    stats socket {stats} mode 600 level admin", ""]
    servers = 0
    for line in SHIPPED.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("log "):
            continue
        if stripped.startswith("bind "):
            line = f"    bind 127.0.0.1:{port}"
        elif stripped.startswith("server "):
            if servers:
                continue
            out += [f"    server ssh{i} 127.0.0.1:{p}" for i, p in enumerate(nodes, 1)]
            servers = len(nodes)
            continue
        out.append(line)
    assert servers, "deploy/haproxy-ssh.cfg has no server lines"
    return "\n".join(out) + "\n"


class SshBalancer:
    """`haproxy -f CFG -db` with the shipped SSH section in front of `nodes`."""

    def __init__(self, folder: Path, nodes: list[int]) -> None:
        assert HAPROXY is not None
        self.port = free_port()
        self.stats = folder / "haproxy-ssh.sock"
        cfg = folder / "haproxy-ssh.cfg"
        cfg.write_text(local_config(nodes, self.port, self.stats))
        self.log = folder / "haproxy-ssh.log"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([HAPROXY, "-f", str(cfg), "-db"], stdout=out,
                                         stderr=out, start_new_session=True)

    def command(self, line: str) -> str:
        return runtime_command(self.stats, line)

    def status(self) -> dict[str, str]:
        """Each node's state as the health checks see it (UP, DOWN...)."""
        if not self.stats.exists():
            return {}
        try:
            lines = self.command("show stat").splitlines()
        except OSError:
            return {}
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:]]
        return {r["svname"]: r["status"] for r in rows
                if r.get("pxname") == "ssh" and re.fullmatch(r"ssh\d+", r.get("svname", ""))}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def wait_status(lb: SshBalancer, wanted: dict[str, str]) -> None:
    """Until the health checks see the nodes as `wanted`."""
    try:
        async with asyncio.timeout(20):
            while {k: v.split()[0] for k, v in lb.status().items()} != wanted:
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"haproxy sees {lb.status()}, not {wanted}; its log:\n"
                             f"{lb.log.read_text()[-2000:]}") from None


@pytest.fixture
def table_store(postgres: Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """The table's database, as `serve --db URL` names it to every session."""
    url = postgres.database()
    ladder.open_store(url).close()
    monkeypatch.setenv(ladder.TABLE_ENV, url)
    return url


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes]:
    """The host key and the secret every node of the table is given (as README.md says)."""
    key_file = tmp_path / "ssh_host_ed25519_key"
    key_file.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    secret_file = write_secret(tmp_path / "table-secret")
    monkeypatch.setenv("TABLETOP_TUI_RELAY_SECRET_FILE", str(secret_file))
    secret = shared_secret()
    assert secret is not None
    return key_file, secret


@pytest.fixture
async def nodes(tmp_path: Path, relay: Relay, shared: tuple[Path, bytes],
                table_store: str) -> AsyncIterator[list[SshTable]]:
    """Two SSH nodes, each with its own data directory, trusting HAProxy on 127.0.0.1."""
    key_file, secret = shared
    started: list[SshTable] = []
    for name in ("a", "b"):
        config = SshConfig(0, "127.0.0.1", Access(), SshLimits(), host_key=key_file,
                           secret=secret, trusted=addresses.networks("127.0.0.1"),
                           players=tmp_path / f"node-{name}" / "players")
        table = SshTable(config, relay.url)
        await table.start()
        started.append(table)
    try:
        yield started
    finally:
        for table in started:
            await table.stop()


@pytest.fixture
async def balancer(tmp_path: Path, nodes: list[SshTable]) -> AsyncIterator[SshBalancer]:
    lb = SshBalancer(tmp_path, [n.port for n in nodes])
    try:
        await wait_status(lb, {"ssh1": "UP", "ssh2": "UP"})  # the checks pass the PROXY reader
        yield lb
    finally:
        lb.stop()


def players_identity(node: SshTable, key: asyncssh.SSHKey) -> str:
    """The fingerprint of the identity a node's player with `key` has in their data folder."""
    assert node.config.players is not None
    folders = list(node.config.players.iterdir())
    assert len(folders) == 1, folders
    raw = (folders[0] / "data" / identity.KEY_FILE).read_text()
    return identity.Identity(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw))).fingerprint


@pytest.mark.parametrize("back", ["join", "resume"])
async def test_a_player_whose_node_went_away_is_back_in_their_seat_through_the_other(
    relay: Relay, nodes: list[SshTable], balancer: SshBalancer, shared: tuple[Path, bytes],
    table_store: str, tmp_path: Path, back: str,
) -> None:
    """Bob joins through HAProxy and lands on one node; it stops. Through HAProxy again he
    lands on the other, which finds his seat's token in the shared database (the first node
    kept it there) and gives him the identity the first did: his seat, his rating. With
    `join CODE`, or with `resume` alone: where he sits is in the shared database too, his
    code sealed there, and nothing in it names a folder of either node."""
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    host = room.host
    key = asyncssh.generate_private_key("ssh-ed25519")
    players = []
    try:
        bob = await connect(balancer.port, "bob", key=key, command=f"join {host.display_code}")
        players.append(bob)
        await bob.wait_for("Waiting for the host to start", "bob's lobby")
        first = next(n for n in nodes if n.sessions)
        other = next(n for n in nodes if n is not first)
        # The node counts bob under his own address (127.0.0.1 here), not as HAProxy's.
        assert [s.visitor.addr for s in first.sessions] == ["127.0.0.1"]
        host.add_bot()
        host.add_bot()
        host.start()
        await bob.wait_for(f"room {host.display_code}", "bob's table")
        seat = next(i for i, s in enumerate(host.seat_list()) if s["name"] == "bob")
        dealt_as = identity.fingerprint(bytes.fromhex(host.seats[seat].identity))

        # Bob's node goes away (its sessions end with it); HAProxy's checks see it down.
        names = {nodes[0]: "ssh1", nodes[1]: "ssh2"}
        await first.stop()
        await until(lambda: not host.seat_list()[seat]["connected"], "bob away")
        await wait_status(balancer, {names[first]: "DOWN", names[other]: "UP"})

        command = "resume" if back == "resume" else f"join {host.display_code}"
        again = await connect(balancer.port, "bob", key=key, command=command)
        players.append(again)
        await again.wait_for(f"room {host.display_code}", "bob back at the table")
        assert other.sessions, "bob came back through the other node"
        await until(lambda: host.seat_list()[seat]["connected"], "bob's seat connected again")
        assert [s["name"] for s in host.seat_list()].count("bob") == 1

        # The game goes on, with bob's move from his seat.
        await again.wait_for(lambda: "Your turn" in again.line(0), "bob's turn")
        before = cards_left(again)
        again.press("t")
        await again.wait_for(lambda: "bob took" in again.text() and cards_left(again) != before,
                             "the game going on after bob's take")

        # One rating identity on both nodes: the one the table's secret derives from bob's
        # key, which his app at node A proved at the deal and his app at node B holds.
        _, secret = shared
        derived = identity.derived(secret, key.public_data).fingerprint
        assert dealt_as == derived
        assert players_identity(first, key) == players_identity(other, key) == derived
        store = ladder.open_store(table_store)
        try:
            assert isinstance(store, PostgresLadders)
            kept = repr([store.db.execute(f"SELECT * FROM {t}").fetchall()
                         for t in ("seat_tokens", "player_places")])
        finally:
            store.close()
        assert '"sealed"' in kept  # where bob sits, his code sealed
        assert host.code not in kept and host.display_code not in kept
        assert str(tmp_path) not in kept and "/games" not in kept, kept
    finally:
        for player in players:
            await player.close()
        await room.close()


async def test_advice_names_the_port_players_reach_the_balancer_on(
    nodes: list[SshTable], balancer: SshBalancer,
) -> None:
    """A node's own port is no use to a player: the commands it advises name the balancer's
    (from its PROXY header)."""
    ada = await connect(balancer.port, "ada", pty=False, command="join ABCD-EFGH-JKMN")
    try:
        await ada.wait_closed()
        assert f"ssh -t -p {balancer.port} HOST join CODE".encode() in ada.stderr, ada.stderr
        assert all(str(n.port).encode() not in ada.stderr for n in nodes)
    finally:
        await ada.close()


# -- one identity and one set of seats for a player on every node ---------------------------------
def test_one_key_has_one_identity_at_a_table_and_another_elsewhere() -> None:
    ada, bob = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    secret, other_table = bytes(range(32)), bytes(range(1, 33))
    mine = identity.derived(secret, ada.public_data)
    assert mine.public == identity.derived(secret, ada.public_data).public
    assert mine.public != identity.derived(secret, bob.public_data).public
    assert mine.public != identity.derived(other_table, ada.public_data).public
    # It signs as any identity does, and its proofs check.
    entry = {"name": "ada", **mine.prove("commit", 0, "ada")}
    assert identity.proven(entry, "commit", 0) == mine.fingerprint


def test_a_node_gives_a_keyed_player_the_tables_identity_and_a_keyless_one_none(
    tmp_path: Path,
) -> None:
    secret = bytes(range(32))
    config = SshConfig(0, limits=SshLimits(), secret=secret, players=tmp_path / "players")
    table = SshTable(config, "ws://127.0.0.1:1")  # not started
    key = asyncssh.generate_private_key("ssh-ed25519")
    env = table.child_env(Visitor(addr="127.0.0.1", username="ada", key=key), "xterm", {})
    assert identity.UNRATED_ENV not in env
    path = Path(env["TABLETOP_TUI_HOME"]) / identity.KEY_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    raw = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(path.read_text()))
    assert identity.Identity(raw).public == identity.derived(secret, key.public_data).public
    path.write_text("00" * 32)  # one made before the table had a secret: replaced
    table.child_env(Visitor(addr="127.0.0.1", username="ada", key=key), "xterm", {})
    assert path.read_text() != "00" * 32
    env = table.child_env(Visitor(addr="127.0.0.1", username="cy"), "xterm", {})
    assert env[identity.UNRATED_ENV] == "1"
    assert not (Path(env["TABLETOP_TUI_HOME"]) / identity.KEY_FILE).exists()


def test_seats_kept_in_the_store_are_their_owners_alone(store_at: str) -> None:
    store = ladder.open_store(store_at)
    try:
        mine = SeatRow("ada", "t-ada", "pk", "ab", "ticket", '{"commitment": "c"}')
        store.keep_seat("key-ada", "room-1", mine)
        assert store.seat("key-ada", "room-1") == mine
        assert store.seat("key-eve", "room-1") is None  # another owner reads nothing
        for number in range(SEATS_KEPT + 5):
            store.keep_seat("key-ada", f"room-{number + 2}", mine)
        assert store.seat("key-ada", "room-1") is None  # only the newest are kept
        assert store.seat("key-ada", f"room-{SEATS_KEPT + 6}") == mine
    finally:
        store.close()


def test_a_seat_goes_to_the_shared_database_under_a_hash_of_its_code(
    postgres: Server, monkeypatch: pytest.MonkeyPatch, private_dirs: Path,
) -> None:
    url = postgres.database()
    monkeypatch.setenv(ladder.TABLE_ENV, url)
    saved = tokens.Saved("t-ada", "ada", "pk", "ab", "ticket", '{"commitment": "c"}')
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")
    tokens.save_token("ABCD-EFGH-JKMN", saved)
    assert tokens.load_token("ABCD-EFGH-JKMN", "ada") == saved
    assert not (private_dirs / "home" / "tokens.json").exists()
    store = ladder.open_store(url)
    try:
        assert isinstance(store, PostgresLadders)
        text = repr(store.db.execute("SELECT * FROM seat_tokens").fetchall())
        assert "ABCD" not in text and "EFGH" not in text
    finally:
        store.close()
    monkeypatch.setenv(tokens.OWNER_ENV, "key-eve")  # another player's session finds nothing
    assert tokens.load_token("ABCD-EFGH-JKMN", "") is None
    monkeypatch.delenv(tokens.OWNER_ENV)  # a session of no table: its own file
    assert tokens.load_token("ABCD-EFGH-JKMN", "") is None


def test_a_seat_is_kept_in_the_players_folder_while_the_database_is_away(
    monkeypatch: pytest.MonkeyPatch, private_dirs: Path,
) -> None:
    monkeypatch.setenv(ladder.TABLE_ENV, f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")
    saved = tokens.Saved("t-ada", "ada", "pk", "ab", "ticket")
    tokens.save_token("ABCD-EFGH-JKMN", saved)
    assert tokens.load_token("ABCD-EFGH-JKMN", "ada") == saved
    assert (private_dirs / "home" / "tokens.json").stat().st_mode & 0o777 == 0o600


def test_where_a_player_sits_is_theirs_alone_and_their_code_opens_for_them_only(
    postgres: Server, monkeypatch: pytest.MonkeyPatch, private_dirs: Path,
) -> None:
    """Where a player sits goes to the table's store (tui.comeback): their code sealed under
    their identity, a hosted game's record by its name alone. Another owner reads nothing,
    another identity under the same owner (a stolen row tried elsewhere) opens nothing, and
    a keyless player's table as a guest stays in their node's file."""
    from tui import comeback

    url = postgres.database()
    monkeypatch.setenv(ladder.TABLE_ENV, url)
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")
    comeback.seated("ABCDEFGHJKMN", "ada", "ws://relay.example:8765")
    store = ladder.open_store(url)
    try:
        assert isinstance(store, PostgresLadders)
        text = repr(store.db.execute("SELECT * FROM player_places").fetchall())
    finally:
        store.close()
    assert "key-ada" in text and "ABCD" not in text and "EFGH" not in text
    (private_dirs / "home" / comeback.FILE).unlink()  # another node: not this file
    assert comeback.seat() == comeback.Seat("ABCDEFGHJKMN", "ada", "ws://relay.example:8765")
    monkeypatch.setenv(tokens.OWNER_ENV, "key-eve")
    assert comeback.seat() is None
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")
    (private_dirs / "home" / identity.KEY_FILE).unlink()  # another identity, same owner
    assert comeback.seat() is None
    # A host: the record by its name, found in this node's own records folder.
    comeback.hosting(private_dirs / "elsewhere" / "games" / "2026-game.jsonl")
    found = comeback.seat()
    assert found is not None and found.record == "2026-game.jsonl"
    assert comeback.record_path(found) == private_dirs / "home" / "games" / "2026-game.jsonl"
    # A keyless player: nothing to seal a code with; the store forgets the host's place.
    monkeypatch.setenv(identity.UNRATED_ENV, "1")
    comeback.seated("ABCDEFGHJKMN", "cy", None)
    store = ladder.open_store(url)
    try:
        assert store.place("key-ada") is None
    finally:
        store.close()
    assert comeback.seat() == comeback.Seat("ABCDEFGHJKMN", "cy", None)  # the file's


def test_the_readmes_postgresql_lines_open_the_database_to_a_node_and_only_with_its_password(
) -> None:
    """README.md's lines for the table's database, as written (its address 10.0.0.30 here
    127.0.0.2, the node's 10.0.0.21 127.0.0.1, the address this machine reaches 127.0.0.2
    from; the server lets only its own socket in besides): before them a node cannot reach
    it; after them and a restart it opens the store with the password, and a wrong one is
    refused."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    lines = re.findall(r'^echo "(.*)" >> /etc/postgresql/15/main/(\S+)$', readme, re.M)
    assert [name for _, name in lines] == ["postgresql.conf", "pg_hba.conf", "pg_hba.conf"]
    server = Server()
    try:
        server.start(listen=None)
        hba = server.data / "pg_hba.conf"  # initdb's: trust on its socket and on 127.0.0.1
        hba.write_text("".join(line for line in hba.read_text().splitlines(keepends=True)
                               if line.startswith("local")))
        server.restart()
        admin_at = {"host": str(server.base), "port": server.port, "user": "tabletop",
                    "dbname": "postgres", "autocommit": True}
        with psycopg.connect(**admin_at) as admin:  # createuser -P, createdb
            admin.execute("ALTER ROLE tabletop PASSWORD 'node-pw'")
            admin.execute("CREATE DATABASE tabletop OWNER tabletop")
        url = f"postgresql://tabletop:node-pw@127.0.0.2:{server.port}/tabletop"
        with pytest.raises(StoreError):  # listening on localhost only
            ladder.open_store(url).close()
        for line, name in lines:
            line = line.replace("10.0.0.30", "127.0.0.2").replace("10.0.0.21", "127.0.0.1")
            with (server.data / name).open("a") as conf:
                conf.write(line.replace("10.0.0.22", "127.0.0.3") + "\n")
        server.restart()
        ladder.open_store(url).close()  # the node's tables are made
        with pytest.raises(StoreError) as refused:
            ladder.open_store(url.replace("node-pw", "guess")).close()
        assert "guess" not in str(refused.value)
    finally:
        server.stop()


def test_the_shared_store_names_the_records_it_looked_at_by_no_path(
    postgres: Server, tmp_path: Path,
) -> None:
    """A node's sessions note each record file they counted in the table's store, so each is
    read once: under a hash of its path, never the path of one machine's folder."""
    url = postgres.database()
    folder = tmp_path / "node-a" / "players" / "ada" / "data" / "games"
    folder.mkdir(parents=True)
    (folder / "2026-12-06-schoene.jsonl").write_text("not a record\n")
    store = ladder.open_store(url)
    try:
        assert isinstance(store, PostgresLadders)
        assert ladder.catch_up(store, folder) == 0
        kept = repr(store.db.execute("SELECT * FROM sources").fetchall())
        assert "damaged" in kept and str(tmp_path) not in kept and "schoene" not in kept, kept
        assert store.seen(ladder.source_of(folder / "2026-12-06-schoene.jsonl"),
                          ladder._stamp(folder / "2026-12-06-schoene.jsonl"))
    finally:
        store.close()


# -- the PROXY header: only from the balancer, and only a valid one ------------------------------
V2 = b"\r\n\r\n\x00\r\nQUIT\n"


def header(source: str, dest: str = "127.0.0.1", command: int = 0x21,
           family: int = 0x11) -> bytes:
    addrs = socket.inet_aton(source) + socket.inet_aton(dest) + (50000).to_bytes(2, "big") + \
        (22).to_bytes(2, "big")
    return V2 + bytes([command, family]) + len(addrs).to_bytes(2, "big") + addrs


async def proxied_table(tmp_path: Path, relay: Relay, trusted: str,
                        **limits: float) -> SshTable:
    config = SshConfig(0, "127.0.0.1", Access(), SshLimits(**limits),
                       trusted=addresses.networks(trusted),
                       players=tmp_path / "players")
    table = SshTable(config, relay.url)
    await table.start()
    return table


async def raw(port: int, data: bytes, source: str = "127.0.0.1") -> bytes:
    """Connect from `source`, send `data`, and read what the table says until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(data)
    try:
        async with asyncio.timeout(15):
            return await reader.read()
    finally:
        writer.close()


async def test_a_balancer_connection_without_a_header_is_logged_with_the_reason(
    tmp_path: Path, relay: Relay, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A connection from the balancer that sends no PROXY header in time is dropped with a
    log line that says why (once an empty 'dropped: ')."""
    from net.ssh import proxied

    monkeypatch.setattr(proxied, "READ_SECONDS", 0.2)
    table = await proxied_table(tmp_path, relay, "127.0.0.1")
    try:
        with caplog.at_level("INFO", logger="tabletop"):
            assert await raw(table.port, b"") == b""
        dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
        assert dropped == ["ssh connection from balancer 127.0.0.1 dropped: no PROXY header "
                           "in time"], dropped
    finally:
        await table.stop()


def test_a_nodes_start_line_says_which_store_it_uses_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ladder.TABLE_ENV, "postgresql://tabletop:s3cret@10.0.0.30/tabletop")
    table = SshTable(SshConfig(0, "127.0.0.1", players=tmp_path / "players"),
                     "ws://127.0.0.1:1")  # not started
    banner = table.banner()
    assert banner.endswith("players' store postgresql://tabletop:***@10.0.0.30/tabletop")
    assert "s3cret" not in banner
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "ladder.sqlite"))
    assert table.banner().endswith(f"players' store {tmp_path / 'ladder.sqlite'}")


async def test_a_forged_header_from_an_untrusted_address_names_nobody(
    tmp_path: Path, relay: Relay,
) -> None:
    """An attacker at 127.0.0.2 (not the balancer) sends a PROXY header naming 203.0.113.9:
    it is no header to the table, just bytes where the client's SSH version line should be,
    which ends the connection, and it was counted under his own address."""
    table = await proxied_table(tmp_path, relay, "127.0.0.1")
    counted: list[str] = []
    table.group = lambda addr: counted.append(addr) or addresses.group(addr)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port,
                                                       local_addr=("127.0.0.2", 0))
        writer.write(header("203.0.113.9"))
        version = await asyncio.wait_for(reader.readline(), 10)
        assert version.startswith(b"SSH-2.0-")  # no header read: the SSH server speaks first
        assert await asyncio.wait_for(reader.read(), 10) == b""  # then hangs up
        assert counted == ["127.0.0.2"]
        writer.close()
    finally:
        await table.stop()


@pytest.mark.parametrize("garbage", [
    b"SSH-2.0-OpenSSH_9.2\r\n",  # no header at all
    b"PROXY TCP4 203.0.113.9 127.0.0.1 50000 22\r\n",  # version 1, which it does not take
    V2[:-1] + b"X" + bytes([0x21, 0x11, 0, 12]) + bytes(12),  # a wrong signature
    V2 + bytes([0x31, 0x11, 0, 12]) + bytes(12),  # version 3
    V2 + bytes([0x22, 0x11, 0, 12]) + bytes(12),  # an unknown command
    V2 + bytes([0x21, 0x31, 0, 216]) + bytes(216),  # a Unix socket's addresses
    V2 + bytes([0x21, 0x12, 0, 12]) + bytes(12),  # UDP
    V2 + bytes([0x20, 0x55, 0, 0]),  # a LOCAL header with a family that is none
    V2 + bytes([0x21, 0x11, 0, 8]) + bytes(8),  # too short for two IPv4 addresses
    V2 + bytes([0x21, 0x11, 0xFF, 0xFF]),  # 65535 bytes of TLVs
    header("203.0.113.9")[:20],  # cut short, then the connection ends
])
async def test_a_garbage_header_from_the_balancer_is_dropped_before_a_byte_is_sent(
    tmp_path: Path, relay: Relay, garbage: bytes,
) -> None:
    table = await proxied_table(tmp_path, relay, "127.0.0.1")
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        writer.write(garbage)
        writer.write_eof()
        try:
            got = await asyncio.wait_for(reader.read(), 15)
        except ConnectionResetError:  # closed with what it sent unread
            got = b""
        assert got == b""  # closed without the SSH version line: nothing was served
        assert not table.doors
        writer.close()
    finally:
        await table.stop()


async def test_the_balancers_header_names_whom_the_limits_count(
    tmp_path: Path, relay: Relay,
) -> None:
    """Through the balancer, two clients are two addresses, each with its own per-address
    caps: the third connection of 203.0.113.9 is refused while 198.51.100.7 still gets in."""
    table = await proxied_table(tmp_path, relay, "127.0.0.1/32", per_address=2)
    writers = []
    try:
        for _ in range(2):
            reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
            writer.write(header("203.0.113.9"))
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
            writers.append(writer)
        await until(lambda: len(table.doors) == 2, "two connections at the door")
        assert {d.visitor.addr for d in table.doors} == {"203.0.113.9"}
        refused = await raw(table.port, header("203.0.113.9") + b"SSH-2.0-x\r\n")
        assert b"from address 203.0.113.9: at most 2 at once" in refused, refused
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        writer.write(header("198.51.100.7"))
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        writers.append(writer)
        await until(lambda: len(table.doors) == 3, "the other client at the door")
        # A LOCAL header (the balancer's own health check) counts as the balancer.
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        writer.write(V2 + bytes([0x20, 0x00, 0, 0]))
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        writers.append(writer)
        await until(lambda: addresses.LOOPBACK in {d.group for d in table.doors}, "the check")
    finally:
        for writer in writers:
            writer.close()
        await table.stop()


async def test_through_the_balancer_a_stalling_client_is_refused_and_its_checks_never_are(
    tmp_path: Path, relay: Relay,
) -> None:
    """Penalties count the client the balancer's header names: 203.0.113.9 holds three logins
    that never begin their key exchange until the table closes them (each costs at least a
    second: 3 s owed, more than the 2.5 s it may), and is then refused at
    the door; the balancer's own health checks (a LOCAL header, the version line, gone) come
    by the dozen and never get the balancer refused; 198.51.100.7 is let in throughout."""
    table = await proxied_table(tmp_path, relay, "127.0.0.1/32", hello_timeout=0.3,
                                penalty_after=2.5)
    try:
        for _ in range(10):  # health checks: each leaves without logging in
            said = await raw(table.port, V2 + bytes([0x20, 0x00, 0, 0]) + b"SSH-2.0-check\r\n")
            assert said.startswith(b"SSH-2.0-")
        stalled = await asyncio.gather(*(raw(table.port, header("203.0.113.9"))
                                         for _ in range(3)))
        assert all(b"no key exchange within 0.3 s" in said for said in stalled), stalled
        await until(lambda: not table.doors, "the stalled logins gone")
        refused = await raw(table.port, header("203.0.113.9") + b"SSH-2.0-x\r\n")
        assert b"too many logins from address 203.0.113.9 stalled or failed" in refused, refused
        assert not table.penalties.refused("127.0.0.1")
        check = await raw(table.port, V2 + bytes([0x20, 0x00, 0, 0]) + b"SSH-2.0-check\r\n")
        assert check.startswith(b"SSH-2.0-") and b"stalled" not in check
        sock = socket.create_connection(("127.0.0.1", table.port))
        sock.sendall(header("198.51.100.7"))
        conn = await asyncssh.connect(sock=sock, username="bob", known_hosts=None, config=None,
                                      agent_path=None, client_keys=None, password="x",
                                      preferred_auth="keyboard-interactive")
        conn.close()
    finally:
        await table.stop()


def test_the_shipped_section_is_what_haproxy_reads(tmp_path: Path) -> None:
    assert HAPROXY is not None
    cfg = tmp_path / "check.cfg"
    cfg.write_text(local_config([2222, 2223], free_port(), tmp_path / "s.sock"))
    done = subprocess.run([HAPROXY, "-c", "-f", str(cfg)], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "send-proxy-v2" in cfg.read_text()


def test_a_players_settings_are_the_same_through_every_machine_of_the_table(
    postgres: Server, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Settings follow an SSH player from one machine of a table to another (each with a
    config directory of its own), are another player's nobody else's, and without a table
    stay in the machine's file."""
    from tui import prefs

    monkeypatch.setenv(ladder.TABLE_ENV, postgres.database())
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")
    monkeypatch.setenv("TABLETOP_TUI_CONFIG", str(tmp_path / "node-a"))
    prefs.update(theme="night", bot_level="expert", name="Ada")
    monkeypatch.setenv("TABLETOP_TUI_CONFIG", str(tmp_path / "node-b"))
    there = prefs.load()
    assert (there.theme, there.bot_level, there.name) == ("night", "expert", "Ada")
    monkeypatch.setenv(tokens.OWNER_ENV, "key-eve")  # another player: the defaults
    assert prefs.load() == prefs.Prefs()
    monkeypatch.delenv(tokens.OWNER_ENV)  # no table: node b's own (empty) file
    assert prefs.load() == prefs.Prefs()
    monkeypatch.setenv(tokens.OWNER_ENV, "key-ada")  # the database away: the file stands in
    monkeypatch.setenv(ladder.TABLE_ENV, f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    monkeypatch.setenv("TABLETOP_TUI_CONFIG", str(tmp_path / "node-a"))
    assert prefs.load().theme == "night"
