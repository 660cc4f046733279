"""The import graph keeps the one-way flow of docs/architecture.md.

Interaction → cog → table service → engine → record → storage; presenter → render → Discord.  The graph is built
with ``ast`` from the source (every import, function-local ones included), so a new arrow the wrong way fails here
with the file and line that drew it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "rules", "render")
NO_DISCORD = ("bot.clocks", "bot.storage", "bot.tables", "bot.ratings", "bot.tournaments", "rules", "render")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module (one of ours), or the top-level name of a third-party package
    line: int
    local: bool  # inside a function
    type_only: bool  # under ``if TYPE_CHECKING:``: never executed, so it cannot close a cycle


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str:
    """The module an import runs: ``a.b.c`` if it is one of ours, else its nearest package of ours."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return name.split(".")[0]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, local: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(module, _resolve(alias.name, modules), child.lineno, local, type_only))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    stem = ".".join(base + ([child.module] if child.module else []))
                else:
                    stem = child.module or ""
                for alias in child.names:  # ``from pkg import module`` imports the module
                    target = _resolve(f"{stem}.{alias.name}", modules)
                    found.append(Import(module, target, child.lineno, local, type_only))
            elif isinstance(child, ast.If) and _is_type_checking(child):
                visit(child, local, True)
            else:
                inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                visit(child, inner, type_only)

    visit(tree, False, False)
    return found


def import_graph() -> list[Import]:
    modules = _modules()
    return [imp for module, path in modules.items() for imp in _imports_of(module, path, modules)]


def _in(module: str, area: str) -> bool:
    return module == area or module.startswith(area + ".")


def upward_imports(graph: list[Import]) -> list[str]:
    """Every import against the flow, as ``module:line -> target``."""
    rules = [
        ("bot", ("cogs",)),
        ("rules", ("bot", "cogs", "render", "discord")),
        ("render", ("bot", "cogs", "discord")),
        # The service and below never reach up into how things are shown.
        *(
            (area, ("bot.presentation",))
            for area in ("bot.tables", "bot.storage", "bot.ratings", "bot.clocks", "bot.tournaments")
        ),
        *((area, ("discord",)) for area in NO_DISCORD if area not in ("rules", "render")),
    ]
    wrong = []
    for imp in graph:
        for area, forbidden in rules:
            if _in(imp.source, area) and any(_in(imp.target, f) for f in forbidden):
                wrong.append(f"{imp.source}:{imp.line} -> {imp.target}")
    return sorted(set(wrong))


def import_cycles(graph: list[Import]) -> list[list[str]]:
    """Groups of our modules that import each other, directly or not (Tarjan's strongly connected components)."""
    modules = set(_modules())
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for imp in graph:
        if imp.target in modules and not imp.type_only and imp.target != imp.source:
            edges[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(modules):
        if node not in index:
            connect(node)
    return groups


def local_imports(graph: list[Import], area: str) -> list[str]:
    return sorted({f"{i.source}:{i.line} -> {i.target}" for i in graph if i.local and _in(i.source, area)})


# --- the rules -----------------------------------------------------------------------------------------------


def test_the_graph_sees_imports_of_every_kind():
    graph = import_graph()
    assert any(i.source == "rules.two_hundred.match" and i.target == "rules.two_hundred.bidding" for i in graph)
    assert any(i.type_only for i in graph) and any(i.local for i in graph)
    assert len({i.source for i in graph}) > 80


def test_no_import_runs_against_the_flow():
    assert upward_imports(import_graph()) == []


def test_no_import_cycle():
    assert import_cycles(import_graph()) == []


def test_the_clocks_hide_no_imports_in_functions():
    assert local_imports(import_graph(), "bot.clocks") == []


def private_reaches(services: tuple[str, ...] = ("manager", "store", "presenter", "clocks")) -> list[str]:
    """``<x>.manager._something`` and the like: a private method of a service used from outside it (its own module
    says ``self._something``)."""
    found = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
                continue
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
            if name in services:
                found.append(f"{module}:{node.lineno} {name}.{node.attr}")
    return sorted(found)


def test_services_are_used_through_their_public_methods():
    assert private_reaches() == []
