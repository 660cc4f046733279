"""docs/records.md describes the record format and the replay contract completely, and only what the code does.

Every record field, action type and action key the reader knows, every phase, every option of every game (with its
default) and the `cardtable replay` switches appear in the page, and everything the page lists is known to the code.
Games played by computer players in every preset and with every option value give the action types and keys each
game offers and the output keys it prints: each must be described in that game's section."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from bot.process.cli import build_parser
from rules import registry
from rules.actions import _KNOWN_KEYS, ACTION_TYPES
from rules.errors import RecordError
from rules.game import GAME_OVER, PHASES
from rules.game_type import GameType
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import _DEAL_KEYS, _TOP_KEYS, FORMAT

# The games this repository ships (a test may register its toy game beside them).
BUILT_IN_GAMES = [game for game in registry.games() if game.engine.startswith(registry.BUILT_IN)]

DOC = (Path(__file__).resolve().parents[1] / "docs" / "records.md").read_text(encoding="utf-8")


def sections(text: str, level: str) -> dict[str, str]:
    """Heading (of ``level``, e.g. ``##``) -> its text up to the next heading of that level or above."""
    parts = re.split(rf"^({level}|{level[:-1]}) (.+)$", text, flags=re.M)
    return {parts[i + 1].strip(): parts[i + 2] for i in range(1, len(parts) - 2, 3)}


def tables(text: str) -> list[list[list[str]]]:
    """Every markdown table in ``text``: its body rows, each a list of cells."""
    found, rows = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if rows is None:
                rows = []
            elif not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows is not None:
            found.append(rows)
            rows = None
    if rows is not None:
        found.append(rows)
    return found


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def first_column(table: list[list[str]]) -> list[str]:
    return [name for row in table for name in ticked(row[0])]


def table_after(text: str, marker: str) -> list[list[str]]:
    return tables(text[text.index(marker) :])[0]


TOP = sections(DOC, "##")
GAMES = {
    game.id: next(body for title, body in sections(TOP["The games"], "###").items() if f"(`{game.id}`)" in title)
    for game in BUILT_IN_GAMES
}


def test_the_record_fields_are_those_the_reader_knows():
    fields, deal_fields = tables(TOP["The record's fields"])
    assert first_column(fields) == sorted(_TOP_KEYS, key=first_column(fields).index)
    assert set(first_column(fields)) == _TOP_KEYS
    assert set(first_column(deal_fields)) == _DEAL_KEYS
    assert f'"{FORMAT}"' in TOP["The record's fields"]


def test_every_action_type_and_key_is_described():
    keys, types = tables(TOP["Actions"])
    assert set(first_column(keys)) == _KNOWN_KEYS
    assert first_column(types) == list(ACTION_TYPES)
    for row in types:
        assert set(ticked(row[1])) <= _KNOWN_KEYS - {"seat", "type"}, row[0]


def test_each_action_type_lists_the_games_whose_sections_describe_it():
    _, types = tables(TOP["Actions"])
    for row in types:
        kind = ticked(row[0])[0]
        described = {game.name() for game in BUILT_IN_GAMES if kind in first_column(game_table(game, "Actions"))}
        listed = {game.name() for game in BUILT_IN_GAMES if game.name() in row[3] or "every game" in row[3]}
        assert listed == described, kind


def game_table(game: GameType, title: str) -> list[list[str]]:
    return table_after(GAMES[game.id], f"**{title}")


@pytest.mark.parametrize("game", BUILT_IN_GAMES, ids=lambda g: g.id)
def test_each_games_options_and_defaults_are_those_of_its_engine(game: GameType):
    rows = game_table(game, "Options")
    documented = {ticked(row[0])[0]: json.loads(ticked(row[1])[0]) for row in rows}
    assert documented == {option.name: option.default for option in game.options()}


def test_the_phases_and_the_common_output_keys_are_those_of_the_engines():
    output = sections(TOP["`cardtable replay`"], "###")["The output"]
    common, phases = tables(output)[:2]
    assert first_column(phases) == list(PHASES)
    match = registry.new_match("belote")
    match.state_json = dict  # type: ignore[method-assign]  # what every engine prints before adding its own keys
    assert set(first_column(common)) == set(match.output())


def test_the_exit_statuses_and_every_replay_switch_are_described():
    replay = TOP["`cardtable replay`"]
    assert [int(status) for status in first_column(tables(replay)[0])] == [0, 1, 2]
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["replay"]  # type: ignore[attr-defined]
    switches = [s for action in sub._actions for s in action.option_strings if s not in ("-h", "--help")]
    assert switches and all(f"cardtable replay {s}" in replay for s in switches)
    assert "cardtable replay -" in replay and "JSON Lines" in replay and "`exit`" in replay


# --- what the games do, by playing them --------------------------------------------------------------------------


def forms(game: GameType) -> list[tuple[dict, int]]:
    """Every preset, and every other value of every option (with what it needs, e.g. a player count or a first
    dealer in the team a board names), each with the first dealer it is played from."""
    wanted = [dict(preset) for preset in game.presets.values()]
    for option in game.options():
        values = option.choices or ([True] if isinstance(option.default, bool) else [])
        wanted += [{option.name: value} for value in values if value != option.default]
    companions = [{}, *[dict(p) for p in game.presets.values()], *({"players": n} for n in game.seat_counts)]
    playable = []
    for options in wanted:
        for extra, first_dealer in ((extra, dealer) for dealer in (0, 1) for extra in companions):
            try:
                registry.new_match(game.id, {**extra, **options}, first_dealer)
            except RecordError:
                continue
            playable.append(({**extra, **options}, first_dealer))
            break
        else:
            pytest.fail(f"{game.id}: no table takes {options}")
    return playable


@cache
def harvest(game_id: str) -> dict[str, dict[str, set[str]] | set[str]]:
    """What random play of every form of the game shows: action types (with their keys) among the legal actions,
    and the keys of the output, of the deal results and of the contract."""
    seen: dict = {"types": defaultdict(set), "output": set(), "results": set(), "contract": set()}
    player = RandomPlayer()

    def note(out: dict) -> None:
        seen["output"].update(out)
        for holder in [out, *out["deal_results"]]:
            if isinstance(holder.get("contract"), dict):
                seen["contract"].update(holder["contract"])
        for result in out["deal_results"]:
            seen["results"].update(result)

    class Watching:
        def choose(self, match, rng, history):
            for action in match.legal_json():
                seen["types"][action["type"]].update(action)
            note(match.output())
            return player.choose(match, rng)

    rng = random.Random(22)
    for options, first_dealer in forms(registry.game_type(game_id)):
        match = registry.new_match(game_id, options, first_dealer)
        for _ in range(3):
            if match.phase == GAME_OVER:
                break
            play_deal(match, [Watching()] * match.players, rng)
            note(match.output())
    return seen


@pytest.mark.parametrize("game", BUILT_IN_GAMES, ids=lambda g: g.id)
def test_each_games_section_describes_every_action_it_offers(game: GameType):
    described = {ticked(row[0])[0]: row[1] for row in game_table(game, "Actions")}
    offered = harvest(game.id)["types"]
    assert set(offered) <= set(described), "action types offered but not described"
    assert set(described) <= set(ACTION_TYPES)
    for kind, keys in offered.items():
        for key in keys - {"seat", "type", "choose", "from"}:  # a discard's listing is described once for all
            assert f"`{key}`" in described[kind] or key == "cards", (kind, key)


@pytest.mark.parametrize("game", BUILT_IN_GAMES, ids=lambda g: g.id)
def test_each_games_section_describes_every_key_it_prints(game: GameType):
    section = GAMES[game.id]
    named = set(ticked(section))
    output = sections(TOP["`cardtable replay`"], "###")["The output"]
    common = set(first_column(tables(output)[0]))
    seen = harvest(game.id)
    assert seen["output"] - common <= set(first_column(game_table(game, "Output keys")))
    assert seen["results"] <= named, "deal result keys not described"
    assert seen["contract"] <= named, "contract keys not described"
