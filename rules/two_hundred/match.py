"""Two Hundred (200): a whole game of many deals, as the seed texts describe it.

A deal goes through steps (steps.py): the auction (bidding.py); then for the contractor an optional announcement
(Le Rough), the kitty exchange (exchange.py), the partner call (five players), naming trump; then the play of the
tricks (play.py) and the scoring (result.py, scoring.py).  This module sets each deal up and applies the actions of
every step but the play; view.py builds the replay output.
"""

from __future__ import annotations

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES, JACK, NO_TRUMP, NUM_CARD_IDS, SUITS, iter_cards
from rules.dealing import DealCards, check_hands
from rules.errors import IllegalAction, RecordError, Term, Words
from rules.events import DroppedOut, Event
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, PLAY, TRUMP, LegalAction, Match
from rules.tricks import TrickPlay

from . import exchange
from .bidding import Auction, auction_rules
from .options import OPTIONS, expand_presets
from .play import EFFECTIVE_SUIT, STRENGTH, PlayPhase
from .result import DealEnd
from .scoring import scoring_rules
from .steps import ANNOUNCE, AUCTION, CALL, DISCARD, NAME_FIRST, OVER, STEP_PHASE, TRICKS, TRUMP_OR_LEAD
from .table import DEAL_KITTY, SILENT_STACKS, STACK_HEIGHT, build_table, card_points
from .view import StateView

FACE_OR_ACE = sum(1 << (s * 16 + r) for s in range(4) for r in range(JACK, 16))  # J Q K A: "above a 10"
STEP_HANDLERS = {
    AUCTION: "_apply_auction",
    ANNOUNCE: "_apply_announce",
    NAME_FIRST: "_apply_trump_step",
    DISCARD: "_apply_discard",
    CALL: "_apply_call",
    TRUMP_OR_LEAD: "_apply_trump_step",
    TRICKS: "_apply_trump_step",
}


BIT = [1 << c for c in range(NUM_CARD_IDS)]
_ACTIONS: dict[tuple, Action] = {}


def _action(seat: int, kind: str, value: int | None = None, suit: int | None = None, card: int = -1) -> Action:
    """Actions are immutable: the legal lists reuse them instead of building thousands per deal."""
    key = (seat, kind, value, suit, card)
    action = _ACTIONS.get(key)
    if action is None:
        cards = (card,) if card >= 0 else ()
        action = _ACTIONS[key] = Action(seat, kind, value, suit, cards=cards)
    return action


_PLAYS: dict[int, list[Action]] = {}


def _play_actions(seat: int) -> list[Action]:
    """The seat's ``play`` action of each card id, built once (the legal lists of the lead reuse them)."""
    plays = _PLAYS.get(seat)
    if plays is None:
        plays = _PLAYS[seat] = [_action(seat, "play", card=c) for c in range(64)]
    return plays


