"""What the cogs share: the typed interaction, finding the user's table, and performing an action.

No rule logic here: the engine decides what is legal; this module only carries the request to the table manager
and the answer back to the player.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, TypeAlias

import aiohttp
import discord
from discord.utils import MISSING

from bot.i18n import _
from bot.presentation.choices import card_label, label, past_tense
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.errors import answer, saved_anyway
from bot.presentation.live_hands import hand_image, hand_text
from bot.presentation.messages import png_file
from bot.presentation.overload import defer_after
from bot.process.client import CardTableBot
from bot.storage.store import PLAYING
from bot.tables.service import (
    UNVERSIONED_TYPES,  # a click on an old hand may still do these
    Refusal,
    Table,
    TableManager,
)
from rules.cards import CARD_NAMES, parse_card
from rules.events import FailedLead

# The key of an autocomplete choice's action that holds the table's version when it was offered (cogs/arguments.py).
VERSION_KEY = "v"

# What every cog's interactions carry: typed, so ``interaction.client.manager`` is checked like any attribute.
Interaction: TypeAlias = discord.Interaction[CardTableBot]


def manager_of(interaction: Interaction) -> TableManager:
    manager = interaction.client.manager
    assert manager is not None, "interactions arrive only after setup_hook made the manager"
    return manager


async def find_table(interaction: Interaction, given: Table | None, *, playing: bool = True) -> Table:
    """The table a command means: the one given, else the user's only running table (here first, then anywhere)."""
    if given is not None:
        return given
    manager = manager_of(interaction)
    user = interaction.user.id
    status = PLAYING if playing else None
    mine = manager.tables_of(user, interaction.channel_id, status) or manager.tables_of(user, None, status)
    if not mine:
        raise Refusal("You are not playing at any table right now. Join one from its message, or open one: /table new")
    if len(mine) > 1:
        numbers = ", ".join(f"#{t.id}" for t in mine)
        raise Refusal("You are playing at tables {numbers}: say which with the `table` option.", numbers=numbers)
    return await manager.get(mine[0].id)  # (as the store has it, when another process runs it: placement.py)


