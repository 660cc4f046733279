"""Card points inside won tricks lie face down during a deal (issue 15): the public view and every seat's view carry
the trick counts but not the running points, except the Da Bai Fen opponents' counting cards, which the rules lay
face up.  Once the deal is over its points are public again, and the table image renders either way."""

import random

import pytest

from render import render_table
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY
from rules.registry import new_match
from tests.test_views import VARIANTS, choose

# Each game's running card points in the replay output (Five Hundred counts tricks only).
POINT_KEYS = {"two_hundred": "points_taken", "belote": "card_points", "da_bai_fen": "points", "five_hundred": None}
PNG = b"\x89PNG"


def views(match) -> list[dict]:
    return [match.public_view()] + [match.seat_view(seat) for seat in range(match.players)]


def check_during_play(game: str, match) -> None:
    key = POINT_KEYS[game]
    for view in views(match):
        assert "tricks_won" in view
        if game == "da_bai_fen":  # "the opponents win ... counting cards ... placed face up", the declarers' not
            declarers = view["contract"]["declarers"]
            assert view[key][declarers] is None
            assert view[key][1 - declarers] == match.points[1 - declarers]
        else:
            assert key is None or key not in view, (key, view.get(key))


def check_after_deal(game: str, match) -> None:
    key = POINT_KEYS[game]
    if key is not None:
        assert all(isinstance(v, int) for v in match.public_view()[key])


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_running_points_are_face_down_during_the_play(game, options):
    rng = random.Random(15)
    match = new_match(game, options, 0)
    played, ended = 0, 0
    for _ in range(2000):
        if match.phase == GAME_OVER or ended >= 2:
            break
        if match.phase == BETWEEN_DEALS:
            match.start_deal(match.random_deal(rng))
        deals = len(match.deal_results)
        match.apply_observed(choose(match, rng))
        if match.phase == PLAY and match.tricks_completed():
            check_during_play(game, match)
            played += 1
        if len(match.deal_results) > deals:
            check_after_deal(game, match)
            ended += 1
    assert played and ended


@pytest.mark.parametrize("game", sorted(POINT_KEYS))
def test_the_table_image_renders_without_running_points(game):
    rng = random.Random(3)
    match = new_match(game, {}, 0)
    while not (match.phase == PLAY and match.tricks_completed()):
        if match.phase == BETWEEN_DEALS:  # a deal may be thrown in before its play
            match.start_deal(match.random_deal(rng))
        match.apply_observed(choose(match, rng))
    names = [f"P{seat}" for seat in range(match.players)]
    assert render_table(match.public_view(), names, to_move=match.to_move).startswith(PNG)


def test_the_face_up_points_of_one_side_still_reach_the_score_box():
    from render.state import points_by_side

    state = {"game": "da_bai_fen", "scores": ["2", "2"], "seat_teams": [0, 1, 0, 1], "points": [None, 25]}
    assert points_by_side(state, ["a", "b", "c", "d"]) == [None, 25]
