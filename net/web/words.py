"""The web table's own lines to a player, in the browser's language (net.web.page.language):
why a tab was refused or closed, which the page shows in place of the game. The log keeps them
in English, for the operator. The app's words are the app's (tui.i18n); these come before it
starts or after it has gone.
"""

from __future__ import annotations

from net.relay import addresses
from net.ssh import limits

# A close frame carries at most 123 bytes of reason.
MOST_BYTES = 123

LINES = {
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
        "closing": "the table is closing; goodbye",
        "cannot_start": "the table cannot start a game right now; try again later",
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
        "closing": "der Tisch schließt; auf Wiedersehen",
        "cannot_start": "der Tisch kann gerade kein Spiel starten; versuch es später",
    },
}
# Words counted in the lines, (one, many), and where a count of tabs comes from, in German
# (English says them as the SSH table does: net.ssh.limits.counted, net.relay.addresses.describe).
COUNTED_DE = {"tab": ("Tab", "Tabs"), "minute": ("Minute", "Minuten"),
              "second": ("Sekunde", "Sekunden")}
WHERE_DE = {"machine": "dieser Rechner", "network": "Netz {}", "address": "Adresse {}"}


def said(key: str, lang: str = "en", **values: str | int | float) -> str:
    """The line `key` in `lang` (English for a language it does not have)."""
    return LINES.get(lang, LINES["en"])[key].format(**values)


def counted(number: float, word: str, lang: str = "en") -> str:
    if lang != "de":
        return limits.counted(number, word)
    one, many = COUNTED_DE[word]
    return f"{number:.0f} {one if round(number) == 1 else many}"


def where(group: str, lang: str = "en") -> str:
    """An address group as a line says it."""
    if lang != "de":
        return addresses.describe(group)
    if group == addresses.LOOPBACK:
        return WHERE_DE["machine"]
    return WHERE_DE["network" if "/" in group else "address"].format(group)


def took(minutes: float, lang: str = "en") -> str:
    """A span of minutes, in seconds below one."""
    if minutes >= 1:
        return counted(minutes, "minute", lang)
    return counted(minutes * 60, "second", lang)


def reason(line: str) -> bytes:
    """`line` as a close frame carries it: cut to MOST_BYTES on a character's edge."""
    return line.encode()[:MOST_BYTES].decode("utf-8", "ignore").encode()
