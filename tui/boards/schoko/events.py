"""Scho K.O. events as sentences for the log. Every event is public: a placement names the tile
and the spot, a draw never names the tile drawn."""

from __future__ import annotations

from typing import Any

from tui.boards.base import seat_name, seat_names
from tui.i18n import count_key, tr, you_key


def tile_name(tile: object, lang: str | None = None) -> str:
    """A tile as people say it: its mix of pieces, and "Smartie" when it carries one."""
    text = str(tile)
    mix = tr(f"schoko.mix.{text[:2]}", lang=lang)
    return f"{mix} + {tr('schoko.smartie', lang=lang)}" if text.endswith("s") else mix


def placement_words(move: dict[str, Any], lang: str | None = None) -> str:
    """A hinted placement in words: the tile, on which level, how turned, and where: where
    the hint put the tile's outline (the board has no axes to say coordinates by: "at -2,-1"
    told a player nothing)."""
    rot = move.get("rot")
    turn = tr(f"schoko.turned.{rot}", lang=lang) if rot in (1, 2, 3) else ""
    key = "schoko.hint.place2" if move.get("level") == 2 else "schoko.hint.place"
    return tr(
        key,
        lang=lang,
        tile=tile_name(move.get("tile"), lang),
        turn=turn,
    )


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Scho K.O. event as a sentence in `lang`."""
    kind = event.get("kind", "")
    name = seat_name(names, event.get("seat"))
    if kind == "colour":
        choc = tr(f"schoko.choc.{event.get('colour')}", lang=lang)
        return tr(you_key("schoko.event.colour", name), lang=lang, name=name, choc=choc)
    if kind == "place":
        key = "schoko.event.place2" if event.get("level") == 2 else "schoko.event.place"
        return tr(
            you_key(key, name),
            lang=lang,
            name=name,
            tile=tile_name(event.get("tile"), lang),
            x=event.get("x"),
            y=event.get("y"),
        )
    if kind in ("draw", "pass"):
        return tr(you_key(f"schoko.event.{kind}", name), lang=lang, name=name)
    if kind == "game_over":
        winners = list(event.get("winners") or [])
        key = count_key("schoko.event.game_over", len(winners))
        return tr(key, lang=lang, names=seat_names(names, winners))
    return tr("schoko.event.unknown", lang=lang, kind=kind)
