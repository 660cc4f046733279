"""Two Hundred (200): a whole game of many deals, as the seed texts describe it.

A deal goes through steps: the auction; then for the contractor an optional announcement (Le Rough), the kitty
exchange, the partner call (five players), naming trump; then the play of the tricks and the scoring.
"""

from __future__ import annotations

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES, JACK, NO_TRUMP, SUIT_MASKS, describe_suit, iter_cards, nth_card
from rules.dealing import DealCards, check_hands
from rules.errors import IllegalAction, RecordError
from rules.game import BETWEEN_DEALS, BIDDING, EXCHANGE, GAME_OVER, PLAY, TRUMP, LegalAction, Match
from rules.tricks import TrickPlay

from . import exchange
from .bidding import Auction, auction_rules
from .options import OPTIONS, expand_presets
from .scoring import GameEnd, Side, game_end, score_deal, scoring_rules
from .table import DEAL_KITTY, SILENT_STACKS, STACK_HEIGHT, TOTAL_POINTS, build_table, card_points

EFFECTIVE_SUIT = [c >> 4 if c < 64 else -1 for c in range(67)]  # no bowers or jokers: a card's suit is its suit
STRENGTH = [c & 15 for c in range(67)]  # "A-K-Q-J-10-9-8-7-6-5": the natural order of the rank slots
FACE_OR_ACE = sum(1 << (s * 16 + r) for s in range(4) for r in range(JACK, 16))  # J Q K A: "above a 10"

# Steps of a deal after the auction (see ``_steps_after_auction``).
ANNOUNCE, NAME_FIRST, DISCARD, CALL, TRUMP_OR_LEAD, TRICKS, OVER = (
    "announce", "name_first", "discard", "call", "trump", "play", "over",
)  # fmt: skip
STEP_PHASE = {ANNOUNCE: EXCHANGE, NAME_FIRST: TRUMP, DISCARD: EXCHANGE, CALL: TRUMP, TRUMP_OR_LEAD: TRUMP}
STEP_HANDLERS = {
    "bid": "_apply_auction",
    ANNOUNCE: "_apply_announce",
    NAME_FIRST: "_apply_trump_step",
    DISCARD: "_apply_discard",
    CALL: "_apply_call",
    TRUMP_OR_LEAD: "_apply_trump_step",
    TRICKS: "_apply_trump_step",
}
SUIT_LETTERS = {0: "S", 1: "H", 2: "D", 3: "C", NO_TRUMP: "NT"}


_ACTIONS: dict[tuple, Action] = {}


def _action(seat: int, kind: str, value: int | None = None, suit: int | None = None, card: int = -1) -> Action:
    """Actions are immutable: the legal lists reuse them instead of building thousands per deal."""
    key = (seat, kind, value, suit, card)
    action = _ACTIONS.get(key)
    if action is None:
        cards = (card,) if card >= 0 else ()
        action = _ACTIONS[key] = Action(seat, kind, value, suit, cards=cards)
    return action


