"""How Skip-Bo Breakers tiles and sets look and read: tile faces for card rows, tiles inline
in a sentence, and a set in words ("straight 8-9-10, joker as 10"). Numbers keep the colours
of the printed tiles' bands in every theme (1-5 blue, 6-10 green, 11-15 red); the SB jokers
are gold with a star, so they stand out in any hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.content import Content

from tui.i18n import count_key, tr
from tui.widgets.cardrow import Face

SB = "SB"
SB_RANK = 16
SB_INK = "#1d1d1d"
SB_PAPER = "#f2c14e"


def ink(tile: Any) -> str:
    if tile == SB:
        return SB_INK
    return "#1f56b5" if tile <= 5 else "#1e7b34" if tile <= 10 else "#b3261e"


def face(tile: Any) -> Face:
    if tile == SB:
        return Face("SB", "★", ink=SB_INK, paper=SB_PAPER)
    return Face(str(tile), "", ink=ink(tile))


def chip(tile: Any) -> Content:
    """One tile inside a line of text."""
    if tile == SB:
        return Content.styled(" SB ", f"bold {SB_INK} on {SB_PAPER}")
    return Content.styled(f" {tile} ", f"bold {ink(tile)} on $card")


def chips(tiles: Sequence[Any]) -> Content:
    return Content(" ").join(chip(t) for t in tiles)


def listed(items: Sequence[str], lang: str | None = None) -> str:
    """Items in a sentence: "4, 5 and 7"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {tr('sbb.and', lang=lang)} {items[-1]}"


def kind_name(kind: str, rank: int | None = None, lang: str | None = None) -> str:
    if kind == "breaker" and rank == SB_RANK:
        return tr("sbb.kind.sb_breaker", lang=lang)
    return tr(f"sbb.kind.{kind}", lang=lang)


def set_words(
    kind: str, rank: int, tiles: Sequence[Any], values: Sequence[int], lang: str | None = None
) -> str:
    """A set in words: its type, its numbers, and what its jokers stand for."""
    name = kind_name(kind, rank, lang)
    if rank == SB_RANK:
        return f"{name} ×{len(tiles)}"
    words = f"{name} {'-'.join(str(v) for v in sorted(values))}"
    jokers = [str(v) for t, v in sorted(zip(tiles, values, strict=True), key=_by_value) if t == SB]
    if jokers:
        words += ", " + tr(count_key("sbb.joker_as", len(jokers)), lang=lang, values=listed(jokers))
    return words


def _by_value(pair: tuple[Any, int]) -> int:
    return pair[1]


def not_a_set(tiles: Sequence[Any]) -> str:
    return tr("sbb.not_a_set", tiles=listed([str(t) for t in tiles]))
