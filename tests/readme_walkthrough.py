"""The README's walkthrough ("One whole hand with curl"), replayed against the app.

Each ```console block of that section holds `$ curl ...` commands and what the
server printed. `replay()` runs the commands in order on a fresh SQLite
database (through the Flask test client, as `make serve` would answer them)
and renders each answer the way the README shows it: the body as sent, and
with `-i` the status line, `Location` and `ETag`, a blank line, then the body.
`tests/test_api/test_readme_walkthrough.py` compares the README with it, its
timestamps and keys aside (`normalise()`), and fails when they differ.

To rewrite the README's blocks from a fresh run:

    GINREF_WRITE_README=1 .venv/bin/python -m pytest tests/test_api/test_readme_walkthrough.py
    .venv/bin/python -m tests.readme_walkthrough          # the same, without pytest

A key the server hands out (`"key": "grk_..."`) replaces the one written in
the later commands, so the README's commands send the key its answers show.
"""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask

from app import create_app
from models import db

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SECTION = "## One whole hand with curl"
SHOWN_HEADERS = ("Location", "ETag")
KEY = re.compile(r"grk_[A-Za-z0-9_-]+")
HANDED_OUT_KEY = re.compile(r'"key":\s*"(grk_[A-Za-z0-9_-]+)"')
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")
BLOCK = re.compile(r"^```console\n(.*?)^```\n", re.S | re.M)


@dataclass
class Command:
    text: str  # as written, continuation lines and all
    output: str  # what the README shows after it (no trailing newline)


def section_bounds(readme: str) -> tuple[int, int]:
    start = readme.index(SECTION)
    end = readme.find("\n## ", start + len(SECTION))
    return start, len(readme) if end < 0 else end


def blocks(readme: str) -> list[re.Match[str]]:
    start, end = section_bounds(readme)
    return [m for m in BLOCK.finditer(readme, start, end)]


def parse_block(body: str) -> list[Command]:
    """The commands of one console block, each with the output under it."""
    lines = body.splitlines()
    commands: list[Command] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"output before any command: {lines[i]!r}")
        text = [lines[i]]
        while not complete("\n".join(text)):
            i += 1
            text.append(lines[i])
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        commands.append(Command("\n".join(text), "\n".join(output).rstrip("\n")))
    return commands


def complete(text: str) -> bool:
    if text.endswith("\\"):
        return False
    try:
        shlex.split(join_lines(text))
    except ValueError:  # an open quote: the command goes on
        return False
    return True


def join_lines(text: str) -> str:
    return re.sub(r"\\\n\s*", " ", text)


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    data: str | None
    include: bool  # curl -i: the status line and headers too


def parse_curl(text: str) -> Request | None:
    """The request of a `$ curl ...` line; None for a `$ # comment`."""
    words = shlex.split(join_lines(text[2:]))
    if not words or words[0].startswith("#"):
        return None
    if words[0] != "curl":
        raise ValueError(f"not a curl command: {text!r}")
    method, url, headers, data, include = "GET", None, {}, None, False
    args = iter(words[1:])
    for word in args:
        if word == "-s":
            continue
        if word == "-i":
            include = True
        elif word == "-X":
            method = next(args)
        elif word == "-H":
            name, _, value = next(args).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-raw"):
            data = next(args)
            method = "POST" if method == "GET" else method
        elif word.startswith("-"):
            raise ValueError(f"curl option the walkthrough does not replay: {word}")
        else:
            url = word
    if url is None:
        raise ValueError(f"no URL: {text!r}")
    parts = urlsplit(url if "://" in url else "http://" + url)
    path = parts.path + ("?" + parts.query if parts.query else "")
    return Request(method, path, headers, data, include)


def fresh_app(directory: Path) -> Flask:
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory / 'ginref.sqlite3'}"})
    with app.app_context():
        db.create_all()
    return app


def run(app: Flask, readme: str) -> list[list[Command]]:
    """Every block's commands with the output the app gives them now."""
    client = app.test_client()
    key: str | None = None
    replayed = []
    for match in blocks(readme):
        commands = []
        for command in parse_block(match.group(1)):
            text = KEY.sub(key, command.text) if key else command.text
            request = parse_curl(text)
            if request is None:
                commands.append(Command(text, command.output))
                continue
            response = client.open(request.path, method=request.method, headers=request.headers, data=request.data)
            body = response.get_data(as_text=True)
            handed_out = HANDED_OUT_KEY.search(body)
            if handed_out:
                key = handed_out.group(1)
            output = body.rstrip("\n")
            if request.include:
                head = [f"HTTP/1.1 {response.status}"]
                head += [f"{name}: {response.headers[name]}" for name in SHOWN_HEADERS if name in response.headers]
                output = "\n".join([*head, "", output])
            commands.append(Command(text, output))
        replayed.append(commands)
    return replayed


def render(commands: list[Command]) -> str:
    """A console block's body; an answer shown with its headers is followed by a blank line."""
    parts = []
    for i, command in enumerate(commands):
        parts.append(command.text)
        if command.output:
            parts.append(command.output)
        if i + 1 < len(commands) and command.output.startswith("HTTP/"):
            parts.append("")
    return "\n".join(parts) + "\n"


def normalise(text: str) -> str:
    """Timestamps and keys differ from one run to the next."""
    return KEY.sub("grk_<key>", TIMESTAMP.sub("<timestamp>", text))


def rewritten(readme: str, replayed: list[list[Command]]) -> str:
    out, last = [], 0
    for match, commands in zip(blocks(readme), replayed, strict=True):
        out.append(readme[last : match.start(1)])
        out.append(render(commands))
        last = match.end(1)
    out.append(readme[last:])
    return "".join(out)


def replay(readme: str) -> Iterator[tuple[str, str]]:
    """(as the README shows it, as the app answers now) for each block."""
    with tempfile.TemporaryDirectory() as directory:
        app = fresh_app(Path(directory))
        try:
            replayed = run(app, readme)
        finally:
            with app.app_context():
                db.engine.dispose()
    for match, commands in zip(blocks(readme), replayed, strict=True):
        yield match.group(1), render(commands)


def write_readme(path: Path = README) -> bool:
    """Rewrite the walkthrough's blocks from a fresh run; True if more than timestamps and keys changed."""
    readme = path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as directory:
        app = fresh_app(Path(directory))
        try:
            new = rewritten(readme, run(app, readme))
        finally:
            with app.app_context():
                db.engine.dispose()
    if normalise(new) == normalise(readme):
        return False  # only timestamps and keys would change
    path.write_text(new, encoding="utf-8")
    return True


if __name__ == "__main__":
    print("README.md rewritten" if write_readme() else "README.md already matches the app")
    sys.exit(0)
