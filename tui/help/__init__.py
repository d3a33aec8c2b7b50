"""Rules in our own words, one Markdown file per game and language: <engine_id>.<lang>.md.
Shared by the rules screen and `tabletop-tui rules <game>`."""

from __future__ import annotations

from importlib import resources

from tui.i18n import tr


def rules_text(engine_id: str, lang: str = "en") -> str:
    """The rules of `engine_id` in `lang`, falling back to English, then to a short notice;
    after a game's rules, what every table shares (`table.<lang>.md`: clocks, hints)."""
    folder = resources.files(__name__)
    for candidate in (lang, "en"):
        page = folder / f"{engine_id}.{candidate}.md"
        if page.is_file():
            shared = folder / f"table.{candidate}.md"
            return page.read_text(encoding="utf-8") + shared.read_text(encoding="utf-8")
    return tr("help.none", lang=lang, game=engine_id)
