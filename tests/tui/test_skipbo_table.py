"""Skip-Bo Breakers through the real app: keys and clicks in, the table and its screens out."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_helpers import MAX_STEPS, game_screen, local_link, open_lobby, settle, wait_for_board

from engines.skipbo_breakers.rules import DECK
from tui.app import TabletopApp, local_app
from tui.boards.skipbo_breakers import Board, HandSummary, Picker, describe
from tui.boards.skipbo_breakers.tiles import set_words
from tui.help import rules_text
from tui.screens.handoff import HandoffScreen
from tui.screens.results import ResultsScreen
from tui.widgets.cardrow import CardRow
from tui.widgets.hint_line import HintLine

GAME = "skipbo_breakers"
SB = "SB"
# Seat 0 holds a straight 1..15 but for the 8, a joker, four 2s and two 3s more.
MINE = [*range(1, 8), *range(9, 16), SB, 2, 2, 2, 3, 3]


def stack(mine: list[Any]) -> list[Any]:
    rest = Counter(DECK)
    rest.subtract(Counter(mine))
    return mine + sorted(rest.elements(), key=lambda t: (t == SB, str(t)))


def text_of(widget: Static) -> str:
    return str(widget.render())


def my_board(pilot: Pilot[None]) -> Board | None:
    boards = pilot.app.screen.query(Board)
    if not boards:
        return None
    board = boards.first()
    view = board.table.view
    return board if not view["over"] and view["turn"] == board.table.seat else None


async def wait_for_my_turn(pilot: Pilot[None]) -> Board:
    for _ in range(MAX_STEPS):
        await pilot.pause()
        if isinstance(pilot.app.screen, HandSummary):
            await pilot.press("enter")
            continue
        board = my_board(pilot)
        if board is not None:
            return board
    raise AssertionError("never my turn")


async def test_a_stacked_game_with_keys_and_a_joker_reaches_the_results() -> None:
    options = {"stack": stack(MINE), "first": 0, "points_to_win": 1}
    app = local_app(GAME, 1, 1, "strong", seed=3, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        board = await wait_for_my_turn(pilot)
        # Select the straight tile by tile: one of each number group, then the joker.
        groups = [tile for tile, _ in board.picker.groups]
        assert groups == [*range(1, 8), *range(9, 16), SB]
        for _ in groups:
            await pilot.press("space", "right")
        reading = text_of(board.query_one("#reading", Static))
        assert "straight 1-2-3-4-5-6-7-8-9-10-11-12-13-14-15, joker as 8" in reading
        assert "you lead with it" in reading
        slots = board.query_one("#hand", CardRow).slots
        assert [s.lifted for s in slots] == [True] * len(slots)
        await pilot.press("enter")
        await settle(pilot)
        first = session.moves[0]
        assert first[0] == 0 and first[1]["tiles"].count(SB) == 1
        assert dict(zip(first[1]["tiles"], first[1]["values"], strict=True))[SB] == 8
        # Then the first play of the offered list each turn (or a pass) to the end.
        for _ in range(MAX_STEPS):
            await pilot.pause()
            screen = pilot.app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, HandSummary):
                await pilot.press("enter")
                continue
            board = my_board(pilot)
            if board is None:
                continue
            await pilot.press("down")
            await pilot.press("enter" if board.picker.move() is not None else "p")
        else:
            raise AssertionError("the game did not reach the results screen")
        assert session.over
        result = session.result()
        assert result["scores"][result["winners"][0]] >= 1
        assert any(seat == 0 and m["type"] == "play" for seat, m in session.moves[1:])


async def press_tile(pilot: Pilot[None], board: Board, tile: Any) -> None:
    """Walk the cursor to `tile` with the arrow keys and select one of it."""
    groups = [t for t, _ in board.picker.groups]
    steps = groups.index(tile) - board.picker.cursor
    await pilot.press(*["right" if steps > 0 else "left"] * abs(steps), "space")


async def test_the_table_reads_a_selection_before_it_is_sent() -> None:
    """Two people at one terminal: the first leads a straight 5-6-7, the second holds 8, 9
    and a joker (and a 4 and a 7)."""
    first, second = [5, 6, 7], [8, 9, SB, 4, 7]
    rest = Counter(DECK)
    rest.subtract(Counter(first + second))
    pad = sorted((t for t in rest.elements() if t != SB), reverse=True)
    bag = first + pad[:17] + second + pad[17:32] + pad[32:] + [SB] * rest[SB]
    app = local_app(GAME, 2, 0, seed=3, options={"stack": bag, "first": 0}, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")  # the handoff to the first person
        board = await wait_for_my_turn(pilot)
        assert board.table.seat == 0
        for tile in first:
            await press_tile(pilot, board, tile)
        assert "straight 5-6-7" in text_of(board.query_one("#reading", Static))
        await pilot.press("enter")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                break
        board = await wait_for_my_turn(pilot)
        assert board.table.seat == 1
        reading = board.query_one("#reading", Static)
        await press_tile(pilot, board, 4)
        await press_tile(pilot, board, 7)
        assert "not a set: 4 and 7" in text_of(reading)
        assert board.picker.move() is None
        await pilot.press("c")
        assert board.picker.tiles() == []
        await press_tile(pilot, board, 8)
        await press_tile(pilot, board, 9)
        await press_tile(pilot, board, SB)
        # The highest useful value first, the other one key away.
        assert "straight 8-9-10, joker as 10" in text_of(reading)
        assert f"beats straight 5-6-7 by {board.table.name(0)}" in text_of(reading)
        assert "7-8-9" in text_of(board.query_one("#hint", Static))
        await pilot.press("j")
        assert "straight 7-8-9, joker as 7" in text_of(reading)
        await pilot.press("j")
        assert "joker as 10" in text_of(reading)
        await pilot.press("enter")
        await settle(pilot)
        session = local_link(app).session
        assert session.moves[-1] == (
            1,
            {"type": "play", "tiles": [8, 9, SB], "values": [8, 9, 10]},
        )


async def test_keys_walk_the_legal_plays_of_one_type_and_a_click_selects() -> None:
    app = local_app(GAME, 1, 3, "strong", seed=5, options={"first": 0}, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        board = await wait_for_my_turn(pilot)
        singles = board.picker.plays_of("single")
        await pilot.press("down")
        assert board.picker.move() == singles[0]
        await pilot.press("down")
        assert board.picker.move() == singles[1]
        await pilot.press("up", "up")
        assert board.picker.move() == singles[-1]
        await pilot.press("t")
        kind = board.picker.walk_kind()
        assert kind != "single" and board.picker.move() == board.picker.plays_of(kind)[0]
        await pilot.press("c")
        row = board.query_one("#hand", CardRow)
        await pilot.click(row, offset=(row.size.width // 2, 3))
        await settle(pilot)
        assert len(board.picker.tiles()) == 1


async def test_the_table_fits_80x24_and_uses_a_large_window() -> None:
    for size in ((80, 24), (160, 50)):
        app = local_app(GAME, 1, 3, "strong", seed=2, options={"first": 0}, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            board = await wait_for_board(pilot)
            await settle(pilot)
            large = size == (160, 50)
            assert board.has_class("-roomy") == large
            hand = board.query_one("#hand", CardRow)
            trick = board.query_one("#trick-tiles", CardRow)
            assert hand.region.bottom <= size[1] - 1
            assert (hand.region.height > 6) == large and trick.face_rows == hand.face_rows
            assert board.max_scroll_y == 0


def test_events_read_as_sentences() -> None:
    names = ["Ann", "Bob"]
    play = {
        "kind": "play", "seat": 1, "tiles": [8, 9, SB], "values": [8, 9, 10],
        "set": "straight", "size": 3, "rank": 10,
    }  # fmt: skip
    assert describe(play, names, "en") == "Bob: straight 8-9-10, joker as 10."
    assert describe(play, names, "de") == "Bob: Straße 8-9-10, Joker als 10."
    assert describe({"kind": "pass", "seat": 0}, names, "en") == "Ann passed."
    hand_end = {
        "kind": "hand_end", "hand": 2, "winner": 0, "points": 7,
        "tiles_left": [0, 7], "scores": [19, 4],
    }  # fmt: skip
    assert describe(hand_end, names, "en") == "Hand 2: Ann scores 7. Scores: Ann 19, Bob 4."
    assert "unknown" not in describe({"kind": "trick", "seat": 1, "tiles": 3}, names, "en")


def test_the_picker_offers_the_best_joker_value_first() -> None:
    picker = Picker()
    table = {"seat": 1, "set": "pair", "size": 2, "rank": 6, "tiles": [6, 6], "values": [6, 6]}
    legal = [{"type": "pass"}]
    picker.update([3, 9, SB], table, legal)
    picker.point(2)
    picker.take()
    picker.point(1)
    picker.take()
    shown = picker.reading()
    assert shown is not None and shown["values"] == [9, 9]
    assert picker.others() == []
    picker.clear()
    picker.point(2)
    picker.take()
    assert picker.reading()["set"] == "single"
    assert picker.move() is None  # a single does not beat a pair


async def test_the_goal_is_a_lobby_option_that_reaches_the_engine() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await open_lobby(pilot, GAME)
        labels = " ".join(text_of(s) for s in app.screen.query(".option-label").results(Static))
        assert "Points to win the game" in labels
        field = app.screen.query_one("#opt-points_to_win", Input)
        assert field.value == "50"
        field.value = "12"
        await pilot.click("#start")
        board = await wait_for_board(pilot)
        session = local_link(app).session
        assert session.options == {"points_to_win": 12}
        assert board.table.view["points_to_win"] == 12
        assert "12 wins" in text_of(board.query_one("#info", Static))


def test_the_rules_are_there_in_both_languages() -> None:
    english, german = rules_text(GAME, "en"), rules_text(GAME, "de")
    assert english.startswith("# Skip-Bo Breakers") and german.startswith("# Skip-Bo Breakers")
    assert "SB-Breaker" in english and "Paarfolge" in german and english != german


# Two Breakers (four 2s, three 3s), two jokers and plain tiles: the lowest legal single is a
# joker standing for 1, the next ones a 2 or a 3 taken from a Breaker.
STRONG = [2, 2, 2, 2, 3, 3, 3, SB, 9, 11, 11, 12, 13, 5, 5, 6, 6, 7, SB, 14]


async def test_down_offers_plays_that_keep_jokers_and_breakers_first() -> None:
    options = {"stack": stack(STRONG), "first": 0}
    app = local_app(GAME, 1, 1, "strong", seed=3, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        board = await wait_for_my_turn(pilot)
        reading = board.query_one("#reading", Static)
        await pilot.press("down")
        assert text_of(reading).startswith("single 5 · ")
        await pilot.press("t")
        assert text_of(reading).startswith("pair 5-5 · ")
        # Further down come the plays that spend a joker or split a Breaker.
        singles = board.picker.plays_of("single")
        assert singles[0]["tiles"] == [5] and SB not in singles[0]["tiles"]
        spent = [SB in m["tiles"] or m["tiles"][0] in (2, 3) for m in singles]
        assert spent == sorted(spent)


async def test_a_hint_names_the_set_as_the_table_does_and_selects_its_tiles() -> None:
    options = {"stack": stack(STRONG), "first": 0}
    app = local_app(GAME, 1, 1, "strong", seed=3, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        board = await wait_for_my_turn(pilot)
        said = game_screen(app).query_one(HintLine).said
        await pilot.press("h")
        for _ in range(300):
            await pilot.pause(0.05)
            notes = list(said)
            final = [n for n in notes if "Hint: " in n and "thinking" not in n]
            if final:
                break
        else:
            raise AssertionError("no hint arrived")
        move = board.picker.move()
        assert move is not None and move in board.table.legal
        reading = board.picker.reading()
        assert reading is not None
        words = set_words(reading["set"], reading["rank"], move["tiles"], move["values"])
        assert final[0].startswith(f"Hint: play {words}")
        assert "you lead with it" in text_of(board.query_one("#reading", Static))


async def test_counts_on_touching_tiles_never_run_together() -> None:
    options = {"stack": stack(MINE), "first": 0}
    app = local_app(GAME, 1, 1, "strong", seed=3, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        board = await wait_for_my_turn(pilot)
        row = board.query_one("#hand", CardRow)
        assert row._layout(row.size.width)[1] == 0  # 15 kinds of tile: they touch
        await press_tile(pilot, board, 2)
        await press_tile(pilot, board, 3)
        lifted = row.render().plain.split("\n")[0]
        # One of the four 2s and one of the three 3s picked, each count apart.
        assert lifted.split() == ["1/4", "1/3"]
        unlifted = row.render().plain.split("\n")[1]
        assert not re.search(r"×\d\S", unlifted)


async def test_p_while_leading_says_why_it_does_nothing() -> None:
    options = {"stack": stack(MINE), "first": 0}
    app = local_app(GAME, 1, 1, "strong", seed=3, options=options, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        board = await wait_for_my_turn(pilot)
        session = local_link(app).session
        state_no, said = session.state_no, game_screen(app).query_one(HintLine).said
        await pilot.press("p")
        await settle(pilot)
        notes = list(said)
        assert notes == ["You lead, so you cannot pass: play any set (↓ shows your plays)"]
        assert session.state_no == state_no and board.table.view["table"] is None
