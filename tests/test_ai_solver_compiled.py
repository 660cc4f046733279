"""The solver compiled by mypyc (setup.py) is the same search as its .py: on endings of every game and variant, the
plain-Python solver loaded from ``rules/ai/solver.py`` gives the same values, best moves and node counts as the
module Python imports (the extension, when one is built).  tests/test_ai_solver.py checks the imported one against
brute force; this keeps the fallback (a machine without a compiler, or solver.py edited since the build) as exact."""

from __future__ import annotations

import random
import sys

import pytest

from rules.ai import compiled, dd_worlds, solver
from tests.test_ai_solver import CASES, _ending

pytestmark = pytest.mark.skipif(not compiled.is_compiled(solver), reason="the solver is not compiled here")


def _pure_solver():
    """rules/ai/solver.py run as Python, under a name of its own (the imported ``rules.ai.solver`` stays)."""
    name = "rules.ai._solver_as_python"
    return sys.modules.get(name) or compiled.source_module("solver", name)


def test_the_compiled_solver_is_the_one_imported_and_beside_its_source():
    assert compiled.compiled_path("solver") == solver.__file__
    assert not _pure_solver().__file__.endswith(".so")


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_the_compiled_solver_searches_as_the_python_one(game: str, options: dict):
    pure = _pure_solver()
    rng = random.Random(f"compiled:{game}:{options}")
    checked = 0
    for seed in range(40):
        if checked == 4:
            break
        m = _ending(game, options, seed, rng.choice((3, 4) if options.get("players") == 6 else (4, 5)))
        if m is None:
            continue
        pos = dd_worlds.position(m, m.to_move)
        if pos is None:
            continue
        native = solver.Solver(pos.copy())
        python = pure.Solver(pos.copy())  # the compiled Position: the .py's solver only reads its fields
        assert native.fast == python.fast
        assert native.value() == python.value()
        assert native.nodes == python.nodes
        assert native.best_move() == python.best_move()
        assert native.moves(native.turn()) == python.moves(python.turn())
        checked += 1
    assert checked > 0
