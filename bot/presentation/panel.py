"""A seat's choices on its live hand: the panel of buttons (and, for now, the select menus of ``choices.plan``).

The interface the live hand uses (bot/presentation/live_hands.py) and the cogs route (verb ``hp``):
``hand_panel(table, seat, selection)`` gives the panel's text lines and components; ``read_click(table, seat,
arg)`` turns a click on one of its buttons into an action, or into a new selection of cards to show.  This version
offers today's choices (``plan``): buttons for single actions, select menus for bids, cards and discards.
"""

from __future__ import annotations

import discord

from bot.presentation.choices import decode, encode, label, plan
from bot.presentation.components import ComponentId, TableButton
from bot.presentation.messages import action_components
from bot.tables.service import Table

PANEL_VERB = "hp"
_BUTTONS_PER_ROW = 5
_ROWS = 5


def hand_panel(table: Table, seat: int, selection: str = "") -> tuple[list[str], discord.ui.View | None]:
    """The seat's choices now (none when it has nothing to do): text lines and components."""
    match = table.match
    if match is None:
        return [], None
    state = match.seat_view(seat)
    if not state["legal"]:
        return [], None
    choices = plan(state["legal"], seat, state["hand"], lead_several=state["lead_several"])
    buttons, choices.buttons = choices.buttons, []
    view = action_components(table, choices)  # the select menus (verbs pick and multi)
    row = len(view.children)  # one select menu per row
    for i, action in enumerate(buttons):
        button_row = row + i // _BUTTONS_PER_ROW
        if button_row >= _ROWS:
            break
        style = discord.ButtonStyle.secondary if action["type"] == "pass" else discord.ButtonStyle.primary
        cid = ComponentId(table.id, PANEL_VERB, table.version, encode(action))
        view.add_item(TableButton(cid, label(action)[:80], style, row=button_row))
    return ([choices.note] if choices.note else []), view


def read_click(table: Table, seat: int, arg: str) -> tuple[dict | None, str]:
    """The action a panel button stands for (None: not one, the selection to show instead)."""
    return decode(arg), ""
