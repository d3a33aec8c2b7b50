"""The hint key: "h" asks the expert what it would play from this seat, without moving."""

from __future__ import annotations

import threading

import pytest
from tui_helpers import game_screen, local_link, wait_for_board

from engines.search import ExpertBot
from tui.app import local_app
from tui.boards import base
from tui.boards.chez_geek.picker import move_words
from tui.boards.zwergenamulett.faces import FACES, face_name
from tui.widgets.actions import ActionBar
from tui.widgets.hint_line import HintLine

# What a finished hint with a search behind it says.
WON = "of the search's playouts"


def said(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Everything the game screen's hint line showed, in order."""
    return game_screen(app).query_one(HintLine).said


async def hint_lines(pilot, app, before: int) -> list[str]:  # type: ignore[no-untyped-def]
    """What the hint line said after its first `before` lines, once a finished hint is among
    them."""
    for _ in range(300):
        await pilot.pause(0.05)
        lines = said(app)[before:]
        if any(WON in n or ("Hint: " in n and "thinking" not in n) for n in lines):
            return lines
    raise AssertionError("no hint arrived")


async def test_h_names_the_experts_move_and_its_chance_without_moving() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        assert board.table.seat in board.table.view["to_act"]
        state_no, before = session.state_no, len(said(app))
        await pilot.press("h")
        lines = await hint_lines(pilot, app, before)
        assert any("thinking" in line for line in lines)
        final = [line for line in lines if WON in line]
        assert final, lines
        assert any(word in final[0] for word in ("Take", "Pay a chip", "Place pig"))
        assert session.state_no == state_no  # a hint is not a move


async def test_h_does_nothing_where_hints_are_not_allowed() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        board.table.hints = False  # what a networked host that does not allow them sends
        await pilot.press("h")
        for _ in range(10):
            await pilot.pause(0.05)
        assert said(app) == [] and not game_screen(app).query_one(HintLine).display


async def test_h_is_the_hint_in_a_board_that_also_used_it_for_left() -> None:
    app = local_app("zwergenamulett", 1, 2, "strong", seed=3, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        before = len(said(app))
        await pilot.press("h")
        lines = await hint_lines(pilot, app, before)
        final = [line for line in lines if WON in line]
        assert final, lines
        # The card by its printed name, never its id ("play Zwerg rot", not "play zwerg_rot").
        names = {face_name(card) for card in FACES}
        assert any(f"Hint: play {name}:" in final[0] for name in names), final


async def test_a_chez_geek_hint_names_the_move_as_the_move_picker_does() -> None:
    app = local_app("chez_geek", 1, 1, "strong", seed=4, lang="en", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        board = await wait_for_board(pilot)
        for _ in range(200):
            if board.table.legal and board.table.seat in board.table.view["to_act"]:
                break
            await pilot.pause(0.05)
        table = board.table
        words = {move_words(m, table.view, table.names) for m in table.legal}
        before = len(said(app))
        await pilot.press("h")
        lines = await hint_lines(pilot, app, before)
        final = [line for line in lines if "thinking" not in line and "Hint: " in line]
        assert final and any(w in final[0] for w in words), (final, words)


def notes(app, before: int) -> list[str]:  # type: ignore[no-untyped-def]
    return said(app)[before:]


async def until_note(pilot, app, before: int, part: str, count: int = 1) -> list[str]:  # type: ignore[no-untyped-def]
    for _ in range(300):
        await pilot.pause(0.02)
        if sum(part in line for line in notes(app, before)) >= count:
            return notes(app, before)
    raise AssertionError(f"no {count} × {part!r} among {notes(app, before)}")


async def test_h_held_down_starts_one_search_and_the_next_only_after_a_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each "h" once started a search in a thread of its own (and a thread cannot be stopped):
    a player holding "h" down took a core, at an SSH table one per session. One search at a
    time; the same position again is answered from its search; a new one waits HINT_REST."""
    analyse = ExpertBot.analyse  # a hint asks a copy of the expert on the hint budget
    release = threading.Event()
    searched: list[int] = []

    def slow(self, view, legal, rng):  # type: ignore[no-untyped-def]
        searched.append(view["seat"])
        release.wait(30)
        return analyse(self, view, legal, rng)

    monkeypatch.setattr(ExpertBot, "analyse", slow)
    monkeypatch.setattr(base, "HINT_REST", 3600.0)
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        before = len(said(app))
        await pilot.press("h", "h", "h")
        await until_note(pilot, app, before, "still thinking about the last one", 2)
        assert searched == [0]
        release.set()
        lines = await until_note(pilot, app, before, WON)
        (answer,) = [line for line in lines if WON in line]

        before = len(said(app))
        await pilot.press("h")  # the same position: the same answer, no search
        await until_note(pilot, app, before, answer)
        assert searched == [0]

        view = board.table.view
        await pilot.press("t")  # a card taken: a new position, and still this seat's turn
        for _ in range(200):
            await pilot.pause(0.02)
            if board.table.view != view and board.table.legal:
                break
        before = len(said(app))
        await pilot.press("h")
        await until_note(pilot, app, before, "coming in a moment")
        assert searched == [0]
        monkeypatch.setattr(base, "HINT_REST", 0.0)
        await pilot.press("h")
        await until_note(pilot, app, before, WON)
        assert searched == [0, 0]


async def test_h_during_the_rest_is_answered_when_it_is_over_without_asking_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every second press once said "one moment, then ask again": now the hint comes by
    itself once the rest is over, for the table as it is then; and no chance short of
    certain is said as 100%."""
    monkeypatch.setattr(base, "HINT_REST", 2.0)  # long enough to ask within it
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        before = len(said(app))
        await pilot.press("h")
        await until_note(pilot, app, before, WON)
        view = board.table.view
        await pilot.press("t")
        for _ in range(200):
            await pilot.pause(0.02)
            if board.table.view != view and board.table.legal:
                break
        before = len(said(app))
        await pilot.press("h")  # within the rest: queued, not refused
        lines = await until_note(pilot, app, before, WON)
        assert not any("ask again" in line for line in lines)
        assert any("coming in a moment" in line for line in lines)
    assert not any("100%" in line for line in lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 50)])
async def test_the_hint_has_its_own_line_under_the_table_at_every_size(
        size: tuple[int, int]) -> None:
    """At 80 columns the top bar cut the hint; from 120 it went into the log among the
    moves. It has its own line under the table, above the keys, at every size: whole
    (wrapped, never cut), not in the log, and gone once the table moves on."""
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 0}, lang="de",
                    bot_delay=0)
    async with app.run_test(size=size) as pilot:
        board = await wait_for_board(pilot)
        screen = game_screen(app)
        entries = len(screen.entries)
        await pilot.press("h")
        await until_note(pilot, app, 0, "Probespielen der Suche")
        await pilot.pause()
        line = screen.query_one(HintLine)
        text = line.said[-1]
        assert line.display and line.text == text and "Tipp: " in text
        width, height = size
        region = line.region
        assert region.x == 0 and region.width == width
        assert region.bottom == height - 1  # right above the footer
        # Wrapped into its rows, every word of it on show.
        shown = " ".join(str(strip.text).strip() for strip in line.render_lines(
            line.region.reset_offset))
        assert " ".join(text.split()) in " ".join(shown.split())
        assert len(screen.entries) == entries  # not in the log
        view = board.table.view
        await pilot.press("t")  # a card taken: the hint spoke of the table before
        for _ in range(200):
            await pilot.pause(0.02)
            if board.table.view != view:
                break
        await pilot.pause()
        assert not line.display


