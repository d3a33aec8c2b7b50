"""The SSH table's own lines to a player, in the language the player's SSH client sends
(its locale: LC_ALL, LC_MESSAGES or LANG, which OpenSSH passes on by default on Debian and
most Linux systems): why a session was refused or ended (how the tables say their lines:
net.words). A refusal that comes before any session (too many connections or logins) goes
out with the SSH handshake, before the client has sent its locale: it stays English.

A join code's fault (net.wire.codes.BadCode) is told in English inside either language, as
the app's join form tells it.
"""

from __future__ import annotations

from net import words
from net.words import Line, counted, took, where

__all__ = ["LINES", "Line", "counted", "said", "saying", "took", "where"]

LINES = words.door_lines({
    "en": {
        "rate": "too many new sessions from {where}: at most {count} a minute; wait a minute "
                "and try again",
        "address": "{where} has {sessions} at this table already, the most one address may "
                   "have; close one to open another",
        "player": "you have {sessions} at this table already, the most one player may have; "
                  "close one to open another",
        "full": "this table is full ({sessions} at once); try again later",
        "terminal": "the table needs a terminal: connect with `ssh -t` (e.g. ssh -t -p {port} "
                    "HOST join CODE)",
        "name": "someone called {name} is at this table now without an SSH key, and a name "
                "alone cannot tell you apart: connect with another name (ssh -t -p {port} "
                "OTHERNAME@HOST) or with a key; if that was you and your connection dropped, "
                "try again in a minute or two",
        "code": "{code} is not a join code: {why}",
        "command": "{command} is not something this table does; allowed: no command for the "
                   "menu, `join CODE` to take a seat, `watch CODE` to watch, `resume` to go "
                   "back to the table you did not leave (the game you host, the seat you hold)",
        "idle": "closed after {took} without a key pressed; connect again to go on",
    },
    "de": {
        "rate": "zu viele neue Sitzungen von {where}: höchstens {count} pro Minute; warte eine "
                "Minute und versuch es noch einmal",
        "address": "{where} hat schon {sessions} an diesem Tisch, mehr darf eine Adresse "
                   "nicht; schließe eine, um eine neue zu öffnen",
        "player": "du hast schon {sessions} an diesem Tisch, mehr darf ein Spieler nicht; "
                  "schließe eine, um eine neue zu öffnen",
        "full": "dieser Tisch ist voll ({sessions} gleichzeitig); versuch es später noch einmal",
        "terminal": "der Tisch braucht ein Terminal: verbinde dich mit `ssh -t` (z. B. ssh -t "
                    "-p {port} HOST join CODE)",
        "name": "jemand namens {name} sitzt gerade ohne SSH-Schlüssel an diesem Tisch, und ein "
                "Name allein kann euch nicht unterscheiden: verbinde dich mit einem anderen "
                "Namen (ssh -t -p {port} ANDERERNAME@HOST) oder mit einem Schlüssel; warst du "
                "das und ist deine Verbindung abgebrochen, versuch es in ein, zwei Minuten "
                "noch einmal",
        "code": "{code} ist kein Beitrittscode: {why}",
        "command": "{command} kann dieser Tisch nicht; möglich sind: kein Befehl für das Menü, "
                   "`join CODE`, um Platz zu nehmen, `watch CODE` zum Zuschauen, `resume`, um "
                   "an den Tisch zurückzukehren, den du nicht verlassen hast (das Spiel, das du "
                   "leitest, den Platz, den du hältst)",
        "idle": "geschlossen nach {took} ohne Tastendruck; verbinde dich neu, um "
                "weiterzuspielen",
    },
})


def said(key: str, lang: str = "en", **values: str | int | float) -> str:
    """The line `key` in `lang` (English for a language it does not have)."""
    return words.said(LINES, key, lang, **values)


def saying(key: str, **values: str | int | float) -> Line:
    """The line `key` with values that read alike in every language."""
    return lambda lang: said(key, lang, **values)
