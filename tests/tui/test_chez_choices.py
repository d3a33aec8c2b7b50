"""Chez Geek's choice lists, walked with keys: `m` over an open list (it once crashed the app),
a list that comes back after the table is drawn afresh takes keys at once, and a card with a
target always asks for it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from chez_helpers import ENGINE, GAME, HARMLESS, JOBS, stack, until
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import game_screen, local_link, settle

from engines import get_engine
from net import records
from net.table.session import HostSession, SeatInfo
from tui.app import TabletopApp, local_app
from tui.boards.base import Table
from tui.boards.chez_geek import Board
from tui.boards.chez_geek.banner import Banner
from tui.boards.chez_geek.board import ENDS
from tui.boards.chez_geek.cards import card_name
from tui.boards.chez_geek.hand import Hand
from tui.boards.chez_geek.picker import Picker, own_last
from tui.boards.chez_geek.why import why_no_end, why_not_card
from tui.i18n import set_language, tr
from tui.widgets.hint_line import HintLine


def nookie_options() -> dict[str, Any]:
    """Seat 0 (HiWi) starts with a partner and a Nookie: called in, the partner offers a
    fixed 3 for the Nookie, so playing it opens the "Roll or take?" choice."""
    mine = ["lebensabschnittspartner", "schaeferstuendchen_jimmys", "schlafen", "schlafen",
            "schlafen"]
    return {"stack": stack(*mine, *HARMLESS, "schlafen"), "jobs": ["hiwi", *JOBS[1:]],
            "first": 0, "dice": [6] * 6}


def pickers(board: Board) -> list[Picker]:
    return list(board.query(Picker))


async def to_the_nookie_choice(pilot: Pilot[None]) -> Board:
    await until(pilot, lambda b: any(m["type"] == "call" for m in b.table.legal), "a call")
    await pilot.press("enter")  # the partner: whose room?
    await until(pilot, lambda b: b.picker is not None, "the room list")
    await pilot.press("1")  # your own
    await until(pilot, lambda b: b.table.view["players"][0]["room"] and not b.table.view[
        "window"], "the partner at home")
    await pilot.press("e")  # on to free time
    await until(pilot, lambda b: any(m["type"] == "activity" for m in b.table.legal),
                "free time")
    await pilot.press("enter")  # the Nookie
    return await until(pilot, lambda b: (b.table.view["prompt"] or {}).get("kind") == "nookie"
                       and b.picker is not None, "the Roll-or-take list")


async def test_m_over_an_open_list_shows_every_move_instead_of_crashing() -> None:
    app = local_app(GAME, 1, 1, seed=5, options=nookie_options(), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda b: any(m["type"] == "call" for m in b.table.legal), "a call")
        await pilot.press("enter")  # the partner's rooms
        board = await until(pilot, lambda b: b.picker is not None, "the room list")
        await pilot.press("m")  # everything this seat can do, over the open list
        await settle(pilot)
        assert app.is_running
        board = await until(pilot, lambda b: b.picker is not None, "the list of moves")
        await settle(pilot)
        assert len(pickers(board)) == 1 and board.picker is not None
        assert board.picker.moves == [m for m in board.table.legal if m["type"] != "pass"]
        assert board.picker.has_focus
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert app.is_running and board.picker is None
        board = await to_the_nookie_choice(pilot)
        await pilot.press("m")  # over the list a prompt opened by itself
        await settle(pilot)
        assert app.is_running and len(pickers(board)) == 1
        await pilot.press("1")  # roll
        session = local_link(app).session
        await until(pilot, lambda b: (0, {"type": "roll"}) in session.moves, "the roll")


async def test_a_list_drawn_afresh_takes_keys_at_once() -> None:
    app = local_app(GAME, 1, 1, seed=5, options=nookie_options(), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_nookie_choice(pilot)
        await pilot.press("f3")  # German: the screen builds a new board, the list comes back
        board = await until(pilot, lambda b: b.picker is not None and b.table.view[
            "prompt"] is not None, "the list back")
        await settle(pilot)
        assert board.picker is not None and board.picker.has_focus
        await pilot.resize_terminal(40, 12)  # too small: nothing takes keys
        await settle(pilot)
        assert pilot.app.focused is None
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert board.picker is not None and board.picker.has_focus
        await pilot.press("2")  # take the fixed 3, at once
        session = local_link(app).session
        await until(pilot, lambda b: (0, {"type": "take", "value": 3}) in session.moves,
                    "the fixed value taken")


def cat_options() -> dict[str, Any]:
    """Seat 0 starts with a cat and "Not on the Bed!" (throw out a cat); the bot holds Things.
    Windows wait for every answer."""
    mine = ["feliz", "nicht_aufs_bett", "schlafen", "schlafen", "schlafen"]
    return {"stack": stack(*mine, *HARMLESS, "schlafen"), "jobs": ["hiwi", *JOBS[1:]],
            "first": 0, "dice": [6] * 6, "window_seconds": 0}


def banner_text(board: Board) -> str:
    return str(board.query_one(Banner).render())


async def test_a_card_that_throws_out_your_own_cat_asks_first_and_is_not_advertised() -> None:
    app = local_app(GAME, 1, 1, seed=5, options=cat_options(), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = local_link(app).session
        await until(pilot, lambda b: any(m["type"] == "call" for m in b.table.legal), "a call")
        await pilot.press("enter")  # the cat moves in: no room to choose, no roll
        board = await until(pilot, lambda b: b.table.view["players"][0]["room"]
                            and not b.table.view["window"], "the cat at home")
        await pilot.press("enter")  # Not on the Bed! (at the cursor now): only your cat to hit
        board = await until(pilot, lambda b: b.picker is not None, "the list of targets")
        assert board.picker is not None and board.picker.moves == [
            m for m in board.table.legal if m.get("card") == "nicht_aufs_bett"]
        assert not [m for s, m in session.moves if m.get("card") == "nicht_aufs_bett"]
        await pilot.press("escape", "e", "e", "e")  # nothing played; to the bot's turn
        board = await until(pilot, lambda b: b.table.view["turn"] == 1 and b.table.view[
            "window"] is not None and 0 in b.table.view["to_act"], "a window in the bot's turn")
        assert any(m.get("card") == "nicht_aufs_bett" for m in board.table.legal)
        assert "Not on the Bed" not in banner_text(board)
        assert "nothing worth playing" in banner_text(board)
        await pilot.press("a")
        board = await until(pilot, lambda b: b.picker is not None, "the list of answers")
        assert [m.get("card") for m in board.picker.moves] == ["nicht_aufs_bett"]
        await pilot.press("escape")
        await settle(pilot)
        assert not [m for s, m in session.moves if m.get("card") == "nicht_aufs_bett"]


def test_targets_in_your_own_room_come_last() -> None:
    view = {"seat": 0, "players": [{"room": [{"ref": 1, "card": "feliz"}]},
                                   {"room": [{"ref": 2, "card": "lottie"}]}]}
    own = {"type": "play", "card": "nicht_aufs_bett", "target": 1}
    other = {"type": "play", "card": "nicht_aufs_bett", "target": 2}
    assert own_last([own, other], view) == [other, own]


def shopping_options() -> dict[str, Any]:
    """Seat 0, a Temp, rolls 1: income 1, free time 3, and holds Things and Sleep."""
    mine = ["pizza", "bier", "nachos", "dromedar", "schlafen"]
    bot = ["gullys", "ultra_slims", "mentholkippen", "schwarzbier", "white_russian"]
    return {"stack": stack(*mine, *bot, "schlafen"), "first": 0, "dice": [1] + [6] * 6,
            "jobs": ["zeitarbeiter", *[j for j in JOBS if j != "zeitarbeiter"]],
            "window_seconds": 0}


def last_note(app: Any) -> str:
    """What the hint line, where the board says why a key does nothing, said last."""
    said = game_screen(app).query_one(HintLine).said
    assert said
    return said[-1]


async def test_every_refusal_says_why_and_number_keys_pick_hand_cards() -> None:
    app = local_app(GAME, 1, 1, seed=5, options=shopping_options(), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, lambda b: b.table.view["phase"] == "call" and b.table.legal,
                            "the call phase")
        assert board.table.view["income"] == 1
        await pilot.press("enter")  # Pizza, in Call persons
        assert last_note(app) == ("Things are bought in Free time (␣ packs them); "
                                  "this is Call persons")
        await pilot.press("3")  # the third card of the hand, as it is numbered
        assert board.query_one(Hand).cursor == 2
        await pilot.press("9")
        assert last_note(app) == "You hold only 6 cards"
        await pilot.press("p")
        assert last_note(app) == "Nothing is being played that you could let go"
        await pilot.press("e")  # to Free time
        board = await until(pilot, lambda b: b.table.view["phase"] == "free_time"
                            and b.table.legal, "free time")
        await pilot.press("1", "enter")  # Pizza again: too dear now
        assert last_note(app) == "Pizza costs 2; you have 1 income"
        await pilot.press("2", "space", "3", "space", "enter")  # Beer and Nachos: 2
        assert last_note(app) == "That trip costs 2; you have 1 income"
        await pilot.press("2", "space", "3", "space", "e")  # unpacked; to Discard
        board = await until(pilot, lambda b: b.table.view["phase"] == "discard"
                            and b.table.legal, "the discard phase")
        await pilot.press("e")  # six cards in hand
        assert last_note(app) == "You hold 6 cards: discard down to 5 first (⏎ on a card)"
        session = local_link(app).session
        assert [m["type"] for s, m in session.moves if s == 0] == ["end_phase", "end_phase"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_card_without_a_move_has_a_reason_in_every_state(lang: str) -> None:
    """Over whole games at random, from every seat: a hand card with no move, and an end
    that cannot be made, always get a reason of their own, never the bare "cannot"."""
    set_language(lang)
    eng = get_engine(GAME)
    bare = {tr("cg.hint.cannot", card=card_name(cid)) for cid in eng.cards}
    reasons = 0
    for seed in range(8):
        state = eng.new_game(3, seed, {"window_seconds": 0})
        rng = random.Random(seed)
        while not eng.is_over(state):
            for seat in range(3):
                table = Table(seat=seat, state_no=0, view=eng.view(state, seat),
                              legal=eng.legal_moves(state, seat),
                              players=[{"name": n} for n in ("Ada", "Bea", "Cem")])
                for card in {c["card"] for c in table.view["hand"]}:
                    if not [m for m in table.legal if m.get("card") == card
                            or m.get("cards") == [card]]:
                        assert why_not_card(table, card) not in bare, (card, table.view)
                        reasons += 1
                if not [m for m in table.legal if m["type"] in ENDS]:
                    assert why_no_end(table) not in bare, table.view
            seat = eng.to_act(state)[0]
            state = eng.apply(state, seat, rng.choice(eng.legal_moves(state, seat)))
    assert reasons > 1000


def mugged_options() -> dict[str, Any]:
    """Seat 0 (HiWi) starts; the bot holds "Mugged" and plays it as soon as seat 0's Call
    persons begins (the strong bot's choice is fixed by the seed)."""
    mine = ["bier", "pizza", "nachos", "gullys", "ultra_slims"]
    bot = ["ueberfall", "schlafen", "schlafen", "schlafen", "schlafen"]
    return {"stack": stack(*mine, *bot, "dromedar"), "first": 0, "dice": [6] * 6,
            "jobs": ["hiwi", *[j for j in JOBS if j != "hiwi"]], "window_seconds": 0}


async def test_a_reaction_in_your_turn_stays_in_sight_at_80x24_until_a_key() -> None:
    app = local_app(GAME, 1, 1, seed=5, options=mugged_options(), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, lambda b: b.table.view["phase"] == "call" and b.table.legal,
                            "the call phase")
        await settle(pilot)
        screen = game_screen(app)
        assert screen.has_class("-narrow")  # no log beside the table
        played = [e for kind, e in screen.entries if kind == "event" and e["kind"] == "play"]
        assert played and played[-1]["card"] == "ueberfall"
        assert screen.entries[-1] != ("event", played[-1])  # the top line moved on
        news = board.query_one("#news", Static)
        assert "Bot 1 plays Mugged" in str(news.render())
        assert pilot.app.screen.region.contains_region(news.region)
        await pilot.press("down")  # any key: seen
        await settle(pilot)
        assert str(news.render()) == ""


async def test_a_list_taken_up_with_a_saved_game_takes_keys_at_once() -> None:
    """A game resumed at a question (as a host resumes one): its list is there and the first
    key answers it."""
    seats = [SeatInfo("You"), SeatInfo("Bot 1", bot="strong")]
    session = HostSession(GAME, seats, 5, nookie_options())
    plan = [{"type": "call", "card": "lebensabschnittspartner", "to": 0},
            {"type": "end_phase"}, {"type": "activity", "card": "schaeferstuendchen_jimmys"}]
    while plan:
        to_act = ENGINE.to_act(session.state)
        if 0 in to_act and (session.state.prompt is None and not to_act[1:]):
            session.submit(0, plan.pop(0))
        else:
            seat = to_act[0]
            legal = ENGINE.legal_moves(session.state, seat)
            session.submit(seat, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    while (ENGINE.view(session.state, 0)["prompt"] or {}).get("kind") != "nookie":
        session.submit(1, {"type": "pass"})
    path = records.LocalRecorder(session, [0]).path
    assert path is not None
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.resume_local(path)
        board = await until(pilot, lambda b: b.picker is not None, "the list of the question")
        await settle(pilot)
        assert board.picker is not None and board.picker.has_focus
        await pilot.press("1")  # roll
        resumed = local_link(app).session
        await until(pilot, lambda b: (0, {"type": "roll"}) in resumed.moves, "the roll")
