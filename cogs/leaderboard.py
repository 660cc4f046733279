"""``/leaderboard``, ``/player stats``, ``/player history``, ``/player globalrating`` and the administrators'
``/ratings`` commands.

Leaderboard pages are turned with buttons whose custom ids carry the whole board (server, game, period, season or
month, page): ``DynamicItem`` rebuilds them after a restart, and no state is kept per message.

At load the cog records the result of any ended table that has none (``results_store.reconcile``).  It listens to
the table events so that every game on a server says at its start whether it is rated, and if not why; and, after
its result, when a game announced as rated turned out not to be.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.storage.results as rs
from bot.i18n import DEFAULT, LANGUAGES, current_language, speaking
from bot.i18n.catalogs import N_, _, ngettext
from bot.i18n.refusals import field_text
from bot.presentation import images
from bot.presentation.errors import answer, answering_errors
from bot.presentation.language import language_of
from bot.presentation.presenter import game_name
from bot.ratings import stats
from bot.ratings.rating import rating_eligibility
from bot.storage.player_settings import TURN_PINGS, PlayerSettings
from bot.storage.store import Store
from bot.tables.presets import OptionsError, game_id
from bot.tables.service import Outcome, Refusal, Table
from cogs.acting import Interaction, manager_of
from cogs.admin import manage_server_only
from cogs.arguments import GameText
from rules import registry

if TYPE_CHECKING:
    from bot.process.client import CardTableBot

log = logging.getLogger(__name__)

PERIOD_CHOICES = [
    app_commands.Choice(name="all time", value="all"),
    app_commands.Choice(name="this season", value="season"),
    app_commands.Choice(name="this month", value="month"),
    app_commands.Choice(name="global (players who opted in)", value="global"),
]
GAME_HELP = f"{registry.choices_text()} (default: the most played here)"  # command texts: the Translator's
_BOARD = r"lb:(?P<dir>[pn]):(?P<guild>\d{1,19}):(?P<game>[a-z_]+):(?P<period>all|season|month|global):(?P<key>[0-9-]*)"
NOT_ADMIN = N_("Only members who can manage this server can do that.")


def store_of(interaction: Interaction) -> Store:
    store = interaction.client.store
    assert store is not None, "interactions arrive only after setup_hook opened the store"
    return store


def board_title(board: stats.Board, guild_name: str) -> str:
    key = board.key
    if key.period == "all":
        where = _("{server}, all time", server=guild_name)
    elif key.period == "season":
        where = _("{server}, season {season}", server=guild_name, season=key.key)
    elif key.period == "month":
        where = f"{guild_name}, {_month_name(key.key)}"
    else:
        where = _("global (players who opted in)")
    return f"{game_name(key.game)} — {where}"


MONTHS = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"), N_("August"),
          N_("September"), N_("October"), N_("November"), N_("December"))  # fmt: skip


def _month_name(month: str) -> str:
    """A month in the reader's words (not strftime's, which speaks the process's locale)."""
    try:
        when = datetime.strptime(month, "%Y-%m")
    except ValueError:
        return month
    return _("{month} {year}", month=_(MONTHS[when.month - 1]), year=when.year)


def board_text(board: stats.Board) -> str:
    if not board.rows:
        return _("No rated games yet. Rated games are finished games between players only (no computer players).")
    lines = [
        f"`{r['rank']:>3}` **{discord.utils.escape_markdown(r['name'])}** · {r['rating']} · "
        + ngettext(
            "{games} game · {rate}% won",
            "{games} games · {rate}% won",
            r["games"],
            games=r["games"],
            rate=round(100 * r["win_rate"]),
        )
        for r in board.rows
    ]
    return "\n".join(lines)


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=_BOARD + r":(?P<page>\d{1,6})"):
    """Previous / next page of a leaderboard; everything needed is in the custom id."""

    def __init__(self, key: stats.BoardKey, page: int, direction: str, *, disabled: bool = False):
        label = _("◀ Previous") if direction == "p" else _("Next ▶")
        cid = f"lb:{direction}:{key.guild_id}:{key.game}:{key.period}:{key.key}:{page}"
        super().__init__(discord.ui.Button(label=label, custom_id=cid, disabled=disabled))
        self.key, self.page, self.direction = key, page, direction

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        key = stats.BoardKey(int(match["guild"]), match["game"], match["period"], match["key"])
        return cls(key, int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # always our bot's interaction
        # A button: neither the tree's error handler nor its language reach it.
        async with answering_errors(interaction):
            current_language.set(await language_of(interaction))
            if self.key.guild_id != interaction.guild_id:  # only a forged id names another server
                raise Refusal("That leaderboard belongs to another server.")
            await show_board(interaction, self.key, self.page, edit=True)


def page_view(board: stats.Board) -> discord.ui.View | None:
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(board.key, max(1, board.page - 1), "p", disabled=board.page <= 1))
    view.add_item(PageButton(board.key, min(board.pages, board.page + 1), "n", disabled=board.page >= board.pages))
    return view


