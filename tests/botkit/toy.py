"""Register the toy game (tests only) so that bot tests run before and independently of the real engines."""

from __future__ import annotations

import rules.registry

rules.registry.GAMES.setdefault("toy", ("tests.botkit.toygame", "ToyGame"))
