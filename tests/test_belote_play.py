"""Belote Contrée: the play obligations of FFB rules §5.2, each with the hand, the trick so far and the legal set.

Positions are built by ``position``: the leader bids 80 in the trump suit and the others pass, the trick's cards
are put in the players' hands and played, and the mover's hand is exactly the cards given (earlier tricks are not
played out: only the hand and the trick matter to §5.2).
"""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.belote import Belote
from rules.belote.tables import PACK
from rules.cards import CARD_NAMES, cards_of, parse_card
from rules.dealing import DealCards
from rules.errors import IllegalAction


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def names(mask_or_cards) -> set[str]:
    seq = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return {CARD_NAMES[c] for c in seq}


def bid_action(seat: int, trump: str) -> Action:
    if trump == "AT":
        return Action(seat, "bid", 80, contract="all_trumps")
    return Action(seat, "bid", 80, "SHDC".index(trump) if trump != "NT" else 4)


def position(trump: str, plays: str, hand: str, options: dict | None = None, leader: int = 0) -> Belote:
    """The leader bids 80 ``trump``, the others pass; ``plays`` are played (leader first); the next seat holds
    ``hand``."""
    played = cards(plays)
    mover = (leader + len(played)) % 4
    mine = cards(hand)
    rest = [c for c in PACK if c not in played and c not in mine]
    hands: list[list[int]] = [[] for _ in range(4)]
    for i, c in enumerate(played):
        hands[(leader + i) % 4].append(c)
    hands[mover] = list(mine)
    padding = []
    for seat in range(4):
        while len(hands[seat]) < 8:
            c = rest.pop()
            hands[seat].append(c)
            if seat == mover:
                padding.append(c)
    match = Belote(options, first_dealer=(leader - 1) % 4)
    match.start_deal(DealCards(hands=hands, kitty=[]))
    match.apply(bid_action(leader, trump))
    for i in range(1, 4):
        match.apply(Action((leader + i) % 4, "pass"))
    for c in padding:  # the mover's cards from earlier tricks
        match._hands[mover] &= ~(1 << c)
    for c in played:
        match._legal = match._hands[match._turn]  # the trick so far is given, whatever the earlier play
        match.play_card(c)
    assert match.to_move == mover
    return match


def legal(match: Belote) -> set[str]:
    from_mask = names(match.legal_card_mask())
    from_actions = {CARD_NAMES[a.cards[0]] for a in match.legal_actions()}
    assert from_mask == from_actions
    return from_mask


def refusal(match: Belote, card: str) -> str:
    before = match.clone()
    with pytest.raises(IllegalAction) as e:
        match.apply(Action(match.to_move, "play", cards=(parse_card(card),)))
    assert match.legal_card_mask() == before.legal_card_mask() and match._hands == before._hands  # atomic
    return e.value.message


# --- the lead and following ---------------------------------------------------------------------------------------


def test_leader_plays_any_card():
    """§5.1: "The player to the right of the dealer plays the card of their choice"."""
    m = position("H", "", "AS 7S JH 9C 8D QD KC 10H")
    assert legal(m) == {"AS", "7S", "JH", "9C", "8D", "QD", "KC", "10H"}


def test_must_follow_suit():
    """§5.2: "You must always follow the leading suit if you have cards in it." """
    m = position("H", "KS", "AS 7S JH 9C 8D QD KC 10H")
    assert legal(m) == {"AS", "7S"}
    assert refusal(m, "JH") == "you must follow suit: you hold spades"


def test_following_a_plain_suit_does_not_oblige_to_go_higher():
    """§5.2: the obligation to go higher is for trumps; in a plain suit any card of the suit will do."""
    m = position("H", "KS 10S", "AS 7S 8S 9C 8D QD KC 10H")
    assert legal(m) == {"AS", "7S", "8S"}


