"""The game registry: every game declared once beside its engine, and nothing outside rules/ naming a game."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules import registry
from rules.errors import RecordError
from rules.game import BETWEEN_DEALS, GAME_OVER, PHASES
from rules.game_type import LANGUAGES, GameType
from rules.players import RandomPlayer
from tests.botkit import toygame

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = [g for g in registry.games() if g.id != toygame.GAME_TYPE.id]


def test_the_four_games_in_order():
    assert [g.id for g in BUILT_IN] == ["two_hundred", "five_hundred", "belote", "da_bai_fen"]
    assert [g.short_name for g in BUILT_IN] == ["200", "500", "belote", "dabaifen"]


@pytest.mark.parametrize("game", BUILT_IN, ids=lambda g: g.id)
def test_a_declaration_agrees_with_its_engine(game: GameType):
    engine = registry.match_class(game.id)
    assert engine.game_id == game.id
    players = next(o for o in engine.OPTIONS if o.name == "players")
    assert tuple(players.choices) == game.seat_counts
    assert all(game.name(lang) for lang in LANGUAGES)
    for n in game.seat_counts:
        match = registry.new_match(game.id, {"players": n} if len(game.seat_counts) > 1 else None)
        teams = game.teams(n, {})
        assert len(match.scores()) == len(teams), f"{game.id} at {n}: the record has one score per team"
        assert sorted(s for team in teams for s in team) == list(range(n))
    for options in game.presets.values():
        registry.new_match(game.id, dict(options))  # every preset is a valid rule set (RecordError if not)


def _action_types_in_play(game: GameType, deals: int = 6) -> set[str]:
    """Every kind of action offered to anybody over a few deals of random play, at each of the game's table sizes."""
    seen: set[str] = set()
    player = RandomPlayer()
    for players in game.seat_counts:
        match = registry.new_match(game.id, {"players": players} if len(game.seat_counts) > 1 else None)
        rng = random.Random(players)
        for _ in range(deals):
            if match.phase == GAME_OVER:
                break
            match.start_deal(match.random_deal(rng))
            while match.phase not in (BETWEEN_DEALS, GAME_OVER):
                seen |= {a.to_json()["type"] for a in match.legal_actions()}
                match.apply(player.choose(match, rng, []))
    return seen


@pytest.mark.parametrize("game", BUILT_IN, ids=lambda g: g.id)
def test_what_a_declaration_says_of_play_the_engine_does(game: GameType):
    """Where the declaration and the engine both know a fact, they agree: the bot trusts the declaration."""
    engine = registry.match_class(game.id)
    types = _action_types_in_play(game)
    assert game.has_counter == ("counter" in types), "a game with a counter offers one; one without never does"
    if game.bid_names_trump:
        assert "bid" in types and "trump" not in types, "where the bid names trump there is no separate trump call"
    assert set(game.phase_words) <= set(PHASES) - {BETWEEN_DEALS, GAME_OVER}, "words for a phase somebody moves in"
    if game.auction_on_table:
        assert "bid" in types and "auction" in engine.PUBLIC_KEYS, "the auction shown is public"
    for announced in game.announcements:  # the table names who announced it from the public key of that name
        assert announced in engine.PUBLIC_KEYS
    if game.scores_are_levels:
        assert all(2 <= level <= 14 for level in registry.new_match(game.id).scores()), "levels run from 2 to A"
    assert game.dealer_word and game.dealer_word == game.dealer_word.lower()


def test_computer_strategy_is_declared_for_the_games_the_computer_players_know():
    from rules.ai.games import ADAPTERS

    assert {g.id for g in BUILT_IN if g.computer_strategy} == set(ADAPTERS)


def test_games_are_found_by_what_players_type():
    assert registry.find("200").id == "two_hundred" and registry.find(" DaBaiFen ").id == "da_bai_fen"
    assert registry.find("coinche").id == "belote" and registry.find("five_hundred").id == "five_hundred"
    assert registry.find("poker") is None and registry.lookup("poker") is None and registry.lookup(3) is None
    with pytest.raises(RecordError, match="unknown game 'poker'"):
        registry.match_class("poker")


def test_registering_checks_for_clashes():
    registry.register(toygame.GAME_TYPE)  # the same declaration again is harmless
    other = GameType(id="toy", names=dict.fromkeys(LANGUAGES, "x"), aliases=("x",), engine="m:C", seat_counts=(2,))
    with pytest.raises(ValueError, match="already registered"):
        registry.register(other)
    alias = GameType(id="x", names=dict.fromkeys(LANGUAGES, "x"), aliases=("200",), engine="m:C", seat_counts=(2,))
    with pytest.raises(ValueError, match="'200' already names"):
        registry.register(alias)
    with pytest.raises(ValueError, match="no name in fr, zh"):
        GameType(id="x", names={"en": "X"}, aliases=("x",), engine="m:C", seat_counts=(2,))


def test_reading_the_declarations_does_not_load_an_engine():
    code = "import sys, rules.registry; print(sorted(m for m in sys.modules if m.endswith('.match')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_toy_game_is_one_module_and_its_registry_entry():
    """Adding a game needs nothing outside its folder: the toy game's module imports only rules/ and the standard
    library, and no production code knows it."""
    tree = ast.parse(Path(toygame.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert all(m == "__future__" or m.split(".")[0] in ("rules", *sys.stdlib_module_names) for m in imported)
    assert registry.lookup("toy") is toygame.GAME_TYPE
    mentions = [str(p.relative_to(ROOT)) for p in _production_files() if re.search(r"\btoy\b", p.read_text(), re.I)]
    assert mentions == []


def _production_files(*areas: str) -> list[Path]:
    return sorted(p for area in areas or ("bot", "cogs", "render", "rules") for p in (ROOT / area).rglob("*.py"))


def test_nothing_outside_rules_names_a_game():
    names = {g.id for g in BUILT_IN} | {g.engine.partition(":")[2] for g in BUILT_IN}
    pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
    naming = {
        str(p.relative_to(ROOT))
        for p in _production_files("bot", "cogs", "render")
        if "tools" not in p.parts and pattern.search(p.read_text())
    }
    assert naming == set(), "these files name a game: read its registry entry (rules/registry.py) instead"
