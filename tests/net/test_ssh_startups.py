"""The SSH table's slots for logins in progress, played by an attacker who holds them from
several addresses (127.0.0.2 and up: all of 127.0.0.0/8 is this machine), over real sockets:
newcomers are turned away at random between a start and a full mark, not all at once (the
dice are loaded from a seed, so each test knows which of them the table turns away); a
client that never begins its key exchange loses its slot within seconds; an address whose
logins keep stalling is refused for a while that grows, and everyone else still gets in."""

from __future__ import annotations

import asyncio
import random

import asyncssh
from ssh_support import OpenTable, connect, exact, stalled_login, until

from net.ssh.penalties import LEAST_CHARGE, Penalties
from net.ssh.server import SshTable


class Dice:
    """The table's dice for turning newcomers away at random, from a seed; every throw kept."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.thrown: list[float] = []

    def __call__(self) -> float:
        self.thrown.append(self.rng.random())
        return self.thrown[-1]


async def newcomer(table: SshTable) -> bytes | None:
    """An honest player from 127.0.0.99: the line the door turned them away with, or None
    once they got past it (a session without a terminal: refused by the table, not the door)."""
    try:
        player = await connect(table.port, "ada", pty=False, source="127.0.0.99")
    except asyncssh.DisconnectError as exc:
        return exc.reason.encode()
    except (asyncssh.ConnectionLost, ConnectionError):  # closed before the reason was read
        return b"closed"
    await player.wait_closed()
    assert b"needs a terminal" in player.stderr
    return None


async def test_slots_held_from_several_addresses_turn_newcomers_away_at_random_not_all(
    open_table: OpenTable,
) -> None:
    """Start 4, full 8, 30 %: two attacker addresses hold their three slots each (the most
    an address may); with 6 held a newcomer is turned away with a chance of 65 %, so the
    seeded dice turn the first two away and let the third in."""
    table = await open_table(max_startups=8, startups_begin=4, startups_rate=30)
    table.group = exact
    dice = table.draw = Dice(2)
    held = []
    try:
        for source in ("127.0.0.2", "127.0.0.3"):
            while sum(d.visitor.addr == source for d in table.doors) < 3:
                held.append(await stalled_login(table.port, source))
        chance = table.limits.turn_away_chance(6)
        assert chance == 0.65
        thrown = len(dice.thrown)
        tries = []
        while not tries or tries[-1] is not None:
            tries.append(await newcomer(table))
        throws = dice.thrown[thrown:]
        assert len(throws) == len(tries) and throws[-1] >= chance
        assert all(throw < chance for throw in throws[:-1]) and len(tries) == 3
        assert all(b"many logins in progress; try again in a moment" in said or said == b"closed"
                   for said in tries[:-1])
        # At the full mark nobody gets in whatever the dice say.
        assert table.limits.turn_away_chance(8) == 1.0
        assert table.limits.turn_away_chance(3) == 0.0
    finally:
        for _, writer in held:
            writer.close()


async def test_a_client_that_never_begins_its_key_exchange_loses_its_slot(
    open_table: OpenTable,
) -> None:
    """Four raw sockets from two addresses take every slot (full 4) and say nothing after the
    table's version line; the table closes them after the short timeout, and a newcomer who
    was turned away while they held gets in."""
    table = await open_table(max_startups=4, hello_timeout=0.5)
    table.group = exact
    held = [await stalled_login(table.port, source)
            for source in ("127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3")]
    try:
        assert b"too many logins in progress" in (await newcomer(table) or b"")
        for reader, _ in held:  # closed by the table, with the reason
            said = await asyncio.wait_for(reader.read(), 10)
            assert b"no key exchange within 0.5 s" in said
        await until(lambda: not table.doors, "the slots free")
        assert await newcomer(table) is None
    finally:
        for _, writer in held:
            writer.close()


async def cycle(table: SshTable, source: str, hold: float) -> None:
    """An attacker's round from `source`: three slots held `hold` seconds, then given up
    before any timeout (so that the table never closes them itself)."""
    held = [await stalled_login(table.port, source) for _ in range(3)]
    await asyncio.sleep(hold)
    for _, writer in held:
        writer.close()
    await until(lambda: not any(d.visitor.addr == source for d in table.doors), "closed")


async def test_an_address_that_keeps_holding_slots_is_refused_and_others_get_in(
    open_table: OpenTable,
) -> None:
    """An attacker who closes his stalled logins himself before any timeout, and opens the
    next, still pays the seconds he held them: once he owes more than the start of the
    penalty, his address is turned away at the door while a newcomer from elsewhere walks
    in."""
    table = await open_table(penalty_after=2.5, penalty_most=60.0)
    table.group = exact
    await cycle(table, "127.0.0.2", 1.0)  # 3 x 1 s: more than the 2.5 s he may owe
    assert table.penalties.refused("127.0.0.2") > 0
    reader, writer = await stalled_login(table.port, "127.0.0.2")
    said = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert b"too many logins from address 127.0.0.2 stalled or failed: it is refused for " \
        b"another" in said and b"try again later" in said
    assert not table.doors  # turned away, never counted
    assert await newcomer(table) is None
    # The newcomer's quick login cost his address nothing.
    assert not table.penalties.refused("127.0.0.99")


async def test_wrong_keys_again_and_again_get_an_address_refused(
    open_table: OpenTable, tmp_path: object,
) -> None:
    """A table closed to a keys file: every connection that tries a wrong key and leaves owes
    the failed login's charge, so an address that keeps failing is refused."""
    from net.ssh.access import Access

    allowed = asyncssh.generate_private_key("ssh-ed25519")
    wrong = asyncssh.generate_private_key("ssh-ed25519")
    keys = asyncssh.import_authorized_keys(allowed.export_public_key().decode())
    table = await open_table(Access(keys=keys), penalty_after=12.0)
    table.group = exact
    failed = 0
    while not table.penalties.refused("127.0.0.2"):
        try:
            await asyncssh.connect("127.0.0.1", table.port, username="eve", known_hosts=None,
                                   config=None, agent_path=None, client_keys=[wrong],
                                   local_addr=("127.0.0.2", 0))
        except asyncssh.PermissionDenied:
            failed += 1
        await until(lambda: not table.doors, "the failed login gone")
        assert failed <= 3
    assert failed == 3  # 5 s and a little for each: the third is over the 12 s
    try:
        await asyncssh.connect("127.0.0.1", table.port, username="eve", known_hosts=None,
                               config=None, agent_path=None, client_keys=[allowed],
                               local_addr=("127.0.0.2", 0))
        raise AssertionError("a penalised address got in")
    except asyncssh.DisconnectError as exc:
        assert "stalled or failed" in exc.reason
    except (asyncssh.ConnectionLost, ConnectionError):
        pass
    # Another address with the right key is in.
    conn = await asyncssh.connect("127.0.0.1", table.port, username="ada", known_hosts=None,
                                  config=None, agent_path=None, client_keys=[allowed],
                                  local_addr=("127.0.0.3", 0))
    conn.close()


