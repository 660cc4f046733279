"""What the rest of the program may know about a game, declared once beside its engine (after OpenSpiel's GameType).

The bot, the cogs, the pictures and the ratings read a game's ``GameType`` and never name a game: a new game is its
engine plus one of these, registered in ``rules.registry``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rules.seats import solo_teams

if TYPE_CHECKING:
    from rules.game import Match
    from rules.options import Option

LANGUAGES = ("en", "fr", "zh")

# Ranks high to low as records write them (the 11, 12 and 13 exist in the largest Five Hundred packs).
NATURAL_RANKS = ("A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2")

Teams = Sequence[tuple[int, ...]]


@dataclass(frozen=True)
class HandOrder:
    """How a player of the game holds the cards (for pictures only: the engine decides what wins a trick)."""

    plain: tuple[str, ...] = NATURAL_RANKS  # ranks high to low in a suit that is not trump
    trump: tuple[str, ...] | None = None  # the trump suit's own order, when it differs from ``plain``
    bowers: bool = False  # the jacks of trump's colour are the highest trumps (right bower, then left)


def each_alone(players: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    return tuple(solo_teams(players))


def no_sweeps(deal_result: Mapping[str, Any], teams: Teams) -> tuple[int, ...]:
    return ()


@dataclass(frozen=True)
class GameType:
    id: str  # the record's game id
    names: Mapping[str, str]  # display name by language: every one of LANGUAGES
    aliases: tuple[str, ...]  # what players type for ``game:``, lower case; the first is the short form shown
    engine: str  # "module:Class" of the ``Match``, imported on first use
    seat_counts: tuple[int, ...]  # the table sizes the engine accepts
    # Who scores together at a table of this size with these options (as typed: absent ones take their default).
    teams: Callable[[int, Mapping[str, Any]], tuple[tuple[int, ...], ...]] = each_alone
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: {"standard": {}})
    clockwise: bool = True  # the direction of play round the table
    hand_order: HandOrder = HandOrder()
    has_trump_rank: bool = False  # the cards of one rank are trumps, and the declarers' level is that rank
    scores_are_levels: bool = False  # a side's score is a level (2 .. A), not points
    dealer_word: str = "dealer"  # what the rules call the seat in the record's ``dealer``
    # The game's own words for what the player to move is doing, by phase, where they say more than "to exchange".
    phase_words: Mapping[str, str] = field(default_factory=dict)
    has_counter: bool = False  # a "counter" action doubles the contract (and "recounter" doubles it again)
    bid_names_trump: bool = False  # a bid is a value and a suit: there is no separate "trump" action
    auction_on_table: bool = False  # the table message lists the bidding's calls so far (bids of a value and a suit)
    # What a card played with an announcement is worth, by the ``announce`` of its play action (the hand says so).
    announcements: Mapping[str, str] = field(default_factory=dict)
    leader_not_contract: bool = False  # each deal has a leader (no bid), so there is no contract to make or fail
    sweep_word: str = "sweep"  # what players call a side taking every trick or every point
    # The seats whose side swept the deal, from its record result and the game's scoring teams.
    sweepers: Callable[[Mapping[str, Any], Teams], tuple[int, ...]] = no_sweeps
    computer_strategy: bool = False  # the computer players beyond ``random`` know this game (rules/ai)
    # ``/rules``: a short summary in players' words, one (title, text) per page, written from the rule text.
    rules_summary: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        missing = [lang for lang in LANGUAGES if not self.names.get(lang)]
        if missing:
            raise ValueError(f"game {self.id!r} has no name in {', '.join(missing)}")
        if not self.aliases or any(a != a.strip().lower() for a in self.aliases):
            raise ValueError(f"game {self.id!r} needs aliases written in lower case")
        object.__setattr__(self, "names", MappingProxyType(dict(self.names)))
        object.__setattr__(self, "presets", MappingProxyType({k: dict(v) for k, v in self.presets.items()}))
        object.__setattr__(self, "phase_words", MappingProxyType(dict(self.phase_words)))
        object.__setattr__(self, "announcements", MappingProxyType(dict(self.announcements)))

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]

    @property
    def short_name(self) -> str:
        """What players type, e.g. in help texts and in the autocomplete's values."""
        return self.aliases[0]

    def match_class(self) -> type[Match]:
        module, _, name = self.engine.partition(":")
        return getattr(importlib.import_module(module), name)

    def options(self) -> Sequence[Option]:
        """The engine's option schema (name, default, allowed values, meaning of each)."""
        return self.match_class().OPTIONS
