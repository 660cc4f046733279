"""Five Hundred: bidding by contract value, the widow, the Joker and the bowers, "500 up or 500 down".

The three-hand game is the standard; two, four, five and six players are table options, as the text gives them.
A deal runs: bidding → exchange (the soloist takes the widow and discards; with five players he then calls a
partner or plays alone) → play of ten tricks → scoring.  If all pass, the widow stays untouched and the deal is
played at no trumps from eldest hand.
"""

from __future__ import annotations

import random
from functools import cache

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES, JK, NO_TRUMP, SUIT_SYMBOLS, SUITS, cards_of, suit_name
from rules.dealing import DealCards
from rules.errors import IllegalAction, RecordError, Term, Words
from rules.five_hundred.bids import BID_BY_KEY, BIDS, Bid, bid_of
from rules.five_hundred.packs import card_order, left_bower, pack_for, pack_mask, suit_cards
from rules.five_hundred.scoring import DealScore, contract_term, decide_game, score_all_pass, score_contract
from rules.game import BETWEEN_DEALS, BIDDING, EXCHANGE, GAME_OVER, PLAY, LegalAction, Match
from rules.options import Option
from rules.seats import partnership_teams, solo_teams
from rules.tricks import TrickPlay

MAX_SEATS = 6
TRICKS = 10
PASS_ACTIONS = tuple(Action(s, "pass") for s in range(MAX_SEATS))
BID_ACTIONS = tuple(
    tuple(Action(s, "bid", value=b.tricks, suit=b.trump) if not b.misere else Action(s, "bid", contract=b.contract)
          for b in BIDS)
    for s in range(MAX_SEATS)
)  # fmt: skip
PLAY_ACTIONS = tuple(tuple(Action(s, "play", cards=(c,)) for c in range(JK + 1)) for s in range(MAX_SEATS))
JOKER_LEADS = tuple(tuple(Action(s, "play", suit=suit, cards=(JK,)) for suit in range(4)) for s in range(MAX_SEATS))
CALL_ALONE = tuple(Action(s, "call") for s in range(MAX_SEATS))
BID_JSON = tuple({**b.to_json(), "name": b.name, "tricks": b.tricks, "points": b.value} for b in BIDS)  # copied out


def _card(c: int) -> Term:
    return Term("card", CARD_NAMES[c], english=card_text(c))


def _cards(cards: list[int]) -> Term:
    return Term("cards", tuple(CARD_NAMES[c] for c in cards), english=", ".join(map(card_text, cards)))


def card_text(c: int) -> str:
    """A card as a player reads it: "J♦", "10♠", "the Joker"."""
    if c == JK:
        return "the Joker"
    name = CARD_NAMES[c]
    return name[:-1] + SUIT_SYMBOLS[name[-1]]


def _positive_multiple_of_ten(value: int) -> str | None:
    return None if value > 0 and value % 10 == 0 else "the target must be a positive multiple of 10, like 500"


