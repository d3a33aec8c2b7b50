"""What the table shows of each player's holdings. Won tricks are secret, so the table gives
only how many cards, tricks and gold chips a player has; opponents' boxes are narrow, so the
counts there shrink to symbols when the words do not fit. On a large table the cards in hand
are drawn too, as a row of backs, the way a player sees the others' hands across a table."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from tui.boards.zwergenamulett.faces import GOLD
from tui.i18n import count_key, tr
from tui.widgets.scale import Scalable

# The most cards a hand holds (two players) and thus the most tricks one player can win.
MOST_CARDS = 12
# Rows of card backs above the counts from step 1 on (`tui.widgets.scale`).
BACK_ROWS = 2
BACK = "▚▚"
BACK_STYLE = "$card on $card-back"
BACK_STYLE_INVERTED = "$card-back on $card"


def tricks_and_gold(tricks: int, gold: int) -> str:
    """The note in a frame without `SeatCounts` (your own: your hand is on show)."""
    return f"{tr(count_key('zwerg.n_tricks', tricks), n=tricks)} · {GOLD} {gold}"


def counts_in_words(cards: int, tricks: int, gold: int) -> Content:
    return Content.assemble(
        tr(count_key("zwerg.n_cards", cards), n=cards),
        " · ",
        tr(count_key("zwerg.n_tricks", tricks), n=tricks),
        " · ",
        (GOLD, "bold $chip"),
        (f" {gold}", "bold"),
    )


def wordy_room() -> int:
    """Cells an opponent's box needs inside for the longest wording of its counts."""
    extremes = ((MOST_CARDS, 0), (0, MOST_CARDS), (MOST_CARDS, MOST_CARDS))
    return max(counts_in_words(c, t, 3).cell_length for c, t in extremes)


class SeatCounts(Widget, Scalable):
    """Cards in hand, tricks won and gold of one player: in words when there is room, else as
    "▮5 ▣2 ●1" (the tooltip and the rules page spell the symbols out)."""

    DEFAULT_CSS = "SeatCounts { height: auto; width: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.counts = (0, 0, 0)
        self.wordy = False

    def set_wordy(self, wordy: bool) -> None:
        """Words or symbols: decided by the board for all seats alike, so that boxes a cell
        apart in width do not read differently."""
        if wordy != self.wordy:
            self.wordy = wordy
            self.refresh()

    def show(self, cards: int, tricks: int, gold: int) -> None:
        if (cards, tricks, gold) != self.counts:
            self.counts = (cards, tricks, gold)
            self.tooltip = tr(
                "zwerg.counts_tip",
                cards=tr(count_key("zwerg.n_cards", cards), n=cards),
                tricks=tr(count_key("zwerg.n_tricks", tricks), n=tricks),
                gold=gold,
            )
            self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + (BACK_ROWS if self.scale else 0)

    def render(self) -> Content:
        counts = self._counts()
        if not self.scale:
            return counts
        cards, width = self.counts[0], self.size.width
        # A back per card, a cell apart, narrower when a big hand needs it; touching (every
        # other one inverted, so they can still be counted) when even that has no room.
        for back in (BACK, BACK[0]):
            if cards * (len(back) + 1) - 1 <= width:
                backs = Content(" ").join([Content.styled(back, BACK_STYLE)] * cards)
                break
        else:
            styles = (BACK_STYLE, BACK_STYLE_INVERTED)
            backs = Content.assemble(*[(BACK[0], styles[i % 2]) for i in range(cards)])
        return Content("\n").join([*[backs] * BACK_ROWS, counts])

    def _counts(self) -> Content:
        cards, tricks, gold = self.counts
        if self.wordy:
            return counts_in_words(cards, tricks, gold)
        return Content.assemble(
            ("▮", "$text-muted"),
            (str(cards), "bold"),
            " ",
            ("▣", "$text-muted"),
            (str(tricks), "bold"),
            " ",
            (GOLD, "bold $chip"),
            (str(gold), "bold"),
        )
