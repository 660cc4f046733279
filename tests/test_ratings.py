"""bot/ratings/rating.py: the shape of each game's rating update, the conservative number, and what is not rated."""

from __future__ import annotations

import random

import pytest

from bot.ratings.rating import (
    MU,
    SIGMA,
    Rating,
    SeatInfo,
    display_number,
    final_ranks,
    rate,
    rated_units,
    rating_eligibility,
    scoring_units,
    summarize,
)
from rules.players import make_player
from rules.simulate import recorded_game


def finished(game: str, options: dict, seed: int = 3):
    record, match = recorded_game(game, options, random.Random(seed), [make_player("random")] * 6, 2000)
    assert match.phase == "game_over"
    return match


def humans(n: int) -> list[SeatInfo]:
    return [SeatInfo(s, 100 + s, None, f"p{s}") for s in range(n)]


# --- units and ranks -----------------------------------------------------------------------------------------


def test_units_follow_the_record_spec_layouts():
    assert scoring_units(4, 2) == [(0, 2), (1, 3)]
    assert scoring_units(6, 2) == [(0, 2, 4), (1, 3, 5)]
    assert scoring_units(6, 3) == [(0, 3), (1, 4), (2, 5)]
    assert scoring_units(3, 3) == [(0,), (1,), (2,)]
    assert scoring_units(5, 5) == [(0,), (1,), (2,), (3,), (4,)]
    with pytest.raises(ValueError):
        scoring_units(5, 2)


def test_ranks_put_the_winner_first_then_scores_with_ties():
    assert final_ranks([100, 300, 200], None) == [2, 0, 1]
    assert final_ranks([100, 300, 200], 0) == [0, 1, 2]  # e.g. the side that went out by making its bid
    assert final_ranks([40, 40, 10], None) == [0, 0, 1]
    assert final_ranks([40, 40, 10], 2) == [1, 1, 0]


# --- each game shape ---------------------------------------------------------------------------------------------


def _check_team_update(units, ranks, changes):
    """Partners move together from equal starts; a better rank gains more than a worse one."""
    for team in units:
        afters = {changes[u][1] for u in team}
        assert len(afters) == 1, "partners with equal ratings must move identically"
    mu_by_rank = {}
    for team, rank in zip(units, ranks, strict=True):
        mu_by_rank[rank] = changes[team[0]][1].mu
    ordered = [mu_by_rank[r] for r in sorted(mu_by_rank)]
    assert ordered == sorted(ordered, reverse=True)
    for _, after in changes.values():
        assert after.sigma < SIGMA  # every game makes each rating more certain


@pytest.mark.parametrize(
    "game, options, shape",
    [
        ("belote", {}, [2, 2]),
        ("da_bai_fen", {}, [2, 2]),
        ("five_hundred", {"players": 4}, [2, 2]),
        ("five_hundred", {"players": 6, "six_player_method": 2}, [3, 3]),
        ("five_hundred", {"players": 6}, [2, 2, 2]),
        ("five_hundred", {}, [1, 1, 1]),
        ("five_hundred", {"players": 5}, [1, 1, 1, 1, 1]),
    ],
)
def test_each_game_shape_rates_the_right_teams(game, options, shape):
    match = finished(game, options)
    summary = summarize(game, match.players, match.output())
    assert [len(u) for u in summary.units] == shape
    seat_users = {s: 100 + s for s in range(match.players)}
    units = rated_units(summary, seat_users)
    changes = rate(units, summary.ranks, {})
    assert set(changes) == set(seat_users.values())
    _check_team_update(units, summary.ranks, changes)
    if summary.winner is not None:
        winners = units[summary.winner]
        assert all(changes[u][1].mu > MU for u in winners)


def test_two_v_two_winners_gain_losers_lose_the_same():
    changes = rate([[1, 3], [2, 4]], [0, 1], {})
    assert changes[1][1] == changes[3][1]
    assert changes[1][1].mu - MU == pytest.approx(MU - changes[2][1].mu)


def test_partners_move_by_their_own_uncertainty():
    """A certain veteran and a newcomer win together: the newcomer's rating moves more."""
    current = {1: Rating(30.0, 2.0)}
    changes = rate([[1, 3], [2, 4]], [0, 1], current)
    assert changes[3][1].mu - changes[3][0].mu > changes[1][1].mu - changes[1][0].mu > 0


