"""Da Bai Fen rollouts: the heuristic's single-card play (``cardplay.pick_card`` as the search's rollouts call it: no
voids read, trumps assumed out; or, given the voids shown, as it plays at a table) written out on the engine's
bitmasks, about four times faster than building a ``PlayInfo`` for every card.  ``tests/test_ai_dbf.py`` checks that
it picks exactly the cards ``pick_card`` picks, both ways.

Only for sampled worlds (the player's own matches): it reads the world's hands and trick and plays through the
engine's public fast path ``play_card``.
"""

from __future__ import annotations

from rules.cards import cards_of
from rules.da_bai_fen.order import PACK_MASK, POINTS

TRUMP = 4
_TABLES: dict[int, tuple] = {}


def _tables(order) -> tuple:
    """(effective suit, strength, suit masks, per suit the (strength, bit) pairs strongest first) of a TrumpOrder."""
    key = id(order)
    t = _TABLES.get(key)
    if t is None or t[0] is not order:
        es, st = order.effective_suit, order.strength
        desc = []
        for s in range(5):
            cards = [c for c in range(len(es)) if es[c] == s]
            cards.sort(key=lambda c: -st[c])
            desc.append(tuple((st[c], 1 << c) for c in cards))
        if len(_TABLES) > 256:
            _TABLES.clear()
        t = _TABLES[key] = (order, es, st, tuple(order.suit_masks), tuple(desc))
    return t


def _top(desc, out: int) -> int:
    """The highest strength among ``out``'s cards of the suit whose descending table is ``desc`` (-1: none)."""
    for s, bit in desc:
        if out & bit:
            return s
    return -1


def pick(w, played: int, voids: list[int] | None = None, sharp: bool = False) -> int:
    """The card the heuristic rollout policy plays for the seat to move in world ``w`` (a one-card trick).  With
    ``voids`` (per seat, a bit per effective suit shown void) the card is the heuristic's at a table: it reads the
    voids and whether another seat may still hold a trump (``expert.as_at_the_table``).

    ``sharp``: two corrections to the heuristic (the master's rollouts, ``master.SHARP_ROLLOUTS``).  A low trump led
    is one without points if there is one (the heuristic leads its weakest trump, often a five or a ten), and a
    second or third hand contests a trick with points that an opponent is winning with its cheapest winner, even one
    that a later hand may beat (the heuristic then plays its lowest card).  Played against the heuristic's policy
    over 6,000 duplicate deals it won 0.633, +0.16 levels a deal (0.599 reading the voids; bench/dbf_policy_duel.py)."""
    _, es, st, masks, desc = _tables(w.order)
    trick = w.trick
    seat = (w.trick_leader + len(trick)) & 3
    hand = w.hands[seat]
    if trick:
        led = w.led_suit
        legal = hand & masks[led] or hand
    else:
        led = -1
        legal = hand
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    out = PACK_MASK & ~hand & ~played
    cards = cards_of(legal)
    pts = POINTS
    if not trick:
        declaring = (w.leader & 1) == (seat & 1)
        trumps_out = voids is None or bool(out & masks[TRUMP])
        trumps = [c for c in cards if es[c] == TRUMP]
        if trumps and trumps_out:
            top = _top(desc[TRUMP], out)
            masters = [c for c in trumps if st[c] >= top]
            if declaring and masters:
                return max(masters, key=st.__getitem__)
            if declaring and len(trumps) >= 3 and not masters:
                return _low_trump(trumps, st, sharp)
        side = [c for c in cards if es[c] != TRUMP]
        if side:
            tops: dict[int, int] = {}
            safe = []
            counts: dict[int, int] = {}
            opponents_void = 0 if voids is None or not trumps_out else voids[(seat + 1) & 3] | voids[(seat + 3) & 3]
            for c in side:
                s = es[c]
                counts[s] = counts.get(s, 0) + 1
                t = tops.get(s)
                if t is None:
                    t = tops[s] = _top(desc[s], out)
                if st[c] >= t and not opponents_void >> s & 1:
                    safe.append(c)
            if safe:
                return max(safe, key=lambda c: (pts[c], st[c]))
            if voids is not None and trumps_out:
                partner_void = voids[(seat + 2) & 3]
                if not partner_void >> TRUMP & 1:
                    for c in sorted(side, key=lambda c: (pts[c], st[c])):
                        if partner_void >> es[c] & 1 and pts[c] == 0:
                            return c
            return min(side, key=lambda c: (pts[c] > 0, -counts[es[c]], st[c]))
        return _low_trump(cards, st, sharp)

    def key(c: int) -> int:
        s = es[c]
        return 200 + st[c] if s == TRUMP else 100 + st[c] if s == led else 0

    best_seat, best = -1, -1
    points = 0
    for s, cs in trick:
        c = cs[0]
        points += pts[c]
        k = key(c)
        if k > best:
            best_seat, best, ally_card = s, k, c
    after = len(trick) < 3
    trump_out = out & masks[TRUMP]
    led_out = out & masks[led]

    def beatable(c: int) -> bool:
        if not after:
            return False
        s = es[c]
        if voids is None:
            if s == TRUMP:
                return _top(desc[TRUMP], out) > st[c]
            if s == led:
                return bool(trump_out) or _top(desc[led], out) > st[c]
            return bool(trump_out | led_out)
        # As at a table: an opponent still to play beats c only if it may hold a higher card (cardplay's
        # _can_be_beaten): one of the led suit while not void in it, or a trump while void in the led suit only.
        k = key(c)
        higher_led = led_out and (200 if led == TRUMP else 100) + _top(desc[led], out) > k
        higher_trump = led != TRUMP and trump_out and 200 + _top(desc[TRUMP], out) > k
        for o in ((seat + 1) & 3, (seat + 3) & 3):
            if (o - w.trick_leader) & 3 <= len(trick):
                continue  # played already
            v = voids[o]
            if higher_led and not v >> led & 1:
                return True
            if higher_trump and v >> led & 1 and not v >> TRUMP & 1:
                return True
        return False

    def lowest() -> int:
        return min(cards, key=lambda c: (pts[c], es[c] == TRUMP, st[c]))

    winners = [c for c in cards if key(c) > best]
    if best_seat & 1 == seat & 1:
        if not beatable(ally_card):
            pool = [c for c in cards if es[c] != TRUMP] or cards
            return max(pool, key=lambda c: (pts[c], -st[c] if pts[c] == 0 else st[c]))
        safe = [c for c in winners if not beatable(c)]
        if safe and points > 0:
            return min(safe, key=key)
        return lowest()
    if winners:
        safe = [c for c in winners if not beatable(c)]
        if safe and (points > 0 or not after):
            return min(safe, key=lambda c: (key(c), -pts[c]))
        if points >= 10 and not after:
            return min(winners, key=key)
        if sharp and points and after:
            return min(winners, key=key)
    return lowest()