def test_trump_lead_must_overtrump():
    """§5.2: "If the leading suit is trump, you must play a higher trump card than any already played, if
    possible."  Trump order J 9 A 10 K Q 8 7: over the 10, the ace and the nine."""
    m = position("H", "10H", "AH 9H QH 7H 8C 8D QD KC")
    assert legal(m) == {"AH", "9H"}
    assert refusal(m, "QH") == "you must play a higher trump than 10H: you hold 9H, AH"


def test_trump_lead_higher_than_every_trump_played():
    """§5.2: higher "than any already played": the 9 played second must be beaten, not just the lead."""
    m = position("H", "7H 9H", "AH KH JH 7C 8D QD KC 8S")
    assert legal(m) == {"JH"}


def test_trump_lead_must_overtrump_even_the_partner():
    """§5.2: on a trump lead the obligation to go higher holds even when partner is winning."""
    m = position("H", "10H 7H", "AH 9H QH 8C 8D QD KC 8S")  # seat 2, partner of the leader, who is winning
    assert legal(m) == {"AH", "9H"}


def test_trump_lead_unable_to_overtrump_plays_a_lower_trump():
    """§5.2: "you must always play a trump card higher ... If that's impossible, you may play a lower trump card"
    - and following suit still obliges to play a trump."""
    m = position("H", "JH", "9H 7H 8C 8D QD KC 8S AS")
    assert legal(m) == {"9H", "7H"}
    assert refusal(m, "8C") == "you must follow suit: you hold hearts"


def test_trump_lead_void_in_trumps_plays_anything():
    """§5.2: "you must play a trump card if you have one. If not, you may play any card." - on a trump lead too."""
    m = position("H", "JH", "9C 7C 8C 8D QD KC 8S AS")
    assert legal(m) == {"9C", "7C", "8C", "8D", "QD", "KC", "8S", "AS"}


# --- void in the suit led --------------------------------------------------------------------------------------


def test_void_partner_not_winning_must_trump():
    """§5.2: "If you don't have a card in the leading suit and your partner has not won the trick or hasn't played
    yet, you must play a trump card if you have one." (any trump: none is on the table yet)"""
    m = position("H", "AS", "7H KH 9C 8C 8D QD KC 7D")
    assert legal(m) == {"7H", "KH"}
    assert refusal(m, "9C") == "you must trump: you have no spades and your partner is not winning the trick"


def test_void_partner_not_played_yet_must_trump():
    """The second player's partner has not played yet: trumping is compulsory."""
    m = position("H", "7S", "7H 9C 8C 8D QD KC 7D AD")
    assert legal(m) == {"7H"}


def test_void_partner_winning_plays_any_card():
    """§5.2: "If you don't have a card in the leading suit and your partner is the winner of the trick ..., you
    may play any card. You may also play a trump card if you choose." """
    m = position("H", "AS 7S", "7H KH 9C 8C 8D QD KC 7D")
    assert legal(m) == {"7H", "KH", "9C", "8C", "8D", "QD", "KC", "7D"}


def test_void_no_trumps_plays_any_card():
    """§5.2: "you must play a trump card if you have one. If not, you may play any card." """
    m = position("H", "AS", "9C 8C 8D QD KC 7D AD 10D")
    assert legal(m) == {"9C", "8C", "8D", "QD", "KC", "7D", "AD", "10D"}


def test_void_opponent_trumped_must_overtrump():
    """§5.2: when forced to cut, "you must always play a trump card higher than any already on the table"."""
    m = position("H", "AS QH", "KH 9H 7H 8C 8D QD KC 7D")  # seat 1 cut the ace with the queen
    assert legal(m) == {"KH", "9H"}
    assert refusal(m, "7H") == "you must overtrump QH: you hold 9H, KH"
    assert refusal(m, "8C") == "you must overtrump QH: you hold 9H, KH"


def test_void_opponent_trumped_unable_to_overtrump_plays_any_card():
    """§5.2 Note: "If an opponent has already played a trump card, and you only have lower trump cards, you are
    not required to play one (you "discard" it instead)"; "If that's impossible, you may play a lower trump"."""
    m = position("H", "AS JH", "7H 8H 9C 8C 8D QD KC 7D")
    assert legal(m) == {"7H", "8H", "9C", "8C", "8D", "QD", "KC", "7D"}