class TwoHundred(Match):
    game_id = "two_hundred"
    OPTIONS = OPTIONS

    def __init__(self, options: dict | None = None, first_dealer: int = 0):
        super().__init__(expand_presets(options), first_dealer)  # type: ignore[arg-type]

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
        self._bid_orders: dict[tuple, list[int]] = {}
        self._pack_masks: dict[int, int] = {}
        self._checked: tuple[DealCards, list[int]] | None = None
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
        if cards.stock is not None or cards.hands is None or len(cards.kitty) != self.kitty_size():
            return False
        sizes = self.hand_sizes()
        if len(cards.hands) != len(sizes) or any(len(h) != n for h, n in zip(cards.hands, sizes, strict=True)):
            return False
        pack = self.pack()
        masks = []
        for hand in cards.hands:
            mask = 0
            for c in hand:
                mask |= 1 << c
            masks.append(mask)
        seen = 0
        for mask in masks:
            seen |= mask
        for c in cards.kitty:
            seen |= 1 << c
        exact = seen.bit_count() == len(pack) == sum(sizes) + len(cards.kitty) and seen == self._pack_mask(pack)
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
        self.stacks: list[list[list[int]]] = []
        if t.layout == "silent_partners":
            # The kitty lists each silent partner's three stacks bottom card first: the third card is face up.
            k = list(cards.kitty)
            for s in range(2):
                stacks = [k[9 * s + 3 * i : 9 * s + 3 * i + 3] for i in range(SILENT_STACKS)]
                self.stacks.append(stacks)
                hands[2 + s] = sum(1 << c for st in stacks for c in st)
            self.kitty = 0
        else:
            self.kitty = sum(1 << c for c in cards.kitty)
        self.dealt = list(hands)
        self.turned_pending = [False] * (SILENT_STACKS * 2)
        order = self._bidding_order()
        self.auction = Auction(self.auction_rules, order, t.positions)
        self.play = self._fresh_play(hands, order[0])
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
        self.step = "bid"
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
        if step == "bid":
            return self.table.controller[self.auction.to_speak]
        if step == OVER:
            return None
        return self.table.controller[self.contractor]

    def legal_actions(self) -> list[LegalAction]:
        if self.phase in (BETWEEN_DEALS, GAME_OVER):
            return []
        seat = self.to_move
        assert seat is not None
        if self.step == "bid":
            return self._legal_calls(seat)
        if self.step == ANNOUNCE:
            return [Action(seat, "call", contract="hundred"), Action(seat, "pass")]
        if self.step == DISCARD:
            allowed = exchange.discardable(self.play.hands[self.contractor], self.options["kitty_discard"], self.trump)
            return [DiscardChoice(seat, DEAL_KITTY, tuple(iter_cards(allowed)))]
        if self.step == CALL:
            return [Action(seat, "call", card=c) for c in iter_cards(self.callable_cards())]
        out = [_action(seat, "trump", suit=s) for s in self.nameable_suits()]
        if self.step == TRUMP_OR_LEAD or self.step == TRICKS:
            out.extend(_action(seat, "play", card=c) for c in iter_cards(self.legal_card_mask()))
        return out

    def _legal_calls(self, seat: int) -> list[LegalAction]:
        """The auction's legal actions; the same situations recur constantly, so the lists are cached."""
        auction = self.auction
        pos = auction.to_speak
        key = (seat, auction.high, auction.may_keep(pos), auction.forced(), self.may_call_misdeal(pos))
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

    def visible(self, pos: int) -> int:
        """A silent partner's face-up cards: the top card of each stack (turned up once the trick is complete)."""
        stacks = self.stacks[pos - 2]
        mask = 0
        for i, stack in enumerate(stacks):
            if stack and not self.turned_pending[(pos - 2) * SILENT_STACKS + i]:
                mask |= 1 << stack[-1]
        return mask

    def legal_card_mask(self) -> int:
        """The cards the position to play may play now (fast path for computer players)."""
        play = self.play
        pos = play.turn
        hand = self.visible(pos) if self.table.silent[pos] else play.hands[pos]
        if not play.trick:
            if self.must_lead_trump(hand):
                return hand & SUIT_MASKS[self.trump]  # type: ignore[index]
            return hand
        # "Players must follow suit if able to. A player who has no card of the suit led is free to play any card."
        return hand & SUIT_MASKS[play.led_suit] or hand

    def must_lead_trump(self, hand: int) -> bool:
        """Compulsory trump lead: "do not allow a non-trump to be led to the first trick"."""
        return (
            self.options["compulsory_trump_lead"] and not self.play.completed and self.trump is not None
            and self.trump != NO_TRUMP and bool(hand & SUIT_MASKS[self.trump])
        )  # fmt: skip

    # --- applying actions --------------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        self.check_turn(action)
        handler = getattr(self, STEP_HANDLERS[self.step])
        handler(action)

    def _wrong_type(self, action: Action, expected: str) -> IllegalAction:
        return IllegalAction(f"you cannot {action.type} now: {expected}")

    def _apply_auction(self, a: Action) -> None:
        pos = self.auction.to_speak
        if a.type == "claim_draw":
            if not self.options["misdeal"]:
                raise IllegalAction("misdeals are not allowed at this table")
            if not self.may_call_misdeal(pos):
                raise IllegalAction("you can call a misdeal only if you were dealt no ace, king, queen or jack")
            return self._throw_in(misdeal=a.seat)
        if a.type not in ("bid", "pass", "keep"):
            raise self._wrong_type(
                a, "the auction is on: bid, pass" + (" or keep" if self.auction.may_keep(pos) else "")
            )
        self.auction.check(a.type, a.value)
        self.auction.apply(a.type, a.value if a.type == "bid" else None)  # type: ignore[arg-type]
        if self.auction.done:
            self._end_auction()

    def _end_auction(self) -> None:
        if self.auction.contractor < 0:
            return self._throw_in()
        self.contractor = self.auction.contractor
        self.bid = 0 if self.auction.no_bid else self.auction.high
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
            raise self._wrong_type(a, "announce all 100 points (call 'hundred') or pass")
        self._next_step()

    def _apply_discard(self, a: Action) -> None:
        if a.type != "discard":
            raise self._wrong_type(a, "take the kitty and discard 4 cards")
        hand = self.play.hands[self.contractor]
        cards = 0
        for c in a.cards:
            cards |= 1 << c
        if len(a.cards) != DEAL_KITTY or cards.bit_count() != DEAL_KITTY:
            raise IllegalAction(f"discard exactly {DEAL_KITTY} different cards")
        if cards & ~hand:
            missing = [CARD_NAMES[c] for c in iter_cards(cards & ~hand)]
            raise IllegalAction(f"you do not hold {', '.join(missing)}")
        rule = self.options["kitty_discard"]
        bad = cards & ~exchange.discardable(hand, rule, self.trump)
        if bad:
            raise IllegalAction(exchange.why_not_discardable(bad, rule, self.trump))
        self.play.hands[self.contractor] = hand & ~cards
        self.discard = cards
        self._next_step()

    def _apply_call(self, a: Action) -> None:
        if a.type != "call" or a.card is None:
            raise self._wrong_type(a, "call a card: its holder is your partner for this deal")
        if not self.callable_cards() >> a.card & 1:
            held = self.play.hands[self.contractor] >> a.card & 1
            raise IllegalAction(f"{CARD_NAMES[a.card]} " + ("is in your hand" if held else "is not in anyone's hand"))
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
        expected = "name trump" if self.step == NAME_FIRST else "play a card"
        if self.step == TRUMP_OR_LEAD:
            expected = "name trump or lead a card (its suit becomes trump)"
        raise self._wrong_type(a, expected)

    def _apply_trump(self, a: Action) -> None:
        if a.suit is None:
            raise IllegalAction("name a suit: S, H, D or C" + (", or NT" if self.options["no_trump"] else ""))
        if a.suit not in self.nameable_suits():
            if self.trump is not None:
                raise IllegalAction(f"trump is already {describe_suit(self.trump)}")
            if a.suit == NO_TRUMP:
                raise IllegalAction("no-trump contracts are not allowed at this table")
            raise IllegalAction("at this table your first lead sets trump: lead a card of the suit you want")
        self.trump = a.suit
        self.play.trump = -1 if a.suit == NO_TRUMP else a.suit
        self._next_step() if self.step == NAME_FIRST else self._trump_known()

    def _trump_known(self) -> None:
        self.step, self.phase = TRICKS, PLAY

    def _play(self, c: int) -> None:
        if not self.legal_card_mask() >> c & 1:
            raise IllegalAction(self._why_not_playable(c))
        self.play_card(c)

    def _why_not_playable(self, c: int) -> str:
        play = self.play
        silent = self.table.silent[play.turn]
        hand = self.visible(play.turn) if silent else play.hands[play.turn]
        if not hand >> c & 1:
            if silent:
                return f"{CARD_NAMES[c]} is not one of your silent partner's face-up cards"
            return f"you do not hold {CARD_NAMES[c]}"
        if not play.trick:
            return f"your first lead must be a trump ({describe_suit(self.trump)}): you hold one"  # type: ignore[arg-type]
        holder = "your silent partner shows" if silent else "you hold"
        return f"you must follow suit: {holder} {describe_suit(play.led_suit)}"

    def play_card(self, c: int) -> None:
        """Play a card known to be legal (fast path for computer players: no Action, no re-checking)."""
        play = self.play
        pos = play.turn
        if self.trump is None:
            # "If the contractor fails to announce a trump suit before leading to the first trick, the suit of the
            # first card played by the contractor automatically becomes trump."
            self.trump = play.trump = c >> 4
            self.step, self.phase = TRICKS, PLAY
        if self.stacks and self.table.silent[pos]:
            self._take_from_stack(pos, c)
        if play.play(c) >= 0:
            if self.stacks:
                self.turned_pending = [False] * (SILENT_STACKS * 2)  # "turns the next card ... face up"
            self.tricks_left -= 1
            if not self.tricks_left:
                self._score()

    def random_playout(self, rng) -> None:
        """Play the rest of the deal with uniformly random legal cards, for Monte-Carlo players: the same as calling
        ``play_card(random legal card)`` until the deal ends, with the per-card overhead inlined."""
        rand = rng.random
        play = self.play
        first_lead_rule = self.options["compulsory_trump_lead"] and not play.completed
        while self.step == TRICKS and (self.stacks or first_lead_rule):  # silent partners, compulsory trump lead
            legal = self.legal_card_mask()
            self.play_card(nth_card(legal, int(rand() * legal.bit_count())))
        while self.step == TRICKS and play.trick:  # finish the trick in progress
            legal = self.legal_card_mask()
            self.play_card(nth_card(legal, int(rand() * legal.bit_count())))
        if self.step == TRICKS:
            self._random_tricks(rand)

    def _random_tricks(self, rand) -> None:
        """Whole tricks of random legal cards, with TrickPlay's bookkeeping (taken, tricks won, completed) kept."""
        play = self.play
        hands, suits, trump = play.hands, SUIT_MASKS, play.trump
        taken, tricks_won, completed = play.taken, play.tricks_won, play.completed
        followers = [rest[1:] for rest in self._play_orders()]
        leader = play.turn
        for _ in range(self.tricks_left):
            # The lead: any card of the hand.
            hand = hands[leader]
            n = int(rand() * hand.bit_count())
            legal = hand
            while n:
                legal &= legal - 1
                n -= 1
            bit = legal & -legal
            hands[leader] = hand ^ bit
            mask = bit
            c = bit.bit_length() - 1
            led = c >> 4
            best = (200 if led == trump else 100) + (c & 15)
            winner = leader
            plays = [(leader, c)]
            follow = suits[led]
            for pos in followers[leader]:
                hand = hands[pos]
                legal = hand & follow or hand  # "Players must follow suit if able to"
                n = int(rand() * legal.bit_count())
                while n:
                    legal &= legal - 1
                    n -= 1
                bit = legal & -legal
                hands[pos] = hand ^ bit
                mask |= bit
                c = bit.bit_length() - 1
                s = c >> 4
                if s == trump:
                    key = 200 + (c & 15)
                elif s == led:
                    key = 100 + (c & 15)
                else:
                    key = 0
                if key > best:
                    best, winner = key, pos
                plays.append((pos, c))
            taken[winner] |= mask
            tricks_won[winner] += 1
            completed.append((leader, plays, winner))
            leader = winner
        play.leader = play.turn = leader
        self.tricks_left = 0
        self._score()

    def _play_orders(self) -> list[tuple[int, ...]]:
        """For each leader, the active positions in order of play."""
        key = tuple(self.active)
        orders = self._orders.get(key)
        if orders is None:
            live = [p for p in range(len(key)) if key[p]]
            orders = [tuple(live[live.index(q) :] + live[: live.index(q)]) if key[q] else () for q in range(len(key))]
            self._orders[key] = orders
        return orders

    def _take_from_stack(self, pos: int, c: int) -> None:
        for i, stack in enumerate(self.stacks[pos - 2]):
            if stack and stack[-1] == c:
                stack.pop()
                self.turned_pending[(pos - 2) * SILENT_STACKS + i] = True
                return

    # --- the end of a deal -------------------------------------------------------------------------------------

    def _throw_in(self, misdeal: int | None = None) -> None:
        """ "If all four players pass, the hands are thrown in without score"; a misdeal is redealt by the same
        dealer."""
        result = {"score_change": [0] * self.table.units, "thrown_in": True, "made": None, "contract": None}
        if misdeal is not None:
            result["misdeal"] = misdeal
            result["explain"] = f"seat {misdeal} called a misdeal: the same dealer deals again"
            self.redeal_same_dealer = True
        else:
            result["explain"] = "everyone passed: thrown in without score"
        self.deal_results.append(result)
        self.step, self.phase = OVER, BETWEEN_DEALS

    def _discard_owner(self) -> int:
        """The position whose side counts the discard's points."""
        owner = exchange.DISCARD_OWNER[self.options["kitty_discard"]]
        completed = self.play.completed
        if owner == "last_trick":
            return completed[-1][2]  # "count for the side that wins the last trick"
        if owner == "first_trick":
            return completed[0][2]  # "award the points in the discard to the side that wins the first trick"
        if owner == "contractor":
            return self.contractor  # "Some count the discarded points for the contractor"
        # "any points in it count to the contractor's opponents": with several, the contractor's left-hand opponent
        pos = self.contractor
        contracting = self._contracting_units()
        while True:
            pos = (pos + 1) % self.table.positions
            if self.active[pos] and self.table.unit_of[pos] not in contracting:
                return pos

    def _contracting_units(self) -> tuple[int, ...]:
        t = self.table
        units = {t.unit_of[self.contractor]}
        if self.partner >= 0:
            units.add(t.unit_of[self.partner])
        return tuple(sorted(units))

    def sides(self) -> list[Side]:
        """The contractor's side first, then each opposing side, with card points and best bids."""
        t = self.table
        points = [card_points(taken) for taken in self.play.taken]
        if self.discard:
            points[self._discard_owner()] += card_points(self.discard)
        best_bid = self.auction.best_bid
        if t.layout == "called_partner":  # temporary teams: the contractor and partner against the rest
            pair = (self.contractor, self.partner)
            rest = [p for p in range(t.positions) if p not in pair]
            return [
                Side(self._contracting_units(), sum(points[p] for p in pair), max(best_bid[p] for p in pair)),
                Side(tuple(rest), sum(points[p] for p in rest), max(best_bid[p] for p in rest)),
            ]
        contracting = t.unit_of[self.contractor]
        units = [contracting] + [u for u in range(t.units) if u != contracting and u not in self.dropped]
        out = []
        for u in units:
            members = t.members[u]
            out.append(Side((u,), sum(points[p] for p in members), max(best_bid[p] for p in members)))
        return out

    def _score(self) -> None:
        sides = self.sides()
        multiplier = 2 if self.trump == NO_TRUMP else 1  # "No trump games score double"
        change, made, explain = score_deal(self.scoring, self.unit_scores, sides, self.bid, multiplier)
        if self.auction.no_bid:
            explain = "contract without a bid: " + explain  # "the contractor's team cannot lose points"
        for u, d in enumerate(change):
            self.unit_scores[u] += d
        contracting = sides[0].units
        contractor_unit = self.table.unit_of[self.contractor]
        took_all = sides[0].points == TOTAL_POINTS
        end = game_end(self.scoring, self.unit_scores, self.active_units(), contracting, contractor_unit, made)
        if self.options["bloutte"] and took_all:
            end = GameEnd(True, contractor_unit)  # "if the bidders take 100 points ... they win the whole game"
            explain += "; a bloutte: all 100 points win the game"
        if self.hundred_announced:
            # "if they succeed they win the whole game, but if they lose the other team wins"
            end = GameEnd(True, contractor_unit if took_all else 1 - contractor_unit)
            explain += "; announced all 100 points: " + (
                "made, the game is won" if took_all else "failed, the game is lost"
            )
        self.deal_results.append({
            "score_change": change,
            "thrown_in": False,
            "made": made,
            "contract": self.contract_json(),
            "points": [s.points for s in sides],
            "sides": [list(s.units) for s in sides],
            "explain": explain,
        })  # fmt: skip
        self._drop(end.drop)
        self.step = OVER
        if end.over:
            self.phase, self.winner = GAME_OVER, end.winner
            self.skunk = self._is_skunk()
        else:
            self.phase = BETWEEN_DEALS

    def active_units(self) -> list[int]:
        return [u for u in range(self.table.units) if u not in self.dropped]

    def _drop(self, units: tuple[int, ...]) -> None:
        """ "the losing team drops out while the other two teams ... continue playing a four-player game"."""
        for u in units:
            self.dropped.append(u)
            for p in self.table.unit_positions(u):
                self.active[p] = False
        if units and not self.active[self.dealer]:
            self.dealer = self._previous_active(self.dealer)

    def _previous_active(self, pos: int) -> int:
        while not self.active[pos]:
            pos = (pos - 1) % self.table.positions
        return pos

    def _is_skunk(self) -> bool:
        """ "if a team wins while the other team is in the hole (below zero), this is considered a skunk"; "Others use
        the term skunk for the case where the losers neither won nor lost any points"."""
        rule = self.options["skunk"]
        if rule == "none" or self.winner is None:
            return False
        losers = [u for u in range(self.table.units) if u != self.winner]
        if rule == "in_the_hole":
            return all(self.unit_scores[u] < 0 for u in losers)
        return all(all(r["score_change"][u] == 0 for r in self.deal_results) for u in losers)

    # --- reading the state -------------------------------------------------------------------------------------

    def hand(self, seat: int) -> list[int]:
        return list(iter_cards(self.play.hands[seat])) if hasattr(self, "play") else []

    def scores(self) -> list[int]:
        return list(self.unit_scores)

    def contract_json(self) -> dict | None:
        if self.contractor < 0:
            return None
        out: dict = {
            "seat": self.table.controller[self.contractor],
            "bid": self.bid,
            "team": self.table.unit_of[self.contractor],
        }
        if self.auction.no_bid:
            out["without_bid"] = True
        if self.partner_card is not None:
            out["partner_card"] = CARD_NAMES[self.partner_card]
            if self.play.completed and any(c == self.partner_card for t in self.play.completed for _, c in t[1]):
                out["partner"] = self.partner
        if self.hundred_announced:
            out["announced_hundred"] = True
        return out

    def state_json(self) -> dict:
        if not hasattr(self, "play"):
            return {}
        t = self.table
        out: dict = {
            "trump": None if self.trump is None else SUIT_LETTERS[self.trump],
            "contract": self.contract_json(),
            "trick": [
                {"seat": t.controller[p], "cards": [CARD_NAMES[c]], **({"silent": True} if t.silent[p] else {})}
                for p, c in self.play.trick
            ],
            "step": self.step,
            "hands": [[CARD_NAMES[c] for c in iter_cards(self.play.hands[s])] for s in range(t.players)],
            "auction": [
                {"seat": t.controller[p], "type": k, **({"value": v} if v is not None else {})}
                for p, k, v in self.auction.history
            ],
            "tricks_won": [self.play.tricks_won[p] for p in range(t.positions)],
            "points_taken": [card_points(self.play.taken[p]) for p in range(t.positions)],
        }
        if self.stacks:
            out["silent_face_up"] = [[CARD_NAMES[c] for c in iter_cards(self.visible(p))] for p in (2, 3)]
        if self.discard:
            out.update(self._discard_info())
        if self.dropped:
            out["dropped_out"] = list(self.dropped)
        if self.phase == GAME_OVER and self.options["skunk"] != "none":
            out["skunk"] = self.skunk
        return out

    def _discard_info(self) -> dict:
        rule = self.options["kitty_discard"]
        if self.step == OVER:
            return {"discard": [CARD_NAMES[c] for c in iter_cards(self.discard)]}  # shown at the end of the play
        if rule == "show_trumps" and self.trump is not None and self.trump != NO_TRUMP:
            # "any trumps that are discarded must be shown to the other players after trumps are announced"
            return {"discard_trumps_shown": [CARD_NAMES[c] for c in iter_cards(self.discard & SUIT_MASKS[self.trump])]}
        if rule == "announce_points":
            # "require the contractor to inform the other players if there are any point cards in the discard"
            return {"discard_has_points": bool(card_points(self.discard))}
        return {}

    # --- copying -----------------------------------------------------------------------------------------------

    def clone(self) -> TwoHundred:
        other = TwoHundred.__new__(TwoHundred)
        other.__dict__.update(self.__dict__)
        other.unit_scores = list(self.unit_scores)
        other.active = list(self.active)
        other.dropped = list(self.dropped)
        other.deal_results = list(self.deal_results)
        if hasattr(self, "play"):
            other.play = self.play.copy()
            other.play.active = list(self.play.active)
            other.auction = self.auction.copy()
            other.stacks = [[list(st) for st in stacks] for stacks in self.stacks]
            other.turned_pending = list(self.turned_pending)
            other.steps_left = list(getattr(self, "steps_left", []))
        return other