async def show_board(interaction: Interaction, key: stats.BoardKey, page: int, *, edit: bool) -> None:
    """One page of a leaderboard: a new message, or (``edit``, a page button) the same message turned."""
    board = await stats.leaderboard(store_of(interaction), key, page)
    guild_name = interaction.guild.name if interaction.guild else _("this server")
    title = board_title(board, guild_name)
    png = await images.render(
        "render_leaderboard",
        [{k: r[k] for k in ("rank", "name", "rating", "games", "win_rate")} for r in board.rows],
        title=title,
        page=board.page,
        pages=board.pages,
        lang=current_language.get(),
    )
    embed = discord.Embed(title=title)
    embed.set_footer(
        text=ngettext(
            "Page {page} of {pages} · {players} rated player · rating = 1000 + 40 × (μ − 3σ), a conservative estimate",
            "Page {page} of {pages} · {players} rated players · rating = 1000 + 40 × (μ − 3σ), a conservative estimate",
            board.total,
            page=board.page,
            pages=board.pages,
            players=board.total,
        )
    )
    files = []
    if png is not None and board.rows:
        files = [discord.File(io.BytesIO(png), filename="leaderboard.png")]
        embed.set_image(url="attachment://leaderboard.png")
    else:
        embed.description = board_text(board)
    view = page_view(board)
    if edit:
        await interaction.response.edit_message(embed=embed, attachments=files, view=view)
    elif view is not None:
        await interaction.response.send_message(embed=embed, files=files, view=view)
    else:
        await interaction.response.send_message(embed=embed, files=files)


