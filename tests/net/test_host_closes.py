"""A host who closes the room mid-game: its leaving is its loss (last, with the leaver's
penalty); every guest's place stands as the game stood, on the host's ladder, each guest's
and the table's alike; a host who closes while losing gains nothing, and cannot make a guest
lose; nobody but the host can write its close (docs/records.md, "What counts for a rating")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from netsupport import TIMEOUT, Player
from test_ratings import lines, open_room

from engines import get_engine
from net import records
from net.host import closing as host_closing
from net.host.authority import NetHost
from net.players import closing, identity, ladder, ratings
from net.players.counted import RESUME_SECONDS, Outcome, SeatOutcome, Unrated, outcome
from net.players.store import Change, Ladders
from net.relay.server import Relay

# The host closes once this many moves were made.
CLOSE_AT = 8


async def started(host: NetHost, at: int = CLOSE_AT) -> None:
    """Deal, and let everybody play until `at` moves were made."""
    host.start()
    async with asyncio.timeout(TIMEOUT):
        while host.session is None or len(host.session.moves) < at:
            await asyncio.sleep(0.005)


async def close_mid_game(host: NetHost, me: Player, *guests: Player,
                         at: int = CLOSE_AT) -> int:
    """Start, let everybody play until `at` moves were made, then the host closes the room:
    the state it closed at."""
    try:
        await started(host, at)
        me.play = False  # the host's hand leaves the table
        closed_at = len(host.session.moves)
        await host.close()
        async with asyncio.timeout(TIMEOUT):  # each guest kept the game it was shown
            for guest in guests:
                while guest.link.host_closed is None:  # type: ignore[attr-defined]
                    await asyncio.sleep(0.005)
        return closed_at
    finally:
        for guest in guests:
            await guest.link.close()  # type: ignore[attr-defined]


def home(where: Path) -> Ladders:
    """A player's own ladder at home, in a folder of its own."""
    return ladder.open_store(where)


def counted_into(store: Ladders, path: Path) -> list[Change]:
    try:
        found = ladder.count(store, path)
    finally:
        store.close()
    assert found.refused is None, found.refused
    return found.changes


def end_of(path: Path) -> dict[str, object]:
    end = json.loads(lines(path)[-1])
    assert isinstance(end, dict)
    return end


async def test_the_host_who_closes_is_last_and_the_guests_stand_as_the_game_stood_everywhere(
        relay: Relay, tmp_path: Path) -> None:
    host, me, (pia, per) = await open_room(relay)
    closed_at = await close_mid_game(host, me, pia, per)
    assert closed_at >= CLOSE_AT
    host_path = host.record_path
    guest_paths = [pia.link.record_path, per.link.record_path]  # type: ignore[attr-defined]
    assert host_path is not None and all(guest_paths)
    for guest in (pia, per):
        check = guest.link.host_closed  # type: ignore[attr-defined]
        assert check["verified"], check
        assert any(m["type"] == "notice" and m.get("closed") is True for m in guest.messages)
    for path in (host_path, *guest_paths):
        end = end_of(path)  # type: ignore[arg-type]
        assert end["left"] == [0] and "result" not in end
        assert end["closed"]["state"] == closed_at and end["closed"]["seat"] == 0  # type: ignore[index]
        assert len(records.load(path).moves) == closed_at  # type: ignore[arg-type]
    # How the game stood when the host closed: the guests keep those places, the host is last.
    replay = records.Replay(records.load(host_path))
    stood = closing.stood(get_engine("schoene"), replay.states[-1])
    # Three homes, each its own ladder: each counts the game from its own record alike.
    found = [counted_into(home(tmp_path / f"{who}.sqlite"), path)  # type: ignore[arg-type]
             for who, path in (("hana", host_path), ("pia", guest_paths[0]),
                               ("per", guest_paths[1]))]
    assert found[0] == found[1] == found[2]
    hana, pia_seat, per_seat = found[0]
    assert hana.left  # last whatever its place: the rating ranks a leaver behind everybody
    assert [pia_seat.place, per_seat.place] == stood[1:]
    assert not pia_seat.left and not per_seat.left
    assert hana.after.mu == pytest.approx(hana.before.mu - ratings.LEFT_PENALTY)  # new faces
    # The table's store, given all three records, counts the game once.
    table = home(tmp_path / "table.sqlite")
    try:
        for path in (host_path, *guest_paths):
            ladder.count(table, path)  # type: ignore[arg-type]
        assert [s.games for s in table.ladder("schoene")] == [1, 1, 1]
    finally:
        table.close()


def establish(store: Ladders, idents: list[str]) -> None:
    """Give each of `idents` the ten games against the strong bot that make a rating
    established (so a result against them counts in full), losing and winning in turn."""
    for n in range(ratings.PROVISIONAL_GAMES):
        for i, ident in enumerate(idents):
            won = (n + i) % 2 == 0
            store.add_game(Outcome(f"warm-{ident}-{n}", "schoene", float(n), (
                SeatOutcome(ident, ident[-4:], 1 if won else 2, False),
                SeatOutcome("bot:strong", "Bot", 2 if won else 1, False))))


