"""The floors import downwards only, and each module stands on its own:
``api -> services -> models -> referee``, ``api -> schemas -> referee``.

Each module of models/, api/ and schemas/ is imported first, alone, in a
fresh interpreter (an import circle kept alive by import order fails there),
and none imports inside a function (which is how such circles hide)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("models", "api", "schemas")  # and the two top-level modules
MODULES = sorted(
    f"{p.parent.name}.{p.stem}".removesuffix(".__init__") for package in PACKAGES for p in (ROOT / package).glob("*.py")
) + ["services", "app"]
# what each floor may import of ours
ALLOWED = {
    "models": {"models", "referee"},
    "schemas": {"schemas", "referee"},
    "services": {"models", "referee"},
    "api": {"api", "services", "models", "schemas", "referee"},
    "app": {"api", "services", "models", "schemas", "referee"},
}


def _tree(module: str) -> ast.Module:
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = ROOT / module / "__init__.py"
    return ast.parse(path.read_text(), str(path))


def _ours(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        names = [node.module]
    else:
        return []
    return [n.split(".")[0] for n in names if n.split(".")[0] in ALLOWED]


@pytest.mark.slow  # an interpreter per module
@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_first_and_alone_in_a_fresh_interpreter(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_inside_a_function(module: str) -> None:
    inner = []
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner += [f"line {n.lineno}" for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert inner == [], f"{module} imports inside a function at {', '.join(inner)}"


@pytest.mark.parametrize("module", MODULES)
def test_imports_go_downwards_only(module: str) -> None:
    floor = module.split(".")[0]
    upward = sorted({name for node in ast.walk(_tree(module)) for name in _ours(node)} - ALLOWED[floor])
    assert upward == [], f"{module} imports {upward}"


def test_every_problem_type_is_spelled_in_api_errors_only() -> None:
    files = [ROOT / "app.py", ROOT / "services.py", *(p for package in PACKAGES for p in (ROOT / package).glob("*.py"))]
    spelled = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        if path != ROOT / "api" / "errors.py"
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if "ginref.org/" in line
    ]
    assert spelled == []


def test_no_hook_or_view_switches_on_an_endpoints_name() -> None:
    # what a route needs is declared on it (api.docs), and the hooks read the declaration
    files = [ROOT / "app.py", *(ROOT / "api").glob("*.py")]
    switches = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if ".endpoint ==" in line or ".endpoint in " in line or "_ENDPOINT =" in line
    ]
    assert switches == []
