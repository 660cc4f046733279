"""Register the toy game (tests only) so that bot tests run before and independently of the real engines."""

from __future__ import annotations

from rules.registry import register
from tests.botkit.toygame import GAME_TYPE

register(GAME_TYPE)
