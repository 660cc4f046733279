"""The slash commands of play: ``/bid``, ``/play``, ``/pass`` and the rest, with autocomplete of legal choices.

Each command turns what was typed (or picked from the autocomplete list, which carries the exact action) into a
record-style action and hands it to the table manager; the engine says whether it is legal.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.presentation.choices import decode, encode, label, parse_bid, parse_cards, parse_suit
from bot.presentation.messages import game_name
from bot.presentation.presenter import table_line
from bot.tables.service import Refusal
from cogs.acting import answering_errors, find_table, legal_for, manager_of, perform

TABLE_HELP = "the table number, when you play at several"


async def _legal_choices(interaction: discord.Interaction, kinds: tuple[str, ...], current: str):
    """Autocomplete: the user's legal actions of these kinds whose label matches what they typed."""
    try:
        table = await find_table(interaction, getattr(interaction.namespace, "table", None))
    except Refusal:
        return []
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return []
    typed = current.strip().lower()
    out = []
    for action in legal_for(table, seat):
        if action["type"] not in kinds:
            continue
        text = label(action)
        plain = " ".join(action.get("cards", [])) + " " + " | ".join(_typed_forms(action))
        if typed and typed not in text.lower() and typed not in plain.lower():
            continue
        out.append(app_commands.Choice(name=text[:100], value=encode(action)[:100]))
        if len(out) == 25:
            break
    return out


SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps"}


def _typed_forms(action: dict[str, Any]) -> list[str]:
    """How a player may type a bid: "100 H", "100h", "100 hearts", "capot s" (Belote), "8H" (Five Hundred)."""
    words = [str(action[k]) for k in ("value", "tricks", "contract") if action.get(k) is not None]
    suit = action.get("suit")
    if not suit:
        return words
    return [f for w in words for f in (f"{w} {suit}", f"{w}{suit}", f"{w} {SUIT_WORDS.get(suit, suit)}")]


