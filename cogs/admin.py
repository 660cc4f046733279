"""``/cardtable settings``: a server's defaults and limits for tables (manage-server permission, checked here on the
server side as well as hidden by Discord's default permissions).  Validation: ``bot/tables/guild_settings.py``.

``manage_server_only`` is the check the administrators' commands share (here and in cogs/leaderboard.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.presentation.language import language_choices
from bot.tables import guild_settings as gs
from bot.tables.service import Refusal
from cogs.acting import Interaction, manager_of
from cogs.arguments import ClockText, GameText, ListText, NameText
from rules import registry

NOT_ADMIN = N_("Only members with the Manage Server permission can change this server's card table settings.")


def manage_server_only(refusal: str):
    """A check for administrators' commands, with ``refusal`` as the answer to anyone else.

    Discord's default permissions only hide a command, and a server can show it to anyone: the bot checks again
    from the permissions Discord resolved for this interaction.  A failed check reaches the tree's error handler,
    which answers with its message."""

    def predicate(interaction: Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage(N_("This is done in a server, not in a direct message."))
        if not interaction.permissions.manage_guild:
            raise app_commands.CheckFailure(refusal)
        return True

    return app_commands.check(predicate)


async def computers_allowed(interaction: Interaction) -> None:
    """The lobby's "Add computer": refused when the server does not let computer players fill seats."""
    settings = await gs.load(manager_of(interaction).store, interaction.guild_id)
    if not settings.computers:
        raise Refusal("This server does not let computer players fill seats (an admin setting).")


class Admin(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    cardtable = app_commands.Group(
        name="cardtable",
        description="Card table administration for this server",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @cardtable.command(name="settings", description="Show or change this server's table settings (admins)")
    @app_commands.describe(
        game=f"the game a default clock or preset applies to ({registry.choices_text()})",
        clock="default clock: live, casual, async or a duration like 5m (for the game, or the server)",
        preset="the game's default rule preset (none to clear)",
        allowed_clocks="clocks players may choose, e.g. live,casual (or all)",
        channels="channels that may host tables, e.g. #cards #club (or all)",
        max_tables="the most open tables in one channel (1-50)",
        computers="whether computer players may fill seats",
        language="the language of new tables (default: the server's preferred locale)",
    )
    @app_commands.choices(language=language_choices(default=True))
    @manage_server_only(NOT_ADMIN)
    async def settings(
        self,
        interaction: Interaction,
        game: GameText | None = None,
        clock: ClockText | None = None,
        preset: NameText | None = None,
        allowed_clocks: ListText | None = None,
        channels: ListText | None = None,
        max_tables: int | None = None,
        computers: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # manage_server_only
        store = manager_of(interaction).store
        current = await gs.load(store, guild_id)
        changes = {
            "game": game,
            "clock": clock,
            "preset": preset,
            "allowed_clocks": allowed_clocks,
            "channels": channels,
            "max_tables": max_tables,
            "computers": computers,
            "language": language.value if language else None,
        }
        changed = any(v is not None for k, v in changes.items() if k != "game")
        if game is not None and not changed:
            raise Refusal("Say what to set for that game: a `clock` or a `preset`.")
        if changed:
            new = gs.apply_changes(current, changes)
            if new.channels and interaction.guild is not None:
                unknown = [c for c in new.channels if interaction.guild.get_channel(c) is None]
                if unknown:
                    raise Refusal("{channel} is not a channel of this server.", channel=f"<#{unknown[0]}>")
            await gs.save(store, guild_id, new, interaction.user.id)
            head = _("✅ Settings saved. This server's card tables now use:")
        else:
            new = current
            head = _("This server's card table settings:")
        await interaction.response.send_message(f"{head}\n{new.describe()}", ephemeral=True)

    @settings.autocomplete("game")
    async def _game(self, interaction: Interaction, current: str):
        shorts = [game.short_name for game in registry.games()]
        return [app_commands.Choice(name=k, value=k) for k in shorts if current.lower() in k]

    @settings.autocomplete("clock")
    async def _clock(self, interaction: Interaction, current: str):
        return clock_choices(current)


def clock_choices(current: str) -> list[app_commands.Choice[str]]:
    out = [
        app_commands.Choice(name=f"{_(k)} ({_('{duration} a turn', duration=gs.duration_text(v))})", value=k)
        for k, v in gs.CLOCK_PRESETS.items()
        if current.lower() in k
    ]
    if current.strip() and not out:
        try:
            choice = gs.parse_clock(current)
            out.append(
                app_commands.Choice(
                    name=_("custom: {duration} a turn", duration=gs.duration_text(choice.seconds)), value=current
                )
            )
        except gs.SettingsRefusal:
            pass
    return out


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