def seat_in(table: Table, user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not seated at table #{table}; only its players can act or see a hand.", table=table.id)
    return seat


def legal_for(table: Table, seat: int) -> list[dict]:
    if table.match is None or table.status != PLAYING:
        return []
    return [a for a in table.match.legal_json() if a.get("seat") == seat]


async def in_time(interaction: Interaction, work, *, thinking: bool):
    """Await ``work``; if it takes longer than the overload policy allows, acknowledge the interaction meanwhile (a
    deferred update, or "thinking…") so that Discord keeps it.  Returns (result, deferred)."""
    task = asyncio.ensure_future(work)
    done, _pending = await asyncio.wait({task}, timeout=defer_after(interaction.created_at))
    if not done and not interaction.response.is_done():
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    return await task, not done


@contextlib.asynccontextmanager
async def acknowledged_if_slow(interaction: Interaction, *, thinking: bool) -> AsyncIterator[None]:
    """Run the block (in this task, so that what it dispatches is heard in the usual order); if it takes longer than
    the overload policy allows, acknowledge the interaction meanwhile, as ``in_time`` does."""
    deferring = asyncio.Event()

    async def defer_later() -> None:
        await asyncio.sleep(defer_after(interaction.created_at))
        deferring.set()
        if not interaction.response.is_done():
            await (
                interaction.response.defer(ephemeral=True, thinking=True) if thinking else interaction.response.defer()
            )

    timer = asyncio.create_task(defer_later())
    try:
        yield
    finally:
        if deferring.is_set():  # the acknowledgement is on its way: let it land before the answer
            with contextlib.suppress(discord.HTTPException, TimeoutError, aiohttp.ClientError):
                await timer  # if it failed, the answer says so (or the interaction expired)
        else:
            timer.cancel()


async def show_hand(
    interaction: Interaction, table: Table, *, note: str = "", edit: bool = False, selection: str | None = None
) -> None:
    """The player's live hand, for their eyes only: a new ephemeral message, or (``edit``) the message clicked
    updated in place.  Either becomes the live one that the bot keeps current (bot/presentation/live_hands.py)."""
    if table.match is None:
        raise Refusal("Table #{table} has not started yet.", table=table.id)
    seat = seat_in(table, interaction.user.id)
    live = interaction.client.presenter.live
    with live.answering(table, seat):
        hand = hand_text(table, seat, note=note, selection=selection)
        shown_image = live.image_shown(table, seat, interaction) if edit else None
        if shown_image != hand.image_key:  # an update keeps the picture unless the cards changed
            png, deferred = await in_time(interaction, hand_image(table, seat, hand.image_key), thinking=not edit)
            hand.file = png_file(png, f"hand-{table.id}.png")
        else:
            deferred = False
        fields: dict[str, Any] = {"content": hand.content, "view": hand.view}
        if hand.file is not None or shown_image != hand.image_key:
            fields["attachments"] = [hand.file] if hand.file else []
        message_id = interaction.message.id if edit and interaction.message else None
        if deferred or (edit and interaction.response.is_done()):  # replace "thinking…" (or the deferred message)
            message = await interaction.edit_original_response(**fields)
            message_id = message.id
        elif edit:
            await interaction.response.edit_message(**fields)
        else:
            file = hand.file or MISSING
            view = hand.view or MISSING
            if interaction.response.is_done():
                followup = await interaction.followup.send(
                    hand.content, ephemeral=True, wait=True, view=view, file=file
                )
                message_id = followup.id
            else:
                sent = await interaction.response.send_message(hand.content, ephemeral=True, view=view, file=file)
                message_id = sent.message_id
        live.shown(table, seat, interaction, hand, selection or "", note, edit=edit, message_id=message_id)
    interaction.client.presenter.refresh_hands(table)  # anything that changed while the answer was made


async def show_stale_hand(interaction: Interaction, table: Table, version: int) -> None:
    """A tap on a hand older than the game: the hand as it is now, one tap away from the move — unless this very tap
    moved the game, stored by a process that died before answering it and handled again here
    (bot/presentation/forwarding.py): then the player is told the move was made."""
    made = await manager_of(interaction).made_by(str(interaction.id))
    if made is None:
        await show_hand(interaction, table, note=stale_note(table, version), edit=True)
        return
    done = "✅ " + _("You {did}.", did=past_tense(made))
    await _answer_made(interaction, table, seat_in(table, interaction.user.id), done, edit=True)


def stale_note(table: Table, version: int) -> str:
    moves = table.version - version
    if moves == 1:
        return "🔄 " + _("Your hand was out of date: a move was made since it was shown (here it is now).")
    if moves > 0:
        return "🔄 " + _("Your hand was out of date: {n} moves were made since it was shown (here it is now).", n=moves)
    return "🔄 " + _("Your hand was out of date: the game moved on since it was shown (here it is now).")


def throw_warning(table: Table, seat: int, action: dict) -> str | None:
    """A lead of several cards that an unseen card could beat (the engine says which) is a gamble: say so first."""
    match = table.match
    if match is None or action.get("type") != "play" or len(action.get("cards", [])) < 2:
        return None
    try:
        beaten = match.lead_risk(seat, [parse_card(c) for c in action["cards"]])
    except Exception:  # an impossible lead: let the engine refuse it with its own message
        return None
    if not beaten:
        return None
    lines = [_("{card} could be beaten by {by}", card=card_label(card), by=", ".join(map(card_label, by)))
             for card, by in beaten.items()]  # fmt: skip
    return "⚠️ " + _(
        "This lead may fail: {risks}. If another hand holds a card of that suit that beats one of yours, the lead "
        "fails and the deal is scored as though your side lost every trick. Lead it anyway?",
        risks="; ".join(lines),
    )


async def perform(
    interaction: Interaction,
    table: Table,
    action: dict[str, Any],
    *,
    version: int | None = None,
    edit: bool = False,
    confirmed: bool = False,
) -> None:
    """Apply the user's action and answer them; ``edit`` replaces the message whose component was used.  An action
    picked from a command's autocomplete carries the version it was offered at (``VERSION_KEY``)."""
    if VERSION_KEY in action:
        action = dict(action)
        offered_at = action.pop(VERSION_KEY)
        version = offered_at if version is None and isinstance(offered_at, int) else version
    manager = manager_of(interaction)
    if version is not None:  # the player saw a newer game than ours: another process moved it (PostgreSQL)
        table = await manager.refresh(table.id, version) or table
    seat = seat_in(table, interaction.user.id)
    stale = version is not None and version != table.version and action.get("type") not in UNVERSIONED_TYPES
    if stale and edit and table.match is not None and table.status == PLAYING:
        # Never apply a click on an out-of-date hand blindly: show the hand as it is now instead, one tap away.
        assert version is not None  # stale says so
        await show_stale_hand(interaction, table, version)
        return
    if not confirmed:
        warning = throw_warning(table, seat, action)
        if warning:
            table.extra.setdefault("throws", {})[interaction.user.id] = action
            view = view_of(
                TableButton(
                    ComponentId(table.id, "throw", table.version), _("Lead it anyway"), discord.ButtonStyle.danger
                ),
                TableButton(ComponentId(table.id, "hand"), _("Choose again")),
            )
            # (A tap acknowledged by the process that received it: bot/presentation/forwarding.py.)
            if edit and interaction.response.is_done():
                await interaction.edit_original_response(content=warning, attachments=[], view=view)
            elif edit:
                await interaction.response.edit_message(content=warning, attachments=[], view=view)
            else:
                await answer(interaction, warning, view=view)
            return
    with interaction.client.presenter.live.answering(table, seat):  # this answer shows the hand: no edit meanwhile
        # A slow save (a busy store, a table's lock held): acknowledge within Discord's 3 s, answer after.
        async with acknowledged_if_slow(interaction, thinking=not edit):
            outcome = await manager.act(
                table.id, interaction.user.id, action, expected_version=version, interaction_id=str(interaction.id)
            )
    failed = next((e for e in outcome.events if isinstance(e, FailedLead)), None)
    done = (
        failed_lead_text(failed, table.names())
        if failed
        else "✅ " + _("You {did}.", did=past_tense(outcome.action.to_json()))
    )
    try:  # the move is made: whatever happens to the answer, the player is never told it failed
        await _answer_made(interaction, table, seat, done, edit=edit)
    except Exception as error:
        # The live hand was left to this answer (refreshes skip it meanwhile): refreshed now, it shows the move.
        interaction.client.presenter.refresh_hands(table)
        await saved_anyway(interaction, done, error)


async def _answer_made(interaction: Interaction, table: Table, seat: int, done: str, *, edit: bool) -> None:
    match = table.match
    if edit and match is not None and table.status == PLAYING:
        # The message you chose from becomes your hand as it is now (with your next choices if it is your turn
        # again, e.g. you won the trick): one edit, nothing stale left to click.
        await show_hand(interaction, table, note=done, edit=True)
    elif match is not None and table.status == PLAYING and match.to_move == seat and legal_for(table, seat):
        await show_hand(interaction, table, note=done)
    elif edit and interaction.response.is_done():
        await interaction.edit_original_response(content=done, attachments=[], view=None)
    elif edit:
        await interaction.response.edit_message(content=done, attachments=[], view=None)
    else:
        await answer(interaction, done)


def failed_lead_text(failed: FailedLead, names: list[str]) -> str:
    """The lead failed: say so, not "you played" all of it."""
    if failed.lowest_card_only:
        cost = _("Only your lowest card is played.")
    else:
        cost = _("The deal is scored as if your side lost every trick.")
    led = " ".join(map(card_label, failed.cards))
    beater, beaten = card_label(failed.card), card_label(failed.beaten_card)
    return "❌ " + _("Your lead of {led} failed: {who} holds {beater}, which beats {beaten}. {cost}", led=led,
                     who=names[failed.beaten_by_seat], beater=beater, beaten=beaten, cost=cost)  # fmt: skip


def action_from_card_choice(table: Table, kind: str, values: list[str]) -> dict[str, Any]:
    """A multi-select's values (``card#index``) as an action of ``kind`` (play or discard)."""
    cards = [v.split("#", 1)[0] for v in values]
    return {"type": kind, "cards": cards}


def describe(action: dict) -> str:
    return label(action)


def card_names(table: Table, seat: int) -> list[str]:
    assert table.match is not None
    return [CARD_NAMES[c] for c in table.match.hand(seat)]
