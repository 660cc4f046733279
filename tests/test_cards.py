"""The card notation of records (docs/records.md, "Cards, suits, seats and sides"): rank then suit, upper case when
written, any case when read; `T` is read as 10, which is always written `10`."""

import pytest

from rules.cards import (
    BJ,
    CARD_NAMES,
    JK,
    RJ,
    card_name,
    cards_of,
    make_pack,
    mask_of,
    nth_card,
    parse_card,
    parse_suit,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    "text, name",
    [("AS", "AS"), ("as", "AS"), ("10h", "10H"), ("TH", "10H"), ("th", "10H"), ("5D", "5D"), ("13H", "13H"),
     ("11c", "11C"), ("12S", "12S"), ("JK", "JK"), ("rj", "RJ"), ("Bj", "BJ"), ("2c", "2C")],
)  # fmt: skip
def test_parse_is_case_insensitive_and_prints_upper_case(text, name):
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("bad", ["", "1S", "AX", "10", "S", "JOKER", "AS ", None, 10, "ZZ"])
def test_bad_cards_are_refused_in_words(bad):
    if bad == "AS ":  # surrounding blanks are forgiven
        assert card_name(parse_card(bad)) == "AS"
        return
    with pytest.raises(ValueError, match="card"):
        parse_card(bad)


def test_every_card_id_round_trips():
    for c, name in enumerate(CARD_NAMES):
        if name != "?":
            assert parse_card(name) == c


def test_jokers_have_no_suit_or_rank():
    for j in (JK, BJ, RJ):
        assert suit_of(j) == 4 and rank_of(j) == -1


def test_suits_and_no_trump():
    assert parse_suit("s") == 0 and parse_suit("C") == 3
    assert parse_suit("NT", allow_nt=True) == 4
    with pytest.raises(ValueError, match="not a suit"):
        parse_suit("NT")


def test_masks_round_trip_and_nth_card():
    pack = make_pack(range(16))
    assert len(pack) == 64
    mask = mask_of(pack)
    assert cards_of(mask) == sorted(pack)
    picked = [nth_card(mask, i) for i in range(64)]
    assert picked == sorted(pack)
