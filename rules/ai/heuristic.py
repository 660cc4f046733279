"""The ``heuristic`` level: per-game bidding from hand strength, exchanges, trump choice, and card play.

Everything reads a ``SeatView`` (through ``Knowledge``) and returns one of ``view.legal``.
"""

from __future__ import annotations

import random

from rules.actions import Action, DiscardChoice
from rules.ai.cardplay import PlayInfo, pick_card
from rules.ai.fallback import fell_back
from rules.ai.games import Order
from rules.ai.knowledge import Knowledge
from rules.ai.view import SeatView, card_ids
from rules.cards import ACE, JACK, JK, KING, NO_TRUMP, QUEEN, R5, R9, R10, card, parse_suit

# --- choosing -------------------------------------------------------------------------------------------------


def heuristic_action(view: SeatView, rng: random.Random, k: Knowledge | None = None) -> Action:
    legal = view.legal
    if not legal:
        raise RuntimeError(f"seat {view.seat} has no legal action in phase {view.phase}")
    if len(legal) == 1 and not isinstance(legal[0], DiscardChoice):
        return legal[0]
    k = k or Knowledge(view)
    fn = GAME_RULES[view.game]
    action = fn(view, k, rng)
    return action


def _first(legal, kind: str):
    return next((a for a in legal if a.type == kind), None)


def _plays(view: SeatView):
    return [a for a in view.legal if a.type == "play"]


def play_info(view: SeatView, k: Knowledge, legal_mask: int) -> PlayInfo | None:
    order = k.order
    if order is None:
        return None
    trick = [(s, cs[0]) for s, cs in k.current.plays] if k.current is not None else []
    if not trick and view.public.get("trick"):
        trick = [(p["seat"], card_ids(p["cards"])[0]) for p in view.public["trick"]]
    led = -1
    if trick:
        led = k.current.led if k.current is not None and k.current.led >= 0 else order.es[trick[0][1]]
    allies = _allies(view, k)
    active = [s for s in range(view.players) if k.active[s]]
    n = len(active)
    pos = active.index(view.seat)
    after = tuple(active[(pos + i) % n] for i in range(1, n - len(trick)))
    unseen = k.unseen()
    trump_mask = order.suit_mask(order.trump) if order.trump >= 0 else 0
    contract = view.public.get("contract") or {}
    declarer = contract.get("seat")
    misere = contract.get("contract") in ("misere", "open_misere") or contract.get("name", "").endswith("misère")
    return PlayInfo(
        seat=view.seat,
        hand=k.hand,
        legal=legal_mask,
        trick=trick,
        led=led,
        order=order,
        allies=allies,
        after=after,
        unseen=unseen,
        voids=list(k.voids),
        declaring=declarer is not None and declarer in allies,
        misere=misere and declarer == view.seat,
        against_misere=declarer if misere and declarer != view.seat else -1,
        trumps_out=bool(unseen & trump_mask),
    )


def _allies(view: SeatView, k: Knowledge) -> frozenset[int]:
    contract = view.public.get("contract") or {}
    if view.game == "five_hundred" and tuple(k.ad.probe.side_of) == tuple(range(view.players)):
        soloist = contract.get("seat")
        partner = contract.get("partner")
        if soloist is None:
            return frozenset({view.seat})
        declarers = {soloist} | ({partner} if partner is not None else set())
        if view.seat in declarers:
            return frozenset(declarers)
        return frozenset(s for s in range(view.players) if s not in declarers)
    if view.game == "da_bai_fen" or view.players == 4:
        return frozenset({view.seat, view.seat ^ 2}) if view.players == 4 else frozenset({view.seat})
    side = k.side(view.seat)
    return frozenset(s for s in range(k.positions) if k.side(s) == side)


