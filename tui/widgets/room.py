"""The notice that stands in for a table the window is too small for, shared by the game and
the replay screens so every board says it the same way.

A cramped table is worse than none, so below a board's `least_size()` the screen hides the
table (it stays mounted underneath: nothing of the game is lost) and shows this instead. A window
taller than it is wide is most likely a phone held upright (in a browser, through xterm.js),
where the fix is to turn it, not to drag a corner: the notice says so, with the columns the
table needs, and goes away by itself on the resize that turning the phone causes.
"""

from __future__ import annotations

from textual.widgets import Static

from tui.i18n import register, tr


def portrait(width: int, height: int) -> bool:
    """Whether a window of `width` × `height` cells is upright: a cell is about twice as tall
    as wide, so 45 × 30 cells (a phone's screen) is taller than wide."""
    return height * 2 > width


def too_small(need: tuple[int, int], width: int, height: int) -> bool:
    return width < need[0] or height < need[1]


class RoomNotice(Static):
    """What to do about a window too small for the table; hidden by the screen's CSS until the
    screen sets its class `-too-small`."""

    DEFAULT_CSS = """
    RoomNotice {
        display: none; height: 1fr; content-align: center middle; text-align: center;
        color: $warning; text-style: bold; padding: 1 2;
    }
    """

    def say(self, need: tuple[int, int], width: int, height: int) -> None:
        """Word the notice for a window of `width` × `height` and a table that needs `need`
        (columns, rows, the screen's own bars included)."""
        need_w, need_h = need
        if width < need_w and portrait(width, height):
            text = tr("room.turn", need_w=need_w, w=width)
        else:
            text = tr("room.larger", need_w=need_w, need_h=need_h, w=width, h=height)
        self.update(text)


register(
    {
        "en": {
            "room.turn": (
                "Turn your phone sideways\n\n"
                "This table needs {need_w} columns; the screen has {w}.\n"
                "(A wider window works too.)"
            ),
            "room.larger": (
                "Please make the window larger.\n\n"
                "This table needs at least {need_w}×{need_h} characters; "
                "the window has {w}×{h}."
            ),
        },
        "de": {
            "room.turn": (
                "Bitte das Handy quer halten\n\n"
                "Dieser Tisch braucht {need_w} Spalten; der Bildschirm hat {w}.\n"
                "(Ein breiteres Fenster geht auch.)"
            ),
            "room.larger": (
                "Bitte das Fenster vergrößern.\n\n"
                "Dieser Tisch braucht mindestens {need_w}×{need_h} Zeichen; "
                "das Fenster hat {w}×{h}."
            ),
        },
    }
)
