"""The table as the host of games over days (net.days.table), on both stores: games opened,
seats taken by invitation and from the open list, moves checked by the engine and appended
once per state, the cap, the clock over days with a fake clock, vacation, standing orders,
and the finished game's record verified and counted for the ladder."""

from __future__ import annotations

import asyncio
import json

import pytest
from days_support import (
    DAY,
    START,
    FakeClock,
    days_store,
    nookie_options,
    play_out,
    two_seated,
)
from netsupport import someone

from engines import IllegalMove
from net import records
from net.days import clock, people, table
from net.days.keeper import DaysKeeper
from net.days.store import OPEN, OVER, PLAYING
from net.days.table import DaysError, SeatPlan
from net.players import counted
from net.table.session import StaleMove

ME, BOT = SeatPlan("me"), SeatPlan("bot", "strong")


def test_a_game_over_days_is_played_to_its_end_rated_and_its_record_verifies(
        store_at: str) -> None:
    ann, bob = someone(), someone()
    store = days_store(store_at)
    try:
        game = table.open_game(store, "schoene", [ME, SeatPlan("invite", "bob"), BOT], ann,
                               "Ann", START, days=1)
        assert game.status == OPEN
        # Bob finds the invitation under his name, whatever its case, and takes the seat.
        assert [g.id for g in store.invited(bob.fingerprint, "Bob")] == [game.id]
        assert store.invited(someone().fingerprint, "Cy") == []
        game = table.take_seat(store, game.id, None, bob, "Bob", START)
        assert game.status == PLAYING and game.to_act
        mine = store.games_of(bob.fingerprint)
        assert [(g.id, g.mine) for g in mine] == [(game.id, [1])]
        game = play_out(store, game, START, {ann.fingerprint: ann, bob.fingerprint: bob})
        assert game.status == OVER and game.result is not None
        assert any(by == table.BY_BOT for _s, _m, by in game.moves)
        record = records.parse(game.record or "")
        found = counted.outcome(record)  # the deal and every seat's proof check out
        assert {s.ident for s in found.seats} == {ann.fingerprint, bob.fingerprint, "bot:strong"}
        assert [s.ident for s in store.db.ladder("schoene")]  # counted into the table's ladder
        assert len(store.db.changes(found.key)) == 3
        # The finished game as Bob keeps it: his seat his own, the replay the same.
        own = records.parse(table.own_record(game, bob.fingerprint) or "")
        assert own.own_seats() == [1]
        assert records.Replay(own).over
    finally:
        store.close()


def test_a_move_is_applied_once_per_state_whichever_node_sends_it(store_at: str) -> None:
    """Two nodes of one table (two connections to the store) send a move made on the same
    state: the first is applied, the second is refused as stale, and nothing is doubled."""
    ann, bob = someone(), someone()
    one, two = days_store(store_at), days_store(store_at)
    try:
        game = table.open_game(one, "schoko", [ME, SeatPlan("open")], ann, "Ann", START)
        assert [g.id for g in two.listed()] == [game.id]
        game = table.take_seat(two, game.id, 1, bob, "Bob", START)
        seat = game.to_act[0]
        ident = game.seats[seat].ident or ""
        session = table.session_of(game)
        move = session.engine.legal_moves(session.state, seat)[0]
        table.play(one, game.id, ident, seat, move, game.state_no, START + 60)
        with pytest.raises(StaleMove):
            table.play(two, game.id, ident, seat, move, game.state_no, START + 61)
        assert two.state_no(game.id) == 1
        again = two.load(game.id)
        assert again is not None and len(again.moves) == 1
        # Attackers: a seat that is not yours, a move the rules forbid, a game not there.
        other = 1 - seat
        with pytest.raises(DaysError, match="not yours"):
            table.play(one, game.id, ident, other, move, 1, START + 62)
        turn = again.to_act[0]
        with pytest.raises(IllegalMove):
            table.play(one, game.id, again.seats[turn].ident or "", turn,
                       {"type": "teleport"}, 1, START + 63)
        with pytest.raises(DaysError, match="no such game"):
            table.play(one, "nope", ident, seat, move, 1, START)
        assert two.state_no(game.id) == 1
    finally:
        one.close()
        two.close()


