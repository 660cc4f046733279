"""``/tournament``: create one, register with the announcement's buttons, start it, read the standings and the audit
log, and the organiser's tools.  The running of it is ``bot/tournaments/service.py``; this cog parses, answers,
and says in Discord what the service tells it (``TournamentOutput``)."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _, speaking
from bot.presentation.errors import answering_errors
from bot.presentation.language import language_of, table_language
from bot.presentation.standings_image import standings_png
from bot.storage import tournaments as ts
from bot.tables import guild_settings
from bot.tables.guild_settings import parse_clock
from bot.tables.service import Refusal, Table
from bot.tournaments.deadlines import POLICIES, ts_epoch
from bot.tournaments.progress import current_standings
from bot.tournaments.service import FORMATS, INDIVIDUAL, KNOCKOUTS, TEAM, Settings, TournamentService, ranking_method
from bot.tournaments.standings import MATCH_POINTS
from bot.tournaments.words import audit_fields, format_name, method_name, status_name
from cogs.acting import Interaction
from rules import registry

PAGE = 20


def _is_manager(interaction: Interaction) -> bool:
    return bool(interaction.guild_id is not None and interaction.permissions.manage_guild)


def _cog(interaction: discord.Interaction) -> Tournaments:
    bot = interaction.client
    assert isinstance(bot, commands.Bot)
    cog = bot.get_cog("Tournaments")
    assert isinstance(cog, Tournaments)
    return cog


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tn:(?P<tid>\d+):(?P<verb>register|withdraw|checkin|team)"
):
    def __init__(self, tid: int, verb: str):
        label, style = {
            "register": (_("Register"), discord.ButtonStyle.success),
            "team": (_("Register team"), discord.ButtonStyle.success),
            "checkin": (_("Check in"), discord.ButtonStyle.primary),
        }.get(verb, (_("Withdraw"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:{tid}:{verb}"))
        self.tid, self.verb = tid, verb

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match, /):
        return cls(int(match["tid"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        user = interaction.user
        async with answering_errors(interaction):
            with speaking(await language_of(interaction)):
                if self.verb == "team":
                    captain = ts.Member(user.id, user.display_name)
                    await cog.service.check_team(self.tid, [captain, ts.Member(0, "")])
                    view = discord.ui.View(timeout=None)
                    view.add_item(PartnerSelect(self.tid))
                    text = _("Name your partner: they confirm with one tap before your team is entered.")
                    await interaction.response.send_message(text, view=view, ephemeral=True)
                    return
                if self.verb == "register":
                    status = await cog.service.register(self.tid, user.id, user.display_name)
                    full = status != ts.REGISTERED
                    text = _("The field is full: you are on the waiting list.") if full else _("You are registered.")
                elif self.verb == "checkin":
                    await cog.service.check_in(self.tid, user.id)
                    text = _("You are checked in: your first table opens when the tournament starts.")
                else:
                    await cog.service.withdraw(self.tid, user.id)
                    text = _("You have withdrawn (with your team, if you entered as one).")
            await interaction.response.send_message(text, ephemeral=True)


class PartnerSelect(discord.ui.DynamicItem[discord.ui.UserSelect], template=r"tn:(?P<tid>\d+):partner"):
    """The captain names the partner; the partner is asked in the channel to confirm."""

    def __init__(self, tid: int):
        super().__init__(discord.ui.UserSelect(custom_id=f"tn:{tid}:partner", placeholder=_("Your partner")))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match, /):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        user = interaction.user
        async with answering_errors(interaction):
            with speaking(await language_of(interaction)):
                partner = self.item.values[0]
                if partner.bot:
                    raise Refusal("A partner is a player, not a bot.")
                captain = ts.Member(user.id, user.display_name)
                t = await cog.service.check_team(self.tid, [captain, ts.Member(partner.id, partner.display_name)])
                await interaction.response.send_message(
                    _("{partner} is asked to confirm.", partner=partner.display_name), ephemeral=True
                )
            view = discord.ui.View(timeout=None)
            view.add_item(TeamAnswer(self.tid, "yes", user.id, partner.id))
            view.add_item(TeamAnswer(self.tid, "no", user.id, partner.id))
            channel = await cog.channel(t.channel_id)
            await channel.send(
                _(
                    "<@{partner}>: {captain} asks you to play {name} as their partner. Do you accept?",
                    partner=partner.id,
                    captain=user.display_name,
                    name=t.name,
                ),  # fmt: skip
                view=view,
            )


class TeamAnswer(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tn:(?P<tid>\d+):(?P<answer>yes|no):(?P<captain>\d+):(?P<partner>\d+)",
):
    """The named partner's one tap; the team is in only when they accept (and nobody of it has entered since)."""

    def __init__(self, tid: int, answer: str, captain: int, partner: int):
        label, style = (_("Accept"), discord.ButtonStyle.success) if answer == "yes" else (
            _("Decline"), discord.ButtonStyle.secondary)  # fmt: skip
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"tn:{tid}:{answer}:{captain}:{partner}")
        )
        self.tid, self.answer, self.captain, self.partner = tid, answer, captain, partner

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match, /):
        return cls(int(match["tid"]), match["answer"], int(match["captain"]), int(match["partner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        user = interaction.user
        async with answering_errors(interaction):
            with speaking(await language_of(interaction)):
                if user.id != self.partner:
                    raise Refusal("Only the player named as partner can answer this.")
                captain = await cog.member_name(interaction, self.captain)
                if self.answer == "no":
                    text = _("{partner} declined to partner {captain}.", partner=user.display_name, captain=captain)
                else:
                    partner = ts.Member(user.id, user.display_name)
                    status = await cog.service.register_team(
                        self.tid, ts.Member(self.captain, captain), [partner], user.id
                    )
                    text = _("{captain} & {partner} are entered as a team.", captain=captain,
                             partner=user.display_name)  # fmt: skip
                    if status != ts.REGISTERED:
                        text += " " + _("The field is full: you are on the waiting list.")
            await interaction.response.edit_message(content=text, view=None)


def _entry_view(tid: int, status: str = ts.REGISTRATION, entry: str = INDIVIDUAL) -> discord.ui.View | None:
    if status not in (ts.REGISTRATION, ts.CHECK_IN):
        return None
    view = discord.ui.View(timeout=None)
    if status == ts.CHECK_IN:
        view.add_item(EntryButton(tid, "checkin"))
    else:
        view.add_item(EntryButton(tid, "team" if entry == TEAM else "register"))
    view.add_item(EntryButton(tid, "withdraw"))
    return view


def audit_line(entry: ts.AuditEntry) -> str:
    """An audit entry in the reader's language; an older entry, stored as English text, as it was written."""
    if entry.words is None:
        return f"{entry.at[:16]} {entry.action}: {entry.detail}"
    return f"{entry.at[:16]} {_(entry.words.msgid, **audit_fields(entry.words.fields))}"


class Tournaments(commands.Cog):
    service: TournamentService

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        manager = getattr(self.bot, "manager", None)
        if manager is None:  # a bot that only reads the command tree (the catalogues' tools, bot/i18n/tools.py)
            return
        self.service = TournamentService(manager.store, manager, self, manager.rng, self.bot.clock)  # type: ignore[attr-defined]
        self.bot.add_dynamic_items(EntryButton, PartnerSelect, TeamAnswer)
        self.bot.followers.follow(self.service)  # type: ignore[attr-defined]  # its tables' events
        await self.service.resume_all()

    async def cog_unload(self) -> None:
        service = getattr(self, "service", None)
        if service is not None:
            self.bot.followers.forget(service)  # type: ignore[attr-defined]
            await service.deadlines.close()

    async def member_name(self, interaction: discord.Interaction, user_id: int) -> str:
        member = interaction.guild.get_member(user_id) if interaction.guild is not None else None
        if member is not None:
            return member.display_name
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        return user.display_name

    # --- what the service says (TournamentOutput) ----------------------------------------------------------

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def open_table_channel(self, t: ts.TournamentRow, round_no: int, match_no: int, users: list[int]) -> int:
        """A private thread of the tournament's channel for one table, its four players added: their game is
        played there, out of everyone else's way."""
        channel = await self.channel(t.channel_id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(
            name=_("{name} · round {round} · table {table}", name=t.name, round=round_no + 1, table=match_no + 1)[:100],
            type=discord.ChannelType.private_thread,
            invitable=False,
        )
        for user_id in users:
            await thread.add_user(discord.Object(user_id))
        return thread.id

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        await self.bot.clocks.setup_table(table, parse_clock(t.settings.get("clock", "live")))  # type: ignore[attr-defined]

    async def round_started(self, t: ts.TournamentRow, round_no: int, lines: list[str], commitment: str) -> None:
        text = _("**{name}: round {number}**", name=t.name, number=round_no + 1) + "\n" + "\n".join(lines)
        text += "\n" + _(
            "The round's seed is committed: `sha256 {commitment}` (revealed when the round ends).",
            commitment=commitment,
        )
        await (await self.channel(t.channel_id)).send(text)

    async def table_language(self, t: ts.TournamentRow) -> str:
        server = await guild_settings.load(self.service.store, t.guild_id)
        guild = self.bot.get_guild(t.guild_id) if t.guild_id else None
        return table_language(None, server.language, guild.preferred_locale if guild else None)

    async def say(self, t: ts.TournamentRow, text: str) -> None:
        await (await self.channel(t.channel_id)).send(f"**{t.name}**: {text}")

    async def changed(self, t: ts.TournamentRow) -> None:
        if t.message_id is None:
            return
        channel = await self.channel(t.channel_id)
        assert isinstance(channel, discord.TextChannel | discord.Thread)
        message = channel.get_partial_message(t.message_id)
        files = []
        if t.played:  # the standings as an image too, once there are any
            names = {e.id: e.name for e in t.entrants}
            method = ranking_method(t)
            subtitle = f"{registry.game_type(t.game).name()} · {method_name(method)}"
            png = await standings_png(t.name, subtitle, current_standings(t, method), names, method)
            files = [discord.File(io.BytesIO(png), filename="standings.png")] if png else []
        await message.edit(
            content=self.announcement(t),
            view=_entry_view(t.id, t.status, Settings.of(t.settings).entry),
            attachments=files,
        )

    def announcement(self, t: ts.TournamentRow) -> str:
        game = registry.game_type(t.game).name()
        settings = Settings.of(t.settings)
        registered = [e.name + (" ✅" if e.status == ts.CHECKED_IN else "") for e in t.entrants
                      if e.status in (ts.REGISTERED, ts.CHECKED_IN)]  # fmt: skip
        waiting = [e.name for e in t.entrants if e.status == ts.WAITLIST]
        cap = settings.cap
        if t.format in (*KNOCKOUTS, "round_robin"):
            length = _("rounds as the format needs")
        else:
            length = _("{rounds} rounds", rounds=t.rounds)
        if settings.best_of:
            deals = _("knock-out matches best of {n} deals", n=settings.best_of)
        elif settings.deals:
            deals = _("{deals} deals a round", deals=settings.deals)
        else:
            deals = _("each game to its target")
        entry = _("teams") if settings.entry == TEAM else _("individuals")
        lines = [
            f"🏆 **{t.name}** (#{t.id}): {game}, {format_name(t.format)}"
            + (" " + _("duplicate") if settings.duplicate else "") + f", {entry}, {length}, {deals}",
            _("Status: {status}.", status=status_name(t.status)) + " "
            + _("Entrants ({count}{cap}): {names}", count=len(registered), cap=f"/{cap}" if cap else "",
                names=", ".join(registered) or _("none yet")),
        ]  # fmt: skip
        if waiting:
            lines.append(_("Waiting list: {names}", names=", ".join(waiting)))
        closes = t.settings.get("checkin_closes")
        if t.status == ts.CHECK_IN and closes is not None:
            lines.append(_("Check-in closes <t:{when}:R> (<t:{when}:f>).", when=int(float(closes))))
        if settings.round_minutes:
            lines.append(
                _("Each round has {minutes} minutes; at the deadline {policy}", minutes=settings.round_minutes,
                  policy=self.service.deadlines.policy_words(settings.policy))
            )  # fmt: skip
        if t.played:
            current = t.played[-1]
            if t.format in (*KNOCKOUTS, "round_robin"):
                lines.append(_("Round {number}.", number=current.round_no + 1))
            else:
                lines.append(_("Round {number} of {rounds}.", number=current.round_no + 1, rounds=t.rounds))
            if current.deadline and current.status != ts.ROUND_FINISHED:
                when = int(ts_epoch(current.deadline))
                lines.append(_("The round ends <t:{when}:R> (<t:{when}:f>).", when=when))
            names = {e.id: e.name for e in t.entrants}
            top = current_standings(t, ranking_method(t))[:10]
            lines.append(_("Standings ({method}): ", method=method_name(ranking_method(t))) + ", ".join(
                f"{ln.place}. {names.get(ln.entrant, ln.entrant)} {ln.score:g}" for ln in top))  # fmt: skip
        return "\n".join(lines)

    # --- commands ------------------------------------------------------------------------------------------

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: Swiss, mêlée, round robin and knock-outs", guild_only=True
    )

    @tournament.command(name="create", description="Announce a tournament that players register for")
    @app_commands.describe(
        name="what the tournament is called",
        game=f"the game ({registry.choices_text()})",
        format=f"the format: {', '.join(FORMATS)}",
        rounds="how many rounds (Swiss and mêlée; the others take as many as they need)",
        deals="deals per round (0: each table plays to the game's target)",
        cap="the most entrants (0: no limit); later ones wait on a list",
        preset="the game's rule preset",
        duplicate="every table of a round plays the same deals, scored by matchpoints",
        clock="each table's turn clock: live (60 s), casual (10 min), async (24 h) or e.g. 5m",
        entry="individual or team (fixed partners; round robin and knock-outs are always teams)",
        best_of="a knock-out match: the first side to win the majority of this many deals",
        groups="a round robin's groups (their winners then play a knock-out)",
        deadline="minutes each round may last (0: no deadline)",
        at_deadline=f"what happens to a table still playing at the deadline: {', '.join(POLICIES)}",
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        game: str,
        format: str,
        rounds: int = 0,
        deals: int = 0,
        cap: int = 0,
        preset: str | None = None,
        duplicate: bool = False,
        clock: str = "live",
        entry: str = INDIVIDUAL,
        best_of: int = 3,
        groups: int = 1,
        deadline: int = 0,
        at_deadline: str = "computer",
    ) -> None:
        found = registry.find(game)
        if found is None:
            raise Refusal("There is no game called {game!r}: {choices}.", game=game, choices=registry.choices_text())
        options: dict = {}
        if preset is not None:
            if preset not in found.presets:
                raise Refusal(
                    "{game} has no preset {preset!r}: {presets}.",
                    game=found.name(), preset=preset, presets=", ".join(found.presets),
                )  # fmt: skip
            options = dict(found.presets[preset])
        assert interaction.channel_id is not None
        t = await self.service.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, organiser_id=interaction.user.id,
            name=name[:80], game=found.id, preset=preset, options=options, format=format.lower(), rounds=rounds,
            deals=deals, cap=cap, duplicate=duplicate, clock=clock, entry=entry.lower(), best_of=best_of,
            groups=groups, round_minutes=deadline, policy=at_deadline.lower(),
        )  # fmt: skip
        view = _entry_view(t.id, t.status, Settings.of(t.settings).entry)
        assert view is not None  # a new tournament takes registrations
        await interaction.response.send_message(self.announcement(t), view=view)
        message = await interaction.original_response()
        await ts.set_messages(self.service.store, t.id, message_id=message.id)

    @tournament.command(name="checkin", description="Close registration and ask the players to check in")
    @app_commands.describe(minutes="close the check-in (and start) by itself after this many minutes; 0: you start it")
    async def checkin(self, interaction: Interaction, tournament: int, minutes: int = 0) -> None:
        closes = await self.service.open_check_in(
            tournament, interaction.user.id, manager=_is_manager(interaction), minutes=minutes
        )
        with speaking(await language_of(interaction)):
            text = _(
                "Check-in is open: players press **Check in** on the announcement; whoever has not by the start is "
                "dropped as a no-show."
            )
            if closes is not None:
                text += " " + _("It closes <t:{when}:R> and the tournament starts then.", when=int(closes))
        await interaction.response.send_message(text)

    @tournament.command(name="start", description="Close registration and start round 1 (the organiser)")
    async def start(self, interaction: Interaction, tournament: int) -> None:
        # Pairing a large field and opening its tables takes longer than Discord's 3 s to answer: defer at once.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.start(tournament, interaction.user.id, manager=_is_manager(interaction))
        with speaking(await language_of(interaction)):
            await interaction.followup.send(_("Started: round 1's pairings are posted."), ephemeral=True)

    @tournament.command(name="extend", description="Give the round under way (or the check-in) more minutes")
    async def extend(self, interaction: Interaction, tournament: int, minutes: int) -> None:
        when = await self.service.extend(tournament, interaction.user.id, minutes, manager=_is_manager(interaction))
        with speaking(await language_of(interaction)):
            text = _("Extended by {minutes} minutes: it now ends <t:{when}:R>.", minutes=minutes, when=int(when))
        await interaction.response.send_message(text)

    @tournament.command(name="repair", description="Pair the round under way again, before any table has a move")
    async def repair(self, interaction: Interaction, tournament: int, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.repair(tournament, interaction.user.id, reason, manager=_is_manager(interaction))
        with speaking(await language_of(interaction)):
            await interaction.followup.send(_("Paired again: the new pairings are posted."), ephemeral=True)

    @tournament.command(name="standings", description="The standings, a page at a time")
    async def standings(self, interaction: Interaction, tournament: int, page: int = 1) -> None:
        t, lines = await self.service.standings(tournament)
        names = {e.id: e.name for e in t.entrants}
        pages = max(1, -(-len(lines) // PAGE))
        page = min(max(page, 1), pages)
        shown = lines[(page - 1) * PAGE : page * PAGE]
        method = ranking_method(t)
        body = "\n".join(
            f"{ln.place}. {names.get(ln.entrant, ln.entrant)}: {ln.score:g}"
            + " ("
            + (
                _("Buchholz {score}", score=f"{ln.buchholz:g}")
                if method == MATCH_POINTS
                else _("{count} won", count=ln.won)
            )
            + ")"
            + (" [" + _("adjusted {points}", points=f"{ln.adjustment:+g}") + "]" if ln.adjustment else "")
            for ln in shown
        )
        if t.format in (*KNOCKOUTS, "round_robin"):
            body += "\n\n" + "\n".join(self.service.match_lines(t)[-30:])
        embed = discord.Embed(
            title=_("{name}: standings ({method})", name=t.name, method=method_name(method)),
            description=(body or _("No results yet."))[:4000],
        )
        embed.set_footer(text=_("page {page} of {pages}", page=page, pages=pages))
        await interaction.response.send_message(embed=embed)

    @tournament.command(name="audit", description="Everything the organiser and the bot did, for anyone to read")
    async def audit(self, interaction: Interaction, tournament: int) -> None:
        t = await self.service.get(tournament)
        entries = await ts.audit_log(self.service.store, t.id)
        text = "\n".join(audit_line(e) for e in entries[-40:])
        head = "**" + _("{name}: audit log", name=t.name) + "**"
        await interaction.response.send_message(f"{head}\n{text}"[:2000], ephemeral=True)

    @tournament.command(name="adjust", description="Add to (or take from) an entrant's score, with a reason")
    async def adjust(self, interaction: Interaction, tournament: int, entrant: str, points: int, reason: str) -> None:
        await self.service.adjust(tournament, interaction.user.id, entrant, points, reason,
                                  manager=_is_manager(interaction))  # fmt: skip
        await interaction.response.send_message(
            _("{entrant}: {points} ({reason}).", entrant=entrant, points=f"{points:+d}", reason=reason)
        )

    @tournament.command(name="drop", description="Take an entrant out of the coming rounds (the organiser)")
    async def drop(self, interaction: Interaction, tournament: int, entrant: str, reason: str) -> None:
        await self.service.drop(tournament, interaction.user.id, entrant, reason, manager=_is_manager(interaction))
        await interaction.response.send_message(
            _("{entrant} is out of the coming rounds: {reason}.", entrant=entrant, reason=reason)
        )

    @tournament.command(name="replace", description="Put another player in an entrant's place for the coming rounds")
    async def replace(
        self, interaction: Interaction, tournament: int, entrant: str, player: discord.Member, reason: str
    ) -> None:
        await self.service.replace(tournament, interaction.user.id, entrant, player.id, player.display_name, reason,
                                   manager=_is_manager(interaction))  # fmt: skip
        await interaction.response.send_message(
            _("{player} plays for {entrant} from now on: {reason}.", player=player.display_name, entrant=entrant,
              reason=reason)
        )  # fmt: skip

    @tournament.command(name="pause", description="No new round starts until resumed (the organiser)")
    async def pause(self, interaction: Interaction, tournament: int) -> None:
        await self.service.pause(tournament, interaction.user.id, manager=_is_manager(interaction))
        await interaction.response.send_message(_("Paused: the round under way finishes, no new one starts."))

    @tournament.command(name="resume", description="Carry on after a pause (the organiser)")
    async def resume(self, interaction: Interaction, tournament: int) -> None:
        await interaction.response.send_message(_("Resumed."))
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