@pytest.mark.parametrize("game", ["zwergenamulett", "skipbo_breakers"])
async def test_at_80_by_24_the_hint_takes_the_buttons_rows_not_the_hand(game: str) -> None:
    """These tables fill 80×24 to the row: the hint line scrolled the hand's last row and the
    buttons out of sight. While a hint shows the buttons give way (the footer lists the same
    keys); the whole table stays on screen, and the buttons are back once the table moves."""
    app = local_app(game, 1, 2, "strong", seed=3, options={"first": 0}, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        bar = board.query_one(ActionBar)
        assert bar.display and board.max_scroll_y == 0
        before = len(said(app))
        await pilot.press("h")
        assert any(WON in line for line in await hint_lines(pilot, app, before))
        await pilot.pause()
        assert game_screen(app).query_one(HintLine).region.height >= 2
        assert not bar.display
        assert board.max_scroll_y == 0
        hand = board.query_one("#hand")
        assert board.region.contains_region(hand.region), (board.region, hand.region)
        state_no = local_link(app).session.state_no
        await pilot.press("enter")  # the hinted move, which the board has selected
        for _ in range(200):
            await pilot.pause(0.02)
            if local_link(app).session.state_no != state_no:
                break
        await pilot.pause()
        assert bar.display


def test_a_hint_says_its_chance_with_its_margin_and_never_a_certainty() -> None:
    """A "100% to win" game was lost 67-66: the playouts are samples."""
    sure = base.chance(1.0, 300)
    assert sure["chance"] == "nearly all" and sure["high"] == 100 and sure["low"] < 100
    likely = base.chance(0.9, 400)
    assert likely["chance"] == "about 9 in 10" and likely["low"] < 90 < likely["high"]
    assert likely["playouts"] == 400
    few = base.chance(0.9, 10)  # fewer playouts: a wider margin
    assert few["high"] - few["low"] > likely["high"] - likely["low"]
    assert base.chance(0.0, 300)["chance"] == "hardly any"
