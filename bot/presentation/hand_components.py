"""A live hand's buttons as data, made into discord.py components only when a message is sent.

The bot works out every live hand of a table at every move, to compare it with what the player's message shows
(bot/presentation/live_hands.py); most of the time nothing changed and nothing is sent.  Building discord.py's
``Button`` objects for each of ~10 buttons and turning them into JSON, only to compare, cost about as much as
the rest of the hand, so the comparison is made on this data, and ``view`` builds the components the same way
``hand_panel`` and ``with_more`` do, once a message is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.i18n import speaking
from bot.presentation.components import view_of
from bot.presentation.messages import more_button
from bot.presentation.panel import Rows, panel_view
from bot.presentation.table_menu import more_row
from bot.tables.service import Table


@dataclass(frozen=True)
class HandComponents:
    """The panel's rows (``panel_rows``) at a version of the table, in a language, with or without the More
    button."""

    table: int
    version: int
    lang: str
    rows: Rows
    more: bool

    def key(self, *, versioned: bool = True) -> tuple:
        """What the components show, to compare: equal keys, equal components.  Without ``versioned``, the table
        version in their custom ids is left out (a waiting hand's buttons are the same whatever the others did)."""
        return (self.table, self.version if versioned else None, self.lang, self.rows, self.more)

    def view(self, table: Table) -> discord.ui.View | None:
        """The components, as ``with_more(table, hand_panel(...)[1])`` built them when this was made."""
        with speaking(self.lang):
            view = panel_view(table, self.rows, version=self.version)
            if not self.more:
                return view
            if view is None:
                return view_of(more_button(table))
            row = more_row([len(r) for r in self.rows])
            if row is not None:
                view.add_item(more_button(table, row=row))
            return view
