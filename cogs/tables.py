"""``/table`` commands, ``/hand``, and every button and select menu of the lobby, table and hand messages."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.presentation.choices import decode
from bot.presentation.clock_view import CLOCK_VERBS
from bot.presentation.components import ComponentId
from bot.presentation.errors import answer, answering_errors
from bot.presentation.history import HISTORY_VERBS
from bot.presentation.language import language_choices, table_language
from bot.presentation.manners import MANNER_VERBS
from bot.presentation.messages import (
    game_name,
    lobby_content,
    lobby_view,
    table_content,
    table_file,
    table_state,
    table_view,
)
from bot.presentation.panel import PANEL_VERB, read_click
from bot.presentation.presenter import table_line
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.tables.guild_settings import check_new_table
from bot.tables.presets import OptionsError, game_id, presets_for, resolve
from bot.tables.service import Refusal, Table
from cogs import manners
from cogs.acting import (
    Interaction,
    action_from_card_choice,
    find_table,
    in_time,
    manager_of,
    perform,
    seat_in,
    show_hand,
    show_stale_hand,
)
from cogs.admin import clock_choices, computers_allowed
from cogs.arguments import TABLE_HELP, ClockText, GameText, NameText, OptionsText, TableOption
from cogs.clocks import away_table, back_to_seat, clock_click, clocks_of, is_admin, nudge_player
from cogs.help import show_rules
from cogs.history import history_click, show_review, watch
from rules import registry

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class Tables(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    table = app_commands.Group(name="table", description="Open, join, watch and look up card tables; your seat at them")

    # --- /table new ---------------------------------------------------------------------------------------

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        game=registry.choices_text(),
        preset="a named rule set (see the list)",
        options="rule options as key=value, e.g. kitty=true target=300",
        clock="time a turn: live (60 s), casual (10 min), async (24 h) or e.g. 5m (default: the server's)",
        hints="allow /hint, the expert's suggestion for the player to move (the game is then unrated)",
        review="a learning table: every trick and the running points open during the deal (the game is then unrated)",
        spectator_hands="show each deal's hands to the table's spectators once the deal is over",
        language="the language of the table's messages (default: the server's)",
    )
    @app_commands.choices(language=language_choices())
    async def new(
        self,
        interaction: Interaction,
        game: GameText,
        preset: NameText | None = None,
        options: OptionsText | None = None,
        clock: ClockText | None = None,
        hints: bool = False,
        review: bool = False,
        spectator_hands: bool = False,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise Refusal("Open tables in a server channel, not in a direct message.")
        gid = game_id(game)
        # The server's settings (bot/tables/guild_settings.py): channel allowed and not full, clock, defaults.
        server, clock_choice = await check_new_table(
            manager_of(interaction).store, interaction.guild_id, interaction.channel_id, gid, clock
        )
        preset, chosen = resolve(gid, server.preset_for(gid, preset), options)
        channel = interaction.channel
        table = await manager_of(interaction).create(
            game=gid,
            options=chosen,
            preset=preset,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            channel_id=interaction.channel_id,
            channel_name=getattr(channel, "name", "") or "",
            guild_id=interaction.guild_id,
            guild_name=interaction.guild.name if interaction.guild else "",
            hints=bool(hints),
            open_review=bool(review),
            spectator_hands=bool(spectator_hands),
            language=table_language(language.value if language else None, server.language, interaction.guild_locale),
        )
        await clocks_of(interaction).setup_table(table, clock_choice)
        view = lobby_view(table)
        assert view is not None  # a new table is in its lobby
        response = await interaction.response.send_message(lobby_content(table), view=view)
        if response.message_id is not None:
            table.row.message_id = response.message_id
            await manager_of(interaction).store.set_message(table.id, response.message_id)
        await self._check_dms(interaction, table)

    @new.autocomplete("game")
    async def _game_autocomplete(self, interaction: Interaction, current: str):
        return [
            app_commands.Choice(name=f"{game.name()} ({game.short_name})", value=game.short_name)
            for game in registry.games()
            if current.lower() in " ".join((game.name().lower(), *game.aliases))
        ][:25]

    @new.autocomplete("clock")
    async def _clock_autocomplete(self, interaction: Interaction, current: str):
        return clock_choices(current)

    @new.autocomplete("preset")
    async def _preset_autocomplete(self, interaction: Interaction, current: str):
        try:
            gid = game_id(getattr(interaction.namespace, "game", "") or "")
        except OptionsError:
            return []
        return [
            app_commands.Choice(
                name=f"{name}: {', '.join(f'{k}={v}' for k, v in opts.items()) or 'the standard game'}"[:100],
                value=name,
            )
            for name, opts in presets_for(gid).items()
            if current.lower() in name
        ][:25]

    # --- /table record, /table cancel, /table list, /table back, /table nudge, /hand -----------------------

    @table.command(name="record", description="The game record (JSON) of a finished table")
    @app_commands.describe(table="the table number (default: your table here)")
    async def record(self, interaction: Interaction, table: TableOption | None = None) -> None:
        found = await self._table_for_record(interaction, table)
        if found.record is None:
            raise Refusal("Table #{table} never started, so it has no record.", table=found.id)
        if found.status == PLAYING:
            raise Refusal(
                "Table #{table} is still being played, and its record shows every hand. "
                "It becomes available when the game ends.",
                table=found.id,
            )
        withheld = await manager_of(interaction).record_withheld(found, interaction.user.id)
        if withheld:
            raise Refusal(withheld)
        data = found.record.dumps(indent=1).encode()
        await interaction.response.send_message(
            _("The record of table #{table} ({game}).", table=found.id, game=game_name(found.game)),
            file=discord.File(io.BytesIO(data), filename=f"table-{found.id}.json"),
        )

    async def _table_for_record(self, interaction: Interaction, given: Table | None) -> Table:
        if given is not None:
            return given
        rows = await manager_of(interaction).store.tables_in_channel(interaction.channel_id or 0)
        finished = [r for r in rows if r.status in (FINISHED, CANCELLED) and r.first_dealer is not None]
        if not finished:
            raise Refusal("No finished table in this channel; give its number with the `table` option.")
        return await manager_of(interaction).get(finished[0].id)

    @table.command(name="cancel", description="Cancel a table you host")
    @app_commands.describe(table=TABLE_HELP)
    async def cancel_command(self, interaction: Interaction, table: TableOption | None = None) -> None:
        found = await find_table(interaction, table, playing=False)
        running = await manager_of(interaction).cancel(found.id, interaction.user.id, admin=is_admin(interaction))
        await answer(interaction, f"Table #{found.id} is cancelled.")
        if running:
            await tell_players_it_was_ended(interaction, found)
        await self._refresh_lobby_message(found)

    @table.command(name="stop", description="Propose to stop a running game (its players vote; it is then unrated)")
    @app_commands.describe(table=TABLE_HELP)
    async def stop_command(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await manners.stop(interaction, await find_table(interaction, table))

    @table.command(name="claim", description="Claim every remaining trick of the deal for your side")
    @app_commands.describe(table=TABLE_HELP)
    async def claim_command(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await manners.claim(interaction, await find_table(interaction, table))

    @table.command(name="undo", description="Ask to take back the card you just played (unrated tables)")
    @app_commands.describe(table=TABLE_HELP)
    async def undo_command(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await manners.undo(interaction, await find_table(interaction, table))

    @table.command(name="list", description="Your tables that are being played, or this channel's open tables")
    @app_commands.describe(here="list every open table of this channel (to watch one), not only yours")
    async def list_command(self, interaction: Interaction, here: bool = False) -> None:
        if here:
            await list_channel(interaction)
            return
        mine = manager_of(interaction).tables_of(interaction.user.id, None, None)
        if interaction.guild_id is not None:  # across this server (all servers from a DM)
            mine = [t for t in mine if t.row.guild_id == interaction.guild_id]
        if not mine:
            raise Refusal("You are not seated at any open table.")
        now = clocks_of(interaction).clock.now()
        lines = [table_line(t, interaction.user.id, now) for t in sorted(mine, key=lambda t: t.id)]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @table.command(name="review", description="A finished deal trick by trick: who led, each card, who won, the points")
    @app_commands.describe(deal="the deal's number (default: the last finished one)", table=TABLE_HELP)
    async def review(
        self,
        interaction: Interaction,
        deal: app_commands.Range[int, 1, 999] | None = None,
        table: TableOption | None = None,
    ) -> None:
        found = await self._table_here(interaction, table)
        await show_review(interaction, found, None if deal is None else deal - 1)

    @table.command(name="watch", description="Watch a table: the live table, its history, each finished deal by DM")
    @app_commands.describe(table="the table number (default: the one open table in this channel)")
    async def watch_command(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await watch(interaction, await self._table_here(interaction, table, playing=True))

    async def _table_here(self, interaction: Interaction, given: Table | None, *, playing: bool = False) -> Table:
        """The table given, else one's own table here, else this channel's only running table (the latest ended one
        when none runs, unless ``playing``)."""
        if given is not None:
            return given
        manager = manager_of(interaction)
        mine = manager.tables_of(interaction.user.id, interaction.channel_id, PLAYING)
        if len(mine) == 1 and not playing:
            return mine[0]
        running = [
            t for t in manager.tables.values() if t.row.channel_id == interaction.channel_id and t.status == PLAYING
        ]
        if len(running) == 1:
            return running[0]
        if len(running) > 1:
            numbers = ", ".join(f"#{t.id}" for t in sorted(running, key=lambda t: t.id))
            raise Refusal("Tables {numbers} are being played here: say which with the `table` option.", numbers=numbers)
        if playing:
            raise Refusal("No table is being played in this channel; `/table list here:True` shows the open ones.")
        return await self._table_for_record(interaction, None)

    @table.command(name="back", description="Take your seat back from the computer that played for you")
    @app_commands.describe(table=TABLE_HELP)
    async def back(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await back_to_seat(interaction, await away_table(interaction, table))

    @table.command(name="nudge", description="Remind the player whose turn it is (once per turn)")
    @app_commands.describe(table=TABLE_HELP)
    async def nudge(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await nudge_player(interaction, await find_table(interaction, table))

    @app_commands.command(name="hand", description="See your hand and your choices (only you see it)")
    @app_commands.describe(table=TABLE_HELP)
    async def hand(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await show_hand(interaction, await find_table(interaction, table))

    # --- components ---------------------------------------------------------------------------------------

    @commands.Cog.listener("on_table_component")  # dispatched by the buttons and menus (bot/presentation/components.py)
    async def on_component(self, interaction: Interaction, cid: ComponentId, values: list[str]) -> None:
        async with answering_errors(interaction):
            manager = manager_of(interaction)
            user = interaction.user
            verb = cid.verb
            if verb in CLOCK_VERBS:  # idle players: I'm back, nudge, substitutes (cogs/clocks.py)
                await clock_click(interaction, cid, values)
                return
            if verb in MANNER_VERBS:  # answers to a vote, a claim or an undo; a rematch (cogs/manners.py)
                await manners.click(interaction, cid)
                return
            if verb in ("join", "leave", "cpu", "cpu_level", "uncpu", "seat", "start", "cancel"):
                await self._lobby_click(interaction, cid, values)
                return
            if verb in HISTORY_VERBS:  # look back, review, watch (cogs/history.py)
                await history_click(interaction, cid, values)
                return
            table = await manager.get(cid.table)
            if verb == "rules":
                await show_rules(interaction, table.game, table, edit=False)
            elif verb == "hand":
                # From a hand (the throw warning's "Choose again"): that message shows the hand again; from the
                # table message: a new ephemeral hand, which becomes the live one.
                message = interaction.message
                in_hand = message is not None and (message.flags.ephemeral or interaction.guild_id is None)
                await show_hand(interaction, table, edit=in_hand)
            elif verb == PANEL_VERB:
                action, selection = read_click(table, seat_in(table, user.id), cid.arg or "")
                if action is None:  # a card toggled: the same hand with the new selection
                    if cid.version != table.version:
                        await show_stale_hand(interaction, table, cid.version or 0)
                    else:
                        await show_hand(interaction, table, edit=True, selection=selection)
                else:
                    await perform(interaction, table, action, version=cid.version, edit=True)
            elif verb == "act":
                action = decode(cid.arg or "")
                if action is None:
                    raise Refusal("That button is not understood any more; press **My hand** again.")
                await perform(interaction, table, action, version=cid.version, edit=True)
            elif verb == "pick":
                action = decode(values[0]) if values else None
                if action is None:
                    raise Refusal("That choice is not understood any more; press **My hand** again.")
                await perform(interaction, table, action, version=cid.version, edit=True)
            elif verb == "multi":
                kind = cid.arg if cid.arg in ("play", "discard") else "play"
                await perform(
                    interaction, table, action_from_card_choice(table, kind, values), version=cid.version, edit=True
                )
            elif verb == "throw":
                action = table.extra.get("throws", {}).pop(user.id, None)
                if action is None:
                    raise Refusal("That lead is no longer pending; choose your cards again with **My hand**.")
                await perform(interaction, table, action, version=cid.version, edit=True, confirmed=True)
            else:
                raise Refusal("That button is not understood any more.")

    async def _lobby_click(self, interaction: Interaction, cid: ComponentId, values: list[str]) -> None:
        manager = manager_of(interaction)
        user = interaction.user
        verb = cid.verb
        if verb == "join":
            await manager.join(cid.table, user.id, display_name(user))
        elif verb == "seat":
            await manager.join(cid.table, user.id, display_name(user), seat=chosen_seat(values))
        elif verb == "leave":
            await manager.leave(cid.table, user.id)
        elif verb in ("cpu", "cpu_level"):
            await computers_allowed(interaction)
            await manager.add_computer(cid.table, user.id, values[0] if values else None)
        elif verb == "uncpu":
            await manager.remove_computer(cid.table, user.id)
        elif verb == "cancel":
            if await manager.cancel(cid.table, user.id, admin=is_admin(interaction)):
                await tell_players_it_was_ended(interaction, await manager.get(cid.table))
        elif verb == "start":
            table = await manager.start(cid.table, user.id)
            await self._show_started(interaction, table)
            return
        table = await manager.get(cid.table)
        await interaction.response.edit_message(content=lobby_content(table), view=lobby_view(table))
        if verb in ("join", "seat"):
            await self._check_dms(interaction, table)

    async def _show_started(self, interaction: Interaction, table: Table) -> None:
        """The lobby message becomes the table message: one message per table, edited in place."""
        assert table.match is not None
        version, state = table.version, table_state(table)
        file, deferred = await in_time(interaction, table_file(table, state), thinking=False)
        content, attachments, view = table_content(table, state), [file] if file else [], table_view(table)
        if deferred:
            await interaction.edit_original_response(content=content, attachments=attachments, view=view)
        else:
            await interaction.response.edit_message(content=content, attachments=attachments, view=view)
        table.row.message_id = interaction.message.id if interaction.message else table.row.message_id
        await manager_of(interaction).store.set_message(table.id, table.row.message_id)
        if table.version != version:  # a computer moved while this was sent: its edit may have landed before it
            interaction.client.presenter.refresh(table)

    async def _check_dms(self, interaction: Interaction, table: Table) -> None:
        """Tell a player once, when they sit down, if their DMs are closed (hands then come by the button)."""
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.seats[seat].dm_closed or table.status != LOBBY:
            return
        if table.extra.setdefault("dm_checked", set()).__contains__(interaction.user.id):
            return
        table.extra["dm_checked"].add(interaction.user.id)
        try:
            channel = await self.bot.create_dm(interaction.user)
            await channel.send(
                _("You sat down at table #{table} ({game}) in **{server}** › #{channel}. Your hands will come here.",
                  table=table.id, game=game_name(table.game), server=table.row.guild_name,
                  channel=table.row.channel_name)
            )  # fmt: skip
        except discord.Forbidden as e:
            if e.code != DM_CLOSED:
                raise
            await manager_of(interaction).mark_dm_closed(table, seat)
            await interaction.followup.send(
                _(
                    "I cannot send you direct messages, so your hand will not come by DM: press **My hand** on the "
                    "table message whenever you want to see it (only you will)."
                ),
                ephemeral=True,
            )

    async def _refresh_lobby_message(self, table: Table) -> None:
        if table.row.message_id is None or table.match is not None:
            return
        channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
        await channel.get_partial_message(table.row.message_id).edit(
            content=lobby_content(table), view=lobby_view(table)
        )


async def list_channel(interaction: Interaction) -> None:
    """The channel's open tables, for anyone: what each plays, how far it is, and how to watch it."""
    manager = manager_of(interaction)
    here = sorted(
        (
            t
            for t in manager.tables.values()
            if t.row.channel_id == interaction.channel_id and t.status in (LOBBY, PLAYING)
        ),
        key=lambda t: t.id,
    )
    if not here:
        raise Refusal("No table is open in this channel. Open one: /table new")
    now = clocks_of(interaction).clock.now()
    lines = [_("Open tables in this channel ({count}):", count=len(here))]
    for t in here:
        watch_hint = f" · `/table watch table:{t.id}`" if t.status == PLAYING else ""
        lines.append(table_line(t, interaction.user.id, now) + watch_hint)
    await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)


def chosen_seat(values: list[str]) -> int:
    """The seat picked in the lobby's menu; a value the menu never offered is refused, not read as a number."""
    if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 3:
        raise Refusal("That seat is not one of this table's: pick a free seat from the menu.")
    return int(values[0])


async def tell_players_it_was_ended(interaction: Interaction, table: Table) -> None:
    """An admin ended a running game: its other players hear it in the table's channel, pinged, behind what the
    table has already queued there."""
    others = [row.user_id for row in table.seats.values() if row.user_id and row.user_id != interaction.user.id]
    mentions = " ".join(f"<@{user_id}>" for user_id in dict.fromkeys(others))
    await interaction.client.presenter.post(
        table,
        f"{mentions} table #{table.id} ({game_name(table.game)}) was ended by a server admin, "
        f"<@{interaction.user.id}>. The game is kept in your history, unrated.".strip(),
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot))
