"""``/daylong``: a daylong against computers — create it, play its boards (the announcement's button or
``/daylong play``), withdraw, read the standings, close it early.  The running of it is
``bot/tournaments/daylong_service.py``; this cog parses, answers, and says in Discord what the service tells it.

The announcement is the standings board: its text and a standings image, edited in place after every board.  Its
public texts are in the language of whoever created it (stored with it).
"""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _, current_language, ngettext, speaking
from bot.presentation import images
from bot.presentation.errors import answering_errors
from bot.storage import tournaments as ts
from bot.tables.guild_settings import parse_clock
from bot.tables.service import Refusal, Table
from bot.tournaments.daylong import MAX_BOARDS, MIN_BOARDS
from bot.tournaments.daylong_service import DaylongService, Snapshot
from cogs.acting import Interaction
from rules import registry
from rules.ai.players import LEVELS

PAGE = 20


def _is_manager(interaction: Interaction) -> bool:
    return bool(interaction.guild_id is not None and interaction.permissions.manage_guild)


def _language(t: ts.TournamentRow) -> str:
    return str(t.settings.get("language", "en"))


class PlayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dl:(?P<tid>\d+):play"):
    def __init__(self, tid: int, label: str | None = None):
        super().__init__(discord.ui.Button(label=label or _("Play my next board"), style=discord.ButtonStyle.success,
                                           custom_id=f"dl:{tid}:play"))  # fmt: skip
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match, /):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, commands.Bot)
        cog = bot.get_cog("Daylong")
        assert isinstance(cog, Daylong)
        async with answering_errors(interaction):
            await interaction.response.send_message(await cog.play(self.tid, interaction.user), ephemeral=True)


def _play_view(tid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(tid))
    return view


