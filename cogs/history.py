"""A table's history and its spectators: the Look back, Review and Watch buttons, ``/table review`` and
``/table watch`` (declared in cogs/tables.py's group, answered here), and each finished deal told to the spectators
by DM.

What may be seen is decided in rules/ (rules/lookback.py) and worded in bot/presentation/history.py; a spectator is
shown the table's public view and never a hand (a finished deal's hands only where the table's option says so).
"""

from __future__ import annotations

import io
import logging

import discord
from discord.ext import commands

from bot.i18n import N_, _, current_language, speaking
from bot.presentation import images
from bot.presentation.components import ComponentId, view_of
from bot.presentation.errors import answer
from bot.presentation.history import (
    LOOK_VERB,
    REPLAY_VERB,
    REVIEW_VERB,
    UNWATCH_VERB,
    WATCH_VERB,
    embed,
    ended_early_text,
    hands_text,
    last_finished_deal,
    look_back_now,
    replay_button,
    review_text,
    spectator_view,
    story,
)
from bot.presentation.language import table_language_of, user_language
from bot.presentation.messages import DM_CLOSED, game_name, table_content, table_file, table_state
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.storage.watchers import add_watcher, remove_watcher, watchers_of
from bot.tables.manners import STOPPED_BY_VOTE
from bot.tables.service import Outcome, Refusal, Table, TableManager
from cogs.acting import Interaction, in_time, manager_of

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
# The latest replays asked for, by (table, deal): a finished deal never changes, and its players and spectators tend
# to ask for it together.
REPLAYS_KEPT = 32
_replays: dict[tuple[int, int, str], bytes] = {}  # (table, deal, language)


async def history_click(interaction: Interaction, cid: ComponentId, values: list[str]) -> None:
    table = await manager_of(interaction).get(cid.table)
    if cid.verb == LOOK_VERB:
        await show_look_back(interaction, table)
    elif cid.verb == REVIEW_VERB:
        if not (cid.arg or "").isdigit():
            raise Refusal("That button is not understood any more; use `/table review`.")
        await show_review(interaction, table, int(cid.arg or 0))
    elif cid.verb == REPLAY_VERB:
        if not (cid.arg or "").isdigit():
            raise Refusal("That button is not understood any more; use `/table review`.")
        await show_replay(interaction, table, int(cid.arg or 0))
    elif cid.verb == WATCH_VERB:
        message = interaction.message
        await watch(interaction, table, edit=message is not None and message.flags.ephemeral)
    elif cid.verb == UNWATCH_VERB:
        await unwatch(interaction, table)


async def show_look_back(interaction: Interaction, table: Table) -> None:
    """What anyone may look back at now: the current deal as the game's rules allow (every trick at a table whose
    review is open); once the game is over, its last deal in full."""
    if table.match is None:
        raise Refusal("Table #{table} has not started: there is nothing to look back at yet.", table=table.id)
    if table.status != PLAYING:
        await show_review(interaction, table, last_finished_deal(table))
        return
    await answer(interaction, "", embed=embed(look_back_now(table, table_state(table))))


async def show_review(interaction: Interaction, table: Table, deal: int | None) -> None:
    """A finished deal trick by trick, for its players and spectators alike (only the one who asked sees it)."""
    index = last_finished_deal(table) if deal is None else deal
    told = story(table, index)
    if not told.finished:
        raise Refusal(
            "Deal {deal} of table #{table} is still being played: its tricks can be reviewed once it is "
            "over. **Look back** shows what the rules let you see now.",
            deal=index + 1,
            table=table.id,
        )
    await answer(interaction, "", embed=embed(review_text(table, told)), view=view_of(replay_button(table, index)))


async def show_replay(interaction: Interaction, table: Table, deal: int) -> None:
    """A finished deal as an animated GIF (Discord animates GIF attachments), for whoever asked.  Drawing one takes
    a second or more, so the answer is deferred; the latest replays are kept for the next one to ask."""
    told = story(table, deal)
    if not told.finished:
        raise Refusal(
            "Deal {deal} of table #{table} is still being played: it can be replayed once it is over.",
            deal=deal + 1,
            table=table.id,
        )
    assert table.record is not None
    gif = _replays.get((table.id, deal, current_language.get()))
    if gif is None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        title = _("{game} · table #{table} · deal {deal}", game=game_name(table.game), table=table.id, deal=deal + 1)
        gif = await images.deal_replay_gif(table.record, deal, table.names(), title)
        if gif is None:
            await answer(interaction, _("The replay could not be drawn just now; **Review** tells the deal in words."))
            return
        while len(_replays) >= REPLAYS_KEPT:
            _replays.pop(next(iter(_replays)))
        _replays[table.id, deal, current_language.get()] = gif
    file = discord.File(io.BytesIO(gif), filename=f"table-{table.id}-deal-{deal + 1}.gif")
    await answer(
        interaction, _("Deal {deal} of table #{table}, card by card.", deal=deal + 1, table=table.id), file=file
    )


