"""Computer players: information hiding by a seat's view, a sampler of hidden hands, and three levels.

Levels: ``random``, ``heuristic`` (per-game rules of thumb) and ``expert`` (determinized search over sampled worlds).
The bot calls ``choose_action(level, match, seat, rng, budget_s, history)``; ``explain`` gives a /hint line.
See docs/ai.md.
"""
