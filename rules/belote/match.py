"""Belote Contrée as the French Belote Federation plays it: a match of many deals.

Seats are in order of play (the text's counter-clockwise turn: seat s+1 is the player to the right of seat s);
team 0 = seats 0 and 2, team 1 = seats 1 and 3.  A deal is an auction (``rules.belote.auction``), eight tricks
played with the obligations of §5.2 (``legal_card_mask``), and the score (``rules.belote.scoring``).

The play is the hot path of the computer players, so it works on bitmasks with the per-contract tables of
``rules.belote.tables``; besides the generic ``legal_actions()`` / ``apply(Action)``, players may use the fast
path ``legal_card_mask()`` / ``play_card(card, announce)``.
"""

from __future__ import annotations

import random
from typing import Any

from rules.actions import Action
from rules.belote.auction import ALL_TRUMPS, BID_VALUES, CAPOT, CONTRACT_VALUES, Auction
from rules.belote.scoring import DealScore, DealTally, ScoringRules, score_deal
from rules.belote.tables import (
    BELOTE_BONUS,
    CAPOT_LAST_TRICK,
    KIND_LONG,
    KIND_NAMES,
    LAST_TRICK_BONUS,
    PACK,
    PACK_MASK,
    SANS_ATOUT,
    SUIT_CARDS,
    TABLES,
    TOUT_ATOUT,
)
from rules.cards import CARD_NAMES, NUM_CARD_IDS, SUITS, cards_of, iter_cards
from rules.dealing import DealCards, check_hands
from rules.errors import IllegalAction, RecordError, Term, Words
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, PLAY, LegalAction, Match
from rules.options import Option

PLAYERS = 4
HAND_SIZE = 8
TRICKS = 8

# Play actions are immutable: build each one once.
PLAY_ACTIONS = tuple(tuple(Action(s, "play", cards=(c,)) for c in range(64)) for s in range(PLAYERS))
BELOTE_ACTIONS = tuple(
    tuple(Action(s, "play", cards=(c,), announce="belote") for c in range(64)) for s in range(PLAYERS)
)


def _positive(value: int) -> str | None:
    return None if value > 0 else "must be at least 1"


def _not_negative(value: int) -> str | None:
    return None if value >= 0 else "must be 0 (play to the target) or a number of deals"


_BITS = tuple(1 << c for c in range(NUM_CARD_IDS))


def _mask8(hand: list[int]) -> int:
    """The mask of an 8-card hand (any card id the parser gives: jokers fall outside the pack mask)."""
    b = _BITS
    return b[hand[0]] | b[hand[1]] | b[hand[2]] | b[hand[3]] | b[hand[4]] | b[hand[5]] | b[hand[6]] | b[hand[7]]


def _names(mask: int) -> Term:
    return Term("cards", tuple(CARD_NAMES[c] for c in cards_of(mask)))


