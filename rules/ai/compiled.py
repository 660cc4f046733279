"""The modules of this package that setup.py compiles with mypyc, and their source when the build is older.

``pip install --no-deps -e .`` builds ``rules/ai/solver.py`` into an extension module beside it
(``solver.cpython-*.so``), which Python imports in preference to the .py.  An edited (or pulled) solver.py would
then not run until the next build; so when the extension is older than its .py, the .py is loaded in its place
(``use_sources_when_stale``, run by ``rules/ai/__init__.py`` before any submodule) with a warning to build again.
No extension (a machine without a compiler, ``CARDTABLE_PURE_SOLVER=1``): the .py, nothing to do.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import types
import warnings

COMPILED = ("solver",)  # as setup.py's COMPILED, in this package
# How much newer than its extension a .py must be to count as edited since the build: an install from a wheel writes
# the .py a moment after the extension (an edit, a pull or a checkout comes minutes after a build, not seconds).
SLACK_S = 5.0


def compiled_path(name: str) -> str | None:
    """The extension module built for ``rules.ai.<name>``, if there is one."""
    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, name + suffix)
        if os.path.exists(path):
            return path
    return None


def is_compiled(module) -> bool:
    """Whether ``module`` (e.g. ``rules.ai.solver``) is the extension, not the .py."""
    return not (getattr(module, "__file__", None) or "").endswith(".py")


def use_sources_when_stale() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for name in COMPILED:
        full = f"{__package__}.{name}"
        binary = compiled_path(name)
        source = os.path.join(here, name + ".py")
        if full in sys.modules or binary is None or os.path.getmtime(source) <= os.path.getmtime(binary) + SLACK_S:
            continue
        warnings.warn(f"{binary} is older than {name}.py: running the .py (slower); build it again with "
                      "'.venv/bin/pip install --no-deps -e .'", stacklevel=2)  # fmt: skip
        source_module(name, full)


def source_module(name: str, as_name: str) -> types.ModuleType:
    """``rules/ai/<name>.py`` run as Python and registered as ``as_name`` (the extension, if any, is not touched)."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location(as_name, source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[as_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[as_name]
        raise
    return module


use_sources_when_stale()
