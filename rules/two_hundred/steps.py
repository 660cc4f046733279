"""The steps of a deal, and the record phase each one shows.

After the auction the contractor may have an announcement (Le Rough), the kitty exchange (with rule 6 of the discard,
trump is named first), the partner call (five players) and the naming of trump; then the tricks are played.
"""

from __future__ import annotations

from rules.game import EXCHANGE, TRUMP

AUCTION, ANNOUNCE, NAME_FIRST, DISCARD, CALL, TRUMP_OR_LEAD, TRICKS, OVER = (
    "bid", "announce", "name_first", "discard", "call", "trump", "play", "over",
)  # fmt: skip
STEP_PHASE = {ANNOUNCE: EXCHANGE, NAME_FIRST: TRUMP, DISCARD: EXCHANGE, CALL: TRUMP, TRUMP_OR_LEAD: TRUMP}
