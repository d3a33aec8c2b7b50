"""Where Chez Geek's long card names may break on a narrow card: at their word joints, as a
person hyphenates them ("Schäfer-stündchen", not "Schäferst-ündchen"). A name is printed on
the card as it is in the deck; the joints below only tell `tui.widgets.cardrow` where a
break may go (soft hyphens)."""

from __future__ import annotations

from tui.widgets.cardrow import SOFT_HYPHEN

# Each long word of a card name, its joints marked "|" (German as printed, and English).
JOINTS = [
    "Action|figur", "Alarm|anlage", "Besof|fener", "Blut|plasma|spende", "Dosen|ravioli",
    "Enthu|siast", "Ent|stehung", "Finanz|spritze", "Gehalts|erhöhung", "Hasch|kekse",
    "Internet|junkie", "Kippen|schnorren", "Krank|feiern", "Lebens|abschnitts|partner",
    "Menthol|kippen", "Mikro|wellen|popcorn", "Mitter|nacht", "Müll|abfuhr", "Narko|lepsie",
    "Natür|liche", "Rollen|spiel|abend", "Schlaf|tabletten", "Schreiner|arbeiten",
    "Schwarz|bier", "Schäfer|stündchen", "Schön|saufen", "Spiele|abend", "Studien|gebühren",
    "Super|zecke", "Theater|party", "Video|spiele", "Über|stunden", "über|lastet",
    "Party|löwe", "Rost|laube", "Sperr|müll", "Faul|tiere", "Fern|sehen", "Fress|sack",
    "Hand|buch", "Hirn|furz", "Über|geek", "Über|fall", "Drome|dar", "Chine|sen", "Schla|fen",
    "aus|leihen", "ab|hängen", "ver|trägt", "ge|feuert!", "ge|redet?", "Nu|deln",
    "Enthu|siastic", "Justi|fiable", "Light|weight", "Narco|lepsy", "Role|playing",
    "Signi|ficant", "Game|Station", "Allow|ance", "Carpen|try", "Drome|dary", "Dump|ster",
    "Micro|wave", "Mid|night", "Mush|rooms", "Over|time", "Seda|tives", "Homi|cide",
    "Brow|nies", "Men|thols", "Pierc|ing", "Ragna|rok", "Ragna|rök",
]
_SOFT = {word.replace("|", ""): word.replace("|", SOFT_HYPHEN) for word in JOINTS}


def breakable(name: str) -> str:
    """`name` with soft hyphens at the joints of its long words (and of the parts of a
    hyphenated one: "Auto-Alarm|anlage")."""
    return " ".join("-".join(_SOFT.get(part, part) for part in word.split("-"))
                    for word in name.split(" "))