def play_card_action(view: SeatView, k: Knowledge, rng: random.Random) -> Action:
    plays = _plays(view)
    mask = 0
    for a in plays:
        if len(a.cards) == 1:
            mask |= 1 << a.cards[0]
    info = play_info(view, k, mask) if mask else None
    if info is None:
        return plays[0] if plays else view.legal[0]
    c = pick_card(info)
    options = [a for a in plays if a.cards == (c,)]
    # Belote: announce with the first of the king and queen; Five Hundred: name the Joker's suit.
    for a in options:
        if a.announce == "belote":
            return a
    if len(options) > 1 and c == JK:
        return _joker_suit(view, k, options)
    return options[0] if options else plays[0]


def _joker_suit(view: SeatView, k: Knowledge, options: list[Action]) -> Action:
    hand = list(view.hand)
    counts = {s: sum(1 for c in hand if c < 64 and c >> 4 == s) for s in range(4)}
    # Name a suit I am short in: the opponents must follow it and I keep my long suits.
    return min(options, key=lambda a: counts.get(a.suit, 0))


# --- hand strength ----------------------------------------------------------------------------------------------


def _suit_cards(hand, suit: int) -> list[int]:
    return [c for c in hand if c < 64 and c >> 4 == suit]


def _ranks(hand, suit: int) -> set[int]:
    return {c & 15 for c in _suit_cards(hand, suit)}


# --- Two Hundred --------------------------------------------------------------------------------------------------


def two_hundred_estimate(hand, trump: int) -> float:
    """Points my side may expect with ``trump``: my point cards' chance to be taken, long trumps, partner's share."""
    est = 0.0
    for s in range(4):
        ranks = _ranks(hand, s)
        n = len(ranks)
        is_trump = s == trump
        if ACE in ranks:
            est += 10 + 4
        if R10 in ranks:
            est += 10 * (0.85 if ACE in ranks or is_trump and n >= 4 else 0.45 if is_trump else 0.3)
        if R5 in ranks:
            est += 5 * (0.8 if is_trump else 0.4)
        if KING in ranks and (ACE in ranks or n >= 3):
            est += 3
        if is_trump:
            est += 5 * max(0, n - 2) + (4 if KING in ranks else 0) + (2 if QUEEN in ranks else 0)
        elif n <= 1 and trump >= 0:
            est += 3 * (2 - n)  # a short side suit lets the trumps take the others' points
    return est + 22.0  # the partner's share


HUNDRED_ANNOUNCEMENT_ESTIMATE = 110.0  # two_hundred_estimate of the best trump; 99.9% of dealt hands are below 103


def _two_hundred(view: SeatView, k: Knowledge, rng: random.Random) -> Action:
    legal = view.legal
    hand = view.hand
    phase = view.phase
    if phase == "play":
        return play_card_action(view, k, rng)
    if phase == "bidding":
        best = max(range(4), key=lambda t: two_hundred_estimate(hand, t))
        cap = two_hundred_estimate(hand, best)
        bids = sorted((a for a in legal if a.type == "bid"), key=lambda a: a.value)
        partner_bid = _partner_high(view, k)
        if partner_bid is not None:
            cap = max(cap - 5, 0) if cap < partner_bid + 15 else cap
        for a in bids:
            if a.value <= cap and a.value <= 100:
                return a
        keep = _first(legal, "keep")
        high_bid = view.public.get("high_bid")
        high = high_bid.get("value") if isinstance(high_bid, dict) else None
        if keep is not None and high is not None and high <= cap:
            return keep
        return _first(legal, "pass") or legal[0]
    hundred = next((a for a in legal if a.type == "call" and a.contract == "hundred"), None)
    if hundred is not None:
        # Le Rough: announcing all 100 points wins the game if made and loses it if not, so only a hand that
        # should take every point card by itself announces (about one contract in a thousand).
        sure = max(two_hundred_estimate(hand, t) for t in range(4)) >= HUNDRED_ANNOUNCEMENT_ESTIMATE
        return hundred if sure else _first(legal, "pass") or legal[0]
    if phase == "exchange" or any(isinstance(a, DiscardChoice) for a in legal):
        choice = next(a for a in legal if isinstance(a, DiscardChoice))
        trump = max(range(4), key=lambda t: _trump_score(choice.from_cards, t))
        return _discard_low(choice, trump, lambda c: 10 if c & 15 in (ACE, R10) else 5 if c & 15 == R5 else 0)
    trumps = [a for a in legal if a.type == "trump"]
    if trumps:
        return max(trumps, key=lambda a: _trump_score(hand, a.suit) if a.suit != NO_TRUMP else _nt_score(hand))
    plays = _plays(view)
    if plays:
        return play_card_action(view, k, rng)
    return legal[0]


