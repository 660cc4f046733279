"""A table's views, derived once per version of its game.

At every move the presenter reads the match's public view (the table message, whether the computers' cards may join
one edit) and each seated player's view (their live hand, its panel, a click's check) several times; each is a
fresh derivation of the engine's whole state.  They are kept here per table until its game moves: the table's
``version`` is bumped by every action and deal applied to its match, and a replaced match (a reload, an undo) is a
new object, so a view kept for ``(version, match)`` is the view the engine would give now.

The views handed out are shared: readers must not change them (copy first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.tables.service import Table
    from rules.game import Match

_KEY = "views"  # table.extra


@dataclass
class _Views:
    version: int
    match: Match
    public: dict | None = None
    seats: dict[int, dict] = field(default_factory=dict)


def _current(table: Table) -> _Views:
    match = table.match
    assert match is not None
    views = table.extra.get(_KEY)
    if views is None or views.version != table.version or views.match is not match:
        views = table.extra[_KEY] = _Views(table.version, match)
    return views


def public_view(table: Table) -> dict:
    """``table.match.public_view()`` at the table's current version (shared: do not change it)."""
    views = _current(table)
    if views.public is None:
        views.public = views.match.public_view()
    return views.public


def seat_view(table: Table, seat: int) -> dict:
    """``table.match.seat_view(seat)`` at the table's current version (shared: do not change it)."""
    views = _current(table)
    view = views.seats.get(seat)
    if view is None:  # on the public view of this version, derived once for all (a shallow copy: shared parts)
        view = views.seats[seat] = views.match.seat_view(seat, public_view(table))
    return view
