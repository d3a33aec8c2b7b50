"""What a table (SSH or web) says to a player itself, before the app starts or after it has
gone, in the player's language; the log keeps the English line, for the operator. Each door
has its own lines (net.ssh.words, net.web.words); the lines both say, and how a line says a
count, an address group or a span of time, are here, so the two doors say them alike.

A line is a `Line`, a function of the language: what refuses a player can build it before
the words are chosen, and the caller says it twice, in English to the log and in the
player's language to the player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from net.relay import addresses

Line = Callable[[str], str]
Lines = dict[str, dict[str, str]]

SHARED: Lines = {
    "en": {
        "closing": "the table is closing; goodbye",
        "cannot_start": "the table cannot start a game right now; try again later",
    },
    "de": {
        "closing": "der Tisch schließt; auf Wiedersehen",
        "cannot_start": "der Tisch kann gerade kein Spiel starten; versuch es später",
    },
}
# Words counted in the lines, (one, many), and how an address group is said, in German
# (English says them as the logs do: `counted`, net.relay.addresses.describe).
COUNTED_DE = {"tab": ("Tab", "Tabs"), "session": ("Sitzung", "Sitzungen"),
              "minute": ("Minute", "Minuten"), "second": ("Sekunde", "Sekunden")}
WHERE_DE = {"machine": "dieser Rechner", "network": "Netz {}", "address": "Adresse {}"}


def door_lines(own: Lines) -> Lines:
    """A door's lines: its own and the shared ones, per language."""
    return {lang: {**SHARED[lang], **own[lang]} for lang in SHARED}


def said(lines: Lines, key: str, lang: str = "en", **values: str | int | float) -> str:
    """The line `key` of `lines` in `lang` (English for a language they do not have)."""
    return lines.get(lang, lines["en"])[key].format(**values)


def language(env: Mapping[str, str]) -> str:
    """German if a POSIX environment's locale asks for it (LC_ALL, then LC_MESSAGES, then
    LANG: the first that is set decides), else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def counted(number: float, word: str, lang: str = "en") -> str:
    """`number` of `word`, e.g. "3 sessions" (the logs' way, English, too)."""
    if lang != "de":
        return f"{number:.0f} {word}" + ("" if round(number) == 1 else "s")
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
