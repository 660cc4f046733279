"""``/help`` (what the bot does, how to start, every command read from the command tree, so the list cannot drift)
and ``/rules`` (a game's rules in a few pages, turned with buttons, and at a table the options in force there; also
the table message's Rules button).  The summaries are declared with each game (``GameType.rules_summary``).

The page buttons carry everything in their custom id (``rules:<game>:<table>:<page>``), so they work after a restart
and no state is kept per message.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _, current_language
from bot.i18n.catalogs import lookup
from bot.presentation.errors import answering_errors
from bot.presentation.language import language_of
from bot.presentation.messages import game_name, options_text
from bot.tables.presets import OptionsError, game_id
from bot.tables.service import Refusal, Table
from cogs.acting import Interaction, manager_of
from cogs.arguments import TABLE_HELP, GameText, TableOption
from rules import registry

# Admin groups: shown apart, since only server admins (Manage Server) can use them.
ADMIN_GROUPS = ("cardtable", "ratings")


def _said(text: str, place: str) -> str:
    """A command's name or description as Discord shows it to the reader (the Translator's catalogue entry)."""
    return lookup(current_language.get(), text, place) or text


def command_lines(tree: app_commands.CommandTree) -> tuple[list[str], list[str]]:
    """Every slash command as ``/name sub — description``, the players' and the admins', from the tree itself, in
    the reader's language (the names they type)."""
    players: list[str] = []
    admins: list[str] = []
    for command in sorted(tree.get_commands(type=discord.AppCommandType.chat_input), key=lambda c: c.name):
        lines = admins if command.name in ADMIN_GROUPS else players
        if isinstance(command, app_commands.Group):
            name, described = _said(command.name, "group_name"), _said(command.description, "group_description")
            subcommands = ", ".join(f"`{_said(sub.name, 'command_name')}`" for sub in command.commands)
            lines.append(f"`/{name}` {subcommands} — {described}")
        else:
            name, described = _said(command.name, "command_name"), _said(command.description, "command_description")
            lines.append(f"`/{name}` — {described}")
    return players, admins


def help_embed(tree: app_commands.CommandTree) -> discord.Embed:
    games = ", ".join(f"{game.name()} (`{game.short_name}`)" for game in registry.games())
    example = registry.games()[0].short_name
    players, admins = command_lines(tree)
    embed = discord.Embed(
        title=_("CardTable — trick-taking card games in Discord"),
        description=_(
            "Play {games} with friends or computer players, in this channel.\n\n"
            "**To start**: {new_table} opens a table; others press **Join** (or the host adds computer players); "
            "the host presses **Start**. Your hand comes by DM (or press **My hand**); play with its buttons or the "
            "slash commands below. {rules} explains a game.",
            games=games,
            new_table=f"`/{_said('table', 'group_name')} {_said('new', 'command_name')} "
            f"{_said('game', 'parameter_name')}:{example}`",
            rules=f"`/{_said('rules', 'command_name')} {_said('game', 'parameter_name')}:{example}`",
        ),
    )
    embed.add_field(name=_("Commands"), value="\n".join(players)[:1024], inline=False)
    if admins:
        embed.add_field(name=_("Server admins (Manage Server)"), value="\n".join(admins)[:1024], inline=False)
    return embed


def rules_embed(game: str, page: int, table: Table | None) -> discord.Embed:
    found = registry.lookup(game)
    pages = found.rules_summary if found else ()
    if not pages:
        return discord.Embed(
            title=_("{game} — rules", game=game_name(game)), description=_("There is no summary of this game yet.")
        )
    page = min(max(page, 1), len(pages))
    title, text = pages[page - 1]  # their ids are extracted from the registry (bot/i18n/tools.py)
    embed = discord.Embed(title=f"{game_name(game)} — {_(title)}", description=_(text))
    if table is not None:
        embed.add_field(
            name=_("At table #{table}", table=table.id),
            value=_("Options: {options}", options=options_text(table))[:1024],
            inline=False,
        )
    embed.set_footer(
        text=_(
            "Page {page} of {pages} · the full rules: docs/rules/ in the bot's repository", page=page, pages=len(pages)
        )
    )
    return embed


_RULES = r"rules:(?P<game>[a-z_]{1,40}):(?P<table>\d{1,18}):(?P<page>\d{1,4})"  # bounded: see components.py


class RulesPage(discord.ui.DynamicItem[discord.ui.Button], template=_RULES):
    """Turns a /rules message to another page; everything needed is in the custom id."""

    def __init__(self, game: str, table_id: int, page: int, label: str, *, disabled: bool = False):
        cid = f"rules:{game}:{table_id}:{page}"
        super().__init__(discord.ui.Button(label=label, custom_id=cid, disabled=disabled))
        self.game, self.table_id, self.page = game, table_id, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(match["game"], int(match["table"]), int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # always our bot's interaction
        # A button: neither the tree's error handler nor its language reach it.
        async with answering_errors(interaction):
            current_language.set(await language_of(interaction))
            if registry.lookup(self.game) is None:  # an older message's, or a forged id
                raise Refusal(
                    "Those rules are not known any more: choose {games} with /rules.", games=registry.choices_text()
                )
            table = await manager_of(interaction).get(self.table_id) if self.table_id else None
            await show_rules(interaction, self.game, table, self.page, edit=True)


def rules_view(game: str, page: int, table: Table | None) -> discord.ui.View | None:
    found = registry.lookup(game)
    count = len(found.rules_summary) if found else 0
    if count <= 1:
        return None
    table_id = table.id if table is not None else 0
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPage(game, table_id, max(1, page - 1), _("◀ Previous"), disabled=page <= 1))
    view.add_item(RulesPage(game, table_id, min(count, page + 1), _("Next ▶"), disabled=page >= count))
    return view


async def show_rules(interaction: Interaction, game: str, table: Table | None, page: int = 1, *, edit: bool) -> None:
    """A page of the game's rules, only for the one who asked: a new message, or the same one turned."""
    embed, view = rules_embed(game, page, table), rules_view(game, page, table)
    if edit:
        await interaction.response.edit_message(embed=embed, view=view)
    elif view is not None:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RulesPage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulesPage)

    @app_commands.command(name="help", description="What this bot does, how to start a table, and its commands")
    async def help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(self.bot.tree), ephemeral=True)

    @app_commands.command(name="rules", description="A game's rules in short, and the options in force at a table")
    @app_commands.describe(game="the game, as in /table new", table=TABLE_HELP)
    async def rules(
        self, interaction: Interaction, game: GameText | None = None, table: TableOption | None = None
    ) -> None:
        if game is None and table is None:
            raise Refusal("Name a game ({games}) or a table.", games=registry.choices_text())
        try:
            chosen = game_id(game) if game is not None else None
        except OptionsError as e:
            raise Refusal(e.msgid, **e.fields) from None
        if table is not None and chosen is not None and chosen != table.game:
            raise Refusal(
                "Table #{table} plays {game}, not {other}.",
                table=table.id,
                game=game_name(table.game),
                other=game_name(chosen),
            )
        shown = table.game if table is not None else chosen
        assert shown is not None
        await show_rules(interaction, shown, table, edit=False)

    @rules.autocomplete("game")
    async def _game_autocomplete(self, interaction: Interaction, current: str):
        return [
            app_commands.Choice(name=f"{found.name()} ({found.short_name})", value=found.short_name)
            for found in registry.games()
            if current.lower() in " ".join((found.name().lower(), *found.aliases))
        ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
