"""What players type after a command, turned into what the cogs work with: discord.py ``Transformer``s for a card (or
several), a bid, a trump suit and a table number, each with autocomplete of the user's choices.

A card or bid argument becomes a record-style action; the engine still says whether it is legal.  What the
autocomplete list offers carries the exact action, so picking from it never needs parsing.  A value that cannot be
read is a ``Refusal`` with the parser's message, which the tree's error handler shows (bot/presentation/errors.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n.typed_cards import bid_to_short_form, to_short_form
from bot.presentation.choices import Unreadable, decode, encode, label, parse_bid, parse_cards, parse_suit
from bot.presentation.language import language_of
from bot.presentation.messages import game_name
from bot.tables.service import Refusal, Table
from cogs.acting import VERSION_KEY, Interaction, find_table, legal_for, manager_of

Action = dict[str, Any]
# discord.py calls a transformer with any client's interaction; ours are always CardTableBot's (cogs/acting.py).
AnyInteraction = discord.Interaction[Any]
Choices = list[app_commands.Choice[int | float | str]]  # what Transformer.autocomplete returns
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps"}
CHOICES_LIMIT = 25  # Discord shows at most 25 autocomplete choices
CHOICE_NAME_LIMIT = 100


def typed_forms(action: Action) -> list[str]:
    """How a player may type a bid: "100 H", "100h", "100 hearts", "capot s", "8H"."""
    words = [str(action[k]) for k in ("value", "tricks", "contract") if action.get(k) is not None]
    suit = action.get("suit")
    if not suit:
        return words
    return [f for w in words for f in (f"{w} {suit}", f"{w}{suit}", f"{w} {SUIT_WORDS.get(suit, suit)}")]


async def legal_choices(interaction: Interaction, kind: str, current: str) -> Choices:
    """Autocomplete: the user's legal actions of this kind whose label (or typed form) matches what they typed."""
    try:
        number = getattr(interaction.namespace, "table", None)
        given = await manager_of(interaction).get(number) if number is not None else None
        table = await find_table(interaction, given)
    except Refusal:
        return []
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return []
    typed = current.strip().lower()
    out: Choices = []
    for action in legal_for(table, seat):
        if action["type"] != kind:
            continue
        text = label(action)
        plain = " ".join(action.get("cards", [])) + " " + " | ".join(typed_forms(action))
        if typed and typed not in text.lower() and typed not in plain.lower():
            continue
        out.append(app_commands.Choice(name=text[:CHOICE_NAME_LIMIT], value=offered(action, table.version)))
        if len(out) == CHOICES_LIMIT:
            break
    return out


def offered(action: Action, version: int) -> str:
    """An autocomplete choice's value: the action, and the table's version when the choice was offered (so that the
    command means the moment the player saw; ``acting.perform`` refuses it once the table moved on)."""
    value = encode({**action, VERSION_KEY: version})
    return value if len(value) <= CHOICE_NAME_LIMIT else encode(action)[:CHOICE_NAME_LIMIT]


class ActionArgument(app_commands.Transformer):
    """A typed argument as an action: ``parse`` reads what was typed (cards and bids also as the player's language
    writes them: bot/i18n/typed_cards.py); an autocomplete pick is taken as it is."""

    def __init__(self, parse: Callable[[str], Action], *, bid: bool = False):
        self.parse = parse
        self.bid = bid

    @property
    def max_value(self) -> int:  # for a string: its longest length, which Discord enforces
        return ARGUMENT_LENGTH

    async def transform(self, interaction: AnyInteraction, value: str) -> Action:
        picked = decode(value)
        if picked is not None:
            return picked
        lang = await language_of(interaction)
        value = bid_to_short_form(value, lang) if self.bid else to_short_form(value, lang)
        try:
            return self.parse(value)
        except Unreadable as e:
            raise Refusal(e.msgid, **e.fields) from None
        except ValueError as e:
            raise Refusal(str(e)) from None


class OfferedAction(ActionArgument):
    """An action argument whose autocomplete offers the user's legal actions of ``kind``."""

    def __init__(self, kind: str, parse: Callable[[str], Action]):
        super().__init__(parse, bid=kind == "bid")
        self.kind = kind

    async def autocomplete(self, interaction: AnyInteraction, value: int | float | str) -> Choices:
        return await legal_choices(interaction, self.kind, str(value))


class SuitArgument(ActionArgument):
    """The trump suit, picked from Discord's list of choices."""

    @property
    def choices(self) -> Choices:
        names = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs", "NT": "no trumps"}
        choices: Choices = [app_commands.Choice(name=name, value=suit) for suit, name in names.items()]
        return choices


def _one_card(kind: str) -> Callable[[str], Action]:
    return lambda text: {"type": kind, "card": parse_cards(text)[0]}


def _cards(kind: str) -> Callable[[str], Action]:
    return lambda text: {"type": kind, "cards": parse_cards(text)}


# One instance per argument, used as ``app_commands.Transform[Action, PLAY]`` in a command's signature.
PLAY = OfferedAction("play", _cards("play"))
EXPOSE = OfferedAction("expose", _one_card("expose"))
CALL = OfferedAction("call", _one_card("call"))
BID = OfferedAction("bid", parse_bid)
DISCARD = ActionArgument(_cards("discard"))  # a set of cards to choose: the hand's menu offers them
TRUMP = SuitArgument(lambda text: {"type": "trump", "suit": parse_suit(text)})


class TableArgument(app_commands.Transformer):
    """A table number as the ``Table`` it names (refused if there is none); autocomplete lists the user's tables."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return TABLE_LIMIT

    async def transform(self, interaction: AnyInteraction, value: int) -> Table:
        if not 1 <= int(value) <= TABLE_LIMIT:
            raise Refusal("Table numbers are whole numbers from 1: see yours with /table list.")
        return await manager_of(interaction).get(int(value))

    async def autocomplete(self, interaction: AnyInteraction, value: int | float | str) -> Choices:
        typed = str(value or "").lstrip("#")
        mine = manager_of(interaction).tables_of(interaction.user.id, None, None)
        choices: Choices = [
            app_commands.Choice(name=f"#{t.id} {game_name(t.game)} ({t.status})"[:CHOICE_NAME_LIMIT], value=t.id)
            for t in sorted(mine, key=lambda t: t.id)
            if typed in str(t.id)
        ]
        return choices[:CHOICES_LIMIT]


# Bounds Discord enforces on what players type (the registered schema), so no argument is bigger than its use.
GameText = app_commands.Range[str, 1, 40]
NameText = app_commands.Range[str, 1, 40]  # a preset's name
ClockText = app_commands.Range[str, 1, 20]
OptionsText = app_commands.Range[str, 1, 300]
ListText = app_commands.Range[str, 1, 500]  # lists of clocks or channels
ARGUMENT_LENGTH = 300  # a card, cards or a bid as typed
TABLE_LIMIT = 2**53  # Discord's largest integer option; table numbers are far below it

TABLE_HELP = "the table number, when you play at several"
TableOption = app_commands.Transform[Table, TableArgument]
