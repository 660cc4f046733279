"""Console logging for the bot: one readable line per event, discord.py's own chatter kept at WARNING."""

from __future__ import annotations

import logging
import sys


class _WithoutVoiceNotices(logging.Filter):
    """The bot has no voice features, so discord.py's "PyNaCl is not installed" notices are noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def setup_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_WithoutVoiceNotices())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py logs every gateway event at DEBUG/INFO; ours are the interesting lines.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