def test_one_v_two_solo_game_rates_each_against_the_others():
    changes = rate([[1], [2], [3]], [0, 1, 2], {})
    assert changes[1][1].mu > changes[2][1].mu > changes[3][1].mu


def test_called_partner_is_an_individual_standing():
    """Five Hundred for five: each player's own final score ranks them; partners of one deal are not a team."""
    match = finished("five_hundred", {"players": 5})
    summary = summarize("five_hundred", 5, match.output())
    assert summary.units == [(s,) for s in range(5)]
    best = min(range(5), key=lambda s: summary.ranks[s])
    worst = max(range(5), key=lambda s: summary.ranks[s])
    changes = rate(rated_units(summary, {s: s for s in range(5)}), summary.ranks, {})
    assert changes[best][1].mu > MU > changes[worst][1].mu


def test_display_is_conservative():
    assert Rating().display == 1000
    assert display_number(30.0, 1.0) == 1000 + 40 * 27
    assert Rating(28.0, 6.0).display < Rating(27.0, 2.0).display  # certainty beats a lucky start


def test_contract_facts_are_counted_per_seat():
    match = finished("da_bai_fen", {})
    summary = summarize("da_bai_fen", 4, match.output())
    out = match.output()
    leaders = [d.get("leader") for d in out["deal_results"] if not d.get("thrown_in")]
    assert sum(f.contracts for f in summary.facts) == len(leaders)
    made = [d for d in out["deal_results"] if d.get("made") is True]
    assert sum(f.contracts_made for f in summary.facts) == len(made)


def test_belote_capot_counts_as_a_sweep_for_both_partners():
    output = {
        "scores": [1200, 0],
        "winner": 0,
        "deal_results": [
            {"thrown_in": False, "made": True, "contract": {"seat": 1}, "tricks": [0, 8]},
            {"thrown_in": True, "made": None},
        ],
    }
    s = summarize("belote", 4, output)
    assert [f.sweeps for f in s.facts] == [0, 1, 0, 1]
    assert [f.contracts for f in s.facts] == [0, 1, 0, 0]
    assert s.deals == 2


# --- what is not rated -----------------------------------------------------------------------------------------


def test_a_full_table_of_humans_on_a_server_is_rated():
    e = rating_eligibility(guild_id=1, players=4, seats=humans(4))
    assert e.rated and e.notice() == "This game is rated."


def test_a_computer_player_makes_the_game_unrated():
    seats = humans(4)
    seats[2] = SeatInfo(2, None, "random", "Computer")
    e = rating_eligibility(guild_id=1, players=4, seats=seats)
    assert not e.rated and "computer player" in e.reason and "seat 3" in e.reason
    assert e.notice().startswith("This game is not rated")


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"status": "cancelled"}, "cancelled"),
        ({"status": "abandoned"}, "did not finish"),
        ({"guild_id": None}, "not played on a server"),
        ({"removed_reason": "collusion"}, "collusion"),
    ],
)
def test_unrated_cases_say_why(kw, words):
    args = {"guild_id": 1, "players": 4, "seats": humans(4), **kw}
    e = rating_eligibility(**args)
    assert not e.rated and words in e.reason


def test_one_user_in_two_seats_is_unrated():
    seats = humans(4)
    seats[3] = SeatInfo(3, 100, None, "p0 again")
    assert "more than one seat" in rating_eligibility(guild_id=1, players=4, seats=seats).reason


def test_two_hundred_bloute_counts_for_the_contracting_side():
    deal = {"thrown_in": False, "made": True, "contract": {"seat": 3}, "points": [100, 0], "sides": [[1], [0]]}
    s = summarize("two_hundred", 4, {"scores": [0, 200], "winner": 1, "deal_results": [deal]})
    assert [f.sweeps for f in s.facts] == [0, 1, 0, 1]
    assert [f.contracts_made for f in s.facts] == [0, 0, 0, 1]


@pytest.mark.parametrize(
    "options, shape",
    [({}, [2, 2]), ({"players": 6}, [3, 3]), ({"players": 6, "teams": "pairs"}, [2, 2, 2]),
     ({"players": 3}, [1, 1, 1]), ({"players": 5}, [1, 1, 1, 1, 1])],
)  # fmt: skip
def test_two_hundred_shapes(options, shape):
    match = finished("two_hundred", options)
    summary = summarize("two_hundred", match.players, match.output())
    assert [len(u) for u in summary.units] == shape
    changes = rate(rated_units(summary, {s: s for s in range(match.players)}), summary.ranks, {})
    assert len(changes) == match.players
