"""Sampling the hidden cards consistently with everything a seat has seen, and rebuilding a whole match from them.

1. ``allocate``: deal the unseen cards into the places the seat cannot see (each other seat's hand, each seat's
   hidden discards, the rest: kitty not taken, undrawn stock), respecting the number of cards in each place, the
   voids shown (a seat that did not follow a suit holds none of it: effective suits, so a left bower or a trump-rank
   card counts as a trump), and the cards known to be in a seat's hands (exposed cards, an open misère hand, the
   other half of an announced belote, a turned-up kitty).  Cards go most-constrained first, each to a random place
   weighted by the room left, with an augmenting-path repair when the greedy pass gets stuck.
2. ``rebuild``: lay the sampled cards out as the deal's cards (hands and kitty, or a Da Bai Fen stock), start a
   fresh match at the deal with the public scores, and replay the deal's public actions (hidden discards filled in
   from the sample).  The engine checks every action again, so a world that replays is consistent with the history.
"""

from __future__ import annotations

import random

from rules.actions import Action
from rules.ai.knowledge import Knowledge
from rules.ai.view import SeatView
from rules.cards import cards_of
from rules.errors import IllegalAction, RecordError
from rules.game import Match

HAND, DISC, REST = 0, 1, 2


class Allocation:
    """Sampled hidden cards: each seat's hand now, each seat's hidden discards, and the rest."""

    def __init__(self, hands: list[int], discards: list[int], rest: list[int]):
        self.hands = hands
        self.discards = discards
        self.rest = rest  # a list (order matters for a stock)


def _places(k: Knowledge) -> list[tuple[int, int, int]]:
    """(kind, seat, room) of every place unseen cards may go."""
    places = []
    for s in range(k.positions):
        if s == k.seat:
            continue
        room = k.count(s) - (k.exact_hand.get(s, 0) and k.count(s))
        places.append((HAND, s, room))
        if k.discard_count[s]:
            places.append((DISC, s, k.discard_count[s]))
    places.append((REST, -1, k.rest_size()))
    return places


def allocate(k: Knowledge, rng: random.Random, kept: int = 0) -> Allocation | None:
    """``kept``: cards the other seats' hidden discards never hold (None when the cards cannot be placed so)."""
    p = k.positions
    hands = [0] * p
    discards = [0] * p
    unseen = k.unseen()
    for s, exact in k.exact_hand.items():
        if s != k.seat:
            hands[s] = exact
            unseen &= ~exact
    places = _places(k)
    room = [r for _, _, r in places]
    if sum(room) != unseen.bit_count() or min(room, default=0) < 0:
        return None
    allowed: dict[int, list[int]] = {}
    for c in cards_of(unseen):
        holder = next((s for s in range(p) if s != k.seat and k.known_holding[s] >> c & 1), None)
        ok = []
        for i, (kind, s, _) in enumerate(places):
            if holder is not None and s != holder:
                continue
            if kind == DISC and kept >> c & 1:
                continue
            if kind == HAND and not fits_hand(k, s, c):
                continue
            ok.append(i)
        if not ok:
            return None
        allowed[c] = ok
    cards = list(allowed)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))
    where: dict[int, int] = {}
    held: list[list[int]] = [[] for _ in places]
    for c in cards:
        opts = [i for i in allowed[c] if room[i] > 0]
        if opts:
            total = sum(room[i] for i in opts)
            x = rng.randrange(total)
            for i in opts:
                x -= room[i]
                if x < 0:
                    break
            where[c] = i
            held[i].append(c)
            room[i] -= 1
        elif not _augment(c, allowed, where, held, room, set()):
            return None
    rest: list[int] = []
    for i, (kind, s, _) in enumerate(places):
        m = sum(1 << c for c in held[i])
        if kind == HAND:
            hands[s] |= m
        elif kind == DISC:
            discards[s] |= m
        else:
            rest = list(held[i])
            rng.shuffle(rest)
    return Allocation(hands, discards, rest)


def fits_hand(k: Knowledge, seat: int, c: int) -> bool:
    """May ``seat`` hold ``c`` now, by the voids it showed and the strongest card of each suit it may hold?"""
    order = k.order
    if order is None:
        return True
    suit = order.es[c]
    return not (suit >= 0 and k.voids[seat] >> suit & 1) and order.st[c] <= k.ceilings[seat].get(suit, 99)


def _augment(c: int, allowed, where, held, room, seen: set) -> bool:
    """Place ``c`` by moving another card along an augmenting path (Kuhn's algorithm on places with room)."""
    for i in allowed[c]:
        if i in seen:
            continue
        seen.add(i)
        if room[i] > 0:
            where[c] = i
            held[i].append(c)
            room[i] -= 1
            return True
        for other in list(held[i]):
            if _augment_move(other, i, allowed, where, held, room, seen):
                held[i].append(c)
                where[c] = i
                return True
    return False


def _augment_move(other: int, frm: int, allowed, where, held, room, seen) -> bool:
    held[frm].remove(other)
    room[frm] += 1
    del where[other]
    if _augment(other, allowed, where, held, room, seen):
        room[frm] -= 1
        return True
    held[frm].append(other)
    room[frm] -= 1
    where[other] = frm
    return False


