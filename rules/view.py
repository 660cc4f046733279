"""What a table shows, declared by the engine: an allow-list of the replay output's keys.

``Match.output()`` is the replay contract and holds everything, every hand included.  The public view keeps only
the keys every game shares (below) and those its engine lists in ``PUBLIC_KEYS``; a key an engine adds later stays
private until it is declared.  A seat's view adds that seat's hand, its legal actions and what it alone knows.
"""

from __future__ import annotations

# The output keys every game shares that a spectator may see (``legal`` is not among them: it shows a hand).
SHARED_PUBLIC_KEYS = frozenset(
    {"game", "deal", "dealer", "phase", "trump", "contract", "trick", "scores", "deal_results", "winner", "error",
     "options"}
)  # fmt: skip


def public_of(state: dict, declared: frozenset[str]) -> dict:
    """The keys of ``state`` that are shared by all games or declared public by this one."""
    return {k: v for k, v in state.items() if k in SHARED_PUBLIC_KEYS or k in declared}
