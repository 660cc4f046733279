"""The spec's example records (../shared/spec/examples) replay to what their .expected files say.

"Each NAME.json is a game record; NAME.expected lists keys of the output `cardtable replay NAME.json` must print,
with their exact values (`legal` compared as a set, card lists as sets)" — the comparison of
../shared/hooks/compare_replay.py, which outside tools use to check the project."""

import json
from pathlib import Path

import pytest

from rules.records import replay_text

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"
NAMES = sorted(p.stem for p in EXAMPLES.glob("*.json") if p.with_suffix(".expected").exists())


def canonical(actions):
    """``legal`` as a set of actions, card lists as sets (as compare_replay.py does)."""
    out = []
    for a in actions or []:
        a = dict(a)
        for key in ("cards", "from"):
            if key in a:
                a[key] = sorted(a[key])
        out.append(json.dumps(a, sort_keys=True))
    return sorted(out)


def replayed(name: str) -> tuple[int, dict]:
    return replay_text((EXAMPLES / f"{name}.json").read_text())


@pytest.mark.skipif(not NAMES, reason="../shared/spec/examples is not beside this checkout")
@pytest.mark.parametrize("name", NAMES)
def test_example_replays_as_expected(name):
    status, out = replayed(name)
    assert status == 0, out.get("error")
    expected = json.loads((EXAMPLES / f"{name}.expected").read_text())
    for key, value in expected.items():
        if key == "legal":
            assert canonical(out["legal"]) == canonical(value)
        else:
            assert out[key] == value, key


@pytest.mark.skipif("two_hundred-1-play" not in NAMES, reason="../shared/spec/examples is not beside this checkout")
def test_two_hundred_play_example_scores_100_for_200_failing():
    """Deal 1 of the play example: "If a bid of 100 for 200 fails, the contractor's team loses just 100 points"."""
    _, out = replayed("two_hundred-1-play")
    first, second = out["deal_results"]
    assert first["score_change"] == [65, 35] and first["made"] is True
    assert second["contract"]["bid"] == 200 and second["score_change"] == [75, -100]
