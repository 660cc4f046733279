"""The spec's Five Hundred example records replay to their expected values (../shared/spec/examples)."""

import json
from pathlib import Path

import pytest

from bot.records import replay_text

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "spec" / "examples"
NAMES = ["five_hundred-1-play", "five_hundred-2-bidding"]


def canonical(actions):
    """`legal` is compared as a set of actions, card lists as sets (as ../shared/hooks/compare_replay.py does)."""
    out = []
    for a in actions or []:
        a = dict(a)
        for key in ("cards", "from"):
            if key in a:
                a[key] = sorted(a[key])
        out.append(json.dumps(a, sort_keys=True))
    return sorted(out)


@pytest.mark.parametrize("name", NAMES)
def test_example_replays_to_expected(name):
    if not (EXAMPLES / f"{name}.json").exists():
        pytest.skip("../shared/spec/examples is not present")
    status, out = replay_text((EXAMPLES / f"{name}.json").read_text())
    want = json.loads((EXAMPLES / f"{name}.expected").read_text())
    assert status == 0, out.get("error")
    for key, value in want.items():
        if key == "legal":
            assert canonical(out["legal"]) == canonical(value)
        else:
            assert out[key] == value, key