async def watch(interaction: Interaction, table: Table, *, edit: bool = False) -> None:
    """Watch a table: the live table as everyone sees it, its history, and each finished deal by DM."""
    if table.status == LOBBY or table.match is None:
        raise Refusal("Table #{table} has not started yet: watch it once its game begins.", table=table.id)
    if table.status != PLAYING:
        raise Refusal("Table #{table} is over: `/table review table:{table}` shows its deals.", table=table.id)
    if table.seat_of(interaction.user.id) is not None:
        raise Refusal(
            "You play at table #{table}: your hand comes to you, and **Look back** shows its history.", table=table.id
        )
    withheld = await manager_of(interaction).watch_withheld(table, interaction.user.id)
    if withheld:
        raise Refusal(withheld)
    new = await add_watcher(manager_of(interaction).store, table.id, interaction.user.id)
    state = table_state(table)
    file, deferred = await in_time(interaction, table_file(table, state), thinking=not edit)
    if not new:
        said = N_("You are watching table #{table} ({game}) — this is how it stands now.")
    elif table.row.spectator_hands:
        said = N_(
            "You are watching table #{table} ({game}). Each finished deal's review and, once each is over, its hands "
            "will come by DM."
        )
    else:
        said = N_("You are watching table #{table} ({game}). Each finished deal's review will come by DM.")
    note = "👀 " + _(said, table=table.id, game=game_name(table.game))
    fields: dict = {
        "content": f"{note}\n\n{table_content(table, state)}"[:2000],
        "embed": embed(look_back_now(table, state)),
        "view": spectator_view(table),
        "allowed_mentions": NO_MENTIONS,
    }
    if deferred:
        await interaction.edit_original_response(attachments=[file] if file else [], **fields)
    elif edit:
        await interaction.response.edit_message(attachments=[file] if file else [], **fields)
    else:
        await interaction.response.send_message(ephemeral=True, **({"file": file} if file else {}), **fields)


async def unwatch(interaction: Interaction, table: Table) -> None:
    if not await remove_watcher(manager_of(interaction).store, table.id, interaction.user.id):
        raise Refusal("You are not watching table #{table}.", table=table.id)
    await answer(interaction, _("You no longer watch table #{table}.", table=table.id))


class History(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.Cog.listener()
    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        """Each finished deal goes to the table's spectators by DM: its review, and its hands where the table's
        option shows them."""
        if not outcome.deals_finished:
            return
        manager = getattr(self.bot, "manager", None)
        if manager is None:
            return
        users = [u for u in await watchers_of(manager.store, table.id) if table.seat_of(u) is None]
        for deal in outcome.deals_finished:
            told = story(table, deal)
            for user_id in users:
                with speaking(user_language(user_id, table_language_of(table))):  # each spectator's own language
                    embeds = [embed(review_text(table, told))]
                    shown = hands_text(table, told) if table.row.spectator_hands else None
                    if shown:
                        embeds.append(embed(shown))
                    text = "👀 " + _(
                        "Table #{table} ({game}): deal {deal} is over.",
                        table=table.id,
                        game=game_name(table.game),
                        deal=deal + 1,
                    )
                await self._tell(manager, table, user_id, text, embeds)
        if table.status == FINISHED:  # the last deal's review was their last message: nothing more will come
            for user_id in await watchers_of(manager.store, table.id):
                await remove_watcher(manager.store, table.id, user_id)

    @commands.Cog.listener()
    async def on_table_closed(self, table: Table) -> None:
        """A watched game that ends before its end (its players voted to stop, or it was cancelled) is said to its
        spectators by DM, and they stop watching it: nothing more will come."""
        manager = getattr(self.bot, "manager", None)
        if manager is None or table.status != CANCELLED or table.match is None:
            return
        for user_id in await watchers_of(manager.store, table.id):
            if table.seat_of(user_id) is None:
                with speaking(user_language(user_id, table_language_of(table))):
                    text = ended_early_text(table, by_vote=bool(table.extra.get(STOPPED_BY_VOTE)))
                await self._tell(manager, table, user_id, text, [])
            await remove_watcher(manager.store, table.id, user_id)

    async def _tell(
        self, manager: TableManager, table: Table, user_id: int, text: str, embeds: list[discord.Embed]
    ) -> None:
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(text, embeds=embeds)
        except discord.Forbidden as e:
            # Closed DMs are not tried again (Discord blocks bots that keep making refused requests): they stop
            # watching; the Watch button still shows them the table.
            await remove_watcher(manager.store, table.id, user_id)
            if e.code != DM_CLOSED:
                log.warning("table %d: spectator %d cannot be sent DMs (%s); no longer told", table.id, user_id, e)
        except discord.HTTPException as e:
            log.warning("table %d: could not tell spectator %d (%s): %s", table.id, user_id, text[:60], e)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(History(bot))
