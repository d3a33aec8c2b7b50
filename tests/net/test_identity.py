"""Identities without accounts: a key made on first start, a proof signed for each game, and
records that anyone can check for who sat where, over real sockets on 127.0.0.1. A host that
names someone else in a seat is caught by every peer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_net_game import finish, open_table

from net import records
from net.host.dealer import Dealer
from net.players import identity
from net.relay.server import Relay
from net.ssh.access import Visitor
from net.table.session import HostSession, SeatInfo


def test_an_installation_makes_its_key_once_and_keeps_it_private(private_dirs: Path) -> None:
    first = identity.mine()
    assert first is not None and first.fingerprint.startswith("id:")
    path = private_dirs / "home" / identity.KEY_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    again = identity.mine()
    assert again is not None and again.public == first.public


def test_a_keyless_session_has_no_identity(private_dirs: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(identity.UNRATED_ENV, "1")
    assert identity.mine() is None
    assert not (private_dirs / "home" / identity.KEY_FILE).exists()


def test_a_proof_names_one_seat_of_one_game_and_nothing_else(private_dirs: Path) -> None:
    me = identity.mine()
    assert me is not None
    entry = {"name": "Pia", **me.prove("commit-1", 1, "Pia")}
    assert identity.proven(entry, "commit-1", 1) == me.fingerprint
    assert identity.proven(entry, "commit-2", 1) is None  # another game
    assert identity.proven(entry, "commit-1", 2) is None  # another seat
    assert identity.proven({**entry, "name": "Eve"}, "commit-1", 1) is None  # another name
    other = identity.Identity(identity.Ed25519PrivateKey.generate())
    assert identity.proven({**entry, "key": other.public.hex()}, "commit-1", 1) is None
    assert identity.proven({"name": "Bot 3", "bot": "expert"}, "commit-1", 2) == "bot:expert"


def test_a_keyless_ssh_player_plays_unrated() -> None:
    from net.ssh.limits import SshLimits
    from net.ssh.server import SshConfig, SshTable

    table = SshTable(SshConfig(port=0, limits=SshLimits()), "ws://127.0.0.1:1")  # not started
    env = table.child_env(Visitor(addr="127.0.0.1", username="ada"), "xterm", {})
    assert env[identity.UNRATED_ENV] == "1"


async def test_every_seat_of_a_networked_game_is_proven_and_the_records_say_so(
    relay: Relay,
) -> None:
    host, me, (pia, per) = await open_table(relay, seed=4, fixed=False)
    try:
        host.start()
        await finish(me, pia, per)
    finally:
        await pia.link.close()
        await per.link.close()
        await host.close()
    session = host.session
    assert session is not None and session.game_id == host.commitment
    keys = {p.link.seat: p.link.deal.identity.fingerprint for p in (pia, per)}  # type: ignore
    for peer in (pia, per):
        proven = peer.link.deal.proven  # type: ignore[attr-defined]
        assert proven[1] == keys[1] and proven[2] == keys[2]
        assert proven[0] is not None and proven[0].startswith("id:")  # the host's own seat
    # Both records name every seat by name and identity, checkable without anybody's word.
    for path in (host.record_path, pia.link.record_path):  # type: ignore[attr-defined]
        assert path is not None
        record = records.load(path)
        game_id = record.header["game_id"]
        assert game_id == host.commitment
        found = [identity.proven(p, game_id, i) for i, p in enumerate(record.players)]
        assert found[1:] == [keys[1], keys[2]]


class Impostor(Dealer):
    """A host that names somebody else in Pia's seat (say, a strong player it wants to beat)."""

    def _deal(self, got: dict[int, str]) -> None:
        someone = identity.Identity(identity.Ed25519PrivateKey.generate())
        seat = self.host.seats[1]
        stolen = someone.prove("another game", 1, seat.name)
        seat.proof = {**stolen, "ident": someone.fingerprint}
        super()._deal(got)


async def test_a_host_that_names_someone_else_in_a_seat_is_caught(relay: Relay) -> None:
    host, me, (pia, per) = await open_table(relay, seed=4, fixed=False)
    host.dealer = Impostor(host)
    try:
        host.start()
        await finish(me, pia, per)
    finally:
        await pia.link.close()
        await per.link.close()
        await host.close()
    for peer in (pia, per):
        assert peer.link.deal.proven[1] is None  # type: ignore[attr-defined]
        notices = [m["text"] for m in peer.of("notice")]
        assert any("not proven" in text and "Pia" in text for text in notices), notices


async def test_a_local_game_with_one_person_proves_them_and_a_shared_keyboard_does_not(
    private_dirs: Path,
) -> None:
    from tui.app import local_app
    from tui.screens.game import GameScreen

    me = identity.mine()
    assert me is not None
    for humans, proven in ((1, me.fingerprint), (2, None)):
        app = local_app("schoene", humans, 3 - humans, "random", seed=5, lang="en")
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            session: HostSession = screen.link.session  # type: ignore[attr-defined]
            entry = session.players()[0]
            assert identity.proven(entry, session.game_id, 0) == proven
        latest = max((private_dirs / "home" / "games").glob("*.jsonl"), key=os.path.getmtime)
        assert records.load(latest).players[0].get("ident") == proven


def test_players_in_a_record_keep_their_identity_through_a_replay() -> None:
    seats = [SeatInfo("Ann", ident="id:X", key="00", sig="11"), SeatInfo("Bo", bot="random")]
    session = HostSession("schoene", [*seats, SeatInfo("Cy", bot="random")], 3)
    again = HostSession.from_record(session.record())
    assert again.players() == session.players() and again.game_id == session.game_id

