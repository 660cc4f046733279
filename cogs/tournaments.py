"""``/tournament``: create one, register with the announcement's buttons, start it, read the standings and the audit
log, and the organiser's tools.  The running of it is ``bot/tournaments/service.py``; this cog parses, answers,
and says in Discord what the service tells it (``TournamentOutput``)."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.presentation.errors import answering_errors
from bot.presentation.standings_image import standings_png
from bot.storage import tournaments as ts
from bot.tables.guild_settings import parse_clock
from bot.tables.service import Outcome, Refusal, Table
from bot.tournaments.progress import current_standings
from bot.tournaments.service import FORMATS, TournamentService, ranking_method
from cogs.acting import Interaction
from rules import registry

PAGE = 20


def _is_manager(interaction: Interaction) -> bool:
    return bool(interaction.guild_id is not None and interaction.permissions.manage_guild)


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tn:(?P<tid>\d+):(?P<verb>register|withdraw|checkin)"
):
    def __init__(self, tid: int, verb: str):
        label, style = {
            "register": ("Register", discord.ButtonStyle.success),
            "checkin": ("Check in", discord.ButtonStyle.primary),
        }.get(verb, ("Withdraw", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:{tid}:{verb}"))
        self.tid, self.verb = tid, verb

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match, /):
        return cls(int(match["tid"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, commands.Bot)
        cog = bot.get_cog("Tournaments")
        assert isinstance(cog, Tournaments)
        user = interaction.user
        async with answering_errors(interaction):
            if self.verb == "register":
                status = await cog.service.register(self.tid, user.id, user.display_name)
                full = status != ts.REGISTERED
                text = "The field is full: you are on the waiting list." if full else "You are registered."
            elif self.verb == "checkin":
                await cog.service.check_in(self.tid, user.id)
                text = "You are checked in: your first table opens when the organiser starts."
            else:
                await cog.service.withdraw(self.tid, user.id)
                text = "You have withdrawn."
            await interaction.response.send_message(text, ephemeral=True)


def _entry_view(tid: int, status: str = ts.REGISTRATION) -> discord.ui.View | None:
    if status not in (ts.REGISTRATION, ts.CHECK_IN):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(EntryButton(tid, "register" if status == ts.REGISTRATION else "checkin"))
    view.add_item(EntryButton(tid, "withdraw"))
    return view


class Tournaments(commands.Cog):
    service: TournamentService

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        manager = getattr(self.bot, "manager", None)
        if manager is None:  # a bot that only reads the command tree (the catalogues' tools, bot/i18n/tools.py)
            return
        self.service = TournamentService(manager.store, manager, self, manager.rng)
        self.bot.add_dynamic_items(EntryButton)
        await self.service.resume_all()

    # --- what the service says (TournamentOutput) ----------------------------------------------------------

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def open_table_channel(self, t: ts.TournamentRow, round_no: int, match_no: int, users: list[int]) -> int:
        """A private thread of the tournament's channel for one table, its four players added: their game is
        played there, out of everyone else's way."""
        channel = await self._channel(t.channel_id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(
            name=f"{t.name} · round {round_no + 1} · table {match_no + 1}"[:100],
            type=discord.ChannelType.private_thread,
            invitable=False,
        )
        for user_id in users:
            await thread.add_user(discord.Object(user_id))
        return thread.id

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        await self.bot.clocks.setup_table(table, parse_clock(t.settings.get("clock", "live")))  # type: ignore[attr-defined]

    async def round_started(self, t: ts.TournamentRow, round_no: int, lines: list[str], commitment: str) -> None:
        text = f"**{t.name}: round {round_no + 1}**\n" + "\n".join(lines)
        text += f"\nThe round's seed is committed: `sha256 {commitment}` (revealed when the round ends)."
        await (await self._channel(t.channel_id)).send(text)

    async def say(self, t: ts.TournamentRow, text: str) -> None:
        await (await self._channel(t.channel_id)).send(f"**{t.name}**: {text}")

    async def changed(self, t: ts.TournamentRow) -> None:
        if t.message_id is None:
            return
        channel = await self._channel(t.channel_id)
        assert isinstance(channel, discord.TextChannel | discord.Thread)
        message = channel.get_partial_message(t.message_id)
        files = []
        if t.played:  # the standings as an image too, once there are any
            names = {e.id: e.name for e in t.entrants}
            method = ranking_method(t)
            subtitle = f"{registry.game_type(t.game).name()} · {method.replace('_', ' ')}"
            png = await standings_png(t.name, subtitle, current_standings(t, method), names, method)
            files = [discord.File(io.BytesIO(png), filename="standings.png")] if png else []
        await message.edit(content=self.announcement(t), view=_entry_view(t.id, t.status), attachments=files)

    def announcement(self, t: ts.TournamentRow) -> str:
        game = registry.game_type(t.game).name()
        registered = [e.name + (" ✅" if e.status == ts.CHECKED_IN else "") for e in t.entrants
                      if e.status in (ts.REGISTERED, ts.CHECKED_IN)]  # fmt: skip
        waiting = [e.name for e in t.entrants if e.status == ts.WAITLIST]
        cap = t.settings.get("cap") or 0
        deals = t.settings.get("deals") or 0
        lines = [
            f"🏆 **{t.name}** (#{t.id}): {game}, {t.format}{' duplicate' if t.settings.get('duplicate') else ''}, "
            f"{t.rounds} rounds, " + (f"{deals} deals a round" if deals else "each game to its target"),
            f"Status: {t.status}. Players ({len(registered)}{f'/{cap}' if cap else ''}): "
            + (", ".join(registered) or "none yet"),
        ]
        if waiting:
            lines.append("Waiting list: " + ", ".join(waiting))
        if t.played:
            lines.append(f"Round {t.played[-1].round_no + 1} of {t.rounds}.")
            names = {e.id: e.name for e in t.entrants}
            top = current_standings(t, ranking_method(t))[:10]
            lines.append(f"Standings ({ranking_method(t).replace('_', ' ')}): " + ", ".join(
                f"{ln.place}. {names.get(ln.entrant, ln.entrant)} {ln.score:g}" for ln in top))  # fmt: skip
        return "\n".join(lines)

    # --- table events --------------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_table_game_started(self, table: Table) -> None:
        # A tournament's table has no lobby message to turn into the table message: the presenter posts one.
        if table.id in self.service.by_table and table.row.message_id is None:
            await self.bot.presenter.resumed(table)  # type: ignore[attr-defined]

    @commands.Cog.listener()
    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        if outcome.deals_finished:
            await self.service.table_acted(table, outcome.deals_finished)

    @commands.Cog.listener()
    async def on_table_closed(self, table: Table) -> None:
        await self.service.table_closed(table)

    # --- commands ------------------------------------------------------------------------------------------

    tournament = app_commands.Group(name="tournament", description="Tournaments: Swiss and mêlée", guild_only=True)

    @tournament.command(name="create", description="Announce a tournament that players register for")
    @app_commands.describe(
        name="what the tournament is called",
        game=f"the game ({registry.choices_text()})",
        format=f"the format: {', '.join(FORMATS)}",
        rounds="how many rounds",
        deals="deals per round (0: each table plays to the game's target)",
        cap="the most players (0: no limit); later ones wait on a list",
        preset="the game's rule preset",
        duplicate="every table of a round plays the same deals, scored by matchpoints",
        clock="each table's turn clock: live (60 s), casual (10 min), async (24 h) or e.g. 5m",
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        game: str,
        format: str,
        rounds: int,
        deals: int = 0,
        cap: int = 0,
        preset: str | None = None,
        duplicate: bool = False,
        clock: str = "live",
    ) -> None:
        found = registry.find(game)
        if found is None:
            raise Refusal(f"There is no game called {game!r}: {registry.choices_text()}.")
        options: dict = {}
        if preset is not None:
            if preset not in found.presets:
                raise Refusal(f"{found.name()} has no preset {preset!r}: {', '.join(found.presets)}.")
            options = dict(found.presets[preset])
        assert interaction.channel_id is not None
        t = await self.service.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, organiser_id=interaction.user.id,
            name=name[:80], game=found.id, preset=preset, options=options, format=format.lower(), rounds=rounds,
            deals=deals, cap=cap, duplicate=duplicate, clock=clock,
        )  # fmt: skip
        view = _entry_view(t.id)
        assert view is not None  # a new tournament takes registrations
        await interaction.response.send_message(self.announcement(t), view=view)
        message = await interaction.original_response()
        await ts.set_messages(self.service.store, t.id, message_id=message.id)

    @tournament.command(name="checkin", description="Close registration and ask the players to check in")
    async def checkin(self, interaction: Interaction, tournament: int) -> None:
        await self.service.open_check_in(tournament, interaction.user.id, manager=_is_manager(interaction))
        await interaction.response.send_message(
            "Check-in is open: players press **Check in** on the announcement; whoever has not by the start is "
            "dropped as a no-show."
        )

    @tournament.command(name="start", description="Close registration and start round 1 (the organiser)")
    async def start(self, interaction: Interaction, tournament: int) -> None:
        await self.service.start(tournament, interaction.user.id, manager=_is_manager(interaction))
        await interaction.response.send_message("Started: round 1's pairings follow.", ephemeral=True)

    @tournament.command(name="standings", description="The standings, a page at a time")
    async def standings(self, interaction: Interaction, tournament: int, page: int = 1) -> None:
        t, lines = await self.service.standings(tournament)
        names = {e.id: e.name for e in t.entrants}
        pages = max(1, -(-len(lines) // PAGE))
        page = min(max(page, 1), pages)
        shown = lines[(page - 1) * PAGE : page * PAGE]
        method = ranking_method(t).replace("_", " ")
        body = "\n".join(
            f"{ln.place}. {names.get(ln.entrant, ln.entrant)}: {ln.score:g}"
            + (f" (Buchholz {ln.buchholz:g})" if method == "match points" else f" ({ln.won} won)")
            + (f" [adjusted {ln.adjustment:+g}]" if ln.adjustment else "")
            for ln in shown
        )
        embed = discord.Embed(title=f"{t.name}: standings ({method})", description=body or "No results yet.")
        embed.set_footer(text=f"page {page} of {pages}")
        await interaction.response.send_message(embed=embed)

    @tournament.command(name="audit", description="Everything the organiser and the bot did, for anyone to read")
    async def audit(self, interaction: Interaction, tournament: int) -> None:
        t = await self.service.get(tournament)
        entries = await ts.audit_log(self.service.store, t.id)
        text = "\n".join(f"{e.at[:16]} {e.action}: {e.detail}" for e in entries[-40:])
        await interaction.response.send_message(f"**{t.name}: audit log**\n{text}"[:2000], ephemeral=True)

    @tournament.command(name="adjust", description="Add to (or take from) an entrant's score, with a reason")
    async def adjust(self, interaction: Interaction, tournament: int, entrant: str, points: int, reason: str) -> None:
        await self.service.adjust(tournament, interaction.user.id, entrant, points, reason,
                                  manager=_is_manager(interaction))  # fmt: skip
        await interaction.response.send_message(f"{entrant}: {points:+d} ({reason}).")

    @tournament.command(name="drop", description="Take an entrant out of the coming rounds (the organiser)")
    async def drop(self, interaction: Interaction, tournament: int, entrant: str, reason: str) -> None:
        await self.service.drop(tournament, interaction.user.id, entrant, reason, manager=_is_manager(interaction))
        await interaction.response.send_message(f"{entrant} is out of the coming rounds: {reason}.")

    @tournament.command(name="replace", description="Put another player in an entrant's place for the coming rounds")
    async def replace(
        self, interaction: Interaction, tournament: int, entrant: str, player: discord.Member, reason: str
    ) -> None:
        await self.service.replace(tournament, interaction.user.id, entrant, player.id, player.display_name, reason,
                                   manager=_is_manager(interaction))  # fmt: skip
        await interaction.response.send_message(f"{player.display_name} plays for {entrant} from now on: {reason}.")

    @tournament.command(name="pause", description="No new round starts until resumed (the organiser)")
    async def pause(self, interaction: Interaction, tournament: int) -> None:
        await self.service.pause(tournament, interaction.user.id, manager=_is_manager(interaction))
        await interaction.response.send_message("Paused: the round under way finishes, no new one starts.")

    @tournament.command(name="resume", description="Carry on after a pause (the organiser)")
    async def resume(self, interaction: Interaction, tournament: int) -> None:
        await interaction.response.send_message("Resumed.")
        await self.service.pause(tournament, interaction.user.id, manager=_is_manager(interaction), resume=True)

    @tournament.command(
        name="export", description="The standings (CSV) and the finished rounds' records (the organiser)"
    )
    async def export(self, interaction: Interaction, tournament: int) -> None:
        records = await self.service.export_records(tournament, interaction.user.id, manager=_is_manager(interaction))
        text = await self.service.export_csv(tournament)
        files = [discord.File(io.BytesIO(text.encode()), filename=f"tournament-{tournament}.csv")]
        if records:
            files.append(discord.File(io.BytesIO(records.encode()), filename=f"tournament-{tournament}-records.jsonl"))
        await interaction.response.send_message(files=files, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tournaments(bot))
