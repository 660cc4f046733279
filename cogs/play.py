"""The slash commands of play: ``/play``, ``/bid`` and ``/pass`` at the top level (typed every deal), and the moves
of one game or variant under ``/move`` (each is also a button or menu on the hand), with autocomplete of legal choices.

Each command's argument is read by a transformer (cogs/arguments.py) into a record-style action that goes to the
table manager; the engine says whether it is legal.  Refusals reach the player through the tree's error handler.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.presentation.choices import encode, label
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.errors import answer
from bot.presentation.messages import game_name
from bot.tables.service import Refusal, Table
from cogs.acting import Interaction, find_table, legal_for, perform
from cogs.arguments import BID, CALL, DISCARD, EXPOSE, PLAY, TABLE_HELP, TRUMP, Action, TableOption
from rules import registry


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    # --- the top level: what players type every deal ------------------------------------------------------

    @app_commands.command(name="play", description="Play a card (or several, in Da Bai Fen)")
    @app_commands.describe(card="the card, e.g. AS or 10H; several separated by spaces", table=TABLE_HELP)
    async def play(
        self, interaction: Interaction, card: app_commands.Transform[Action, PLAY], table: TableOption | None = None
    ) -> None:
        await perform(interaction, await find_table(interaction, table), card)

    @app_commands.command(name="bid", description="Make a bid")
    @app_commands.describe(value="e.g. 65, 8H, misere, 100 S or capot H", table=TABLE_HELP)
    async def bid(
        self, interaction: Interaction, value: app_commands.Transform[Action, BID], table: TableOption | None = None
    ) -> None:
        await perform(interaction, await find_table(interaction, table), value)

    @app_commands.command(name="pass", description="Pass (in the bidding)")
    @app_commands.describe(table=TABLE_HELP)
    async def pass_(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await perform(interaction, await find_table(interaction, table), {"type": "pass"})

    # --- /move: one game's or variant's moves, also on the hand's buttons and menus -----------------------

    move = app_commands.Group(name="move", description="The moves of one game or variant: trump, discard, counter…")

    @move.command(name="counter", description="Counter (double) the bid, or recounter")
    @app_commands.describe(table=TABLE_HELP)
    async def counter(self, interaction: Interaction, table: TableOption | None = None) -> None:
        found = await find_table(interaction, table)
        if not registry.game_type(found.game).has_counter:
            having = " and ".join(g.name() for g in registry.games() if g.has_counter)
            raise Refusal(
                "There is no counter in {game}: only {having} has one.", game=game_name(found.game), having=having
            )
        # What the player saw is a bid to counter: never turn that into a recounter because the table moved on.
        version = found.version
        if not self._only_recounter(interaction, found):
            try:
                await perform(interaction, found, {"type": "counter"}, version=version)
                return
            except Refusal:
                if found.version == version or not self._only_recounter(interaction, found):
                    raise
        await offer_recounter(interaction, found)

    @staticmethod
    def _only_recounter(interaction: Interaction, table: Table) -> bool:
        seat = table.seat_of(interaction.user.id)
        kinds = {a["type"] for a in legal_for(table, seat)} if seat is not None else set()
        return "recounter" in kinds and "counter" not in kinds

    @move.command(name="trump", description="Name the trump suit")
    @app_commands.describe(suit="S, H, D, C (or NT where allowed)", table=TABLE_HELP)
    async def trump(
        self, interaction: Interaction, suit: app_commands.Transform[Action, TRUMP], table: TableOption | None = None
    ) -> None:
        found = await find_table(interaction, table)
        if registry.game_type(found.game).bid_names_trump:
            raise Refusal(
                "In {game} the bid names trump: bid a value and a suit, like `/bid value:80 H`.",
                game=game_name(found.game),
            )
        await perform(interaction, found, suit)

    @move.command(name="discard", description="Discard cards (kitty, widow, or Da Bai Fen's six)")
    @app_commands.describe(cards="the cards separated by spaces, e.g. 7C 8C 9D", table=TABLE_HELP)
    async def discard(
        self,
        interaction: Interaction,
        cards: app_commands.Transform[Action, DISCARD],
        table: TableOption | None = None,
    ) -> None:
        await perform(interaction, await find_table(interaction, table), cards)

    @move.command(name="expose", description="Da Bai Fen: show a trump-rank card to fix the trump suit")
    @app_commands.describe(card="the trump-rank card", table=TABLE_HELP)
    async def expose(
        self, interaction: Interaction, card: app_commands.Transform[Action, EXPOSE], table: TableOption | None = None
    ) -> None:
        await perform(interaction, await find_table(interaction, table), card)

    @move.command(name="draw", description="Da Bai Fen: draw the next card from the stock")
    @app_commands.describe(table=TABLE_HELP)
    async def draw(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await perform(interaction, await find_table(interaction, table), {"type": "draw"})

    @move.command(name="keep", description="Two Hundred (dealer keeps): take the contract at the high bid")
    @app_commands.describe(table=TABLE_HELP)
    async def keep(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await perform(interaction, await find_table(interaction, table), {"type": "keep"})

    @move.command(name="call", description="Five Hundred, five players: call a partner's card, or go alone")
    @app_commands.describe(card="the card whose holder partners you; leave empty to play alone", table=TABLE_HELP)
    async def call(
        self,
        interaction: Interaction,
        card: app_commands.Transform[Action, CALL] | None = None,
        table: TableOption | None = None,
    ) -> None:
        await perform(interaction, await find_table(interaction, table), card or {"type": "call"})

    @move.command(name="claim_draw", description="Da Bai Fen: show a hand without trumps to annul the deal")
    @app_commands.describe(table=TABLE_HELP)
    async def claim_draw(self, interaction: Interaction, table: TableOption | None = None) -> None:
        await perform(interaction, await find_table(interaction, table), {"type": "claim_draw"})


async def offer_recounter(interaction: Interaction, table: Table) -> None:
    """The bid was countered before this player's /counter: ask, with a button for this moment of the table only."""
    recounter = {"type": "recounter"}
    button = TableButton(ComponentId(table.id, "act", table.version, encode(recounter)), label(recounter))
    await answer(
        interaction,
        "⛔ "
        + _(
            "Your opponents have already countered at table #{table}, so there is nothing left to counter. "
            "Recounter (×4) instead?",
            table=table.id,
        ),
        view=view_of(button),
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
