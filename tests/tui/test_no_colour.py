"""Nothing said by colour alone: each board, in the middle of a game and on its results screen,
read as text with every colour stripped (the screen's characters only, what a colour-blind
player or a terminal without colour keeps), in the default and the high-contrast theme. Each
thing a colour tells has a sign or a word beside it: whose turn (▶, on the clocks too, where a
clock that ran out says "!"), which seat is yours, the dwarves' colours, the chocolate's dark
pieces (▪), Chez Geek's card kinds (☺ ♪ ◇ ↯), the cards that count in a run of Schöne, the card
picked (lifted a row), the moves that would take a trick or may be played now (▲), a tile that
fits or not (✓ ✗) and the winners (★).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from textual.app import App
from textual.widget import Widget
from tui_helpers import game_screen, settle, wait_for_board

from engines import get_engine
from engines.schoko.tiles import DARK, PATTERNS
from net.table.session import HostSession, SeatInfo
from themes import THEMES as THEME_SET
from tui.app import TabletopApp, local_app
from tui.boards.chez_geek.cards import card_name
from tui.boards.chez_geek.faces import KIND_SIGNS
from tui.boards.schoko.looks import DARK_MARK
from tui.boards.zwergenamulett.faces import face_name
from tui.screens.results import ResultsScreen
from tui.widgets.clocks import SeatClocks

THEMES = ("default", "high-contrast")
SIZE = (120, 36)


def screen_rows(app: App[Any]) -> list[str]:
    """The window's rows as characters alone: every colour and style stripped."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def rows_of(app: App[Any], widget: Widget) -> list[str]:
    """The stripped rows where `widget` is on screen."""
    region = widget.region
    return [row[region.x:region.right] for row in screen_rows(app)[region.y:region.bottom]]


async def mid_game(pilot: Any, keys: list[str], until: Any) -> None:
    """Keys pressed one at a time (the bots answer between them) until `until()` holds."""
    for key in keys:
        if until():
            break
        await pilot.press(key)
        await settle(pilot, 5)
    for _ in range(200):
        if until():
            return
        await pilot.pause(0.02)
    raise AssertionError("the game did not reach the state to look at")


def check_turn(app: App[Any]) -> None:
    """Whose turn: the seat in turn, and only it, has ▶ before its name; yours says "you"."""
    text = "\n".join(screen_rows(app))
    table = game_screen(app).latest
    assert table is not None
    turn = table.view.get("turn")
    names = table.names
    if turn is not None:
        assert f"▶ {names[turn]}" in text
    for seat, name in enumerate(names):
        if seat != turn:
            assert f"▶ {name} " not in text and not text.count(f"▶ {name}\n")
    assert "· you" in text or " you " in text