def _trump_score(hand, suit: int) -> float:
    ranks = _ranks(hand, suit)
    return 3 * len(ranks) + sum({ACE: 3, KING: 2, QUEEN: 1.5, JACK: 1, R10: 1.5}.get(r, 0) for r in ranks)


def _nt_score(hand) -> float:
    return sum(4 for c in hand if c < 64 and c & 15 == ACE) + 0.5 * len(hand) - 10


def _partner_high(view: SeatView, k: Knowledge) -> int | None:
    partners = set(k.partners())
    best = None
    for a in view.history:
        if a.type == "bid" and a.seat in partners and isinstance(a.value, int):
            best = a.value if best is None else max(best, a.value)
    return best


def five_hundred_discard_ranking(public: dict, cards) -> list[int]:
    """The contractor's cards, the first to discard first: at a misère the Joker and the high cards; otherwise no
    trumps (the Joker and the left bower among them), no aces, shortest side suits first, low cards."""
    trump = parse_suit(public["trump"], allow_nt=True) if public.get("trump") else NO_TRUMP
    from rules.five_hundred.packs import SAME_COLOUR

    if (public.get("contract") or {}).get("contract") in ("misere", "open_misere"):
        return sorted(cards, key=lambda c: (c != JK, -(c & 15) if c < 64 else -99))
    left = card(JACK, SAME_COLOUR[trump]) if trump != NO_TRUMP else -1
    everything = DiscardChoice(-1, len(cards), tuple(cards))
    return list(_discard_low(everything, trump, lambda c: 0, keep_extra=lambda c: c in (left, JK)).cards)


def _discard_low(choice: DiscardChoice, trump: int, points, keep_extra=lambda c: False) -> Action:
    """Discard the least useful cards: no trumps, no aces or point cards when possible, shortest side suits first."""
    cards = list(choice.from_cards)
    counts = {s: sum(1 for c in cards if c < 64 and c >> 4 == s) for s in range(5)}

    def cost(c: int) -> tuple:
        is_trump = c >= 64 or (c >> 4) == trump or keep_extra(c)
        return (is_trump, c & 15 == ACE, points(c), counts.get(c >> 4, 9), c & 15)

    picked = sorted(cards, key=cost)[: choice.choose]
    return Action(choice.seat, "discard", cards=tuple(picked))


# --- Belote -----------------------------------------------------------------------------------------------------


def belote_estimate(hand, trump: int) -> float:
    est = 0.0
    t = _ranks(hand, trump)
    if JACK in t:
        est += 25
    if R9 in t:
        est += 20 if JACK in t else 12
    if ACE in t:
        est += 12
    others = len(t - {JACK, R9, ACE})
    est += 7 * others
    if KING in t and QUEEN in t:
        est += 20
    if len(t) >= 5:
        est += 10
    for s in range(4):
        if s == trump:
            continue
        r = _ranks(hand, s)
        if ACE in r:
            est += 12
            if R10 in r:
                est += 8
        elif R10 in r and len(r) >= 3:
            est += 3
        if not r and len(t) >= 3:
            est += 4
    return est + 25.0  # the partner's share


