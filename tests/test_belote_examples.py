"""The spec's Belote examples (../shared/spec/examples/belote-*.json) replay to their .expected values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.records import replay_text

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "spec" / "examples"
NAMES = sorted(p.stem for p in EXAMPLES.glob("belote-*.json")) if EXAMPLES.is_dir() else []


def canonical(actions: list[dict]) -> list[str]:
    out = []
    for a in actions or []:
        a = dict(a)
        for key in ("cards", "from"):
            if key in a:
                a[key] = sorted(a[key])
        out.append(json.dumps(a, sort_keys=True))
    return sorted(out)


@pytest.mark.skipif(not NAMES, reason="../shared/spec/examples is not here")
@pytest.mark.parametrize("name", NAMES)
def test_example_replays_as_expected(name):
    status, out = replay_text((EXAMPLES / f"{name}.json").read_text())
    assert status == 0, out.get("error")
    expected = json.loads((EXAMPLES / f"{name}.expected").read_text())
    for key, value in expected.items():
        if key == "legal":
            assert canonical(out["legal"]) == canonical(value)
        else:
            assert out[key] == value, key