@pytest.mark.parametrize("theme", THEMES)
async def test_zwergenamulett_says_colours_and_picks_in_signs(theme: str) -> None:
    app = local_app("zwergenamulett", 1, 2, "strong", seed=8, options={"first": 0}, lang="en",
                    theme=theme, bot_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        board = await wait_for_board(pilot)
        await pilot.press("right")
        await settle(pilot)
        check_turn(app)
        hand = board.query_one("#hand")
        rows = rows_of(app, hand)
        text = " ".join(" ".join(rows).split())
        view = board.table.view
        for card in view["hand"]:
            words = face_name(card).split()
            assert all(word in text or word[:5] in text for word in words), card
        # The card picked stands a row above the others: its key is on a row of its own.
        keys = {str(i + 1): next(y for y, row in enumerate(rows) if f" {i + 1} " in f" {row} ")
                for i in range(min(len(view["hand"]), 9))}
        assert len(set(keys.values())) == 2 and list(keys.values()).count(keys["2"]) == 1
        # Which cards would take the trick: ▲ under them, and the sign explained above.
        legal = board.table.legal
        assert legal and ("▲" in text or not view.get("trick"))


@pytest.mark.parametrize("theme", THEMES)
async def test_schoko_marks_every_dark_piece(theme: str) -> None:
    app = local_app("schoko", 1, 1, "strong", seed=5, lang="en", theme=theme, bot_delay=0)
    async with app.run_test(size=(160, 50)) as pilot:
        board = await wait_for_board(pilot)
        session = game_screen(app).link.session  # type: ignore[attr-defined]
        await mid_game(pilot, ["w", "enter", "enter", "enter", "enter"],
                       lambda: len(session.engine.view(session.state, None)["tiles"]) >= 8
                       and 0 in session.engine.to_act(session.state))
        await settle(pilot, 5)
        check_turn(app)
        picture = board.picture  # type: ignore[attr-defined]
        # Every dark piece on the table and of the ghost, and none other, carries ▪.
        dark = sum(1 for cell, (colour, _) in picture.cells.items()
                   if colour == "dark" and cell not in picture.ghost)
        dark += sum(1 for colour in picture.ghost.values() if colour == "dark")
        grid = "".join(rows_of(app, board.query_one("#grid")))
        assert dark > 0 and grid.count(DARK_MARK) == dark
        assert ("✓" in grid) != ("✗" in grid)  # the ghost fits or not, in a sign
        hand = "".join(rows_of(app, board.query_one("#hand")))
        mine = board.table.view["hand"]
        assert hand.count(DARK_MARK) == sum(PATTERNS[t][0].count(DARK) for t in mine)
        text = "\n".join(screen_rows(app))
        assert "white" in text and "dark" in text  # each player's colour in words


@pytest.mark.parametrize("theme", THEMES)
async def test_schoene_brackets_the_cards_that_do_not_count(theme: str) -> None:
    app = local_app("schoene", 1, 2, "strong", seed=3, lang="en", theme=theme, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        board = await wait_for_board(pilot)
        session = game_screen(app).link.session  # type: ignore[attr-defined]

        def runs() -> bool:
            view = session.engine.view(session.state, None)
            return any(len(run) > 1 for p in view["players"] for run in p["runs"])

        await mid_game(pilot, ["t"] * 40, lambda: runs() and 0 in session.engine.to_act(
            session.state))
        await settle(pilot, 5)
        check_turn(app)
        text = "\n".join(screen_rows(app))
        for player in board.table.view["players"]:
            for run in player["runs"]:
                assert f" {run[0]} " in text
                for card in run[1:]:
                    assert f"({card})" in text


@pytest.mark.parametrize("theme", THEMES)
async def test_chez_geek_signs_each_kind_and_each_playable_card(theme: str) -> None:
    app = local_app("chez_geek", 1, 2, "strong", seed=5, lang="en", theme=theme, bot_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        board = await wait_for_board(pilot)
        await settle(pilot, 5)
        check_turn(app)
        hand = board.query_one("#hand")
        text = " ".join(" ".join(rows_of(app, hand)).split())
        cards = board.table.view["hand"]
        for sign in {KIND_SIGNS.get(c.get("type"), KIND_SIGNS["thing"]) for c in cards}:
            assert sign in text
        assert sum(text.count(s) for s in KIND_SIGNS.values()) == len(cards)
        playable = {m.get("card") for m in board.table.legal}
        assert text.count("▲") == sum(1 for c in cards if c.get("card") in playable)
        for card in cards:
            assert card_name(card.get("card")).split()[0] in text


@pytest.mark.parametrize("theme", THEMES)
async def test_skipbo_breakers_lifts_the_tiles_picked(theme: str) -> None:
    app = local_app("skipbo_breakers", 1, 2, "strong", seed=5, options={"first": 0},
                    lang="en", theme=theme, bot_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        board = await wait_for_board(pilot)
        await settle(pilot)
        check_turn(app)
        before = rows_of(app, board.query_one("#hand"))
        await pilot.press("space")  # pick the tile under the cursor
        await settle(pilot)
        after = rows_of(app, board.query_one("#hand"))
        assert before != after
        # The picked tile moved up a row: one label left its row for the row above.
        labels = [set(row.split()) for row in after]
        assert any(a - b and any(x.isdigit() or x == "SB" for x in a - b)
                   for a, b in itertools.pairwise(labels))


def finished(engine_id: str, seats: int, seed: int) -> tuple[dict[str, Any], list[str]]:
    session = HostSession(engine_id, [SeatInfo(f"Bot {i + 1}", "random")
                                      for i in range(seats)], seed=seed)
    session.run_bots()
    return session.result(), [s.name for s in session.seats]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("engine_id", "seats"), [
    ("schoene", 3), ("zwergenamulett", 3), ("skipbo_breakers", 3), ("schoko", 2),
    ("chez_geek", 3)])
async def test_the_results_mark_winners_and_places_in_signs(engine_id: str, seats: int,
                                                            theme: str) -> None:
    result, names = finished(engine_id, seats, random.Random(engine_id).randrange(1000))
    app = TabletopApp(lang="en", theme=theme)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.push_screen(ResultsScreen(engine_id, result, names, can_rematch=False))
        await settle(pilot, 5)
        rows = screen_rows(app)
        text = "\n".join(rows)
        places = get_engine(engine_id).places(result)
        for seat in result["winners"]:  # the place, the name, and ★ beside or under them
            at = next(i for i, r in enumerate(rows)
                      if f"{places[seat]}.  {names[seat]}" in r)
            assert "★" in rows[at] + rows[at + 1]
        assert text.count("★ winner") == len(result["winners"])
        if engine_id == "schoko":
            final = app.screen.query_one("#final-table")
            drawn = "".join(rows_of(app, final))
            dark = sum(1 for colour, _ in final.picture.cells.values()  # type: ignore[attr-defined]
                       if colour == "dark")
            assert drawn.count(DARK_MARK) == dark


@pytest.mark.parametrize("theme", THEMES)
async def test_the_clocks_say_whose_runs_and_whose_ran_out_in_signs(theme: str) -> None:
    class Clocks(App[None]):
        def compose(self) -> Any:
            yield SeatClocks(id="clocks")

    app = Clocks()
    for each in THEME_SET.values():
        app.register_theme(each)
    async with app.run_test(size=(80, 3)) as pilot:
        app.theme = theme
        clocks = app.query_one(SeatClocks)
        clocks.show({"bank": 60, "increment": 5, "extension": 30, "left": [50.0, 0.0, 12.0],
                     "running": [2], "extended": [True, False, False],
                     "timeouts": [0, 1, 0], "skips": [0, 0, 0]}, ["Ann", "Bo", "Cy"], 0)
        await settle(pilot)
        line = " ".join(screen_rows(app)[0].split())
        assert "Ann 0:50+" in line and "Bo 0:00!" in line and "▶Cy 0:12" in line


async def test_scho_ko_final_table_in_square_pixels_shows_the_dark_pieces_by_shape() -> None:
    result, names = finished("schoko", 2, 7)
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ResultsScreen("schoko", result, names, can_rematch=False))
        await settle(pilot, 5)
        final = app.screen.query_one("#final-table")
        assert final.piece_cell() is None  # type: ignore[attr-defined]  # too small: pixels
        drawn = "".join(rows_of(app, final))
        dark = sum(1 for colour, _ in final.picture.cells.values()  # type: ignore[attr-defined]
                   if colour == "dark")
        halves = 2 * drawn.count("█") + drawn.count("▀") + drawn.count("▄")
        assert dark > 0 and halves == dark
