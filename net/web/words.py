"""The web table's own lines to a player, in the browser's language (net.web.page.language):
why a tab was refused or closed, which the page shows in place of the game (how the tables say
their lines: net.words).
"""

from __future__ import annotations

from net import words
from net.words import counted, took, where

__all__ = ["LINES", "MOST_BYTES", "counted", "reason", "said", "took", "where"]

# A close frame carries at most 123 bytes of reason.
MOST_BYTES = 123

LINES = words.door_lines({
    "en": {
        "rate": "too many new tabs from {where}: at most {count} a minute; wait a minute and "
                "reload",
        "address": "{where} has {tabs} at this table already, the most one address may have; "
                   "close one to open another",
        "browser": "you have {tabs} at this table already; close one to open another",
        "full": "this table is full ({tabs}); try later",
        "idle": "closed after {took} without a key pressed; reload to go on",
        "flood": "this tab sent too much at once and was closed",
        "unsupported": "the page sent something this table does not take",
    },
    "de": {
        "rate": "zu viele neue Tabs von {where}: höchstens {count} pro Minute; warte eine "
                "Minute und lade neu",
        "address": "{where} hat schon {tabs} an diesem Tisch, mehr darf eine Adresse nicht; "
                   "schließe einen",
        "browser": "du hast schon {tabs} an diesem Tisch; schließe einen, um einen neuen zu "
                   "öffnen",
        "full": "dieser Tisch ist voll ({tabs}); versuch es später",
        "idle": "geschlossen nach {took} ohne Tastendruck; lade neu, um weiterzuspielen",
        "flood": "dieser Tab hat zu viel auf einmal geschickt und wurde geschlossen",
        "unsupported": "die Seite hat etwas geschickt, das dieser Tisch nicht annimmt",
    },
})


def said(key: str, lang: str = "en", **values: str | int | float) -> str:
    """The line `key` in `lang` (English for a language it does not have)."""
    return words.said(LINES, key, lang, **values)


def reason(line: str) -> bytes:
    """`line` as a close frame carries it: cut to MOST_BYTES on a character's edge."""
    return line.encode()[:MOST_BYTES].decode("utf-8", "ignore").encode()
