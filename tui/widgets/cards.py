"""Cards on the table: one card drawn large, and rows of small cards laid out in groups.

Both only know a card's printed label, so every game can use them: Schöne's numbers, a
Zwergenamulett tile name, a Skip-Bo value. Colours come from theme variables ($card, $card-ink,
$card-dim), so they follow the theme at run time. Both grow with the board's step
(`tui.widgets.scale`): a larger card, its number in larger numerals, strip cards as tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Digits, Label

from tui.widgets.cardrow import SOFT_HYPHEN, Face
from tui.widgets.scale import SIZES, Scalable

CARD_STYLE = "bold $card-ink on $card"
DIM_STYLE = "$card-dim on $card"

# Numerals as 3×5 dots, drawn on a big card at the steps where Textual's Digits look small.
NUMERALS = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
}
BACK = "▚"


def numerals(number: str, pixel: tuple[int, int]) -> str:
    """`number` in block numerals, each dot `pixel` cells (width, height) large."""
    wide, tall = pixel
    rows: list[str] = []
    for row in range(5):
        dots = ".".join(NUMERALS[digit][row] for digit in number)
        rows += ["".join("█" * wide if dot == "#" else " " * wide for dot in dots)] * tall
    return "\n".join(rows)


def card_back(width: int, height: int, label: str) -> str:
    """The pattern on a card's back filling `width` × `height` cells, with `label` (a count)
    across the middle."""
    rows = [BACK * width for _ in range(height)]
    if label:
        rows[height // 2] = f" {label} ".center(width, BACK)[:width]
    return "\n".join(rows)


class Card(Widget, Scalable):
    """One face-up (or face-down) card. `big` cards print a numeric label in large digits:
    the card everybody is looking at should be the first thing the eye finds."""

    DEFAULT_CSS = """
    Card {
        width: 8; height: 5;
        background: $card; color: $card-ink;
        border: round $card-edge;
        content-align: center middle;
        align: center middle;
    }
    Card > Label { width: auto; text-style: bold; color: $card-ink; }
    Card > Digits { width: auto; color: $card-ink; }
    Card.-big { width: 16; height: 7; border: heavy $card-edge; layout: vertical; }
    Card.-big > Digits { width: 100%; text-align: center; text-style: bold; }
    Card > Label.corner { width: 100%; height: 1; text-style: bold; }
    Card > Label.corner.-bottom { text-align: right; }
    Card.-down { background: $card-back; border: round $card-edge; }
    Card.-down > Label { color: $card; text-align: center; }
    Card > Label.numerals { width: 100%; height: 1fr; content-align: center middle; }
    """ + "".join(
        f"Card.-scale-{step} {{ width: {size.card[0]}; height: {size.card[1]}; }}\n"
        f"Card.-big.-scale-{step} {{ width: {size.big[0]}; height: {size.big[1]}; }}\n"
        for step, size in enumerate(SIZES)
        if step
    )

    def __init__(
        self,
        label: str,
        *,
        big: bool = False,
        face_down: bool = False,
        scale: int = 0,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.big = big
        self.face_down = face_down
        self.set_class(big, "-big")
        self.set_class(face_down, "-down")
        self.set_scale(scale)

    def compose(self) -> ComposeResult:
        if self.face_down:
            # A card's back; a label on a back is a count (e.g. cards left in a pile).
            if self.scale:
                width, height = self.sizes.big if self.big else self.sizes.card
                yield Label(card_back(width - 4, height - 2, self.label))
            else:
                yield Label(f"▚▚▚▚\n{self.label:^4}" if self.label else "▚▚▚▚")
        elif self.big and self.label.isdigit():
            yield Label(self.label, classes="corner")
            pixel = self.sizes.pixel
            if pixel is None:
                yield Digits(self.label)
            else:
                yield Label(numerals(self.label, pixel), classes="numerals")
            yield Label(self.label, classes="corner -bottom")
        else:
            yield Label(self.label)

    def rescaled(self) -> None:
        if self.is_mounted:
            self.refresh(recompose=True, layout=True)

    def show(self, label: str, *, face_down: bool = False) -> None:
        """Turn the card into another one in place (no remount, so no flicker)."""
        if (label, face_down) == (self.label, self.face_down):
            return
        self.label, self.face_down = label, face_down
        self.set_class(face_down, "-down")
        self.refresh(recompose=True)


def group_cells(
    group: Sequence[str | Face], mark_first: bool, width: int | None = None
) -> list[tuple[str, str]]:
    """The (text, style) cells of one group: each label padded, so a group reads as one strip
    of card face; with `mark_first`, only the first label is bold (e.g. the card that counts)
    and the others stand in brackets, so it shows without colour too (same width: " 22 "
    becomes "(22)").
    A `Face` is a card of its own colours, its name and value on one line; a name too long for
    `width` is cut, never its value."""
    cells = []
    for i, label in enumerate(group):
        if isinstance(label, Face):
            name = label.name.replace(SOFT_HYPHEN, "").replace("\n", " ")
            value = f" {label.value}" if label.value else ""
            room = None if width is None else width - len(value) - 2
            if room is not None and len(name) > room:
                name = name[: max(room - 1, 1)] + "…"
            cells.append((f" {name}{value} ", f"bold {label.ink} on {label.paper}"))
        else:
            if i == 0 or not mark_first:
                cells.append((f" {label} ", CARD_STYLE))
            else:
                cells.append((f"({label})", DIM_STYLE))
    return cells


# A strip draws its cards as tall tiles only while they fit on this many lines; a long
# collection goes back to flat labels rather than push the rest of the table off screen.
TALL_LINES = 2


class CardStrip(Widget, Scalable):
    """Small cards in groups (runs, suits, melds), wrapped to the width without ever splitting
    a card and splitting a group only when it cannot fit on one line. From step 1 on
    (`tui.widgets.scale`) each card is a tile of `tile_rows` rows, its label in the middle.
    A card is a printed label (drawn as every game's plain card) or a `Face` (its own
    colours: a card's kind at a glance)."""

    DEFAULT_CSS = """
    CardStrip { height: auto; width: 1fr; }
    """

    def __init__(
        self,
        groups: Sequence[Sequence[str | Face]] = (),
        *,
        mark_first: bool = False,
        empty: str = "",
        tall_lines: int = TALL_LINES,
        max_lines: int | None = None,
        scale: int = 0,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.groups = [list(g) for g in groups]
        self.mark_first = mark_first
        self.empty = empty
        self.tall_lines = tall_lines  # the most lines drawn as tall tiles (see TALL_LINES)
        # The most lines drawn at all (None: every one); the last says how many cards it
        # leaves out ("+3"), for a strip that must keep to its room.
        self.max_lines = max_lines
        self.set_scale(scale)

    def limit(self, max_lines: int | None) -> None:
        if max_lines != self.max_lines:
            self.max_lines = max_lines
            self.refresh(layout=True)

    def show(self, groups: Sequence[Sequence[str | Face]]) -> None:
        groups = [list(g) for g in groups]
        if groups != self.groups:
            self.groups = groups
            self.refresh(layout=True)

    def _lines(self, width: int) -> list[list[tuple[str, str]]]:
        lines: list[list[tuple[str, str]]] = [[]]
        used = 0
        for group in self.groups:
            cells = group_cells(group, self.mark_first, width)
            need = sum(len(text) for text, _ in cells)
            if used and used + 1 + need > width:
                lines.append([])
                used = 0
            if used:
                lines[-1].append((" ", ""))
                used += 1
            for text, style in cells:
                if used and used + len(text) > width:
                    lines.append([])
                    used = 0
                lines[-1].append((text, style))
                used += len(text)
        return lines

    def _shown_lines(self, width: int) -> list[list[tuple[str, str]]]:
        """`_lines` cut to `max_lines`, the last one ending in how many cards are left out."""
        lines = self._lines(width)
        if self.max_lines is None or len(lines) <= self.max_lines:
            return lines
        shown = [list(line) for line in lines[: self.max_lines]]
        left = sum(1 for line in lines[self.max_lines :] for _, style in line if style)
        last = shown[-1]
        while len(last) > 1:
            marker = f" +{left}"
            if sum(len(text) for text, _ in last) + len(marker) <= width:
                break
            _, style = last.pop()
            left += 1 if style else 0
        while len(last) > 1 and not last[-1][1]:  # no gap before the marker
            last.pop()
        marker = f" +{left}"
        if last and sum(len(text) for text, _ in last) + len(marker) > width:
            text, style = last[0]  # one card left, and too long: cut its label
            room = max(width - len(marker), 2)
            last[0] = (text[: room - 2] + "… ", style)
        last.append((marker, "$text-muted"))
        return shown

    def _tile_rows(self, lines: int) -> int:
        return self.sizes.tile_rows if lines <= self.tall_lines else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.groups:
            return 1
        lines = len(self._shown_lines(max(width, 1)))
        return lines * self._tile_rows(lines)

    def render(self) -> Content:
        if not self.groups:
            return Content.styled(self.empty, "$text-muted")
        lines = self._shown_lines(max(self.size.width, 1))
        tall = self._tile_rows(len(lines))
        rows: list[Content] = []
        for line in lines:
            # A tall tile: the same cells above and below the label, blank.
            blank = Content.assemble(*[(" " * len(text), style) for text, style in line])
            above = (tall - 1) // 2
            rows += [blank] * above + [Content.assemble(*line)] + [blank] * (tall - 1 - above)
        return Content("\n").join(rows)
