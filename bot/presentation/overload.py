"""When to acknowledge an interaction before its answer is ready.

Discord drops an interaction that gets no answer within 3 seconds of its creation.  The answer (a hand, say) may
need an image; when it is ready early the bot answers in one call, else it acknowledges first ("thinking…" or a
deferred update) and edits the answer in.  The time allowed counts from when Discord created the interaction (its
id says when), not from when the bot read it: a slow gateway or a busy event loop has already used part of it.
When the render pool is backed up with pictures that answer players (the answer's own goes before table pictures,
which do not delay it) the answer will be late anyway, so the bot acknowledges at once; otherwise one call answers.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.presentation import images

DISCORD_DEADLINE = 3.0  # seconds from the interaction's creation to the first answer
MARGIN = 1.0  # what the acknowledgement itself may take to reach Discord from a busy bot
PATIENCE = 2.0  # the longest the bot waits for an answer before acknowledging, however early it is
BACKED_UP = 0.25  # seconds a new answer's picture would wait for a worker: beyond this, acknowledge at once


def defer_after(created_at: datetime, now: datetime | None = None) -> float:
    """Seconds to wait for the answer to an interaction created at ``created_at`` before acknowledging it."""
    if images.enabled and images.pool.backlog_seconds(urgent=True) > BACKED_UP:
        return 0.0
    age = ((now or datetime.now(UTC)) - created_at).total_seconds()
    age = min(max(age, 0.0), DISCORD_DEADLINE)  # a skewed clock must not make every answer wait, nor none
    return max(0.0, min(PATIENCE, DISCORD_DEADLINE - MARGIN - age))
