"""An undo in a game record (docs/records.md): ``{"seat": s, "type": "undo"}`` takes back seat s's card just
played; replay (and so ``cardtable replay``) gives the state as if the card had not been played, and refuses an
undo that takes back anything else."""

from __future__ import annotations

import random

from rules.game import PLAY
from rules.players import RandomPlayer
from rules.records import GameRecord, effective_actions, replay, replay_text


def _record_in_play(seed: int = 4) -> tuple[GameRecord, int]:
    """A Belote record played by random players until two cards of the play are down."""
    from rules.registry import match_class

    rng = random.Random(seed)
    while True:
        match = match_class("belote")({}, 0)
        record = GameRecord("belote", {}, 0)
        cards = match.random_deal(rng)
        match.start_deal(cards)
        record.add_deal(cards)
        plays = 0
        while match.phase != PLAY or plays < 2:
            if match.phase not in ("bidding", PLAY):
                break
            action = RandomPlayer().choose(match, rng)
            match.apply(action)
            record.append(action)
            plays += action.type == "play"
        if match.phase == PLAY:
            return record, match.to_move


def test_an_undo_takes_back_the_card_just_played():
    record, _ = _record_in_play()
    last = record.deals[0].actions[-1]
    before = replay(record).match
    record.append_undo(last["seat"])
    after = replay(record)
    assert after.error is None
    assert after.match.to_move == last["seat"]
    assert len(after.match.hand(last["seat"])) == len(before.hand(last["seat"])) + 1
    assert effective_actions(record.deals[0].actions) == record.deals[0].actions[:-2]
    # The same card (or another) may then be played again.
    code, out = replay_text(record.dumps())
    assert code == 0 and any(a["type"] == "play" and a["seat"] == last["seat"] for a in out["legal"])


def test_an_undo_of_another_seat_or_of_anything_but_the_last_card_is_refused():
    wrong, to_move = _record_in_play()
    base = list(wrong.deals[0].actions)
    last_seat = base[-1]["seat"]
    wrong.deals[0].actions = [*base, {"seat": to_move, "type": "undo"}]
    code, out = replay_text(wrong.dumps())
    assert code == 1 and "its own seat has just played" in out["error"]["message"]
    twice = [*base, {"seat": last_seat, "type": "undo"}, {"seat": last_seat, "type": "undo"}]
    wrong.deals[0].actions = twice
    code, out = replay_text(wrong.dumps())
    assert code == 1 and out["error"]["action"] == len(twice) - 1
    wrong.deals[0].actions = [*base, {"seat": last_seat, "type": "undo", "card": "AS"}]
    code, out = replay_text(wrong.dumps())
    assert code == 1 and "unexpected key" in out["error"]["message"]


def test_no_undo_before_the_play():
    record, _ = _record_in_play()
    first_bid = next(i for i, a in enumerate(record.deals[0].actions) if a["type"] in ("bid", "pass"))
    seat = record.deals[0].actions[first_bid]["seat"]
    record.deals[0].actions = [*record.deals[0].actions[: first_bid + 1], {"seat": seat, "type": "undo"}]
    code, out = replay_text(record.dumps())
    assert code == 1 and "while the cards are played" in out["error"]["message"]


def test_a_deal_review_leaves_out_a_card_taken_back():
    """A deal's story (rules/review.py) tells the deal as it stands: the card taken back is in no trick."""
    from rules.review import deal_story

    record, _ = _record_in_play()
    last = record.deals[0].actions[-1]
    record.append_undo(last["seat"])
    story = deal_story(record, 0)  # the deal is not finished: its story so far
    assert all(last["cards"][0] not in [c for p in t.plays for c in p.get("cards", [])] for t in story.tricks)
    assert story.match.to_move == last["seat"]
    assert sorted(story.match.hand(last["seat"])) == sorted(replay(record).match.hand(last["seat"]))  # card back