async def test_a_host_who_closes_while_losing_gains_nothing(relay: Relay, tmp_path: Path) -> None:
    """The host closes its room mid-game, standing wherever it stands (last, to save the
    loss, or first): on each guest's ladder it loses what the game lost to the end in last
    place would cost it, and the penalty on top; each guest gets just what its place as the
    game stood gives it, as if the host had played on and lost."""
    host, me, (pia, per) = await open_room(relay)
    closed_at = await close_mid_game(host, me, pia, per)
    assert closed_at >= CLOSE_AT
    mine = identity.mine()
    assert mine is not None
    idents = [mine.fingerprint, *(g.link.deal.identity.fingerprint  # type: ignore[attr-defined]
                                  for g in (pia, per))]
    path = pia.link.record_path  # type: ignore[attr-defined]
    found = outcome(records.load(path))
    last = max(s.place for s in found.seats[1:]) + 1
    honest = Outcome("honest", found.engine, found.started, tuple(
        SeatOutcome(s.ident, s.name, last if i == 0 else s.place, False)
        for i, s in enumerate(found.seats)))  # the same places, the host losing to the end
    results = {}
    for name, game in (("closed", found), ("honest", honest)):
        store = home(tmp_path / f"{name}.sqlite")
        try:
            establish(store, idents)
            results[name] = store.add_game(game)
        finally:
            store.close()
    closed, lost = results["closed"][0], results["honest"][0]
    assert closed.after.mu == pytest.approx(lost.after.mu - ratings.LEFT_PENALTY)
    assert closed.after.rating < lost.after.rating < closed.before.rating
    for guest in (1, 2):  # a guest neither gains nor loses by the host's closing
        assert results["closed"][guest].after == results["honest"][guest].after


async def test_a_host_cannot_close_a_guest_out_of_the_game(
        relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modified host names its guests among those who left when it closes: each guest,
    at its seat when the close came, refuses the reveal (`left_me`), and its record counts
    for nobody, least of all against its own player."""
    monkeypatch.setattr(host_closing, "left_seats", lambda dealt, seats: [1, 2])
    host, me, (pia, per) = await open_room(relay)
    await close_mid_game(host, me, pia, per)
    assert host.dealer.left == [0, 1, 2]
    for guest in (pia, per):
        check = guest.link.host_closed  # type: ignore[attr-defined]
        assert not check["verified"] and check["verify_code"] == "left_me"
        path = guest.link.record_path  # type: ignore[attr-defined]
        with pytest.raises(Unrated) as refused:
            outcome(records.load(path))
        assert refused.value.code == "unverified"


async def test_nobody_but_the_host_can_write_its_close(relay: Relay) -> None:
    """A guest holds the whole deal once a game ends: it could cut the game short and say the
    host closed there. The close is the host's signature on the state and who left: cut,
    moved or signed by another key, the record counts for nobody."""
    host, me, (pia,) = await open_room(relay, ("Pia",))
    await close_mid_game(host, me, pia)
    path = pia.link.record_path  # type: ignore[attr-defined]
    text = lines(path)
    end = json.loads(text[-1])
    someone = identity.Identity(identity.Ed25519PrivateKey.generate())
    game_id = records.load(path).header["game_id"]
    closed = end["closed"]

    def ending(**fields: object) -> list[str]:
        return [*text[:-1], json.dumps({**end, **fields})]

    forged = [
        ("a move fewer", [*text[:-2], text[-1]]),
        ("another state", ending(closed={**closed, "state": closed["state"] - 1})),
        ("a guest's key", ending(closed={
            **closed, "sig": closing.sign(someone, game_id, closed["state"], [0])})),
        ("the guest named", ending(closed={**closed, "seat": 1}, left=[0, 1], away=True)),
        ("no host in left", ending(left=[])),
    ]
    for what, altered in forged:
        path.write_text("\n".join(altered) + "\n", encoding="utf-8")
        with pytest.raises(Unrated) as refused:
            outcome(records.load(path))
        assert refused.value.code in ("closed", "damaged"), what
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert outcome(records.load(path)).seats[0].left  # the host's own close still counts


async def test_a_guests_own_host_closing_counts_in_its_store_as_it_plays(
        relay: Relay, tmp_path: Path) -> None:
    """A guest's app counts the closed game into its ladder when it looks at its records
    (`catch_up`), with nobody's word but the host's signed close and its own replay."""
    host, me, (pia,) = await open_room(relay, ("Pia",))
    await close_mid_game(host, me, pia)
    store = home(tmp_path / "pia.sqlite")
    try:
        assert ladder.catch_up(store) == 2  # the host's record and Pia's, the same game
        rows = {row.ident: row for row in store.ladder("schoene")}
    finally:
        store.close()
    pia_ident = pia.link.deal.identity.fingerprint  # type: ignore[attr-defined]
    mine = identity.mine()
    assert mine is not None
    assert rows[mine.fingerprint].games == rows[pia_ident].games == 1
    assert rows[mine.fingerprint].skill.mu < rows[pia_ident].skill.mu


async def test_a_room_closed_before_the_first_move_reveals_nothing(relay: Relay) -> None:
    """A game not begun costs nobody anything: the room closes as it always did, nothing is
    revealed, and the host's record stays open for `host --resume`."""
    host, me, (pia, per) = await open_room(relay)  # people alone: nobody moves unasked
    me.play = pia.play = per.play = False
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        await host.close()
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "closed")
    finally:
        for guest in (pia, per):
            await guest.link.close()  # type: ignore[attr-defined]
    assert pia.link.host_closed is None  # type: ignore[attr-defined]
    assert not any(m.get("reveal") for m in pia.messages)
    path = host.record_path
    assert path is not None and not records.load(path).over


