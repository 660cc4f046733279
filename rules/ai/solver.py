"""Double-dummy search: the exact outcome of the rest of a deal's play with every hand known.

A ``Position`` is the play of one deal reduced to what decides it: each position's hand (a bitmask), the trick in
progress, whose card points count (``counted``) and who wants them (``maximizers``; everyone else minimizes them:
the other sides are taken as one coalition, which is exact for two sides and the usual "paranoid" bound for
three).  ``Solver`` runs alpha-beta over the remaining cards with

- a transposition table at trick boundaries (the hands left and the leader decide the rest; bounds stored with the
  best lead, which is tried first the next time),
- equivalent-card pruning (cards of one effective suit with the same points and no card of another hand or the
  trick ranking between them are tried once),
- move ordering (the table's best lead, then high cards; following, the cheapest card that takes the trick, or the
  most points onto a partner's winning card, before the rest),
- the last trick played out without a search (one card in each hand),
- on the fast path (every position but Five Hundred's Joker at no trumps and Two Hundred's compulsory first trump
  lead): a trick's cards carried as the recursion's arguments rather than pushed and popped, one "beats the best"
  mask per card, the order keys as tables, the equivalent cards by one walk up each suit (remembered per legal
  and outstanding cards), and table keys by *relative rank* (per suit, who holds each card still out, in order of
  strength, and its points: positions that differ only in which low cards have gone share an entry),

and returns the card points (Five Hundred: 10 a trick) the counted positions take from the cards still in play
(the trick in progress included), the last trick's bonus included.

What is exact: the card play of Belote (every obligation of §5.2 and the options), Five Hundred (the Joker's named
suit at no trumps included), Two Hundred with four, three and six players (with the compulsory trump lead), and Da
Bai Fen's single-card play.  What is not: Da Bai Fen's multi-card leads (throws) are not searched — only single
cards are led, so a position where a throw would win more is valued too low; a trick in progress that began with a
throw is not a ``Position`` at all (``from_world`` returns None).  Two Hundred's two-player game (silent partners
playing off stacks) is not solved.

A *sweep* (Belote's capot: every trick to one side) can be worth more than its card points: ``Position.sweep`` is
added to the value when the side ``sweep_counted`` names (the counted side or the other) takes every trick of the
deal, which is still possible while ``sweep_alive`` (no trick so far went to anyone else).  ``dd_worlds`` sets it
in the value's own currency (see ``dd_worlds._belote_sweep``); the value can then be negative (the other side's
sweep) and larger than the points left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

INF: Final = 1 << 30
NO_SUIT: Final = -1
_CANON = ("relative ranks",)  # the key in a table of its interned suit shapes (no position has it)
_EQUIV = ("equivalent cards",)  # the key in a table of its equivalent-card answers
_BITS_MAX: Final = 1 << 14  # card lists remembered by mask (shared by every solver; started afresh when full: a few MB)
_BITS: dict[int, list[int]] = {}


def _new_bits() -> dict[int, list[int]]:
    global _BITS
    _BITS = {}
    return _BITS


_JOKER_SHIFT: Final = 7  # a Five Hundred Joker lead at no trumps names a suit: move = card | (suit + 1) << 7


@dataclass
class Position:
    """One deal's play with every hand known (see the module's docstring)."""

    hands: list[int]
    next_pos: Sequence[int]  # the next position to play after each (positions that sit out are skipped)
    leader: int
    trick: list[tuple[int, int]]  # (position, card) of the trick in progress, the leader's first
    led: int  # the led effective suit (-1 before the lead)
    es: Sequence[int]  # effective suit of each card id
    st: Sequence[int]  # strength within its effective suit
    points: Sequence[int]
    trump: int  # the effective suit that trumps (-1: none)
    follow: Sequence[int]  # per effective suit, the cards that follow it
    counted: Sequence[bool]
    maximizers: Sequence[bool]
    trick_value: int = 0
    last_bonus: int = 0  # to the winner of the last trick
    # Two Hundred's compulsory trump lead: the first trick's lead must be a trump if the leader holds one.
    trump_lead_first: bool = False
    # Five Hundred at no trumps: the Joker led names a suit, not one its holder has shown void in (bit per suit).
    joker: int = -1
    voids: list[int] = field(default_factory=list)
    # Belote plays by its own tables (obligations to trump and overtrump, ``beats`` for the winner).
    belote: BeloteRules | None = None
    # The sweep (see the module's docstring): its worth to the counted side, whose sweep it is, and whether it can
    # still happen.
    sweep: int = 0
    sweep_counted: bool = False
    sweep_alive: bool = False

    def copy(self) -> Position:
        other = Position(**{f: getattr(self, f) for f in self.__dataclass_fields__})
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.voids = list(self.voids)
        return other


@dataclass(frozen=True)
class BeloteRules:
    higher: Sequence[int]
    beats: Sequence[int]
    cut: int
    trump_lead: int
    suit_cards: Sequence[int]
    partner_undertrump: bool
    forced_undertrump: bool


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Solver:
    """Alpha-beta over one ``Position`` (changed during the search and restored after it)."""

    def __init__(self, pos: Position, max_nodes: int | None = None, tt: dict | None = None):
        """``tt``: a table to share with other solvers of the same deal for the same side (its entries stay true:
        a key holds every hand and the leader)."""
        self.p = pos
        # Entries (lo, hi, best move) by position, and the side tables below (``_CANON``, ``_EQUIV``) by their keys.
        self.tt: dict[tuple, Any] = {} if tt is None else tt
        self.nodes = 0
        self.max_nodes = max_nodes
        self.prune = True  # equivalent cards once (a test turns it off to check that it changes no value)
        self.use_tt = True
        self._best_seat = -1
        self._best_key = -1
        self._best_card = -1
        # The sweep: its worth, whose it is, whether it is still possible (kept in step by play/undo), and its share
        # of the bounds (the most above the points left, the least under zero).
        self._sweep = pos.sweep
        self._sweep_counted = pos.sweep_counted
        self._sweeping = pos.sweep_alive and pos.sweep != 0
        self._sweep_up = max(pos.sweep, 0)
        self._sweep_down = min(pos.sweep, 0)
        if pos.trick:
            self._recompute_best()
        live = 0
        for h in pos.hands:
            live |= h
        self.hand_points = sum(pos.points[c] for c in _cards(live))  # points still in the hands
        self._live = live  # the cards still in the hands (kept in step by play/undo: the equivalence test's "others")
        self._trick_mask = 0
        self._trick_points = 0
        for _, c in pos.trick:
            self._trick_mask |= 1 << c
            self._trick_points += pos.points[c]
        # Per card in play: the cards of its effective suit at least / at most as strong (equivalent-card test).
        for _, c in pos.trick:
            live |= 1 << c
        by_suit: dict[int, int] = {}
        for c in _cards(live):
            by_suit[pos.es[c]] = by_suit.get(pos.es[c], 0) | 1 << c
        self._suit_masks = list(by_suit.values())
        self._at_least = [0] * max(len(pos.es), live.bit_length())
        self._at_most = list(self._at_least)
        for c in _cards(live):
            same = _cards(by_suit[pos.es[c]])
            self._at_least[c] = sum(1 << x for x in same if pos.st[x] >= pos.st[c])
            self._at_most[c] = sum(1 << x for x in same if pos.st[x] <= pos.st[c])
        # The fast path (``_fsearch``): every position but those with a rule of their own (Five Hundred's Joker
        # naming a suit at no trumps, Two Hundred's compulsory first trump lead), which the general one plays.
        self.fast = pos.joker < 0 and not pos.trump_lead_first and not pos.voids
        self.rank_keys = True  # relative-rank table keys on the fast path (a test turns them off)
        if self.fast:
            self._prepare_fast(live, by_suit)

    # --- the rules -------------------------------------------------------------------------------------------

    def turn(self) -> int:
        p = self.p
        if not p.trick:
            return p.leader
        return p.next_pos[p.trick[-1][0]]

    def legal(self, pos: int) -> int:
        p = self.p
        hand = p.hands[pos]
        if not p.trick:
            if p.trump_lead_first and p.trump >= 0 and hand & p.follow[p.trump]:
                return hand & p.follow[p.trump]
            return hand
        b = p.belote
        if b is None:
            return hand & p.follow[p.led] or hand
        best = self._best_card
        lead = p.trick[0][1]
        follow = hand & b.suit_cards[lead >> 4]
        if follow:
            if b.trump_lead >> lead & 1:
                return (follow & b.higher[best]) or follow
            return follow
        cut = b.cut
        trumps = hand & cut
        if not trumps:
            return hand
        if self._best_seat == pos ^ 2:
            if b.partner_undertrump or not cut >> best & 1 or trumps == hand:
                return hand
            return (hand & ~trumps) | (trumps & b.higher[best])
        if cut >> best & 1:
            return (trumps & b.higher[best]) or (trumps if b.forced_undertrump else hand)
        return trumps

    def _key(self, c: int, led: int) -> int:
        p = self.p
        s = p.es[c]
        if s == p.trump:
            return 200 + p.st[c]
        if s == led:
            return 100 + p.st[c]
        return 0

    def _recompute_best(self) -> None:
        p = self.p
        self._best_seat, self._best_key, self._best_card = -1, -1, -1
        for seat, c in p.trick:
            self._take(seat, c)

    def _take(self, seat: int, c: int) -> None:
        b = self.p.belote
        if b is not None:
            if self._best_card < 0 or b.beats[self._best_card] >> c & 1:
                self._best_seat, self._best_card = seat, c
            return
        k = self._key(c, self.p.led)
        if k > self._best_key:
            self._best_seat, self._best_key, self._best_card = seat, k, c

    # --- making and unmaking a move ----------------------------------------------------------------------------

    def play(self, move: int) -> tuple:
        """Play ``move`` for the position to move; returns what ``undo`` needs."""
        p = self.p
        c = move & 127
        trick = p.trick
        pos = p.next_pos[trick[-1][0]] if trick else p.leader
        saved = (
            p.leader,
            p.led,
            self._best_seat,
            self._best_key,
            self._best_card,
            list(p.voids) if p.voids else None,
            False,
        )
        bit = 1 << c
        p.hands[pos] &= ~bit
        self._live &= ~bit
        pts = p.points[c]
        self.hand_points -= pts
        if not trick:
            named = (move >> _JOKER_SHIFT) - 1
            p.led = named if named >= 0 else p.es[c]
        elif p.voids and not (p.hands[pos] | bit) & p.follow[p.led] and p.led < 4:
            p.voids[pos] |= 1 << p.led
        trick.append((pos, c))
        self._trick_mask |= bit
        self._trick_points += pts
        self._take(pos, c)
        if p.next_pos[pos] != p.leader:
            return saved + (None,)
        winner = self._best_seat
        gained = 0
        if p.counted[winner]:
            gained = p.trick_value + self._trick_points
            if not p.hands[winner]:
                gained += p.last_bonus
        sweeping = self._sweeping
        if sweeping:
            gained += self._sweep_closed(p.counted[winner], not p.hands[winner])
        closed = (trick, gained, self._trick_mask, self._trick_points, sweeping)
        p.trick = []
        self._trick_mask = 0
        self._trick_points = 0
        p.leader = winner
        p.led = NO_SUIT
        self._best_seat, self._best_key, self._best_card = -1, -1, -1
        if p.trump_lead_first:
            p.trump_lead_first = False  # only the first trick's lead (undo sets it back: the trick reopens)
            saved = saved[:6] + (True,)
        return saved + (closed,)

    def _sweep_closed(self, counted_won: bool, last: bool) -> int:
        """A trick closed while the sweep was possible: it ends there if the trick went to the other side; the last
        trick to the sweeping side adds the sweep (the caller restores ``_sweeping`` when it takes the trick back)."""
        if counted_won != self._sweep_counted:
            self._sweeping = False
            return 0
        return self._sweep if last else 0

    def undo(self, move: int, saved: tuple) -> None:
        p = self.p
        c = move & 127
        closed = saved[7]
        if closed is not None:
            p.trick = closed[0]
            self._trick_mask = closed[2]
            self._trick_points = closed[3]
            self._sweeping = closed[4]
        if saved[6]:
            p.trump_lead_first = True
        pos, _ = p.trick.pop()
        bit = 1 << c
        p.hands[pos] |= bit
        self._live |= bit
        pts = p.points[c]
        self.hand_points += pts
        self._trick_mask &= ~bit
        self._trick_points -= pts
        p.leader, p.led, self._best_seat, self._best_key, self._best_card, voids = saved[:6]
        if voids is not None:
            p.voids = voids

    # --- the search --------------------------------------------------------------------------------------------

    def moves(self, pos: int, first: int = -1) -> list[int]:
        """The moves worth trying for ``pos``, in the order to try them (``first``: a lead the table remembers)."""
        p = self.p
        legal = self.legal(pos)
        if self.prune and legal & (legal - 1):
            legal = self._drop_equivalent(legal, pos)
        cards = _cards(legal)
        if len(cards) == 1 and p.trick:
            return cards
        st = p.st
        if not p.trick:
            es, trump = p.es, p.trump
            cards.sort(key=lambda c: (es[c] == trump, st[c]), reverse=True)
            if first >= 0 and first & 127 in cards:
                cards.remove(first & 127)
                cards.insert(0, first & 127)
            if p.joker >= 0 and p.joker in cards:
                i = cards.index(p.joker)
                void = p.voids[pos]
                suits = [s for s in range(4) if not void >> s & 1] or list(range(4))
                named = [p.joker | (s + 1) << _JOKER_SHIFT for s in suits]
                if first >> _JOKER_SHIFT and first in named:
                    named.remove(first)
                    named.insert(0, first)
                return cards[:i] + named + cards[i + 1 :]
            return cards
        allied = self._best_seat >= 0 and p.maximizers[self._best_seat] == p.maximizers[pos]
        pts = p.points
        b = p.belote
        if b is not None:
            beats = b.beats[self._best_card]
            winning = [c for c in cards if beats >> c & 1]
        else:
            led, best_key, key = p.led, self._best_key, self._key
            winning = [c for c in cards if key(c, led) > best_key]
        if not winning:
            # Nothing takes the trick: onto a partner's card the most points, else the cheapest.
            if allied:
                cards.sort(key=lambda c: (-pts[c], st[c]))
            else:
                cards.sort(key=lambda c: pts[c] * 100 + st[c])
            return cards
        losing = [c for c in cards if c not in winning]
        if allied:
            losing.sort(key=lambda c: (-pts[c], st[c]))
            winning.sort(key=lambda c: (-pts[c], st[c]))
            return losing + winning
        winning.sort(key=st.__getitem__)
        losing.sort(key=lambda c: pts[c] * 100 + st[c])
        return winning + losing

    def _drop_equivalent(self, legal: int, me: int) -> int:
        """Two legal cards of one effective suit with the same points are equivalent when they are equally strong,
        or when no card elsewhere (another hand, the trick) has a strength between theirs, ends included (an equal
        card played first keeps the trick); of each run of equivalent cards only the lowest is tried."""
        p = self.p
        st, pts = p.st, p.points
        others = (self._live & ~p.hands[me]) | self._trick_mask
        keep = legal
        at_least, at_most = self._at_least, self._at_most
        joker = p.joker
        for suit_mask in self._suit_masks:
            mine = legal & suit_mask
            if not mine & (mine - 1):
                continue
            cards = sorted(_cards(mine), key=st.__getitem__)
            prev = cards[0]
            for c in cards[1:]:
                if (
                    pts[prev] == pts[c]
                    and c != joker
                    and (st[prev] == st[c] or not others & at_least[prev] & at_most[c])
                ):
                    keep &= ~(1 << c)  # the same as ``prev``, the lowest of its run, which stays
                else:
                    prev = c
        return keep

    def search(self, alpha: int, beta: int) -> int:
        if self.fast:
            return self._fast_entry(alpha, beta)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit
        p = self.p
        first = -1
        key = None
        if not p.trick:
            if not p.hands[p.leader]:
                return 0
            sweeping = self._sweeping
            least = self._sweep_down if sweeping else 0
            if beta <= least:
                return least
            lead_hand = p.hands[p.leader]
            most = self.hand_points + p.last_bonus + p.trick_value * lead_hand.bit_count()
            if sweeping:
                most += self._sweep_up
            if most <= alpha:
                return most
            if not lead_hand & (lead_hand - 1):
                return self._last_trick()
            if self.use_tt:
                leader = p.leader | 16 if sweeping else p.leader  # a sweep still possible is part of the position
                key = (tuple(p.hands), leader, tuple(p.voids)) if p.voids else (tuple(p.hands), leader)
                entry: tuple[int, int, int] | None = self.tt.get(key)
                if entry is not None:
                    lo, hi, first = entry
                    if lo >= beta:
                        return lo
                    if hi <= alpha:
                        return hi
                    if lo == hi:
                        return lo
                    alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        pos = p.next_pos[p.trick[-1][0]] if p.trick else p.leader
        maximizing = p.maximizers[pos]
        best = -INF if maximizing else INF
        best_move = -1
        play, undo, search = self.play, self.undo, self.search
        for m in self.moves(pos, first):
            saved = play(m)
            closed = saved[7]
            if closed is None:
                v = search(alpha, beta)
            else:
                gained = closed[1]
                v = gained + search(alpha - gained, beta - gained)
            undo(m, saved)
            if maximizing:
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, m
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = -INF, INF
            old: tuple[int, int, int] | None = self.tt.get(key)
            if old is not None:
                lo, hi = old[0], old[1]
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, best_move)
        return best

    # --- the fast path -----------------------------------------------------------------------------------------
    #
    # The same search as ``search`` (the same values, bounds and table entries), written for speed: a trick's cards
    # are arguments of the recursion instead of state to push and pop, which card beats the trick's best is one
    # mask per card, the move order keys are tables, and equivalent cards are found by one walk up each suit.

    def _prepare_fast(self, live: int, by_suit: dict[int, int]) -> None:
        p = self.p
        cards = _cards(live)
        size = max(len(p.es), live.bit_length())
        pts, st, es, trump = p.points, p.st, p.es, p.trump
        trumps = sum(1 << c for c in cards if es[c] == trump) if trump >= 0 else 0
        beat = [0] * size
        if p.belote is not None:
            for c in cards:
                beat[c] = p.belote.beats[c]
        else:
            for c in cards:
                above = sum(1 << x for x in _cards(by_suit[es[c]]) if st[x] > st[c])
                beat[c] = above | (0 if es[c] == trump else trumps)
        self._beat = beat
        # The position's constant tables as lists of the solver's own: compiled (mypyc), a ``list[int]`` is indexed
        # directly where a ``Sequence`` goes through Python's generic item access.
        self._pts = list(pts)
        self._es = list(es)
        self._next = list(p.next_pos)
        self._counted = list(p.counted)
        self._maximizers = list(p.maximizers)
        self._follow = list(p.follow)
        b = p.belote
        self._higher = list(b.higher) if b is not None else []
        self._suit_cards = list(b.suit_cards) if b is not None else []
        big = 1 << 16
        # Orders: leads high cards first, trumps before; cheap = fewest points then weakest; rich = most points.
        self._lead_key = [0] * size
        self._cheap = [0] * size
        self._rich = [0] * size
        self._st = [0] * size
        for c in cards:
            self._lead_key[c] = (big if es[c] == trump else 0) + st[c]
            self._cheap[c] = pts[c] * big + st[c]
            self._rich[c] = -pts[c] * big + st[c]
            self._st[c] = st[c]
        # Per effective suit, its cards by strength in groups of equal strength (the equivalent-card walk).
        groups: list[tuple[int, list[int]]] = []
        for mask in by_suit.values():
            by_st: dict[int, int] = {}
            for c in _cards(mask):
                by_st[st[c]] = by_st.get(st[c], 0) | 1 << c
            groups.append((mask, [by_st[k] for k in sorted(by_st)]))
        self._groups = groups
        self._bits = _BITS if len(_BITS) < _BITS_MAX else _new_bits()
        # Equivalent-card answers by (legal cards, other cards): the same in every solver sharing the table.
        self._equiv: dict[tuple[int, int], int] = self.tt.setdefault(_EQUIV, {})
        # Relative-rank keys: per effective suit, who holds each of its cards still out, in order of strength, with
        # its points (and whether it is as strong as the one below) — the position's value depends on no more, so
        # two positions that differ only in which low cards were played share a table entry.  Interned to ints,
        # in a table kept in ``tt`` so that solvers sharing the table share the ints.
        # Every effective suit of the game in a fixed order (not only those still in play): a key's place is its
        # suit in every solver that shares the table.
        every: dict[int, int] = {}
        for c, suit in enumerate(p.es):
            if suit >= 0:
                every[suit] = every.get(suit, 0) | 1 << c
        self._suits = [every[suit] for suit in sorted(every)]
        self._canon: dict[Any, int] = self.tt.setdefault(_CANON, {})

    def _rank_key(self, hands: list[int], leader: int) -> tuple:
        canon = self._canon
        key = [leader]
        for suit in self._suits:
            t = tuple([h & suit for h in hands])
            k = canon.get(t)
            if k is None:
                k = self._intern(t)
            key.append(k)
        return tuple(key)

    def _intern(self, t: tuple) -> int:
        st, pts = self.p.st, self.p.points
        held = [(st[c], pts[c], i) for i, h in enumerate(t) for c in _cards(h)]
        held.sort()
        shape = tuple((i, pc, j > 0 and held[j - 1][0] == s) for j, (s, pc, i) in enumerate(held))
        canon = self._canon
        k = canon.get(shape)
        if k is None:
            k = canon[shape] = len(canon)
        canon[t] = k
        return k

    def _fast_entry(self, alpha: int, beta: int) -> int:
        p = self.p
        if not p.trick:
            return self._fsearch(alpha, beta)
        pos = p.next_pos[p.trick[-1][0]]
        # The led suit as the position says (a Joker led at no trumps named it: not the Joker's own suit).
        return self._ffollow(pos, p.trick[0][1], p.led, self._best_seat, self._best_card, self._trick_mask,
                             self._trick_points, alpha, beta)  # fmt: skip

    def _card_list(self, mask: int) -> list[int]:
        out = self._bits.get(mask)
        if out is None:
            out = self._bits[mask] = _cards(mask)
        return out

    def _fequivalent(self, legal: int, others: int) -> int:
        known = self._equiv.get((legal, others))
        if known is None:
            known = self._equiv[legal, others] = self._fwalk(legal, others)
        return known

    def _fwalk(self, legal: int, others: int) -> int:
        """``_drop_equivalent`` by a walk up each suit's strength groups: a legal card is dropped when a kept one of
        the same points is weaker or as strong, with no other hand's or the trick's card from the kept one's
        strength to its own (ends included)."""
        keep = legal
        pts = self._pts
        for suit, suit_groups in self._groups:
            in_suit = legal & suit
            if not in_suit & (in_suit - 1):
                continue
            prev = -1
            prev_group = -1
            between = False
            for gi, gmask in enumerate(suit_groups):
                has_other = others & gmask
                mine = legal & gmask
                if mine:
                    if has_other:
                        between = True
                    for c in self._card_list(mine):
                        if prev >= 0 and pts[prev] == pts[c] and (prev_group == gi or not between):
                            keep &= ~(1 << c)
                        else:
                            prev, prev_group, between = c, gi, bool(has_other)
                elif has_other:
                    between = True
        return keep

    def _order_leads(self, legal: int, leader: int) -> list[int]:
        return sorted(self._card_list(legal), key=self._lead_key.__getitem__, reverse=True)

    def _fsearch(self, alpha: int, beta: int) -> int:
        """A trick boundary: the leader's leads (the table, the bounds, the last trick as ``search``)."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit
        p = self.p
        hands = p.hands
        leader = p.leader
        lead_hand = hands[leader]
        if not lead_hand:
            return 0
        sweeping = self._sweeping
        least = self._sweep_down if sweeping else 0
        if beta <= least:
            return least
        most = self.hand_points + p.last_bonus + p.trick_value * lead_hand.bit_count()
        if sweeping:
            most += self._sweep_up
        if most <= alpha:
            return most
        if not lead_hand & (lead_hand - 1):
            return self._flast()
        first = -1
        key: tuple | None = None
        tt = self.tt
        if self.use_tt:
            keyed = leader | 16 if sweeping else leader  # a sweep still possible is part of the position
            key = self._rank_key(hands, keyed) if self.rank_keys else (tuple(hands), keyed)
            entry: tuple[int, int, int] | None = tt.get(key)
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        a0, b0 = alpha, beta
        legal = lead_hand
        if self.prune and legal & (legal - 1):
            legal = self._fequivalent(legal, self._live & ~lead_hand)
        cards = self._order_leads(legal, leader)
        if first >= 0 and legal >> first & 1 and cards[0] != first:
            cards.remove(first)
            cards.insert(0, first)
        maximizing = self._maximizers[leader]
        best = -INF if maximizing else INF
        best_move = -1
        nxt = self._next[leader]
        pts, es = self._pts, self._es
        for c in cards:
            bit = 1 << c
            hands[leader] = lead_hand ^ bit
            self._live ^= bit
            pc = pts[c]
            self.hand_points -= pc
            v = self._ffollow(nxt, c, es[c], leader, c, bit, pc, alpha, beta)
            hands[leader] = lead_hand
            self._live ^= bit
            self.hand_points += pc
            if maximizing:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = -INF, INF
            old: tuple[int, int, int] | None = tt.get(key)
            if old is not None:
                lo, hi = old[0], old[1]
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            tt[key] = (lo, hi, best_move)
        return best

    def _ffollow(self, pos: int, lead: int, led: int, best_seat: int, best: int, tmask: int, tpts: int,
                 alpha: int, beta: int) -> int:  # fmt: skip
        """``pos`` to play to a trick led with ``lead`` (in effective suit ``led``) whose best card so far is ``best``
        (``best_seat``'s);
        ``tmask``/``tpts``: the trick's cards and points.  A trick complete goes on to ``_fsearch``."""
        p = self.p
        if pos == p.leader:
            winner = best_seat
            gained = 0
            if self._counted[winner]:
                gained = p.trick_value + tpts
                if not p.hands[winner]:
                    gained += p.last_bonus
            sweeping = self._sweeping
            if sweeping:
                gained += self._sweep_closed(self._counted[winner], not p.hands[winner])
            old_leader = p.leader
            p.leader = winner
            v = gained + self._fsearch(alpha - gained, beta - gained)
            p.leader = old_leader
            self._sweeping = sweeping
            return v
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit
        hands = p.hands
        hand = hands[pos]
        b = p.belote
        if b is None:
            legal = hand & self._follow[led] or hand
        else:
            higher = self._higher
            follow = hand & self._suit_cards[lead >> 4]
            if follow:
                legal = ((follow & higher[best]) or follow) if b.trump_lead >> lead & 1 else follow
            else:
                cut = b.cut
                trumps = hand & cut
                if not trumps:
                    legal = hand
                elif best_seat == pos ^ 2:
                    if b.partner_undertrump or not cut >> best & 1 or trumps == hand:
                        legal = hand
                    else:
                        legal = (hand & ~trumps) | (trumps & higher[best])
                elif cut >> best & 1:
                    legal = (trumps & higher[best]) or (trumps if b.forced_undertrump else hand)
                else:
                    legal = trumps
        if self.prune and legal & (legal - 1):
            legal = self._fequivalent(legal, (self._live & ~hand) | tmask)
        beat = self._beat
        win = legal & beat[best]
        maximizers = self._maximizers
        if not legal & (legal - 1):
            cards = self._card_list(legal)
        else:
            allied = maximizers[best_seat] == maximizers[pos]
            lose = self._card_list(legal & ~win)
            if not win:
                cards = sorted(lose, key=(self._rich if allied else self._cheap).__getitem__)
            elif allied:
                rich = self._rich.__getitem__
                cards = sorted(lose, key=rich) + sorted(self._card_list(win), key=rich)
            else:
                taking = sorted(self._card_list(win), key=self._st.__getitem__)
                cards = taking + sorted(lose, key=self._cheap.__getitem__)
        maximizing = maximizers[pos]
        v_best = -INF if maximizing else INF
        nxt = self._next[pos]
        pts = self._pts
        for c in cards:
            bit = 1 << c
            hands[pos] = hand ^ bit
            self._live ^= bit
            pc = pts[c]
            self.hand_points -= pc
            if win >> c & 1:
                v = self._ffollow(nxt, lead, led, pos, c, tmask | bit, tpts + pc, alpha, beta)
            else:
                v = self._ffollow(nxt, lead, led, best_seat, best, tmask | bit, tpts + pc, alpha, beta)
            hands[pos] = hand
            self._live ^= bit
            self.hand_points += pc
            if maximizing:
                if v > v_best:
                    v_best = v
                    if v > alpha:
                        alpha = v
            elif v < v_best:
                v_best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return v_best

    def _flast(self) -> int:
        """The last trick (one card in each hand), played out by the fast path's rules."""
        p = self.p
        hands = p.hands
        leader = p.leader
        best_seat = leader
        best = hands[leader].bit_length() - 1
        pts, nxt = self._pts, self._next
        tpts = pts[best]
        beat = self._beat
        pos = nxt[leader]
        while pos != leader:
            c = hands[pos].bit_length() - 1
            tpts += pts[c]
            if beat[best] >> c & 1:
                best_seat, best = pos, c
            pos = nxt[pos]
        v = p.trick_value + tpts + p.last_bonus if self._counted[best_seat] else 0
        if self._sweeping and self._counted[best_seat] == self._sweep_counted:
            v += self._sweep
        return v

    def _last_trick(self) -> int:
        """One card in each hand: the last trick plays itself (no choice, nothing to search)."""
        p = self.p
        done: list[tuple[int, tuple]] = []
        gained = 0
        while True:
            pos = p.next_pos[p.trick[-1][0]] if p.trick else p.leader
            c = p.hands[pos].bit_length() - 1
            saved = self.play(c)
            done.append((c, saved))
            if saved[7] is not None:
                gained = saved[7][1]
                break
        for c, saved in done[::-1]:
            self.undo(c, saved)
        return gained

    def upper(self) -> int:
        """The most the counted positions could take from here (every point left and the trick in progress)."""
        p = self.p
        cards = p.hands[self.turn()].bit_count() + (1 if p.trick else 0)
        most = self.hand_points + sum(p.points[c] for _, c in p.trick) + p.last_bonus + p.trick_value * cards
        return most + self._sweep_up if self._sweeping else most

    def lower(self) -> int:
        """The least the counted positions could end with from here (nothing, or the other side's sweep)."""
        return self._sweep_down if self._sweeping else 0

    def value(self, guess: int | None = None) -> int:
        """The counted positions' card points from here on, with best play by everyone, by null-window searches
        (each only asks "at least v?", which prunes far more than a full window; its fail-soft answer narrows the
        range further), the table's bounds carried from one to the next.  Without a ``guess``: bisection of the
        range.  With one (a close position's value, e.g. another candidate's in the same world): MTD(f), each test
        at the last answer, which needs two or three searches when the guess is near."""
        lo, hi = self.lower(), self.upper()
        if guess is not None:
            g = min(max(guess, lo), hi)
            while lo < hi:
                test = g if g > lo else lo + 1
                g = self.search(test - 1, test)
                if g >= test:
                    lo = g
                else:
                    hi = g
            return lo
        while lo < hi:
            mid = (lo + hi + 1) // 2
            g = self.search(mid - 1, mid)
            if g >= mid:
                lo = g
            else:
                hi = g
        return lo

    def _child_value(self, move: int) -> int:
        saved = self.play(move)
        closed = saved[7]
        gained = closed[1] if closed is not None else 0
        v = gained + self.value()
        self.undo(move, saved)
        return v

    def move_values(self) -> list[tuple[int, int]]:
        """(move, exact value) of every move worth trying for the position to move."""
        return [(m, self._child_value(m)) for m in self.moves(self.turn())]

    def best_move(self, target: int | None = None, guess: int | None = None) -> tuple[int, int]:
        """A best move for the position to move (for its side) and the position's value (``target``, when known;
        else found from ``guess``, see ``value``): the first move, in the search's order, whose null-window test
        reaches that value."""
        p = self.p
        if target is None:
            target = self.value(guess)
        pos = self.turn()
        maximizing = p.maximizers[pos]
        moves = self.moves(pos)
        for m in moves:
            saved = self.play(m)
            closed = saved[7]
            need = target - (closed[1] if closed is not None else 0)
            ok = self.search(need - 1, need) >= need if maximizing else self.search(need, need + 1) <= need
            self.undo(m, saved)
            if ok:
                return m, target
        raise AssertionError("no move reaches the position's value")


class SearchLimit(Exception):
    """The search visited more nodes than it was allowed (the caller falls back to a rollout)."""