def _belote(view: SeatView, k: Knowledge, rng: random.Random) -> Action:
    legal = view.legal
    if view.phase == "play":
        return play_card_action(view, k, rng)
    hand = view.hand
    bids = [a for a in legal if a.type == "bid"]
    high = view.public.get("high_bid") or None
    high_seat = high.get("seat") if isinstance(high, dict) else None
    partner = view.seat ^ 2
    # Raise the partner's suit with my support; else bid my own best suit.
    best_suit = max(range(4), key=lambda t: belote_estimate(hand, t))
    cap = belote_estimate(hand, best_suit)
    target_suit = best_suit
    if high_seat == partner and isinstance(high.get("suit"), str) and high["suit"] in "SHDC":
        ps = parse_suit(high["suit"])
        support = 0
        r = _ranks(hand, ps)
        support += 20 if JACK in r else 0
        support += 10 if R9 in r else 0
        support += sum(10 for s in range(4) if s != ps and ACE in _ranks(hand, s))
        partner_cap = _num(high.get("value")) + support - 10
        if partner_cap >= cap:
            cap, target_suit = partner_cap, ps
    if high_seat is not None and high_seat % 2 != view.seat % 2:
        counter = _first(legal, "counter")
        if counter is not None and isinstance(high.get("suit"), str) and high["suit"] in "SHDC":
            ts = parse_suit(high["suit"])
            r = _ranks(hand, ts)
            aces = sum(1 for s in range(4) if s != ts and ACE in _ranks(hand, s))
            if JACK in r and R9 in r and len(r) >= 3 and aces >= 1 and _num(high.get("value")) >= 100:
                return counter
    if high_seat is not None and high_seat % 2 == view.seat % 2:
        recounter = _first(legal, "recounter")
        if recounter is not None and cap >= 120:
            return recounter
    candidates = sorted((a for a in bids if a.suit == target_suit and isinstance(a.value, int)), key=lambda a: a.value)
    for a in candidates:
        if a.value <= cap:
            return a
    return _first(legal, "pass") or legal[0]


def _num(value) -> int:
    return value if isinstance(value, int) else 250 if value == "capot" else 0


# --- Five Hundred -------------------------------------------------------------------------------------------------


def five_hundred_tricks(hand, trump: int) -> float:
    """Tricks a soloist may expect with ``trump`` (NO_TRUMP allowed), the widow included."""
    from rules.five_hundred.packs import SAME_COLOUR

    tricks = 0.0
    has_joker = JK in hand
    if trump == NO_TRUMP:
        tricks += 1 if has_joker else 0
        for s in range(4):
            r = _ranks(hand, s)
            if ACE in r:
                tricks += 1
                if KING in r:
                    tricks += 0.9
                    if QUEEN in r:
                        tricks += 0.7
                tricks += 0.5 * max(0, len(r) - 4)
            elif KING in r and len(r) >= 2:
                tricks += 0.4
        return tricks + 0.5
    right, left = card(JACK, trump), card(JACK, SAME_COLOUR[trump])
    trumps = [c for c in hand if c in (JK, right, left) or c < 64 and c >> 4 == trump]
    top = 0.0
    for c, v in ((JK, 1.0), (right, 1.0 if has_joker else 0.9), (left, 0.75)):
        if c in trumps:
            top += v
    r = _ranks(hand, trump) - {JACK}
    top += 0.7 if ACE in r else 0
    top += 0.4 if KING in r else 0
    n = len(trumps)
    tricks += top + max(0, n - 3) * 0.9
    for s in range(4):
        if s == trump:
            continue
        rs = _ranks(hand, s) - ({JACK} if card(JACK, s) == left else set())
        if ACE in rs:
            tricks += 0.9
            if KING in rs:
                tricks += 0.6
        elif KING in rs and len(rs) >= 2:
            tricks += 0.3
        if not rs and n >= 4:
            tricks += 0.5
    return tricks + 0.6  # the widow