def test_seats_are_taken_only_by_whom_they_wait_for(store_at: str) -> None:
    ann, bob, eve = someone(), someone(), someone()
    store = days_store(store_at)
    try:
        game = table.open_game(store, "schoene", [ME, SeatPlan("invite", bob.fingerprint),
                                                  SeatPlan("open")], ann, "Ann", START,
                               listed=False)
        assert store.listed() == []  # not listed: only by invitation and its id
        with pytest.raises(DaysError, match="not free for you"):
            table.take_seat(store, game.id, 1, eve, "Bob", START)  # a name is not his key
        with pytest.raises(DaysError, match="already"):
            table.take_seat(store, game.id, 2, ann, "Ann", START)
        table.take_seat(store, game.id, 1, bob, "Bobby", START)
        table.take_seat(store, game.id, 2, eve, "Eve", START)
        with pytest.raises(DaysError, match="no free seat"):
            table.take_seat(store, game.id, None, someone(), "Cy", START)
    finally:
        store.close()


def test_a_player_is_in_at_most_21_games_plus_one_per_finished_game(store_at: str) -> None:
    ann = someone()
    store = days_store(store_at)
    try:
        for _ in range(table.CAP_BASE):
            table.open_game(store, "schoko", [ME, SeatPlan("open")], ann, "Ann", START)
        with pytest.raises(DaysError, match="21 games"):
            table.open_game(store, "schoko", [ME, SeatPlan("open")], ann, "Ann", START)
        finished = table.open_game(store, "schoko", [ME, BOT], someone(), "Bob", START)
        bob = store.games_of(finished.creator)
        assert bob and bob[0].status == PLAYING
        with store.writing():
            store.rows("UPDATE days_players SET finished = 1 WHERE ident = ?",
                       (ann.fingerprint,))
        table.open_game(store, "schoko", [ME, SeatPlan("open")], ann, "Ann", START)
        assert store.active_count(ann.fingerprint) == table.CAP_BASE + 1
    finally:
        store.close()


def test_a_clock_over_days_runs_out_and_the_strong_bot_plays_the_seat_on(
        store_at: str) -> None:
    ann, bob = someone(), someone()
    by_ident = {ann.fingerprint: ann, bob.fingerprint: bob}
    fake = FakeClock()
    store = days_store(store_at)
    try:
        game = table.open_game(store, "schoko", [ME, SeatPlan("open")], ann, "Ann", fake(),
                               days=2)
        game = table.take_seat(store, game.id, 1, bob, "Bob", fake())
        late = game.to_act[0]
        keeper = DaysKeeper(store_at, now=fake)
        fake.advance(2 * DAY - 60)
        assert keeper.tick().moved == []  # a minute left: nothing happens
        fake.advance(120)
        assert keeper.tick().moved == [game.id]
        after = store.load(game.id)
        assert after is not None and after.seats[late].timed_out == 0
        assert after.moves[0][0] == late and after.moves[0][2] == table.BY_TIMEOUT
        assert after.state_no >= 1 and after.status == PLAYING
        with pytest.raises(DaysError, match="time ran out"):
            table.play(store, game.id, after.seats[late].ident or "", late, {"type": "pass"},
                       after.state_no, fake())
        # The other plays on against the bot in the late seat to the end; the record says
        # from which state the bot played it, and its person counts as having left.
        on_time = after.seats[1 - late].ident or ""
        done = play_out(store, after, fake(), {on_time: by_ident[on_time]})
        record = records.parse(done.record or "")
        assert record.header["out_of_time"] == [[late, 0]]
        outcome = counted.outcome(record)
        assert outcome.seats[late].left and not outcome.seats[1 - late].left
    finally:
        store.close()


def test_a_bank_grows_with_quick_moves_to_its_cap() -> None:
    bank = clock.first_bank(1)
    for _ in range(5):
        bank = clock.after_move(bank, 60, 1)
    assert bank == clock.BANK_MOVES * DAY
    assert clock.after_move(bank, 3 * DAY, 1) == DAY  # overdrawn: a move's days again
    with pytest.raises(ValueError, match="one of 1, 2, 3, 5, 7, 14"):
        clock.check_days(4)


