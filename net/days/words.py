"""What the table's keeper of games over days tells a player while they are away (webhook,
e-mail digest, last warning: net.days.keeper), in the player's language. The keeper runs
with no app and no screen, so the language is the one the player's app spoke when they set
their notices (`Player.lang`, net.days.people.set_notices); English for one it does not know.
Lines are said as net.words says the doors' lines.
"""

from __future__ import annotations

from net.words import Lines, said

LANGUAGES = ("en", "de")

LINES: Lines = {
    "en": {
        "turn": "Your turn in {title} (game {game}, move {move})",
        "away": "{name} is on vacation until {until}: their clock in game {game} stands still",
        "warn_subject": "tabletop-tui: last call",
        "warn": "Your turn in {title} (game {game}) ends in about {hours} hours. If you do not "
                "move by then, the table's bot plays your seat for the rest of the game.",
        "digest_subject": "tabletop-tui: your turn in {count} games",
        "digest_subject_one": "tabletop-tui: your turn in 1 game",
        "digest_hello": "Hello {name},",
        "digest_count": "It is your turn in {count} games:",
        "digest_count_one": "It is your turn in 1 game:",
        "digest_game": "- {title} (game {game}), waiting {days} days",
    },
    "de": {
        "turn": "Du bist dran in {title} (Partie {game}, Zug {move})",
        "away": "{name} ist bis {until} im Urlaub: die Uhr in Partie {game} steht still",
        "warn_subject": "tabletop-tui: letzter Aufruf",
        "warn": "Dein Zug in {title} (Partie {game}) endet in etwa {hours} Stunden. Ziehst du "
                "bis dahin nicht, spielt der Bot des Tisches deinen Platz für den Rest der "
                "Partie.",
        "digest_subject": "tabletop-tui: du bist dran in {count} Partien",
        "digest_subject_one": "tabletop-tui: du bist dran in 1 Partie",
        "digest_hello": "Hallo {name},",
        "digest_count": "Du bist dran in {count} Partien:",
        "digest_count_one": "Du bist dran in 1 Partie:",
        "digest_game": "- {title} (Partie {game}), wartet seit {days} Tagen",
    },
}


def known(lang: str | None) -> str:
    """`lang` if notices speak it, else English (a stored value is never trusted to be one)."""
    return lang if lang in LANGUAGES else "en"


def line(key: str, lang: str, **values: str | int | float) -> str:
    return said(LINES, key, known(lang), **values)


def counted(key: str, count: int, lang: str) -> str:
    """The line `key` for `count` games (its `_one` form for one)."""
    return line(f"{key}_one", lang) if count == 1 else line(key, lang, count=count)


def days(number: float, lang: str) -> str:
    """A number of days with one decimal, as the language writes it (1.5 / 1,5)."""
    text = f"{number:.1f}"
    return text.replace(".", ",") if known(lang) == "de" else text