@cache
def _layout(players: int, six_player_method: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Who scores together: "Play in partnerships" (four), three pairs or two threes (six), else each alone.  The
    sides, and each seat's side (shared by every match of that form: never changed)."""
    if players == 4:
        sides = partnership_teams(4, 2)
    elif players == 6:
        sides = partnership_teams(6, 3 if six_player_method == 1 else 2)
    else:
        sides = solo_teams(players)
    side_of = [0] * players
    for side, seats in enumerate(sides):
        for s in seats:
            side_of[s] = side
    return tuple(sides), tuple(side_of)


class FiveHundred(Match):
    game_id = "five_hundred"
    OPTIONS = (
        Option("players", 3, "2 to 6 players; 3 is the standard game", choices=(2, 3, 4, 5, 6)),
        Option("target", 500, "game is 'target up or target down' (500 up or 500 down)", kind=int,
               check=_positive_multiple_of_ten),
        Option("two_player_method", 1, "two players: 1 = 33 cards, a third hand dealt out of play; "
               "2 = 24 cards (nine up, no Joker), widow of four", choices=(1, 2)),
        Option("six_player_method", 1, "six players: 1 = three pairs (partners opposite), "
               "2 = two teams of three (alternate seats)", choices=(1, 2)),
    )  # fmt: skip

    def __init__(self, options: dict | None = None, first_dealer: int = 0):
        super().__init__(options, first_dealer)
        self.target: int = self.options["target"]
        self.sides, self.side_of = _layout(self.players, self.options["six_player_method"])
        self.totals = [0] * len(self.sides)
        self.widow_size = 4 if self.players == 2 and self.options["two_player_method"] == 2 else 3
        self._pack = pack_for(self.players, self.options["two_player_method"])
        self._pack_mask = pack_mask(self.players, self.options["two_player_method"])
        self._checked: tuple[DealCards, list[int]] | None = None
        self._reset_deal_state()

    def check_options(self) -> None:
        players = self.options["players"]
        if self.options["two_player_method"] != 1 and players != 2:
            raise RecordError("option 'two_player_method' is for two players only")
        if self.options["six_player_method"] != 1 and players != 6:
            raise RecordError("option 'six_player_method' is for six players only")

    @property
    def partnerships(self) -> bool:
        return len(self.sides) < self.players

    def _reset_deal_state(self) -> None:
        self.hands: list[int] = [0] * self.players
        self.widow_cards: list[int] = []
        self.widow = 0
        self.out_of_play: list[int] = []  # two players, method 1: the third hand, never played
        self.auction: list[tuple[int, Bid | None]] = []
        self.passed = [False] * self.players
        self.high_bid: Bid | None = None
        self.high_bidder: int | None = None
        self.bidder = 0
        self.contract: Bid | None = None
        self.soloist: int | None = None
        self.discards: list[int] = []
        self.awaiting_call = False
        self.called_card: int | None = None
        self.partner: int | None = None
        self.trump: int | None = None
        self.sitting_out: list[int] = []
        self.tp: TrickPlay | None = None
        self.shown_void = [0] * self.players  # bit s: the seat discarded to a lead of suit s
        self._follow_masks: tuple[int, ...] = ()

    # --- the deal -----------------------------------------------------------------------------------------

    def pack(self) -> list[int]:
        return list(self._pack)

    def check_deal(self, cards: DealCards) -> None:
        """The quick test that a deal is the whole pack in the right numbers; on any doubt the core's check, whose
        message names the wrong cards."""
        hands = cards.hands
        self._checked = None
        if cards.stock is None and hands is not None and len(hands) == self.players:
            masks, seen, dealt = [], 0, len(cards.kitty)
            for hand in hands:
                if len(hand) != TRICKS:
                    break
                dealt += TRICKS
                mask = 0
                for c in hand:
                    mask |= 1 << c
                masks.append(mask)
                seen |= mask
            else:
                for c in cards.kitty:
                    seen |= 1 << c
                if seen == self._pack_mask and dealt == len(self._pack) and len(cards.kitty) == self.kitty_size():
                    self._checked = (cards, masks)  # begin_deal reuses the hands' masks
                    return
        super().check_deal(cards)

    def random_deal(self, rng: random.Random) -> DealCards:
        """A shuffle by sorting on random keys: as uniform as ``random.shuffle`` and three times quicker (computer
        players deal thousands of hands per decision)."""
        uniform = rng.random
        cards = sorted(self._pack, key=lambda _: uniform())
        hands = [cards[i : i + TRICKS] for i in range(0, TRICKS * self.players, TRICKS)]
        return DealCards(hands=hands, kitty=cards[TRICKS * self.players :])

    def hand_sizes(self) -> list[int]:
        return [TRICKS] * self.players

    def kitty_size(self) -> int:
        """The widow; with two players by method 1 the kitty also holds the hand dealt out of play (widow first)."""
        if self.players == 2 and self.options["two_player_method"] == 1:
            return self.widow_size + TRICKS
        return self.widow_size

    def next_dealer(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.players

    def begin_deal(self, cards: DealCards) -> None:
        self._reset_deal_state()
        checked = self._checked
        self.hands = checked[1] if checked is not None and checked[0] is cards else cards.masks()
        self._checked = None
        self.widow_cards = list(cards.kitty[: self.widow_size])
        for c in self.widow_cards:
            self.widow |= 1 << c
        self.out_of_play = list(cards.kitty[self.widow_size :])
        self.bidder = self.eldest  # "Starting with eldest hand"
        self.phase = BIDDING

    # --- whose turn -----------------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.phase == BIDDING:
            return self.bidder
        if self.phase == EXCHANGE:
            return self.soloist
        if self.phase == PLAY:
            tp = self.tp
            assert tp is not None  # the play phase has its tricks
            return tp.turn
        return None

    def _won_contract(self) -> tuple[Bid, int]:
        """The contract and its soloist, from the end of the auction on (a deal that everyone passed has neither)."""
        contract, soloist = self.contract, self.soloist
        assert contract is not None and soloist is not None, "every player passed: no contract"
        return contract, soloist

    def _trump(self) -> int:
        """The trump suit (or NO_TRUMP), named by the contract or by everyone passing."""
        trump = self.trump
        assert trump is not None, "no trump before the auction ends"
        return trump

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.tp.hands[seat] if self.tp is not None else self.hands[seat])

    def scores(self) -> list[int]:
        return list(self.totals)

    # --- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self) -> list[LegalAction]:
        if self.phase == PLAY:
            return self._legal_plays()
        if self.phase == BIDDING:
            seat = self.bidder
            lowest = 0 if self.high_bid is None else self.high_bid.rank + 1
            return [PASS_ACTIONS[seat], *BID_ACTIONS[seat][lowest:]]
        if self.phase == EXCHANGE:
            _, seat = self._won_contract()
            if self.awaiting_call:
                return [CALL_ALONE[seat], *(Action(seat, "call", card=c) for c in cards_of(self._callable_cards()))]
            return [DiscardChoice(seat, self.widow_size, tuple(cards_of(self.hands[seat])))]
        return []

    def _legal_plays(self) -> list[LegalAction]:
        tp = self.tp
        assert tp is not None  # the play phase has its tricks
        seat = tp.turn
        mask = self.legal_card_mask()
        plays = PLAY_ACTIONS[seat]
        if mask >> JK & 1 and self.joker_names_suit():
            mask &= ~(1 << JK)
            out: list[LegalAction] = [JOKER_LEADS[seat][s] for s in self.joker_lead_suits()]
        else:
            out = []
        while mask:
            low = mask & -mask
            out.append(plays[low.bit_length() - 1])
            mask ^= low
        return out

    def legal_card_mask(self) -> int:
        """The cards the seat to play may play now, as a bitmask (the fast path for computer players).

        Follow suit if possible, else any card; the left bower counts as a trump and the Joker at no trumps as a
        suit of its own, so that it may be played to a plain lead "only if its holder is void in the suit led".
        """
        tp = self.tp
        assert tp is not None  # the play phase has its tricks
        hand = tp.hands[tp.turn]
        if not tp.trick:
            return hand
        return hand & self._follow_masks[tp.led_suit] or hand

    def joker_names_suit(self) -> bool:
        """Leading the Joker at no trumps (misère and the all-pass game included) names the suit to follow."""
        return self.trump == NO_TRUMP and self.tp is not None and not self.tp.trick

    def joker_lead_suits(self) -> list[int]:
        """The suits the Joker's holder may name when leading it at no trumps: "he may not specify a suit in which he
        has already shown himself to be void".  If he has shown himself void in every suit he may name any."""
        tp = self.tp
        assert tp is not None  # the play phase has its tricks
        void = self.shown_void[tp.turn]
        suits = [s for s in range(4) if not void >> s & 1]
        return suits or list(range(4))

    def _callable_cards(self) -> int:
        """Five players: the soloist may call any card another player holds, except a trump ("may be the Joker if
        the bid is at no trump")."""
        others = 0
        for seat, hand in enumerate(self.hands):
            if seat != self.soloist:
                others |= hand
        trump = self._trump()
        if trump != NO_TRUMP:
            others &= ~suit_cards(trump)[trump]
        return others

    # --- applying actions ------------------------------------------------------------------------------------

    def check_turn(self, action: Action) -> None:
        """The core's checks, with the two cases where "not your turn" would not tell the player why."""
        seat = action.seat
        to_move = self.to_move
        if seat == to_move is not None:
            return  # the seat to act, in a phase where one acts: the core's checks would all pass
        if 0 <= seat < self.players:
            if self.phase == BIDDING and self.passed[seat]:
                raise IllegalAction("you have passed: once passed you may not bid again this deal")
            if self.phase == PLAY and seat in self.sitting_out:
                raise IllegalAction("your partner is playing misère alone: you sit out this deal")
        super().check_turn(action)

    def apply(self, action: Action) -> None:
        self.check_turn(action)
        kind = action.type
        if self.phase == PLAY:
            if kind != "play":
                raise IllegalAction(
                    "the cards are being played: play a card, not '{action}'", action=Term("action", kind)
                )
            self._apply_play(action)
        elif self.phase == BIDDING:
            if kind == "pass":
                self._pass(action.seat)
            elif kind == "bid":
                self._bid(action)
            else:
                raise IllegalAction("the auction is on: bid or pass, not '{action}'", action=Term("action", kind))
        elif kind == "discard" and not self.awaiting_call:
            self._discard(action)
        elif kind == "call" and self.awaiting_call:
            self._call(action)
        elif self.awaiting_call:
            raise IllegalAction("call a partner's card, or call with no card to play alone")
        else:
            raise IllegalAction("you have taken the widow: discard {n} cards", n=self.widow_size)

    # bidding: "each in turn may pass or make a higher bid ... Once a player has passed he may not re-enter"

    def _bid(self, action: Action) -> None:
        if action.cards or action.card is not None or action.announce is not None:
            raise IllegalAction("a bid names a number of tricks and a suit, or a misère contract; nothing else")
        bid = BID_BY_KEY.get((action.value, action.suit, action.contract))
        if bid is None:
            bid = bid_of(action.value, action.suit, action.contract)
        if self.high_bid is not None and bid.rank <= self.high_bid.rank:
            raise IllegalAction(
                "{bid} ({value}) is not higher than the bid of {high} ({high_value})",
                bid=contract_term(bid), value=bid.value,
                high=contract_term(self.high_bid), high_value=self.high_bid.value,
            )  # fmt: skip
        self.high_bid, self.high_bidder = bid, action.seat
        self.auction.append((action.seat, bid))
        self._next_bidder()

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        self.auction.append((seat, None))
        self._next_bidder()

    def _next_bidder(self) -> None:
        still_in = self.passed.count(False)
        if not still_in:
            self._start_all_pass()
        elif still_in == 1 and self.high_bidder is not None and not self.passed[self.high_bidder]:
            self._win_auction()  # "once two players have passed the third has no opportunity to increase his bid"
        else:
            seat = (self.bidder + 1) % self.players
            while self.passed[seat]:
                seat = (seat + 1) % self.players
            self.bidder = seat

    def _win_auction(self) -> None:
        """ "He first takes up the widow and adds it to his hand, then discards any three cards"."""
        self.contract, self.soloist = self.high_bid, self.high_bidder
        contract, soloist = self._won_contract()  # won over a bid: _next_bidder's rule
        self.trump = contract.trump
        self.hands[soloist] |= self.widow
        self.phase = EXCHANGE

    def _start_all_pass(self) -> None:
        """ "The widow remains untouched; eldest hand leads; and tricks are played at No Trump"."""
        self.trump = NO_TRUMP
        self._start_play(self.eldest)

    # the exchange, and the five-hand game's call

    def _discard(self, action: Action) -> None:
        cards = action.cards
        hand = self.hands[action.seat]
        mask = 0
        for c in cards:
            mask |= 1 << c
        if len(cards) != self.widow_size or mask.bit_count() != len(cards):
            raise IllegalAction("discard exactly {n} different cards", n=self.widow_size)
        if mask & ~hand:
            raise IllegalAction("you do not hold {card}", card=_cards([c for c in cards if not hand >> c & 1]))
        self.hands[action.seat] = hand & ~mask
        self.discards = list(cards)
        contract, soloist = self._won_contract()
        if self.players == 5 and not contract.misere:
            self.awaiting_call = True  # "the highest bidder may either play alone or call for a partner"
        else:
            self._start_play(soloist)

    def _call(self, action: Action) -> None:
        c = action.card
        if action.cards or action.value is not None or action.suit is not None or action.contract is not None:
            raise IllegalAction("a call names one card, or no card to play alone")
        _, soloist = self._won_contract()
        if c is not None:
            if self.hands[soloist] >> c & 1:
                raise IllegalAction("you hold {card} yourself: call a card another player holds", card=_card(c))
            if c in self.discards:
                raise IllegalAction("you discarded {card}: call a card another player holds", card=_card(c))
            if not self._callable_cards() >> c & 1:
                trump = self._trump()
                if c == JK or trump != NO_TRUMP and suit_cards(trump)[trump] >> c & 1:
                    raise IllegalAction("{card} is a trump, and the card called may not be a trump", card=_card(c))
                raise IllegalAction("{card} is not in this game's pack", card=_card(c))
            # "The holder of that card becomes his partner and immediately identifies himself."
            self.partner = next(s for s, h in enumerate(self.hands) if h >> c & 1)
        self.called_card = c
        self.awaiting_call = False
        self._start_play(soloist)

    def _start_play(self, leader: int) -> None:
        active = [True] * self.players
        if self.contract is not None and self.contract.misere and self.partnerships:
            # The text is silent; as is usual, the misère bidder's partners lay their cards down and take no part.
            _, soloist = self._won_contract()
            self.sitting_out = [s for s in self.sides[self.side_of[soloist]] if s != soloist]
            for s in self.sitting_out:
                active[s] = False
        trump = self._trump()
        effective_suit, strength = card_order(trump)
        self._follow_masks = suit_cards(trump)
        self.tp = TrickPlay(self.hands, leader, trump, effective_suit, strength, active, self._follow_masks)
        self.phase = PLAY

    # the play

    def _apply_play(self, action: Action) -> None:
        if len(action.cards) != 1:
            raise IllegalAction("play exactly one card")
        if action.value is not None or action.contract is not None or action.card is not None or action.announce:
            raise IllegalAction("a play gives its card (and, leading the Joker at no trumps, a suit) only")
        self.play_card(action.cards[0], action.suit)

    def play_card(self, c: int, suit: int | None = None) -> None:
        """Play card ``c`` for the seat to move; ``suit`` names the suit when leading the Joker at no trumps.

        The fast path for computer players (no Action objects); ``apply`` uses it too, so the checks are the same.
        """
        if self.phase != PLAY:
            raise IllegalAction("no card can be played now")
        tp = self.tp
        assert tp is not None  # the play phase has its tricks
        seat = tp.turn
        hand = tp.hands[seat]
        if tp.trick:  # follow suit if possible (the same test as legal_card_mask)
            led_suit = tp.led_suit
            follow = hand & self._follow_masks[led_suit]
            if not (follow or hand) >> c & 1:
                raise self._why_not_playable(c)
            if suit is not None:
                raise IllegalAction("name a suit only when you lead the Joker at no trumps")
            if not follow:
                self.shown_void[seat] |= 1 << led_suit  # "shown himself to be void (by discarding to it when led)"
            if tp.play(c) >= 0 and len(tp.completed) == TRICKS:
                self._end_deal()
            return
        if not hand >> c & 1:  # the lead: any card held
            raise self._why_not_playable(c)
        joker_suit = None  # the suit named for the Joker led at no trumps
        if c == JK and self.trump == NO_TRUMP:
            joker_suit = self._joker_suit(suit)
        elif suit is not None and not (c == JK and suit == self.trump):
            raise IllegalAction("name a suit only when you lead the Joker at no trumps")
        if tp.play(c, joker_suit) >= 0 and len(tp.completed) == TRICKS:
            self._end_deal()

    def _joker_suit(self, suit: int | None) -> int:
        if suit is None or suit == NO_TRUMP:
            raise IllegalAction("leading the Joker at no trumps, name the suit the others must play (S, H, D or C)")
        if suit not in self.joker_lead_suits():
            raise IllegalAction(
                "you may not name {suit}: you have shown you hold none (you discarded to a {one} lead)",
                suit=Term("suit", SUITS[suit]), one=Term("suit", SUITS[suit], 1),
            )  # fmt: skip
        return suit

    def _why_not_playable(self, c: int) -> IllegalAction:
        tp = self.tp
        assert tp is not None  # the play phase has its tricks
        hand = tp.hands[tp.turn]
        if not 0 <= c < len(CARD_NAMES) or CARD_NAMES[c] == "?" or c not in self._pack:
            name = CARD_NAMES[c] if 0 <= c < len(CARD_NAMES) else c
            return IllegalAction("{card} is not in this game's pack", card=name)
        if not hand >> c & 1:
            return IllegalAction("you do not hold {card}", card=_card(c))
        led = tp.led_suit
        held = cards_of(hand & self._follow_masks[led])
        suit = Term("suit", SUITS[led])
        cards = _cards(held)
        if c == JK and self.trump == NO_TRUMP:
            return IllegalAction(
                "at no trumps the Joker may be played to a {one} lead only when you hold no {suit}: you hold {cards}",
                one=Term("suit", SUITS[led], 1), suit=suit, cards=cards,
            )  # fmt: skip
        if led == self.trump:
            return IllegalAction("you must follow trumps ({suit}): you hold {cards}", suit=suit, cards=cards)
        if self.trump not in (None, NO_TRUMP) and c == left_bower(self.trump):
            return IllegalAction(
                "you must follow suit: you hold {suit} ({card} is the left bower, a {trump})",
                suit=suit, card=_card(c), trump=Term("suit", SUITS[self.trump], 1),
            )  # fmt: skip
        return IllegalAction("you must follow suit: you hold {suit}", suit=suit)

    # --- the end of a deal ------------------------------------------------------------------------------------

    def _end_deal(self) -> None:
        tp = self.tp
        assert tp is not None  # a deal ends with its last trick
        winners = [w for _, _, w in tp.completed]
        if self.contract is None:
            result = score_all_pass(self.side_of, self.sides, winners)
            contract_sides: list[int] = []
        else:
            contract, soloist = self._won_contract()
            declarers = frozenset(self.sides[self.side_of[soloist]]) | (
                {self.partner} if self.partner is not None else frozenset()
            )
            result = score_contract(contract, soloist, self.partner, declarers, self.side_of, self.sides,
                                    winners)  # fmt: skip
            contract_sides = [self.side_of[soloist]]
            if self.partner is not None:
                contract_sides.append(self.side_of[self.partner])
        end = decide_game(self.totals, result, contract_sides, self.target, self.sides)
        self.totals = [t + c for t, c in zip(self.totals, result.change, strict=True)]
        self.deal_results.append(self._deal_result(result, end.reason))
        if end.over:
            self.winner = end.winner
            self.phase = GAME_OVER
        else:
            self.phase = BETWEEN_DEALS

    def _deal_result(self, result: DealScore, reason: Words | None) -> dict:
        tp = self.tp
        assert tp is not None  # a deal ends with its last trick
        tricks = list(tp.tricks_won)
        if self.partnerships:
            by_side = [0] * len(self.sides)
            for seat, n in enumerate(tricks):
                by_side[self.side_of[seat]] += n
        else:
            by_side = list(tricks)
        said = [*result.lines, Words("game over: {reason}", reason=reason)] if reason else result.lines
        self.explanations.append(tuple(said))
        return {
            "score_change": result.change,
            "thrown_in": False,
            "made": result.made,
            "contract": self._contract_json(),
            "tricks_won": tricks,
            "tricks_by_side": by_side,
            "scores_after": list(self.totals),
            "explain": "; ".join(w.message for w in said),
        }

    # --- output ---------------------------------------------------------------------------------------------

    def _contract_json(self) -> dict | None:
        if self.contract is None:
            return None
        contract, soloist = self._won_contract()
        return {
            "seat": soloist,
            **self._bid_json(contract),
            "side": list(self.sides[self.side_of[soloist]]),
            "called_card": CARD_NAMES[self.called_card] if self.called_card is not None else None,
            "partner": self.partner,
        }

    @staticmethod
    def _bid_json(bid: Bid) -> dict:
        """As in the record (``value`` = tricks and ``suit``, or ``contract``), with the table's ``points``."""
        return dict(BID_JSON[bid.rank])

    def _open_hand(self) -> dict | None:
        """ "If he is playing an open misère he waits until the first trick has been captured and then immediately
        lays the rest of his hand face up on the table."""
        tp = self.tp
        if tp is None or self.contract is None or not self.contract.open or not tp.completed:
            return None
        _, soloist = self._won_contract()
        return {"seat": soloist, "cards": [CARD_NAMES[c] for c in cards_of(tp.hands[soloist])]}

    def _joker_led_suit(self) -> str | None:
        """The suit named for the Joker leading the current trick at no trumps (what the others must follow)."""
        tp = self.tp
        if tp is None or not tp.trick or tp.trick[0][1] != JK or self.trump != NO_TRUMP or tp.led_suit < 0:
            return None
        return SUITS[tp.led_suit]

    # --- what the table shows and what happened (rules/view.py, rules/events.py) ----------------------------

    # The text is silent but for "a revoke may be corrected before the trick is turned down": a completed trick is
    # turned down, and (as in whist) may be looked at only until its winner leads to the next; docs/rules/.
    LOOK_BACK = "until_next_lead"
    PUBLIC_KEYS = frozenset(
        {"widow_taken", "auction", "high_bid", "open_hand", "joker_suit", "sitting_out", "tricks_won", "shown_void",
         "teams", "target"}
    )  # fmt: skip

    def seat_teams(self) -> list[int | None]:
        return list(self.side_of) if self.partnerships else [None] * self.players

    def seat_knowledge(self, seat: int) -> dict:
        if seat == self.soloist and self.discards:  # the soloist's own discards from hand and widow
            return {"discards": [CARD_NAMES[c] for c in self.discards]}
        return {}

    def tricks_completed(self) -> int:
        return len(self.tp.completed) if self.tp is not None else 0

    def last_completed_trick(self) -> tuple[int, list[tuple[int, list[int]]], int]:
        assert self.tp is not None
        _, plays, winner = self.tp.completed[-1]
        return winner, [(s, [c]) for s, c in plays], self.side_of[winner]

    def state_json(self) -> dict:
        tp = self.tp
        hands = tp.hands if tp is not None else self.hands
        return {
            "trump": suit_name(self.trump) if self.trump is not None else None,
            "contract": self._contract_json(),
            "trick": tp.trick_json() if tp is not None else [],
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in hands],
            "widow": [CARD_NAMES[c] for c in self.widow_cards],
            "widow_taken": self.soloist is not None,
            "discards": [CARD_NAMES[c] for c in self.discards],
            "out_of_play": [CARD_NAMES[c] for c in self.out_of_play],
            "auction": [
                {"seat": s, "type": "pass"} if b is None else {"seat": s, "type": "bid", **b.to_json()}
                for s, b in self.auction
            ],
            "high_bid": None if self.high_bid is None else {"seat": self.high_bidder, **self._bid_json(self.high_bid)},
            "open_hand": self._open_hand(),
            "joker_suit": self._joker_led_suit(),
            "sitting_out": self.sitting_out,
            "tricks_won": list(tp.tricks_won) if tp is not None else [0] * self.players,
            "shown_void": [[SUITS[s] for s in range(4) if v >> s & 1] for v in self.shown_void],
            "teams": [list(seats) for seats in self.sides] if self.partnerships else None,
            "target": self.target,
        }  # fmt: skip

    # --- copies -----------------------------------------------------------------------------------------------

    CLONE_COPIES = (
        "totals",
        "deal_results",
        "explanations",
        "hands",
        "passed",
        "auction",
        "discards",
        "shown_void",
        "sitting_out",
        "tp",
    )
