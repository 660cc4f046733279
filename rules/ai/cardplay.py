"""Trick play as card players do it, shared by the four games (bitmasks and the game's card order).

``pick_card`` is the heuristic player's card choice and the search's rollout policy.  It leads masters and draws
trumps when its side holds the contract, leads to a partner's shown void, saves points on a partner's safe trick
(smearing a ten or a five onto the partner's ace), wins a trick with points as cheaply as it can, ducks with its
least valuable card otherwise, and in misère keeps under the cards already played.

``PlayInfo.sharp`` (the master's Belote rollouts, ``master.SHARP_ROLLOUTS``) plays three corrections found by playing
the policies against each other (docs/ai.md, twenty-sixth session): the side that holds the contract draws trumps
from two trumps without the master (not three), a low lead is not made from a suit whose ten is not the master, and a
card that is the master of another suit is not smeared on a partner's trick (it would win a trick of its own).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ai.games import Order


@dataclass(slots=True)
class PlayInfo:
    seat: int
    hand: int  # my cards
    legal: int  # the cards I may play
    trick: list[tuple[int, int]]  # (seat, card) so far
    led: int  # the led effective suit (-1 when leading)
    order: Order
    allies: frozenset[int]  # seats on my side for this deal (defenders together against a soloist)
    after: tuple[int, ...]  # seats still to play after me in this trick
    unseen: int | None = None  # cards I cannot see (None: assume everything not in my hand may be out)
    voids: list[int] | None = None  # per seat, bit per effective suit
    declaring: bool = False  # my side holds the contract
    misere: bool = False  # I am the misère soloist
    against_misere: int = -1  # the misère soloist when I defend
    trumps_out: bool = True  # some other seat may still hold a trump
    sharp: bool = False  # the master's sharper rollout policy (see the module's docstring)


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _key(order: Order, c: int, led: int) -> int:
    s = order.es[c]
    if s == order.trump and order.trump >= 0:
        return 200 + order.st[c]
    if s == led:
        return 100 + order.st[c]
    return 0


def winning_key(order: Order, trick: list[tuple[int, int]], led: int) -> tuple[int, int]:
    best_seat, best = -1, -1
    for seat, c in trick:
        k = _key(order, c, led)
        if k > best:
            best_seat, best = seat, k
    return best_seat, best


def is_master(info: PlayInfo, c: int) -> bool:
    """No card I cannot see outranks ``c`` in its own effective suit."""
    order = info.order
    s, st = order.es[c], order.st[c]
    out = info.unseen if info.unseen is not None else ~info.hand
    return all(order.st[x] <= st for x in _cards(out & _suit_mask(order, s)))


_SUIT_MASKS: dict[tuple[int, int], tuple[Order, int]] = {}


def _suit_mask(order: Order, s: int) -> int:
    # Keyed by the object's id, holding the object itself: an id is only unique while its object lives (the
    # heuristic builds a new Order for every view, and a freed one's id is soon reused by the next deal's order).
    key = (id(order), s)
    hit = _SUIT_MASKS.get(key)
    if hit is not None and hit[0] is order:
        return hit[1]
    m = 0
    for c, es in enumerate(order.es):
        if es == s:
            m |= 1 << c
    if len(_SUIT_MASKS) > 4096:
        _SUIT_MASKS.clear()
    _SUIT_MASKS[key] = (order, m)
    return m


def _value(order: Order, c: int) -> int:
    return order.pts[c]


def pick_card(info: PlayInfo) -> int:
    legal = info.legal
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if info.misere:
        return _misere_soloist(info)
    if not info.trick:
        return _lead(info)
    return _follow(info)


def _lowest(order: Order, cards: list[int], led: int = -1) -> int:
    """The least useful card: few points, not a trump, low."""
    trump = order.trump

    def cost(c: int) -> tuple:
        return (order.pts[c], order.es[c] == trump and trump >= 0, order.st[c])

    return min(cards, key=cost)


def _lead(info: PlayInfo) -> int:
    order = info.order
    legal = list(_cards(info.legal))
    trump = order.trump
    trumps = [c for c in legal if trump >= 0 and order.es[c] == trump]
    opp = [s for s in range(len(info.voids or [])) if s not in info.allies and s != info.seat]
    if info.against_misere >= 0:
        # Defending a misère: lead low cards the soloist must overtake.
        return min(legal, key=lambda c: order.st[c])
    if trumps and info.trumps_out:
        masters = [c for c in trumps if is_master(info, c)]
        if info.declaring and masters:
            return max(masters, key=lambda c: order.st[c])  # draw trumps with the top one
        if info.declaring and len(trumps) >= (2 if info.sharp else 3) and not masters:
            return min(trumps, key=lambda c: order.st[c])
    side = [c for c in legal if c not in trumps]
    # A master in a suit no opponent is known to be void in (or trumps are gone).
    safe_masters = []
    for c in side:
        if is_master(info, c):
            s = order.es[c]
            ruffable = info.trumps_out and info.voids is not None and any(info.voids[o] >> s & 1 for o in opp)
            if not ruffable:
                safe_masters.append(c)
    if safe_masters:
        return max(safe_masters, key=lambda c: (order.pts[c], order.st[c]))
    # Lead to a partner's shown void so that the partner may ruff.
    if info.voids is not None and info.trumps_out and trump >= 0:
        for p in info.allies:
            if p == info.seat:
                continue
            for c in sorted(side, key=lambda c: (order.pts[c], order.st[c])):
                if info.voids[p] >> order.es[c] & 1 and not info.voids[p] >> trump & 1 and order.pts[c] == 0:
                    return c
    if side:
        if info.sharp:
            # Not from a suit whose ten another seat's ace (or a higher card) still threatens.
            unguarded = {order.es[c] for c in side if order.pts[c] == 10 and not is_master(info, c)}
            side = [c for c in side if order.es[c] not in unguarded] or side
        # Low from the longest side suit, never a point card when a blank one will do.
        counts: dict[int, int] = {}
        for c in side:
            counts[order.es[c]] = counts.get(order.es[c], 0) + 1
        return min(side, key=lambda c: (order.pts[c] > 0, -counts[order.es[c]], order.st[c]))
    return min(legal, key=lambda c: order.st[c])


def _trick_points(info: PlayInfo) -> int:
    return sum(info.order.pts[c] for _, c in info.trick) + info.order.trick_value


def _can_be_beaten(info: PlayInfo, c: int, led: int) -> bool:
    """Could a seat still to play beat card ``c``?"""
    if not info.after:
        return False
    order = info.order
    out = info.unseen if info.unseen is not None else ~info.hand
    key = _key(order, c, led)
    for x in _cards(out & (_suit_mask(order, led) | (_suit_mask(order, order.trump) if order.trump >= 0 else 0))):
        if _key(order, x, led) > key:
            # Someone after me must be able to hold x: not void in its suit.
            sx = order.es[x]
            if info.voids is None:
                return True
            for s in info.after:
                if s in info.allies:
                    continue
                if not info.voids[s] >> sx & 1 and (sx == led or info.voids[s] >> led & 1):
                    return True
    return False


def _follow(info: PlayInfo) -> int:
    order = info.order
    legal = list(_cards(info.legal))
    led = info.led
    best_seat, best = winning_key(order, info.trick, led)
    if info.against_misere >= 0:
        if best_seat == info.against_misere:
            under = [c for c in legal if _key(order, c, led) < best]
            if under:
                return max(under, key=lambda c: _key(order, c, led))
        return min(legal, key=lambda c: (_key(order, c, led) > best, order.st[c]))
    winners = [c for c in legal if _key(order, c, led) > best]
    points = _trick_points(info)
    if best_seat in info.allies:
        ally_card = next(c for s, c in info.trick if s == best_seat)
        if not _can_be_beaten(info, ally_card, led):
            # Save points on the partner's trick: the most valuable card that is not a trump worth keeping.
            non_trump = [c for c in legal if order.es[c] != order.trump or order.trump < 0]
            pool = non_trump or legal
            if info.sharp:
                # A master of another suit wins a trick of its own later: smear it only for want of another card.
                pool = [c for c in pool if order.es[c] == led or not is_master(info, c)] or pool
            return max(pool, key=lambda c: (order.pts[c], -order.st[c] if order.pts[c] == 0 else order.st[c]))
        # The partner may be overtaken: beat it safely when the trick is worth it, else play low.
        safe = [c for c in winners if not _can_be_beaten(info, c, led)]
        if safe and points > 0:
            return min(safe, key=lambda c: _key(order, c, led))
        return _lowest(order, legal, led)
    if winners:
        safe = [c for c in winners if not _can_be_beaten(info, c, led)]
        if safe and (points > 0 or not info.after):
            return min(safe, key=lambda c: (_key(order, c, led), -order.pts[c]))
        if points >= 10 and not info.after:
            return min(winners, key=lambda c: _key(order, c, led))
        if safe and points == 0:
            # A blank trick: win it only with a card that would not earn more later (a low trump, a master).
            cheap = [c for c in safe if order.pts[c] == 0]
            if cheap and order.trick_value:
                return min(cheap, key=lambda c: _key(order, c, led))
    return _lowest(order, legal, led)


def _misere_soloist(info: PlayInfo) -> int:
    order = info.order
    legal = list(_cards(info.legal))
    if not info.trick:
        # Lead the card most likely to be beaten: the lowest of the suit with most higher cards out.
        out = info.unseen if info.unseen is not None else ~info.hand

        def danger(c: int) -> tuple:
            higher = sum(1 for x in _cards(out & _suit_mask(order, order.es[c])) if order.st[x] > order.st[c])
            return (-higher, order.st[c])

        return min(legal, key=danger)
    led = info.led
    _, best = winning_key(order, info.trick, led)
    under = [c for c in legal if _key(order, c, led) < best]
    if under:
        return max(under, key=lambda c: (order.es[c] == led, order.st[c]))
    return min(legal, key=lambda c: _key(order, c, led))
