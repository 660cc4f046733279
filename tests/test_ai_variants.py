"""Computer players in every variant: whole games at every level, for every option set and table size the engines
offer, with no fallback (``fallback.strict()``: a player that raises or finds no sampled world fails the test)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import registry
from rules.actions import Action
from rules.ai import fallback
from rules.ai.players import make_ai_player
from rules.ai.view import build_view
from rules.errors import RecordError
from rules.game import BETWEEN_DEALS, GAME_OVER, Match
from rules.game_type import GameType

GAMES = [g for g in registry.games() if g.computer_strategy]
MAX_DEALS = 40  # a whole game, or this many deals of one


def option_sets(game: GameType) -> list[dict[str, Any]]:
    """Every table size; every preset; every other choice of every option with a short list of values (each on
    its own, at every table size it allows when it is the seating), keeping the sets the engine accepts."""
    sizes = game.seat_counts
    candidates: list[dict[str, Any]] = [{"players": n} if len(sizes) > 1 else {} for n in sizes]
    candidates += [dict(preset) for preset in game.presets.values()]
    for option in game.options():
        if option.name == "players":
            continue
        values = [True] if option.default is False else [v for v in option.choices or () if v != option.default]
        for value in values:
            if value is None:
                continue
            candidates += [{option.name: value, "players": n} for n in sizes] if len(sizes) > 1 else []
            candidates += [{option.name: value}] if len(sizes) == 1 else []
    accepted: list[dict[str, Any]] = []
    for options in candidates:
        try:
            registry.new_match(game.id, options)
        except RecordError:
            continue  # e.g. a seating for another table size
        if options not in accepted:
            accepted.append(options)
    return accepted


CASES = [pytest.param(g.id, o, id=f"{g.id}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}")
         for g in GAMES for o in option_sets(g)]  # fmt: skip


def play(match: Match, seats: list[Any], rng: random.Random, deals: int) -> int:
    """Play up to ``deals`` deals (or to the game's end) with ``seats[s]`` choosing for seat ``s``; deals played."""
    played = 0
    while played < deals and match.phase != GAME_OVER:
        match.start_deal(match.random_deal(rng))
        history: list[Action] = []
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            seat = match.to_move
            assert seat is not None
            action = seats[seat].choose_view(build_view(match, seat, history), rng)
            match.apply(action)
            history.append(action)
        played += 1
    return played


@pytest.mark.parametrize(("game", "options"), CASES)
def test_heuristic_and_random_play_whole_games(game: str, options: dict):
    for level in ("heuristic", "random"):
        match = registry.new_match(game, options)
        rng = random.Random(f"{game}:{options}:{level}")
        with fallback.strict():
            play(match, [make_ai_player(level)] * match.players, rng, MAX_DEALS)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_the_expert_plays_every_variant(game: str, options: dict):
    """Two deals with a small fixed budget; one seat is a random player, whose odd moves (a failed multi-card lead,
    a wild bid) the expert must read too."""
    match = registry.new_match(game, options)
    rng = random.Random(f"{game}:{options}:expert")
    expert = make_ai_player("expert", worlds=2)
    seats = [expert] * match.players
    seats[1 % match.players] = make_ai_player("random")
    with fallback.strict():
        assert play(match, seats, rng, 2) >= 1


def test_the_option_sets_cover_the_reported_failures():
    two_hundred = option_sets(registry.game_type("two_hundred"))
    assert {"players": 6} in two_hundred and {"players": 2} in two_hundred and {"le_rough": True} in two_hundred
    assert {"failed_throw": "lowest_card"} in option_sets(registry.game_type("da_bai_fen"))


def test_a_fallback_is_counted_and_raises_under_strict(monkeypatch, caplog):
    import rules.ai.heuristic as heuristic

    match = registry.new_match("belote", {})
    match.start_deal(match.random_deal(random.Random(1)))
    view = build_view(match, match.to_move, [])

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(heuristic, "heuristic_action", broken)
    before = fallback.counts[("heuristic", "error")]
    action = heuristic.HeuristicPlayer().choose_view(view, random.Random(1))
    assert action in view.legal
    assert fallback.counts[("heuristic", "error")] == before + 1
    assert "the heuristic player fell back (error)" in caplog.text
    with fallback.strict(), pytest.raises(fallback.FallbackError, match="broken on purpose|fell back"):
        heuristic.HeuristicPlayer().choose_view(view, random.Random(1))


@pytest.mark.parametrize(("game", "options"), CASES[::3])
def test_the_master_plays_the_variants(game: str, options: dict):
    """A third of the option sets (the master's own code is the solver and the play judge; the rest is the
    expert's, tested above on every set): one deal, two worlds a decision, its last three cards solved double-dummy
    (where the solver can take the position: not Two Hundred's silent partners, nor a Da Bai Fen throw in progress);
    one seat random."""
    from rules.ai.master import MasterPlayer

    match = registry.new_match(game, options)
    rng = random.Random(f"{game}:{options}:master")
    master = MasterPlayer(None, max_worlds=2, solve_from=3)
    seats: list[Any] = [master] * match.players
    seats[1 % match.players] = make_ai_player("random")
    with fallback.strict():
        assert play(match, seats, rng, 1) == 1


@pytest.mark.parametrize(
    ("game", "options"), [c for c in CASES if c.values[0] in ("five_hundred", "da_bai_fen", "belote")]
)
def test_the_master_plays_every_variant_with_aware_rollouts(game: str, options: dict):
    """At Five Hundred, Da Bai Fen and Belote the master's rollouts read the voids shown (``AWARE_ROLLOUTS``: their
    own rollout code, and at Da Bai Fen and Belote its sharp policy, so every option set and table size, not a third):
    one deal, two worlds a decision, before any solve; one seat random."""
    from rules.ai.master import AWARE_ROLLOUTS, MasterPlayer

    assert game in AWARE_ROLLOUTS
    match = registry.new_match(game, options)
    rng = random.Random(f"{game}:{options}:aware")
    seats: list[Any] = [MasterPlayer(None, max_worlds=2, solve_from=0)] * match.players
    seats[1 % match.players] = make_ai_player("random")
    with fallback.strict():
        assert play(match, seats, rng, 1) == 1
