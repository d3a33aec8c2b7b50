"""Chez Geek at the table, driven with keys as a player would: a stacked game to the results
screen, the interrupt banner (a cancel played through it, a let-go by key, the countdown closing
it), choosing a target with a way back, a card's full text, and the board at 80×24 and 160×50."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from chez_helpers import (
    ENGINE,
    GAME,
    HARMLESS,
    JOBS,
    board_of,
    played_record,
    stack,
    text_of,
    until,
)
from textual.widgets import Input, Static, Switch
from tui_helpers import MAX_STEPS, local_link, open_lobby, settle, wait_for_board

from bench import bot_move
from engines import get_engine
from net.table import clocks
from tui.app import TabletopApp, local_app
from tui.boards.base import Table
from tui.boards.chez_geek import Board
from tui.boards.chez_geek.banner import Banner, Countdown
from tui.boards.chez_geek.cards import card_name, job_name
from tui.boards.chez_geek.events import describe
from tui.boards.chez_geek.hand import Hand
from tui.boards.chez_geek.hyphens import breakable
from tui.boards.chez_geek.info import CardInfo
from tui.boards.chez_geek.picker import Picker
from tui.boards.chez_geek.rooms import RoomPanel, RoomsScreen
from tui.help import rules_text
from tui.i18n import tr
from tui.screens.handoff import HandoffScreen
from tui.screens.results import ResultsScreen
from tui.widgets import EventLog
from tui.widgets.cardrow import SOFT_HYPHEN, CardRow, name_lines


async def test_a_stacked_game_played_with_keys_reaches_the_results() -> None:
    # Seat 0 (the Slacker) calls two partners and Meister der Spiele, then plays three
    # Rollenspiel (2 + 1 bonus each): 3 + 3 + 2 + 9 = 17 of a goal of 15. The bot holds Things.
    mine = ["lebensabschnittspartner", "lebensabschnittspartner", "meister_der_spiele",
            "rollenspiel", "rollenspiel"]
    options = {
        "stack": stack(*mine, *HARMLESS, "rollenspiel"),
        "jobs": ["slacker", "drummer", *JOBS],
        "two_player_jobs_dealt": True,
        "first": 0,
        "dice": [6, 6, 6],
    }
    app = local_app(GAME, 1, 1, "strong", seed=1, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda b: b.table.view["phase"] == "call"
                            and b.table.legal, "the call phase")
        session = local_link(app).session
        for _ in range(3):
            await until(pilot, lambda b: any(m["type"] == "call" for m in b.table.legal),
                                "a call to make")
            await pilot.press("enter")  # the card at the cursor: whose room?
            picker = await until(pilot, lambda b: b.picker is not None, "the room picker")
            assert isinstance(picker.picker, Picker)
            await pilot.press("1")  # your room comes first
        board = await until(pilot, lambda b: len(b.table.view["players"][0]["room"]) == 3,
                            "three persons in the room")
        assert "⚅ 6 You: a call" in text_of(board.query_one("#status", Static))  # the dice
        await pilot.press("e")  # to free time
        for _ in range(3):
            await until(pilot, lambda b: any(m["type"] == "activity" for m in b.table.legal),
                        "an activity to play")
            await pilot.press("enter")
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(pilot.app.screen, ResultsScreen):
                break
        else:
            raise AssertionError("the game did not reach the results screen")
        result = session.result()
        assert result["winners"] == [0] and result["scores"][0] == 17
        assert [m["type"] for s, m in session.moves if s == 0].count("activity") == 3


def banner_options(window_seconds: int) -> dict[str, Any]:
    """The bot in seat 1 (HiWi) starts and calls persons into its own room; seat 0, at the
    keys, holds two cancels that stop a person."""
    bot = ["enthusiast", "meister_der_spiele", "tv_queen", "uebergeek", "partyloewe"]
    me = ["pech_gehabt", "worueber_geredet", "bier", "pizza", "nachos"]
    return {
        "stack": stack(*me, *bot, "lebensabschnittspartner"),
        "jobs": ["web_designer", "hiwi", *JOBS[2:]],
        "first": 1,
        "dice": [6] * 12,
        "window_seconds": window_seconds,
    }


def response_window(board: Board) -> bool:
    window = board.table.view["window"]
    return window is not None and window["kind"] == "response" and 0 in board.table.view["to_act"]


def reaction_window(board: Board) -> bool:
    window = board.table.view["window"]
    return window is not None and window["kind"] == "reaction" and 0 in board.table.view["to_act"]


async def test_the_banner_answers_with_a_cancel_and_lets_go_by_key() -> None:
    app = local_app(GAME, 1, 1, seed=2, options=banner_options(60), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, reaction_window, "the window at the start of Call persons")
        session = local_link(app).session
        banner = board.query_one(Banner)
        assert "Bot 1 starts Call persons" in text_of(banner)
        assert "nothing of yours fits" in text_of(banner)
        await pilot.press("p")  # let it go, by key
        board = await until(pilot, response_window, "the bot's first call")
        text = text_of(board.query_one(Banner))
        assert "Bot 1 calls Mr. Enthusiastic in" in text
        assert "you can answer: Sucks to Be You, What Were We Talking About?" in text
        assert " s" in text.splitlines()[1]  # the countdown
        await pilot.press("a")  # two cards can answer: which one?
        board = await until(pilot, lambda b: b.picker is not None, "the answers to choose from")
        await pilot.press("1")
        await until(pilot, lambda b: not response_window(b) or b.table.view["pending"][-1][
            "cards"] != ["enthusiast"], "the cancel")
        cancels = [(s, m) for s, m in session.moves if m["type"] == "cancel"]
        assert cancels == [(0, {"type": "cancel", "card": "pech_gehabt"})]
        assert any(e["kind"] == "cancelled" and e["by"] == 0 for e in session.log)
        board = await until(pilot, response_window, "the bot's next call")
        assert board.table.view["pending"][-1]["cards"] == ["meister_der_spiele"]
        await pilot.press("p")  # let the call go: the person comes in
        await until(pilot, lambda b: any(e["card"] == "meister_der_spiele"
                                         for e in b.table.view["players"][1]["room"]),
                    "the called person in the bot's room")
        let_go = [e for e in session.log if e["kind"] == "let_go" and e["window"] == "response"]
        assert let_go and let_go[-1]["item"]["cards"] == ["meister_der_spiele"]


async def test_choosing_an_answer_holds_the_window_and_the_banner_says_so() -> None:
    """The countdown (2 s) would close the window under an open list of answers: opening it
    asks the table for time, the banner shows it, and the cancel chosen after the countdown
    would have run out still counts."""
    app = local_app(GAME, 1, 1, seed=2, options=banner_options(2), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, response_window, "the bot's first call")
        session = local_link(app).session
        await pilot.press("a")
        board = await until(pilot, lambda b: b.picker is not None
                            and (b.table.clock or {}).get("answering") == [0],
                            "the table giving the person time to choose")
        assert board.table.clock is not None and board.table.clock["left"] > 5
        assert "you are choosing an answer" in text_of(board.query_one(Banner))
        await asyncio.sleep(2.5)  # past the window's own 2 s
        board = await until(pilot, lambda b: b.picker is not None, "the list, still open")
        assert response_window(board) and session.windows.open
        await pilot.press("1")
        await until(pilot, lambda b: any(e["kind"] == "cancelled" and e["by"] == 0
                                         for e in session.log), "the cancel, not lost")


async def test_a_pass_is_taken_at_once_and_the_banner_says_so() -> None:
    app = local_app(GAME, 1, 1, seed=2, options=banner_options(60), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, response_window, "the bot's first call")
        session = local_link(app).session
        await pilot.press("p")
        # Taken, not applied: the window (its glance is 6 s of 60) still shows seat 0 in it.
        board = await until(pilot, lambda b: not b.table.legal, "the pass taken")
        assert response_window(board) and session.windows.pending == {0: {"type": "pass"}}
        assert "you let it go" in text_of(board.query_one(Banner))
        await until(pilot, lambda b: any(e["kind"] == "let_go" and e["window"] == "response"
                                         for e in session.log), "the window closing")


async def test_the_countdown_lets_the_window_go_for_a_silent_player() -> None:
    app = local_app(GAME, 1, 1, seed=2, options=banner_options(1), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, reaction_window, "the window at the start of Call persons")
        session = local_link(app).session
        # Nobody presses a key: the countdown closes every window for seat 0, as passes.
        await until(pilot, lambda b: any(e["card"] == "enthusiast"
                                         for e in b.table.view["players"][1]["room"]),
                    "the bot's call let through by the countdown")
        mine = [m for s, m in session.moves if s == 0]
        assert mine and all(m == {"type": "pass"} for m in mine)
        assert any(e["kind"] == "let_go" and e["window"] == "response" for e in session.log)


async def test_choosing_a_room_has_a_way_back_and_takes_a_click() -> None:
    mine = ["lebensabschnittspartner", "enthusiast", "schwarzbier", "white_russian", "dromedar"]
    options = {"stack": stack(*mine, *HARMLESS, "tv_queen"), "first": 0, "dice": [6] * 6,
               "jobs": JOBS}
    app = local_app(GAME, 1, 1, seed=4, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await until(pilot, lambda b: any(m["type"] == "call" for m in b.table.legal),
                            "the call phase")
        session = local_link(app).session
        await pilot.press("i")  # the card at the cursor, in full
        await settle(pilot)
        assert isinstance(pilot.app.screen, CardInfo)
        assert "Significant Other" in str(pilot.app.screen.query_one("#info-title").render())
        await pilot.press("escape")
        await settle(pilot)
        board = await board_of(pilot)
        await pilot.press("enter")
        board = await until(pilot, lambda b: b.picker is not None, "the room picker")
        assert not board.query_one(Hand).display
        await pilot.press("escape")  # back: nothing was played
        board = await until(pilot, lambda b: b.picker is None, "the picker closed")
        assert board.query_one(Hand).display and not [m for s, m in session.moves if s == 0]
        await pilot.press("down", "enter")  # the enthusiast this time
        board = await until(pilot, lambda b: b.picker is not None, "the room picker")
        await pilot.click(Picker, offset=(4, 2))  # the second room: the bot's
        await until(pilot, lambda b: any(s == 0 for s, _ in session.moves), "the call")
        assert next(m for s, m in session.moves if s == 0) == {
            "type": "call", "card": "enthusiast", "to": 1}


@pytest.mark.parametrize(("size", "players"), [
    ((80, 24), 6), ((80, 24), 3), ((120, 36), 4), ((160, 50), 4), ((160, 50), 6)])
async def test_the_table_fits_every_room_and_grows_with_the_terminal(
        size: tuple[int, int], players: int) -> None:
    """A game in full swing: every room is a panel of its cards (name, value, kind), the hand
    a row of cards, all of it on screen without scrolling, larger on a large terminal; `v`
    tells every room in words."""
    path = played_record(players, seed=3, moves=150)
    app = TabletopApp(lang="en", bot_delay=3600)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.resume_local(path)
        board = await board_of(pilot)
        await settle(pilot, 6)
        view = board.table.view
        assert board.max_scroll_y == 0
        panels = {panel.seat: panel for panel in board.query(RoomPanel)}
        assert sorted(panels) == list(range(players))
        for seat, panel in panels.items():
            assert board.region.contains_region(panel.region), (seat, panel.region)
            shown = [group[0] for group in panel.cards.groups]
            room = view["players"][seat]["room"]
            assert [face.name.replace(SOFT_HYPHEN, "") for face in shown] == [
                card_name(e["card"]) for e in room]
            kinds = {ENGINE.cards[e["card"]].type for e in room}
            assert len({face.paper for face in shown}) == len(kinds)  # a colour per kind
        hand = board.query_one(Hand)
        assert board.region.contains_region(hand.region)
        assert [slot.face.name.replace(SOFT_HYPHEN, "") for slot in hand.row.slots] == [
            card_name(c["card"]) for c in view["hand"]]
        assert hand.row.scale >= (2 if size == (160, 50) else 0)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, RoomsScreen)
        words = " ".join(str(s.render()) for s in app.screen.query(".rooms-room"))
        for player in view["players"]:
            assert job_name(player["job"]) in words
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, RoomsScreen)


SECOND_HAND = ["schwarzbier", "white_russian", "dromedar", "mentholkippen", "bong"]


def hot_seat_options(keyboard_answers: bool, second: list[str] = SECOND_HAND) -> dict[str, Any]:
    """Two people at one keyboard (seats 0 and 1) and a bot in seat 2 that starts by calling
    persons; seat 0 holds nothing that answers anything."""
    return {
        "stack": stack(*HARMLESS, *second, "enthusiast", "tv_queen", "uebergeek", "partyloewe",
                       "meister_der_spiele"),
        "jobs": [*JOBS, "slacker", "drummer"],
        "first": 2,
        "dice": [6] * 12,
        "keyboard_answers": keyboard_answers,
    }


async def test_hot_seat_hands_the_keyboard_only_to_people_who_can_answer() -> None:
    """Only Player 2 holds a card that stops a person, so the bot's call hands the keyboard to
    them alone; Player 1, who holds nothing that fits, passes without a handoff screen."""
    second = ["worueber_geredet", *SECOND_HAND[:4]]
    app = local_app(GAME, 2, 1, seed=6, options=hot_seat_options(True, second), lang="en",
                    bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        asked: list[str] = []
        for _ in range(MAX_STEPS):
            await pilot.pause()
            screen = pilot.app.screen
            if isinstance(screen, HandoffScreen):
                asked.append(screen.player)
                await pilot.press("enter")
                continue
            found = screen.query(Board)
            if not found:
                continue
            board = found.first()
            view = board.table.view
            if view["window"] is not None and board.table.seat in view["to_act"]:
                assert board.table.clock is not None and board.table.clock["left"] is None
                assert any(m["type"] == "cancel" for m in board.table.legal)
                await pilot.press("p")
            session = local_link(app).session
            if any(e["kind"] == "let_go" and e["window"] == "response" for e in session.log):
                break
        else:
            raise AssertionError("the window never closed")
        passes = [s for s, m in session.moves if m == {"type": "pass"}]
        assert {0, 1} <= set(passes)
        # The first screen is a first look at the table; after it, only Player 2 is asked.
        assert "Player 2" in asked and "Player 1" not in asked[1:], asked


async def test_hot_seat_can_skip_answers_at_the_keyboard() -> None:
    app = local_app(GAME, 2, 1, seed=6, options=hot_seat_options(False), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(pilot.app.screen, HandoffScreen):
                await pilot.press("enter")  # the first look at the table
                continue
            session = local_link(app).session
            if session.engine.view(session.state, None)["turn"] == 0 or session.over:
                break
        else:
            raise AssertionError("the bot's turn never ended")
        # Nobody pressed a key: every window of the bot's turn let go for both people.
        passes = [s for s, m in session.moves if m == {"type": "pass"}]
        assert passes.count(0) >= 3 and passes.count(1) >= 3


async def test_the_window_settings_are_lobby_options_that_reach_the_table() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await open_lobby(pilot, GAME)
        labels = " ".join(text_of(s) for s in app.screen.query(".option-label").results(Static))
        assert "Seconds to answer a card being played" in labels
        assert "people at this keyboard answer windows" in labels
        field = app.screen.query_one("#opt-window_seconds", Input)
        assert field.value == "4"
        field.value = "-3"
        await pilot.click("#start")
        await settle(pilot)
        assert "window_seconds must be 0 to 120" in text_of(app.screen.query_one("#lobby-error"))
        app.screen.query_one("#opt-window_seconds", Input).value = "9"
        app.screen.query_one("#opt-keyboard_answers", Switch).value = False
        await pilot.click("#start")
        await wait_for_board(pilot)
        session = local_link(app).session
        assert session.options["window_seconds"] == 9
        assert session.windows.seconds == 9 and not session.windows.keyboard_answers


def test_the_rules_are_there_in_both_languages() -> None:
    english, german = rules_text(GAME, "en"), rules_text(GAME, "de")
    assert english.startswith("# Chez Geek") and german.startswith("# Chez Geek")
    assert "countdown" in english and "Countdown" in german and english != german


def test_the_banner_countdown_stands_still_while_someone_in_the_window_is_away() -> None:
    clock = {"window": 3, "seconds": 4, "left": 3.0, "paused": False}
    players: list[dict[str, Any]] = [{"name": "Anna"}, {"name": "Bo", "connected": False}]
    away = Table(seat=0, state_no=7, view={"to_act": [0, 1]}, legal=[], players=players,
                 clock=clock)
    countdown = Countdown()
    countdown.update(away)
    assert countdown.away(away) == [1] and countdown.stopped(away)
    frozen = countdown.left()
    assert frozen is not None and 2.5 < frozen <= 3.0
    assert countdown.left() == frozen  # no time passes while Bo is away
    back = replace(away, players=[{"name": "Anna"}, {"name": "Bo", "connected": True}])
    countdown.update(back)
    left = countdown.left()
    assert not countdown.stopped(back) and left is not None and 0 < left <= frozen
    assert countdown.left() != left  # running again


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_log_speaks_to_the_player_at_the_keys_in_the_second_person(lang: str) -> None:
    """Every event of whole games, told with seat 0 as "You"/"Du": never "You has", "Du
    zieht", "You's room" or "Zimmer von Du"; and the same events of another seat read in the
    third person."""
    eng = get_engine("chez_geek")
    you = tr("name.you", lang=lang)
    wrong = {
        "en": [f"{you} {verb}" for verb in ("has", "draws", "rolls", "calls", "does", "goes",
                                             "plays", "cancels", "answers", "takes", "tries",
                                             "loses", "discards", "gets", "changes", "digs",
                                             "stops", "starts", "is")] + [f"{you}'s"],
        "de": [f"{you} {verb}" for verb in ("hat", "zieht", "würfelt", "lädt", "macht",
                                             "geht", "spielt", "stoppt", "kontert", "nimmt",
                                             "will", "verliert", "wirft", "bekommt", "holt",
                                             "findet", "wechselt", "erreicht")]
              + [f"von {you}", f"zu {you}", f"bei {you}", f"kontert {you}"],
    }[lang]
    seen_you = seen_other = 0
    for seed in range(6):
        state = eng.new_game(3, seed)
        rng = random.Random(seed)
        while not eng.is_over(state):
            seat, move = bot_move(eng, state, ["strong"] * 3, rng)
            after = eng.apply(state, seat, move)
            for event in eng.events(state, seat, move, after):
                mine = describe(event, [you, "Bea", "Cem"], lang)
                assert not any(re.search(rf"{w}\b", mine) for w in wrong), (mine, event)
                seen_you += mine.startswith(you)
                other = describe(event, ["Ada", "Bea", "Cem"], lang)
                seen_other += other.startswith("Ada ")
            state = after
    assert seen_you > 20 and seen_other > 20


async def test_a_reaction_window_nobody_answered_gets_no_line_in_the_log() -> None:
    """After every phase of every turn a reaction window opens; one nobody answered was a
    third of the log as "Nobody plays anything". Such a window gets no line (one nobody
    answered that held a card still says what went through)."""
    app = local_app(GAME, 1, 1, "random", seed=4, options={"first": 0}, lang="en",
                    bot_delay=0, clock=clocks.per_move(0.05))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session

        def quiet_windows() -> int:
            return sum(e["kind"] == "let_go" and e["window"] == "reaction" for e in session.log)

        for _ in range(MAX_STEPS):
            await pilot.pause(0.02)
            if quiet_windows() >= 3:
                break
        assert quiet_windows() >= 3
        await settle(pilot)
        screen = app.screen
        texts = screen.query_one("#log", EventLog).texts
        assert texts and not any(tr("cg.ev.let_go_reaction") in line for line in texts)
        logged = [e for kind, e in screen.entries if kind == "event"]
        assert logged and all(e.get("window") != "reaction" for e in logged)


async def test_german_card_names_break_at_their_joints_at_80x24() -> None:
    """At 80 columns "Schäferstündchen" broke as "Schäferst-" / "ündchen": long names break
    at their word joints, as a person hyphenates them."""
    mine = ["schaeferstuendchen_uni", "lebensabschnittspartner", "rollenspiel",
            "schaeferstuendchen_jimmys", "rollenspiel"]
    options = {"stack": stack(*mine, *HARMLESS), "first": 0}
    app = local_app(GAME, 1, 1, "strong", seed=1, options=options, lang="de", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await board_of(pilot)
        await settle(pilot)
        hand = board.query_one(Hand)
        drawn = "\n".join(str(row.render()) for row in hand.query(CardRow)) or str(hand.render())
        assert "Schäfer-" in drawn and "stündchen" in drawn, drawn
        assert "Schäferst-" not in drawn and "Lebensab-" not in drawn


def test_a_long_name_breaks_at_the_last_joint_that_fits() -> None:
    assert name_lines(breakable("Schäferstündchen an der Uni"), 9, 3) == (
        "Schäfer-", "stündchen", "an der U…")
    assert name_lines(breakable("Lebensabschnittspartner"), 12, 3) == (
        "Lebens-", "abschnitts-", "partner")
    assert name_lines(breakable("Auto-Alarmanlage"), 9, 3) == ("Auto-", "Alarm-", "anlage")
    # A name no joint of which fits is still broken with a hyphen, never cut short.
    assert name_lines("Significant Other", 10) == ("Significa-", "nt Other")


async def test_with_nothing_in_play_the_middle_shows_the_piles_and_the_top_discard() -> None:
    """At 160×50 the middle was empty early in every turn: with nothing in play it shows the
    draw pile and the jobs face down and the discard pile's top card, each with its count."""
    path = played_record(4, seed=3, moves=150)
    app = TabletopApp(lang="en", bot_delay=3600)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.resume_local(path)
        board = await board_of(pilot)
        await settle(pilot, 6)
        view = board.table.view
        assert not view["pending"] and view["discard_pile"]
        row = board.query_one("#middle #pending", CardRow)
        assert row.display and board.region.contains_region(row.region)
        draw, top, jobs = row.slots
        assert (draw.above, draw.below) == ("draw pile", f"{view['draw_pile']} cards")
        assert draw.face is not None and draw.face.paper == "$card-back"
        assert top.above == "discard pile" and top.face is not None
        assert top.face.name.replace(SOFT_HYPHEN, "") == card_name(view["discard_pile"][-1])
        assert top.below == f"{len(view['discard_pile'])} cards"
        assert (jobs.above, jobs.below) == ("jobs", f"{view['job_pile']} cards")