def test_each_refusal_makes_the_next_one_longer_up_to_the_most() -> None:
    now = [0.0]
    penalties = Penalties(after=30.0, most=600.0, clock=lambda: now[0])
    assert not penalties.charge("192.0.2.7", 20.0)  # one stall: less than it may owe
    assert penalties.refused("192.0.2.7") == 0
    now[0] = 15.0  # 5 s still owed
    assert penalties.charge("192.0.2.7", 30.0) == 35.0  # refused for what it owes
    assert penalties.refused("192.0.2.7") == 35.0
    now[0] = 60.0  # paid off: in again, but its next stalls cost twice as much
    assert penalties.refused("192.0.2.7") == 0
    assert penalties.charge("192.0.2.7", 20.0) == 40.0
    now[0] = 100.0
    assert penalties.charge("192.0.2.7", 20.0) == 80.0  # four times
    now[0] = 180.0
    assert penalties.charge("192.0.2.7", 200.0) == 600.0  # never more than the most
    # Others are untouched, and an hour after its last refusal an address starts afresh.
    assert penalties.refused("192.0.2.8") == 0
    now[0] = 180.0 + 3601.0
    assert penalties.charge("192.0.2.7", 20.0) == 0
    assert penalties.charge("192.0.2.7", 10.0) == 30.0
    # Even a quick failure costs something, and a table with no penalty refuses nobody.
    assert penalties.charge("192.0.2.9", 0.0) == 0 and LEAST_CHARGE > 0
    off = Penalties(after=1.0, most=0.0, clock=lambda: now[0])
    assert not off.charge("192.0.2.7", 1000.0) and not off.refused("192.0.2.7")
