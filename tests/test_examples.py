"""Example records replay to what their ``.expected`` files say, file by file and through ``cardtable replay --batch``.

The project's own examples (``tests/examples/records``: every preset of every game, a whole game of each, an
illegal action and a malformed record) are always checked.  Where the record contract's public examples lie beside
the checkout (``../shared/spec/examples``, as on the project's development machines) they are checked too, the same
way; a clone without them checks its own and skips nothing.

An ``.expected`` file lists keys of the replay output with their exact values: ``legal`` is compared as a set of
actions, card lists inside it as sets; ``exit``, when given, is the exit status (the key ``--batch`` adds).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import registry
from rules.records import replay_text

# The games this repository ships (a test may register its toy game beside them).
BUILT_IN_GAMES = [game for game in registry.games() if game.engine.startswith(registry.BUILT_IN)]

OWN = Path(__file__).resolve().parent / "examples" / "records"
PUBLIC = Path(__file__).resolve().parents[1].parent / "shared" / "spec" / "examples"


def examples(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if p.with_suffix(".expected").exists())


EXAMPLES = examples(OWN) + examples(PUBLIC)


def canonical(actions: list[dict] | None) -> list[str]:
    """``legal`` as a set of actions, card lists as sets."""
    out = []
    for a in actions or []:
        a = dict(a)
        for key in ("cards", "from"):
            if key in a:
                a[key] = sorted(a[key])
        out.append(json.dumps(a, sort_keys=True))
    return sorted(out)


def differences(got: dict, want: dict, status: int | None = None) -> list[str]:
    found = []
    for key, value in want.items():
        if key == "exit" and status is not None:
            if status != value:
                found.append(f"exit {status}, expected {value}")
        elif key == "legal":
            if canonical(got.get("legal")) != canonical(value):
                found.append("legal differs")
        elif got.get(key) != value:
            found.append(f"{key}: expected {value!r}, got {got.get(key)!r}")
    return found


def test_the_project_has_its_own_examples_of_every_game_and_preset():
    names = {p.stem for p in examples(OWN)}
    for game in BUILT_IN_GAMES:
        assert f"{game.id}-whole-game" in names
        for preset in game.presets:
            assert f"{game.id}-{preset}" in names
    statuses = {json.loads(p.with_suffix(".expected").read_text()).get("exit") for p in examples(OWN)}
    assert statuses == {0, 1, 2}


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_example_replays_as_expected(path: Path):
    status, out = replay_text(path.read_text())
    want = json.loads(path.with_suffix(".expected").read_text())
    if "exit" not in want:
        assert status == 0, out.get("error")
    assert differences(out, want, status) == []


def test_every_example_replays_as_expected_in_one_batch():
    """``cardtable replay --batch``: one line per record, in order, each with its own exit status."""
    lines = "".join(json.dumps(json.loads(p.read_text())) + "\n" for p in EXAMPLES)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", "--batch"], input=lines, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    outputs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outputs) == len(EXAMPLES)
    for path, got in zip(EXAMPLES, outputs, strict=True):
        want = json.loads(path.with_suffix(".expected").read_text())
        want.setdefault("exit", 0)
        assert differences(got, want, got["exit"]) == [], path.name
