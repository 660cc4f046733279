"""What the per-game benchmarks share: deals per CPU second, the replay time of a record, the machine's load.

CPU time (``time.process_time``) is one core's figure even on a machine shared with other work, where wall-clock
rates drop with the load.  The scripts import this module by name: Python puts ``bench/`` on the path of a script run
from it.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import random
import time
from collections.abc import Callable, Iterable

from rules.dealing import DealCards
from rules.game import GAME_OVER, Match
from rules.records import GameRecord, replay


def deals_per_cpu_second(
    new_match: Callable[[], Match],
    run: Callable[[Match, random.Random], object],
    seconds: float,
    max_deals_per_game: int | None = None,
) -> tuple[float, int]:
    """(deals per CPU second, deals played): ``run(match, rng)`` plays one deal, on a new match once the game is over
    (or has had ``max_deals_per_game`` deals, which keeps a long game's growing results out of the figure)."""
    rng = random.Random(1)
    match, deals, start = new_match(), 0, time.process_time()
    while time.process_time() - start < seconds:
        long_game = max_deals_per_game is not None and len(match.deal_results) > max_deals_per_game
        if match.phase == GAME_OVER or long_game:
            match = new_match()
        run(match, rng)
        deals += 1
    return deals / (time.process_time() - start), deals


def replay_line(record: GameRecord, repeat: int = 5) -> str:
    """The CPU time of replaying ``record``, best of ``repeat``, as a line of the report."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        replay(record)
        best = min(best, time.process_time() - start)
    deals, actions = len(record.deals), sum(len(d.actions) for d in record.deals)
    return f"replay of a {deals}-deal record ({actions} actions): {best * 1000:.1f} ms CPU (best of {repeat})"


def load_average() -> str:
    """The machine's load (CPU time per figure is fairer than wall time, but a loaded machine still runs slower)."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs"


def set_constants(assignments: Iterable[str]) -> list[tuple[object, str, object]]:
    """``--set MODULE.NAME=VALUE`` of the diagnosis scripts: each module constant (or ``MODULE.CLASS.NAME``, a class
    attribute such as ``rules.ai.master.MasterPlayer.cautious_games``) set to the Python literal, for this run only
    (a variant measured without changing the code).  Returns what ``restore_constants`` puts back."""
    old = []
    for assignment in assignments:
        target, value = assignment.split("=", 1)
        owner_name, name = target.rsplit(".", 1)
        owner = _resolve(owner_name)
        if not hasattr(owner, name):
            raise SystemExit(f"{owner_name} has no {name}: a misspelt lever would measure the code unchanged")
        old.append((owner, name, getattr(owner, name)))
        setattr(owner, name, ast.literal_eval(value))
    return old


def restore_constants(old: list[tuple[object, str, object]]) -> None:
    for owner, name, value in reversed(old):
        setattr(owner, name, value)


def _resolve(dotted: str) -> object:
    """A module, or an attribute (a class) of the longest importable prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            owner: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            owner = getattr(owner, attr)
        return owner
    raise SystemExit(f"cannot import {dotted}")


def arena_options(ap: argparse.ArgumentParser, *, game: str, seed: int) -> None:
    """The options of the scripts that replay the arena's deals: the game, the two levels, how many deals from which
    seed, the budget a decision, and ``--set`` (``set_constants``)."""
    ap.add_argument("--game", default=game)
    ap.add_argument("--a", default="master")
    ap.add_argument("--b", default="expert")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--budget", type=float, default=0.1)
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE", help="a module constant")


def arena_match(game: str, seed: int) -> tuple[Match, DealCards]:
    """The arena's deal of ``seed`` (``rules/ai/arena.arena_deals``: one deal a match, default options), started."""
    from rules.ai.arena import arena_deals
    from rules.registry import new_match

    first_dealer, (cards,) = arena_deals(game, {}, seed)
    match = new_match(game, {}, first_dealer)
    match.start_deal(cards)
    return match, cards
