"""Schemathesis hooks for the live run (tests/fuzz_live.py): every write is
sent the way a careful client sends it, so that it reaches its view.

- The key: a league's key for the league and every game in it, a game's own
  key for a game outside any league. Keys come back once, in a 201 body
  (creating a league or a game outside a league, importing a league, rotating
  a key); every response is read for them, those of schemathesis' own
  requests included, so a rotation never leaves the run with a revoked key.
- ``If-Match``: the game's current ETag, read (with the game's key, so that a
  game made private stays in reach) just before each hand write, and before a
  PATCH that carries one.
- Half the positive cases of a write that only meets a resource the seed made
  for it (a dispute to resolve, a share key to revoke, a game outside a league
  whose rules or visibility change) go to one: made-up ids would rarely meet.
- A fresh ``Idempotency-Key`` on every write.
- The one read that needs the write key, a list of share keys: its positive
  cases carry the key, so that its 200 is fuzzed too.
- ``POST /leagues/import`` has no body in the spec (the view reads the raw
  document): its positive cases send a real export document, without the
  generated ``players`` mapping (which could name none of its players).

The spec fuzzed is the served one with the keywords of whole bodies that the
schemas declare (``Meta.json_schema``: a game is seated by a cut or by roles,
a hand is one of three forms) and apispec does not put in the served spec:
without them nearly every generated hand or game mixes the forms.

Each response's status is appended to a file that fuzz_live.py tallies.

Configured from the environment: GINREF_FUZZ_BASE (the server's root URL),
GINREF_FUZZ_STATE (a JSON file with the seeded keys and export documents) and
GINREF_FUZZ_COUNTS (the file the statuses go to).
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import threading
import uuid
from typing import Any
from urllib.parse import unquote, urlsplit

import requests
import schemathesis
from schemathesis import GenerationMode

from schemas.games import GameInSchema
from schemas.hands import HandInSchema

if sys.version_info < (3, 11, 8) or sys.version_info[:3] == (3, 12, 0):
    # ast.parse from two threads at once can fail with "AST constructor
    # recursion depth mismatch" (CPython gh-106905); Hypothesis parses source
    # files to describe lambdas, from both workers.
    import ast

    _parse, _parse_lock = ast.parse, threading.Lock()

    def _locked_parse(*args: Any, **kwargs: Any) -> Any:
        with _parse_lock:
            return _parse(*args, **kwargs)

    ast.parse = _locked_parse  # type: ignore[assignment]

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
GAME_PATH = re.compile(
    r"^/api/v1/games/([0-9]+)(/hands(?:/[^/]*(?:/disputes(?:/[^/]*/resolution)?)?)?|/key|/share-key|/share-keys/[^/]*)?$"
)
LEAGUE_PATH = re.compile(r"^/api/v1/leagues/([0-9]+)(?:/(key|members|share-key|share-keys/[^/]*))?$")

BASE = os.environ.get("GINREF_FUZZ_BASE", "").rstrip("/")
COUNTS = os.environ.get("GINREF_FUZZ_COUNTS")

_lock = threading.Lock()
_keys: dict[tuple[str, int], str] = {}
_imports: list[Any] = []
_cards_hands: list[list[int]] = []  # [game, number]: hands that can be disputed without cards
_disputes: list[list[int]] = []  # [game, number, dispute]: open disputes, each resolved once
_share_keys: dict[str, list[list[int]]] = {"league": [], "game": []}  # [owner, share key]: each revoked once
_leagues: dict[int, int | None] = {}  # game -> its league (None: outside any), whose key reads and writes it
_local = threading.local()


def _load_state() -> None:
    path = os.environ.get("GINREF_FUZZ_STATE")
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        state = json.load(f)
    for scope, ident, key in state["keys"]:
        _keys[(scope, int(ident))] = key
    _imports.extend(state.get("imports", []))
    _cards_hands.extend(state.get("cards_hands", []))
    _disputes.extend(state.get("disputes", []))
    for scope, owner, share_key in state.get("share_keys", []):
        _share_keys[scope].append([int(owner), int(share_key)])
    for game_id, league_id in state.get("games", []):
        _leagues[int(game_id)] = league_id


_load_state()


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:
    components = raw_schema.get("components", {}).get("schemas", {})
    for name, declared in (("GameIn", GameInSchema), ("HandIn", HandInSchema)):
        if name in components:
            for keyword, value in declared.Meta.json_schema.items():
                components[name].setdefault(keyword, value)
    if "HandCorrection" in components:
        # A correction is a hand and an optional reason. With the reason counted in
        # each form's maxProperties, the generator discards so many bodies that it
        # sometimes gives up on the operation: fuzz corrections as plain hands.
        components["HandCorrection"]["oneOf"] = HandInSchema.Meta.json_schema["oneOf"]
    for name in ("HandIn", "HandCorrection"):
        if name in components:
            components[name] = _forms_apart(components[name])


def _forms_apart(hand: dict[str, Any]) -> dict[str, Any]:
    """The same bodies as a hand's schema, each form with its own members (and
    the optional seating): the generator then builds a form's body at once,
    instead of drawing members of all the forms and discarding what matches
    none (it gave up on the operation once the seating made one more)."""
    members = hand["properties"]
    forms = []
    for form in hand["oneOf"]:
        own = [*form["required"], *(["seating"] if "seating" in members else [])]
        forms.append(
            {
                "title": form["title"],
                "type": "object",
                "properties": {k: members[k] for k in own},
                "required": form["required"],
                "additionalProperties": False,
            }
        )
    return {"oneOf": forms}


def _session() -> requests.Session:
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
    return session


def _key(scope: str, ident: int | None) -> str | None:
    if ident is None:
        return None
    with _lock:
        return _keys.get((scope, ident))


def _learn(scope: str, ident: Any, key: Any) -> None:
    if isinstance(ident, int) and isinstance(key, str):
        with _lock:
            _keys[(scope, ident)] = key


def _league_of(body: Any) -> int | None:
    league_id = body.get("league_id") if isinstance(body, dict) else None
    return league_id if isinstance(league_id, int) and not isinstance(league_id, bool) else None


def _game_key(game_id: int) -> str | None:
    """The key that writes (and reads) the game, if the run knows it."""
    with _lock:
        if game_id not in _leagues:
            return None
        league_id = _leagues[game_id]
    return _key("league", league_id) if league_id is not None else _key("game", game_id)


def _current_game(game_id: int) -> tuple[dict[str, Any], str] | None:
    """The game as the server has it now (read with its key: it may have been
    made private), and its ETag; None if there is none."""
    key = _game_key(game_id)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        response = _session().get(f"{BASE}/api/v1/games/{game_id}", headers=headers, timeout=20)
    except requests.RequestException:
        return None
    if response.status_code != 200:
        return None
    return response.json(), response.headers.get("ETag", "")


def _positive(case: Any) -> bool:
    return case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE


def _seat_seeded_players(body: dict[str, Any]) -> None:
    """A generated game, outside any league, of the seeded players 1-3: made-up
    player ids would almost never all exist."""
    body["players"] = [1, 2, 3]
    body.pop("league_id", None)
    if isinstance(body.get("cut"), dict) and len(body["cut"]) == 3:
        body["cut"] = dict(zip(("1", "2", "3"), body["cut"].values(), strict=True))
    if isinstance(body.get("roles"), dict):
        body["roles"] = {"box": 1, "captain": 2, "sitter": 3}


def _aim_at_seeded(case: Any) -> None:
    """Half the positive cases of a dispute's writes go to a hand that has one
    to open or resolve, of a share key's revocation to one that is there, of an
    undo to a game's last hand, of a game's PATCH to a game outside a league,
    and of a new game to the seeded players: made-up ids would rarely meet."""
    if not _positive(case) or random.random() < 0.5:
        return
    params = case.path_parameters
    if case.path.endswith("/resolution"):
        with _lock:
            target = _disputes.pop() if _disputes else None
        if target is not None:
            params["game_id"], params["number"], params["dispute_id"] = target
    elif case.path.endswith("/disputes") and _cards_hands:
        params["game_id"], params["number"] = random.choice(_cards_hands)
    elif case.method.upper() == "DELETE" and case.path.endswith("/hands/{number}") and _cards_hands:
        game_id = random.choice(_cards_hands)[0]
        found = _current_game(game_id)
        if found is not None and found[0]["hands_played"]:  # its last hand, the one that can be undone
            params["game_id"], params["number"] = game_id, found[0]["hands_played"]
    elif case.method.upper() == "PATCH" and case.path == "/api/v1/games/{game_id}":
        with _lock:
            outside = [game for game, league in _leagues.items() if league is None]
        if outside:  # its visibility can change, and its rules until its first hand
            params["game_id"] = random.choice(outside)
    elif case.method.upper() == "POST" and case.path == "/api/v1/games" and isinstance(case.body, dict):
        _seat_seeded_players(case.body)
    elif "/share-keys/" in case.path:  # a share key to revoke
        scope = "league" if case.path.startswith("/api/v1/leagues") else "game"
        with _lock:
            target = _share_keys[scope].pop() if _share_keys[scope] else None
        if target is not None:
            params[f"{scope}_id"], params["share_key_id"] = target


def _key_for_share_keys(case: Any) -> None:
    """The write key of the league or game whose share keys are listed, when
    the run knows it (its 401 and 403 are fuzzed by the other cases)."""
    if not _positive(case):
        return
    path = unquote(case.formatted_path)
    key = None
    if league := LEAGUE_PATH.match(path.removesuffix("/share-keys")):
        key = _key("league", int(league.group(1)))
    elif game := GAME_PATH.match(path.removesuffix("/share-keys")):
        key = _game_key(int(game.group(1)))
    if key is not None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {key}"}


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    method = case.method.upper()
    if method == "GET" and case.path.endswith("/share-keys"):  # a read that needs the write key
        _key_for_share_keys(case)
        return
    if method not in WRITES:
        return
    _aim_at_seeded(case)
    path = unquote(case.formatted_path)
    headers = dict(case.headers or {})
    headers["Idempotency-Key"] = uuid.uuid4().hex
    key: str | None = None
    if game := GAME_PATH.match(path):
        found = _current_game(int(game.group(1)))
        if found is not None:
            state, etag = found
            league_id = state.get("league_id")
            key = _key("league", league_id) if league_id is not None else _key("game", state["id"])
            hands = (game.group(2) or "").startswith("/hands")
            if hands or (method == "PATCH" and "If-Match" in headers):
                headers["If-Match"] = etag
    elif league := LEAGUE_PATH.match(path):
        key = _key("league", int(league.group(1)))
    elif path == "/api/v1/games":
        key = _key("league", _league_of(case.body))
    elif path == "/api/v1/leagues/import" and method == "POST" and _imports and _positive(case):
        kwargs["json"] = _imports[0]
        case.query = None  # a generated ``players`` names none of the document's players
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    case.headers = headers


def _record(label: str, status: int) -> None:
    if COUNTS is None:
        return
    with _lock, open(COUNTS, "a", encoding="utf-8") as f:
        f.write(f"{label}\t{status}\n")


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    _record(case.operation.label, response.status_code)
    if response.status_code != 201 or response.request.method != "POST":
        return
    try:
        body = json.loads(response.content)
    except ValueError:
        return
    if not isinstance(body, dict):
        return
    path = urlsplit(response.request.url).path.rstrip("/")
    if path == "/api/v1/games" and isinstance(body.get("id"), int):
        with _lock:
            _leagues[body["id"]] = _league_of(body)
    if "key" not in body:
        return
    if path in ("/api/v1/leagues", "/api/v1/leagues/import"):
        _learn("league", body.get("id"), body["key"])
    elif path == "/api/v1/games":
        _learn("game", body.get("id"), body["key"])
    elif (league := LEAGUE_PATH.match(path)) and league.group(2) == "key":
        _learn("league", int(league.group(1)), body["key"])
    elif (game := GAME_PATH.match(path)) and game.group(2) == "/key":
        _learn("game", int(game.group(1)), body["key"])