def _five_hundred(view: SeatView, k: Knowledge, rng: random.Random) -> Action:
    legal = view.legal
    hand = view.hand
    if view.phase == "play":
        return play_card_action(view, k, rng)
    if view.phase == "bidding":
        bids = [a for a in legal if a.type == "bid"]
        from rules.five_hundred.bids import bid_of

        estimates = {t: five_hundred_tricks(hand, t) for t in (*range(4), NO_TRUMP)}
        ok = []
        for a in bids:
            if a.contract is not None:
                if a.contract == "misere" and _misere_hand(hand):
                    ok.append((bid_of(None, None, a.contract).value, a))
                continue
            if a.value <= estimates[a.suit]:
                ok.append((bid_of(a.value, a.suit, None).value, a))
        if ok:
            return min(ok, key=lambda x: x[0])[1]
        return _first(legal, "pass") or legal[0]
    choice = next((a for a in legal if isinstance(a, DiscardChoice)), None)
    if choice is not None:
        ranking = five_hundred_discard_ranking(view.public, choice.from_cards)
        return Action(choice.seat, "discard", cards=tuple(ranking[: choice.choose]))
    calls = [a for a in legal if a.type == "call"]
    if calls:
        aces = [a for a in calls if a.card is not None and a.card < 64 and a.card & 15 == ACE]
        if aces:
            return max(aces, key=lambda a: len(_suit_cards(hand, a.card >> 4)))
        return next((a for a in calls if a.card is None), calls[0])
    return legal[0]


def _misere_hand(hand) -> bool:
    if JK in hand:
        return False
    high = [c for c in hand if c < 64 and c & 15 >= JACK]
    return len(high) <= 1 and all(c & 15 <= R10 or c & 15 == JACK for c in hand if c < 64) and len(hand) >= 10


# --- Da Bai Fen ---------------------------------------------------------------------------------------------------


def _dbf_trump_count(hand, suit: int, rank: int) -> int:
    return sum(1 for c in hand if c >= 64 or c >> 4 == suit or c & 15 == rank)


def _da_bai_fen(view: SeatView, k: Knowledge, rng: random.Random) -> Action:
    legal = view.legal
    hand = list(view.hand)
    phase = view.phase
    claim = _first(legal, "claim_draw")
    if claim is not None:
        return claim  # no trumps at all: annul the deal
    if phase == "deal":
        exposes = [a for a in legal if a.type == "expose"]
        if exposes:
            drawn = len(hand)
            best = max(exposes, key=lambda a: _dbf_trump_count(hand, a.card >> 4, a.card & 15))
            n = _dbf_trump_count(hand, best.card >> 4, best.card & 15)
            late = (view.public.get("drawn") or 0) >= 44
            if (drawn >= 4 and n >= max(3, 0.4 * drawn)) or (late and n >= 0.3 * drawn):
                return best
        return _first(legal, "draw") or legal[0]
    choice = next((a for a in legal if isinstance(a, DiscardChoice)), None)
    if choice is not None:
        order = k.order
        trump = order.trump
        return _dbf_discard(choice, order, trump)
    plays = _plays(view)
    if not plays:
        return legal[0]
    singles = [a for a in plays if len(a.cards) == 1]
    trick = view.public.get("trick") or []
    if not trick:
        throw = _safe_throw(view, k)
        if throw is not None:
            return throw
    if trick and len(trick[0]["cards"]) > 1:
        return _dbf_multi_follow(view, k, plays)
    if singles:
        return play_card_action(view, k, rng)
    return plays[0]


def dbf_discard_ranking(choice: DiscardChoice, order: Order) -> list[int]:
    """The leader's cards, the first to discard first: no trumps, no points, no aces, short suits, low cards."""
    cards = list(choice.from_cards)
    counts: dict[int, int] = {}
    for c in cards:
        counts[order.es[c]] = counts.get(order.es[c], 0) + 1

    def cost(c: int) -> tuple:
        return (order.es[c] == order.trump, order.pts[c] > 0, order.st[c] >= 14, counts[order.es[c]], order.st[c])

    return sorted(cards, key=cost)


def _dbf_discard(choice: DiscardChoice, order: Order, trump: int) -> Action:
    picked = dbf_discard_ranking(choice, order)[: choice.choose]
    return Action(choice.seat, "discard", cards=tuple(picked))


