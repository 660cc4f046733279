"""Building Da Bai Fen deals for tests (no tests here): stocks giving chosen seats chosen cards, a fixed layout."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.cards import CARD_NAMES, card, cards_of, parse_card
from rules.da_bai_fen import DaBaiFen, trump_order
from rules.da_bai_fen.order import PACK, POINTS, points_of
from rules.da_bai_fen.scoring import level_rank
from rules.dealing import DealCards
from rules.records import GameRecord


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def stock_for(hands: list[list[int]], kitty: list[int], starter: int) -> list[int]:
    """The stock (top first) that deals ``hands`` when ``starter`` draws first."""
    stock = [0] * 54
    for seat in range(4):
        draw_order = (seat - starter) % 4
        for i, c in enumerate(hands[seat]):
            stock[draw_order + 4 * i] = c
    stock[48:] = kitty
    return stock


def stock_giving(starter: int, wanted: dict[int, list[int]], seed: int = 0, kitty: list[int] = ()) -> list[int]:
    """A random stock in which each seat of ``wanted`` receives those cards (and the kitty holds ``kitty``)."""
    rng = random.Random(seed)
    taken = {c for cs in wanted.values() for c in cs} | set(kitty)
    rest = [c for c in PACK if c not in taken]
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        mine = list(wanted.get(seat, []))
        while len(mine) < 12:
            mine.append(rest.pop())
        hands.append(mine)
    return stock_for(hands, list(kitty) + rest[: 6 - len(kitty)], starter)


# Trump rank 2 (first deal); seat 0 exposes 2S: spades are trumps.
BASE = [
    "2S RJ AS KS AH KH QH 3H AD KD 3C 4C",
    "BJ QS JS JH 10H 4H QD JD AC KC QC 5C",
    "2H 10S 9S 9H 8H 10D 9D 8D JC 10C 9C 6C",
    "2D 8S 7S 7H 6H 5H 7D 6D 5D 8C 7C 2C",
]
BASE_KITTY = "6S 5S 4S 3S 4D 3D"


def layout(swaps: list[tuple[str, str]] = ()) -> list[list[int]]:
    """The base hands with pairs of cards exchanged between their holders."""
    hands = [cards(h) for h in BASE]
    for a, b in swaps:
        ca, cb = parse_card(a), parse_card(b)
        sa = next(s for s in range(4) if ca in hands[s])
        sb = next(s for s in range(4) if cb in hands[s])
        hands[sa][hands[sa].index(ca)] = cb
        hands[sb][hands[sb].index(cb)] = ca
    return hands


def draw_all(match: DaBaiFen, expose: dict[int, tuple[int, str]] | None = None, until: int = 48) -> None:
    """Everyone draws in turn; ``expose`` maps a number of cards drawn to (seat, card) exposed at that moment."""
    expose = expose or {}
    while match.phase == "deal" and match.drawn < until:
        if match.drawn in expose:
            seat, name = expose.pop(match.drawn)
            match.apply(Action(seat, "expose", card=parse_card(name)))
        match.apply(Action(match.to_move, "draw"))
    for seat, name in expose.values():  # exposures after the last card drawn
        match.apply(Action(seat, "expose", card=parse_card(name)))


def base_match(swaps=(), options=None, discard: str | None = BASE_KITTY) -> DaBaiFen:
    """First deal, starter 0, seat 0 exposes 2S after the draw; discards the kitty back (5S: 5 points)."""
    match = DaBaiFen(options, 0)
    match.start_deal(DealCards(stock=stock_for(layout(swaps), cards(BASE_KITTY), 0)))
    draw_all(match, {47: (0, "2S")})
    if discard is not None:
        match.apply(Action(0, "discard", cards=tuple(cards(discard))))
    return match


def play(match: DaBaiFen, seat: int, text: str) -> None:
    match.apply(Action(seat, "play", cards=tuple(cards(text))))


# --- whole deals through real actions ---------------------------------------------------------------------------


def _groups(order, in_play: int, exposed: int) -> list[list[int]]:
    """Split one effective suit's cards in play (a multiple of four) into tricks of four: each trick's top card is
    strictly stronger than the other three (so who wins never depends on the order of play), the counting cards are
    spread one per trick as far as possible, and the exposed card is never a top (its holder is fixed)."""
    st = order.strength
    ranked = sorted(cards_of(in_play), key=lambda c: -st[c])
    n = len(ranked) // 4
    tops: list[int] = []
    for c in ranked:
        if len(tops) == n:
            break
        if c != exposed and all(st[c] != st[t] for t in tops):
            tops.append(c)
    groups = [[t] for t in tops]
    rest = [c for c in ranked if c not in tops]
    rest.sort(key=lambda c: (c != exposed, POINTS[c] == 0))  # the exposed card, then counting cards, then the rest
    for c in rest:
        fits = [g for g in groups if len(g) < 4 and st[c] < st[g[0]]]
        assert fits, f"cannot place {CARD_NAMES[c]}"
        min(fits, key=lambda g: (sum(POINTS[x] > 0 for x in g), len(g))).append(c)
    return groups


def play_deal_to(
    match: DaBaiFen,
    opponent_points: int,
    exposer: int,
    suit: str = "S",
    discard: str | None = None,
    opponents_take_last: bool | None = None,
    double_last: bool = False,
    record: GameRecord | None = None,
) -> dict:
    """Start the match's next deal and play it through real actions (draws, an exposure, the discard, twelve tricks)
    so that the opponents take exactly ``opponent_points`` card points; returns the deal's result.

    ``exposer`` exposes the card of the deal's trump rank in ``suit`` as soon as they draw it (in the first deal and
    in a special deal the exposer becomes the leader).  Every player holds one card of each trick, all of the trick's
    suit, so everybody follows suit and the trick's top card wins; which side wins each trick is chosen so that the
    points add up (the kitty's counting cards, ``discard`` — six trumps, by default six without points — go to the
    last trick's winner, doubled or as the options say; with ``double_last`` the last trick is a two-card lead that
    stands).  With ``record`` the deal and its actions are appended."""
    starter = match.dealer if match.deal_index < 0 else match.next_dealer()
    mode = match.next_mode
    if mode == "normal":
        level, leader, declarers = match.levels[match.declarers], starter, match.declarers
    else:
        level = match.start_level if mode == "first" else match.levels[exposer & 1]
        leader, declarers = exposer, exposer & 1
    exposed = card(level_rank(level), "SHDC".index(suit))
    order = trump_order(level_rank(level), "SHDC".index(suit), match.twos_trump)
    st = order.strength
    if discard is None:
        trumps = cards_of(order.trump_mask)
        kitty = sorted((c for c in trumps if not POINTS[c] and c != exposed), key=lambda c: st[c])[:6]
    else:
        kitty = cards(discard)
    kitty_mask = sum(1 << c for c in kitty)
    assert len(kitty) == 6 and kitty_mask & order.trump_mask == kitty_mask and exposed not in kitty
    groups = [g for s in range(5) for g in _groups(order, order.suit_masks[s] & ~kitty_mask, exposed)]
    assert len(groups) == 12
    values = [sum(POINTS[c] for c in g) for g in groups]
    factor = 2 if match.options["kitty_multiplier"] == "double" else 2 if double_last else 1
    bonus = points_of(kitty_mask) * factor
    # With double_last the last trick is the first plain suit's two top tricks led together by the player who holds
    # both tops (they beat every other card of the suit: a throw that stands), so that player must win trick 10 too.
    plain = next(s for s in range(4) if s != order.suit)
    pair = [i for i, g in enumerate(groups) if order.effective_suit[g[0]] == plain][:2]
    chosen = None
    for bits in range(1 << 12):  # which tricks the opponents win; the one played last takes the kitty
        taken = sum(v for i, v in enumerate(values) if bits >> i & 1)
        for last in range(12):
            opp_last = bool(bits >> last & 1)
            if opponents_take_last is not None and opp_last != opponents_take_last:
                continue
            if taken + (bonus if opp_last else 0) != opponent_points:
                continue
            if double_last:
                if last != pair[1] or opp_last != bool(bits >> pair[0] & 1):
                    continue
                tenth = [k for k in range(12) if k not in pair and bool(bits >> k & 1) == opp_last]
                tenth = [k for k in tenth if exposed not in groups[k]]
                if not tenth:
                    continue
                order_of_play = [k for k in range(12) if k not in pair and k != tenth[0]] + [tenth[0], pair]
            else:
                order_of_play = [i for i in range(12) if i != last] + [last]
            chosen = bits, order_of_play
            break
        if chosen:
            break
    assert chosen, f"no way to give the opponents exactly {opponent_points}"
    bits, order_of_play = chosen
    hands: list[list[int]] = [[], [], [], []]
    plan = []
    for step in order_of_play:
        together = step if isinstance(step, list) else [step]
        team = 1 - declarers if bits >> together[0] & 1 else declarers
        winner = leader if team == declarers else (leader + 1) % 4
        cards_by_seat: dict[int, tuple[int, ...]] = {}
        for i in together:
            group = list(groups[i])
            dealt = {}
            if exposed in group:
                if winner == exposer:
                    winner = (winner + 2) % 4  # the exposer holds the exposed card in this trick: the partner wins
                dealt[exposer] = exposed
                group.remove(exposed)
            dealt[winner] = group.pop(0)
            for seat in range(4):
                if seat not in dealt:
                    dealt[seat] = group.pop(0)
            for seat, c in dealt.items():
                hands[seat].append(c)
                cards_by_seat[seat] = cards_by_seat.get(seat, ()) + (c,)
        plan.append(cards_by_seat)
    deal = DealCards(stock=stock_for(hands, kitty, starter))
    match.start_deal(deal)
    if record is not None:
        record.add_deal(deal)

    def act(action: Action) -> None:
        match.apply(action)
        if record is not None:
            record.append(action)

    position = deal.stock.index(exposed)
    while match.phase == "deal":
        if match.drawn == position + 1:
            act(Action(exposer, "expose", card=exposed))
        if match.phase == "deal":
            act(Action(match.to_move, "draw"))
    assert match.leader == leader and match.declarers == declarers
    act(Action(leader, "discard", cards=tuple(kitty)))
    for cards_by_seat in plan:
        first = match.trick_leader
        for k in range(4):
            seat = (first + k) % 4
            act(Action(seat, "play", cards=cards_by_seat[seat]))
    result = match.deal_results[-1]
    assert result["opponent_points"] == opponent_points and result["failed_throw"] is None
    return result