async def test_a_host_that_closes_on_an_earlier_state_is_refused_by_its_guests(
        relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modified host closes and reveals the game two moves short, signed as such (the game
    stood better for it there): each guest saw those moves, refuses the reveal (`short`), and
    its record counts for nobody; the guest loses nothing."""
    from net.host.dealer import Dealer

    honest = Dealer.reveal

    def rolled_back(self: Dealer, session: object) -> dict[str, object] | None:
        reveal = honest(self, session)  # type: ignore[arg-type]
        if reveal is None or "closed" not in reveal:
            return reveal
        record = reveal["record"]
        assert isinstance(record, dict) and self.commitment is not None
        moves = record["moves"][:-2]
        me = identity.mine()
        assert me is not None
        left = list(reveal["left"])  # type: ignore[call-overload]
        signed = closing.sign(me, self.commitment, len(moves), left)
        return {**reveal, "record": {**record, "moves": moves},
                "closed": {**reveal["closed"], "state": len(moves), "sig": signed}}  # type: ignore[dict-item]

    monkeypatch.setattr(Dealer, "reveal", rolled_back)
    host, me, (pia,) = await open_room(relay, ("Pia",))
    await close_mid_game(host, me, pia)
    check = pia.link.host_closed  # type: ignore[attr-defined]
    assert not check["verified"] and check["verify_code"] == "short"
    with pytest.raises(Unrated) as refused:
        outcome(records.load(pia.link.record_path))  # type: ignore[attr-defined]
    assert refused.value.code == "unverified"


async def test_a_host_whose_app_dies_and_never_comes_back_has_left_a_day_later(
        relay: Relay) -> None:
    """The host's app dies mid-game (no close, nothing revealed) and its game is not taken
    up again: a day after its start, the host's own record counts it as the host's leaving
    and the others as the game stood. The guest's record, which never got the seed, counts
    for nobody."""
    host, me, (pia,) = await open_room(relay, ("Pia",))
    try:
        await started(host)
        me.play = pia.play = False
        await host.crash()
    finally:
        await pia.link.close()  # type: ignore[attr-defined]
    path = host.record_path
    assert path is not None
    record = records.load(path)
    assert not record.over and len(record.moves) >= CLOSE_AT
    with pytest.raises(Unrated) as waiting:
        outcome(record, now=record.started + 60)
    assert waiting.value.code == "pending"  # `host --resume` may take it up meanwhile
    found = outcome(record, now=record.started + RESUME_SECONDS + 1)
    stood = closing.stood(get_engine("schoene"), records.Replay(record).states[-1])
    assert found.seats[0].left and [s.left for s in found.seats[1:]] == [False, False]
    assert [s.place for s in found.seats[1:]] == stood[1:]
    with pytest.raises(Unrated) as guests:
        outcome(records.load(pia.link.record_path))  # type: ignore[attr-defined]
    assert guests.value.code == "unfinished"


async def test_nothing_moves_once_the_host_closed(relay: Relay) -> None:
    """Between the close and the room's end a guest's move may still arrive, and a bot or a
    clock may be due: none is applied, so the game stays where the host signed it."""
    host, me, (pia,) = await open_room(relay, ("Pia",))  # seat 2: the host's bot
    try:
        await started(host)
        me.play = pia.play = False
        assert host_closing.close_mid_game(host)
        session = host.session
        made = len(session.moves)
        for seat in (0, 1, 2):  # whoever may move now, as a person at that seat would
            legal = session.engine.legal_moves(session.state, seat)
            if not legal:
                continue
            if seat == 0:
                host.local_move(0, legal[0], session.state_no)
            elif seat == 1:
                await pia.link.send_move(1, legal[0], session.state_no)  # type: ignore[attr-defined]
                await pia.link.echo()  # type: ignore[attr-defined]
        await asyncio.sleep(0.2)  # the bot's moment, had it one
        assert len(session.moves) == made
    finally:
        await pia.link.close()  # type: ignore[attr-defined]
        await host.close()