def _typed(text: str, parse) -> dict[str, Any]:
    picked = decode(text)
    if picked is not None:
        return picked
    try:
        return parse(text)
    except ValueError as e:
        raise Refusal(str(e)) from None


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def _do(self, interaction: discord.Interaction, table_id: int | None, action: dict[str, Any]) -> None:
        async with answering_errors(interaction):
            await perform(interaction, await find_table(interaction, table_id), action)

    @app_commands.command(name="play", description="Play a card (or several, in Da Bai Fen)")
    @app_commands.describe(card="the card, e.g. AS or 10H; several separated by spaces", table=TABLE_HELP)
    async def play(self, interaction: discord.Interaction, card: str, table: int | None = None) -> None:
        async with answering_errors(interaction):
            action = _typed(card, lambda t: {"type": "play", "cards": parse_cards(t)})
            await perform(interaction, await find_table(interaction, table), action)

    @play.autocomplete("card")
    async def _play_choices(self, interaction: discord.Interaction, current: str):
        return await _legal_choices(interaction, ("play",), current)

    @app_commands.command(name="bid", description="Make a bid")
    @app_commands.describe(value="e.g. 65 (200), 8H or misere (500), 100 S or capot H (belote)", table=TABLE_HELP)
    async def bid(self, interaction: discord.Interaction, value: str, table: int | None = None) -> None:
        async with answering_errors(interaction):
            await perform(interaction, await find_table(interaction, table), _typed(value, parse_bid))

    @bid.autocomplete("value")
    async def _bid_choices(self, interaction: discord.Interaction, current: str):
        return await _legal_choices(interaction, ("bid",), current)

    @app_commands.command(name="pass", description="Pass (in the bidding)")
    async def pass_(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await self._do(interaction, table, {"type": "pass"})

    @app_commands.command(name="counter", description="Belote: counter (double) the bid, or recounter")
    async def counter(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async with answering_errors(interaction):
            found = await find_table(interaction, table)
            if found.game != "belote":
                raise Refusal(f"There is no counter in {game_name(found.game)}: only Belote Contrée has one.")
            seat = found.seat_of(interaction.user.id)
            kinds = {a["type"] for a in legal_for(found, seat)} if seat is not None else set()
            await perform(interaction, found, {"type": "recounter" if "recounter" in kinds else "counter"})

    @app_commands.command(name="trump", description="Name the trump suit")
    @app_commands.describe(suit="S, H, D, C (or NT where allowed)")
    @app_commands.choices(
        suit=[
            app_commands.Choice(name=n, value=v)
            for n, v in (
                ("♠ spades", "S"),
                ("♥ hearts", "H"),
                ("♦ diamonds", "D"),
                ("♣ clubs", "C"),
                ("no trumps", "NT"),
            )
        ]
    )
    async def trump(self, interaction: discord.Interaction, suit: str, table: int | None = None) -> None:
        async with answering_errors(interaction):
            action = _typed(suit, lambda t: {"type": "trump", "suit": parse_suit(t)})
            found = await find_table(interaction, table)
            if found.game == "belote":
                raise Refusal("In Belote Contrée the bid names trump: bid a value and a suit, like `/bid value:80 H`.")
            await perform(interaction, found, action)

    @app_commands.command(name="discard", description="Discard cards (kitty, widow, or Da Bai Fen's six)")
    @app_commands.describe(cards="the cards separated by spaces, e.g. 7C 8C 9D")
    async def discard(self, interaction: discord.Interaction, cards: str, table: int | None = None) -> None:
        async with answering_errors(interaction):
            action = _typed(cards, lambda t: {"type": "discard", "cards": parse_cards(t)})
            await perform(interaction, await find_table(interaction, table), action)

    @app_commands.command(name="expose", description="Da Bai Fen: show a trump-rank card to fix the trump suit")
    async def expose(self, interaction: discord.Interaction, card: str, table: int | None = None) -> None:
        async with answering_errors(interaction):
            action = _typed(card, lambda t: {"type": "expose", "card": parse_cards(t)[0]})
            await perform(interaction, await find_table(interaction, table), action)

    @expose.autocomplete("card")
    async def _expose_choices(self, interaction: discord.Interaction, current: str):
        return await _legal_choices(interaction, ("expose",), current)

    @app_commands.command(name="draw", description="Da Bai Fen: draw the next card from the stock")
    async def draw(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await self._do(interaction, table, {"type": "draw"})

    @app_commands.command(name="keep", description="Two Hundred (dealer keeps): take the contract at the high bid")
    async def keep(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await self._do(interaction, table, {"type": "keep"})

    @app_commands.command(name="call", description="Five Hundred, five players: call a partner's card, or go alone")
    @app_commands.describe(card="the card whose holder partners you; leave empty to play alone")
    async def call(self, interaction: discord.Interaction, card: str | None = None, table: int | None = None) -> None:
        async with answering_errors(interaction):
            action: dict[str, Any] = {"type": "call"}
            if card:
                action = _typed(card, lambda t: {"type": "call", "card": parse_cards(t)[0]})
            await perform(interaction, await find_table(interaction, table), action)

    @call.autocomplete("card")
    async def _call_choices(self, interaction: discord.Interaction, current: str):
        return await _legal_choices(interaction, ("call",), current)

    @app_commands.command(name="claim_draw", description="Da Bai Fen: show a hand without trumps to annul the deal")
    async def claim_draw(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await self._do(interaction, table, {"type": "claim_draw"})

    @app_commands.command(name="tables", description="Your tables that are being played")
    async def tables(self, interaction: discord.Interaction) -> None:
        async with answering_errors(interaction):
            mine = manager_of(interaction).tables_of(interaction.user.id, None, None)
            if interaction.guild_id is not None:  # across this server (all servers from a DM)
                mine = [t for t in mine if t.row.guild_id == interaction.guild_id]
            if not mine:
                raise Refusal("You are not seated at any open table.")
            clocks = interaction.client.clocks  # type: ignore[attr-defined]
            now = clocks.clock.now()
            lines = [table_line(t, interaction.user.id, now) for t in sorted(mine, key=lambda t: t.id)]
            await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
