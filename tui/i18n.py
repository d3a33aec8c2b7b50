"""Every word the interface shows, in English and German.

Screens and widgets never hold literal UI text: they call `tr(key, **fields)`, so switching the
language is a matter of redrawing. Game boards add their own sentences with `register` next to
their code, keeping one game's words in one place. Card names stay as printed (German).
"""

from __future__ import annotations

from net.wire.text import clean

LANGUAGES: tuple[str, ...] = ("en", "de")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}

_STRINGS: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_current = "en"


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add texts, {lang: {key: text}}. A key missing in German falls back to English."""
    for lang, table in strings.items():
        _STRINGS[lang].update(table)


def set_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    global _current
    _current = lang


def language() -> str:
    return _current


def tr(key: str, /, *, lang: str | None = None, **fields: object) -> str:
    """The text for `key` in `lang` (default: the current language), with `{fields}` filled."""
    text = _STRINGS[lang or _current].get(key)
    if text is None:
        text = _STRINGS["en"].get(key, key)
    return text.format(**fields) if fields else text


def known(key: str, lang: str | None = None) -> bool:
    """Whether `key` has a text of its own in `lang` (default: the current language)."""
    return key in _STRINGS[lang or _current]


def count_key(key: str, count: int) -> str:
    """`key.zero`, `key.one` or `key.many`: enough plural forms for English and German."""
    return f"{key}.{'zero' if count == 0 else 'one' if count == 1 else 'many'}"


# The names the app gives seats nobody named ("You", "Player 2", "Bot 1"): a table shows them
# in the language of the moment, so a switch to German does not leave "You" at the table.
DEFAULT_NAMES = ("name.you", "name.person", "name.bot")


def localised_name(name: str) -> str:
    """`name` in the current language if it is one of the default names in any language;
    any other name as it is (people's names are never translated), cleaned: every name a
    screen shows passes here, and many came over the wire (a host's, a peer's, a record's
    or a ladder's of a game played elsewhere; net.wire.text)."""
    for key in DEFAULT_NAMES:
        for lang in LANGUAGES:
            pattern = _STRINGS[lang].get(key, "")
            head, _, tail = pattern.partition("{n}")
            if pattern == name:
                return tr(key)
            if "{n}" in pattern and name.startswith(head) and name.endswith(tail):
                number = name[len(head) : len(name) - len(tail)]
                if number.isdigit():
                    return tr(key, n=int(number))
    return clean(name)


def is_you(name: str) -> bool:
    """Whether `name` is the default name of the player at the keys ("You", "Du")."""
    return name in {_STRINGS[lang].get("name.you") for lang in LANGUAGES}


def you_key(key: str, name: str) -> str:
    """`key.you` when `name` is the default name of the player at the keys ("You", "Du"),
    else `key`: a sentence with that name as its subject needs the verb's second person
    ("You lead", "Du spielst aus"), so such keys are registered in both forms."""
    return f"{key}.you" if is_you(name) else key


def third_person(name: str, seat: int) -> str:
    """`name` as a replay shows it: the default name of the player at the keys ("You", "Du")
    becomes "Player N" (N the seat's number, as when several people share the keyboard);
    any other name as it is."""
    return tr("name.person", n=seat + 1) if is_you(name) else name


def keys(lang: str) -> set[str]:
    """Every key known in `lang` (tests compare the languages)."""
    return set(_STRINGS[lang])


register(
    {
        "en": {
            "key.rules": "Rules",
            "key.theme": "Theme",
            "key.language": "Deutsch",
            "key.quit": "Quit",
            "key.back": "Back",
            "key.menu": "Menu",
            "menu.subtitle": "card and board games at a terminal table",
            "menu.play": "Play a local game",
            "menu.host": "Host a game",
            "menu.join": "Join by code",
            "menu.tables": "Open tables",
            "menu.quick": "Quick play",
            "menu.rules": "Rules",
            "menu.settings": "Settings",
            "menu.past": "Past games",
            "menu.players": "Players",
            "menu.quit": "Quit",
            "pick.title": "Choose a game",
            "pick.players": "{lo}–{hi} players",
            "pick.players_exactly": "{n} players",
            "pick.unavailable": "not available yet",
            "lobby.title": "{game}: new table",
            "lobby.seats": "Seats",
            "lobby.seat": "Seat {n}",
            "lobby.you": "You",
            "lobby.person": "Person at this terminal",
            "lobby.bot_random": "Bot (random)",
            "lobby.bot_strong": "Bot (strong)",
            "lobby.bot_expert": "Bot (expert)",
            "lobby.add": "+ Seat",
            "lobby.remove": "− Seat",
            "lobby.options": "Options",
            "lobby.no_options": "This game has no options.",
            "lobby.seed": "Seed (optional, for a repeatable shuffle)",
            "lobby.start": "Start",
            "lobby.bad_seed": "The seed must be a whole number from 0 to 2**63-1.",
            "lobby.bad_count": "{game} takes {lo} to {hi} players.",
            "name.you": "You",
            "name.person": "Player {n}",
            "name.bot": "Bot {n}",
            "option.on": "on",
            "option.off": "off",
            "game.you_are": "at the keys: {name}",
            "game.watching": "watching",
            "game.over": "Game over",
            "game.turn_of": "{name}'s turn",
            "game.your_turn": "Your turn",
            "game.log": "What happened",
            "game.started": "A new game starts.",
            "game.chat": "{name}: {text}",
            "game.error": "Not allowed: {message}",
            "game.leave_again": "Press Esc again to leave this game.",
            "game.leave_rated": "Press Esc again to leave: this rated game then counts as "
                                "lost, last place and a penalty.",
            "game.rated": "This game is rated. From the first move on, leaving it before the "
                          "end (Esc, closing the terminal) counts as last place and a penalty. "
                          "No hints in a rated game.",
            "game.room": "room {code}",
            "game.key.log": "Log",
            "overlay.log_hint": "↑/↓ PgUp/PgDn Home/End scroll · Esc closes",
            "quit.question": "Quit?",
            "quit.yes": "Quit",
            "quit.no": "Stay",
            "leave.yes": "Leave",
            "leave.no": "Stay",
            "badge.you": "you",
            "badge.bot": "bot",
            "badge.offline": "offline",
            "handoff.title": "Pass the keyboard to {name}",
            "handoff.body": "The table is hidden so nobody sees what only {name} may see.",
            "handoff.ready": "I am {name}: show my table",
            "results.title": "Results",
            "results.winner": "winner",
            "results.score": "score",
            "results.rematch": "Rematch",
            "results.menu": "Main menu",
            "results.won": "{names} won the game!",
            "results.won.you": "You won the game!",
            "results.won.many": "{names} share the win!",
            "results.verified": "✔ Shuffles verified: the host's seed replays to this game.",
            "results.key.stats": "Statistics",
            "results.key.standings": "Standings",
            "stats.title": "Statistics",
            "stats.key": "Statistics",
            "stats.of": "Statistics: {game}",
            "stats.not_over": "Only a finished game has statistics: this one's secrets are "
                              "still secret",
            "stats.none": "This game's record does not replay, so it has no statistics",
            "help.none": "No rules have been written for {game} yet.",
            "settings.title": "Settings",
            "settings.theme": "Theme",
            "settings.language": "Language",
            "settings.done": "Done",
            "settings.name": "Your name",
            "settings.bot_level": "Bots play",
            "settings.bell": "Bell on your turn",
            "settings.bell.network": "In networked games",
            "settings.bell.always": "Always",
            "settings.bell.off": "Never",
            "settings.clock": "Clock of games you host",
            "settings.takeover": "Bot takes over (s)",
            "theme.default": "Green felt",
            "theme.high-contrast": "High contrast",
            "clock.preset.none": "No clock",
            "clock.preset.fast": "Fast",
            "clock.preset.normal": "Normal",
            "clock.preset.slow": "Slow",
            "clock.preset.move": "Per turn",
            "clock.words": "{name}: {bank} + {increment} a turn",
            "clock.words.move": "{name}: {turn} for every turn",
            "clock.seconds": "{n} s",
            "clock.minutes": "{n} min",
            "clock.minutes_seconds": "{m} min {s} s",
            "clock.about": "A game takes about {n} minutes.",
            "clock.out.bot": "Out of time: the strong bot moves for them",
            "clock.out.skip": "Out of time: they are skipped",
            "clock.no_skip": "Out of time the strong bot moves for them ({game} has no turn "
                             "to skip).",
            "clock.label": "Clock",
            "clock.key": "+Time",
            "clock.note": "Clocks: {words}. F7 gives you more time, once a game.",
            "clock.note.watching": "Clocks: {words}.",
            "clock.ran_out.bot": "{name}'s time ran out: the strong bot moved for them.",
            "clock.ran_out.skip": "{name}'s time ran out: they were skipped.",
            "clock.extended": "{name} takes more time: +{extra}.",
            "clock.ran_out.bot.you": "Your time ran out: the strong bot moved for you.",
            "clock.ran_out.skip.you": "Your time ran out: you were skipped.",
            "clock.extended.you": "You take more time: +{extra}.",
        },
        "de": {
            "key.rules": "Regeln",
            "key.theme": "Farben",
            "key.language": "English",
            "key.quit": "Beenden",
            "key.back": "Zurück",
            "key.menu": "Menü",
            "menu.subtitle": "Karten- und Brettspiele am Terminal-Tisch",
            "menu.play": "Lokal spielen",
            "menu.host": "Spiel eröffnen",
            "menu.join": "Mit Code beitreten",
            "menu.tables": "Offene Tische",
            "menu.quick": "Schnell spielen",
            "menu.rules": "Regeln",
            "menu.settings": "Einstellungen",
            "menu.past": "Vergangene Spiele",
            "menu.players": "Spieler",
            "menu.quit": "Beenden",
            "pick.title": "Spiel wählen",
            "pick.players": "{lo}–{hi} Spieler",
            "pick.players_exactly": "{n} Spieler",
            "pick.unavailable": "noch nicht verfügbar",
            "lobby.title": "{game}: neuer Tisch",
            "lobby.seats": "Plätze",
            "lobby.seat": "Platz {n}",
            "lobby.you": "Du",
            "lobby.person": "Person an diesem Terminal",
            "lobby.bot_random": "Bot (zufällig)",
            "lobby.bot_strong": "Bot (stark)",
            "lobby.bot_expert": "Bot (Experte)",
            "lobby.add": "+ Platz",
            "lobby.remove": "− Platz",
            "lobby.options": "Optionen",
            "lobby.no_options": "Dieses Spiel hat keine Optionen.",
            "lobby.seed": "Startwert (optional, für ein wiederholbares Mischen)",
            "lobby.start": "Los",
            "lobby.bad_seed": "Der Startwert muss eine ganze Zahl von 0 bis 2**63-1 sein.",
            "lobby.bad_count": "{game} braucht {lo} bis {hi} Spieler.",
            "name.you": "Du",
            "name.person": "Spieler {n}",
            "name.bot": "Bot {n}",
            "option.on": "an",
            "option.off": "aus",
            "game.you_are": "an den Tasten: {name}",
            "game.watching": "zuschauen",
            "game.over": "Spielende",
            "game.turn_of": "{name} ist dran",
            "game.your_turn": "Du bist dran",
            "game.log": "Was geschah",
            "game.started": "Ein neues Spiel beginnt.",
            "game.chat": "{name}: {text}",
            "game.error": "Nicht erlaubt: {message}",
            "game.leave_again": "Noch einmal Esc, um das Spiel zu verlassen.",
            "game.leave_rated": "Noch einmal Esc zum Verlassen: dieses gewertete Spiel zählt "
                                "dann als verloren, letzter Platz und ein Abzug.",
            "game.rated": "Dieses Spiel wird gewertet. Ab dem ersten Zug zählt es als letzter "
                          "Platz und ein Abzug, es vor dem Ende zu verlassen (Esc, Terminal "
                          "schließen). Keine Tipps in einem gewerteten Spiel.",
            "game.room": "Raum {code}",
            "game.key.log": "Verlauf",
            "overlay.log_hint": "↑/↓ Bild↑/Bild↓ Pos1/Ende blättern · Esc schließt",
            "quit.question": "Beenden?",
            "quit.yes": "Beenden",
            "quit.no": "Bleiben",
            "leave.yes": "Verlassen",
            "leave.no": "Bleiben",
            "badge.you": "du",
            "badge.bot": "Bot",
            "badge.offline": "offline",
            "handoff.title": "Gib die Tastatur an {name} weiter",
            "handoff.body": "Der Tisch ist verdeckt: nur {name} soll sehen, was {name} gehört.",
            "handoff.ready": "Ich bin {name}: Tisch zeigen",
            "results.title": "Ergebnis",
            "results.winner": "Sieg",
            "results.score": "Punkte",
            "results.rematch": "Revanche",
            "results.menu": "Hauptmenü",
            "results.won": "{names} gewinnt das Spiel!",
            "results.won.you": "Du gewinnst das Spiel!",
            "results.won.many": "{names} teilen sich den Sieg!",
            "results.verified": (
                "✔ Mischen geprüft: der Startwert des Gastgebers ergibt dieses Spiel."
            ),
            "results.key.stats": "Statistik",
            "results.key.standings": "Rangfolge",
            "stats.title": "Statistik",
            "stats.key": "Statistik",
            "stats.of": "Statistik: {game}",
            "stats.not_over": "Statistik gibt es nur für beendete Spiele: hier ist noch "
                              "geheim, was geheim ist",
            "stats.none": "Diese Aufzeichnung lässt sich nicht nachspielen, also gibt es keine "
                          "Statistik",
            "help.none": "Für {game} sind noch keine Regeln geschrieben.",
            "settings.title": "Einstellungen",
            "settings.theme": "Farben",
            "settings.language": "Sprache",
            "settings.done": "Fertig",
            "settings.name": "Dein Name",
            "settings.bot_level": "Bots spielen",
            "settings.bell": "Klingel, wenn du dran bist",
            "settings.bell.network": "Im Netzwerkspiel",
            "settings.bell.always": "Immer",
            "settings.bell.off": "Nie",
            "settings.clock": "Uhr deiner Netzwerkspiele",
            "settings.takeover": "Bot übernimmt (s)",
            "theme.default": "Grüner Filz",
            "theme.high-contrast": "Hoher Kontrast",
            "clock.preset.none": "Ohne Uhr",
            "clock.preset.fast": "Schnell",
            "clock.preset.normal": "Normal",
            "clock.preset.slow": "Langsam",
            "clock.preset.move": "Pro Zug",
            "clock.words": "{name}: {bank} + {increment} pro Zug",
            "clock.words.move": "{name}: {turn} für jeden Zug",
            "clock.seconds": "{n} s",
            "clock.minutes": "{n} min",
            "clock.minutes_seconds": "{m} min {s} s",
            "clock.about": "Eine Partie dauert etwa {n} Minuten.",
            "clock.out.bot": "Zeit abgelaufen: der starke Bot zieht für sie",
            "clock.out.skip": "Zeit abgelaufen: sie werden übersprungen",
            "clock.no_skip": "Ist die Zeit abgelaufen, zieht der starke Bot ({game} hat "
                             "keinen Zug zum Überspringen).",
            "clock.label": "Uhr",
            "clock.key": "+Zeit",
            "clock.note": "Uhren: {words}. F7 gibt dir einmal pro Partie mehr Zeit.",
            "clock.note.watching": "Uhren: {words}.",
            "clock.ran_out.bot": "Die Zeit von {name} ist abgelaufen: der starke Bot zog.",
            "clock.ran_out.skip": "Die Zeit von {name} ist abgelaufen: übersprungen.",
            "clock.extended": "{name} nimmt sich mehr Zeit: +{extra}.",
            "clock.ran_out.bot.you": "Deine Zeit ist abgelaufen: der starke Bot zog für dich.",
            "clock.ran_out.skip.you": "Deine Zeit ist abgelaufen: du wurdest übersprungen.",
            "clock.extended.you": "Du nimmst dir mehr Zeit: +{extra}.",
        },
    }
)
