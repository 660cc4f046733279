"""The shared trick bookkeeping: following, trumps beating plain cards, and "equal cards: the first played"."""

from rules.cards import SUIT_MASKS, mask_of, parse_card
from rules.tricks import TrickPlay, mask_points, points_table

NATURAL_SUIT = [c >> 4 if c < 64 else 4 for c in range(67)]
NATURAL_STRENGTH = [c & 15 if c < 64 else 0 for c in range(67)]


def cards(*names):
    return [parse_card(n) for n in names]


def deal(*hands, trump=-1, leader=0, active=None):
    return TrickPlay([mask_of(cards(*h)) for h in hands], leader, trump, NATURAL_SUIT, NATURAL_STRENGTH, active)


def test_highest_of_led_suit_wins_without_trumps():
    t = deal(["9H"], ["AH"], ["KS"], ["10H"])
    assert [t.play(c) for c in cards("9H", "AH", "KS", "10H")] == [-1, -1, -1, 1]
    assert t.tricks_won == [0, 1, 0, 0] and t.leader == 1 and t.turn == 1
    assert t.taken[1] == mask_of(cards("9H", "AH", "KS", "10H"))


def test_a_trump_beats_the_led_suit_and_the_highest_trump_wins():
    t = deal(["AH"], ["2S"], ["3S"], ["KH"], trump=0)
    for c in cards("AH", "2S", "3S"):
        t.play(c)
    assert t.current_winner == 2
    assert t.play(parse_card("KH")) == 2


def test_equal_strength_first_played_wins():
    strength = [0] * 67  # every card equal
    t = TrickPlay([mask_of(cards(h)) for h in ("5H", "6H", "7H")], 2, -1, NATURAL_SUIT, strength)
    for c in cards("7H", "5H", "6H"):
        t.play(c)
    assert t.completed[-1][2] == 2


def test_follow_mask_must_follow_else_anything():
    t = deal(["AH", "2S"], ["KH", "3D", "4D"], ["5C"], ["6C"])
    assert t.follow_mask(0) == mask_of(cards("AH", "2S"))
    t.play(parse_card("AH"))
    assert t.follow_mask(1) == mask_of(cards("KH"))
    t.play(parse_card("KH"))
    assert t.follow_mask(2) == mask_of(cards("5C"))


def test_inactive_seats_are_skipped():
    t = deal(["AH"], [], ["KH"], [], active=[True, False, True, False])
    assert t.play(parse_card("AH")) == -1
    assert t.turn == 2
    assert t.play(parse_card("KH")) == 0


def test_copy_is_independent():
    t = deal(["AH", "2H"], ["KH", "3H"], ["QH", "4H"], ["JH", "5H"])
    u = t.copy()
    u.play(parse_card("AH"))
    assert t.trick == [] and t.hands[0] & (1 << parse_card("AH"))


def test_points_of_a_mask():
    table = points_table({parse_card("AH"): 11, parse_card("10H"): 10})
    assert mask_points(mask_of(cards("AH", "10H", "9H")), table) == 21
    assert mask_points(SUIT_MASKS[1], table) == 21
