"""Property tests of what the engine says the bot shows (rules/view.py, rules/events.py), over random legal games of
all four games and their variants: a seat's view never holds another seat's hidden cards, the public view holds
no hand at all, and the events agree with the state."""

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES
from rules.events import DealScored, FailedLead, GameOver, TrickWon
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY
from rules.registry import new_match

VARIANTS = [
    ("two_hundred", {}),
    ("two_hundred", {"players": 2}),
    ("two_hundred", {"players": 3}),
    ("two_hundred", {"players": 6}),
    ("two_hundred", {"kitty": True, "kitty_discard": "show_trumps"}),
    ("five_hundred", {}),
    ("five_hundred", {"players": 2, "two_player_method": 2}),
    ("five_hundred", {"players": 3}),
    ("five_hundred", {"players": 5}),
    ("five_hundred", {"players": 6, "six_player_method": 2}),
    ("belote", {}),
    ("belote", {"litige": True}),
    ("da_bai_fen", {}),
    ("da_bai_fen", {"failed_throw": "lowest_card", "kitty_exposed": True}),
]
# Output keys that show cards still in a hand because the rules show them: the trick on the table, the open misère
# hand, an exposed trump-rank card, the called card, the card that beat a failed lead, cards turned face up.
SHOWN_BY_THE_RULES = {"trick", "last_trick", "open_hand", "exposed", "contract", "failed_throws", "silent_face_up",
                      "kitty_turned", "kitty_shown", "discard_trumps_shown", "deal_results", "options"}  # fmt: skip
CARD = re.compile(r"^(?:10|[2-9JQKA])[SHDC]$|^(?:JK|BJ|RJ)$")


def card_names_in(value) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(card_names_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(card_names_in(v) for v in value)) if value else set()
    return set()


def choose(match, rng: random.Random) -> Action:
    legal = match.legal_actions()
    if match.may_lead_several(match.to_move) and rng.random() < 0.3:  # a multi-card lead, which may fail
        hand = match.hand(match.to_move)
        suit = match.order.effective_suit[rng.choice(hand)]
        same = [c for c in hand if match.order.effective_suit[c] == suit]
        if len(same) >= 2:
            return Action(match.to_move, "play", cards=tuple(rng.sample(same, rng.randint(2, min(3, len(same))))))
    if match.phase == "deal":
        pick = next((a for a in legal if a.type == "draw"), legal[0])
    else:
        pick = rng.choice([a for a in legal if a.type != "claim_draw"] or legal)
    if isinstance(pick, DiscardChoice):
        return Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
    return pick


def check_views(match) -> None:
    public = match.public_view()
    assert not {"hands", "hand", "legal", "stock", "kitty", "widow", "discards", "discarded"} & set(public)
    hidden = {CARD_NAMES[c] for s in range(match.players) for c in match.hand(s)}
    for key, value in public.items():
        if key not in SHOWN_BY_THE_RULES:
            assert not card_names_in(value) & hidden, (key, value)
    for seat in range(match.players):
        view = match.seat_view(seat)
        own = set(view["hand"])
        assert own == {CARD_NAMES[c] for c in match.hand(seat)}
        others = {CARD_NAMES[c] for s in range(match.players) if s != seat for c in match.hand(s)} - own
        private = {k: v for k, v in view.items() if k not in public or k == "seat"}
        private["legal"] = [a for a in view["legal"] if a["type"] != "call"]  # a called card is named, not held
        assert not card_names_in(private) & others, private
        assert all(a["seat"] == seat for a in view["legal"])


def play_and_check(game: str, options: dict, seed: int, max_actions: int = 500) -> None:
    rng = random.Random(seed)
    match = new_match(game, options, rng.randrange(new_match(game, options).players))
    trick_points: dict[int, int] = {}
    for step in range(max_actions):
        if match.phase == GAME_OVER:
            break
        if match.phase == BETWEEN_DEALS:
            match.start_deal(match.random_deal(rng))
            trick_points = {}
        if step % 7 == 0:
            check_views(match)
        results = len(match.deal_results)
        events = match.apply_observed(choose(match, rng))
        for event in events:
            if isinstance(event, TrickWon):
                assert event.seat == match.last_trick_winner()
                assert event.seat in {seat for seat, _ in event.plays}
                if event.points is not None:
                    trick_points[event.seat] = trick_points.get(event.seat, 0) + event.points
            elif isinstance(event, DealScored):
                assert event.score_change == tuple(match.deal_results[results]["score_change"])
                assert event.scores == tuple(match.scores())
            elif isinstance(event, FailedLead):
                failure = match.public_view()["failed_throws"][-1]
                assert (event.seat, event.card) == (failure["seat"], failure["beaten_by"]["card"])
            elif isinstance(event, GameOver):
                assert match.phase == GAME_OVER and event.winner == match.winner
        assert any(isinstance(e, DealScored) for e in events) == (len(match.deal_results) > results)
        points = match.side_points()
        if points is not None and match.phase == PLAY:  # the deal goes on: its tricks' points are all counted
            assert sum(trick_points.values()) == sum(points)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(range(len(VARIANTS))), st.integers(0, 10**6))
def test_views_hide_other_hands_and_events_agree_with_the_state(index, seed):
    game, options = VARIANTS[index]
    play_and_check(game, options, seed)


def test_every_variant_plays_with_views_and_events():
    for game, options in VARIANTS:
        play_and_check(game, options, seed=7)