def rebuild(
    view: SeatView, k: Knowledge, alloc: Allocation, rng: random.Random, accept=None, observe=None, dealt=None
) -> Match | None:
    """A full match at the view's point, with the sampled hidden cards; None if the replay refuses it.  ``dealt``
    (a callable) is shown the hands as dealt, before ``accept``."""
    ad = k.ad
    p = k.positions
    me = k.seat
    hands_now = list(alloc.hands)
    hands_now[me] = k.hand
    discards = list(alloc.discards)
    discards[me] = k.my_discards
    holdings = [hands_now[s] | k.played_by[s] | discards[s] for s in range(p)]
    kitty_part: list[int] = []
    if k.taker is not None:
        t = k.taker
        size = ad.taken_kitty_size()
        pool = holdings[t]
        if view.game == "da_bai_fen":
            turned = [c for c in _names(k.public.get("kitty_turned")) + _names(k.public.get("kitty_shown"))]
            fixed = list(dict.fromkeys(turned))
        else:
            fixed = []
        must_draw = set(k.first_cards.get(t, []))
        free = [c for c in cards_of(pool) if c not in fixed and c not in must_draw]
        rng.shuffle(free)
        kitty_part = fixed + free[: size - len(fixed)]
        if len(kitty_part) != size:
            return None
        for c in kitty_part:
            holdings[t] &= ~(1 << c)
    initial = []
    for s in range(p):
        cards = cards_of(holdings[s])
        rng.shuffle(cards)
        initial.append(cards)
    if dealt is not None:
        dealt(initial)
    if accept is not None and not accept(initial):
        return None
    if view.game == "da_bai_fen":
        drawn = min(k.public.get("drawn") or 0, 48)
        firsts = {s: list(v) for s, v in k.first_cards.items()}
        deal = ad.deal_cards(initial, kitty_part if k.taker is not None else [0] * 6,
                             {"starter": view.dealer, "first_cards": firsts})  # fmt: skip
        stock = deal.stock
        assert stock is not None  # Da Bai Fen's deal is a stock
        if k.taker is None:
            stock[drawn:] = alloc.rest
        if sorted(stock) != sorted(ad.probe.pack()):
            return None
    else:
        try:
            deal = ad.deal_cards(initial, kitty_part + alloc.rest, k.stack_facts(rng))
        except ValueError:  # the sampled cards cannot be laid out as the deal shows (a silent partner's stacks)
            return None
    return replay_world(view, k, deal, discards, observe)


def _names(names) -> list[int]:
    from rules.ai.view import card_ids

    return card_ids(names)


def replay_world(view: SeatView, k: Knowledge, cards, discards: list[int], observe=None) -> Match | None:
    """The deal replayed from ``cards``; ``observe(match, action)`` sees each action just before it is applied."""
    ad = k.ad
    public = k.public
    try:
        m = ad.fresh_match(public, view.dealer, view.deal_index)
        m.start_deal(cards)
        ad.after_start(m, public, view.deal_index)
        for a in view.history:
            if a.type == "discard" and not a.cards:
                a = Action(a.seat, "discard", cards=tuple(cards_of(discards[a.seat])))
            if observe is not None:
                observe(m, a)
            m.apply(a)
    except (IllegalAction, RecordError, KeyError, IndexError, ValueError):
        return None
    if m.phase != view.phase or m.to_move != view.to_move:
        return None
    return m


def sample_world(
    view: SeatView,
    rng: random.Random,
    k: Knowledge | None = None,
    tries: int = 20,
    accept=None,
    observe=None,
    kept: int = 0,
    lay_away=None,
    dealt=None,
) -> Match | None:
    """One determinized match consistent with the view (None if none was found in ``tries`` attempts).

    ``accept(initial_hands)`` may reject worlds that are legal but unlikely (a bid the sampled hand would never make);
    when no sampled world passes it, the last legal one is returned rather than none.  ``observe``: see
    ``replay_world`` (called again from the start for each world tried).  ``kept``: cards the other seats' hidden
    discards do not hold, where the cards can be placed so (see ``allocate``).  ``lay_away(k, allocation, rng)``:
    the other seats' hidden discards chosen again from the cards each was given (None where it cannot; then ``kept``).
    ``dealt(initial_hands)``: shown each world's hands as dealt (the last call is the world returned).
    """
    k = k or Knowledge(view)
    for _ in range(tries):
        alloc = None
        if lay_away is not None:
            alloc = allocate(k, rng)
            alloc = alloc and lay_away(k, alloc, rng)
        if alloc is None and kept:
            alloc = allocate(k, rng, kept)
        if alloc is None:
            alloc = allocate(k, rng)
        if alloc is None:
            continue
        m = rebuild(view, k, alloc, rng, accept, observe, dealt)
        if m is not None:
            return m
    if accept is not None:
        return sample_world(
            view, rng, k, max(2, tries // 4), observe=observe, kept=kept, lay_away=lay_away, dealt=dealt
        )
    return None