class Daylong(commands.Cog):
    service: DaylongService

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        manager = getattr(self.bot, "manager", None)
        if manager is None:  # a bot that only reads the command tree (the catalogues' tools)
            return
        self.service = DaylongService(manager.store, manager, self, manager.rng, self.bot.clock)  # type: ignore[attr-defined]
        self.bot.add_dynamic_items(PlayButton)
        self.bot.followers.follow(self.service)  # type: ignore[attr-defined]  # its boards' table events
        await self.service.resume_all()

    async def cog_unload(self) -> None:
        if hasattr(self, "service"):
            self.bot.followers.forget(self.service)  # type: ignore[attr-defined]
            await self.service.stop()

    async def play(self, tid: int, user: discord.abc.User) -> str:
        number, thread = await self.service.play(tid, user.id, user.display_name)
        return _("Board {board} is dealt in <#{thread}>.", board=number + 1, thread=thread)

    # --- what the service says (DaylongOutput) -------------------------------------------------------------

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def open_player_thread(self, t: ts.TournamentRow, user_id: int, name: str) -> int:
        channel = await self._channel(t.channel_id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name=f"{t.name} · {name}"[:100], type=discord.ChannelType.private_thread,
                                             invitable=False)  # fmt: skip
        await thread.add_user(discord.Object(user_id))
        return thread.id

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        await self.bot.clocks.setup_table(table, parse_clock(t.settings.get("clock", "casual")))  # type: ignore[attr-defined]

    async def board_done(self, t: ts.TournamentRow, thread_id: int, user_id: int, board_no: int, net: int) -> None:
        snap = await self.service.snapshot(t.id)
        played = sum(1 for b in snap.boards if b.user_id == user_id and b.status != "playing")
        with speaking(_language(t)):
            text = _("Board {board} played: {net} for your side. {done} of {boards} boards done.",
                     board=board_no + 1, net=f"{net:+d}", done=played, boards=snap.settings.boards)  # fmt: skip
            view = _play_view(t.id) if played < snap.settings.boards and not snap.closed else None
            channel = await self._channel(thread_id)
            if view is None:
                await channel.send(text)
            else:
                await channel.send(text, view=view)

    async def say(self, t: ts.TournamentRow, text: str, **fields) -> None:
        with speaking(_language(t)):
            await (await self._channel(t.channel_id)).send(f"**{t.name}**: " + _(text, **fields))

    async def changed(self, t: ts.TournamentRow) -> None:
        if t.message_id is None:
            return
        snap = await self.service.snapshot(t.id)
        with speaking(_language(t)):
            text = self.announcement(snap)
            png = await self.standings_png(snap)
            channel = await self._channel(t.channel_id)
            assert isinstance(channel, discord.TextChannel | discord.Thread)
            message = channel.get_partial_message(t.message_id)
            files = [discord.File(io.BytesIO(png), filename="standings.png")] if png else []
            view = None if snap.closed else _play_view(t.id)
            await message.edit(content=text, attachments=files, view=view)

    async def standings_png(self, snap: Snapshot) -> bytes | None:
        rows = [(ln.place, snap.name_of(ln.player), ln.percent, ln.finished) for ln in snap.lines]
        state = _("final") if snap.closed else _("running")
        game = registry.game_type(snap.t.game).name()
        return await images.render(
            "render_standings", rows, title=snap.t.name, columns=["st_percent", "st_boards"],
            subtitle=f"{game} · {state}", lang=current_language.get(), total=len(rows),
        )  # fmt: skip

    def announcement(self, snap: Snapshot) -> str:
        t, s = snap.t, snap.settings
        game = registry.game_type(t.game).name()
        lines = [
            _(
                "🌅 **{name}** (daylong #{number}): {game}, {boards} boards against three computer players ({level}).",
                name=t.name,
                number=t.id,
                game=game,
                boards=s.boards,
                level=s.level,
            ),  # fmt: skip
            _("Closed: final standings below.")
            if snap.closed
            else _(
                "Open until <t:{when}:f> (<t:{when}:R>): start when you like with the button.", when=int(s.closes_at)
            ),  # fmt: skip
            ngettext(
                "Players: {count}. Each is compared with the players of the same instance of the boards ({instances} "
                "instance).",
                "Players: {count}. Each is compared with the players of the same instance of the boards ({instances} "
                "instances).",
                s.instances,
                count=len(snap.players),
                instances=s.instances,
            ),  # fmt: skip
        ]
        top = [f"{ln.place}. {snap.name_of(ln.player)} {ln.percent:g}% ({ln.finished})" for ln in snap.lines[:10]]
        if top:
            lines.append(_("Standings: {lines}", lines=", ".join(top)))
        return "\n".join(lines)

    # --- commands ------------------------------------------------------------------------------------------

    daylong = app_commands.Group(name="daylong", description="Daylong tournaments against computer players",
                                 guild_only=True)  # fmt: skip

    @daylong.command(name="create", description="Open a daylong: each player plays the same boards with computers")
    @app_commands.describe(
        name="what the daylong is called",
        game=f"the game ({registry.choices_text()})",
        boards=f"how many boards ({MIN_BOARDS} to {MAX_BOARDS})",
        level=f"the computer players' level: {', '.join(LEVELS)}",
        hours="how long the window stays open, in hours",
        instances="how many instances of the boards (players are compared within theirs)",
        preset="the game's rule preset",
        clock="each board's turn clock: live (60 s), casual (10 min), async (24 h) or e.g. 5m",
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        game: str,
        boards: int = 8,
        level: str = "master",
        hours: int = 24,
        instances: int = 2,
        preset: str | None = None,
        clock: str = "casual",
    ) -> None:
        found = registry.find(game)
        if found is None:
            raise Refusal("There is no game called {game}: {games}.", game=game, games=registry.choices_text())
        options: dict = {}
        if preset is not None:
            if preset not in found.presets:
                raise Refusal("{game} has no preset {preset}: {presets}.", game=found.name(), preset=preset,
                              presets=", ".join(found.presets))  # fmt: skip
            options = dict(found.presets[preset])
        assert interaction.channel_id is not None
        t = await self.service.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, organiser_id=interaction.user.id,
            name=name[:80], game=found.id, preset=preset, options=options, boards=boards, level=level.lower(),
            hours=hours, instances=instances, clock=clock, language=current_language.get(),
        )  # fmt: skip
        snap = await self.service.snapshot(t.id)
        await interaction.response.send_message(self.announcement(snap), view=_play_view(t.id))
        message = await interaction.original_response()
        await ts.set_messages(self.service.store, t.id, message_id=message.id)
        commitments = "\n".join(f"{i + 1}. `sha256 {c}`" for i, c in enumerate(self.service.commitments(t)))
        await (await self._channel(t.channel_id)).send(
            _(
                "The boards' seeds are committed, one an instance (revealed when the window closes):\n{lines}",
                lines=commitments,
            )
        )

    @daylong.command(name="play", description="Play your next board of a daylong")
    async def play_command(self, interaction: Interaction, daylong: int) -> None:
        await interaction.response.send_message(await self.play(daylong, interaction.user), ephemeral=True)

    @daylong.command(name="withdraw", description="Stop playing a daylong (boards not played score 40 %)")
    async def withdraw(self, interaction: Interaction, daylong: int) -> None:
        await self.service.withdraw(daylong, interaction.user.id)
        await interaction.response.send_message(
            _("You have withdrawn: your finished boards stay in the standings; the others score 40 %."),
            ephemeral=True,
        )

    @daylong.command(name="close", description="Close a daylong's window now (the organiser)")
    async def close(self, interaction: Interaction, daylong: int) -> None:
        await self.service.close(daylong, interaction.user.id, manager=_is_manager(interaction))
        await interaction.response.send_message(_("Closed."), ephemeral=True)

    @daylong.command(name="standings", description="A daylong's standings, a page at a time")
    async def standings(self, interaction: Interaction, daylong: int, page: int = 1) -> None:
        snap = await self.service.snapshot(daylong)
        pages = max(1, -(-len(snap.lines) // PAGE))
        page = min(max(page, 1), pages)
        body = "\n".join(
            _(
                "{place}. {name}: {percent}% over {counted} boards ({finished} played, instance {instance})",
                place=ln.place,
                name=snap.name_of(ln.player),
                percent=f"{ln.percent:g}",
                counted=ln.counted,
                finished=ln.finished,
                instance=ln.instance + 1,
            )  # fmt: skip
            for ln in snap.lines[(page - 1) * PAGE : page * PAGE]
        )
        state = _("final") if snap.closed else _("running")
        embed = discord.Embed(title=_("{name}: standings ({state})", name=snap.t.name, state=state),
                              description=body or _("No board played yet."))  # fmt: skip
        embed.set_footer(text=_("page {page} of {pages}", page=page, pages=pages))
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Daylong(bot))
