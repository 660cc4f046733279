"""The compiled solver: everything else about the package is in pyproject.toml.

``rules/ai/solver.py`` (the double-dummy search) is compiled to a C extension by mypyc (mypy's compiler, pinned in
pyproject.toml's ``[build-system] requires``) when the package is installed: ``pip install --no-deps -e .``, the
README's second set-up command, builds it beside the .py (``rules/ai/solver.cpython-*.so`` and
``solver__mypyc.cpython-*.so``), and Python imports an extension module before a .py of the same name.  It runs the
same code about 3-4 times as fast (docs/ai.md, "The solver compiled").

It is optional.  Without a C compiler (or Python's headers), or with ``CARDTABLE_PURE_SOLVER=1`` in the environment,
the install goes on without it and the solver runs as plain Python: the same values, only slower.  A type error in
solver.py does stop the build (mypyc type-checks the module first): fix it, or install with that variable set.

After editing solver.py, build it again with the same command (``.venv/bin/pip install --no-deps -e .``).  Until
then an extension older than the .py is not used: ``rules/ai/__init__.py`` loads the .py instead, with a warning.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = ["rules/ai/solver.py"]


class OptionalBuildExt(build_ext):
    """build_ext that gives up quietly: a machine that cannot compile gets the pure-Python solver."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no Python.h, ...: the .py is the fallback
            print(f"setup.py: the compiled solver was not built ({error}); the solver runs as plain Python",
                  file=sys.stderr)  # fmt: skip


def compiled_modules() -> list:
    if os.environ.get("CARDTABLE_PURE_SOLVER"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without pyproject.toml's build requirements (e.g. --no-build-isolation)
        print("setup.py: mypyc is not installed; the solver runs as plain Python", file=sys.stderr)
        return []
    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