def test_vacation_freezes_every_game_of_a_player_and_resumes(store_at: str) -> None:
    fake = FakeClock()
    store = days_store(store_at)
    try:
        game = table.open_game(store, "schoko", [ME, SeatPlan("open")], someone(), "Ann",
                               fake(), days=1)
        game = table.take_seat(store, game.id, 1, someone(), "Bob", fake())
        away = game.seats[game.to_act[0]]
        ident, name = away.ident or "", away.name
        keeper = DaysKeeper(store_at, now=fake)
        fake.advance(DAY / 2)
        people.go_away(store, ident, name, 3, fake())
        with pytest.raises(DaysError, match="already"):
            people.go_away(store, ident, name, 1, fake())
        fake.advance(2 * DAY)  # long past a day per move: frozen
        assert keeper.tick().moved == []
        people.come_back(store, ident, name, fake())
        player = store.player(ident)
        assert player is not None and player.vacation_used == 2  # one whole day given back
        fake.advance(DAY / 2 - 60)  # the half day left, less a minute
        assert keeper.tick().moved == []
        fake.advance(120)
        assert keeper.tick().moved == [game.id]
        with pytest.raises(DaysError, match="19 days"):
            people.go_away(store, ident, name, 20, fake())
    finally:
        store.close()


def test_standing_orders_answer_a_window_and_the_record_says_so(store_at: str) -> None:
    """Chez Geek: Bob's standing order cancels any Nookie against him; Ann plays Campus
    Nookie and the table cancels it with Bob's Brain Fart at once, no day's wait."""
    ann, bob = someone(), someone()
    store = days_store(store_at)
    try:
        game = table.open_game(store, "chez_geek", [ME, SeatPlan("open")], ann, "Ann", START,
                               options=nookie_options())
        with pytest.raises(DaysError, match="answers one of"):
            table.open_game(store, "chez_geek", [ME, SeatPlan("open")], ann, "Ann", START,
                            orders_of={"answer": "always"})
        game = table.take_seat(store, game.id, 1, bob, "Bob", START)
        with pytest.raises(DaysError, match="no seat"):
            table.set_orders(store, game.id, someone().fingerprint, {"answer": "nookie"})
        table.set_orders(store, game.id, bob.fingerprint, {"answer": "nookie"})
        nookie = {"type": "activity", "card": "schaeferstuendchen_uni"}
        for _ in range(10):
            session = table.session_of(game)
            legal = session.engine.legal_moves(session.state, 0)
            move = nookie if nookie in legal else next(
                m for m in legal if m["type"] in ("end_removals", "end_phase"))
            game = table.play(store, game.id, ann.fingerprint, 0, move, game.state_no, START)
            if move == nookie:
                break
        answered = [(seat, move) for seat, move, by in game.moves if by == table.BY_ORDER]
        assert (1, {"type": "cancel", "card": "hirnfurz"}) in answered
        assert all(seat == 1 for seat, _move in answered)
        assert 0 in game.to_act  # Ann's turn goes on the same day
        assert not table.session_of(game).windows.open
    finally:
        store.close()


def test_the_store_holds_no_game_in_anyones_app_and_a_new_node_replays_it(
        store_at: str) -> None:
    """Every move is in the store as it is answered: a fresh connection (a restarted or
    another node) rebuilds the very same table from the seed's secret and the moves."""
    ann, bob = someone(), someone()
    store = days_store(store_at)
    try:
        game = two_seated(store, "zwergenamulett", ann, bob)
        for _ in range(3):
            seat = game.to_act[0]
            session = table.session_of(game)
            move = session.engine.legal_moves(session.state, seat)[0]
            game = table.play(store, game.id, game.seats[seat].ident or "", seat, move,
                              game.state_no, START)
        view = table.session_of(game).sync(0)
    finally:
        store.close()
    fresh = days_store(store_at)
    try:
        again = fresh.load(game.id)
        assert again is not None
        assert json.dumps(table.session_of(again).sync(0)) == json.dumps(view)
    finally:
        fresh.close()


