"""Idle players at the table: **I'm back**, **Nudge**, offering a seat to a substitute and taking it, and what
``/table back`` and ``/table nudge`` do.  The rules live in ``bot/clocks/service.py``; this module carries the request
and the answer (the ``/table`` commands are declared with the rest of their group, in cogs/tables.py)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.clocks.service import ClockService
from bot.i18n import _, speaking
from bot.presentation.components import ComponentId
from bot.presentation.errors import answer
from bot.presentation.language import table_language_of
from bot.tables.service import Refusal, Table
from cogs.acting import Interaction, find_table, manager_of


def clocks_of(interaction: Interaction) -> ClockService:
    clocks = interaction.client.clocks
    assert clocks is not None, "interactions arrive only after setup_hook made the clock service"
    return clocks


def is_admin(interaction: Interaction) -> bool:
    """A server admin (manage server), from the permissions Discord resolved for this interaction."""
    return interaction.guild_id is not None and bool(interaction.permissions.manage_guild)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def clock_click(interaction: Interaction, cid: ComponentId, values: list[str]) -> None:
    """A clock button of the table message (the Tables cog hands these on, within its error handling)."""
    table = await manager_of(interaction).get(cid.table)
    if cid.verb == "back":
        await back_to_seat(interaction, table)
    elif cid.verb == "nudge":
        await nudge_player(interaction, table)
    elif cid.verb == "offer":
        seat = int(cid.arg or 0)
        await clocks_of(interaction).offer(table, interaction.user.id, seat, admin=is_admin(interaction))
        await answer(interaction, _("Seat {seat} is offered to a substitute.", seat=seat + 1))
    elif cid.verb == "take":
        seat = int(cid.arg or 0)
        await clocks_of(interaction).take(table, interaction.user.id, _name(interaction.user), seat)
        with speaking(table_language_of(table)):  # said in the table's channel, for everyone
            taken = _(
                "{who} takes seat {seat} at table #{table}. Press **My hand** on the table message to play.",
                who=f"<@{interaction.user.id}>",
                seat=seat + 1,
                table=table.id,
            )
        await interaction.response.send_message(f"🪑 {taken}")
    else:
        raise Refusal("That button is not understood any more.")


async def back_to_seat(interaction: Interaction, table: Table) -> None:
    seat = await clocks_of(interaction).back(table, interaction.user.id)
    await answer(
        interaction, _("Welcome back: seat {seat} at table #{table} is yours again.", seat=seat + 1, table=table.id)
    )


async def nudge_player(interaction: Interaction, table: Table) -> None:
    seat = await clocks_of(interaction).nudge(table, interaction.user.id)
    await answer(interaction, "🔔 " + _("{name} has been nudged.", name=table.names()[seat]))


async def away_table(interaction: Interaction, given: Table | None) -> Table:
    """The table ``/table back`` means: the one given, else the only one where a computer plays for the user."""
    if given is not None:
        return given
    mine = [
        t for t in manager_of(interaction).tables_of(interaction.user.id) if t.seat_of(interaction.user.id) in t.away
    ]
    if len(mine) == 1:
        return mine[0]
    return await find_table(interaction, None)


class Clocks(commands.Cog):
    """Idle players: the cog that table events about clocks arrive at."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Clocks(bot))
