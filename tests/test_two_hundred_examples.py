"""The spec's example records for Two Hundred replay to their expected values (../shared/spec/examples)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.records import replay_text

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "spec" / "examples"
COMPARE = EXAMPLES.parent.parent / "hooks" / "compare_replay.py"
NAMES = ["two_hundred-1-play", "two_hundred-2-bidding"]


@pytest.mark.parametrize("name", NAMES)
def test_example_replays_to_its_expected_output(name):
    if not (EXAMPLES / f"{name}.json").exists():
        pytest.skip("../shared/spec/examples is not present")
    status, out = replay_text((EXAMPLES / f"{name}.json").read_text())
    assert status == 0
    expected = json.loads((EXAMPLES / f"{name}.expected").read_text())
    if COMPARE.exists():
        done = subprocess.run([sys.executable, str(COMPARE), str(EXAMPLES / f"{name}.expected")],
                              input=json.dumps(out), capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    for key in ("deal", "dealer", "phase", "scores", "trump", "winner", "trick"):
        assert out[key] == expected[key], key
    as_set = lambda actions: sorted(json.dumps(a, sort_keys=True) for a in actions)  # noqa: E731
    assert as_set(out["legal"]) == as_set(expected["legal"])


def test_play_example_scores_100_for_200_failing():
    """Deal 1 of the play example: "If a bid of 100 for 200 fails, the contractor's team loses just 100 points"."""
    if not (EXAMPLES / "two_hundred-1-play.json").exists():
        pytest.skip("../shared/spec/examples is not present")
    _, out = replay_text((EXAMPLES / "two_hundred-1-play.json").read_text())
    first, second = out["deal_results"]
    assert first["score_change"] == [65, 35] and first["made"] is True
    assert second["contract"]["bid"] == 200 and second["score_change"] == [75, -100]
