"""Measure the engine's house (issue 18): import circles, function-local imports, long functions, escapes.

Reads the source with `ast` only (imports nothing of judgebook), so the same script measures any checkout:
    python tools/engine_layout.py [--root DIR] [--json]
Figures:
- largest circle: the biggest strongly connected set of judgebook modules, counting every import statement
  (function-local ones and `if TYPE_CHECKING:` ones too: a name the value needs is an arrow all the same);
- import-time loops: strongly connected sets (size > 1) when only the imports that run at import time count
  (module level and class bodies, outside `if TYPE_CHECKING:`);
- function-local import statements in the engine, functions over 50 lines in the engine (decorators excluded),
  `# type: ignore` comments and `Any` names in the engine.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import sys
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

PACKAGE = "judgebook"
ENGINE = "judgebook.engine"
LONG = 50


@dataclass(frozen=True)
class Figures:
    largest_circle: int
    largest_circle_engine_files: int
    import_time_loops: int
    largest_import_time_loop: int
    engine_function_local_imports: int
    engine_functions_over_50_lines: int
    engine_type_ignores: int
    engine_any: int


def _modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, name: str, is_package: bool, known: set[str]) -> tuple[set[str], set[str], int]:
    """(modules imported at import time, modules imported anywhere, function-local import statements)."""
    eager: set[str] = set()
    every: set[str] = set()
    local = 0

    def resolve(node: ast.Import | ast.ImportFrom) -> set[str]:
        targets: set[str] = set()
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
            return {t for t in targets if t in known} | {_parent(t, known) for t in targets} - {""}
        base = node.module or ""
        if node.level:
            anchor = name.split(".") if is_package else name.split(".")[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join(anchor + ([base] if base else []))
        for alias in node.names:
            full = f"{base}.{alias.name}"
            targets.add(full if full in known else base)
        return {t if t in known else _parent(t, known) for t in targets} - {""}

    def walk(node: ast.AST, in_function: bool, type_only: bool) -> None:
        nonlocal local
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                targets = resolve(child)
                every.update(targets)
                if type_only:
                    continue
                if in_function:
                    local += 1
                else:
                    eager.update(targets)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                walk(ast.Module(body=child.body, type_ignores=[]), in_function, True)
                walk(ast.Module(body=child.orelse, type_ignores=[]), in_function, type_only)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(child, True, type_only)
            else:
                walk(child, in_function, type_only)

    walk(tree, False, False)
    return eager - {name}, every - {name}, local


def _parent(target: str, known: set[str]) -> str:
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively; only sets of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def measure(root: Path) -> tuple[Figures, dict[str, list[list[str]]]]:
    modules = _modules(root)
    known = set(modules)
    eager: dict[str, set[str]] = {}
    every: dict[str, set[str]] = {}
    local_imports = long_functions = ignores = anys = 0
    for name, path in modules.items():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        eager[name], every[name], local = _imports(tree, name, path.name == "__init__.py", known)
        if not (name == ENGINE or name.startswith(ENGINE + ".")):
            continue
        local_imports += local
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if (node.end_lineno or node.lineno) - node.lineno + 1 > LONG:
                    long_functions += 1
            elif isinstance(node, ast.Name) and node.id == "Any":
                anys += 1
            elif isinstance(node, ast.Attribute) and node.attr == "Any":
                anys += 1
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and "type: ignore" in token.string:
                ignores += 1
    every_circles = sorted(_circles(every), key=len, reverse=True)
    eager_circles = sorted(_circles(eager), key=len, reverse=True)
    largest = every_circles[0] if every_circles else set()
    figures = Figures(
        largest_circle=len(largest),
        largest_circle_engine_files=sum(1 for m in largest if m.startswith(ENGINE)),
        import_time_loops=len(eager_circles),
        largest_import_time_loop=len(eager_circles[0]) if eager_circles else 0,
        engine_function_local_imports=local_imports,
        engine_functions_over_50_lines=long_functions,
        engine_type_ignores=ignores,
        engine_any=anys,
    )
    detail = {
        "circles": [sorted(c) for c in every_circles],
        "import_time_loops": [sorted(c) for c in eager_circles],
    }
    return figures, detail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--json", action="store_true", help="figures and the circles as JSON")
    parser.add_argument("--detail", action="store_true", help="list the modules of each circle")
    args = parser.parse_args(argv)
    figures, detail = measure(args.root)
    if args.json:
        json.dump({"figures": asdict(figures), **detail}, sys.stdout, indent=2)
        print()
        return 0
    for key, value in asdict(figures).items():
        print(f"{key:34} {value}")
    if args.detail:
        for label, groups in detail.items():
            for group in groups:
                print(f"{label}: {len(group)}: {' '.join(group)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
