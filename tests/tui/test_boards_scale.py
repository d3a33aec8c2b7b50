"""Both finished tables at the sizes that matter: at 80×24 (an SSH window) everything is on
screen and nothing is cut; at 160×50 the cards are drawn larger, and the table still fits."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget
from tui_helpers import MAX_STEPS, settle, wait_for_board

from themes import DEFAULT_THEME, THEMES
from tui.app import local_app
from tui.boards.base import GameBoard
from tui.boards.zwergenamulett import Board as ZwergBoard
from tui.boards.zwergenamulett import RoundSummary
from tui.boards.zwergenamulett.counts import BACK, SeatCounts
from tui.screens.handoff import HandoffScreen
from tui.widgets import Card, CardStrip, ChipPile, PlayerArea, rescale
from tui.widgets.cardrow import (
    MAX_WIDTH,
    MIN_WIDTH,
    SOFT_HYPHEN,
    CardRow,
    Face,
    Slot,
    name_lines,
)
from tui.widgets.cards import TALL_LINES, group_cells
from tui.widgets.scale import SIZES
from tui.widgets.trick import TrickArea

SMALL = (80, 24)
MIDDLE = (100, 30)  # the log beside a narrow board
LARGE = (160, 50)


async def schoene_with_cards(pilot: Pilot[None], taken: int = 2) -> GameBoard:
    """A Schöne table where the seat on show has taken `taken` cards (so there are runs)."""
    for _ in range(MAX_STEPS):
        board = await wait_for_board(pilot)
        view = board.table.view
        mine = sum(len(run) for run in view["players"][board.table.seat]["runs"])
        if mine >= taken and board.table.seat in view["to_act"]:
            await settle(pilot)
            return board
        if board.table.seat in view["to_act"]:
            await pilot.press("t")
    raise AssertionError("never took enough cards")


async def zwerg_mid_trick(pilot: Pilot[None]) -> GameBoard:
    """A Zwergenamulett table where the seat on show must play into a started trick."""
    for _ in range(MAX_STEPS):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, RoundSummary | HandoffScreen):
            await pilot.press("enter")
            continue
        boards = screen.query(ZwergBoard)
        if not boards:
            continue
        board = boards.first()
        view = board.table.view
        if not view["over"] and view["turn"] == board.table.seat:
            if view["trick"]:
                await settle(pilot)
                return board
            await pilot.press("enter")
    raise AssertionError("never my turn in a started trick")


async def open_table(pilot: Pilot[None], game: str) -> GameBoard:
    return await (schoene_with_cards(pilot) if game == "schoene" else zwerg_mid_trick(pilot))


def assert_all_inside(board: GameBoard) -> None:
    """Nothing needs scrolling, and every widget on show lies wholly inside the board (and so
    inside the window): no part of the table is cut off."""
    assert board.max_scroll_y == 0 and board.max_scroll_x == 0
    screen = board.screen.region
    assert screen.contains_region(board.region)
    for widget in board.query("*"):
        if widget.display and widget.visible and widget.region.area:
            assert board.region.contains_region(widget.region), (widget, widget.region)
    for row in board.query(CardRow):
        if row.slots:
            width, _, _ = row._layout(row.size.width)
            assert width >= MIN_WIDTH, (row, width)


def card_width(row: CardRow) -> int:
    return row._layout(row.size.width)[0]


@pytest.mark.parametrize(
    ("game", "people", "bots"),
    [("schoene", 1, 2), ("schoene", 1, 6), ("zwergenamulett", 1, 2), ("zwergenamulett", 1, 5)],
)
@pytest.mark.parametrize("size", [SMALL, MIDDLE, LARGE])
async def test_the_whole_table_is_on_screen(
    game: str, people: int, bots: int, size: tuple[int, int]
) -> None:
    app = local_app(game, people, bots, "strong", seed=3, options={}, lang="de", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        board = await open_table(pilot, game)
        assert_all_inside(board)


async def test_zwergenamulett_cards_are_larger_on_a_large_terminal() -> None:
    measured = {}
    for size in (SMALL, LARGE):
        app = local_app("zwergenamulett", 1, 3, "strong", seed=7, options={}, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            board = await zwerg_mid_trick(pilot)
            hand = board.query_one("#hand", CardRow)
            trick = board.query_one("#trick", TrickArea)
            # Across the table, the others' hands: a card back per card in hand.
            backs = [
                str(counts.render()).split("\n")[0].replace(BACK, BACK[0]).count(BACK[0])
                for counts in board.query(SeatCounts)
            ]
            hands = [board.table.view["hand_sizes"][c.parent.seat] for c in board.query(SeatCounts)]
            assert backs == (hands if size == LARGE else [0] * len(hands))
            measured[size] = (
                card_width(hand),
                hand.face_rows,
                card_width(trick.row),
                trick.row.region.height,
                hand.region.height,
            )
    small, large = measured[SMALL], measured[LARGE]
    # 80×24 draws exactly as before steps existed: 10 cells wide, 4 rows of face.
    assert small[:3] == (MAX_WIDTH, SIZES[0].rows, MAX_WIDTH)
    assert all(big > little for big, little in zip(large, small, strict=True)), measured
    assert large[0] >= 1.5 * small[0] and large[1] >= 2 * small[1]


async def test_schoene_cards_are_larger_on_a_large_terminal() -> None:
    measured = {}
    for size in (SMALL, LARGE):
        app = local_app("schoene", 1, 2, "strong", seed=2024, options={}, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            board = await schoene_with_cards(pilot)
            centre = board.query_one("#centre", Card)
            deck = board.query_one("#deck-card", Card)
            mine = board.query_one(f"#seat-{board.table.seat}", PlayerArea)
            strip = mine.query_one(CardStrip)
            measured[size] = (
                centre.region.width,
                centre.region.height,
                deck.region.height,
                strip.region.height,
            )
    small, large = measured[SMALL], measured[LARGE]
    assert small == (16, 7, 5, 1), "80×24 must look as it did"
    assert all(big > little for big, little in zip(large, small, strict=True)), measured
    # The centre card takes a good part of the window's height.
    assert large[1] >= LARGE[1] // 3


async def test_a_board_keeps_its_step_when_the_window_changes() -> None:
    app = local_app("zwergenamulett", 1, 2, "strong", seed=7, options={}, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        board = await zwerg_mid_trick(pilot)
        large = board.query_one("#hand", CardRow).face_rows
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, 5)
        assert board.query_one("#hand", CardRow).face_rows == SIZES[0].rows < large
        assert_all_inside(board)
        await pilot.resize_terminal(*LARGE)
        await settle(pilot, 5)
        assert board.query_one("#hand", CardRow).face_rows == large


class WidgetApp(App[None]):
    """The shared widgets on their own, as another game's board would use them."""

    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.widgets = widgets
        self.register_theme(THEMES[DEFAULT_THEME])
        self.theme = DEFAULT_THEME

    def compose(self) -> ComposeResult:
        yield from self.widgets


