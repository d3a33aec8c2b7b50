"""The words on the two finished tables: sentences about the player at the keys read right
("You lead", "Du spielst aus"), counts agree with their nouns ("1 chip"), points are called
points, the pig mark is explained, and no summary or pig line is cut off at 80×24."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static
from tui_helpers import settle, wait_for_board

from tui import i18n
from tui.app import local_app
from tui.boards.base import GameBoard
from tui.boards.schoene import Board as SchoeneBoard
from tui.boards.schoene import describe as schoene_describe
from tui.boards.zwergenamulett import Board as ZwergBoard
from tui.boards.zwergenamulett import RoundSummary
from tui.boards.zwergenamulett import describe as zwerg_describe
from tui.boards.zwergenamulett.counts import SeatCounts
from tui.boards.zwergenamulett.summary import summary_text
from tui.i18n import you_key
from tui.widgets import PlayerArea
from tui.widgets.trick import TrickArea

SMALL = (80, 24)
LONG_NAMES = [f"Player with a long name {n}" for n in range(1, 7)]


@contextmanager
def language(lang: str) -> Iterator[None]:
    before = i18n.language()
    i18n.set_language(lang)
    try:
        yield
    finally:
        i18n.set_language(before)


def plain(text: object) -> str:
    return " ".join(str(text).split())


def text_on_screen(app: App[Any], widget: Widget) -> str:
    """What the window really shows where `widget` is, its lines joined: words cut off at an
    edge are missing here even when the widget holds them."""
    strips = app.screen._compositor.render_strips()
    region = widget.region
    lines = [strips[y].text[region.x : region.right] for y in range(region.y, region.bottom)]
    return plain(" ".join(lines))


def test_you_key_picks_the_second_person_for_the_player_at_the_keys() -> None:
    assert you_key("zwerg.leads", "You") == "zwerg.leads.you"
    assert you_key("zwerg.leads", "Du") == "zwerg.leads.you"
    assert you_key("zwerg.leads", "Youssef") == "zwerg.leads"
    every = i18n.keys("en") | i18n.keys("de")
    for lang in i18n.LANGUAGES:
        for key in every:
            if key.endswith(".you") and key.startswith(("zwerg.", "schoene.")):
                assert key in i18n.keys(lang), f"{key} missing in {lang}"
                assert key.removesuffix(".you") in i18n.keys(lang)


@pytest.mark.parametrize(
    ("lang", "leads", "taking", "led_off"),
    [
        ("en", "You lead the next trick", "You are taking it", "You led off"),
        ("de", "Du spielst aus", "Du stichst", "Du hast ausgespielt"),
    ],
)
async def test_the_trick_speaks_to_you(lang: str, leads: str, taking: str, led_off: str) -> None:
    # Slow bots: the table stays at our lead, then at our card alone in the trick.
    app = local_app("zwergenamulett", 1, 2, "strong", seed=8, options={"first": 0}, lang=lang,
                    bot_delay=60)
    async with app.run_test(size=SMALL) as pilot:
        board = await wait_for_board(pilot)
        await settle(pilot)
        trick = board.query_one("#trick", TrickArea)
        assert plain(trick.title.render()) == leads
        await pilot.press("enter")
        await settle(pilot)
        assert plain(trick.title.render()).endswith(taking)
        assert led_off in plain(board.query_one("#info", Static).render())


def test_a_won_call_and_its_gold_speak_to_you() -> None:
    summary = {
        "round": 2,
        "ended_by": "claim",
        "claim_success": True,
        "claimant": 0,
        "claim_dwarves": 8,
        "gold_to": [0],
        "gold_back": None,
    }
    with language("en"):
        text = plain(summary_text(summary, ["You", "Bo"]))
        assert "You called 7 Zwerge! and showed 8 dwarves: the round is yours." in text
        assert plain(summary_text(summary, ["Ada", "Bo"])).startswith(
            "Ada called 7 Zwerge! and showed 8 dwarves: the round is theirs."
        )
    with language("de"):
        text = plain(summary_text(summary, ["Du", "Bo"]))
        assert "die Runde gehört dir" in text and "Ein Goldstück bekommt: Du." in text


def test_log_sentences_with_you_read_right() -> None:
    names = ["You", "Bot 2", "Bot 3"]
    pigs_out = {"kind": "pigs_out", "seat": 0, "card": 27}
    assert "goes next" not in schoene_describe(pigs_out, names, "en")
    assert schoene_describe(pigs_out, names, "en").endswith("Next: You.")
    trick = {"kind": "trick", "seat": 0, "cards_count": 3}
    assert zwerg_describe(trick, names, "en") == "You took the trick (3 cards)."
    assert zwerg_describe(trick, ["Du", "Bo"], "de") == "Du: Stich bekommen (3 Karten)."


async def test_schoene_counts_agree_with_their_nouns_and_points_are_points() -> None:
    # Slow bots: nothing moves on while the test shows its own table.
    app = local_app("schoene", 1, 2, "strong", seed=2024, options={}, lang="en", bot_delay=60)
    async with app.run_test(size=SMALL) as pilot:
        board = await wait_for_board(pilot)
        assert isinstance(board, SchoeneBoard)
        table = board.table
        players = [dict(p) for p in table.view["players"]]
        other = next(s for s in range(len(players)) if s != table.seat)
        players[other]["runs"] = [[20, 21], [33]]
        view = {
            **table.view,
            "centre_chips": 1,
            "my_chips": 1,
            "deck_left": 1,
            "players": players,
        }
        board.show(replace(table, view=view))
        await settle(pilot)
        assert plain(board.query_one("#on-card").render()) == "● 1 chip on the card"
        assert plain(board.query_one("#deck", Static).render()) == "1 more card to come"
        mine = board.query_one(f"#seat-{table.seat}", PlayerArea)
        assert plain(mine.query_one(".chips").render()) == "● 1 chip"
        theirs = board.query_one(f"#seat-{other}", PlayerArea)
        assert str(theirs.border_subtitle).startswith("points 53")
        # The results screen says what the numbers are.
        result = {"players": [{"card_points": 53, "chips": 1, "pigs": 1, "runs": [[20, 21]]}]}
        detail = SchoeneBoard.result_detail(result, 0)
        assert detail is not None
        await app.screen.mount(detail)
        sums = [w for w in detail.query(Static) if w.has_class("sum")]
        assert plain(sums[0].render()) == "53 card points − 1 chip − 1 pig"


async def test_zwergenamulett_counts_agree_with_their_nouns() -> None:
    with language("en"):
        counts = SeatCounts()
        counts.show(1, 1, 0)
        assert str(counts.tooltip) == "1 card in hand · 1 trick won · 0 gold"
    for lang, words in (("en", "after 1 round"), ("de", "nach 1 Runde")):
        app = local_app("zwergenamulett", 1, 1, "strong", seed=1, options={}, lang=lang,
                        bot_delay=60)
        async with app.run_test(size=SMALL) as pilot:
            await wait_for_board(pilot)
            detail = ZwergBoard.result_detail({"gold": [3, 1], "rounds": 1}, 0)
            assert detail is not None
            await app.screen.mount(detail)
            await settle(pilot)
            assert words in [plain(w.render()) for w in detail.query(Static)]


async def test_the_pig_mark_is_explained_on_the_table() -> None:
    for lang, words in (("en", "(oo) = Glücksschwein"), ("de", "(oo) = Glücksschwein")):
        app = local_app("schoene", 1, 2, "strong", seed=5, options={}, lang=lang, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            board = await wait_for_board(pilot)
            await settle(pilot)
            legend = board.query_one("#pig-legend", Static)
            assert legend.display
            assert text_on_screen(app, legend).startswith(words)
            assert text_on_screen(app, legend) == plain(legend.render())


async def test_schoene_pig_line_is_not_cut_at_80x24() -> None:
    app = local_app("schoene", 1, 6, "strong", seed=5, options={}, lang="en", bot_delay=60)
    app_names = [*LONG_NAMES, "Seventh"]
    async with app.run_test(size=SMALL) as pilot:
        board = await wait_for_board(pilot)
        table = board.table
        players = [dict(p, name=app_names[i]) for i, p in enumerate(table.players)]
        view = {**table.view, "centre_pigs": [1, 2, 3, 4, 5, 6]}
        board.show(replace(table, players=players, view=view))
        await settle(pilot)
        line = board.query_one("#pigs-on", Static)
        shown = text_on_screen(app, line)
        assert shown == plain(line.render())
        assert all(name in shown for name in app_names[1:])


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_round_summaries_are_not_cut_at_80x24(lang: str) -> None:
    app = local_app("zwergenamulett", 1, 5, "strong", seed=5, options={}, lang=lang,
                    bot_delay=60)
    claim = {
        "round": 3,
        "ended_by": "claim",
        "claim_success": False,
        "claimant": 0,
        "claim_dwarves": None,
        "gold_to": [],
        "gold_back": 0,
    }
    played = {
        "round": 4,
        "ended_by": "play",
        "points": [14, 20, 3, 0, 44, 7],
        "card_points": [14, 15, 3, 0, 36, 7],
        "amulet_bonus": [0, 5, 0, 0, 8, 0],
        "winners": [4],
        "gold_to": [4],
        "gold_back": None,
    }
    async with app.run_test(size=SMALL) as pilot:
        board: GameBoard = await wait_for_board(pilot)
        for summary in (claim, played):
            await app.push_screen(RoundSummary(summary, LONG_NAMES))
            await settle(pilot)
            body = app.screen.query_one("#summary-body", Static)
            shown = text_on_screen(app, body)
            assert shown == plain(body.render()), shown
            assert app.screen.screen.region.contains_region(body.region)
            if summary is played:
                for name, total in zip(LONG_NAMES, played["points"], strict=True):
                    assert re.search(rf"{name} +\d+ +(\+\d+|—) +{total}\b", shown), name
            await pilot.press("enter")
            await settle(pilot)
        assert board.is_mounted


def test_summary_columns_say_points() -> None:
    summary = {
        "round": 1,
        "ended_by": "play",
        "points": [30, 12],
        "card_points": [25, 12],
        "amulet_bonus": [5, 0],
        "winners": [0],
        "gold_to": [0],
    }
    with language("en"):
        head = str(summary_text(summary, ["Ada", "Bo"]).split()[0])
        assert head.split()[:2] == ["Player", "points"]
        assert "cards" not in head
    with language("de"):
        head = str(summary_text(summary, ["Ada", "Bo"]).split()[0])
        assert head.split()[:2] == ["Spieler", "Punkte"]

