"""Property tests over random legal Da Bai Fen games (exposures, claims and multi-card leads included): cards are
conserved, card points are 100 plus the kitty rule, levels add up, and replaying the record reproduces the state."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, DiscardChoice
from rules.cards import cards_of
from rules.da_bai_fen import DaBaiFen
from rules.da_bai_fen.order import PACK_MASK
from rules.playing import play_deal
from rules.records import GameRecord, parse_record, replay

OPTION_SETS = [
    {},
    {"level_step": 20, "kitty_multiplier": "last_trick_size", "kitty_exposed": True},
    {
        "twos_always_trump": True,
        "forty_is_draw": True,
        "failed_throw": "lowest_card",
        "start_level": "7",
        "target": "9",
    },  # fmt: skip
]


class CheckingPlayer:
    """A random legal action, once the cards are checked; sometimes a multi-card lead of one suit (a throw, which may
    fail)."""

    def choose(self, match: DaBaiFen, rng: random.Random, history=None) -> Action:
        check_conservation(match)
        return random_action(match, rng)


def random_action(match: DaBaiFen, rng: random.Random) -> Action:
    legal = match.legal_actions()
    if match.phase == "play" and not match.trick and rng.random() < 0.3:
        hand = match.hands[match.to_move]
        suit = match.order.effective_suit[rng.choice(cards_of(hand))]
        same = cards_of(hand & match.order.suit_masks[suit])
        if len(same) >= 2:
            return Action(match.to_move, "play", cards=tuple(rng.sample(same, rng.randint(2, min(4, len(same))))))
    claims = [a for a in legal if a.type == "claim_draw"]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    exposes = [a for a in legal if a.type == "expose"]
    if exposes and rng.random() < 0.08:
        return rng.choice(exposes)
    pick = legal[0] if match.phase == "deal" else rng.choice([a for a in legal if a.type != "claim_draw"])
    if isinstance(pick, DiscardChoice):
        return Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
    return pick


def check_conservation(match: DaBaiFen) -> None:
    masks = list(match.hands)
    if match.phase == "deal":
        masks.append(sum(1 << c for c in match.stock[match.drawn :]))
    elif match.phase == "play":
        masks += [match.played, match.discarded]
    elif match.phase == "exchange":
        masks.append(match.played)
    union = 0
    for m in masks:
        assert not union & m, "a card is in two places"
        union |= m
    if match.phase in ("deal", "exchange", "play"):
        assert union == PACK_MASK


def check_points(match: DaBaiFen, result: dict) -> None:
    if result["thrown_in"]:
        return
    kitty = result["kitty_points"]
    total = result["opponent_points"] + result["declarer_points"]
    if result["failed_throw"] is None:
        factor = total - (100 - kitty)
        assert factor == 2 * kitty or (match.kitty_by_trick_size and kitty and factor % kitty == 0) or kitty == 0
        if not match.kitty_by_trick_size:
            assert total == 100 + kitty  # "100 points" plus the discard's counting cards doubled
    else:
        assert min(result["opponent_points"], result["declarer_points"]) == 0  # one side "lost every trick"


def play_game(options: dict, seed: int, max_deals: int):
    rng = random.Random(seed)
    match = DaBaiFen(options, seed % 4)
    record = GameRecord("da_bai_fen", dict(options), seed % 4)
    while match.phase != "game_over" and len(record.deals) < max_deals:
        play_deal(match, [CheckingPlayer()] * 4, rng, record)
        check_conservation(match)
        check_points(match, match.deal_results[-1])
    return match, record


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), which=st.sampled_from(range(len(OPTION_SETS))))
def test_random_games_keep_the_rules_invariants(seed, which):
    options = OPTION_SETS[which]
    match, record = play_game(options, seed, max_deals=6)
    start = match.start_level
    assert match.scores() == [start + sum(r["score_change"][t] for r in match.deal_results) for t in (0, 1)]
    again = replay(parse_record(json.loads(record.dumps())))
    assert again.error is None
    assert json.dumps(again.output(), sort_keys=True) == json.dumps({**match.output(), "error": None}, sort_keys=True)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_whole_games_end_with_a_side_above_the_target(seed):
    match, _ = play_game({"target": "5"}, seed, max_deals=300)
    assert match.phase == "game_over" and match.scores()[match.winner] > 5
