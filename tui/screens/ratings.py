"""How every screen speaks of ratings (the ladder, a player's page, the results): a player's
name on a ladder (a bot by its level), a rating and its change in the language of the moment,
and why a game was not rated."""

from __future__ import annotations

from net.players import identity, ratings
from net.players.counted import Unrated
from tui.i18n import language, localised_name, register, tr


def player_name(ident: str, name: str) -> str:
    """A ladder's name for a player: a bot by its level (its seat's name says nothing), a
    default name in the language of the moment ("You" at home is "Du" in German)."""
    if ident.startswith(identity.BOT_PREFIX):
        return tr(f"lobby.bot_{ident[len(identity.BOT_PREFIX):]}")
    return localised_name(name)


def number(value: float, signed: bool = False) -> str:
    """One decimal, with the decimal comma in German."""
    text = f"{value:+.1f}" if signed else f"{value:.1f}"
    if text in ("+0.0", "-0.0"):
        text = "±0.0"
    return text.replace(".", ",") if language() == "de" else text


def points(rating: float) -> str:
    """A rating (`Skill.rating`) on the scale players see (`ratings.shown`), whole points."""
    return f"{round(ratings.shown(rating))}"


def change(delta: float) -> str:
    """A change of a rating on the scale players see, with its sign ("±0" for none)."""
    value = round(ratings.shown_change(delta))
    return f"{value:+d}" if value else "±0"


def rating_of(rating: float, games: int, ident: str) -> str:
    """A rating as the ladder, a player's page and the results show it: on the scale players
    see, with "?" while provisional (fewer than `ratings.PROVISIONAL_GAMES` counted games of a
    person)."""
    bot = ident.startswith(identity.BOT_PREFIX)
    return points(rating) + ("?" if ratings.provisional(games, bot) else "")


def unrated(refused: Unrated) -> str:
    """Why a game does not count, as a sentence in the current language."""
    return tr("rated.not", why=tr(f"rated.why.{refused.code}", **refused.fields))


register(
    {
        "en": {
            "rated.not": "Not rated: {why}.",
            "rated.trouble": "Not rated: the ladder cannot be used ({error}).",
            "rated.why.unfinished": "the game did not end",
            "rated.why.damaged": "the record does not replay ({error})",
            "rated.why.result": "the record replays to another result than it states",
            "rated.why.practice": "the deal was chosen, not shuffled (a practice game)",
            "rated.why.stacked": "test options fixed the deal",
            "rated.why.unverified": "the shuffle was not verified",
            "rated.why.unproven": "{name} (seat {n}) has no proven identity",
            "rated.why.twice": "{name} plays two seats",
            "rated.why.bots": "only bots played it",
            "rated.why.left": "the record's list of players who left is broken",
            "rated.why.left_self": "only the host says that {name} (seat {n}), whose "
                                   "record this is, left the game",
            "rated.why.unstarted": "the game was left before its first move",
            "rated.why.pending": "the game is not over; it counts as left unless it is taken "
                                 "up again within a day of its start",
            "rated.why.level": "seat {n} names {level!r}, which is no bot level",
            "rated.why.botmove": "seat {n}'s moves are not those of the {level} bot it names "
                                 "(move {move})",
            "rated.why.closed": "the host's signed close does not match the game",
            "rated.rating": "rating {rating}",
            "rated.left": "left early",
        },
        "de": {
            "rated.not": "Nicht gewertet: {why}.",
            "rated.trouble": "Nicht gewertet: die Rangliste ist nicht lesbar ({error}).",
            "rated.why.unfinished": "das Spiel wurde nicht beendet",
            "rated.why.damaged": "die Aufzeichnung lässt sich nicht abspielen ({error})",
            "rated.why.result": "die Aufzeichnung endet mit einem anderen Ergebnis, als sie "
                                "angibt",
            "rated.why.practice": "die Karten wurden gewählt, nicht gemischt (ein Übungsspiel)",
            "rated.why.stacked": "Testoptionen haben die Karten festgelegt",
            "rated.why.unverified": "das Mischen wurde nicht bestätigt",
            "rated.why.unproven": "{name} (Platz {n}) hat keine nachgewiesene Identität",
            "rated.why.twice": "{name} spielt zwei Plätze",
            "rated.why.bots": "nur Bots haben gespielt",
            "rated.why.left": "die Liste der Spieler, die gegangen sind, ist beschädigt",
            "rated.why.left_self": "nur der Gastgeber sagt, dass {name} (Platz {n}), "
                                   "dessen Aufzeichnung das ist, das Spiel verlassen hat",
            "rated.why.unstarted": "das Spiel wurde vor dem ersten Zug verlassen",
            "rated.why.pending": "das Spiel ist nicht zu Ende; es zählt als verlassen, wenn es "
                                 "nicht binnen eines Tages nach seinem Beginn fortgesetzt wird",
            "rated.why.level": "Platz {n} nennt {level!r}, das ist keine Bot-Stufe",
            "rated.why.botmove": "die Züge von Platz {n} sind nicht die des Bots {level}, den er "
                                 "nennt (Zug {move})",
            "rated.why.closed": "das unterschriebene Schließen des Gastgebers passt nicht zum "
                                "Spiel",
            "rated.rating": "Wertung {rating}",
            "rated.left": "vorzeitig gegangen",
        },
    }
)
