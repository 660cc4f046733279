"""``/table stop``, ``/table claim``, ``/table undo``, their Agree/Refuse buttons, and the Rematch button: what
players ask of each other at a table (decided in bot/tables/manners.py, worded in bot/presentation/manners.py)."""

from __future__ import annotations

import discord

from bot.i18n import _, speaking
from bot.presentation.components import ComponentId
from bot.presentation.errors import answer
from bot.presentation.language import table_language_of
from bot.presentation.manners import AGREE, REMATCH, outcome_text, request_text, request_view
from bot.presentation.messages import lobby_content, lobby_view
from bot.presentation.table_menu import MENU_CLAIM, MENU_STOP, MENU_UNDO, MENU_VERBS, MORE, menu
from bot.storage.requests import clock_spec_of
from bot.storage.store import PLAYING
from bot.tables import manners
from bot.tables.guild_settings import check_new_table
from bot.tables.service import Refusal, Table
from cogs.acting import Interaction, manager_of
from cogs.clocks import clocks_of


def _mentions(request: manners.Request) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(u) for u in request.waiting_for()])


async def _say(interaction: Interaction, table: Table, result: manners.Answer) -> None:
    """A new question goes to the table's channel, pinging who must answer; what a request came to is said there
    too.  The asker is answered for their eyes only (from a DM, say), with a link."""
    channel = interaction.client.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
    request = result.request
    if result.outcome is None:
        sent = await channel.send(
            request_text(table, request), view=request_view(table, request), allowed_mentions=_mentions(request)
        )
        await answer(interaction, _("Asked at the table: {link}", link=sent.jump_url))
    else:
        sent = await channel.send(outcome_text(table, result))
        await answer(interaction, f"{outcome_text(table, result)} ({sent.jump_url})")


async def stop(interaction: Interaction, table: Table) -> None:
    await _say(interaction, table, await manners.propose_stop(manager_of(interaction), table.id, interaction.user.id))


async def claim(interaction: Interaction, table: Table) -> None:
    # The engine checks the claim (a second or two at worst): acknowledged first, for the claimer's eyes only, so
    # that a refusal tells nobody else anything.
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _say(interaction, table, await manners.claim(manager_of(interaction), table.id, interaction.user.id))


async def undo(interaction: Interaction, table: Table) -> None:
    await _say(interaction, table, await manners.request_undo(manager_of(interaction), table.id, interaction.user.id))


async def click(interaction: Interaction, cid: ComponentId) -> None:
    """Agree, Refuse (on a question's message) or Rematch (on a finished table's message)."""
    manager = manager_of(interaction)
    if cid.verb == REMATCH:
        await rematch(interaction, cid.table)
        return
    if cid.verb in MENU_VERBS:
        await menu_click(interaction, await manager.get(cid.table), cid.verb)
        return
    try:
        row_id = int(cid.arg or "")
    except ValueError:
        raise Refusal("That button is not understood any more.") from None
    table = await manager.get(cid.table)
    result = await manners.answer(manager, cid.table, interaction.user.id, row_id, cid.verb == AGREE)
    if result.outcome is None:
        request = result.request
        await interaction.response.edit_message(content=request_text(table, request), view=request_view(table, request))
    else:
        await interaction.response.edit_message(content=outcome_text(table, result), view=None)


async def menu_click(interaction: Interaction, table: Table, verb: str) -> None:
    """The More button opens the table's menu for whoever tapped it; its buttons ask as the slash commands do."""
    if table.status != PLAYING:
        raise Refusal(
            "Table #{table} is not being played any more: **Look back** or `/table review` shows it.", table=table.id
        )
    if verb == MORE:
        text, view = menu(table, interaction.user.id)
        await answer(interaction, text, view=view)
    elif verb == MENU_CLAIM:
        await claim(interaction, table)
    elif verb == MENU_UNDO:
        await undo(interaction, table)
    elif verb == MENU_STOP:
        await stop(interaction, table)


async def rematch(interaction: Interaction, old_id: int) -> None:
    manager = manager_of(interaction)
    user = interaction.user
    name = getattr(user, "display_name", None) or user.name
    clock = None

    async def server_allows(old: Table) -> None:
        nonlocal clock
        spec = await clock_spec_of(manager.store, old.id)
        clock = (await check_new_table(manager.store, old.row.guild_id, old.row.channel_id, old.game, spec))[1]

    result = await manners.rematch(manager, old_id, user.id, name, server_allows)
    table = result.table
    if result.created:
        assert clock is not None
        await clocks_of(interaction).setup_table(table, clock)
        others = await _others_of(interaction, old_id, table)
        with speaking(table_language_of(table)):  # the new table's lobby, for everyone
            text = "🔁 " + _("**Rematch of table #{table}**: {name} sat down again.", table=old_id, name=name)
            if others:
                text += " " + _(
                    "{players}: tap **Rematch** on the old table, or **Join** here, to play again.",
                    players=" ".join(others),
                )
        await interaction.response.send_message(
            f"{text}\n\n{lobby_content(table)}", view=lobby_view(table) or discord.utils.MISSING
        )
        sent = await interaction.original_response()
        table.row.message_id = sent.id
        await manager.store.set_message(table.id, sent.id)
    if result.ready:
        await manager.start(table.id, table.row.host_id)
        interaction.client.presenter.refresh(table)  # the lobby message becomes the table message
        if not result.created:
            await answer(
                interaction,
                "🔁 " + _("The rematch, table #{table}, has started: your hand is on its way.", table=table.id),
            )
        return
    if not result.created:
        await interaction.client.presenter.show_lobby(table)
        await answer(interaction, "🔁 " + _("You are seated for the rematch, table #{table}.", table=table.id))


async def _others_of(interaction: Interaction, old_id: int, new: Table) -> list[str]:
    old = await manager_of(interaction).get(old_id)
    seated = {r.user_id for r in new.seats.values()}
    return [f"<@{r.user_id}>" for r in old.seats.values() if r.user_id is not None and r.user_id not in seated]
