"""The table's "… More" menu: claim the remaining tricks, take back one's card, propose to stop, look back, from
where players are (their live hand, the table message) rather than only by ``/table claim``, ``/table undo`` and
``/table stop``.

The live hand's rows are its cards and its choices, so the menu's button goes where a row has room and never
displaces a card or a choice: a common action costs no more taps, and what the button opens is one tap away.  The
menu itself is an ephemeral message for the one who tapped; its buttons are answered by cogs/manners.py.
"""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.messages import MORE_VERB as MORE
from bot.presentation.messages import game_name, look_button, more_button, watch_button
from bot.tables.service import Table

MENU_CLAIM, MENU_UNDO, MENU_STOP = "m_claim", "m_undo", "m_stop"
MENU_VERBS = (MORE, MENU_CLAIM, MENU_UNDO, MENU_STOP)
ROW_WIDTH, MAX_ROWS = 5, 5  # Discord: buttons per row, rows per message


def with_more(table: Table, view: discord.ui.View | None) -> discord.ui.View:
    """``view`` (a live hand's panel) with the More button in its last row when that row has room, else in a row of
    its own when the message has one left; a panel that fills all five rows is left as it is (the table message
    still has the button)."""
    if view is None:
        return view_of(more_button(table))
    row = more_row([len(r["components"]) for r in view.to_components()])
    if row is not None:
        view.add_item(more_button(table, row=row))
    return view


def more_row(widths: list[int]) -> int | None:
    """Where ``with_more`` puts the More button in components whose rows hold ``widths`` items: the last row's index
    when it has room, else the next row's, else None (no room)."""
    widths = [w for w in widths if w]  # as Discord's rows: an empty row is none
    if widths and widths[-1] < ROW_WIDTH:
        return len(widths) - 1
    if len(widths) < MAX_ROWS:
        return len(widths)
    return None


def menu(table: Table, user_id: int) -> tuple[str, discord.ui.View]:
    """What the More button opens: for a player, the manners and the history; for anyone else, the history and
    watching."""
    head = _("**Table #{table}** ({game})", table=table.id, game=game_name(table.game))
    if table.seat_of(user_id) is None:
        return (
            _(
                "{head}: you do not play here. **Look back** shows what the rules let anyone see; **Watch** brings you "
                "the table and each finished deal.",
                head=head,
            ),
            view_of(look_button(table), watch_button(table)),
        )
    claim, undo, stop = _("Claim the rest"), _("Take back my card"), _("Propose to stop")
    buttons = [
        TableButton(ComponentId(table.id, MENU_CLAIM), claim, discord.ButtonStyle.primary, emoji="🙋"),
        TableButton(ComponentId(table.id, MENU_UNDO), undo, discord.ButtonStyle.secondary, emoji="↩️"),
        TableButton(ComponentId(table.id, MENU_STOP), stop, discord.ButtonStyle.danger, emoji="🛑"),
        look_button(table),
    ]
    lines = [
        _("{head}, for you alone:", head=head),
        "🙋 " + _("**{claim}**: every remaining trick for your side (played out at once when no play can stop it, "
                  "else put to your opponents).", claim=claim),
        "↩️ " + _("**{undo}**: your last card, if your opponents agree before the next card (unrated tables).",
                  undo=undo),
        "🛑 " + _("**{stop}**: the game ends, unrated, when more than half of its players agree.", stop=stop),
        "🔎 " + _("**{look}**: what the rules let you see of this deal.", look=_("Look back")),
    ]  # fmt: skip
    return "\n".join(lines), view_of(*buttons)
