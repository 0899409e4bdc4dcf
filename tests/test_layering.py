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
from typing import Any

import pytest
from flask import Flask, g

from api.docs import keyed_write
from api.guards import Access
from models.game import GameRow
from models.security import WRITE, KeyRow

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


KEY = KeyRow(3, "hash", None, 7, None, WRITE)
GAME = GameRow({"id": 7})

#: the api modules that are policy, not views: they run before a view, or record its answer
POLICY = {"api.guards", "api.idempotency", "api.docs"}
VIEWS = [m for m in MODULES if m.startswith("api.") and m not in POLICY and m != "api.judging"]


@pytest.mark.parametrize("module", VIEWS)
def test_no_view_writes_through_the_session_itself(module: str) -> None:
    # every write is a use case in services.py, which records through the models
    writes = [
        f"line {node.lineno}: {node.func.attr}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"add", "add_all", "flush", "commit", "delete", "issue", "merge"}
        and ("session" in ast.unparse(node.func.value) or ast.unparse(node.func.value) == "ApiKey")
    ]
    assert writes == [], f"{module} writes at {', '.join(writes)}"


@pytest.mark.parametrize("module", VIEWS)
def test_no_view_reads_what_its_guard_found_from_g(module: str) -> None:
    # a guard hands its view the game and the credential as keyword arguments (api.docs)
    reads = [
        f"line {node.lineno}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.ImportFrom)
        and node.module == "flask"
        and any(alias.name == "g" for alias in node.names)
    ]
    assert reads == [], f"{module} imports g at {', '.join(reads)}"


def test_a_view_is_handed_the_game_and_the_credential_its_guard_found() -> None:
    seen: list[tuple[Any, ...]] = []

    @keyed_write(scope="game")
    def view(game_id: int, game: Any, credential: Any) -> str:
        seen.append((game_id, game, credential))
        return ""

    @keyed_write(scope="game")
    def bare(game_id: int) -> str:
        return ""

    with Flask(__name__).test_request_context("/"):
        g.guarded = Access(credential=KEY, game=GAME)
        view(game_id=7)
    assert seen == [(7, GAME, KEY)]
    assert not hasattr(bare, "__wrapped__")  # a view that names neither runs as it is, unwrapped


@pytest.mark.parametrize("module", [m for m in MODULES if m not in ("app", "models.database")])
def test_no_module_but_the_app_decides_a_transaction(module: str) -> None:
    # one commit point per request, the app's (app.init_write_requests), a read's recount of a
    # league's books too; models.database holds the connection that the app commits through, and
    # models.verify's snapshot (for the books check) ends its own read
    decided = [
        f"line {node.lineno}: {node.func.attr}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ({"commit"} if module == "models.verify" else {"commit", "rollback"})
    ]
    assert decided == [], f"{module} ends a transaction at {', '.join(decided)}"
