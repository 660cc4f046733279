"""What the computer players need to know of each game, from public information only.

An adapter gives, for one game: the card order once trump is known (effective suit, strength, points), the teams,
how many cards each seat was dealt and how the kitty moves, how to rebuild a fresh match at the start of the current
deal from public facts (scores, dealer, levels), how to lay sampled cards out as the deal's ``DealCards``, and a fast
view of a *sampled* match's trick for rollouts (sampled matches are the player's own, so reading them is fair).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from rules.cards import JK, NO_TRUMP, NUM_CARD_IDS, parse_card, parse_suit
from rules.dealing import DealCards
from rules.game import Match
from rules.registry import match_class


@dataclass(frozen=True, slots=True)
class Order:
    """The card order of a deal once its trump is known."""

    es: tuple[int, ...]  # effective suit of each card id (-1: not in the pack)
    st: tuple[int, ...]  # strength within its effective suit
    pts: tuple[int, ...]  # card points
    trump: int  # the effective suit that trumps (-1 none)
    trick_value: int = 0  # points a trick is worth by itself (Five Hundred: 10 per trick)

    def suit_mask(self, suit: int) -> int:
        m = 0
        for c, s in enumerate(self.es):
            if s == suit:
                m |= 1 << c
        return m


def _plain_order(pts: tuple[int, ...], trump: int) -> Order:
    es = tuple(c >> 4 if c < 64 else -1 for c in range(NUM_CARD_IDS))
    st = tuple(c & 15 if c < 64 else 0 for c in range(NUM_CARD_IDS))
    return Order(es, st, pts, trump)


def trick_winner(order: Order, plays: list[tuple[int, int]], led: int | None = None) -> int:
    """The seat winning a one-card-per-seat trick so far (``led``: the led suit if named, e.g. the Joker's)."""
    if not plays:
        return -1
    led_suit = order.es[plays[0][1]] if led is None else led
    best_seat, best_key = -1, -1
    for seat, c in plays:
        s = order.es[c]
        k = 200 + order.st[c] if s == order.trump else (100 + order.st[c] if s == led_suit else 0)
        if k > best_key:
            best_seat, best_key = seat, k
    return best_seat


class Adapter:
    game = ""
    multi_card = False  # Da Bai Fen: a play may hold several cards

    def __init__(self, options: dict):
        # A duplicate board's fixed declarers (Da Bai Fen's ``board_declarers``) are in the public view as the deal's
        # mode and declarers, which ``fresh_match`` sets; as an option it would tie the worlds' dealer to one team.
        self.options = {k: v for k, v in options.items() if k != "board_declarers"}
        self.probe = match_class(self.game)(self.options, 0)
        self.players = self.probe.players
        # Places that hold cards and play to tricks: the seats, except where a seat also plays a silent partner's.
        self.positions = self.players
        self.silent: tuple[bool, ...] = (False,) * self.players
        self.pack_mask = sum(1 << c for c in self.probe.pack())

    # --- teams and cards -------------------------------------------------------------------------------------

    def side_of(self, seat: int, public: dict) -> int:
        return seat & 1 if self.players == 4 else seat

    def partners(self, seat: int, public: dict) -> list[int]:
        side = self.side_of(seat, public)
        return [s for s in range(self.players) if s != seat and self.side_of(s, public) == side]

    def order(self, public: dict) -> Order | None:
        raise NotImplementedError

    def active(self, public: dict) -> list[bool]:
        return [True] * self.positions

    # --- the deal's cards --------------------------------------------------------------------------------------

    def dealt_size(self, seat: int) -> int:
        return self.probe.hand_sizes()[seat]

    def kitty_size(self) -> int:
        return self.probe.kitty_size()

    def kitty_taker(self, public: dict, history) -> int | None:
        """The seat that added the kitty to its hand in this deal, if one did."""
        return None

    def taken_kitty_size(self) -> int:
        return self.kitty_size()

    def fresh_match(self, public: dict, dealer: int, deal_index: int) -> Match:
        m = match_class(self.game)(self.options, dealer)
        return m

    def after_start(self, m: Match, public: dict, deal_index: int) -> None:
        m.deal_index = deal_index

    def deal_cards(self, initial: list[list[int]], kitty: list[int], extra: dict) -> DealCards:
        return DealCards(hands=initial, kitty=kitty)

    # --- sampled matches: a fast look at the trick ------------------------------------------------------------

    def world_order(self, m: Match) -> Order | None:
        return None

    def world_trick(self, m: Match) -> list[tuple[int, int]] | None:
        """The current trick as (seat, card) of a sampled match, or None when not a one-card trick."""
        return None

    def world_hand_mask(self, m: Match, seat: int) -> int:
        h = 0
        for c in m.hand(seat):
            h |= 1 << c
        return h

    def utility(self, m: Match, seat: int, result: dict) -> float:
        """How good a finished deal is for ``seat``'s side (its score change minus the best other side's)."""
        change = result.get("score_change") or []
        if not change:
            return 0.0
        public = {"teams": None}
        mine = self.side_of(seat, public) if len(change) < self.players else seat
        others = [v for i, v in enumerate(change) if i != mine]
        return float(change[mine] - (max(others) if others else 0))


# --- Five Hundred ---------------------------------------------------------------------------------------------


class FiveHundredAdapter(Adapter):
    game = "five_hundred"

    def side_of(self, seat: int, public: dict) -> int:
        return self.probe.side_of[seat]

    def order(self, public: dict) -> Order | None:
        from rules.five_hundred.packs import card_order

        t = public.get("trump")
        if t is None:
            return None
        trump = parse_suit(t, allow_nt=True)
        es, st = card_order(trump)
        return Order(tuple(es), tuple(st), (0,) * NUM_CARD_IDS, trump, trick_value=10)

    def active(self, public: dict) -> list[bool]:
        out = public.get("sitting_out") or []
        return [s not in out for s in range(self.players)]

    def kitty_taker(self, public: dict, history) -> int | None:
        contract = public.get("contract")
        if contract and public.get("widow_taken"):
            return contract["seat"]
        return None

    def taken_kitty_size(self) -> int:
        return self.probe.widow_size

    def after_start(self, m: Match, public: dict, deal_index: int) -> None:
        m.deal_index = deal_index
        m.totals = list(public["scores"])

    def world_order(self, m: Match) -> Order | None:
        tp = m.tp
        if tp is None:
            return None
        return Order(tuple(tp.effective_suit), tuple(tp.strength), (0,) * NUM_CARD_IDS, tp.trump, 10)

    def world_trick(self, m: Match):
        return m.tp.trick if m.tp is not None else None

    def world_hand_mask(self, m: Match, seat: int) -> int:
        return m.tp.hands[seat] if m.tp is not None else m.hands[seat]

    def utility(self, m: Match, seat: int, result: dict) -> float:
        change = result["score_change"]
        mine = m.side_of[seat]
        others = [v for i, v in enumerate(change) if i != mine]
        return float(change[mine] - max(others))


# --- Belote ---------------------------------------------------------------------------------------------------


class BeloteAdapter(Adapter):
    game = "belote"

    def order(self, public: dict) -> Order | None:
        from rules.belote.tables import KIND_NAMES, PLAIN_ORDER, TABLES, TOUT_ATOUT, TRUMP_ORDER

        t = public.get("trump")
        if t is None or t not in KIND_NAMES:
            return None
        kind = KIND_NAMES.index(t)
        return self._order(kind, TABLES, PLAIN_ORDER, TRUMP_ORDER, TOUT_ATOUT)

    @staticmethod
    def _order(kind, tables, plain, trumps, tout) -> Order:
        es = [c >> 4 if c < 64 else -1 for c in range(NUM_CARD_IDS)]
        st = [0] * NUM_CARD_IDS
        for c in range(64):
            suit, rank = c >> 4, c & 15
            seq = trumps if (kind == tout or suit == kind) else plain
            if rank in seq:
                st[c] = seq.index(rank)
        pts = list(tables[kind].points) + [0] * (NUM_CARD_IDS - 64)
        return Order(tuple(es), tuple(st), tuple(pts), kind if kind < 4 else -1)

    def kitty_taker(self, public, history):
        return None

    def after_start(self, m: Match, public: dict, deal_index: int) -> None:
        m.deal_index = deal_index
        m.total = list(public["scores"])
        if "held_over" in public:
            m.held_over = public["held_over"]

    def world_order(self, m: Match) -> Order | None:
        if m.kind < 0:
            return None
        from rules.belote.tables import PLAIN_ORDER, TABLES, TOUT_ATOUT, TRUMP_ORDER

        return _cached_belote(m.kind, TABLES, PLAIN_ORDER, TRUMP_ORDER, TOUT_ATOUT)

    def world_trick(self, m: Match):
        if m.phase != "play":
            return None
        lead = m._leader
        return [((lead + i) & 3, c) for i, c in enumerate(m._trick)]

    def world_hand_mask(self, m: Match, seat: int) -> int:
        return m._hands[seat]


_BELOTE_ORDERS: dict[int, Order] = {}


def _cached_belote(kind, tables, plain, trumps, tout) -> Order:
    o = _BELOTE_ORDERS.get(kind)
    if o is None:
        o = _BELOTE_ORDERS[kind] = BeloteAdapter._order(kind, tables, plain, trumps, tout)
    return o


# --- Two Hundred ----------------------------------------------------------------------------------------------


TWO_HUNDRED_POINTS = tuple(
    (10 if (c & 15) in (15, 8) else 5 if (c & 15) == 3 else 0) if c < 64 else 0 for c in range(NUM_CARD_IDS)
)


class TwoHundredAdapter(Adapter):
    game = "two_hundred"

    def __init__(self, options: dict):
        super().__init__(options)
        table = self.probe.table
        self.unit_of = table.unit_of  # position -> scoring unit (pairs or threes of six players share one)
        self.positions = table.positions
        self.silent = table.silent  # the two-player game's silent partners (positions 2 and 3)
        self.hand_size = table.hand_size

    def dealt_size(self, seat: int) -> int:
        return self.hand_size if any(self.silent) else super().dealt_size(seat)

    def side_of(self, seat: int, public: dict) -> int:
        return self.unit_of[seat]

    def kitty_size(self) -> int:
        """The two-player game's "kitty" is the silent partners' stacks: dealt to positions, never taken."""
        return 0 if any(self.silent) else self.probe.kitty_size()

    def order(self, public: dict) -> Order | None:
        t = public.get("trump")
        if t is None:
            return None
        trump = parse_suit(t, allow_nt=True)
        return _plain_order(TWO_HUNDRED_POINTS, trump if trump != NO_TRUMP else -1)

    def kitty_taker(self, public: dict, history) -> int | None:
        """With the kitty option the contractor adds the kitty to the hand as soon as the auction is won."""
        if not self.kitty_size():
            return None
        contract = public.get("contract")
        if contract and public.get("phase") != "bidding" and not contract.get("without_bid"):
            return contract.get("seat")
        return None

    def after_start(self, m: Match, public: dict, deal_index: int) -> None:
        m.deal_index = deal_index
        m.unit_scores = list(public["scores"])

    def deal_cards(self, initial: list[list[int]], kitty: list[int], extra: dict) -> DealCards:
        """The two-player game: positions 2 and 3 are the silent partners, dealt as three stacks each (the record's
        kitty), stacked so that every card they played was on top when played and ``face_up`` are on top now."""
        if not any(self.silent):
            return DealCards(hands=initial, kitty=kitty)
        stacks: list[int] = []
        for pos in (2, 3):
            stacks += silent_stacks(initial[pos], extra["stack_plays"].get(pos, []), extra["face_up"].get(pos, 0),
                                    pos in extra["pending"], extra["rng"])  # fmt: skip
        return DealCards(hands=initial[:2], kitty=stacks)

    def world_order(self, m: Match) -> Order | None:
        tp = getattr(m, "play", None)
        if tp is None or m.trump is None:
            return None
        return Order(tuple(tp.effective_suit), tuple(tp.strength), TWO_HUNDRED_POINTS, tp.trump)

    def world_trick(self, m: Match):
        if m.phase != "play" or m.table.silent != (False,) * len(m.table.silent):
            return None
        return m.play.trick

    def world_hand_mask(self, m: Match, seat: int) -> int:
        return m.play.hands[seat]

    def utility(self, m: Match, seat: int, result: dict) -> float:
        change = result["score_change"]  # one entry per scoring unit
        mine = self.unit_of[seat]
        others = [v for i, v in enumerate(change) if i != mine]
        return float(change[mine] - (max(others) if others else 0))


LAYOUT_TRIES = 30


def silent_stacks(
    cards: list[int], played: list[tuple[int, int]], face_up: int, pending: bool, rng: random.Random
) -> list[int]:
    """A silent partner's three stacks of three, bottom card first, from which ``played`` (card and the suit it had
    to follow, in order) could have been played, showing ``face_up`` now.  ``pending``: its last card was played in
    the trick in progress, so the stack it came from shows no card until the trick ends.  Random layouts are tried
    until one follows suit whenever a face-up card of the led suit showed (ValueError when none is found)."""
    from rules.two_hundred.table import SILENT_STACKS, STACK_HEIGHT

    played_cards = [c for c, _ in played]
    shown = [c for c in cards if face_up >> c & 1]
    hidden_cards = [c for c in cards if not face_up >> c & 1 and c not in played_cards]
    n_shown, n_pending = len(shown), int(pending and bool(played))
    if n_shown + n_pending > SILENT_STACKS:
        raise ValueError("more face-up stacks than a silent partner has")
    # Hidden cards lie under each face-up card and in the stack last played from (room 2 each); the other stacks
    # are empty, every card of them played.
    rooms = [STACK_HEIGHT - 1] * (n_shown + n_pending)
    layouts = [h for h in itertools.product(*(range(r + 1) for r in rooms)) if sum(h) == len(hidden_cards)]
    if not layouts:
        raise ValueError("the silent partner's hidden cards do not fit its stacks")
    order = {c: i for i, c in enumerate(played_cards)}
    for _ in range(LAYOUT_TRIES):
        hidden = list(hidden_cards)
        rng.shuffle(hidden)
        under = rng.choice(layouts)
        earlier = list(played_cards[:-1] if n_pending else played_cards)
        rng.shuffle(earlier)
        stacks: list[list[int]] = []
        for i in range(SILENT_STACKS):
            stack = [hidden.pop() for _ in range(under[i])] if i < len(under) else []
            if i < n_shown:
                stack.append(shown[i])
            elif i == n_shown and n_pending:
                stack.append(played_cards[-1])
            # Cards played from this stack lie above, the first played on top.
            tops = [earlier.pop() for _ in range(STACK_HEIGHT - len(stack))]
            stacks.append(stack + sorted(tops, key=lambda c: -order[c]))
        if _stacks_play(stacks, played):
            return [c for stack in stacks for c in stack]
    raise ValueError("no layout of the silent partner's stacks follows suit as it played")


def _stacks_play(stacks: list[list[int]], played: list[tuple[int, int]]) -> bool:
    """Whether ``played`` comes off ``stacks`` top first, following the led suit whenever a top card had it."""
    stacks = [list(s) for s in stacks]
    for c, led in played:
        tops = [s[-1] for s in stacks if s]
        if c not in tops or (led >= 0 and c >> 4 != led and any(t >> 4 == led for t in tops)):
            return False
        next(s for s in stacks if s and s[-1] == c).pop()
    return True


# --- Da Bai Fen -----------------------------------------------------------------------------------------------


class DaBaiFenAdapter(Adapter):
    game = "da_bai_fen"
    multi_card = True

    def dealt_size(self, seat: int) -> int:
        return 12

    def kitty_size(self) -> int:
        return 6

    def order(self, public: dict) -> Order | None:
        from rules.da_bai_fen.order import POINTS, TRUMP, trump_order
        from rules.da_bai_fen.scoring import level_rank, parse_level

        t, r = public.get("trump"), public.get("trump_rank")
        if t is None or r is None:
            return None
        o = trump_order(level_rank(parse_level(r)), parse_suit(t), bool(self.options.get("twos_always_trump")))
        return Order(tuple(o.effective_suit), tuple(o.strength), tuple(POINTS), TRUMP)

    def kitty_taker(self, public: dict, history) -> int | None:
        if public.get("phase") in ("exchange", "play") or any(a.type == "discard" for a in history):
            contract = public.get("contract")
            return contract["seat"] if contract else None
        return None

    def fresh_match(self, public: dict, dealer: int, deal_index: int) -> Match:
        from rules.da_bai_fen.scoring import parse_level

        m = match_class(self.game)(self.options, dealer)
        m.levels = [parse_level(v) for v in public.get("levels") or []] or list(public["scores"])
        mode = public.get("mode") or "first"
        m.next_mode = mode
        contract = public.get("contract") or {}
        m.declarers = contract.get("declarers") if mode == "normal" else None
        return m

    def deal_cards(self, initial: list[list[int]], kitty: list[int], extra: dict) -> DealCards:
        """Seat ``starter + i`` draws stock[i]; a seat's exposed card is put among its first draws."""
        starter = extra["starter"]
        firsts = extra.get("first_cards", {})
        stock = [0] * 54
        for seat in range(4):
            cards = list(initial[seat])
            first = [c for c in firsts.get(seat, []) if c in cards]
            rest = [c for c in cards if c not in first]
            ordered = first + rest
            for k, c in enumerate(ordered):
                stock[4 * k + (seat - starter) % 4] = c
        stock[48:] = kitty
        return DealCards(stock=stock)

    def world_order(self, m: Match) -> Order | None:
        if m.order is None:
            return None
        from rules.da_bai_fen.order import POINTS, TRUMP

        o = m.order
        key = id(o)
        cached = _DBF_ORDERS.get(key)
        if cached is None or cached[0] is not o:
            cached = _DBF_ORDERS[key] = (o, Order(tuple(o.effective_suit), tuple(o.strength), tuple(POINTS), TRUMP))
        return cached[1]

    def world_trick(self, m: Match):
        if m.phase != "play" or m.lead_size > 1:
            return None
        return [(s, cs[0]) for s, cs in m.trick]

    def world_hand_mask(self, m: Match, seat: int) -> int:
        return m.hands[seat]

    def utility(self, m: Match, seat: int, result: dict) -> float:
        """Levels won minus levels lost, read off the result table *smoothed* over the opponents' card points (a
        rollout's points are a noisy estimate: a deal two points short of a step is nearly as good as one past it),
        in units of 40 per level, plus a little for every card point (ties)."""
        if result.get("thrown_in"):
            return 0.0
        mine = seat & 1
        declarers = result.get("declarers")
        opp_points = result.get("opponent_points", 0)
        table = _dbf_smooth_table(self.options.get("level_step", 40), bool(self.options.get("forty_is_draw")))
        gain = table[min(max(opp_points, 0), len(table) - 1)]  # the declarers' expected level advantage
        levels = gain if declarers == mine else -gain
        smooth = (40 - opp_points) / 40 if declarers == mine else (opp_points - 40) / 40
        return 40.0 * levels + 2.0 * smooth


_DBF_TABLES: dict[tuple, list[float]] = {}
DBF_SMOOTH_SD = 10.0  # card points
# What declaring the next deal is worth, in levels (heuristic self-play: declarers gain 0.42 levels a deal on average
# over their opponents), so that the opponents' 40th point costs the declarers more than the table's one level.
DBF_DECLARING_VALUE = 0.4


def _dbf_smooth_table(step: int, forty_draw: bool) -> list[float]:
    """For 0..200 opponent points: the declarers' level gain minus the opponents' (and the value of declaring next),
    averaged over a normal spread of ``DBF_SMOOTH_SD`` points around the given count (in steps of five, clamped to
    0..200)."""
    key = (step, forty_draw)
    table = _DBF_TABLES.get(key)
    if table is None:
        import math

        from rules.da_bai_fen.scoring import outcome

        def raw(p: int) -> float:
            o = outcome(p, step, forty_draw)
            stay = 0.0 if o.draw else DBF_DECLARING_VALUE if o.declarers_stay else -DBF_DECLARING_VALUE
            return float(o.declarers_gain - o.opponents_gain) + stay

        weights = [(d, math.exp(-0.5 * (d / DBF_SMOOTH_SD) ** 2)) for d in range(-30, 31, 5)]
        total = sum(w for _, w in weights)
        table = []
        for p in range(201):
            base = p - p % 5
            table.append(sum(w * raw(min(max(base + d, 0), 200)) for d, w in weights) / total)
        _DBF_TABLES[key] = table
    return table


_DBF_ORDERS: dict[int, tuple] = {}

ADAPTERS = {
    "five_hundred": FiveHundredAdapter,
    "belote": BeloteAdapter,
    "two_hundred": TwoHundredAdapter,
    "da_bai_fen": DaBaiFenAdapter,
}
_CACHE: dict[tuple, Adapter] = {}


def adapter_for(game: str, options) -> Adapter:
    key = (game, tuple(sorted((k, repr(v)) for k, v in dict(options).items())))
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = ADAPTERS[game](dict(options))
    return a


def card_of(name: str) -> int:
    return parse_card(name)


__all__ = ["Adapter", "Order", "adapter_for", "trick_winner", "JK"]