class TwoHundred(PlayPhase, DealEnd, StateView, Match):
    game_id = "two_hundred"
    OPTIONS = OPTIONS

    def __init__(self, options: dict | None = None, first_dealer: int = 0):
        super().__init__(expand_presets(options), first_dealer)

    def check_options(self) -> None:
        o = self.options
        self.table = build_table(o)
        self.auction_rules = auction_rules(o)
        self.scoring = scoring_rules(o, self.table.drop_out)
        if o["misdeal"] and o["players"] == 6:
            raise RecordError("option 'misdeal': \"The 'misdeal' rule is not be used with six players\"")
        if o["hundred_announcement"] and self.table.units != 2:
            raise RecordError("option 'hundred_announcement' needs two teams: a failed announcement loses the game")
        if o["kitty_discard"] != "defenders" and not o["kitty"]:
            raise RecordError("option 'kitty_discard' only applies with 'kitty': true")
        self.unit_scores = [0] * self.table.units
        self.active = [True] * self.table.positions
        self.dropped: list[int] = []
        self.redeal_same_dealer = False
        self.skunk = False
        self.step = OVER
        self.contractor = -1
        self._packs: dict[int, list[int]] = {}
        self._orders: dict[tuple, list[tuple[int, ...]]] = {}
        self._calls_cache: dict[tuple, list[LegalAction]] = {}
        self._trump_actions: dict[tuple, list[Action]] = {}  # by seat and step: nameable_suits() as actions
        self._bid_orders: dict[tuple, list[int]] = {}
        self._pack_masks: dict[int, int] = {}
        self._shapes: dict[tuple, tuple[list[int], int, int]] = {}  # by active positions: hand sizes, kitty, pack
        self._checked: tuple[DealCards, list[int]] | None = None
        self.compulsory_lead = o["compulsory_trump_lead"]
        self.keeping = o["dealer_keeps"] or o["anyone_keeps"]
        self.misdeals = o["misdeal"]
        self.stacks: list[list[list[int]]] = []
        positions = self.table.positions
        self._play_prototype = TrickPlay([0] * positions, 0, -1, EFFECTIVE_SUIT, STRENGTH)

    # --- the pack and the deal ---------------------------------------------------------------------------------

    def active_count(self) -> int:
        return sum(self.active)

    def pack(self) -> list[int]:
        n = self.active_count()
        if n not in self._packs:
            self._packs[n] = self.table.pack_for(n)
        return self._packs[n]

    def _fresh_play(self, hands: list[int], leader: int) -> TrickPlay:
        """A new deal's trick bookkeeping, copied from a prototype (cheaper than building the suit tables again)."""
        play = self._play_prototype.copy()
        play.hands, play.active = hands, list(self.active)
        play.leader = play.turn = leader
        return play

    def hand_sizes(self) -> list[int]:
        n = self.table.hand_size_with(self.active_count())
        return [n if self.active[p] else 0 for p in range(self.table.players)]

    def kitty_size(self) -> int:
        if self.table.layout == "silent_partners":
            return SILENT_STACKS * STACK_HEIGHT * 2  # the record's kitty holds the silent partners' stacks
        return self.table.kitty

    def check_deal(self, cards: DealCards) -> None:
        """Before play starts, a three-pairs deal may also be one dealt after a team dropped out."""
        if self._deal_is_exact(cards):
            return
        try:
            super().check_deal(cards)
        except RecordError:
            if not self.table.drop_out or not cards.hands or len(cards.hands) != self.table.positions:
                raise
            gone = tuple(p for p, h in enumerate(cards.hands) if not h)
            if len(gone) != 2 or self.table.unit_of[gone[0]] != self.table.unit_of[gone[1]]:
                raise
            check_hands(cards, self.table.pack_for(4), [0 if p in gone else 9 for p in range(6)], self.table.kitty)

    def _deal_is_exact(self, cards: DealCards) -> bool:
        """A quick bitmask check that the deal is exactly the pack; the core's check explains any problem."""
        hands = cards.hands
        shape = self._shapes.get(tuple(self.active))
        if shape is None:
            sizes = self.hand_sizes()
            shape = self._shapes[tuple(self.active)] = (sizes, self.kitty_size(), self._pack_mask(self.pack()))
        sizes, kitty_size, pack_mask = shape
        if cards.stock is not None or hands is None or len(cards.kitty) != kitty_size or len(hands) != len(sizes):
            return False
        masks = []
        seen = total = 0
        bit = BIT.__getitem__
        for hand, n in zip(hands, sizes, strict=True):
            mask = sum(map(bit, hand))  # a card given twice carries into another bit: fewer bits than cards
            if len(hand) != n or mask.bit_count() != n:
                return False
            masks.append(mask)
            seen |= mask
            total += n
        kitty = sum(map(bit, cards.kitty))
        # Each hand and the kitty without repeats, together the pack's cards and as many: nothing doubled or missing.
        exact = (
            kitty.bit_count() == kitty_size
            and seen | kitty == pack_mask
            and total + kitty_size == pack_mask.bit_count()
        )
        self._checked = (cards, masks) if exact else None  # begin_deal reuses the hands' masks
        return exact

    def _pack_mask(self, pack: list[int]) -> int:
        key = len(pack)
        if key not in self._pack_masks:
            self._pack_masks[key] = sum(1 << c for c in pack)
        return self._pack_masks[key]

    def next_dealer(self) -> int:
        if self.redeal_same_dealer:  # "the same dealer deals again"
            return self.dealer
        return self._next_bidder(self.dealer)

    def _next_bidder(self, pos: int) -> int:
        t = self.table
        pos = (pos + 1) % t.positions
        while t.silent[pos] or not self.active[pos]:
            pos = (pos + 1) % t.positions
        return pos

    def begin_deal(self, cards: DealCards) -> None:
        if self.table.drop_out and not self._deal_is_exact(cards):
            super().check_deal(cards)  # strictly against the table as it is now (after any drop-out)
        t = self.table
        hands = [0] * t.positions
        checked = self._checked
        if checked is not None and checked[0] is cards:
            hands[: len(checked[1])] = checked[1]
        else:
            for p, hand in enumerate(cards.hands or []):
                hands[p] = sum(1 << c for c in hand)
        self.stacks = []
        if t.layout == "silent_partners":
            # The kitty lists each silent partner's three stacks bottom card first: the third card is face up.
            k = list(cards.kitty)
            for s in range(2):
                stacks = [k[9 * s + 3 * i : 9 * s + 3 * i + 3] for i in range(SILENT_STACKS)]
                self.stacks.append(stacks)
                hands[2 + s] = sum(1 << c for st in stacks for c in st)
            self.kitty = 0
        else:
            self.kitty = sum(map(BIT.__getitem__, cards.kitty))  # checked: no card twice
        self.dealt = list(hands)
        self.turned_pending = [False] * (SILENT_STACKS * 2)
        order = self._bidding_order()
        self.auction = Auction(self.auction_rules, order, t.positions)
        self.play = self._fresh_play(hands, order[0])
        self._next_position = self._next_positions()
        self.tricks_left = t.hand_size_with(self.active_count())
        self.contractor = -1
        self.trump: int | None = None
        self.discard = 0
        self.partner_card: int | None = None
        self.partner = -1
        self.hundred_announced = False
        self.redeal_same_dealer = False
        self.steps_left: list[str] = []
        self.bid = 0
        self.step = AUCTION
        self.phase = BIDDING

    def _bidding_order(self) -> list[int]:
        """The bidders from the dealer's left round to the dealer (cached: the same few orders recur)."""
        key = (self.dealer, *self.active)
        order = self._bid_orders.get(key)
        if order is None:
            order, pos = [], self.dealer
            for _ in range(self.table.positions):
                pos = self._next_bidder(pos)
                order.append(pos)
                if pos == self.dealer:
                    break
            self._bid_orders[key] = order
        return order

    # --- whose turn, and what they may do ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        step = self.step
        if step in (TRICKS, TRUMP_OR_LEAD):
            return self.table.controller[self.play.turn]
        if step == AUCTION:
            return self.table.controller[self.auction.to_speak]
        if step == OVER:
            return None
        return self.table.controller[self.contractor]

    # --- what the table shows and what happened (rules/view.py, rules/events.py) ----------------------------

    PUBLIC_KEYS = frozenset(
        {"step", "auction", "tricks_won", "points_taken", "silent_face_up", "discard_trumps_shown",
         "discard_has_points", "dropped_out", "skunk"}
    )  # fmt: skip
    # "Completed tricks are stored face down ... and may not be looked at again by anyone until the end of the play."
    FACE_DOWN_KEYS = frozenset({"points_taken"})
    # The same sentence: once its winner leads again, a completed trick is out of sight for the rest of the play.
    LOOK_BACK = "until_next_lead"

    def public_facts(self) -> dict:
        facts = super().public_facts()
        if self.phase == GAME_OVER:
            facts["fell_to"] = self._fell_to()
        return facts

    def _fell_to(self) -> dict | None:
        """The game ended short of the target because a team was "minus 200 or worse while the other team's score is
        positive or zero": the teams that fell and the depth (a win at 10 points against -425 needs saying why)."""
        scores, depth = self.unit_scores, self.scoring.lose_at
        if not scores or max(scores) >= self.scoring.target:
            return None
        fallen = [u for u, v in enumerate(scores) if v <= -depth]
        return {"teams": fallen, "depth": depth} if fallen else None

    def seat_teams(self) -> list[int | None]:
        t = self.table
        if t.units >= t.players:
            return [None] * t.players
        return [t.unit_of[t.controller.index(seat)] for seat in range(t.players)]

    def seat_knowledge(self, seat: int) -> dict:
        if self.discard and self.step != OVER and self.table.controller[self.contractor] == seat:
            return {"discard": [CARD_NAMES[c] for c in iter_cards(self.discard)]}  # the contractor's own discard
        return {}

    def tricks_completed(self) -> int:
        return len(self.play.completed) if hasattr(self, "play") else 0

    def side_points(self) -> list[int] | None:
        if not hasattr(self, "play"):
            return None
        return [card_points(taken) for taken in self.play.taken]

    def last_completed_trick(self) -> tuple[int, list[tuple[int, list[int]]], int]:
        _, plays, winner = self.play.completed[-1]
        controller = self.table.controller
        return controller[winner], [(controller[p], [c]) for p, c in plays], winner

    def event_marks(self) -> tuple:
        return (*super().event_marks(), len(self.dropped))

    def events_after(self, marks: tuple) -> list[Event]:
        return super().events_after(marks) + [DroppedOut(team) for team in self.dropped[marks[-1] :]]

    def legal_actions(self) -> list[LegalAction]:
        step = self.step
        if step == AUCTION:
            return self._legal_calls(self.table.controller[self.auction.order[self.auction.turn]])
        if step == TRICKS:
            plays = _play_actions(self.table.controller[self.play.turn])
            return [plays[c] for c in iter_cards(self.legal_card_mask())]
        if self.phase in (BETWEEN_DEALS, GAME_OVER):
            return []
        seat = self.to_move
        assert seat is not None
        if self.step == ANNOUNCE:
            return [Action(seat, "call", contract="hundred"), Action(seat, "pass")]
        if self.step == DISCARD:
            allowed = exchange.discardable(self.play.hands[self.contractor], self.options["kitty_discard"], self.trump)
            return [DiscardChoice(seat, DEAL_KITTY, tuple(iter_cards(allowed)))]
        if self.step == CALL:
            return [Action(seat, "call", card=c) for c in iter_cards(self.callable_cards())]
        key = (seat, step)
        trumps = self._trump_actions.get(key)
        if trumps is None:
            trumps = self._trump_actions[key] = [_action(seat, "trump", suit=s) for s in self.nameable_suits()]
        out: list[LegalAction] = list(trumps)
        if step == TRUMP_OR_LEAD:
            plays = _play_actions(seat)
            out.extend([plays[c] for c in iter_cards(self.legal_card_mask())])
        return out

    def _legal_calls(self, seat: int) -> list[LegalAction]:
        """The auction's legal actions; the same situations recur constantly, so the lists are cached."""
        auction = self.auction
        pos = auction.order[auction.turn]
        high = auction.high
        key = (
            seat, high, self.keeping and auction.may_keep(pos), high is None and auction.forced(),
            self.misdeals and self.may_call_misdeal(pos),
        )  # fmt: skip
        out = self._calls_cache.get(key)
        if out is None:
            out = [_action(seat, kind, value) for kind, value in auction.legal()]
            if key[-1]:
                out.append(_action(seat, "claim_draw"))
            self._calls_cache[key] = out
        return list(out)

    def nameable_suits(self) -> list[int]:
        if self.step not in (NAME_FIRST, TRUMP_OR_LEAD):
            return []
        suits = [] if self.options["compulsory_trump_lead"] and self.step != NAME_FIRST else [0, 1, 2, 3]
        return suits + [NO_TRUMP] if self.options["no_trump"] else suits

    def may_call_misdeal(self, pos: int) -> bool:
        """ "a player who has been dealt no aces or face cards (i.e. no card above a 10) can call a 'misdeal'"."""
        return self.options["misdeal"] and not self.dealt[pos] & FACE_OR_ACE

    def callable_cards(self) -> int:
        """Five players: "the winning bidder calls a card whose holder will be the contractor's partner"."""
        held = 0
        for p in range(self.table.positions):
            if p != self.contractor:
                held |= self.play.hands[p]
        return held

    # --- applying actions --------------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        step = self.step
        # The usual case first (the seat to act, in the auction or the tricks), then the core's checks and messages.
        if step == AUCTION:
            if action.seat != self.table.controller[self.auction.order[self.auction.turn]]:
                self.check_turn(action)
            return self._apply_auction(action)
        if step == TRICKS and action.type == "play" and action.seat == self.table.controller[self.play.turn]:
            if len(action.cards) != 1:
                raise IllegalAction("play one card")
            return self._play(action.cards[0])
        self.check_turn(action)
        handler = getattr(self, STEP_HANDLERS[step])
        return handler(action)

    def _wrong_type(self, action: Action, expected: Words) -> IllegalAction:
        return IllegalAction(
            "you cannot {action} now: {expected}", action=Term("action", action.type), expected=expected
        )

    def _apply_auction(self, a: Action) -> None:
        auction = self.auction
        if a.type == "pass" and auction.high is not None:  # the commonest call, never refused after a bid
            auction.apply("pass", None)
            if auction.done:
                self._end_auction()
            return None
        pos = auction.to_speak
        if a.type == "claim_draw":
            if not self.options["misdeal"]:
                raise IllegalAction("misdeals are not allowed at this table")
            if not self.may_call_misdeal(pos):
                raise IllegalAction("you can call a misdeal only if you were dealt no ace, king, queen or jack")
            return self._throw_in(misdeal=a.seat)
        if a.type not in ("bid", "pass", "keep"):
            if self.auction.may_keep(pos):
                raise self._wrong_type(a, Words("the auction is on: bid, pass or keep"))
            raise self._wrong_type(a, Words("the auction is on: bid, pass"))
        self.auction.apply(a.type, self.auction.check(a.type, a.value))
        if self.auction.done:
            self._end_auction()

    def _end_auction(self) -> None:
        if self.auction.contractor < 0:
            return self._throw_in()
        self.contractor = self.auction.contractor
        high = self.auction.high
        if self.auction.no_bid:
            self.bid = 0
        else:
            assert high is not None, "the contractor made the high bid unless the no-bid rule made them contractor"
            self.bid = high
        self.play.leader = self.play.turn = self.contractor  # "the contractor leads to the first trick"
        steps = []
        contractor_unit = self.table.unit_of[self.contractor]
        if self.options["hundred_announcement"] and self.unit_scores[contractor_unit] >= 0:
            steps.append(ANNOUNCE)  # "If the bidder's team does not have a negative score ... before taking the kitty"
        if self.table.kitty:
            rule = self.options["kitty_discard"]
            steps += [NAME_FIRST, DISCARD] if exchange.trump_before_discard(rule) else [DISCARD]
        if self.table.layout == "called_partner":
            steps.append(CALL)
        steps.append(TRUMP_OR_LEAD)
        self.steps_left = steps
        self._next_step()
        return None

    def _next_step(self) -> None:
        self.step = self.steps_left.pop(0)
        if self.step == DISCARD:  # "the high bidder takes the four kitty cards"
            self.play.hands[self.contractor] |= self.kitty
        if self.step == TRUMP_OR_LEAD and self.trump is not None:
            self.step = TRICKS
        self.phase = PLAY if self.step == TRICKS else STEP_PHASE[self.step]
        if self.step == ANNOUNCE and not self.table.kitty:
            self.phase = TRUMP  # the announcement comes before the kitty; without one, before naming trump

    def _apply_announce(self, a: Action) -> None:
        if a.type == "call" and a.contract == "hundred" and a.card is None:
            self.hundred_announced = True
        elif a.type != "pass":
            raise self._wrong_type(a, Words("announce all 100 points (call 'hundred') or pass"))
        self._next_step()

    def _apply_discard(self, a: Action) -> None:
        if a.type != "discard":
            raise self._wrong_type(a, Words("take the kitty and discard {n} cards", n=DEAL_KITTY))
        hand = self.play.hands[self.contractor]
        cards = 0
        for c in a.cards:
            cards |= 1 << c
        if len(a.cards) != DEAL_KITTY or cards.bit_count() != DEAL_KITTY:
            raise IllegalAction("discard exactly {n} different cards", n=DEAL_KITTY)
        if cards & ~hand:
            missing = Term("cards", tuple(CARD_NAMES[c] for c in iter_cards(cards & ~hand)))
            raise IllegalAction("you do not hold {card}", card=missing)
        rule = self.options["kitty_discard"]
        bad = cards & ~exchange.discardable(hand, rule, self.trump)
        if bad:
            raise exchange.why_not_discardable(bad, rule, self.trump)
        self.play.hands[self.contractor] = hand & ~cards
        self.discard = cards
        self._next_step()

    def _apply_call(self, a: Action) -> None:
        if a.type != "call" or a.card is None:
            raise self._wrong_type(a, Words("call a card: its holder is your partner for this deal"))
        if not self.callable_cards() >> a.card & 1:
            held = self.play.hands[self.contractor] >> a.card & 1
            card = Term("card", CARD_NAMES[a.card])
            if held:
                raise IllegalAction("{card} is in your hand", card=card)
            raise IllegalAction("{card} is not in anyone's hand", card=card)
        self.partner_card = a.card
        self.partner = next(p for p in range(self.table.positions) if self.play.hands[p] >> a.card & 1)
        self._next_step()

    def _apply_trump_step(self, a: Action) -> None:
        if a.type == "trump":
            return self._apply_trump(a)
        if a.type == "play" and self.step != NAME_FIRST:
            if len(a.cards) != 1:
                raise IllegalAction("play one card")
            return self._play(a.cards[0])
        expected = Words("name trump") if self.step == NAME_FIRST else Words("play a card")
        if self.step == TRUMP_OR_LEAD:
            expected = Words("name trump or lead a card (its suit becomes trump)")
        raise self._wrong_type(a, expected)

    def _apply_trump(self, a: Action) -> None:
        if a.suit is None:
            if self.options["no_trump"]:
                raise IllegalAction("name a suit: S, H, D or C, or NT")
            raise IllegalAction("name a suit: S, H, D or C")
        if a.suit not in self.nameable_suits():
            if self.trump is not None:
                raise IllegalAction(
                    "trump is already {suit}", suit=Term("suit", "NT" if self.trump == NO_TRUMP else SUITS[self.trump])
                )
            if a.suit == NO_TRUMP:
                raise IllegalAction("no-trump contracts are not allowed at this table")
            raise IllegalAction("at this table your first lead sets trump: lead a card of the suit you want")
        self.trump = a.suit
        self.play.trump = -1 if a.suit == NO_TRUMP else a.suit
        if self.step == NAME_FIRST:
            self._next_step()  # on to the discard
        else:
            self.step, self.phase = TRICKS, PLAY

    # --- copying -----------------------------------------------------------------------------------------------

    CLONE_COPIES = (
        "unit_scores",
        "active",
        "dropped",
        "deal_results",
        "explanations",
        "play",
        "auction",
        "turned_pending",
        "steps_left",
    )

    def clone(self) -> TwoHundred:
        other = super().clone()
        stacks = self.__dict__.get("stacks")
        if stacks:  # the silent partners' stacks: a list of lists per partner, each popped in play
            other.stacks = [[list(stack) for stack in partner] for partner in stacks]
        return other
