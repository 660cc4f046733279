"""``/hint``: at a table that allows hints, what the strongest computer level (``rules.players.STRONGEST``, the
master) would play now and why, in one line, for the player whose turn it is (ephemeral); the players read it as
"the expert would play …".  It thinks in a worker thread, within ``HINT_BUDGET_S``, so the bot never stalls;
it holds the table's lock meanwhile (as a computer player does), so the game cannot move under it.

Hints are chosen at ``/table new hints:True`` and make the game unrated (bot/ratings/rating.py): docs/ai.md.
"""

from __future__ import annotations

import asyncio
import logging

from discord import app_commands
from discord.ext import commands

from bot.presentation.errors import answer
from bot.presentation.hint_words import hint_text
from bot.presentation.language import language_of
from bot.presentation.messages import game_name
from bot.storage.store import PLAYING
from bot.tables.service import Refusal, Table, computers_know
from cogs.acting import Interaction, find_table, in_time, legal_for
from cogs.arguments import TABLE_HELP, TableOption
from rules.players import STRONGEST

log = logging.getLogger(__name__)

HINT_BUDGET_S = 0.5  # the expert's thinking time for a hint (tests make it shorter)
HINT_LEVEL = STRONGEST  # the strongest computer level gives the hints


def check_hint(table: Table, user_id: int) -> int:
    """The seat a hint is for, or a ``Refusal`` that says why there is none."""
    if table.status != PLAYING or table.match is None:
        raise Refusal("Table #{table} is not being played.", table=table.id)
    if not table.row.hints:
        raise Refusal(
            "Table #{table} does not allow hints. The host chooses them when opening a table "
            "(`/table new hints:True`); such games are unrated.",
            table=table.id,
        )
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not seated at table #{table}; hints are for its players.", table=table.id)
    if table.match.to_move != seat or not legal_for(table, seat):
        raise Refusal("It is not your turn at table #{table}: a hint is for the player to move.", table=table.id)
    if table.stands_in(seat):
        raise Refusal("A computer plays for you at table #{table}; press **I'm back** first.", table=table.id)
    if not computers_know(table.game):
        raise Refusal("There are no hints for {game}: the computer players do not know it.", game=game_name(table.game))
    return seat


async def hint_line(table: Table, user_id: int, lang: str = "en", budget_s: float | None = None) -> str:
    """The expert's suggestion for the user's move and its one-line reason, in ``lang``."""
    from rules.ai import explain

    check_hint(table, user_id)
    async with table.lock:
        seat = check_hint(table, user_id)  # again: the game may have moved while we waited for the lock
        assert table.match is not None and table.record is not None
        history = list(table.record.deals[-1].actions)
        budget = HINT_BUDGET_S if budget_s is None else budget_s
        try:
            action, why = await asyncio.to_thread(explain, HINT_LEVEL, table.match, seat, None, budget, history)
        except Exception:
            log.exception("table %d: the hint failed", table.id)
            raise Refusal("Sorry, no hint this time: the expert could not decide. Play as you see fit!") from None
    return hint_text(table.id, action, why, lang)


class Hint(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="hint", description="What the expert would play now, and why (tables with hints on)")
    @app_commands.describe(table=TABLE_HELP)
    async def hint(self, interaction: Interaction, table: TableOption | None = None) -> None:
        found = await find_table(interaction, table)
        check_hint(found, interaction.user.id)  # refuse at once, before any thinking
        lang = await language_of(interaction)
        line, deferred = await in_time(interaction, hint_line(found, interaction.user.id, lang), thinking=True)
        if deferred:
            await interaction.edit_original_response(content=line)
        else:
            await answer(interaction, line)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hint(bot))
