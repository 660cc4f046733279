"""What may be looked back at during a deal follows each rule text (rules/lookback.py), and a deal's story is told from
the record (rules/review.py).  Each rule decision cites its seed sentence."""

import random

import pytest

from rules.cards import parse_card
from rules.da_bai_fen.order import POINTS
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY, Match
from rules.lookback import UNTIL_NEXT_COLLECTED, UNTIL_NEXT_LEAD, look_back, shows_last_trick
from rules.records import GameRecord, replay
from rules.registry import new_match
from rules.review import deal_story
from tests.test_views import choose

GAMES = ("two_hundred", "belote", "five_hundred", "da_bai_fen")


def played(game: str, seed: int, moment) -> tuple[Match, GameRecord]:
    """A game played by random legal moves, recorded, until ``moment(match)``."""
    rng = random.Random(seed)
    match = new_match(game, {}, 0)
    record = GameRecord(game, {}, 0)
    for _ in range(5000):
        if match.phase == BETWEEN_DEALS:
            cards = match.random_deal(rng)
            match.start_deal(cards)
            record.add_deal(cards)
        if moment(match):
            return match, record
        action = choose(match, rng)
        match.apply_observed(action)
        record.append(action)
        if match.phase == GAME_OVER:
            if moment(match):
                return match, record
            break
    raise AssertionError("the moment never came")


def mid_trick(match: Match) -> bool:
    return match.phase == PLAY and match.tricks_completed() >= 2 and bool(match.public_view()["trick"])


def trick_just_taken(match: Match) -> bool:
    return match.phase == PLAY and match.tricks_completed() >= 2 and not match.public_view()["trick"]


def test_two_hundred_tricks_are_stored_face_down():
    """Two Hundred: "Completed tricks are stored face down in front of a member of the team that won them and may not
    be looked at again by anyone until the end of the play."  The trick just taken is seen until its winner leads."""
    match, record = played("two_hundred", 1, mid_trick)
    assert match.LOOK_BACK == UNTIL_NEXT_LEAD
    seen = look_back(deal_story(record, len(record.deals) - 1))
    assert seen.last_trick is None and seen.tricks == () and seen.face_up == ()
    assert "last_trick" not in match.public_view() and "points_taken" not in match.public_view()
    match, record = played("two_hundred", 1, trick_just_taken)
    seen = look_back(deal_story(record, len(record.deals) - 1))
    assert seen.last_trick is not None and seen.last_trick.number == match.tricks_completed()


def test_belote_last_trick_until_the_next_is_collected():
    """Belote: "The last trick can be viewed by any player until the next trick has been collected." """
    match, record = played("belote", 2, mid_trick)
    assert match.LOOK_BACK == UNTIL_NEXT_COLLECTED
    story = deal_story(record, len(record.deals) - 1)
    seen = look_back(story)
    assert seen.last_trick == story.tricks[-1] and seen.tricks == ()
    assert match.public_view()["last_trick"]  # the engine's own view keeps it too
    assert len(story.tricks) == match.tricks_completed()


def test_da_bai_fen_counting_cards_won_by_the_opponents_lie_face_up():
    """Da Bai Fen: "Whenever the opponents win a trick containing any counting cards, these are extracted from the
    trick and placed face up in front of one of them. All other cards played to tricks, including counting cards in
    tricks won by the declarers, are put face down"."""

    def opponents_counted(match: Match) -> bool:
        return mid_trick(match) and match.public_view()["points"][1 - match.declarers] > 0

    match, record = played("da_bai_fen", 3, opponents_counted)
    story = deal_story(record, len(record.deals) - 1)
    seen = look_back(story)
    declarers = match.declarers
    expected = [
        (t.winner, tuple(c for _, cards in t.plays for c in cards if POINTS[parse_card(c)]))
        for t in story.tricks
        if t.winner % 2 != declarers
    ]
    assert list(seen.face_up) == [e for e in expected if e[1]]
    shown = sum(POINTS[parse_card(c)] for _, cards in seen.face_up for c in cards)
    kitty = 0  # the kitty's cards go to the last trick's winner, at the end
    assert shown + kitty == match.public_view()["points"][1 - declarers]
    assert seen.last_trick is None  # "put face down in a single heap once the trick is complete"


def test_five_hundred_the_chosen_reading():
    """Five Hundred is silent but for "A revoke may be corrected before the trick is turned down": the trick is
    turned down once its winner leads (docs/rules/five_hundred.md says so)."""
    match, record = played("five_hundred", 4, mid_trick)
    assert match.LOOK_BACK == UNTIL_NEXT_LEAD
    assert look_back(deal_story(record, len(record.deals) - 1)).last_trick is None


@pytest.mark.parametrize("game", GAMES)
def test_an_open_review_and_a_finished_deal_show_every_trick(game):
    match, record = played(game, 5, mid_trick)
    story = deal_story(record, len(record.deals) - 1)
    assert not story.finished
    opened = look_back(story, open_review=True)
    assert opened.all_open and opened.tricks == story.tricks
    assert "last_trick" in match.open_view() or match.LOOK_BACK == UNTIL_NEXT_LEAD or game == "belote"

    def a_deal_scored(m: Match) -> bool:
        return any(not r.get("thrown_in") for r in m.deal_results)

    match, record = played(game, 6, a_deal_scored)
    index = next(i for i, r in enumerate(match.deal_results) if not r.get("thrown_in"))
    story = deal_story(record, index)
    assert story.finished and story.result == match.deal_results[index]
    assert story.tricks or story.failed_lead
    assert look_back(story).all_open
    leaders = [t.leader for t in story.tricks]
    assert all(later == earlier.winner for earlier, later in zip(story.tricks, leaders[1:], strict=False))


@pytest.mark.parametrize("game", GAMES)
def test_a_story_agrees_with_the_replayed_record(game):
    match, record = played(game, 7, mid_trick)
    story = deal_story(record, len(record.deals) - 1)
    assert story.match.output() == replay(record).output()
    assert story.hands_at_play is not None
    played_cards = {c for t in story.tricks for _, cards in t.plays for c in cards}
    for seat, hand in enumerate(story.hands_at_play):
        still = set(story.match.hand_mask_names(seat))
        assert still <= set(hand)
        assert not still & played_cards


def test_the_last_trick_rule_in_one_place():
    assert shows_last_trick(UNTIL_NEXT_LEAD, trick_in_progress=False)
    assert not shows_last_trick(UNTIL_NEXT_LEAD, trick_in_progress=True)
    assert shows_last_trick(UNTIL_NEXT_LEAD, trick_in_progress=True, open_review=True)
    assert shows_last_trick(UNTIL_NEXT_COLLECTED, trick_in_progress=True)


def test_a_deal_that_is_not_there_is_refused():
    from rules.errors import RecordError

    _, record = played("belote", 8, mid_trick)
    with pytest.raises(RecordError, match="no deal 9"):
        deal_story(record, 8)
