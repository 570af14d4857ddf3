"""The module graph of python/tilecraft has no cycle (issue 20): every import counts, at module
level and inside functions, absolute or relative; the package ``__init__`` (which re-exports the
public names) is left out. Also: Ray is started in one place only."""
import ast
import pathlib
import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "python" / "tilecraft"
ROOT = "tilecraft"


def _modules() -> Dict[str, pathlib.Path]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _owner(name: str, mods: Dict[str, pathlib.Path]) -> Optional[str]:
    """The module a dotted name lives in (``tilecraft.games.gaudi.X`` -> ``tilecraft.games.gaudi``)."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def _from_imports(module: str, path: pathlib.Path) -> Iterator[Tuple[str, str]]:
    """(imported tilecraft module, name) for every ``from X import name`` of a tilecraft module X,
    absolute or relative, at every nesting level."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == ROOT:
                yield from ((target, a.name) for a in node.names)


def _imports(module: str, path: pathlib.Path, mods: Dict[str, pathlib.Path]) -> Set[str]:
    found: Set[Optional[str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):  # every nesting level
        if isinstance(node, ast.Import):
            found.update(_owner(a.name, mods) for a in node.names if a.name.split(".")[0] == ROOT)
    for target, name in _from_imports(module, path):
        # `from . import match` names a module, `from .match import x` a member
        sub = f"{target}.{name}"
        found.add(_owner(sub if sub in mods else target, mods))
    return {m for m in found if m is not None and m != module and m != ROOT}


def import_graph() -> Dict[str, Set[str]]:
    mods = _modules()
    return {m: _imports(m, p, mods) for m, p in mods.items() if m != ROOT}


def find_cycles(graph: Dict[str, Set[str]]) -> List[Tuple[List[str], List[str]]]:
    """Each strongly connected component of more than one module (Tarjan), with one cycle in it."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    components: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    cycles = []
    for comp in components:  # walk inside the component from its first module back to it
        members, start = set(comp), comp[0]
        path, seen = [start], {start}
        while True:
            nxt = sorted(w for w in graph[path[-1]] if w in members)
            back = [w for w in nxt if w == start]
            if back and len(path) > 1:
                break
            step = next((w for w in nxt if w not in seen), None)
            if step is None:  # dead end inside the component: the shortest way back is enough to name it
                break
            path.append(step)
            seen.add(step)
        cycles.append((comp, path + [start]))
    return cycles


def test_the_graph_sees_function_level_and_relative_imports():
    graph = import_graph()
    # tournament imports .distributed inside tournament() only, relatively
    assert "tilecraft.distributed" in graph["tilecraft.tournament"]
    # `from .games import game_spec` names the package games/__init__.py, a module of its own here
    assert "tilecraft.games" in graph["tilecraft.match"]
    assert "tilecraft.games.gaudi" in graph["tilecraft.render.svg_games.gaudi"]


def test_find_cycles_names_a_cycle():
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [(["a", "b", "c"], ["a", "b", "c", "a"])]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles in python/tilecraft:\n" + "\n".join(
        f"  among {', '.join(comp)}: {' -> '.join(cycle)}" for comp, cycle in cycles)


def test_ray_is_started_in_one_place():
    calls = [(p.relative_to(PACKAGE.parent), n) for p in sorted(PACKAGE.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bray\.init\(", line)]
    assert len(calls) == 1, f"ray.init should be called once (tilecraft.distributed.ray_session), found: {calls}"
    assert calls[0][0].as_posix() == "tilecraft/distributed.py"


def _imported_names() -> List[Tuple[str, str, str]]:
    """(importing module, imported module, name) for every ``from X import name`` of a tilecraft
    module X where the name is not itself a module."""
    mods = _modules()
    return [(module, target, name) for module, path in mods.items() for target, name in _from_imports(module, path)
            if f"{target}.{name}" not in mods]


def test_no_module_imports_another_modules_private_names():
    """Issue 49: a module's private names stay in it (its own private helper modules, such as
    tilecraft._args, and the extension tilecraft._core, are modules whose names are meant to be shared)."""
    crossing = [f"{m} imports {name} from {target}" for m, target, name in _imported_names()
                if name.startswith("_") and not name.startswith("__") and name != "_core" and target != m]
    assert not crossing, crossing


ENGINE = ("tilecraft.games", "tilecraft.runner", "tilecraft.records", "tilecraft.match", "tilecraft.tournament")


def test_the_engine_reaches_the_agents_only_through_the_bot_registry():
    """Issue 49: the engine's modules (the games, the runner, the records, match and tournament) use
    the agents' package through make_bot alone."""
    graph = import_graph()
    engine = [m for m in graph if m.startswith(ENGINE)]
    assert "tilecraft.games.gaudi" in engine and "tilecraft.runner" in engine
    reached = {(m, a) for m in engine for a in graph[m] if a.startswith("tilecraft.agents")}
    assert {a for _, a in reached} <= {"tilecraft.agents.bots"}, reached
    names = {name for m, target, name in _imported_names() if m in engine and target.startswith("tilecraft.agents")}
    assert names <= {"make_bot"}, names