def _low_trump(trumps: list[int], st, sharp: bool) -> int:
    if sharp:
        return min(trumps, key=lambda c: (POINTS[c] > 0, st[c]))
    return min(trumps, key=st.__getitem__)


def finish(
    w,
    seat: int,
    played: int,
    root_trick_open: bool,
    voids: list[int] | None = None,
    until: int = 0,
    sharp: bool = False,
) -> tuple[int, int | None]:
    """Play a world whose trick in progress is a one-card trick (or none) to the end of the deal with ``pick``;
    returns (cards played, 1/0 if ``seat``'s side won the trick open at the root, None when not known here).
    ``voids`` (per seat, read and kept up to date: a card that does not follow shows a void): as at a table.
    ``until``: stop, after a card at least, at the first trick boundary where the leader holds that many cards or
    fewer (the rest for the master's solver).  ``sharp``: ``pick``'s."""
    won_root = None
    side = seat & 1
    start = played
    while w.phase == "play":
        if w.trick and w.lead_size != 1:
            break
        if until and not w.trick and played != start and w.hands[w.trick_leader].bit_count() <= until:
            break
        c = pick(w, played, voids, sharp)
        played |= 1 << c
        if voids is not None and w.trick:
            led = w.led_suit
            if w.order.effective_suit[c] != led:
                voids[(w.trick_leader + len(w.trick)) & 3] |= 1 << led
        w.play_card(c)
        if root_trick_open and not w.trick:
            root_trick_open = False
            if w.phase == "play":
                won_root = 1 if (w.trick_leader & 1) == side else 0
    return played, won_root


def _exposure(w, seat: int) -> int | None:
    """The heuristic's exposure for ``seat`` about to draw (rules/ai/heuristic.py ``_da_bai_fen``), or None."""
    from rules.da_bai_fen.scoring import level_rank

    hand = w.hands[seat]
    rank = level_rank(w.exposable_rank(seat))
    best, best_n = None, -1
    held = 0
    for c in cards_of(hand):
        if c < 64 and c & 15 == rank:
            held |= 1 << c
    if not held:
        return None
    cards = cards_of(hand)
    for suit in range(4):
        c = (suit << 4) | rank
        if not held >> c & 1:
            continue
        n = sum(1 for x in cards if x >= 64 or x >> 4 == suit or x & 15 == rank)
        if n > best_n:
            best, best_n = c, n
    drawn = len(cards)
    late = w.drawn >= 44
    if (drawn >= 4 and best_n >= max(3, 0.4 * drawn)) or (late and best_n >= 0.3 * drawn):
        return best
    return None


def to_play(w, ad) -> None:
    """Bring a world in the draw or the exchange to the first lead as the heuristic would: each seat about to draw
    exposes by the heuristic's rule, the leader discards the heuristic's six (claims are not made)."""
    from rules.actions import Action, DiscardChoice
    from rules.ai.heuristic import _dbf_discard

    while w.phase == "deal":
        seat = w.to_move
        if w.exposed is None:
            c = _exposure(w, seat)
            if c is not None:
                w.apply(Action(seat, "expose", card=c))
                if w.phase != "deal":
                    break
        w.draw_card()
    if w.phase == "exchange":
        leader = w.leader
        choice = DiscardChoice(leader, 6, tuple(cards_of(w.hands[leader])))
        order = ad.world_order(w)
        w.apply(_dbf_discard(choice, order, order.trump))
