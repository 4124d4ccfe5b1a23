"""The house rules of the layout (DESIGN.md "Layout", STYLE.md): imports run one way, the library never imports
the benchmarks (bench/, not installed), functions stay short and files hold one concept (an 800-line backstop;
ruff, run by make test, does lint and import order). These read the source as text (ast), so they check every
module, imported by a test or not, and every import in it: module level, inside functions, under TYPE_CHECKING."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("backbones", "heads", "zoo", "data")  # what setup.py installs
PACKAGES = LIBRARY + ("bench",)
CHECKED = PACKAGES + ("scripts",)
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 60
# (path, function) -> why it is longer than MAX_FUNCTION_LINES. Empty today; a new entry needs a reason.
LONG_FUNCTIONS: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that `path` imports anywhere: at module level, in a function or under TYPE_CHECKING (a lazy
    import is still a dependency, and a cycle through one is still a cycle)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:  # `from pkg import submodule` depends on the submodule itself
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {name for name in found if name in modules}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for dep in sorted(graph[name]):
            if state.get(dep) == 1:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, path + [dep])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return cycles


def test_imports_run_one_way():
    """No import cycle among our modules: each package's entry point chooses, the parts below it do not
    import it back, not even lazily."""
    modules = _modules()
    cycles = find_cycles({name: _imports(path, modules) for name, path in modules.items()})
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_sees_every_cycle(tmp_path, monkeypatch):
    """The check above fails on a real cycle: through `from pkg import submodule`, a function-local import and a
    TYPE_CHECKING one."""
    (tmp_path / "pkg").mkdir()
    bodies = {"a.py": "from pkg import b\n", "b.py": "import pkg.a\n", "c.py": "import pkg.a\n",
              "d.py": "def f():\n    from pkg import e\n",
              "e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import f\n",
              "__init__.py": ""}
    for name, body in bodies.items():
        (tmp_path / "pkg" / name).write_text(body)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    modules = {_module_name(p): p for p in (tmp_path / "pkg").rglob("*.py")}
    graph = {name: _imports(path, modules) for name, path in modules.items()}
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.c"] == {"pkg.a"} and graph["pkg.d"] == {"pkg.e"}
    assert find_cycles(graph) == [["pkg.a", "pkg.b", "pkg.a"], ["pkg.d", "pkg.e", "pkg.d"]]


def test_the_library_never_imports_the_benchmarks():
    """bench/ measures the library from outside: no installed module imports it, and setup.py ships only the
    library's packages."""
    modules = _modules()
    importers = {name: sorted(dep for dep in _imports(modules[name], modules) if dep.split(".")[0] == "bench")
                 for name in modules if name.split(".")[0] in LIBRARY}
    assert not {name: deps for name, deps in importers.items() if deps}
    setup = ast.parse((ROOT / "setup.py").read_text())
    include = next(kw.value for node in ast.walk(setup) if isinstance(node, ast.Call)
                   and getattr(node.func, "id", "") == "find_packages" for kw in node.keywords if kw.arg == "include")
    shipped = {ast.literal_eval(e).split(".")[0] for e in include.elts}
    assert shipped == set(LIBRARY)


def _checked_files() -> list[Path]:
    return sorted(p for package in CHECKED for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _checked_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_files_and_functions_stay_small(path):
    rel = str(path.relative_to(ROOT))
    source = path.read_text()
    assert source.count("\n") <= MAX_FILE_LINES, f"{rel} has {source.count(chr(10))} lines (at most {MAX_FILE_LINES})"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                assert (rel, node.name) in LONG_FUNCTIONS, (
                    f"{rel}:{node.lineno} {node.name} has {length} lines (at most {MAX_FUNCTION_LINES}, "
                    "or give the reason in tests/test_layout.py LONG_FUNCTIONS)")
