"""The project uses its libraries through their public API only: no name of
SQLAlchemy, marshmallow, Flask or werkzeug (nor of their Flask extensions)
that begins with ``_``, and nothing of a compiled statement's or a dialect's
internals, anywhere in the project's own Python (tests and benchmarks
aside). A private name holds only under one exact release of its library.

Our own ``_private`` names are ours to use: what is checked is a name taken
from one of those libraries (imported from it, or an attribute of something
imported from it), the attributes of a dialect and a compiled statement, and
the internals the project once reached for, by name."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"tests", "bench", "node_modules"}
LIBRARIES = ("sqlalchemy", "marshmallow", "flask", "werkzeug", "flask_sqlalchemy", "flask_smorest")
#: internals of SQLAlchemy's compiled statements and dialects, by name
INTERNALS = re.compile(
    r"\b(positiontup|_render_postcompile|construct_params|insert_prefetch|update_prefetch|_json_serializer|do_commit"
    r"|_apidoc|_MemoryStorage__\w+)\b"
    r"|\bdialect\._\w*|\bcompiled\.\w+"
)


def _sources() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not any(part in SKIPPED or part.startswith(".") for part in path.relative_to(ROOT).parts[:-1])
    )


def _ours(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def _imports(tree: ast.AST, found: list[str]) -> set[str]:
    """The names ``tree`` binds to those libraries' objects; a private one imported is noted in ``found``."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and _ours(node.module):
            module = str(node.module)
            if any(part.startswith("_") for part in module.split(".")):
                found.append(f"line {node.lineno}: from {module} import")
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"line {node.lineno}: from {module} import {alias.name}")
                bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in (a for a in node.names if _ours(a.name)):
                if any(part.startswith("_") for part in alias.name.split(".")):
                    found.append(f"line {node.lineno}: import {alias.name}")
                bound.add(alias.asname or alias.name.split(".")[0])
    return bound


def private_uses(source: str) -> list[str]:
    """What ``source`` takes from those libraries that is not public: each as ``line N: text``."""
    found: list[str] = []
    tree = ast.parse(source)
    from_library = _imports(tree, found)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in from_library:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    for number, line in enumerate(_code(source).splitlines(), start=1):
        found.extend(f"line {number}: {match.group(0)}" for match in INTERNALS.finditer(line))
    return found


def _code(source: str) -> str:
    """``source`` with its comments and docstrings blanked out: the internals
    are looked for in code (a string too: ``getattr(x, "_name")``), not in
    what explains it."""
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = [
        (token.start, token.end)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            assert node.end_lineno is not None and node.end_col_offset is not None
            spans.append(((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)))
    blanked = [list(line) for line in source.splitlines(keepends=True)]
    for (row, col), (end_row, end_col) in spans:
        for r in range(row, end_row + 1):
            line = blanked[r - 1]
            for c in range(col if r == row else 0, end_col if r == end_row else len(line)):
                if line[c] != "\n":
                    line[c] = " "
    return "".join("".join(line) for line in blanked)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_uses_its_libraries_public_api_only(path: Path) -> None:
    found = private_uses(path.read_text())
    assert found == [], f"{path.relative_to(ROOT)} uses library internals at {', '.join(found)}"


def test_the_check_finds_what_it_is_for_and_leaves_our_own_private_names() -> None:
    caught = [
        "from flask.ctx import _AppCtxGlobals",
        "from sqlalchemy.engine._processors import x",
        "import sqlalchemy._x",
        "from flask import request\nrequest._get_current_object()",
        "import sqlalchemy as sa\nsa.engine._thing",
        "order = compiled.positiontup",
        "params = statement.construct_params(p)",
        "x = dialect._json_serializer",
        "self.engine.dialect.do_commit(c)",
        "if compiled.binds: pass",
        "x = getattr(c, _render_postcompile)",
        "x = getattr(statement, '_render_postcompile', False)",
    ]
    for source in caught:
        assert private_uses(source), source
    ours = [
        "from models.database import _CONNECTION\nx = _CONNECTION",
        "from sqlalchemy import select\nself._values = select(t)",
        "x = game._values['id']",
        "# positiontup, construct_params, do_commit in a comment",
        "def f():\n    '''dialect._json_serializer, in a docstring'''",
        "from sqlalchemy import func\nfunc.count().__class__",
    ]
    for source in ours:
        assert private_uses(source) == [], source
