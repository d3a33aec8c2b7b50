"""A free-text field (a chat line, a name) that holds only what every screen draws alike.

What a person types or pastes goes through the same cleaner as text from the wire
(`net.wire.text`) as it is typed, not only once it is sent: a variation selector (the
emoji form of ❤ or ☺), a joiner or a skin tone is measured as no cell by Textual (rich's
`cell_len`) but drawn one cell wider by many terminals, so the field's right border moved
while an emoji was typed. Cleaned, the field's text is measured as the terminal draws it
(and is the very text the others will see)."""

from __future__ import annotations

from textual.widgets import Input

from net.wire.text import clean_keep


class TextInput(Input):
    """An `Input` whose typed and pasted text is cleaned as it comes in."""

    def insert_text_at_cursor(self, text: str) -> None:
        cleaned = clean_keep(text)
        if cleaned:
            super().insert_text_at_cursor(cleaned)
