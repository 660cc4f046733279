"""The ``cardtable`` command as a user runs it: replay (file, stdin, --batch) and simulate."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("rules.two_hundred")


def cardtable(*args, stdin=None, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd
    )


def test_simulate_writes_a_record_that_replay_accepts(tmp_path):
    out = tmp_path / "game.json"
    done = cardtable("simulate", "--game", "two_hundred", "--deals", "2", "--seed", "7", "--record", str(out))
    assert done.returncode == 0, done.stderr
    assert "games: 1" in done.stdout and "deals: 2" in done.stdout and "deals/second" in done.stdout
    assert f"record of the game written to {out}" in done.stdout
    replayed = cardtable("replay", str(out))
    assert replayed.returncode == 0
    state = json.loads(replayed.stdout)
    assert state["game"] == "two_hundred" and state["error"] is None
    assert len(state["deal_results"]) == 2


def test_simulate_plays_the_heuristic_players_by_default():
    """Random players make almost no contract ("contracts made: 0 of 20" looked broken to a newcomer)."""
    done = cardtable("simulate", "--game", "belote", "--deals", "20", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "players: heuristic, heuristic, heuristic, heuristic" in done.stdout
    made = next(line for line in done.stdout.splitlines() if line.startswith("contracts made"))
    assert int(made.split()[2]) >= 10, made
    assert (
        "players: random, random, random, random"
        in cardtable("simulate", "--game", "belote", "--deals", "2", "--players-ai", "random").stdout
    )


def test_simulate_records_every_game_as_json_lines(tmp_path):
    out = tmp_path / "games.json"
    done = cardtable("simulate", "--game", "belote", "--deals", "20", "--seed", "3", "--record", str(out))
    assert done.returncode == 0, done.stderr
    games = int(done.stdout.split("games: ")[1].split()[0])
    assert games > 1
    assert f"records of all {games} games written to {out} as JSON Lines" in done.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == games
    replayed = cardtable("replay", "--batch", stdin=out.read_text())
    results = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert [r["exit"] for r in results] == [0] * games
    assert sum(len(r["deal_results"]) for r in results) == 20
    as_json = cardtable("simulate", "--game", "belote", "--deals", "20", "--seed", "3", "--json", "--record", str(out))
    assert json.loads(as_json.stdout)["games"] == games and "JSON Lines" in as_json.stderr


def test_simulate_writes_the_records_to_standard_output_with_a_dash(tmp_path):
    """``--record -``: the records alone on standard output (no file named "-"), ready for replay; the summary on
    standard error."""
    one = cardtable("simulate", "--game", "two_hundred", "--deals", "2", "--seed", "7", "--record", "-", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert not (tmp_path / "-").exists()
    assert "games: 1" in one.stderr and "written to" not in one.stderr + one.stdout
    replayed = cardtable("replay", "-", stdin=one.stdout)
    assert replayed.returncode == 0 and len(json.loads(replayed.stdout)["deal_results"]) == 2
    several = cardtable("simulate", "--game", "belote", "--deals", "20", "--seed", "3", "--json", "--record", "-")
    games = json.loads(several.stderr)["games"]
    assert games > 1 and len(several.stdout.splitlines()) == games
    batch = cardtable("replay", "--batch", stdin=several.stdout)
    assert [json.loads(line)["exit"] for line in batch.stdout.splitlines()] == [0] * games


def test_simulate_json_summary_and_bad_options():
    done = cardtable("simulate", "--game", "two_hundred", "--deals", "3", "--json")
    summary = json.loads(done.stdout)
    assert summary["deals"] == 3 and summary["contracts"] >= summary["contracts_made"]
    bad = cardtable("simulate", "--game", "two_hundred", "--option", "colour=red")
    assert bad.returncode == 2 and "unknown option" in bad.stderr


def test_replay_reads_stdin_with_dash():
    rec = {"format": "cardtable-record/1", "game": "two_hundred", "seed": 1, "deals": [{"actions": []}]}
    done = cardtable("replay", "-", stdin=json.dumps(rec))
    assert done.returncode == 0 and json.loads(done.stdout)["phase"] == "bidding"


def test_replay_of_a_missing_file_exits_2():
    done = cardtable("replay", "/nonexistent/record.json")
    assert done.returncode == 2 and "cannot read" in json.loads(done.stdout)["error"]["message"]


def test_batch_prints_one_line_per_record_with_its_exit_status():
    good = {"format": "cardtable-record/1", "game": "two_hundred", "seed": 1, "deals": [{"actions": []}]}
    illegal = dict(good, deals=[{"actions": [{"seat": 3, "type": "bid", "value": 55}]}])
    lines = "\n".join([json.dumps(good), "{broken", json.dumps(illegal)]) + "\n"
    done = cardtable("replay", "--batch", stdin=lines)
    assert done.returncode == 0
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["exit"] for o in outs] == [0, 2, 1]
