"""What every game offers: a match (a whole game of many deals) that lists legal actions and applies one.

In the spirit of OpenSpiel: the state is derived by applying actions in order; nothing else changes it.  A game
module subclasses ``Match`` and reads like its rule book; this base class holds the parts that are the same for all
four games (options, the deal sequence, the replay output's shape).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES, cards_of
from rules.dealing import DealCards, check_hands, deal_hands
from rules.errors import IllegalAction, RecordError, Term, Words
from rules.events import DealScored, Event, GameOver, TrickWon
from rules.options import Option, resolve_options
from rules.view import public_of

DEAL, BIDDING, EXCHANGE, TRUMP, PLAY, BETWEEN_DEALS, GAME_OVER = (
    "deal", "bidding", "exchange", "trump", "play", "between_deals", "game_over",
)  # fmt: skip
PHASES = (DEAL, BIDDING, EXCHANGE, TRUMP, PLAY, BETWEEN_DEALS, GAME_OVER)

LegalAction = Action | DiscardChoice


class Match(ABC):
    """A whole game: options, dealer rotation, cumulative scores, and the current deal."""

    game_id: ClassVar[str]
    OPTIONS: ClassVar[Sequence[Option]]
    # The keys of ``state_json`` that everyone at the table sees (rules/view.py): an allow-list, so that a key a
    # game adds later stays private until it is declared here.
    PUBLIC_KEYS: ClassVar[frozenset[str]] = frozenset()
    # What ``clone()`` copies: the attributes that play changes in place (lists, the auction, the trick play), each
    # given its own ``.copy()``; every other attribute is shared, since play only ever replaces it.  None: deepcopy.
    CLONE_COPIES: ClassVar[tuple[str, ...] | None] = None
    # Public keys holding the card points inside won tricks: those lie face down during a deal (trick counts stay,
    # the piles are on the table) and are public again once the deal is over, as its result.
    FACE_DOWN_KEYS: ClassVar[frozenset[str]] = frozenset()
    # How long the last completed trick may be looked at (rules/lookback.py): by default until its winner leads to
    # the next trick, when it is turned face down; a game whose rules leave it in view longer says so.
    LOOK_BACK: ClassVar[str] = "until_next_lead"

    def __init__(self, options: dict[str, Any] | None = None, first_dealer: int = 0):
        self.options = resolve_options(self.OPTIONS, options)
        self.check_options()
        self.players: int = self.options["players"]
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
            raise RecordError(f"'first_dealer' must be a seat number, not {first_dealer!r}")
        if not 0 <= first_dealer < self.players:
            raise RecordError(f"'first_dealer' must be a seat from 0 to {self.players - 1}, not {first_dealer}")
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.deal_index = -1  # no deal started yet
        self.phase = BETWEEN_DEALS
        self.deal_results: list[dict] = []
        # Beside each deal result whose game says it in words: its explanation as ``Words`` (one tuple per result,
        # empty where the game gives none), which the bot says in each table's language; the record keeps English.
        self.explanations: list[tuple[Words, ...]] = []
        self.winner: int | None = None

    # --- what each game provides ---------------------------------------------------------------------------

    def check_options(self) -> None:
        """Cross-option checks (one option's range depending on another); raise ``RecordError``."""

    @abstractmethod
    def pack(self) -> list[int]:
        """The full pack these options call for."""

    def hand_sizes(self) -> list[int]:
        raise NotImplementedError

    def kitty_size(self) -> int:
        return 0

    def check_deal(self, cards: DealCards) -> None:
        """Validate a deal's cards against the pack (``RecordError`` with what is wrong)."""
        if cards.stock is not None:
            raise RecordError(f"{self.game_id} deals hands, not a stock")
        check_hands(cards, self.pack(), self.hand_sizes(), self.kitty_size())

    def random_deal(self, rng: random.Random) -> DealCards:
        return deal_hands(self.pack(), rng, self.hand_sizes(), self.kitty_size())

    @abstractmethod
    def next_dealer(self) -> int:
        """The dealer of the deal about to start (called before each deal after the first)."""

    @abstractmethod
    def begin_deal(self, cards: DealCards) -> None:
        """Set up the deal's state from validated cards and set ``self.phase``."""

    @abstractmethod
    def legal_actions(self) -> list[LegalAction]:
        """Every legal action now (discards as one ``DiscardChoice``)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise ``IllegalAction`` having changed nothing."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat expected to act now (None between deals and at the end)."""

    @abstractmethod
    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds now."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Cumulative scores in the record output's shape."""

    @abstractmethod
    def state_json(self) -> dict:
        """The game-specific output keys: at least ``trump``, ``contract`` and ``trick``."""

    # --- shared -----------------------------------------------------------------------------------------------

    def start_deal(self, cards: DealCards) -> None:
        if self.phase == GAME_OVER:
            raise RecordError("a deal is listed after the game ended")
        if self.phase != BETWEEN_DEALS:
            raise RecordError(f"a deal is listed after deal {self.deal_index} which is unfinished")
        self.check_deal(cards)
        if self.deal_index >= 0:
            self.dealer = self.next_dealer()
        self.deal_index += 1
        self.begin_deal(cards)

    def check_turn(self, action: Action) -> None:
        """Common checks of who acts: seat in range and on turn."""
        if not 0 <= action.seat < self.players:
            raise IllegalAction(
                "there is no seat {seat} at a {players}-player table", seat=action.seat, players=self.players
            )
        if self.phase in (BETWEEN_DEALS, GAME_OVER):
            if self.phase == GAME_OVER:
                raise IllegalAction("the game is over")
            raise IllegalAction("this deal is over; no more actions in it")
        if self.to_move is not None and action.seat != self.to_move:
            raise IllegalAction("it is not your turn: {seat} is to act", seat=Term("seat", self.to_move))

    def clone(self) -> Self:
        """An independent copy: computer players search on copies, thousands per decision, so a game that names its
        ``CLONE_COPIES`` is copied by those alone (an attribute not set yet, or None, is left as it is)."""
        if self.CLONE_COPIES is None:
            return copy.deepcopy(self)
        other = object.__new__(type(self))
        state = other.__dict__
        state.update(self.__dict__)
        for name in self.CLONE_COPIES:
            value = state.get(name)
            if value is not None:
                state[name] = value.copy()
        return other

    def legal_json(self) -> list[dict]:
        return [a.to_json() for a in self.legal_actions()]

    def output(self) -> dict:
        return self._state([] if self.phase in (BETWEEN_DEALS, GAME_OVER) else self.legal_json())

    def _state(self, legal: list[dict]) -> dict:
        out = {
            "game": self.game_id,
            "deal": max(self.deal_index, 0),
            "dealer": self.dealer,
            "phase": self.phase,
            "legal": legal,
            "trump": None,
            "contract": None,
            "trick": [],
            "scores": self.scores(),
            "deal_results": self.deal_results,
            "winner": self.winner,
            "error": None,
            "options": self.options,
        }
        out.update(self.state_json())
        if self.phase in (BETWEEN_DEALS, GAME_OVER):
            out["trick"] = []
        return out

    # --- what a table shows (rules/view.py explains the allow-list) -----------------------------------------

    def public_view(self) -> dict:
        """What everyone at the table (and a spectator) sees: only the keys this game declares public, and the
        facts it works out for the table; never a hand or the legal actions."""
        view = public_of(self._state([]), self.PUBLIC_KEYS) | self.public_facts()
        return view if self.phase in (BETWEEN_DEALS, GAME_OVER) else self.face_down(view)

    def face_down(self, view: dict) -> dict:
        """``view`` during a deal without what lies face down in the won tricks (``FACE_DOWN_KEYS``).  A game whose
        rules lay some of those cards face up overrides this.  The last trick leaves the view when ``LOOK_BACK``
        has it turned face down."""
        hidden = {k: v for k, v in view.items() if k not in self.FACE_DOWN_KEYS}
        if self.LOOK_BACK == "until_next_lead" and view.get("trick"):
            hidden.pop("last_trick", None)
        return hidden

    def open_view(self) -> dict:
        """The public view with nothing face down: what a table whose option opens the review (a learning table,
        never rated) shows during a deal, its running points included.  Still no hand and no legal action."""
        return public_of(self._state([]), self.PUBLIC_KEYS) | self.public_facts()

    def face_up_cards(self, winner: int, cards: tuple[str, ...]) -> list[str]:
        """The cards of a completed trick won by ``winner`` that the rules lay face up for the rest of the deal
        (record names); by default none: won tricks are gathered face down."""
        return []

    def deal_end_view(self) -> dict:
        """The public view as a deal ends (call it before the next deal starts): the scores after it, the tricks
        each side took, and its last trick as ``last_trick`` with ``last_trick_winner``."""
        view = self.public_view()
        if self.tricks_completed():
            winner, plays, _ = self.last_completed_trick()
            view["last_trick"] = [{"seat": s, "cards": [CARD_NAMES[c] for c in cards]} for s, cards in plays]
            view["last_trick_winner"] = winner
        return view

    def seat_view(self, seat: int, public: dict | None = None) -> dict:
        """What ``seat`` sees: the public view, its own hand and legal actions, and what only it knows (the cards
        it discarded, say).  Never another seat's hand.  ``public``: this state's ``public_view()`` when the caller
        has it already (copied, not changed)."""
        view = dict(public) if public is not None else self.public_view()
        between = self.phase in (BETWEEN_DEALS, GAME_OVER)
        view["seat"] = seat
        view["hand"] = self.hand_mask_names(seat)
        view["legal"] = [] if between else [a.to_json() for a in self.legal_actions() if a.seat == seat]
        view["lead_several"] = self.may_lead_several(seat)
        view["prompts"] = [] if between else self.seat_prompts(seat)
        view.update(self.seat_knowledge(seat))
        return view

    def public_facts(self) -> dict:
        """Facts of the rules the table shows, so that the bot need not work them out.  Games add their own."""
        return {
            "seat_teams": self.seat_teams(),
            "last_trick_winner": self.last_trick_winner(),
        }

    def seat_teams(self) -> list[int | None]:
        """Each seat's team (an index into the team scores), None in games of individuals."""
        return [None] * self.players

    def seat_knowledge(self, seat: int) -> dict:
        """What ``seat`` alone knows beyond its hand (its own discards, say); output keys, as in the record."""
        return {}

    def seat_prompts(self, seat: int) -> list[str]:
        """Sentences for ``seat``'s hand about a choice open to it now that it may not expect (record card names,
        "seat N"): e.g. a card just drawn that it may expose.  Empty in most games and states."""
        return [said.message for said in self.seat_prompt_words(seat)]

    def seat_prompt_words(self, seat: int) -> list[Words]:
        """``seat_prompts`` as words the bot says in each player's language."""
        return []

    def draw_ends_choices(self) -> bool:
        """Whether the next (automatic) draw closes choices still open to the players, such as turning up cards
        after which nobody may expose: a table with humans pauses before it so they can still decide."""
        return False

    def last_trick_winner(self) -> int | None:
        """The seat that won the last completed trick of this deal (None before the first)."""
        return self.last_completed_trick()[0] if self.tricks_completed() else None

    def may_lead_several(self, seat: int) -> bool:
        """Whether ``seat`` may now lead several cards at once (beyond those ``legal_actions`` lists)."""
        return False

    def lead_risk(self, seat: int, cards: list[int]) -> dict[str, list[str]]:
        """Before ``seat`` leads several cards at once: each card of the lead that a card ``seat`` cannot see could
        beat, with those cards.  Empty when the lead is safe, or the game has no such leads."""
        return {}

    # --- what happened (rules/events.py) ----------------------------------------------------------------------

    def apply_observed(self, action: Action) -> list[Event]:
        """``apply``, and what the action made happen.  The bot calls this; computer players' searches call
        ``apply`` (or faster paths) and pay nothing for events."""
        marks = self.event_marks()
        self.apply(action)
        return self.events_after(marks)

    def tricks_completed(self) -> int:
        """How many tricks of the current deal are complete."""
        return 0

    def side_points(self) -> list[int] | None:
        """Each side's card points taken in this deal so far (None in games that count tricks, not points)."""
        return None

    def last_completed_trick(self) -> tuple[int, list[tuple[int, list[int]]], int]:
        """The last complete trick: (its winner's seat, its plays as (seat, cards), the winner's side index for
        ``trick_points``).  Only called when ``tricks_completed()`` is positive."""
        raise NotImplementedError

    def event_marks(self) -> tuple:
        """What ``events_after`` compares with: cheap counters taken before an action."""
        points = self.side_points()
        return (
            self.deal_index,
            self.tricks_completed(),
            list(points) if points else None,
            len(self.deal_results),
            self.phase,
        )

    def events_after(self, marks: tuple) -> list[Event]:
        deal, tricks, points, results, phase = marks[:5]
        events: list[Event] = []
        if self.deal_index == deal and self.tricks_completed() > tricks:
            seat, plays, side = self.last_completed_trick()
            now = self.side_points()
            gained = None if now is None or points is None else now[side] - points[side]
            named = tuple((s, tuple(CARD_NAMES[c] for c in cards)) for s, cards in plays)
            events.append(TrickWon(seat, named, gained))
        for index in range(results, len(self.deal_results)):
            result = self.deal_results[index]
            explain = result.get("explain")
            events.append(
                DealScored(
                    deal=self.deal_index,
                    score_change=tuple(result.get("score_change") or ()),
                    scores=tuple(self.scores()),
                    explain=explain if isinstance(explain, str) else None,
                    thrown_in=bool(result.get("thrown_in")),
                    table=self.deal_end_view(),
                )
            )
        if self.phase == GAME_OVER and phase != GAME_OVER:
            events.append(GameOver(self.winner))
        return events

    def hand_mask_names(self, seat: int) -> list[str]:
        return [CARD_NAMES[c] for c in self.hand(seat)]

    @staticmethod
    def cards_in(mask: int) -> list[int]:
        return cards_of(mask)
