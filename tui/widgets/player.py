"""A player's corner of the table: a framed area with their name, badges and whatever the game
puts in it (cards, chips, a tableau). The frame lights up on the player's turn. On a large table
(`tui.widgets.scale`) it gives its contents more air."""

from __future__ import annotations

from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget

from tui.i18n import tr
from tui.widgets.scale import Scalable


class PlayerArea(Vertical, Scalable):
    """Name in the frame's title; "you", "bot · strong", "offline" and the turn marker in its
    subtitle. Children are the game's own widgets for this seat."""

    DEFAULT_CSS = """
    PlayerArea {
        height: auto;
        border: round $felt-edge;
        border-title-color: $foreground;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
        padding: 0 1;
        background: $felt;
    }
    PlayerArea.-you { border: round $you 60%; border-title-color: $you; }
    PlayerArea.-active { border: heavy $active; border-title-color: $active; }
    PlayerArea.-active { border-subtitle-color: $active; }
    PlayerArea.-offline { opacity: 60%; }
    PlayerArea.-scale-2 { padding: 0 2; }
    """

    def __init__(
        self,
        *children: Widget,
        name: str,
        seat: int,
        you: bool = False,
        bot: str | None = None,
        connected: bool = True,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(*children, id=id, classes=classes)
        self.seat = seat
        self.active = False
        self.title_extra = ""
        self.note = ""
        self.set_player(name, you=you, bot=bot, connected=connected)

    def set_player(
        self, name: str, *, you: bool = False, bot: str | None = None, connected: bool = True
    ) -> None:
        """Who sits here (names and connections change in network games)."""
        if (name, you, bot, connected) == getattr(self, "_player", None):
            return
        self._player = (name, you, bot, connected)
        self.player_name = name
        self.you = you
        self.bot = bot
        self.connected = connected
        self.set_class(you, "-you")
        self.set_class(not connected, "-offline")
        self._retitle()

    def set_active(self, active: bool) -> None:
        """Mark (or unmark) this player as the one the table is waiting for."""
        if active != self.active:
            self.active = active
            self.set_class(active, "-active")
            self._retitle()

    def set_extra(self, *, title: str = "", note: str = "") -> None:
        """Game-specific words in the frame: after the name (e.g. a token the player still
        holds) and first in the subtitle (e.g. points so far)."""
        if (title, note) != (self.title_extra, self.note):
            self.title_extra, self.note = title, note
            self._retitle()

    def _retitle(self) -> None:
        marker = "▶ " if self.active else ""
        extra = f" {self.title_extra}" if self.title_extra else ""
        self.border_title = Content(f"{marker}{self.player_name}{extra}")
        badges = [self.note] if self.note else []
        if self.you:
            badges.append(tr("badge.you"))
        if self.bot:
            badges.append(tr("badge.bot"))
        if not self.connected:
            badges.append(tr("badge.offline"))
        self.border_subtitle = Content(" · ".join(badges))