class Leaderboard(commands.Cog):
    def __init__(self, bot: CardTableBot):
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton)
        store = getattr(self.bot, "store", None)
        if store is not None:
            try:
                await rs.reconcile(store)
            except Exception:
                log.exception("could not record the results of ended tables at start-up")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton)

    # --- rated or not: notices in the table's channel, behind the table's own messages (the presenter's queue) ---

    @commands.Cog.listener()
    async def on_table_game_started(self, table: Table) -> None:
        if table.row.guild_id is None:
            return
        eligibility = rating_eligibility(
            guild_id=table.row.guild_id,
            players=table.players,
            seats=table.seats,
            hints=table.row.hints,
            open_review=table.row.open_review,
        )

        async def notice() -> str:  # worked out in the table's queue, so in the table's language
            if eligibility.rated:
                return _("Table #{table}: This game is rated.", table=table.id)
            return _(
                "Table #{table}: This game is not rated: {reason}.",
                table=table.id,
                reason=field_text(eligibility.words, current_language.get())
                if eligibility.words
                else eligibility.reason,
            )

        await self.bot.presenter.post(table, notice)

    @commands.Cog.listener()
    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        """Stand-ins and substitutes are judged at the end (bot/ratings/standins.py): when a game announced as rated
        is not rated after all, say so and why, after its score sheet."""
        if not outcome.game_over or table.row.guild_id is None:
            return
        start = rating_eligibility(
            guild_id=table.row.guild_id,
            players=table.players,
            seats=table.seats,
            hints=table.row.hints,
            open_review=table.row.open_review,
        )
        if start.rated:
            await self.bot.presenter.post(table, lambda: self._unrated_after_all(table))

    async def _unrated_after_all(self, table: Table) -> str | None:
        store = self.bot.store
        assert store is not None  # opened in setup_hook, before any table plays
        result = await rs.result_for_table(store, table.id)  # stored with the last action
        if result is None or result["rated"]:
            return None
        return _(
            "Table #{table}: this game is not rated after all: {reason}.",
            table=table.id,
            reason=result["unrated_reason"],
        )

    # --- /leaderboard ------------------------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="The rating leaderboard of a game on this server")
    @app_commands.describe(game=GAME_HELP, period="all time (default), this season, this month, or global",
                           season="an earlier season's number (with period: this season)")  # fmt: skip
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: Interaction,
        game: GameText | None = None,
        period: app_commands.Choice[str] | None = None,
        season: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        store = store_of(interaction)
        gid = await self._game(interaction, game)
        chosen = period.value if period else ("season" if season else "all")
        key = await stats.board_key(
            store, guild_id, gid, chosen, str(season) if season and chosen == "season" else None
        )
        await show_board(interaction, key, 1, edit=False)

    async def _game(self, interaction: Interaction, game: str | None) -> str:
        if game:
            try:
                return game_id(game)
            except OptionsError as e:
                raise Refusal(e.msgid, **e.fields) from None
        played = await stats.most_played_game(store_of(interaction), _guild(interaction))
        return played or registry.games()[0].id

    # --- /player: statistics, history and the global rating ----------------------------------------------------

    player = app_commands.Group(name="player", description="A player's statistics and games; your global rating")

    @player.command(name="stats", description="A player's statistics on this server")
    @app_commands.describe(
        player="whose (default: yours)", game=GAME_HELP.replace("the most played here", "every game")
    )
    async def stats_command(
        self, interaction: Interaction, player: discord.User | None = None, game: GameText | None = None
    ) -> None:
        guild_id = _guild(interaction)
        who = player or interaction.user
        store = store_of(interaction)
        gid = await self._game(interaction, game) if game else None
        found = await stats.player_stats(store, guild_id, who.id, gid)
        guild_name = interaction.guild.name if interaction.guild else _("this server")
        embed = discord.Embed(title=_("{player} — statistics on {server}", player=_name(who), server=guild_name))
        if not found:
            embed.description = (
                _("No finished games of {game} here yet.", game=game_name(gid))
                if gid
                else _("No finished games here yet.")
            )
        for s in found[:20]:
            embed.add_field(name=game_name(s.game), value=stats_text(s), inline=False)
        server = await stats.server_stats(store, guild_id)
        active = ", ".join(f"{discord.utils.escape_markdown(p['name'])} ({p['games']})" for p in server.most_active)
        embed.add_field(
            name=_("This server"),
            value=ngettext(
                "{week} game this week, {total} in all",
                "{week} games this week, {total} in all",
                server.games_this_week,
                week=server.games_this_week,
                total=server.games_all_time,
            )
            + ("\n" + _("Most active this week: {players}", players=active) if active else ""),
            inline=False,
        )
        await interaction.response.send_message(embed=embed)

    @player.command(name="history", description="A player's recent games on this server")
    @app_commands.describe(player="whose (default: yours)")
    async def history(self, interaction: Interaction, player: discord.User | None = None) -> None:
        guild_id = _guild(interaction)
        who = player or interaction.user
        recent = await stats.history(store_of(interaction), guild_id, who.id, limit=10)
        embed = discord.Embed(title=_("{player} — recent games", player=_name(who)))
        if not recent:
            embed.description = _("No ended games here yet.")
        else:
            embed.description = "\n".join(history_line(h, guild_id) for h in recent)
            embed.set_footer(text=_("Download a game's record with /table record table:<number>"))
        await interaction.response.send_message(embed=embed)

    @player.command(name="globalrating", description="Show (or hide) your rating on the global leaderboards")
    @app_commands.describe(enabled="true to be listed across servers, false to be hidden")
    async def globalrating(self, interaction: Interaction, enabled: bool) -> None:
        await rs.set_global_optin(store_of(interaction), interaction.user.id, enabled)
        await answer(
            interaction,
            _("You are now listed on the global leaderboards.") if enabled
            else _("You are no longer listed on the global leaderboards."),
        )  # fmt: skip

    @player.command(
        name="settings", description="How your turns reach you, and whether a forced card is played for you"
    )
    @app_commands.describe(
        turn_ping="when your turn comes: a mention in the channel, a DM, nothing, or the table clock's default",
        auto_play="play my only legal card for me (after a short pause)",
        language="the language of your hand, your choices and my answers to you (default: your Discord's)",
        four_colour="a four-colour pack in your hand's picture: diamonds blue, clubs green",
    )
    @app_commands.choices(
        turn_ping=[app_commands.Choice(name=n, value=n) for n in (*TURN_PINGS, "default")],
        language=[
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
            app_commands.Choice(name="default", value="default"),
        ],
    )
    async def settings(
        self,
        interaction: Interaction,
        turn_ping: app_commands.Choice[str] | None = None,
        auto_play: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        four_colour: bool | None = None,
    ) -> None:
        manager = manager_of(interaction)
        user_id = interaction.user.id
        current = await manager.player_settings(user_id)
        if turn_ping is not None or auto_play is not None or language is not None or four_colour is not None:
            ping = current.turn_ping if turn_ping is None else None if turn_ping.value == "default" else turn_ping.value
            lang = current.language if language is None else None if language.value == "default" else language.value
            current = replace(
                current,
                turn_ping=ping,
                auto_play=current.auto_play if auto_play is None else auto_play,
                four_colour=current.four_colour if four_colour is None else four_colour,
                language=lang,
            )
            await manager.set_player_settings(user_id, current)
            for table in manager.tables_of(user_id):  # their live hands are drawn again in the new colours
                interaction.client.presenter.refresh_hands(table)
        with speaking(await language_of(interaction)):
            await answer(interaction, player_settings_text(current))

    # --- administrators -------------------------------------------------------------------------------------------

    ratings = app_commands.Group(
        name="ratings",
        description="Administer this server's ratings",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @ratings.command(name="newseason", description="Start a new season (earlier seasons stay viewable)")
    @manage_server_only(NOT_ADMIN)
    async def newseason(self, interaction: Interaction) -> None:
        guild_id = _guild(interaction)
        number = await rs.start_season(store_of(interaction), guild_id, interaction.user.id)
        await interaction.response.send_message(
            _(
                "Season {season} has started: `/leaderboard period:this season` now counts from here. "
                "Earlier seasons: `/leaderboard season:<number>`.",
                season=number,
            )
        )

    @ratings.command(name="removegame", description="Remove a game from the ratings, with a reason (logged)")
    @app_commands.describe(table="the table number of the game", reason="why (kept in the log)")
    @manage_server_only(NOT_ADMIN)
    async def removegame(self, interaction: Interaction, table: int, reason: app_commands.Range[str, 3, 300]) -> None:
        guild_id = _guild(interaction)
        try:
            result = await rs.remove_game(store_of(interaction), guild_id, table, interaction.user.id, reason)
        except LookupError as e:
            raise Refusal("{reason}.", reason=str(e).capitalize()) from None
        log.info("guild %s: %s removed table %d from the ratings: %s", guild_id, interaction.user.id, table, reason)
        await interaction.response.send_message(
            _(
                "Table #{table} ({game}) is removed from the ratings: {reason}. "
                "The ratings were recomputed without it.",
                table=table,
                game=game_name(result["game"]),
                reason=reason,
            )
        )

    @ratings.command(name="recompute", description="Rebuild every rating from the stored results (maintenance)")
    @manage_server_only(NOT_ADMIN)
    async def recompute(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = store_of(interaction)
        await rs.reconcile(store)
        count = await rs.recompute(store, by=interaction.user.id)
        await interaction.followup.send(
            ngettext(
                "Recomputed the ratings from {count} rated game.",
                "Recomputed the ratings from {count} rated games.",
                count,
                count=count,
            ),
            ephemeral=True,
        )

    @ratings.command(name="log", description="What administrators did to this server's ratings")
    @manage_server_only(NOT_ADMIN)
    async def ratings_log(self, interaction: Interaction) -> None:
        guild_id = _guild(interaction)
        entries = await rs.rating_log(store_of(interaction), guild_id, limit=15)
        seasons = await rs.seasons(store_of(interaction), guild_id)
        lines = [f"`{e['at'][:16]}` <@{e['user_id']}> {log_entry_text(e)}" for e in entries] or [_("Nothing yet.")]
        lines.append(_("Seasons: {seasons}", seasons=", ".join(str(s["number"]) for s in seasons)))
        await answer(interaction, "\n".join(lines))


def log_entry_text(entry: dict) -> str:
    """A ratings' log entry in the reader's language (the game by its name); an older row as it was written."""
    words = entry["words"]
    if words is None:
        return entry["detail"]
    fields = {**words.fields, **({"game": game_name(words.fields["game"])} if "game" in words.fields else {})}
    return _(words.msgid, **fields)


def stats_text(s: stats.GameStats) -> str:
    made = (
        _("{made}/{taken} made ({rate}%)", made=s.contracts_made, taken=s.contracts, rate=round(100 * s.made_rate))
        if s.made_rate is not None
        else _("none")
    )
    lines = [
        ngettext("{games} game · won {wins} ({rate}%)", "{games} games · won {wins} ({rate}%)", s.games,
                 games=s.games, wins=s.wins, rate=round(100 * s.win_rate))
        + " · "
        + ngettext("{deals} deal played", "{deals} deals played", s.deals, deals=s.deals),
        _("Contracts taken: {made} · average points {average} · sweeps {sweeps}",
          made=made, average=f"{s.average_points:.1f}", sweeps=s.sweeps),
        _("Current streak: {streak}", streak=streak_text(s.streak)),
    ]  # fmt: skip
    if s.partner:
        lines.append(_("Favourite partner: {partner} ({games} games, {wins} won)",
                       partner=discord.utils.escape_markdown(s.partner["name"]), games=s.partner["games"],
                       wins=s.partner["wins"]))  # fmt: skip
    if s.rating:
        lines.append(_("Rating **{rating}** (#{rank} here)", rating=s.rating["rating"], rank=s.rating["rank"]))
    else:
        lines.append(_("Not rated here yet"))
    if s.global_rating:
        lines.append(
            _("Global rating {rating} (#{rank})", rating=s.global_rating["rating"], rank=s.global_rating["rank"])
        )
    return "\n".join(lines)


def streak_text(streak: int) -> str:
    """A run of wins (positive) or losses (negative) in words."""
    if not streak:
        return "—"
    if streak > 0:
        return _("{count} win", count=streak) if streak == 1 else _("{count} wins", count=streak)
    return _("{count} loss", count=-streak) if streak == -1 else _("{count} losses", count=-streak)


STATUS_WORDS = {"cancelled": N_("cancelled"), "abandoned": N_("abandoned"), "ended": N_("ended")}


def history_line(h: dict, guild_id: int) -> str:
    when = f"<t:{_epoch(h['finished_at'])}:R>"
    if h["status"] != "finished":
        status = h["status"]
        outcome = _(STATUS_WORDS[status]) if status in STATUS_WORDS else status
    else:
        said = N_("**won** ({place}, {points} pts)") if h["won"] else N_("lost ({place}, {points} pts)")
        outcome = _(said, place=_ordinal(h["place"]), points=h["points"])
    change = h["rating_change"]
    rating = (
        _("rating {change}", change=f"{change:+d}")
        if change is not None
        else _("unrated: {reason}", reason=h["unrated_reason"])
    )
    link = _("table #{table}", table=h["table_id"])
    if h["message_id"]:
        link = f"[{link}](https://discord.com/channels/{guild_id}/{h['channel_id']}/{h['message_id']})"
    return f"{link} · {game_name(h['game'])} · {outcome} · {rating} · {when}"


def _ordinal(n: int) -> str:
    if current_language.get() == DEFAULT:
        return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    # Translators: a place in a game's ranking (1st, 2nd…); other languages have one form
    return _("{place}th", place=n)


def _epoch(iso: str) -> int:
    try:
        return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return 0


def _name(user: discord.abc.User) -> str:
    return discord.utils.escape_markdown(getattr(user, "display_name", None) or user.name)


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal("Leaderboards and statistics are per server: use this command in a server.")
    return interaction.guild_id


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Leaderboard(bot))


PING_WORDS = {
    "channel": N_("a mention in the table's channel"),
    "dm": N_("a DM (a mention in the channel if your DMs are closed)"),
    "off": N_("no ping (the clock's reminders still come)"),
}


def player_settings_text(settings: PlayerSettings) -> str:
    if settings.turn_ping is None:
        ping = _("the table clock's default: a mention in the channel at live and casual tables, a DM at async ones")
    else:
        ping = _(PING_WORDS[settings.turn_ping])
    auto = (
        _("on: your only legal card is played for you")
        if settings.auto_play
        else _("off: you play every card yourself")
    )
    pack = _("four colours (♦ blue, ♣ green)") if settings.four_colour else _("two colours (♥ ♦ red, ♠ ♣ black)")
    language = LANGUAGES[settings.language] if settings.language in LANGUAGES else _("your Discord's language")
    return _(
        "**Your settings**\n• Turn pings: {ping}.\n• Auto-play: {auto}.\n• Your hand's pack: {pack}.\n"
        "• Language: {language}.\n"
        "Change them with `/player settings turn_ping:… auto_play:… four_colour:… language:…`.",
        ping=ping,
        auto=auto,
        pack=pack,
        language=language,
    )
