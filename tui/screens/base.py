"""What all our screens share: key bindings whose labels follow the language, and a way to
redraw everything in a new language without losing state (screens keep their state in plain
attributes and build widgets from it in `compose`, so `retranslate` is a `harvest` of the form
into those attributes and a recompose)."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button

from tui.bindings import bindings_over
from tui.i18n import tr

ResultType = TypeVar("ResultType")

# Longest player name any form accepts: names go into titles and frames of every table.
MAX_NAME = 32
# Columns below which screens are `-slim` (see TabletopApp.HORIZONTAL_BREAKPOINTS).
SLIM_BELOW = 80

def app_crashed(app: App[object]) -> bool:
    """Whether `app` is going down with an error (Textual sets its return code then)."""
    return app.return_code not in (None, 0)


# (keys, action, i18n key of the label, shown in the footer)
KeySpec = tuple[str, str, str, bool]


class TableScreen(Screen[ResultType]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = ()

    def __init__(self) -> None:
        super().__init__()
        self._bindings = bindings_over(self, self.key_bindings())

    def key_bindings(self) -> list[Binding]:
        return [
            Binding(keys, action, tr(label), show=show) for keys, action, label, show in self.KEYS
        ]

    def action_press(self, button: str) -> None:
        """A key for one of the screen's buttons (KEYS entry "press('start')"), so every form
        works without a mouse, as it must over SSH."""
        self.query_one(f"#{button}", Button).press()

    def quit_warning(self) -> str | None:
        """What quitting the app would do beyond this terminal (close a room everybody is
        playing in), for the app to ask about first; None if nothing."""
        return None

    def harvest(self) -> None:
        """Copy what was typed or picked in the screen's form back into its attributes.
        Forms override this: `retranslate` calls it first, so a language switch keeps what
        was typed but not yet acted on."""

    async def retranslate(self) -> None:
        """Redraw in the current language."""
        self.harvest()
        self._bindings = bindings_over(self, self.key_bindings())
        await self.recompose()
        self.refresh_bindings()
