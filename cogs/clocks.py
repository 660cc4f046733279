"""Idle players at the table: **I'm back**, **Nudge**, offering a seat to a substitute and taking it, and ``/back``,
``/nudge``.  The rules live in ``bot/clocks/service.py``; this cog carries the request and the answer."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.clocks.service import ClockService
from bot.presentation.components import ComponentId
from bot.tables.service import Refusal, Table
from cogs.acting import answer, answering_errors, find_table, manager_of


def clocks_of(interaction: discord.Interaction) -> ClockService:
    return interaction.client.clocks  # type: ignore[attr-defined]


def is_admin(interaction: discord.Interaction) -> bool:
    """A server admin (manage server), from the permissions Discord resolved for this interaction."""
    return interaction.guild_id is not None and bool(interaction.permissions.manage_guild)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class Clocks(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def on_component(self, interaction: discord.Interaction, cid: ComponentId, values: list[str]) -> None:
        async with answering_errors(interaction):
            table = await manager_of(interaction).get(cid.table)
            if cid.verb == "back":
                await self._back(interaction, table)
            elif cid.verb == "nudge":
                await self._nudge(interaction, table)
            elif cid.verb == "offer":
                seat = int(cid.arg or 0)
                await clocks_of(interaction).offer(table, interaction.user.id, seat, admin=is_admin(interaction))
                await answer(interaction, f"Seat {seat + 1} is offered to a substitute.")
            elif cid.verb == "take":
                seat = int(cid.arg or 0)
                await clocks_of(interaction).take(table, interaction.user.id, _name(interaction.user), seat)
                await interaction.response.send_message(
                    f"🪑 <@{interaction.user.id}> takes seat {seat + 1} at table #{table.id}. "
                    "Press **My hand** on the table message to play."
                )
            else:
                raise Refusal("That button is not understood any more.")

    async def _back(self, interaction: discord.Interaction, table: Table) -> None:
        seat = await clocks_of(interaction).back(table, interaction.user.id)
        await answer(interaction, f"Welcome back: seat {seat + 1} at table #{table.id} is yours again.")

    async def _nudge(self, interaction: discord.Interaction, table: Table) -> None:
        seat = await clocks_of(interaction).nudge(table, interaction.user.id)
        await answer(interaction, f"🔔 {table.names()[seat]} has been nudged.")

    @app_commands.command(name="back", description="Take your seat back from the computer that played for you")
    async def back(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async with answering_errors(interaction):
            found = await self._away_table(interaction, table)
            await self._back(interaction, found)

    async def _away_table(self, interaction: discord.Interaction, table_id: int | None) -> Table:
        if table_id is not None:
            return await manager_of(interaction).get(table_id)
        mine = [
            t
            for t in manager_of(interaction).tables_of(interaction.user.id)
            if t.seat_of(interaction.user.id) in t.away
        ]
        if len(mine) == 1:
            return mine[0]
        return await find_table(interaction, None)

    @app_commands.command(name="nudge", description="Remind the player whose turn it is (once per turn)")
    async def nudge(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async with answering_errors(interaction):
            await self._nudge(interaction, await find_table(interaction, table))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Clocks(bot))
