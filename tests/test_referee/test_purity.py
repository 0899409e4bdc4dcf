"""The referee is a pure library: standard library only (STYLE.md, "Shape of the code")."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT / "referee"
BLOCKED = ("flask", "flask_smorest", "flask_sqlalchemy", "sqlalchemy", "marshmallow", "psycopg", "yaml")

# Run in a fresh interpreter where the web stack cannot be imported at all.
BLOCKING_IMPORT = f"""
import importlib.abc, sys
BLOCKED = {BLOCKED!r}

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is blocked: the referee must not need it")
        return None

sys.meta_path.insert(0, Block())
sys.path.insert(0, {str(ROOT)!r})
import pkgutil, importlib
import referee
for module in pkgutil.iter_modules(referee.__path__):
    importlib.import_module("referee." + module.name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
assert not loaded, loaded
print("ok", len(referee.__all__))
"""


def test_referee_imports_without_flask_sqlalchemy_or_marshmallow():
    result = subprocess.run(
        [sys.executable, "-I", "-c", BLOCKING_IMPORT], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok ")


def test_the_blocker_really_blocks():
    probe = BLOCKING_IMPORT.replace("import referee\n", "import referee, flask\n", 1)
    result = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )
    assert result.returncode != 0
    assert "flask is blocked" in result.stderr


def imported_modules(path):
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside referee
                yield "referee"
            else:
                yield node.module


def test_referee_modules_import_only_the_standard_library_and_referee():
    sources = sorted(REFEREE.glob("*.py"))
    assert {p.name for p in sources} >= {
        "cards.py",
        "melds.py",
        "deadwood.py",
        "layoff.py",
        "scoring.py",
        "rules.py",
        "roles.py",
        "game.py",
        "judge.py",
        "errors.py",
        "__init__.py",
    }
    outside = {
        f"{path.name}: {name}"
        for path in sources
        for name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "referee"
    }
    assert outside == set()
