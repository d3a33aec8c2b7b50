"""What the menu and the app's start know of play over days, kept light (the menu's first frame
waits for nothing): whether this app runs at a table that hosts games over days, its words,
and how many games wait for this player's move (read in a worker, after the first frame)."""

from __future__ import annotations

import os

from tui.i18n import register

TABLE_ENV = "TABLETOP_TUI_LADDER"  # net.players.ladder.TABLE_ENV, without importing the store

WORDS = {
    "menu.days": {"en": "Play over days", "de": "Spiel über Tage"},
    "menu.days_waiting": {"en": "Play over days — your turn in {n} games",
                          "de": "Spiel über Tage — du bist in {n} Spielen dran"},
    "menu.days_one": {"en": "Play over days — your turn in 1 game",
                      "de": "Spiel über Tage — du bist in 1 Spiel dran"},
    "menu.days_key": {"en": "Longest waiting", "de": "Wartet am längsten"},
    "days.key.settings": {"en": "Play over days: notices & vacation",
                          "de": "Spiel über Tage: Hinweise & Urlaub"},
    "days.login_one": {"en": "Your turn in 1 game over days: w takes you there",
                       "de": "Du bist in 1 Spiel über Tage dran: w bringt dich hin"},
    "days.login": {"en": "Your turn in {n} games over days: w takes you to the one waiting "
                         "longest",
                   "de": "Du bist in {n} Spielen über Tage dran: w bringt dich zu dem, das am "
                         "längsten wartet"},
}


def register_words(words: dict[str, dict[str, str]]) -> None:
    """Register words written key by key ({key: {lang: text}}), as play over days keeps them."""
    register({lang: {key: texts[lang] for key, texts in words.items()} for lang in ("en", "de")})


register_words(WORDS)


def at_table() -> bool:
    """Whether this app is a session of a table (`serve --ssh/--web`): only a table hosts
    games over days, since only it is there while its players come and go."""
    return bool(os.environ.get(TABLE_ENV))


def waiting() -> list[str]:
    """The ids of the games waiting for this player's move, the one waiting longest first
    (empty without an identity or a store)."""
    from net.days.link import with_store
    from net.players import identity
    from net.players.store import StoreError

    me = identity.mine()
    if me is None:
        return []
    try:
        games = with_store(None, lambda store: store.games_of(me.fingerprint))
    except (StoreError, OSError):
        return []
    return [g.id for g in sorted(games, key=lambda g: g.turn_since) if g.my_turn]


def menu_label(count: int | None) -> str:
    from tui.i18n import tr

    if not count:
        return tr("menu.days")
    return tr("menu.days_one") if count == 1 else tr("menu.days_waiting", n=count)