class Belote(Match):
    game_id = "belote"
    OPTIONS = (
        Option("players", 4, "Belote Contrée is played by four, in two teams of two", choices=(4,)),
        Option("target", 1000, "the game ends when a side reaches this score at the end of a deal", check=_positive),
        Option("deals", 0, "play this many deals instead of to a target (0: play to the target)", check=_not_negative),
        Option("scoring", "made", "made: takers score their points + the contract; announced: the contract only",
               choices=("made", "announced")),
        Option("rounding", False, "round each side's deal result to the nearest ten (5 rounds up)"),
        Option("litige", False, "equal totals (81-81): the takers' points are held over for the next deal's winner"),
        Option("failed_points", 160, "the points a failed (or countered) contract is worth besides its value",
               choices=(160, 162)),
        Option("forced_undertrump", False, "unable to overtrump an opponent's trump, you must still play a trump"),
        Option("partner_undertrump", True,
               "partner winning with a trump: you may play a lower trump even while holding other cards"),
        Option("sans_atout", False, "allow no-trump contracts (bid suit NT)"),
        Option("tout_atout", False, "allow all-trump contracts (bid contract 'all_trumps')"),
    )  # fmt: skip

    def __init__(self, options: dict[str, Any] | None = None, first_dealer: int = 0):
        super().__init__(options, first_dealer)
        o = self.options
        self.kinds = (
            (0, 1, 2, 3) + ((SANS_ATOUT,) if o["sans_atout"] else ()) + ((TOUT_ATOUT,) if o["tout_atout"] else ())
        )
        self.rules = ScoringRules(o["failed_points"], o["scoring"] == "announced", o["rounding"], o["litige"])
        self.forced_undertrump = o["forced_undertrump"]
        self.partner_undertrump = o["partner_undertrump"]
        self.total = [0, 0]
        self.held_over = 0  # litige points waiting for the next deal's winner
        self.auction: Auction | None = None
        self.kind = -1  # the contract's kind once the auction is over
        self._checked: tuple[DealCards | None, list[int]] = (None, [])  # the last deal check_deal passed, and its masks
        self._reset_play([0, 0, 0, 0])

    @property
    def current_auction(self) -> Auction:
        """This deal's auction: every deal has one from its start (only a match not yet dealt has none)."""
        auction = self.auction
        assert auction is not None, "no deal has started"
        return auction

    def _reset_play(self, hands: list[int]) -> None:
        self._hands = hands
        self._turn = -1
        self._legal = 0  # the legal mask of the seat to move, kept up to date by every play
        self._trick: list[int] = []  # cards of the trick in progress, the leader's first
        self._leader = -1
        self._led = 0  # the led suit's cards (a mask)
        self._led_is_trump = 0  # the led card's bit if it is a trump, else 0
        self._best = -1  # the card winning the trick so far, and its seat
        self._best_seat = -1
        self._card_points = [0, 0]
        self._tricks_won = [0, 0]
        self._completed: list[tuple[int, list[int], int]] = []  # (leader, cards, winner)
        self._belote_cards = 0  # the K+Q pairs held in one hand whose first card may still carry the announcement
        self._belote = [0, 0]  # announced belote points per team
        self._belote_seats: list[int] = []

    # --- the deal --------------------------------------------------------------------------------------------

    def pack(self) -> list[int]:
        return list(PACK)

    def hand_sizes(self) -> list[int]:
        return [HAND_SIZE] * PLAYERS

    def check_deal(self, cards: DealCards) -> None:
        """The quick mask test first; the core's check names the problem when there is one."""
        if cards.stock is not None:
            raise RecordError("belote deals hands, not a stock")
        hands = cards.hands
        if (
            hands is not None
            and len(hands) == PLAYERS
            and not cards.kitty
            and len(hands[0]) == len(hands[1]) == len(hands[2]) == len(hands[3]) == HAND_SIZE
        ):
            a, b, c, d = masks = [_mask8(h) for h in hands]
            eight_each = a.bit_count() == b.bit_count() == c.bit_count() == d.bit_count() == HAND_SIZE
            if a | b | c | d == PACK_MASK and eight_each:
                self._checked = (cards, masks)
                return
        check_hands(cards, PACK, self.hand_sizes(), 0)

    def random_deal(self, rng: random.Random) -> DealCards:
        key = rng.random
        cards = sorted(PACK, key=lambda _: key())  # a uniform shuffle: twice as fast as rng.shuffle
        return DealCards(hands=[cards[0:8], cards[8:16], cards[16:24], cards[24:32]], kitty=[])

    def next_dealer(self) -> int:
        return (self.dealer + 1) % PLAYERS  # "the dealer will be the player to their right"

    def begin_deal(self, cards: DealCards) -> None:
        checked = self._checked
        self._reset_play(checked[1] if checked[0] is cards else cards.masks())
        self._checked = (None, [])
        self.kind = -1
        self.auction = Auction((self.dealer + 1) % PLAYERS, self.kinds)
        self.phase = BIDDING

    # --- whose turn, what is legal -------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.phase == BIDDING:
            return self.current_auction.turn
        if self.phase == PLAY:
            return self._turn
        return None

    def legal_actions(self) -> list[LegalAction]:
        if self.phase == BIDDING:
            return list(self.current_auction.legal())
        if self.phase != PLAY:
            return []
        seat = self._turn
        mask = self._legal
        plays = PLAY_ACTIONS[seat]
        out: list[LegalAction] = [plays[c] for c in iter_cards(mask)]
        announce = self._belote_cards & mask
        if announce:
            out += [BELOTE_ACTIONS[seat][c] for c in iter_cards(announce)]
        return out

    def legal_card_mask(self) -> int:
        """The cards the seat to move may play, as a mask (0 outside the play)."""
        return self._legal

    def belote_mask(self) -> int:
        """The cards the seat to move may play with the announcement "belote" (the first of K and Q of trumps)."""
        return self._belote_cards & self._hands[self._turn] if self.phase == PLAY else 0

    # --- applying actions ----------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        if self.phase == BIDDING:
            auction = self.current_auction
            if action.seat != auction.turn:
                self.check_turn(action)
            if action.type == "play":
                raise IllegalAction("the bidding is not over yet: pass, bid, counter or recounter")
            auction.apply(action)  # validates before changing anything
            if auction.over:
                self._end_auction()
            return
        self.check_turn(action)
        if action.type != "play":
            raise IllegalAction("the bidding is over: play a card ('{kind}' is not possible now)", kind=action.type)
        if len(action.cards) != 1:
            raise IllegalAction("play exactly one card")
        if action.announce not in (None, "belote"):
            raise IllegalAction(
                "'{announce}' is not an announcement here: say 'belote' with the first of the king and "
                "queen of trumps (the rebelote is said for you with the second)",
                announce=action.announce,
            )
        self.play_card(action.cards[0], action.announce == "belote")

    def play_card(self, card: int, announce: bool = False) -> int:
        """The fast path: play ``card`` (a card id) for the seat to move, announcing belote if ``announce``.

        Returns the legal mask of the next seat to move (0 when the deal is over), so that a player's loop needs
        no other call."""
        bit = 1 << card
        if not self._legal & bit:  # the legal mask of the seat to move (0 outside the play)
            raise self._refusal(card)
        seat = self._turn
        if self._belote_cards & bit:
            self._belote_cards &= ~SUIT_CARDS[card >> 4]  # the first card of the pair: announce now or never
            if announce:
                self._belote[seat & 1] += BELOTE_BONUS
                self._belote_seats.append(seat)
        elif announce:
            raise IllegalAction(
                "you can announce belote only with the first of the king and queen of trumps, holding both"
            )
        hands = self._hands
        hands[seat] ^= bit
        trick = self._trick
        trick.append(card)
        if len(trick) == 1:
            self._led = led = SUIT_CARDS[card >> 4]
            self._led_is_trump = self._trump_lead & bit
            self._best = best = card
            self._best_seat = best_seat = seat
        else:
            best = self._best
            if self._beats[best] & bit:
                self._best = best = card
                self._best_seat = best_seat = seat
            else:
                best_seat = self._best_seat
            if len(trick) == PLAYERS:
                self._end_trick()
                return self._legal
            led = self._led
        # The next seat's legal cards (§5.2), computed here once per card (the same code is in ``play_out``):
        # - "You must always follow the leading suit if you have cards in it. If the leading suit is trump, you
        #   must play a higher trump card than any already played, if possible."
        # - Void, partner winning the trick: any card (option partner_undertrump: false - no lower trump than the
        #   partner's unless holding only trumps, "the only case ... where a lower trump card is allowed").
        # - Void, partner not winning: "you must play a trump card if you have one", higher than an opponent's
        #   trump if possible; "If that's impossible, you may play a lower trump card" - or any card (option
        #   forced_undertrump: a trump).
        self._turn = seat = (seat + 1) & 3
        hand = hands[seat]
        follow = hand & led
        if follow:
            legal = ((follow & self._higher[best]) or follow) if self._led_is_trump else follow
        else:
            cut = self._cut
            trumps = hand & cut
            if not trumps:
                legal = hand
            elif best_seat == seat ^ 2:
                if self.partner_undertrump or not cut >> best & 1 or trumps == hand:
                    legal = hand
                else:
                    legal = (hand & ~trumps) | (trumps & self._higher[best])
            elif cut >> best & 1:
                legal = (trumps & self._higher[best]) or (trumps if self.forced_undertrump else hand)
            else:
                legal = trumps
        self._legal = legal
        return legal

    def play_out(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal cards, announcing every belote: a Monte-Carlo rollout.

        The same rules as ``play_card`` (a test checks that both play the same deals from the
        same generator), written with local variables because rollouts are the computer players' hot loop.
        Each card is the k-th lowest of the legal mask, k = int(rng.random() * number of legal cards).
        """
        if self.phase != PLAY:
            return
        rand = rng.random
        hands, trick = self._hands, self._trick
        higher, beats, cut, trump_lead = self._higher, self._beats, self._cut, self._trump_lead
        lenient, forced = self.partner_undertrump, self.forced_undertrump
        seat, legal = self._turn, self._legal
        best, best_seat, led, led_trump = self._best, self._best_seat, self._led, self._led_is_trump
        while True:
            for _ in range(int(rand() * legal.bit_count())):
                legal &= legal - 1
            bit = legal & -legal
            card = bit.bit_length() - 1
            if self._belote_cards & bit:
                self._belote_cards &= ~SUIT_CARDS[card >> 4]
                self._belote[seat & 1] += BELOTE_BONUS
                self._belote_seats.append(seat)
            hands[seat] ^= bit
            if trick:
                if beats[best] & bit:
                    best, best_seat = card, seat
            else:
                led, led_trump, best, best_seat = SUIT_CARDS[card >> 4], trump_lead & bit, card, seat
            trick.append(card)
            if len(trick) == PLAYERS:
                self._best_seat = best_seat
                self._end_trick()
                if self.phase != PLAY:
                    return
                trick, seat, legal = self._trick, self._turn, self._legal
                continue
            seat = (seat + 1) & 3
            hand = hands[seat]
            follow = hand & led
            if follow:
                legal = ((follow & higher[best]) or follow) if led_trump else follow
                continue
            trumps = hand & cut
            if not trumps:
                legal = hand
            elif best_seat == seat ^ 2:
                if lenient or not cut >> best & 1 or trumps == hand:
                    legal = hand
                else:
                    legal = (hand & ~trumps) | (trumps & higher[best])
            elif cut >> best & 1:
                legal = (trumps & higher[best]) or (trumps if forced else hand)
            else:
                legal = trumps

    def _end_trick(self) -> None:
        winner = self._best_seat
        team = winner & 1
        points = self._points
        trick = self._trick
        self._card_points[team] += points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        self._tricks_won[team] += 1
        self._completed.append((self._leader, trick, winner))  # the list is not reused: a new trick starts
        self._trick = []
        self._leader = self._turn = winner
        self._legal = self._hands[winner]  # the leader plays any card
        if len(self._completed) == TRICKS:
            # §9: dix de der; "In the case of a capot ... the Dix de Der is worth 100 points"
            self._card_points[team] += CAPOT_LAST_TRICK if self._tricks_won[team] == TRICKS else LAST_TRICK_BONUS
            self._finish_deal()

    def _refusal(self, card: int) -> IllegalAction:
        """Why ``card`` may not be played, in the player's words."""
        if self.phase != PLAY:
            return IllegalAction("no card can be played now")
        name = Term("card", CARD_NAMES[card])
        seat = self._turn
        hand = self._hands[seat]
        if not hand >> card & 1:
            if PACK_MASK >> card & 1:
                return IllegalAction("you do not hold {card}", card=name)
            return IllegalAction("{card} is not in this game's pack", card=name)
        best = Term("card", CARD_NAMES[self._best])
        follow = hand & self._led
        led = Term("suit", SUITS[self._trick[0] >> 4])
        if follow:
            if card >> 4 != self._trick[0] >> 4:
                return IllegalAction("you must follow suit: you hold {suit}", suit=led)
            higher = _names(follow & self._higher[self._best])
            return IllegalAction("you must play a higher trump than {card}: you hold {cards}", card=best, cards=higher)
        trumps = hand & self._cut
        over = trumps & self._higher[self._best]
        if self._best_seat == seat ^ 2:
            if over:
                return IllegalAction(
                    "your partner is winning with the trump {card}: you may discard, or overtrump ({cards}), but not "
                    "play a lower trump while you hold other cards",
                    card=best,
                    cards=_names(over),
                )
            return IllegalAction(
                "your partner is winning with the trump {card}: you may discard, but not play a lower trump while "
                "you hold other cards",
                card=best,
            )
        if self._cut >> self._best & 1:
            if over:
                return IllegalAction("you must overtrump {card}: you hold {cards}", card=best, cards=_names(over))
            return IllegalAction(
                "you must play a trump (this table plays forced undertrump): you cannot overtrump but hold trumps"
            )
        return IllegalAction("you must trump: you have no {suit} and your partner is not winning the trick", suit=led)

    def _end_auction(self) -> None:
        auction = self.current_auction
        if auction.thrown_in:
            # "If all four players pass without bidding, the hand ends with no points scored."
            self._record_result(
                {
                    "score_change": [0, 0],
                    "thrown_in": True,
                    "made": None,
                    "explain": "all four players passed: the deal is thrown in, no points scored",
                },
                (Words("all four players passed: the deal is thrown in, no points scored"),),
            )
            return
        self.kind = auction.high_kind
        tables = TABLES[self.kind]
        self._higher, self._beats, self._points = tables.higher, tables.beats, tables.points
        self._cut, self._trump_lead = tables.cut, tables.trump_lead
        self._belote_cards = sum(pair for pair in tables.belote_pairs for hand in self._hands if hand & pair == pair)
        # "The player to the right of the dealer plays the card of their choice"
        self._leader = self._turn = (self.dealer + 1) % PLAYERS
        self._legal = self._hands[self._turn]
        self.phase = PLAY

    # --- the end of a deal and of the game ---------------------------------------------------------------------

    def contract_value(self) -> int:
        return CONTRACT_VALUES[self.current_auction.high_level]

    def _finish_deal(self) -> None:
        self._legal = 0
        auction = self.current_auction
        takers = auction.high_seat & 1
        level = auction.high_level
        points, tricks, belote = self._card_points, self._tricks_won, self._belote
        tally = DealTally(
            takers,
            CONTRACT_VALUES[level],
            level == CAPOT,
            auction.multiplier,
            (points[0], points[1]),
            (tricks[0], tricks[1]),
            (belote[0], belote[1]),
        )
        score: DealScore = score_deal(tally, self.rules, self.held_over)
        self.held_over = score.held_over
        change, totals = score.score_change, score.totals
        result = {
            "score_change": [change[0], change[1]],
            "thrown_in": False,
            "made": score.made,
            "contract": self.contract_json(),
            "card_points": [points[0], points[1]],
            "belote": [belote[0], belote[1]],
            "totals": [totals[0], totals[1]],
            "tricks": [tricks[0], tricks[1]],
            "explain": score.explain,
        }
        if self.options["litige"]:
            result["litige"] = score.litige
            result["held_over"] = score.held_over
        self._record_result(result, score.words)

    def _record_result(self, result: dict, words: tuple[Words, ...] = ()) -> None:
        self.explanations.append(words)
        change = result["score_change"]
        self.total[0] += change[0]
        self.total[1] += change[1]
        self.deal_results.append(result)
        self.phase = BETWEEN_DEALS
        self._check_end()

    def _check_end(self) -> None:
        """§11 and the rule decisions: a side reaching the target at the end of a deal wins; if both do, the
        higher score; if equal, play on.  With ``deals``, the game ends after that many deals (ties play on)."""
        a, b = self.total
        fixed = self.options["deals"]
        if fixed:
            over = len(self.deal_results) >= fixed and a != b
        else:
            target = self.options["target"]
            over = (a >= target or b >= target) and a != b
        if over:
            self.winner = 0 if a > b else 1
            self.phase = GAME_OVER

    # --- reading the state --------------------------------------------------------------------------------

    def hand(self, seat: int) -> list[int]:
        return cards_of(self._hands[seat])

    def scores(self) -> list[int]:
        return list(self.total)

    def contract_json(self) -> dict | None:
        auction = self.auction
        if auction is None or not auction.over or auction.thrown_in:
            return None
        out: dict[str, Any] = {"seat": auction.high_seat, "team": auction.high_seat & 1}
        out["value"] = BID_VALUES[auction.high_level]
        if self.kind == TOUT_ATOUT:
            out["contract"] = ALL_TRUMPS
        else:
            out["suit"] = KIND_NAMES[self.kind]
        out["countered"] = auction.countered_by >= 0
        out["recountered"] = auction.recountered
        out["multiplier"] = auction.multiplier
        return out

    def trick_json(self) -> list[dict]:
        return [{"seat": (self._leader + i) % PLAYERS, "cards": [CARD_NAMES[c]]} for i, c in enumerate(self._trick)]

    # --- what the table shows and what happened (rules/view.py, rules/events.py) ----------------------------

    PUBLIC_KEYS = frozenset(
        {"auction", "high_bid", "tricks_won", "card_points", "belote", "last_trick", "contract_kind", "held_over"}
    )
    # Only "the last trick can be viewed by any player until the next trick has been collected": the points in
    # the won tricks are not on show.
    FACE_DOWN_KEYS = frozenset({"card_points"})
    # "The last trick can be viewed by any player until the next trick has been collected."
    LOOK_BACK = "until_next_collected"

    def seat_teams(self) -> list[int | None]:
        return [seat & 1 for seat in range(PLAYERS)]  # partners sit opposite

    def tricks_completed(self) -> int:
        return len(self._completed)

    def side_points(self) -> list[int] | None:
        return self._card_points

    def last_completed_trick(self) -> tuple[int, list[tuple[int, list[int]]], int]:
        leader, cards, winner = self._completed[-1]
        return winner, [((leader + i) % PLAYERS, [c]) for i, c in enumerate(cards)], winner & 1

    def state_json(self) -> dict:
        auction = self.auction
        contract = self.contract_json()
        out: dict[str, Any] = {
            "trump": KIND_NAMES[self.kind] if contract is not None else None,
            "contract": contract,
            "trick": self.trick_json() if self.phase == PLAY else [],
            "auction": [a.to_json() for a in auction.calls] if auction else [],
            "high_bid": auction.high_json() if auction else None,
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in self._hands],
            "tricks_won": list(self._tricks_won),
            "card_points": list(self._card_points),
            "belote": list(self._belote_seats),
            "last_trick": self._last_trick_json(),
        }
        if contract is not None:
            out["contract_kind"] = KIND_LONG[self.kind]
        if self.options["litige"]:
            out["held_over"] = self.held_over
        return out

    def _last_trick_json(self) -> list[dict] | None:
        if not self._completed:
            return None
        leader, cards, _ = self._completed[-1]
        return [{"seat": (leader + i) % PLAYERS, "cards": [CARD_NAMES[c]]} for i, c in enumerate(cards)]

    CLONE_COPIES = (
        "total", "deal_results", "explanations", "auction", "_hands", "_trick", "_card_points", "_tricks_won",
        "_completed", "_belote", "_belote_seats",
    )  # fmt: skip
