"""Write the project's example records (``records/NAME.json``) and what ``cardtable replay`` must print for them
(``records/NAME.expected``).  Run it only when a rule change is meant, and read the diff of the ``.expected`` files
before committing it: they pin what the engines do.

    .venv/bin/python tests/examples/make_examples.py

Every preset of every game gets an example: two deals played out by the heuristic players and a third one stopped
half-way (so the output has a trick or an auction in progress and a list of legal actions).  Each game also gets a
whole game, played to its end.  The cards are written out, so the examples do not depend on the project's
shuffling; the seeds only choose them.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import registry  # noqa: E402
from rules.players import make_player  # noqa: E402
from rules.playing import play_game  # noqa: E402
from rules.records import GameRecord, replay_text  # noqa: E402

HERE = Path(__file__).resolve().parent / "records"
# The keys the record contract requires of every replay output (docs/records.md), and the exit status.
EXPECTED_KEYS = ("game", "deal", "dealer", "phase", "legal", "trump", "contract", "trick", "scores", "deal_results",
                 "winner", "error")  # fmt: skip
# Shorter whole games where the standard one would take dozens of deals.
WHOLE_GAME_OPTIONS = {"da_bai_fen": {"target": "7"}, "two_hundred": {}, "five_hundred": {}, "belote": {}}


def played(game: str, options: dict, seed: int, deals: int | None) -> GameRecord:
    rng = random.Random(seed)
    match = registry.new_match(game, options)
    first_dealer = rng.randrange(match.players)
    match = registry.new_match(game, options, first_dealer)
    record = GameRecord(game, dict(options), first_dealer)
    play_game(match, [make_player("heuristic")] * match.players, rng, record, deals)
    return record


def cut_last_deal(record: GameRecord, rng: random.Random) -> None:
    """Stop the last deal somewhere in its second half, so that it is in progress."""
    actions = record.deals[-1].actions
    record.deals[-1].actions = actions[: rng.randrange(len(actions) // 2, len(actions))]


def write(name: str, record: GameRecord | dict) -> None:
    text = json.dumps(record, indent=1, ensure_ascii=False) if isinstance(record, dict) else record.dumps(indent=1)
    status, out = replay_text(text)
    expected = {"exit": status, **{key: out[key] for key in EXPECTED_KEYS if key in out}}
    (HERE / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    (HERE / f"{name}.expected").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{name}: exit {status}, phase {out.get('phase')}, scores {out.get('scores')}")


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for old in HERE.glob("*.*"):
        old.unlink()
    for game_number, game in enumerate(registry.games()):
        for preset_number, (preset, options) in enumerate(game.presets.items()):
            seed = 100 * game_number + preset_number
            record = played(game.id, dict(options), seed, 3)
            cut_last_deal(record, random.Random(seed))
            write(f"{game.id}-{preset}", record)
        whole = played(game.id, WHOLE_GAME_OPTIONS[game.id], 100 * game_number + 99, None)
        write(f"{game.id}-whole-game", whole)
    write_faulty()


def write_faulty() -> None:
    """An illegal action (exit 1: the state before it, and the error) and a malformed record (exit 2)."""
    record = played("belote", {}, 7, 1).to_json()
    first_play = next(i for i, a in enumerate(record["deals"][0]["actions"]) if a["type"] == "play")
    lead = record["deals"][0]["actions"][first_play]
    record["deals"][0]["actions"][first_play] = {**lead, "seat": (lead["seat"] + 1) % 4}  # out of turn
    write("belote-illegal-play-out-of-turn", record)
    record = played("two_hundred", {}, 8, 1).to_json()
    hand = record["deals"][0]["hands"][0]
    hand[0] = hand[1]  # one card twice, another missing: not the pack the game calls for
    write("two_hundred-malformed-wrong-pack", record)


if __name__ == "__main__":
    main()