def _safe_throw(view: SeatView, k: Knowledge) -> Action | None:
    """A multi-card lead only when it cannot fail: every card of it beats every unseen card of its suit."""
    order = k.order
    if order is None:
        return None
    unseen = k.unseen()
    best = None
    for suit in range(4):
        if suit == order.trump:
            continue
        mine = [c for c in view.hand if order.es[c] == suit]
        if len(mine) < 2:
            continue
        out = [c for c in range(len(order.es)) if unseen >> c & 1 and order.es[c] == suit]
        top = max((order.st[c] for c in out), default=-1)
        group = [c for c in mine if order.st[c] > top]
        if len(group) >= 2 and (best is None or len(group) > len(best)):
            best = group
    if best is None:
        return None
    return Action(view.seat, "play", cards=tuple(sorted(best)))


def _dbf_multi_follow(view: SeatView, k: Knowledge, plays: list[Action]) -> Action:
    order = k.order
    trick = view.public.get("trick") or []
    leader = trick[0]["seat"] if trick else -1
    partner_leads = leader == view.seat ^ 2

    def score(a: Action) -> tuple:
        pts = sum(order.pts[c] for c in a.cards)
        strength = sum(order.st[c] for c in a.cards)
        trumps = sum(1 for c in a.cards if order.es[c] == order.trump)
        return (pts if partner_leads else -pts, -trumps, -strength)

    return max(plays, key=score)


def bidding_filter(view: SeatView, k: Knowledge):
    """A test on sampled deal hands: would each other seat have made its bids (within a margin)?  Sampling hands
    uniformly ignores what the auction said; rejecting worlds whose bidders hold nothing keeps the search honest."""
    bids = [a for a in view.history if a.type == "bid" and a.seat != view.seat]
    if not bids:
        return None
    game = view.game
    if game == "belote":

        def ok_belote(hands) -> bool:
            for a in bids:
                if isinstance(a.value, int) and a.suit is not None and a.suit < 4:
                    raised = any(b.seat == a.seat ^ 2 and b.suit == a.suit for b in bids if b is not a)
                    need = a.value - (45 if raised else 25)
                    if belote_estimate(hands[a.seat], a.suit) < need:
                        return False
            return True

        return ok_belote
    if game == "two_hundred":

        def ok_two_hundred(hands) -> bool:
            for a in bids:
                if not isinstance(a.value, int) or a.value > 100:
                    continue
                if max(two_hundred_estimate(hands[a.seat], t) for t in range(4)) < a.value - 12:
                    return False
            return True

        return ok_two_hundred
    if game == "five_hundred":

        def ok_five_hundred(hands) -> bool:
            for a in bids:
                if a.contract is not None or not isinstance(a.value, int) or a.suit is None:
                    continue
                if five_hundred_tricks(hands[a.seat], a.suit) < a.value - 1.5:
                    return False
            return True

        return ok_five_hundred
    return None


GAME_RULES = {
    "two_hundred": _two_hundred,
    "belote": _belote,
    "five_hundred": _five_hundred,
    "da_bai_fen": _da_bai_fen,
}


class HeuristicPlayer:
    name = "heuristic"

    def choose(self, match, rng: random.Random, history=None) -> Action:
        from rules.ai.view import build_view

        return self.choose_view(build_view(match, match.to_move, history), rng)

    def choose_view(self, view: SeatView, rng: random.Random) -> Action:
        try:
            return heuristic_action(view, rng)
        except Exception as error:  # a computer seat must always act: a random legal move, counted and logged
            fell_back(self.name, "error", view, error)
            return safe_action(view, rng)


def safe_action(view: SeatView, rng: random.Random) -> Action:
    legal = view.legal
    pick = legal[rng.randrange(len(legal))]
    if isinstance(pick, DiscardChoice):
        return Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
    return pick


__all__ = ["HeuristicPlayer", "heuristic_action", "safe_action", "KING", "QUEEN"]
