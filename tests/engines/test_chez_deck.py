"""Chez Geek: the deck data file, its validation, and that rules code names no card."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engines.chez_geek import deck
from engines.chez_geek.deck import CARDS, DECK, DECK_FILE, JOBS, VOCABULARY, DeckError, parse_deck

TEXT = DECK_FILE.read_text(encoding="utf-8")


def broken(old: str, new: str) -> dict:
    """The real file with one edit, decoded."""
    assert old in TEXT, old
    return tomllib.loads(TEXT.replace(old, new, 1))


def test_the_bundled_deck() -> None:
    assert len(DECK.life) == 100 and len(CARDS) == 85 and len(JOBS) == 9
    types = {t: sum(c.copies for c in CARDS.values() if c.type == t) for t in deck.TYPES}
    assert types == {"person": 16, "activity": 33, "thing": 25, "anytime": 26}
    used = {kw for c in [*CARDS.values(), *JOBS.values()] for kw, _ in c.effects}
    used |= {
        a[0][0] for c in CARDS.values() for kw, a in c.effects if kw in ("each_turn", "next_turn")
    }
    assert used == set(VOCABULARY)
    assert CARDS["schlafen"].copies == 9 and CARDS["schaeferstuendchen_jimmys"].die == (6, -1)
    assert JOBS["zeitarbeiter"].income == (1, 4) and JOBS["support_hotline"].goal == 20
    assert all(c.de and c.en for c in CARDS.values())


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'effects = ["steal(cigarettes)"]',
            'effects = ["pinch(cigarettes)"]',
            "card 'kippenschnorren': unknown effect keyword 'pinch'",
        ),
        (
            '"own_turn", "income(+1)"',
            '"own_turn", "income(lots)"',
            "card 'geld_in_der_couch': bad argument 'lots' of income",
        ),
        (
            'effects = ["cancel(sleep)"]',
            'effects = ["cancel(slep)"]',
            "card 'auto_alarmanlage': unknown filter token 'slep'",
        ),
        ('en = "Beer"\n', "", "card 'bier': missing field 'en'"),
        (
            'id = "schlafen"\nde = "Schlafen"\nen = "Sleep"\ntype = "activity"\ncopies = 9',
            'id = "schlafen"\nde = "Schlafen"\nen = "Sleep"\ntype = "activity"\ncopies = 8',
            "99 copies, not the 100.*schlafen x8",
        ),
        ('categories = ["cigarettes"]', 'categories = ["smokes"]', "unknown category 'smokes'"),
        ('slack = "d6-1"', 'slack = "d8"', "card 'schaeferstuendchen_jimmys': slack must be"),
        (
            'effects = ["hand_size(7)"]',
            'effects = ["hand_size(0)"]',
            "job 'arbeitsdrohne': bad argument '0' of hand_size",
        ),
        (
            'effects = ["immune(studiengebuehren)"]',
            'effects = ["immune(tuition)"]',
            "job 'hiwi': unknown card id 'tuition'",
        ),
    ],
)
def test_a_broken_file_is_refused_naming_the_card(old: str, new: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        parse_deck(broken(old, new))


def test_a_broken_file_on_disk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(TEXT.replace("copies = 9", 'copies = "nine"', 1), encoding="utf-8")
    with pytest.raises(DeckError, match="card 'schlafen': field 'copies' must be an integer"):
        deck.load_deck(path)
    path.write_text("[[card]\n", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid TOML"):
        deck.load_deck(path)


def test_no_card_or_job_id_in_the_rules_code() -> None:
    ids = set(CARDS) | set(JOBS)
    for name in ("rules.py", "effects.py", "engine.py"):
        source = (DECK_FILE.parent / name).read_text(encoding="utf-8")
        literals = set(re.findall(r'"([a-z_]+)"', source))
        assert not literals & ids, f"{name} names {sorted(literals & ids)}"
