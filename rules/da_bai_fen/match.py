"""Da Bai Fen 打百分 (single-deck Sheng Ji): the draw, trump exposure, the kitty, multi-card leads and levels.

The rule text is pagat.com's "Da Bai Fen" (docs/rules/da_bai_fen.md names it and lists every choice made).
Seats are in order of play (anti-clockwise at the table): "the player to the starter's right" is seat starter + 1.
Teams: 0 = seats 0 and 2, 1 = seats 1 and 3.
"""

from __future__ import annotations

import random
from itertools import combinations

from rules.actions import Action, DiscardChoice
from rules.cards import (
    CARD_NAMES,
    NUM_CARD_IDS,
    SUITS,
    card,
    cards_of,
    nth_card,
    parse_card,
    rank_of,
    suit_of,
)
from rules.da_bai_fen.order import (
    PACK,
    PACK_MASK,
    PACK_SET,
    POINTS,
    TRUMP,
    TrumpOrder,
    beating_cards,
    points_of,
    trump_order,
)
from rules.da_bai_fen.scoring import level_name, level_rank, outcome, parse_level
from rules.dealing import DealCards, check_pack
from rules.errors import IllegalAction, RecordError, Term, Words
from rules.events import Event, ExposureOffered, FailedLead, LevelsChanged
from rules.game import BETWEEN_DEALS, DEAL, EXCHANGE, GAME_OVER, PLAY, Match
from rules.options import Option

HAND_SIZE = 12
BITS = tuple(1 << c for c in range(NUM_CARD_IDS))
DRAWN = 48  # 4 × 12 cards drawn; the last six of the 54 are the kitty
KITTY = 6

# How the declarers of a deal are chosen.
NORMAL = "normal"  # the declarers are known; the leader is the starter; trump rank = declarers' level
FIRST = "first"  # first deal: whoever exposes a card of the starting level leads; else the starter
SPECIAL = "special"  # after a draw: whoever exposes a card of their own side's level leads; else another draw


def _level_option(name: str, default: str, doc: str) -> Option:
    def check(value: object) -> str | None:
        if parse_level(value) is None:
            return f"give a rank 2..10, J, Q, K or A (or its number 2..14), not {value!r}"
        return None

    return Option(name, default, doc, kind=object, check=check)


def _team(seat: int) -> int:
    return seat & 1


def _describe_cards(cards) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def _card(c: int) -> Term:
    return Term("card", CARD_NAMES[c])