def test_forced_undertrump_option():
    """Table option ``forced_undertrump``: unable to overtrump the opponent, you must still play a (lower) trump."""
    m = position("H", "AS JH", "7H 8H 9C 8C 8D QD KC 7D", {"forced_undertrump": True})
    assert legal(m) == {"7H", "8H"}
    assert refusal(m, "9C").startswith("you must play a trump (this table plays forced undertrump)")


def test_partner_cut_then_opponent_overcut_must_overtrump_the_opponent():
    """Partner cut, an opponent cut higher: partner is not winning, so trump over the opponent's trump."""
    m = position("H", "AS 7H QH", "KH 8H 7C 8D QD KC 7D AD")  # seat 3: partner (1) cut 7H, seat 2 overcut QH
    assert legal(m) == {"KH"}


def test_rare_case_partner_cut_only_trumps_left():
    """§5.2: "When your partner has cut an opponent's card and you only have trump cards left, you are not
    required to play a higher trump card. This is the only case, which is quite rare, where a lower trump card is
    allowed." Seat 3's partner (seat 1) cut the ace of spades with the ten; seat 3 holds only trumps."""
    m = position("H", "AS 10H 8S", "9H 7H 8H")
    assert legal(m) == {"9H", "7H", "8H"}
    strict = position("H", "AS 10H 8S", "9H 7H 8H", {"partner_undertrump": False})
    assert legal(strict) == {"9H", "7H", "8H"}


def test_partner_cut_holding_other_cards_default_any_card():
    """Rule decisions: "void in the led suit: if partner is currently winning, any card" - a lower trump too."""
    m = position("H", "AS 10H 8S", "9H 7H 8C")
    assert legal(m) == {"9H", "7H", "8C"}


def test_partner_cut_holding_other_cards_strict_reading():
    """Option ``partner_undertrump: false``, the literal reading of "This is the only case ... where a lower trump
    card is allowed": with other cards in hand, discard or overtrump the partner, never undertrump."""
    m = position("H", "AS 10H 8S", "9H 7H 8C", {"partner_undertrump": False})
    assert legal(m) == {"9H", "8C"}
    assert "not play a lower trump" in refusal(m, "7H")


def test_not_holding_the_card():
    m = position("H", "AS", "7H KH 9C 8C 8D QD KC 7D")
    assert refusal(m, "JH") == "you do not hold JH"


# --- the trick winner -----------------------------------------------------------------------------------------


def test_trick_won_by_highest_trump_else_highest_of_suit_led():
    """§5.1: "The trick is won by the player who played the highest card in the trump suit or, if none, in the
    leading suit." """
    m = position("H", "10S AS 7H", "8S 9C 8C 8D QD KC 7D AD")
    m.play_card(parse_card("8S"))
    assert m._completed[-1][2] == 2 and m.to_move == 2  # seat 2's 7 of trumps takes it and leads
    m = position("H", "10S AD KS", "8S 9C 8C 8D QD KC 7D AC")
    m.play_card(parse_card("8S"))
    assert m._completed[-1][2] == 0  # the ten of spades: the ace of diamonds was a discard


# --- belote and rebelote --------------------------------------------------------------------------------------


def test_belote_listed_with_the_first_of_king_and_queen():
    """§7: "announced by saying "Belote" when playing the first card (either the Queen or the King)"; the record
    spec's ``announce: "belote"``; announcing is optional, so both forms are legal."""
    m = position("H", "", "KH QH 9C 8C 8D QD KC 7D")
    listed = [a.to_json() for a in m.legal_actions()]
    assert {"seat": 0, "type": "play", "cards": ["KH"], "announce": "belote"} in listed
    assert {"seat": 0, "type": "play", "cards": ["QH"], "announce": "belote"} in listed
    assert {"seat": 0, "type": "play", "cards": ["KH"]} in listed
    assert not [a for a in listed if a.get("announce") and a["cards"] != ["KH"] and a["cards"] != ["QH"]]