async def test_a_days_link_sends_each_player_their_own_view_and_nothing_more(
        store_at: str) -> None:
    """The same messages a LocalLink sends, made from the stored game: Bob's link carries
    his seat's view alone (never Ann's hand), a stranger's link the spectator's; a move sent
    for a seat that is not his changes nothing."""
    from net.days.link import DaysLink

    ann, bob = someone(), someone()
    store = days_store(store_at)
    try:
        game = two_seated(store, "zwergenamulett", ann, bob)
        session = table.session_of(game)
        ann_hand = json.dumps(session.engine.view(session.state, 0)["hand"])
    finally:
        store.close()
    heard: dict[str, list[dict]] = {"bob": [], "eve": []}
    links = {"bob": DaysLink(game.id, bob.fingerprint, where=store_at, poll=0.05),
             "eve": DaysLink(game.id, someone().fingerprint, where=store_at, poll=0.05)}
    for name, link in links.items():
        link.set_listener(heard[name].append)
        await link.start()
    try:
        assert links["bob"].seats == [1] and links["eve"].seats == []
        sync = heard["bob"][0]
        assert sync["type"] == "sync" and sync["seat"] == 1
        assert sync["view"] == session.engine.view(session.state, 1)
        assert heard["eve"][0]["seat"] is None and heard["eve"][0]["view"]["hand"] == []
        assert heard["eve"][0]["view"] == session.engine.view(session.state, None)
        await links["bob"].send_move(0, {"type": "pass"}, 0)
        assert heard["bob"][-1] == {"type": "error", "seat": 0,
                                    "message": "That seat is not yours"}
        # Ann moves through the table (another node): both links hear it by the store.
        seat = game.to_act[0]
        who = ann if seat == 0 else bob
        move = session.engine.legal_moves(session.state, seat)[0]
        other = days_store(store_at)
        try:
            table.play(other, game.id, who.fingerprint, seat, move, 0, START + 60)
        finally:
            other.close()
        for _ in range(100):
            await asyncio.sleep(0.05)
            if heard["bob"][-1]["type"] == "update" and heard["eve"][-1]["type"] == "update":
                break
        update = heard["bob"][-1]
        assert update["type"] == "update" and update["state_no"] >= 1 and update["events"]
        for message in heard["bob"] + heard["eve"]:
            if message.get("view"):
                assert message["seat"] != 0
                assert json.dumps(message["view"]["hand"]) != ann_hand
    finally:
        for link in links.values():
            await link.close()


async def test_a_hostile_name_reaches_no_screen_and_no_notice_uncleaned(store_at: str) -> None:
    """The attacker names themselves with a terminal's escape codes (OSC 52 writes the
    clipboard) and markup: the table keeps the name cleaned, and a link cleans what it sends."""
    from net.days.link import DaysLink

    ann, bob = someone(), someone()
    hostile = "\x1b]52;c;aGk=\x07Eve[/]\r\n" + "x" * 80
    store = days_store(store_at)
    try:
        game = table.open_game(store, "schoko", [ME, SeatPlan("open")], ann, hostile, START)
        game = table.take_seat(store, game.id, 1, bob, "Bob", START)
        kept = game.seats[0].name
        assert "\x1b" not in kept and "\x07" not in kept and "\n" not in kept
        assert len(kept) <= table.MAX_NAME
        player = store.player(ann.fingerprint)
        assert player is not None and player.name == kept
        with pytest.raises(DaysError, match="needs a name"):
            table.open_game(store, "schoko", [ME, SeatPlan("open")], someone(), "\x1b\x07",
                            START)
    finally:
        store.close()
    heard: list[dict] = []
    link = DaysLink(game.id, bob.fingerprint, where=store_at)
    link.set_listener(heard.append)
    await link.start()
    try:
        assert "\x1b" not in json.dumps(heard) and "\\u001b" not in json.dumps(heard)
    finally:
        await link.close()