class DaBaiFen(Match):
    game_id = "da_bai_fen"
    OPTIONS = (
        Option("players", 4, "Da Bai Fen is a four-player partnership game", choices=(4,)),
        _level_option("target", "A", "the level a side must go above to win (a shorter game: e.g. '7')"),
        _level_option("start_level", "2", "the level both sides start at ('Starting at seven might be a better idea')"),
        Option(
            "level_step",
            40,
            "card points per game point: 40 (the main table) or 20 (the text's second table)",
            choices=(40, 20),
        ),  # fmt: skip
        Option("kitty_exposed", False, "the leader shows the six kitty cards to everyone before taking them"),
        Option(
            "kitty_multiplier",
            "double",
            "the kitty's counting cards go to the last trick's winner: 'double', or 'last_trick_size' (multiplied "
            "by the number of cards each player played to the last trick)",
            choices=("double", "last_trick_size"),
        ),  # fmt: skip
        Option("forty_is_draw", False, "opponents with exactly 40 points: a draw, and a special deal follows"),
        Option("twos_always_trump", False, "yuan zhu 元主: twos are always trumps, between the trump rank and the ace"),
        Option(
            "failed_throw",
            "revoke",
            "a multi-card lead that another hand beats: 'revoke' (the deal is scored as though the leader's side "
            "lost every trick) or 'lowest_card' (only its lowest card is played, as online sites do)",
            choices=("revoke", "lowest_card"),
        ),  # fmt: skip
        Option(
            "board_declarers",
            None,
            "a duplicate tournament's board: this team (0 or 1) declares the first deal as in any later deal (its "
            "starter, the first dealer, leads; the trump rank is the starting level), so every table plays it alike",
            choices=(None, 0, 1),
        ),  # fmt: skip
    )

    def __init__(self, options: dict | None = None, first_dealer: int = 0):
        super().__init__(options, first_dealer)
        self.levels = [self.start_level, self.start_level]
        self.declarers: int | None = None  # the team declaring the coming/current deal (None: decided by exposure)
        self.next_mode = FIRST
        self.next_starter = first_dealer
        board_declarers = self.options["board_declarers"]
        if board_declarers is not None:
            if _team(first_dealer) != board_declarers:
                raise RecordError(f"a board declared by team {board_declarers} needs its first dealer in that team")
            self.declarers, self.next_mode = board_declarers, NORMAL
        self._reset_deal_state()

    def check_options(self) -> None:
        self.target_level = parse_level(self.options["target"])
        self.start_level = parse_level(self.options["start_level"])
        if self.start_level > self.target_level:
            raise RecordError(
                f"the starting level {level_name(self.start_level)} is above the target {level_name(self.target_level)}"
            )
        self.kitty_by_trick_size = self.options["kitty_multiplier"] == "last_trick_size"
        self.twos_trump = self.options["twos_always_trump"]

    def _reset_deal_state(self) -> None:
        self.mode = FIRST
        self.stock: list[int] = []
        self.drawn = 0
        self.hands = [0, 0, 0, 0]
        self.kitty = 0  # the six cards left after the draw
        self.kitty_turned: list[int] = []
        self.exposed: tuple[int, int] | None = None  # (seat, card)
        self.trump_rank: int | None = None  # a level (2..14)
        self.order: TrumpOrder | None = None
        self.leader: int | None = None
        self.discarded = 0
        self.trick: list[tuple[int, tuple[int, ...]]] = []
        self.trick_leader = 0
        self.led_suit = -1
        self.lead_size = 0
        self.played = 0
        self.cards_played = 0
        self.points = [0, 0]  # card points taken in tricks (and the kitty bonus), per team
        self.tricks_won = [0, 0]
        self.last_trick: list[tuple[int, tuple[int, ...]]] = []
        self.last_winner: int | None = None
        self.trick_points = 0
        self.best_seat, self.best_key = -1, -1
        self.failed_throws: list[dict] = []

    # --- the pack and the deal --------------------------------------------------------------------------------

    def pack(self) -> list[int]:
        return list(PACK)

    def check_deal(self, cards: DealCards) -> None:
        if cards.stock is None:
            raise RecordError("a Da Bai Fen deal is a 'stock' of 54 cards drawn one at a time, not 'hands'")
        stock = cards.stock
        if len(stock) != len(PACK) or set(stock) != PACK_SET:
            if len(stock) != len(PACK) and len(set(stock)) == len(stock) and set(stock) <= set(PACK):
                raise RecordError(f"the stock must hold all {len(PACK)} cards, not {len(stock)}")
            check_pack(stock, PACK, "the stock")

    def random_deal(self, rng: random.Random) -> DealCards:
        # Sorting by random keys is a fair shuffle and twice as fast as rng.shuffle: simulations deal a lot.
        rand = rng.random
        return DealCards(stock=sorted(PACK, key=lambda _: rand()))

    def next_dealer(self) -> int:
        return self.next_starter

    def begin_deal(self, cards: DealCards) -> None:
        self._reset_deal_state()
        self.mode = self.next_mode
        self.stock = list(cards.stock)
        self.kitty = sum(1 << c for c in self.stock[DRAWN:])
        if self.mode == NORMAL:
            # "In subsequent hands the leader is the same player as the starter ... the trump rank is the current
            # score of the declarers."
            self.leader = self.dealer
            self.trump_rank = self.levels[self.declarers]
        elif self.mode == FIRST:
            self.trump_rank = self.start_level  # "for the first hand it must be two"
        self.phase = DEAL

    # --- whose turn, what is legal ----------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.phase == DEAL:
            return (self.dealer + self.drawn) % 4 if self.drawn < DRAWN else self.dealer
        if self.phase == EXCHANGE:
            return self.leader
        if self.phase == PLAY:
            return (self.trick_leader + len(self.trick)) % 4
        return None

    def exposable_rank(self, seat: int) -> int:
        """The level whose cards ``seat`` may expose: the trump rank, or in a special deal their side's level."""
        if self.mode == SPECIAL:
            return self.levels[_team(seat)]
        return self.trump_rank

    def can_expose(self) -> bool:
        """
        "you may ... expose it at any time provided that no other card has yet been exposed"; "Once the first of
        these [kitty] cards is exposed it is too late"."""
        return self.phase == DEAL and self.exposed is None

    def exposable_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` may expose now, the one drawn last first (none once trumps are chosen)."""
        if not self.can_expose():
            return []
        rank = level_rank(self.exposable_rank(seat))
        held = [c for c in (card(rank, s) for s in range(4)) if self.hands[seat] >> c & 1]
        return sorted(held, key=self.stock.index, reverse=True)

    def exposures(self) -> list[Action]:
        if not self.can_expose():
            return []
        out = []
        for seat in range(4):
            rank = level_rank(self.exposable_rank(seat))
            for s in range(4):
                c = card(rank, s)
                if self.hands[seat] >> c & 1:
                    out.append(Action(seat, "expose", card=c))
        return out

    def claim_open(self) -> bool:
        """
        "Before the first lead any player who has no trumps at all in his hand may ... claim a draw"; from the
        moment the leader holds the kitty (spec)."""
        return self.phase == EXCHANGE or (self.phase == PLAY and self.cards_played == 0)

    def claimants(self) -> list[int]:
        if not self.claim_open():
            return []
        return [s for s in range(4) if not self.hands[s] & self.order.trump_mask]

    def legal_actions(self) -> list:
        if self.phase == DEAL:
            return [Action(self.to_move, "draw"), *self.exposures()]
        claims = [Action(s, "claim_draw") for s in self.claimants()]
        if self.phase == EXCHANGE:
            return [DiscardChoice(self.leader, KITTY, tuple(cards_of(self.hands[self.leader]))), *claims]
        if self.phase == PLAY:
            return [Action(self.to_move, "play", cards=cs) for cs in self.legal_plays()] + claims
        return []

    def legal_plays(self) -> list[tuple[int, ...]]:
        """Single cards for a lead (a multi-card lead of one suit may always be tried); every legal follow."""
        seat = self.to_move
        hand = self.hands[seat]
        if not self.trick:
            return [(c,) for c in cards_of(hand)]
        n = self.lead_size
        suited = hand & self.order.suit_masks[self.led_suit]
        if n == 1:
            return [(c,) for c in cards_of(suited or hand)]
        have = cards_of(suited)
        if len(have) >= n:
            return list(combinations(have, n))
        return [tuple(have) + rest for rest in combinations(cards_of(hand & ~suited), n - len(have))]

    def legal_card_mask(self) -> int:
        """Fast path for computer players: the cards that may be played alone now (leads, and follows of a one-card
        lead).  Multi-card follows need ``legal_plays``."""
        hand = self.hands[(self.trick_leader + len(self.trick)) % 4]
        if not self.trick:
            return hand
        return hand & self.order.suit_masks[self.led_suit] or hand

    # --- applying actions -------------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        kind = action.type
        if kind == "play":
            self._play(action)
        elif kind == "draw":
            self._draw(action)
        elif kind == "expose":
            self._expose(action)
        elif kind == "discard":
            self._discard(action)
        elif kind == "claim_draw":
            self._claim_draw(action)
        else:
            raise IllegalAction(
                "'{kind}' is not an action in Da Bai Fen (draw, expose, discard, claim_draw, play)", kind=kind
            )

    def _check_seat(self, action: Action) -> None:
        if not 0 <= action.seat < 4:
            raise IllegalAction("there is no seat {seat} at a 4-player table", seat=action.seat)
        if self.phase in (BETWEEN_DEALS, GAME_OVER):
            if self.phase == GAME_OVER:
                raise IllegalAction("the game is over")
            raise IllegalAction("this deal is over")

    def _draw(self, action: Action) -> None:
        self.check_turn(action)
        if self.phase != DEAL:
            raise IllegalAction("the draw is over: every card has been taken")
        self.draw_card()

    def draw_card(self) -> None:
        """The seat to move draws the next stock card; after the 48th, the starter's draw turns the kitty over."""
        if self.drawn < DRAWN:
            self.hands[(self.dealer + self.drawn) % 4] |= 1 << self.stock[self.drawn]
            self.drawn += 1
            if self.drawn == DRAWN and self.exposed is not None:
                self._pick_up_kitty()
        elif self.mode == SPECIAL:
            self._annul(
                "nobody exposed a card of their side's level in this special deal: another draw",
                Words("nobody exposed a card of their side's level in this special deal: another draw"),
            )
        else:
            self._turn_kitty()

    def draw_rest(self) -> None:
        """Fast path: everyone draws their remaining cards without exposing anything (the same as repeated
        ``draw_card`` up to the 48th card)."""
        if self.phase != DEAL:
            raise IllegalAction("the draw is over: every card has been taken")
        hands, stock, dealer, drawn = self.hands, self.stock, self.dealer, self.drawn
        for offset in range(4):  # card i goes to seat dealer + i: every fourth card from the first one left
            first = drawn + (offset - drawn) % 4
            hands[(dealer + offset) & 3] |= sum(map(BITS.__getitem__, stock[first:DRAWN:4]))
        if self.drawn < DRAWN:
            self.drawn = DRAWN
            if self.exposed is not None:
                self._pick_up_kitty()

    def _turn_kitty(self) -> None:
        """
        "If no one has yet exposed a card, the starter turns these cards face up one at a time in order ... If a
        card of the trump rank is found among the last six cards, its suit becomes trumps and no further cards are
        turned up.  If no card of the trump rank appears, the highest ranking of the six cards, excluding Jokers,
        determines the trump suit; among cards of equal rank the earliest exposed takes precedence.\""""
        rank = level_rank(self.trump_rank)
        best = None
        for c in self.stock[DRAWN:]:
            self.kitty_turned.append(c)
            if c >= 64:
                continue
            if rank_of(c) == rank:
                best = c
                break
            if best is None or rank_of(c) > rank_of(best):
                best = c
        if self.mode == FIRST:
            # "In the first hand whichever player exposes a two (or the starter in the unlikely event that no one
            # does) becomes the leader, and the leader's side become the declarers."
            self.leader = self.dealer
            self.declarers = _team(self.dealer)
        self._fix_trump(suit_of(best))
        self._pick_up_kitty()

    def _fix_trump(self, suit: int) -> None:
        self.order = trump_order(level_rank(self.trump_rank), suit, self.twos_trump)

    def _pick_up_kitty(self) -> None:
        """
        "the leader picks up the last six cards and adds them to his hand"."""
        self.hands[self.leader] |= self.kitty
        self.phase = EXCHANGE

    def _expose(self, action: Action) -> None:
        self._check_seat(action)
        seat, c = action.seat, action.card
        if c is None:
            raise IllegalAction("say which card you expose")
        if self.phase != DEAL:
            raise IllegalAction("a card can only be exposed during the draw, before the kitty is turned over")
        if self.exposed is not None:
            who, shown = self.exposed
            raise IllegalAction(
                "trumps are already chosen: {seat} exposed {card}", seat=Term("seat", who), card=_card(shown)
            )
        if not self.hands[seat] >> c & 1:
            raise IllegalAction("you do not hold {card}", card=_card(c))
        level = self.exposable_rank(seat)
        if c >= 64 or rank_of(c) != level_rank(level):
            if self.mode == SPECIAL:
                raise IllegalAction(
                    "only a card of your side's level ({rank}) can be exposed to choose trumps", rank=level_name(level)
                )
            raise IllegalAction(
                "only a card of the trump rank ({rank}) can be exposed to choose trumps", rank=level_name(level)
            )
        self.exposed = (seat, c)
        if self.mode != NORMAL:
            # First deal: "whichever player exposes a two ... becomes the leader"; special deal: "any player may
            # expose a card whose rank is equal to his side's score.  Whoever does this becomes the new leader".
            self.leader = seat
            self.declarers = _team(seat)
            self.trump_rank = level
        self._fix_trump(suit_of(c))
        if self.drawn == DRAWN:
            self._pick_up_kitty()

    def _discard(self, action: Action) -> None:
        self.check_turn(action)
        if self.phase != EXCHANGE:
            raise IllegalAction("there is nothing to discard now: only the leader discards six, after the draw")
        mask = self._cards_in_hand(action.seat, action.cards)
        if len(action.cards) != KITTY:
            raise IllegalAction("discard exactly {n} cards (you gave {given})", n=KITTY, given=len(action.cards))
        self._set_discard(mask)

    def _set_discard(self, mask: int) -> None:
        # "The leader then discards any six of his eighteen cards face down."
        self.hands[self.leader] &= ~mask
        self.discarded = mask
        self.phase = PLAY
        self.trick_leader = self.leader

    def _cards_in_hand(self, seat: int, cards: tuple[int, ...]) -> int:
        mask = 0
        for c in cards:
            if mask >> c & 1:
                raise IllegalAction("you listed {card} twice", card=_card(c))
            if not self.hands[seat] >> c & 1:
                raise IllegalAction("you do not hold {card}", card=_card(c))
            mask |= 1 << c
        return mask

    def _claim_draw(self, action: Action) -> None:
        self._check_seat(action)
        if not self.claim_open():
            raise IllegalAction(
                "a draw can only be claimed after the kitty is taken and before the first card is played"
            )
        if self.hands[action.seat] & self.order.trump_mask:
            raise IllegalAction("you hold trumps: only a player with no trumps at all may claim a draw")
        shown = cards_of(self.hands[action.seat])
        self._annul(
            f"seat {action.seat} holds no trumps and claims a draw ({_describe_cards(shown)}): the deal is annulled",
            Words(
                "{seat} holds no trumps and claims a draw ({cards}): the deal is annulled",
                seat=Term("seat", action.seat),
                cards=Term("cards_spaced", tuple(CARD_NAMES[c] for c in shown)),
            ),
            claimed_by=action.seat,
            shown=shown,
        )

    def _annul(self, explain: str, words: Words, claimed_by: int | None = None, shown: list[int] | None = None) -> None:
        """
        "all the cards are thrown in and there is a new deal, started by the partner of the leader to the annulled
        hand, in which any player may expose a card whose rank is equal to his side's score."  A special deal where
        nobody exposes is "treated as another draw" (no leader: the starter's partner starts the next)."""
        anchor = self.leader if self.leader is not None else self.dealer
        self.next_starter = (anchor + 2) % 4
        self.next_mode = SPECIAL
        self.declarers = None
        result = {
            "score_change": [0, 0],
            "thrown_in": True,
            "made": None,
            "annulled": True,
            "claimed_by": claimed_by,
            "hand_shown": [CARD_NAMES[c] for c in shown] if shown is not None else None,
            "leader": self.leader,
            "trump": self._trump_name(),
            "next_starter": self.next_starter,
            "explain": explain + f"; seat {self.next_starter} starts a special deal",
        }
        self.explanations.append(
            (Words("{why}; {seat} starts a special deal", why=words, seat=Term("seat", self.next_starter)),)
        )
        self.deal_results.append(result)
        self.phase = BETWEEN_DEALS

    # --- the play ---------------------------------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        self.check_turn(action)
        if self.phase != PLAY:
            raise IllegalAction("cards are played after the draw and the leader's discard")
        seat, cards = action.seat, action.cards
        if not cards:
            raise IllegalAction("play at least one card")
        mask = self._cards_in_hand(seat, cards)
        if self.trick:
            self._check_follow(seat, cards, mask)
            self._add_to_trick(seat, cards, mask)
        elif len(cards) == 1:
            self._lead(seat, cards, mask)
        else:
            self._multi_lead(seat, cards, mask)

    def play_card(self, c: int) -> None:
        """Fast path for computer players: play one card (a lead, or a follow of a one-card lead); the same rules
        as ``apply`` with a one-card ``play``, without building actions."""
        trick = self.trick
        seat = (self.trick_leader + len(trick)) % 4
        hand = self.hands[seat]
        order = self.order
        if self.phase != PLAY or (trick and self.lead_size != 1):
            raise IllegalAction("{card} cannot be played alone now", card=_card(c))
        legal = hand & order.suit_masks[self.led_suit] or hand if trick else hand
        if not legal >> c & 1:
            raise IllegalAction("{card} cannot be played now", card=_card(c))
        bit = 1 << c
        self.hands[seat] = hand ^ bit
        self.played |= bit
        self.cards_played += 1
        self.trick_points += POINTS[c]
        suit = order.effective_suit[c]
        if not trick:
            self.led_suit, self.lead_size = suit, 1
            self.best_seat, self.best_key = seat, (100 if suit == TRUMP else 0) + order.strength[c]
        else:
            key = 100 + order.strength[c] if suit == TRUMP else order.strength[c] if suit == self.led_suit else -1
            if key > self.best_key:
                self.best_seat, self.best_key = seat, key
        trick.append((seat, (c,)))
        if len(trick) == 4:
            self._finish_trick()

    def playout(self, rng: random.Random) -> None:
        """Fast path for Monte Carlo players: finish the deal at random.  Remaining draws without exposure, a random
        discard, then uniformly random one-card plays (never a throw); the resulting state is exactly what the same
        choices through ``play_card`` give.  The loop is inlined because it is the hot path of every simulation."""
        if self.phase == DEAL:
            self.draw_rest()
            if self.phase == DEAL:
                self.draw_card()
        if self.phase == EXCHANGE:
            self._set_discard(sum(1 << c for c in rng.sample(cards_of(self.hands[self.leader]), KITTY)))
        rand = rng.random
        while self.phase == PLAY and self.trick:  # a trick already begun: finish it the ordinary way
            if self.lead_size == 1:
                legal = self.legal_card_mask()
                self.play_card(nth_card(legal, int(rand() * legal.bit_count())))
            else:
                plays = self.legal_plays()
                self.apply(Action(self.to_move, "play", cards=plays[int(rand() * len(plays))]))
        order, hands = self.order, self.hands
        es, st, suit_masks = order.effective_suit, order.strength, order.suit_masks
        while self.phase == PLAY:
            leader = self.trick_leader
            trick, played, points = [], 0, 0
            best_seat = best_key = led = -1
            for i in range(4):
                seat = (leader + i) & 3
                hand = hands[seat]
                legal = hand & suit_masks[led] or hand if i else hand
                for _ in range(int(rand() * legal.bit_count())):
                    legal &= legal - 1
                bit = legal & -legal
                c = bit.bit_length() - 1
                hands[seat] = hand ^ bit
                played |= bit
                points += POINTS[c]
                suit = es[c]
                if not i:
                    led = suit
                key = 100 + st[c] if suit == TRUMP else st[c] if suit == led else -1
                if key > best_key:
                    best_seat, best_key = seat, key
                trick.append((seat, (c,)))
            self.led_suit, self.lead_size = led, 1
            self.played |= played
            self.cards_played += 4
            self.trick, self.trick_points = trick, points
            self.best_seat, self.best_key = best_seat, best_key
            self._finish_trick()

    def _lead(self, seat: int, cards: tuple[int, ...], mask: int) -> None:
        self.led_suit = self.order.effective_suit[cards[0]]
        self.lead_size = len(cards)
        self._add_to_trick(seat, cards, mask)

    def _multi_lead(self, seat: int, cards: tuple[int, ...], mask: int) -> None:
        """
        "A player may lead any single card, or a group of cards of the same suit, but if more than one card is led
        at once, all the cards led must be higher than any card of the suit led remaining in any player's hand.\""""
        order = self.order
        suit = order.effective_suit[cards[0]]
        other = next((c for c in cards if order.effective_suit[c] != suit), None)
        if other is not None:
            mixed = IllegalAction(
                "cards led together must be of one suit: {card} is a {suit}, {other} is a {other_suit}",
                card=_card(cards[0]),
                suit=self._suit_term(order.effective_suit[cards[0]], 1),
                other=_card(other),
                other_suit=self._suit_term(order.effective_suit[other], 1),
            )
            raise self._trumps_note(mixed) if TRUMP in (suit, order.effective_suit[other]) else mixed
        others = 0
        for s in range(4):
            if s != seat:
                others |= self.hands[s]
        beaten = beating_cards(order, cards, others)
        if not beaten:
            self._lead(seat, cards, mask)
            return
        failure = self._describe_failed_throw(seat, cards, beaten)
        self.failed_throws.append(failure)
        if self.options["failed_throw"] == "lowest_card":
            low = order.lowest(cards)
            self._lead(seat, (low,), 1 << low)
        else:
            self._score_revoke(seat, cards, failure)

    def _describe_failed_throw(self, seat: int, cards: tuple[int, ...], beaten: dict[int, int]) -> dict:
        """
        "If it turns out that anyone (even the partner of the one who led) holds a card of the suit led which beats
        any one of the cards of a multiple lead then the lead is a revoke."  Names the beating card: the first
        player after the leader holding one, with their lowest card beating the lead's weakest beaten card."""
        order = self.order
        weakest = min(beaten, key=lambda c: (order.strength[c], cards.index(c)))
        for step in range(1, 4):
            holder = (seat + step) % 4
            held = beaten[weakest] & self.hands[holder]
            if held:
                beater = min(cards_of(held), key=lambda c: order.strength[c])
                break
        holders = {}
        for beats in beaten.values():
            for s in range(4):
                if beats & self.hands[s]:
                    holders.setdefault(s, set()).update(cards_of(beats & self.hands[s]))
        return {
            "seat": seat,
            "cards": [CARD_NAMES[c] for c in cards],
            "beaten_card": CARD_NAMES[weakest],
            "beaten_by": {"seat": holder, "card": CARD_NAMES[beater]},
            "all_beating": [
                {"seat": s, "cards": [CARD_NAMES[c] for c in sorted(cs, key=lambda c: order.strength[c])]}
                for s, cs in sorted(holders.items())
            ],
            "explain": f"seat {seat}'s lead of {_describe_cards(cards)} failed: seat {holder} holds "
            f"{CARD_NAMES[beater]}, which beats {CARD_NAMES[weakest]}",
        }

    def _check_follow(self, seat: int, cards: tuple[int, ...], mask: int) -> None:
        """
        "Each of the other three players in turn must play the same number of cards as were led.  As far as possible
        they must play cards of the suit led.  Having run out of cards of the suit led a player may play any cards
        he chooses.\""""
        n = self.lead_size
        if len(cards) != n:
            if n == 1:
                raise IllegalAction("1 card was led: play 1 card (you gave {given})", given=len(cards))
            raise IllegalAction("{n} cards were led: play {n} cards (you gave {given})", n=n, given=len(cards))
        suited = self.hands[seat] & self.order.suit_masks[self.led_suit]
        have = suited.bit_count()
        if (mask & suited).bit_count() < min(n, have):
            raise self._follow_refusal(cards, suited, n)

    def _suit_term(self, suit: int, count: int = 2) -> Term:
        """'hearts' / 'heart', 'trumps' / 'trump', in each player's language."""
        return Term("suit", "trump" if suit == TRUMP else SUITS[suit], count)

    def _trumps_note(self, reason: IllegalAction) -> IllegalAction:
        rank = level_name(self.trump_rank)
        if self.twos_trump and rank != "2":
            return IllegalAction("{reason} (the jokers, every {rank} and every 2 are trumps)", reason=reason, rank=rank)
        return IllegalAction("{reason} (the jokers and every {rank} are trumps)", reason=reason, rank=rank)

    def _follow_refusal(self, cards: tuple[int, ...], suited: int, n: int) -> IllegalAction:
        """Why a follow is refused, in a player's words: 'you must follow with hearts: you hold 3 hearts, so play 3
        hearts'; with too few, which cards of the suit they hold and that they must play them all."""
        led, order = self.led_suit, self.order
        key = "trump" if led == TRUMP else SUITS[led]
        words = self._suit_term(led)
        held = sorted(cards_of(suited), key=lambda c: -order.strength[c])
        have = len(held)
        names = tuple(CARD_NAMES[c] for c in held)
        if n == 1:
            text = IllegalAction(
                "you must follow with {suit}: you hold {cards}", suit=words, cards=Term("cards", names)
            )
        elif have >= n:
            text = IllegalAction(
                "you must follow with {suit}: you hold {held}, so play {needed}",
                suit=words,
                held=Term("count", key, have),
                needed=Term("count", key, n),
            )
        else:
            fields = dict(suit=words, held=Term("count", key, have), cards=Term("cards_spaced", names),
                          others=Term("count", "other card", n - have))  # fmt: skip
            if have == 1:
                text = IllegalAction("you must follow with {suit}: you hold only {held} ({cards}), so play it and "
                                     "{others}", **fields)  # fmt: skip
            elif have == 2:
                text = IllegalAction("you must follow with {suit}: you hold only {held} ({cards}), so play both and "
                                     "{others}", **fields)  # fmt: skip
            else:
                text = IllegalAction("you must follow with {suit}: you hold only {held} ({cards}), so play all {have} "
                                     "and {others}", have=have, **fields)  # fmt: skip
        if led != TRUMP:
            # a card marked with the led suit that is a trump here (trump rank, yuan zhu two): say so if it was offered
            marked = [c for c in cards if c < 64 and suit_of(c) == led and order.effective_suit[c] == TRUMP]
            if marked:
                return IllegalAction(
                    "{reason} ({card} is a trump, not a {suit})",
                    reason=text,
                    card=_card(marked[0]),
                    suit=self._suit_term(led, 1),
                )
        return text

    def _add_to_trick(self, seat: int, cards: tuple[int, ...], mask: int) -> None:
        self.hands[seat] &= ~mask
        self.played |= mask
        self.cards_played += len(cards)
        self.trick_points += points_of(mask)
        key = self.play_key(cards)
        if not self.trick or key > self.best_key:
            self.best_seat, self.best_key = seat, key
        self.trick.append((seat, cards))
        if len(self.trick) == 4:
            self._finish_trick()

    def play_key(self, cards: tuple[int, ...]) -> int:
        """How strongly a play contends for the trick: all trumps → 100 + its highest trump; otherwise its highest
        card of the suit led, or -1.  A later play must be strictly stronger to take the lead (the first played wins
        among equals)."""
        es, st = self.order.effective_suit, self.order.strength
        if all(es[c] == TRUMP for c in cards):
            return 100 + max(st[c] for c in cards)
        return max((st[c] for c in cards if es[c] == self.led_suit), default=-1)

    def trick_winner(self) -> int:
        """
        "If one or more players play nothing but trumps to the trick, the trick is won by whichever of these played
        the highest trump.  Among trumps of equal rank the one which is played earliest beats the others.  If everyone
        plays at least one non-trump to the trick, it is won by the player of the highest card of the suit led.\""""
        best_seat, best_key = -1, -2
        for seat, cards in self.trick:
            key = self.play_key(cards)
            if key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    def _finish_trick(self) -> None:
        winner = self.best_seat  # kept as the trick went; trick_winner() states the rule
        team = winner & 1
        self.points[team] += self.trick_points
        self.trick_points = 0
        self.tricks_won[team] += 1
        self.last_trick = self.trick
        self.last_winner = winner
        self.trick = []
        self.trick_leader = winner
        if not self.hands[winner]:
            # "Any counting cards among the six discarded ... are worth double ... and are won by the side which
            # wins the last trick."
            kitty_points = points_of(self.discarded)
            self.points[team] += kitty_points * self._kitty_factor(self.lead_size)
            self._score_deal()

    def _kitty_factor(self, last_trick_size: int) -> int:
        """Doubled; or "multiplied by the number of cards played together by each player in the last trick"."""
        return last_trick_size if self.kitty_by_trick_size else 2

    # --- scoring ----------------------------------------------------------------------------------------------

    def _score_revoke(self, seat: int, cards: tuple[int, ...], failure: dict) -> None:
        """
        "The penalty for a revoke is that the hand is scored as though the offending side had lost every trick."
        The other side takes every counting card still in play and the kitty bonus (the failed lead taken as the last
        trick for the multiplier option)."""
        offenders = _team(seat)
        winners = 1 - offenders
        in_play = points_of(PACK_MASK & ~self.discarded)
        kitty_points = points_of(self.discarded)
        self.points = [0, 0]
        self.points[winners] = in_play + kitty_points * self._kitty_factor(len(cards))
        self.trick.append((seat, cards))
        self.last_trick = self.trick
        self.last_winner = None
        self.trick = []
        self._score_deal(failure)

    def _score_deal(self, failure: dict | None = None) -> None:
        declarers = self.declarers
        opponents = 1 - declarers
        opp_points = self.points[opponents]
        result = outcome(opp_points, self.options["level_step"], self.options["forty_is_draw"])
        change = [0, 0]
        change[declarers] = result.declarers_gain
        change[opponents] = result.opponents_gain
        self.levels[0] += change[0]
        self.levels[1] += change[1]
        leader = self.leader
        if result.draw:
            # "in the next deal the first person who exposes a card with rank equal to his or her side's score becomes
            # the leader"; the starter is the leader's partner, as after a claimed draw.
            self.next_mode, self.declarers, self.next_starter = SPECIAL, None, (leader + 2) % 4
        elif result.declarers_stay:
            self.next_mode, self.next_starter = NORMAL, (leader + 2) % 4  # "Previous leader's partner"
        else:
            self.next_mode, self.declarers, self.next_starter = NORMAL, opponents, (leader + 1) % 4
        kitty_points = points_of(self.discarded)
        explain = f"opponents (team {opponents}) took {opp_points} points"
        if failure is not None:
            offenders = _team(failure["seat"])
            explain = f"{failure['explain']}; scored as though team {offenders} lost every trick: {explain}"
        explain += f" → {result.row}; levels {level_name(self.levels[0])}–{level_name(self.levels[1])}"
        self.explanations.append((self._explain_words(failure, opponents, opp_points, result.row_words),))
        self.deal_results.append(
            {
                "score_change": change,
                "thrown_in": False,
                "made": None if result.draw else result.declarers_stay,
                "draw": result.draw,
                "leader": leader,
                "declarers": declarers,
                "trump": self._trump_name(),
                "trump_rank": level_name(self.trump_rank),
                "opponent_points": opp_points,
                "declarer_points": self.points[declarers],
                "kitty": [CARD_NAMES[c] for c in cards_of(self.discarded)],
                "kitty_points": kitty_points,
                "last_trick_winner": self.last_winner,
                "failed_throw": failure,
                "failed_throws": list(self.failed_throws),  # with failed_throw 'lowest_card' the deal went on
                "levels": list(self.levels),
                "next_starter": self.next_starter,
                "next_declarers": self.declarers,
                "explain": explain,
            }
        )
        self.phase = BETWEEN_DEALS
        for team in (0, 1):
            if self.levels[team] > self.target_level:
                # "the winners are the first side whose score goes above Ace"
                self.winner = team
                self.phase = GAME_OVER

    def _explain_words(self, failure: dict | None, opponents: int, points: int, row: Words) -> Words:
        """The deal's ``explain`` as words the bot translates (teams by letter, seats as players' names)."""
        levels = f"{level_name(self.levels[0])}–{level_name(self.levels[1])}"
        said = Words("opponents (team {team}) took {points} points → {row}; levels {levels}", team="AB"[opponents],
                     points=points, row=row, levels=levels)  # fmt: skip
        if failure is None:
            return said
        beaten_by = failure["beaten_by"]
        failed = Words(
            "{seat}'s lead of {cards} failed: {holder} holds {card}, which beats {beaten}",
            seat=Term("seat", failure["seat"]),
            cards=Term("cards_spaced", tuple(failure["cards"])),
            holder=Term("seat", beaten_by["seat"]),
            card=Term("card", beaten_by["card"]),
            beaten=Term("card", failure["beaten_card"]),
        )
        return Words("{failed}; scored as though team {team} lost every trick: {rest}", failed=failed,
                     team="AB"[_team(failure["seat"])], rest=said)  # fmt: skip

    # --- what players see -------------------------------------------------------------------------------------

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def scores(self) -> list[int]:
        return list(self.levels)

    def _trump_name(self) -> str | None:
        return SUITS[self.order.suit] if self.order is not None else None

    def throw_risk(self, seat: int, cards: tuple[int, ...] | list[int]) -> dict[str, list[str]]:
        """Before a multi-card lead: which of its cards could be beaten by a card ``seat`` cannot see (not in their
        hand, not yet played, not among the discards they made).  Empty means the lead is certain to stand."""
        return {CARD_NAMES[c]: [CARD_NAMES[b] for b in cards_of(beats)] for c, beats in self.throw_risk_mask(
            seat, cards).items()}  # fmt: skip

    def throw_risk_mask(self, seat: int, cards: tuple[int, ...] | list[int]) -> dict[int, int]:
        unseen = PACK_MASK & ~self.hands[seat] & ~self.played
        if seat == self.leader:
            unseen &= ~self.discarded
        return beating_cards(self.order, tuple(cards), unseen)

    # --- what the table shows and what happened (rules/view.py, rules/events.py) ----------------------------

    PUBLIC_KEYS = frozenset(
        {"trump_rank", "mode", "drawn", "exposed", "kitty_turned", "kitty_shown", "points", "tricks_won",
         "last_trick", "failed_throws", "levels"}
    )  # fmt: skip

    def face_down(self, view: dict) -> dict:
        """The seed: "Whenever the opponents win a trick containing any counting cards, these are extracted from the
        trick and placed face up ... All other cards played to tricks, including counting cards in tricks won by the
        declarers, are put face down": the opponents' points are public, the declarers' (None) are not."""
        contract = view.get("contract")
        points = list(view.get("points") or [])
        if points:
            declarers = contract["declarers"] if contract else self.declarers
            points = [None if team == declarers or declarers is None else v for team, v in enumerate(points)]
        return super().face_down(view) | {"points": points}

    def face_up_cards(self, winner: int, cards: tuple[str, ...]) -> list[str]:
        """The same sentence: the counting cards of a trick the opponents won lie face up before them."""
        if self.declarers is None or _team(winner) == self.declarers:
            return []
        return [name for name in cards if POINTS[parse_card(name)]]

    def public_facts(self) -> dict:
        return super().public_facts() | {"cards_to_draw": DRAWN}

    def seat_teams(self) -> list[int | None]:
        return [_team(seat) for seat in range(4)]

    def seat_prompt_words(self, seat: int) -> list[Words]:
        """The exposure a player may make, in words, so their hand offers it the moment they draw the card."""
        cards = self.exposable_cards(seat)
        if not cards:
            return []
        what = Words("your side's level") if self.mode == SPECIAL else Words("the trump rank")
        if len(cards) == 1:
            text = Words("You drew {card} — {what}: expose it?", card=_card(cards[0]), what=what)
        else:
            text = Words("You drew {card} — {what} (you also hold {cards}): expose one?", card=_card(cards[0]),
                         what=what, cards=Term("cards_spaced", tuple(CARD_NAMES[c] for c in cards[1:])))  # fmt: skip
        if self.drawn == DRAWN:
            # "Once the first of these cards is exposed it is too late for anyone to determine the trump suit"
            text = Words("{prompt} Last chance: the kitty is turned next.", prompt=text)
        return [text]

    def draw_ends_choices(self) -> bool:
        # The starter's draw after the 48th card turns the kitty: no exposure after that.
        return self.phase == DEAL and self.drawn == DRAWN

    def seat_knowledge(self, seat: int) -> dict:
        if seat == self.leader and self.discarded:  # the leader buried the six kitty cards
            return {"discarded": [CARD_NAMES[c] for c in cards_of(self.discarded)]}
        return {}

    def may_lead_several(self, seat: int) -> bool:
        # "A player may lead any single card, or a group of cards of the same suit"
        return self.phase == PLAY and not self.trick and self.to_move == seat

    def lead_risk(self, seat: int, cards: list[int]) -> dict[str, list[str]]:
        if self.phase != PLAY or self.trick or len(cards) < 2:
            return {}
        return self.throw_risk(seat, cards)

    def tricks_completed(self) -> int:
        return self.tricks_won[0] + self.tricks_won[1]

    def side_points(self) -> list[int] | None:
        return self.points

    def last_completed_trick(self) -> tuple[int, list[tuple[int, list[int]]], int]:
        winner = self.last_winner if self.last_winner is not None else self.last_trick[0][0]
        return winner, [(s, list(cards)) for s, cards in self.last_trick], _team(winner)

    def event_marks(self) -> tuple:
        return (*super().event_marks(), self.drawn, len(self.failed_throws), tuple(self.levels))

    def events_after(self, marks: tuple) -> list[Event]:
        events = super().events_after(marks)
        drawn, throws, levels = marks[-3:]
        if self.drawn == drawn + 1 and self.can_expose():
            drawer, taken = (self.dealer + drawn) % 4, self.stock[drawn]
            if taken in self.exposable_cards(drawer):
                events.append(ExposureOffered(drawer, CARD_NAMES[taken]))
        lowest = self.options["failed_throw"] == "lowest_card"
        failed = [
            FailedLead(
                seat=f["seat"],
                cards=tuple(f["cards"]),
                beaten_by_seat=f["beaten_by"]["seat"],
                card=f["beaten_by"]["card"],
                beaten_card=f["beaten_card"],
                lowest_card_only=lowest,
            )
            for f in self.failed_throws[throws:]
        ]
        if tuple(self.levels) != levels:
            events.append(LevelsChanged(tuple(map(level_name, levels)), tuple(map(level_name, self.levels))))
        return failed + events  # the failure came first: then its trick, or the deal it cost

    def state_json(self) -> dict:
        contract = None
        if self.leader is not None:
            contract = {
                "seat": self.leader,
                "declarers": _team(self.leader),  # the leader always declares (and `declarers` moves on at the end)
                "trump_rank": level_name(self.trump_rank) if self.trump_rank else None,
            }
        shown = self.kitty if self.options["kitty_exposed"] and self.phase != DEAL else 0
        return {
            "trump": self._trump_name(),
            "trump_rank": level_name(self.trump_rank) if self.trump_rank is not None else None,
            "contract": contract,
            "trick": [{"seat": s, "cards": [CARD_NAMES[c] for c in cs]} for s, cs in self.trick],
            "mode": self.mode,
            "drawn": self.drawn,
            "exposed": None if self.exposed is None else {"seat": self.exposed[0], "card": CARD_NAMES[self.exposed[1]]},
            "kitty_turned": [CARD_NAMES[c] for c in self.kitty_turned],
            "kitty_shown": [CARD_NAMES[c] for c in cards_of(shown)],
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in self.hands],
            "discarded": [CARD_NAMES[c] for c in cards_of(self.discarded)],
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
            "last_trick": [{"seat": s, "cards": [CARD_NAMES[c] for c in cs]} for s, cs in self.last_trick],
            "failed_throws": self.failed_throws,
            "levels": [level_name(v) for v in self.levels],
        }

    CLONE_COPIES = (
        "hands", "levels", "points", "tricks_won", "trick", "kitty_turned", "deal_results", "explanations",
        "failed_throws",
    )  # fmt: skip
