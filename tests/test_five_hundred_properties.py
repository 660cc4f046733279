"""Properties of random legal Five Hundred games, for every form in the text.

Cards are conserved at every step, each deal has ten tricks, cumulative scores are the sum of the deal results,
an illegal move changes nothing, clones are independent, and replaying the record reproduces the output.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, DiscardChoice
from rules.cards import JK, mask_of
from rules.errors import IllegalAction
from rules.five_hundred import FiveHundred
from rules.game import GAME_OVER, PLAY
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import GameRecord, parse_record, replay

FORMS = [
    {},
    {"players": 2},
    {"players": 2, "two_player_method": 2},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 6, "six_player_method": 2},
    {"target": 200},
]


def cards_in_view(m: FiveHundred) -> list[int]:
    """Every card the state accounts for: hands, the trick, tricks taken, discards, the widow and any dead hand."""
    out = []
    tp = m.tp
    hands = tp.hands if tp is not None else m.hands
    for h in hands:
        out += m.cards_in(h)
    if tp is not None:
        out += [c for _, c in tp.trick]
        for t in tp.taken:
            out += m.cards_in(t)
    out += m.discards + m.out_of_play
    if m.soloist is None:
        out += m.widow_cards
    return out


def check_conserved(m: FiveHundred) -> None:
    seen = cards_in_view(m)
    assert sorted(seen) == sorted(m.pack())


def an_illegal_play(m: FiveHundred, rng: random.Random) -> Action | None:
    if m.phase != PLAY:
        return None
    illegal = [c for c in m.pack() if not m.legal_card_mask() >> c & 1]
    return Action(m.to_move, "play", cards=(rng.choice(illegal),)) if illegal else None


class CautiousPlayer(RandomPlayer):
    """Passes often, so that low contracts, misères and all-pass deals come up too (a uniform pick bids high)."""

    def choose(self, match, rng):
        legal = match.legal_actions()
        if legal[0].type == "pass" and rng.random() < 0.7:
            return legal[0]
        return super().choose(match, rng)


class CheckingPlayer:
    """``player``'s choice, once the position passes every check; now and then the choice is tried on a clone."""

    def __init__(self, player: RandomPlayer):
        self.player = player

    def choose(self, m: FiveHundred, rng: random.Random, history=None) -> Action:
        check_conserved(m)
        bad = an_illegal_play(m, rng)
        if bad is not None:
            before = json.dumps(m.output())
            with pytest.raises(IllegalAction):
                m.apply(bad)
            assert json.dumps(m.output()) == before  # apply is atomic
        legal = m.legal_actions()
        assert legal and all(a.seat == m.to_move for a in legal)
        action = self.player.choose(m, rng)
        if rng.random() < 0.1:  # a clone is independent of the original
            before = json.dumps(m.output())
            m.clone().apply(action)
            assert json.dumps(m.output()) == before
        return action


def play_game(options: dict, seed: int, max_deals: int = 3) -> tuple[GameRecord, FiveHundred]:
    rng = random.Random(seed)
    player = CheckingPlayer(CautiousPlayer() if seed % 2 else RandomPlayer())
    m = FiveHundred(options, first_dealer=rng.randrange(FiveHundred(options).players))
    record = GameRecord("five_hundred", options, m.first_dealer)
    while m.phase != GAME_OVER and len(record.deals) < max_deals:
        play_deal(m, [player] * m.players, rng, record)
        check_conserved(m)
        assert sum(m.deal_results[-1]["tricks_won"]) == 10
    return record, m


@pytest.mark.parametrize("options", FORMS, ids=lambda o: json.dumps(o))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(options, seed):
    record, m = play_game(options, seed)
    results = m.deal_results
    assert m.scores() == [sum(r["score_change"][i] for r in results) for i in range(len(m.scores()))]
    for r in results:
        assert r["thrown_in"] is False and isinstance(r["explain"], str)
        assert (r["made"] is None) == (r["contract"] is None)
    if m.phase == GAME_OVER:
        assert m.winner is None or 0 <= m.winner < len(m.scores())
    replayed = replay(parse_record(json.loads(record.dumps())))
    assert replayed.error is None
    assert json.dumps(replayed.output()) == json.dumps({**m.output(), "error": None})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_fast_path_plays_the_same_as_actions(seed):
    """legal_card_mask()/play_card() agree with legal_actions()/apply()."""
    rng = random.Random(seed)
    m = FiveHundred({"players": rng.choice([2, 3, 4, 5, 6])})
    m.start_deal(m.random_deal(rng))
    player = RandomPlayer()
    while m.phase != PLAY:
        m.apply(player.choose(m, rng))
    while m.phase == PLAY:
        legal = m.legal_actions()
        assert not any(isinstance(a, DiscardChoice) for a in legal)
        assert mask_of(a.cards[0] for a in legal) == m.legal_card_mask()
        pick = legal[rng.randrange(len(legal))]
        twin = m.clone()
        twin.play_card(pick.cards[0], pick.suit if pick.cards[0] == JK else None)
        m.apply(pick)
        assert json.dumps(twin.output()) == json.dumps(m.output())
