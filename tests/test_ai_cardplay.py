"""The heuristic's card play (``rules/ai/cardplay.pick_card``) and the sharper policy the master's Belote rollouts play
(``PlayInfo.sharp``): each correction, on a position where it plays another card than the heuristic."""

from __future__ import annotations

from rules.ai.cardplay import PlayInfo, pick_card
from rules.ai.games import adapter_for
from rules.belote.tables import PACK_MASK
from rules.cards import ACE, CLUBS, DIAMONDS, HEARTS, QUEEN, R7, R8, R9, R10, SPADES, card

ORDER = adapter_for("belote", {}).order({"trump": "H"})  # hearts are trumps


def _mask(*cards: int) -> int:
    return sum(1 << c for c in cards)


def _info(seat: int, hand: int, trick: list[tuple[int, int]], played: int = 0, declaring: bool = False) -> PlayInfo:
    assert ORDER is not None
    allies = frozenset({seat, seat ^ 2})
    return PlayInfo(
        seat=seat,
        hand=hand,
        legal=hand,
        trick=trick,
        led=ORDER.es[trick[0][1]] if trick else -1,
        order=ORDER,
        allies=allies,
        after=tuple((seat + i) & 3 for i in range(1, 4 - len(trick))),
        unseen=PACK_MASK & ~hand & ~played & ~_mask(*(c for _, c in trick)),
        declaring=declaring,
    )


def _both(info: PlayInfo) -> tuple[int, int]:
    plain = pick_card(info)
    info.sharp = True
    return plain, pick_card(info)


def test_the_side_holding_the_contract_draws_trumps_from_two_without_the_master():
    """Both levels lead the top trump when it is the master; the sharp policy also leads a low trump from two (the
    heuristic from three), the jack and the nine still out."""
    hand = _mask(card(R7, HEARTS), card(QUEEN, HEARTS), card(R8, SPADES), card(R9, CLUBS), card(R7, DIAMONDS))
    plain, sharp = _both(_info(0, hand, [], declaring=True))
    assert sharp == card(R7, HEARTS)
    assert plain == card(R7, DIAMONDS)  # low from a side suit
    # Defending, neither leads a trump.
    assert _both(_info(1, hand, []))[1] != card(R7, HEARTS)


def test_a_low_lead_is_not_made_from_a_suit_whose_ten_is_not_the_master():
    """The ace of spades is out: leading low from the ten's suit lets it fall under the ace."""
    hand = _mask(card(R10, SPADES), card(R7, SPADES), card(R8, SPADES), card(R8, CLUBS), card(R9, DIAMONDS))
    plain, sharp = _both(_info(1, hand, []))
    assert plain == card(R7, SPADES)  # low from the longest suit
    assert sharp == card(R8, CLUBS)
    # With the ace gone the ten is the master: both cash it.
    gone = _mask(card(ACE, SPADES))
    assert _both(_info(1, hand, [], played=gone)) == (card(R10, SPADES), card(R10, SPADES))


def test_a_master_of_another_suit_is_not_smeared_on_the_partners_trick():
    """Last to play, the partner's ace winning: the heuristic smears its most valuable card, the ace of clubs, which
    would win a trick of its own; the sharp policy smears the ten of diamonds (the ace of diamonds still out)."""
    hand = _mask(card(ACE, CLUBS), card(R10, DIAMONDS), card(R7, DIAMONDS))
    trick = [(0, card(R7, SPADES)), (1, card(ACE, SPADES)), (2, card(R8, SPADES))]
    assert _both(_info(3, hand, trick)) == (card(ACE, CLUBS), card(R10, DIAMONDS))
    # Holding only masters, the sharp policy smears one as the heuristic does.
    only_masters = _mask(card(ACE, CLUBS), card(ACE, DIAMONDS))
    plain, sharp = _both(_info(3, only_masters, trick))
    assert plain == sharp in (card(ACE, CLUBS), card(ACE, DIAMONDS))
