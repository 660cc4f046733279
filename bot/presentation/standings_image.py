"""A tournament's standings as an image (render/standings.py), for the message edited in place after each result:
the ranking's first figure and the tiebreaks that matter for it, in the language being spoken."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import current_language
from bot.presentation import images
from bot.tournaments.standings import MATCH_POINTS, Line

# Each ranking's columns (labels in render/i18n.py): its first figure, then a tiebreak, then matches played.
COLUMNS = {
    "match_points": ("st_match_points", "st_buchholz", "st_played"),
    "cumulative": ("st_cumulative", "st_won", "st_played"),
    "levels": ("st_levels", "st_won", "st_played"),
    "matchpoints": ("st_matchpoints", "st_won", "st_played"),
}


def standings_rows(lines: Sequence[Line], names: Mapping[int, str], method: str) -> list[tuple[object, ...]]:
    second = (lambda ln: ln.buchholz) if method == MATCH_POINTS else (lambda ln: ln.won)
    return [(ln.place, names.get(ln.entrant, str(ln.entrant)), ln.score, second(ln), ln.played) for ln in lines]


async def standings_png(
    title: str, subtitle: str, lines: Sequence[Line], names: Mapping[int, str], method: str
) -> bytes | None:
    """The PNG, or None (drawing off or failed: the text says it all)."""
    rows = standings_rows(lines, names, method)
    return await images.render(
        "render_standings", rows, title=title, columns=list(COLUMNS.get(method, COLUMNS["cumulative"])),
        subtitle=subtitle, lang=current_language.get(), total=len(rows),
    )  # fmt: skip