async def test_shared_widgets_scale_and_keep_their_old_defaults() -> None:
    faces = [Slot(Face("Drache", "11")), Slot(Face("Zwerg\nrot", "☻")), Slot(None)]
    plain = CardRow(faces, captions=True, notes=True)  # no scale: exactly as before
    large = CardRow(faces, captions=True, notes=True, scale=2)
    strip = CardStrip([["3", "4"], ["10"]], mark_first=True, scale=1)
    long_strip = CardStrip([[str(n)] for n in range(100, 160)], scale=1)
    pile = ChipPile(5)
    app = WidgetApp(plain, large, strip, long_strip, pile)
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        assert plain.region.height == 1 + 4 + 1 and card_width(plain) == MAX_WIDTH
        assert large.region.height == 1 + SIZES[2].rows + 1
        assert card_width(large) == SIZES[2].width
        lines = [str(line) for line in large.render().split("\n")]
        assert any("Drache" in line for line in lines[2:-2]), "the name sits mid-face"
        assert "11" in lines[1 + SIZES[2].rows - 1]
        assert strip.region.height == SIZES[1].tile_rows  # one line of tall tiles
        # Too many lines for tall tiles: back to flat labels, so the table keeps its room.
        assert long_strip.region.height > TALL_LINES
        assert long_strip.region.height == len(long_strip._lines(long_strip.size.width))
        assert str(pile.render()).startswith("● 5")
        rescale(app.screen, 1)
        await settle(pilot)
        assert str(pile.render()).startswith("●●●●● 5")
        assert plain.face_rows == SIZES[1].rows and plain.has_class("-scale-1")
        rescale(app.screen, 0)
        await settle(pilot)
        assert plain.region.height == 6 and not plain.has_class("-scale-1")


