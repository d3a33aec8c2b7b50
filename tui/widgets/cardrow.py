"""A row of cards drawn as solid blocks of colour: a hand to pick from, or the cards of a trick
with who played each one.

Bordered `Card` widgets cost two extra cells each way; a hand of nine different cards or a
trick of six does not fit an 80-column table like that. These cards are plain blocks that
shrink to the room there is (down to MIN_WIDTH) and give up the gap between them only when
nothing else helps (then every other card is shaded so neighbours stay apart). A card may carry
a caption above it (who played it), a note below (what it would do) and may be lifted one row
(the card picked), all things a trick game needs and none of them tied to one game.

On a large table the cards grow with the board's step (`tui.widgets.scale`): wider cards and
taller faces, the name in the middle of the face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from tui.widgets.scale import SIZES, Scalable

FACE_ROWS = SIZES[0].rows  # at step 0; `CardRow.face_rows` at the row's own step
MIN_WIDTH = 7
MAX_WIDTH = SIZES[0].width
# Where a long card name may break (written into the name), and the mark a break gets.
SOFT_HYPHEN = "\u00ad"
# Shade of every other card when cards touch (no gap), as a background opacity.
TOUCHING_SHADE = "80%"

Cell = tuple[str, str]


@dataclass(frozen=True)
class Face:
    """What is printed on a card. `name` may hold a line break or soft hyphens (where it may
    break when it is too long for one line); `value` is printed on the bottom line; `ink` and
    `paper` are colours or theme variables."""

    name: str
    value: str = ""
    ink: str = "$card-ink"
    paper: str = "$card"


@dataclass(frozen=True)
class Slot:
    """One place in the row. `face=None` is an empty place, e.g. a card still to come."""

    face: Face | None
    above: str = ""  # caption over the card (who played it)
    below: str = ""  # note under it (takes the trick, would overtrump)
    corner: str = ""  # top-left, e.g. the key that picks the card
    count: int = 1  # identical cards stacked into one place (shown as ×n)
    lifted: bool = False  # drawn one row higher: the card picked
    strong: bool = False  # caption and note in the accent colour


def name_lines(name: str, width: int, lines: int = 2) -> tuple[str, ...]:
    """A card name on at most `lines` lines of `width` cells (two unless a tall face has room
    for more): whole if it fits, else broken at its line breaks, then at a soft hyphen or
    between words, and cut as a last resort. Always `lines` entries, "" for unused ones."""
    out: list[str] = []
    rest = name
    while rest and len(out) < lines:
        part, brk, after = rest.partition("\n")
        whole = part.replace(SOFT_HYPHEN, "")
        last = len(out) == lines - 1
        if len(whole) <= width:
            out.append(whole)
            rest = after
            continue
        if last:
            out.append(whole[: width - 1] + "…" if width > 1 else whole[:width])
            break
        head, tail = _split_word(part, width)
        out.append(head[:width])
        rest = tail + brk + after
    return tuple(out + [""] * (lines - len(out)))


def _split_word(part: str, width: int) -> tuple[str, str]:
    """The first line of a name too long for one (no line break in it) and the rest: at the
    last space, hyphen or soft hyphen that fits (a word's joint: "Schäfer-stündchen", never
    "Schäferst-ündchen" where a joint fits), else at its first soft hyphen, else cut."""
    best = None
    for at, ch in enumerate(part):
        head = part[:at].replace(SOFT_HYPHEN, "")
        if ch == " " and 0 < len(head) <= width:
            best = (head, part[at + 1 :])
        elif (ch == SOFT_HYPHEN and 0 < len(head) < width) or (
                ch == "-" and 0 < len(head) + 1 <= width and at + 1 < len(part)):
            best = (head + "-", part[at + 1 :])
    if best is not None:
        return best
    first, _, second = part.partition(SOFT_HYPHEN)
    if second and len(first) <= width:  # a joint right at the edge: no room for its hyphen
        return first, second
    if width > 2:  # a word longer than the card: broken with a hyphen
        return part[: width - 1] + "-", part[width - 1 :]
    return part[:width], part[width:]


def fit(count: int, room: int, widest: int = MAX_WIDTH) -> tuple[int, int]:
    """(card width, gap) for `count` cards in `room` cells: as wide as allowed (up to
    `widest`) with a gap of one, else touching, else cut below MIN_WIDTH (a too-narrow
    window)."""
    if count <= 0:
        return widest, 1
    width = min(widest, (room + 1) // count - 1)
    if width >= MIN_WIDTH:
        return width, 1
    return max(1, min(widest, room // count)), 0


class CardRow(Widget, Scalable):
    """Cards side by side, centred. `captions`, `notes` and `lift` reserve their rows even
    when empty, so the table does not jump as cards come and go. A click on a card posts
    `Clicked(index)`. `scale` is the step of `tui.widgets.scale.SIZES` to draw at."""

    DEFAULT_CSS = """
    CardRow { height: auto; width: 1fr; }
    CardRow.-faded { opacity: 70%; }
    """

    class Clicked(Message):
        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

        @property
        def control(self) -> CardRow:
            return self.row

    def __init__(
        self,
        slots: Sequence[Slot] = (),
        *,
        captions: bool = False,
        notes: bool = False,
        lift: bool = False,
        empty: str = "",
        scale: int = 0,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.slots = list(slots)
        self.captions = captions
        self.notes = notes
        self.lift = lift
        self.empty = empty
        self.set_scale(scale)

    @property
    def face_rows(self) -> int:
        return self.sizes.rows

    def show(self, slots: Sequence[Slot]) -> None:
        slots = list(slots)
        if slots != self.slots:
            self.slots = slots
            self.refresh()

    # -- geometry ----------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return int(self.captions) + int(self.lift) + self.face_rows + int(self.notes)

    def _layout(self, room: int) -> tuple[int, int, int]:
        """(card width, gap, left margin) for the current slots in `room` cells."""
        width, gap = fit(len(self.slots), room, self.sizes.width)
        used = len(self.slots) * (width + gap) - gap
        return width, gap, max(0, (room - used) // 2)

    def index_at(self, x: int) -> int | None:
        """The card under column `x` (content coordinates), if any."""
        width, gap, left = self._layout(self.size.width)
        if x < left:
            return None
        index, within = divmod(x - left, width + gap)
        return index if index < len(self.slots) and within < width else None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x)
        if index is not None and self.slots[index].face is not None:
            event.stop()
            self.post_message(self.Clicked(self, index))

    # -- drawing -----------------------------------------------------------------------------
    def render(self) -> Content:
        room = max(self.size.width, 1)
        rows = self.get_content_height(Size(room, 0), Size(room, 0), room)
        if not self.slots:
            lines = [Content("")] * rows
            lines[rows // 2] = Content.styled(self.empty.center(room)[:room], "$text-muted")
            return Content("\n").join(lines)
        width, gap, left = self._layout(room)
        grid: list[list[Cell]] = [[(" " * left, "")] for _ in range(rows)]
        for index, slot in enumerate(self.slots):
            shaded = gap == 0 and index % 2 == 1
            for row, cell in enumerate(self._column(slot, width, shaded, gap == 0)):
                if index:
                    grid[row].append((" " * gap, ""))
                grid[row].append(cell)
        return Content("\n").join(Content.assemble(*line) for line in grid)

    def _column(self, slot: Slot, width: int, shaded: bool, touching: bool) -> list[Cell]:
        """The cells of one card, top to bottom, each `width` wide."""
        cells: list[Cell] = []
        if self.captions:
            style = "bold $accent" if slot.strong else "$foreground"
            cells.append((slot.above[:width].center(width), style))
        face = self._face(slot, width, shaded, touching)
        if self.lift:
            blank = (" " * width, "")
            face = [*face, blank] if slot.lifted else [blank, *face]
        cells.extend(face)
        if self.notes:
            style = "bold $accent" if slot.strong else "$text-muted"
            cells.append((slot.below[:width].center(width), style))
        return cells

    def _face(self, slot: Slot, width: int, shaded: bool, touching: bool) -> list[Cell]:
        """A face of `face_rows` rows: the corner line, the name in the middle, the value at
        the bottom; an empty place is a dashed outline of the same size. Cards that touch
        keep the last cell of the corner line blank, so one card's count never runs into the
        next card's corner ("×3" beside "1" reading "×31")."""
        face = slot.face
        rows = self.face_rows
        if face is None:
            edge = "$felt-edge"
            inner = max(width - 2, 0)
            middle = ("┆" + " " * inner + "┆")[:width]
            return [
                (("╭" + "┄" * inner + "╮")[:width], edge),
                *[(middle, edge)] * (rows - 2),
                (("╰" + "┄" * inner + "╯")[:width], edge),
            ]
        paper = f"{face.paper} {TOUCHING_SHADE}" if shaded else face.paper
        plain = f"{face.ink} on {paper}"
        bold = f"bold {plain}"
        count = f"×{slot.count}" if slot.count > 1 else ""
        room = width - 1 if touching else width
        apart = 1 if slot.corner and count else 0
        top = slot.corner + " " * max(room - len(slot.corner) - len(count), apart) + count
        top = top[:room].ljust(width)
        # The name sits in the middle of the rows between the corner and the value, on as
        # many of them as it needs (a tall face leaves one blank row above and below).
        room = max(rows - 2, 1)
        lines = room if room <= 2 else room - 1
        shown = [line for line in name_lines(face.name, width, lines) if line]
        middle = [" " * width] * (rows - 2)
        at = (room - len(shown)) // 2 if rows > 4 else 0
        for offset, line in enumerate(shown[: room - at]):
            middle[at + offset] = line.center(width)
        return [
            (top[:width], plain),
            *[(line, bold) for line in middle],
            (face.value[:width].center(width), bold),
        ]