def test_belote_announced_counts_and_no_second_announcement():
    """§7: "then "Rebelote" when playing the second": the second card carries no announcement of its own; rule
    decisions: "+20 to that side"."""
    m = position("H", "", "KH QH 9C 8C 8D QD KC 7D")
    m.apply(Action(0, "play", cards=(parse_card("KH"),), announce="belote"))
    assert m._belote == [20, 0] and m.output()["belote"] == [0]
    assert m._belote_cards == 0
    listed = [a.to_json() for a in m.legal_actions()]  # seat 1 to play; seat 0 keeps QH without "belote"
    assert all("announce" not in a for a in listed)


def test_belote_not_announced_with_the_first_is_lost():
    """§7: "If either term is omitted, Belote is not counted": the second card can no longer carry it."""
    m = position("H", "", "KH QH 9C 8C 8D QD KC 7D")
    m.play_card(parse_card("KH"))
    assert m._belote_cards == 0


def test_belote_announce_refused_without_the_pair():
    """§7: "When a player holds the King and Queen of trumps, they have "Belote"" - not with the king alone; the
    record spec's only announcement is "belote"."""
    m = position("H", "", "KH 9H 9C 8C 8D QD KC 7D")
    with pytest.raises(IllegalAction, match="only with the first of the king and queen of trumps"):
        m.apply(Action(0, "play", cards=(parse_card("KH"),), announce="belote"))
    with pytest.raises(IllegalAction, match="'rebelote' is not an announcement here"):
        m.apply(Action(0, "play", cards=(parse_card("KH"),), announce="rebelote"))


def test_belote_of_a_plain_suit_is_no_belote():
    """§7: "the King and Queen of trumps" - a king and queen of another suit are nothing."""
    m = position("H", "", "KS QS 9C 8C 8D QD KC 7D")
    assert not [a for a in m.legal_actions() if a.announce]


# --- sans atout and tout atout (table options) -------------------------------------------------------------------


def test_sans_atout_follow_without_going_higher_void_any_card():
    """Sans atout: no trump; follow suit if able (no obligation to go higher), else any card."""
    m = position("NT", "10S", "AS 7S 9C 8C 8D QD KC 7D", {"sans_atout": True})
    assert legal(m) == {"AS", "7S"}
    m = position("NT", "10S", "9H 7H 9C 8C 8D QD KC 7D", {"sans_atout": True})
    assert legal(m) == {"9H", "7H", "9C", "8C", "8D", "QD", "KC", "7D"}


def test_tout_atout_follow_and_go_higher_void_any_card():
    """Tout atout: every suit in the trump order (J 9 A 10 K Q 8 7) and every lead a trump lead: go higher if
    possible; void, any card (another suit never wins)."""
    m = position("AT", "AS", "9S 10S 7S 8C 8D QD KC 7D", {"tout_atout": True})
    assert legal(m) == {"9S"}
    m = position("AT", "AS", "9H 7H 9C 8C 8D QD KC 7D", {"tout_atout": True})
    assert legal(m) == {"9H", "7H", "9C", "8C", "8D", "QD", "KC", "7D"}


def test_tout_atout_belote_in_every_suit():
    m = position("AT", "", "KS QS KD QD 8D 8C KC 7D", {"tout_atout": True})
    announced = {CARD_NAMES[a.cards[0]] for a in m.legal_actions() if a.announce}
    assert announced == {"KS", "QS", "KD", "QD"}


def test_fast_path_returns_the_next_legal_mask_and_refuses_like_apply():
    """``play_card`` returns the next seat's legal mask; an illegal card is refused with the same words."""
    m = position("H", "KS", "AS 7S JH 9C 8D QD KC 10H")
    with pytest.raises(IllegalAction, match="you must follow suit: you hold spades"):
        m.play_card(parse_card("JH"))
    nxt = m.play_card(parse_card("7S"))
    assert nxt == m.legal_card_mask() and m.to_move == 2
    assert m.belote_mask() & ~m._hands[2] == 0  # only cards seat 2 holds
