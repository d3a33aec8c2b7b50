"""A player's own settings for play over days, kept in the table's store: where the table
tells them it is their turn (net.days.notices), and their vacation (net.days.clock)."""

from __future__ import annotations

from net.days import clock, words
from net.days.notices import check_email, check_webhook
from net.days.store import DaysStore, Player
from net.days.table import DaysError


def _player(store: DaysStore, ident: str, name: str) -> Player:
    return store.player(ident) or Player(ident, name)


def set_notices(store: DaysStore, ident: str, name: str, webhook: str | None,
                email: str | None, private_hooks: bool = False, lang: str = "en") -> Player:
    """Keep `ident`'s webhook and e-mail address (None or empty: none), and `lang`, the
    language the notices speak (the player's app's, as they set them: the keeper has no app
    to ask); NoticeError (a ValueError) saying what is wrong, and nothing kept."""
    hook = check_webhook(webhook, private_hooks) if webhook and webhook.strip() else None
    mail = check_email(email) if email and email.strip() else None
    with store.writing():
        player = _player(store, ident, name)
        player.webhook, player.email, player.lang = hook, mail, words.known(lang)
        store.keep_player(player)
    return player


def go_away(store: DaysStore, ident: str, name: str, days: int, now: float) -> Player:
    """Start `days` whole days of vacation now: every game of the player stands still."""
    with store.writing():
        player = _player(store, ident, name)
        if player.away.at(now):
            raise DaysError("You are on vacation already")
        year = clock.year_of(now)
        if player.vacation_year != year:
            player.vacation_year, player.vacation_used = year, 0.0
        left = clock.vacation_left(year, player.vacation_used, now)
        if not 1 <= days <= left:
            raise DaysError(f"You have {int(left)} days of vacation left this year")
        player.away = clock.Away(now, now + days * clock.DAY)
        player.vacation_used += days
        store.keep_player(player)
    return player


def come_back(store: DaysStore, ident: str, name: str, now: float) -> Player:
    """End a vacation early; whole days not begun are given back."""
    with store.writing():
        player = _player(store, ident, name)
        away = player.away
        if not away.at(now) or away.end is None or away.start is None:
            raise DaysError("You are not on vacation")
        unused = int((away.end - now) // clock.DAY)
        player.away = clock.Away(away.start, now)
        player.vacation_used = max(0.0, player.vacation_used - unused)
        store.keep_player(player)
    return player