async def test_a_big_card_draws_its_number_in_large_numerals() -> None:
    small, big = Card("27", big=True), Card("27", big=True, scale=2)
    back = Card("22", face_down=True, scale=1)
    app = WidgetApp(small, big, back)
    async with app.run_test(size=(100, 50)) as pilot:
        await settle(pilot)
        assert (small.region.width, small.region.height) == (16, 7)
        assert (big.region.width, big.region.height) == SIZES[2].big
        assert (back.region.width, back.region.height) == SIZES[1].card
        numerals = big.query_one(".numerals").render()
        rows = str(numerals).split("\n")
        wide, tall = SIZES[2].pixel or (1, 1)
        assert len(rows) == 5 * tall and all("█" * wide in row for row in rows)
        assert " 22 " in str(back.query_one("Label").render())


def test_a_long_card_name_wraps_between_words_on_as_many_lines_as_the_face_has() -> None:
    assert name_lines("Hang Out at the Pub", 10) == ("Hang Out", "at the Pub")
    assert name_lines("Allowance from the Parents", 13, 3) == ("Allowance", "from the", "Parents")
    assert name_lines("Allowance from the Parents", 10) == ("Allowance", "from the …")
    assert name_lines("Significant Other", 10) == ("Significa-", "nt Other")
    # Names with their own breaks (Zwergenamulett's) read as before.
    assert name_lines("Zwerg\nrot", 10) == ("Zwerg", "rot")
    assert name_lines(f"Zwergen{SOFT_HYPHEN}amulett", 10) == ("Zwergen-", "amulett")
    assert name_lines("Drache", 10) == ("Drache", "")


async def test_a_strip_of_coloured_cards_keeps_to_its_lines_and_counts_the_rest() -> None:
    faces = [[Face(f"Card {n}", f"★{n}", ink="#ffffff", paper="#2f62a0")] for n in range(9)]
    strip = CardStrip(faces, max_lines=1, classes="short")
    tall = CardStrip(faces[:2], tall_lines=1, scale=1)
    app = WidgetApp(strip, tall)
    async with app.run_test(size=(40, 20)) as pilot:
        await settle(pilot)
        text = str(strip.render())
        assert strip.region.height == 1 and text.startswith(" Card 0 ★0 ")
        shown = text.count("Card ")
        assert text.endswith(f" +{9 - shown}")
        assert tall.region.height == SIZES[1].tile_rows  # one line: tall tiles
        strip.limit(None)
        await settle(pilot)
        assert strip.region.height == len(strip._lines(strip.size.width)) > 1


def test_a_coloured_card_too_long_for_its_strip_keeps_its_value() -> None:
    face = Face("On the Origin of Species", "★2+1", ink="#000000", paper="#ffffff")
    [(text, _)] = group_cells([face], mark_first=False, width=20)
    assert text == " On the Origi… ★2+1 " and len(text) == 20
