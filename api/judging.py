"""From a loaded request body to the referee's ruling, and back to JSON; and
an import document judged again, hand by hand, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from marshmallow import ValidationError

from api.errors import INVALID_CONTENT, MALFORMED_JSON, Problem, flatten_messages, invalid
from models.disputes import compare
from models.transfer import ImportedDispute, ImportedGame, ImportedHand, ImportedLeague, ImportedRevision
from referee import (
    DRAW,
    Card,
    GameState,
    HandRecord,
    Layoff,
    RefereeError,
    Role,
    Roles,
    Rules,
    Score,
    judge_hand,
    score_counts,
    verify_seating,
)
from referee.game import advance, new_game
from referee.roles import PlayerId
from referee.stats import game_figures
from schemas.hands import HandInSchema, defender_hand_dict, knocker_hand_dict
from schemas.numbers import NotUtf8Error, NumberOutOfRangeError
from schemas.rulings import count_ruling_dict, draw_ruling_dict, ruling_dict
from schemas.transfer import GAME_SCHEMAS, GameReader
from schemas.transfer_fast import load_game


@dataclass(frozen=True)
class Judged:
    mode: str  # cards, counts, draw
    knocker: Role | None
    score: Score
    ruling: dict[str, Any]
    input: dict[str, Any]
    discard: str | None = None


HAND_INPUT = HandInSchema()


def judge_cards(data: dict[str, Any], rules: Rules) -> Judged:
    knocker_hand, defender_hand = data["knocker_hand"], data["defender_hand"]
    layoffs = defender_hand.get("layoffs")
    ruling = judge_hand(
        knocker_hand["cards"],
        defender_hand["cards"],
        knocker_melds=knocker_hand.get("melds"),
        defender_melds=defender_hand.get("melds"),
        layoffs=None if layoffs is None else [Layoff(lo["card"], lo["meld"]) for lo in layoffs],
        discard=knocker_hand.get("discard"),
        rules=rules,
    )
    knocker = Role(data["knocker"]) if "knocker" in data else None
    discard = knocker_hand.get("discard")
    input_ = {
        "knocker": data.get("knocker"),
        "knocker_hand": knocker_hand_dict(knocker_hand),
        "defender_hand": defender_hand_dict(defender_hand),
    }  # canonical cards (R3), as the schemas say
    return Judged(
        "cards",
        knocker,
        Score(ruling.outcome, ruling.scorer, ruling.points),
        ruling_dict(ruling),
        input_,
        None if discard is None else str(discard),
    )


def judge_input(data: dict[str, Any], rules: Rules) -> Judged:
    """A recorded hand in any of its three forms."""
    if data.get("outcome") == "draw":  # R12
        return Judged("draw", None, DRAW, draw_ruling_dict(), {"outcome": "draw"})
    if "knocker_deadwood_count" in data:  # R25
        k, d = data["knocker_deadwood_count"], data["defender_deadwood_count"]
        score = score_counts(k, d, rules)
        return Judged(
            "counts",
            Role(data["knocker"]),
            score,
            count_ruling_dict(score, k, d),
            {"knocker": data["knocker"], "knocker_deadwood_count": k, "defender_deadwood_count": d},
        )
    return judge_cards(data, rules)


# --- an import: every hand judged again, every game replayed --------------------------------------------


def refused(messages: Any, prefix: str = "") -> Problem:
    """A 422 for a document that does not load, naming every field (JSON paths)."""
    errors = flatten_messages(messages, prefix)
    return Problem(
        422, "; ".join(f"{k}: {' '.join(v)}" for k, v in list(errors.items())[:5]), type=INVALID_CONTENT, errors=errors
    )


def judge_league(doc: dict[str, Any]) -> ImportedLeague:
    """An export document (``schemas.transfer.LeagueImportSchema`` loaded) as
    the rules make it: each game loaded, its cut and rules checked and its
    hands judged again from their inputs and replayed (:func:`judge_game`).
    Raises a 422 (:class:`Problem`, or the referee's error) naming the first
    field whose value the rules refute; nothing is written here. Consumes
    ``doc["games"]``: each game's document is dropped once it is judged."""
    known: set[int] = set()
    for i, player in enumerate(doc["players"]):
        if player["id"] in known:
            raise invalid(f"players[{i}].id", f"player id {player['id']} appears twice")
        known.add(player["id"])
    schema = GAME_SCHEMAS[doc["format_version"]]()
    games = []
    given = doc["games"]
    reader = GameReader()
    version = doc["format_version"]
    for i in range(len(given)):
        field = f"games[{i}]"
        text, given[i] = given[i], None  # let each game's document go once it is judged
        # The common shape of a game, read and loaded at once; anything else, or
        # anything wrong with it, is read and loaded again the way that names it.
        decoded = reader.decoded(text)
        fast = load_game(decoded, version)
        if fast is not None:
            try:
                games.append(judge_game(fast, decoded, known, field))
                continue
            except (Problem, RefereeError):
                pass
        del decoded, fast
        try:
            raw = reader.read(text, field)
        except (NumberOutOfRangeError, NotUtf8Error):
            raise
        except ValueError:
            raise Problem(400, "the request body is not valid JSON", type=MALFORMED_JSON) from None
        try:
            game = schema.load(raw)
        except ValidationError as err:
            raise refused(err.messages, field) from None
        games.append(judge_game(game, raw, known, field))
    players = [(p["id"], p["name"]) for p in doc["players"]]
    return ImportedLeague(doc["league"]["name"], players, games, doc["league"]["visibility"])


def judge_game(game: dict[str, Any], given: dict[str, Any], known: set[int], field: str) -> ImportedGame:
    """One loaded game of an import; ``given`` is the game as given (its
    revisions and disputes are compared as given). Its record, when the
    document has one (format 2), is judged after its hands
    (:func:`judge_revisions`, :func:`judge_disputes`)."""
    players: list[int] = game["players"]
    for p in players:
        if p not in known:
            raise invalid(f"{field}.players", f"player {p} is not one of the document's players", offending=p)
    if len(set(players)) != 3:
        raise invalid(
            f"{field}.players", f"a game has three different players (R8), not {players}", rule="R8", offending=players
        )
    rules = Rules(**game["rules"])
    first = _roles(game["first_roles"], players, f"{field}.first_roles")
    cut = _cut(game["cut"], players, first, field)
    state = new_game(first)
    records: list[HandRecord] = []
    running: list[dict[PlayerId, int]] = []
    hands: list[ImportedHand] = []
    for i, hand in enumerate(game["hands"]):
        hfield = f"{field}.hands[{i}]"
        if hand["number"] != i + 1:
            raise invalid(
                f"{hfield}.number",
                f"hands are numbered 1, 2, ...: this is hand {i + 1}, not {hand['number']}",
                offending=hand["number"],
            )
        if state.finished:  # R20
            stranded = list(range(i + 1, len(game["hands"]) + 1))
            raise invalid(
                f"{field}.hands",
                f"player {state.winner} reaches {rules.target_score} at hand {i}: "
                f"hands {', '.join(map(str, stranded))} would come after the win (R20)",
                rule="R20",
                hands=stranded,
            )
        seating = _roles(hand["seating"], players, f"{hfield}.seating")
        if seating != state.roles:
            _verify_out_of_turn(seating, state, game["hands"], i, f"{hfield}.seating")
        try:
            judged = judge_input(hand["input"], rules)
        except RefereeError as err:
            raise err.at(f"{hfield}.input") from None
        if hand["mode"] != judged.mode:
            raise invalid(
                f"{hfield}.mode", f"the input is a {judged.mode} hand, not {hand['mode']}", offending=hand["mode"]
            )
        knocker = None if judged.knocker is None else judged.knocker.value
        if hand["knocker"] != knocker:
            raise invalid(
                f"{hfield}.knocker",
                f"the input's knocker is {knocker}, not {hand['knocker']}",
                offending=hand["knocker"],
            )
        _verify_ruling(hand["ruling"], judged.ruling, f"{hfield}.ruling")
        record = HandRecord(
            seating,
            judged.knocker,
            judged.score,
            judged.ruling["knocker"]["deadwood_count"] if judged.mode == "cards" else None,
        )
        state = advance(rules, state, record)
        records.append(record)
        running.append(state.scores)
        # The input in its canonical form, the ruling the referee's (the given one's equal):
        # built by the referee, they name each card with one string, however many hands hold it.
        hands.append(
            ImportedHand(
                hand["number"],
                seating,
                judged.knocker,
                judged.score,
                judged.mode,
                judged.input,
                judged.ruling,
                hand["recorded_at"],
                hand["corrected_at"],
            )
        )
    status = "finished" if state.finished else "in_progress"
    if game["status"] != status:
        raise invalid(
            f"{field}.status",
            f"the hands leave the game {status}, not {game['status']} (R20)",
            rule="R20",
            offending=game["status"],
        )
    if game["winner"] != state.winner:
        raise invalid(
            f"{field}.winner",
            f"the hands make {state.winner} the winner, not {game['winner']} (R20)",
            rule="R20",
            offending=game["winner"],
        )
    scores = {str(p): n for p, n in state.scores.items()}
    if game["scores"] != scores:
        raise invalid(
            f"{field}.scores",
            f"the hands add up to {scores}, not {game['scores']} (R26)",
            rule="R26",
            offending=game["scores"],
        )
    state = GameState(state.scores, state.roles, state.winner, state.hands_played, state.out_of_turn, tuple(running))
    revisions, disputes = None, []
    if "revisions" in game:
        revisions = judge_revisions(game["revisions"], given["revisions"], hands, rules, players, field)
        disputes = judge_disputes(game["disputes"], given["disputes"], revisions, rules, field)
    return ImportedGame(
        game["played_at"],
        players,
        rules,
        cut,
        first,
        hands,
        state,
        {int(p): f for p, f in game_figures(records, players, state.winner).items()},
        revisions,
        disputes,
    )


@dataclass(frozen=True, slots=True)
class _Known:
    """An input given as ``raw`` that the referee has judged already."""

    raw: dict[str, Any]
    mode: str
    knocker: str | None
    input: dict[str, Any]  # canonical
    ruling: dict[str, Any]


def _judged_again(raw: dict[str, Any], known: list[_Known], rules: Rules, field: str) -> _Known:
    """The referee's ruling of an input, loaded (``HandInSchema``) and judged;
    one given exactly as an input loaded and judged already (in ``known``,
    which this adds to) is neither loaded nor judged twice: the same input
    always gives the same ruling (R24)."""
    for k in known:
        if _identical(raw, k.raw):
            return k
    try:
        loaded = HAND_INPUT.load(raw)
    except ValidationError as err:
        raise refused(err.messages, f"{field}.input") from None
    try:
        judged = judge_input(loaded, rules)
    except RefereeError as err:
        raise err.at(f"{field}.input") from None
    knocker = None if judged.knocker is None else judged.knocker.value
    fresh = _Known(raw, judged.mode, knocker, judged.input, judged.ruling)
    known.append(fresh)
    return fresh


def _verify_judged(given: dict[str, Any], raw: dict[str, Any], judged: _Known, field: str) -> None:
    """A version's mode, knocker and ruling are the referee's on its input."""
    if given["mode"] != judged.mode:
        raise invalid(
            f"{field}.mode", f"the input is a {judged.mode} hand, not {given['mode']}", offending=given["mode"]
        )
    if given["knocker"] != judged.knocker:
        raise invalid(
            f"{field}.knocker",
            f"the input's knocker is {judged.knocker}, not {given['knocker']}",
            offending=given["knocker"],
        )
    _verify_ruling(raw["ruling"], judged.ruling, f"{field}.ruling")


def _player_scores(given: dict[str, int], players: list[int], field: str) -> dict[int, int]:
    for key in given:
        if int(key) not in players:
            raise invalid(field, f"player {key} does not play in this game ({players})", offending=key)
    return {int(k): n for k, n in given.items()}


#: what may follow a version of a hand number (None: its first); the next hand recorded takes an undone one's number
_NEXT_ACTIONS: dict[str | None, tuple[str, ...]] = {
    None: ("recorded",),
    "recorded": ("corrected", "undone"),
    "corrected": ("corrected", "undone"),
    "undone": ("recorded",),
}


def judge_revisions(
    given: list[dict[str, Any]],
    raw: list[dict[str, Any]],
    hands: list[ImportedHand],
    rules: Rules,
    players: list[int],
    field: str,
) -> list[ImportedRevision]:
    """A game's revisions (R26: the record stands), listed by hand number then
    revision, each numbered 1, 2, ... without gaps: a hand number's first is
    ``recorded``, a correction or an undo follows a recording or a
    correction, a recording follows an undo; a hand keeps its seating through
    its corrections; each version's ruling is the referee's on its input; the
    last version of each hand that stands is that hand (input, seating,
    ruling), and every other hand number's last is ``undone``."""
    out: list[ImportedRevision] = []
    last: dict[int, int] = {}  # hand number -> index of its last revision
    # Each hand that stands was judged already: a version with its (canonical) input is not judged again.
    known: dict[int, list[_Known]] = {
        h.number: [_Known(h.input, h.mode, None if h.knocker is None else h.knocker.value, h.input, h.ruling)]
        for h in hands
    }
    previous: dict[str, Any] | None = None
    seating: Roles | None = None  # the seating of the current recording of the hand number
    for j, (rev, rraw) in enumerate(zip(given, raw, strict=True)):
        rfield = f"{field}.revisions[{j}]"
        number, revision = rev["number"], rev["revision"]
        if previous is None or number != previous["number"]:
            expected = 1 if previous is None else previous["number"] + 1
            if number != expected:
                raise invalid(
                    f"{rfield}.number",
                    f"revisions are listed by hand number, 1, 2, ... without gaps: {expected} here, not {number}",
                    offending=number,
                )
            before = None
        else:
            before = previous["action"]
        expected = 1 if before is None else previous["revision"] + 1  # type: ignore[index]
        if revision != expected:
            raise invalid(
                f"{rfield}.revision",
                f"hand {number}'s revisions are numbered 1, 2, ... without gaps: {expected} here, not {revision}",
                offending=revision,
            )
        action = rev["action"]
        if action not in _NEXT_ACTIONS[before]:
            raise invalid(
                f"{rfield}.action",
                f"after {before or 'nothing'} comes {' or '.join(_NEXT_ACTIONS[before])}, not {action} (R26)",
                rule="R26",
                offending=action,
            )
        roles = _roles(rev["seating"], players, f"{rfield}.seating")
        if action == "recorded":
            seating = roles
        elif roles != seating:
            assert seating is not None
            raise invalid(
                f"{rfield}.seating",
                f"hand {number} was played in {seating.as_dict()}, and a hand keeps its seating (R26), "
                f"not {roles.as_dict()}",
                rule="R26",
                offending=roles.as_dict(),
            )
        judged = _judged_again(rev["input"], known.setdefault(number, []), rules, rfield)
        _verify_judged(rev, rraw, judged, rfield)
        out.append(
            ImportedRevision(
                number,
                revision,
                action,
                judged.mode,
                roles,
                judged.knocker,
                judged.input,
                judged.ruling,  # the given one's equal, shared with the hand's where it is the same
                _player_scores(rev["scores"], players, f"{rfield}.scores"),
                _player_scores(rev["game_scores"], players, f"{rfield}.game_scores"),
                rev["made_at"],
                rev["reason"],
                rev["dispute"],
            )
        )
        last[number] = j
        previous = rev
    for hand in hands:
        if hand.number not in last:
            raise invalid(
                f"{field}.revisions",
                f"hand {hand.number} stands but has no revisions (R26)",
                rule="R26",
                offending=None,
            )
        j = last[hand.number]
        version, vfield = out[j], f"{field}.revisions[{j}]"
        if version.action == "undone":
            raise invalid(
                f"{vfield}.action", f"hand {hand.number} stands: its last revision is not undone", offending="undone"
            )
        for name, same in (
            ("input", _identical(version.input, hand.input)),
            ("seating", version.seating == hand.seating),
            ("ruling", _identical(version.ruling, hand.ruling)),
        ):
            if not same:
                raise invalid(
                    f"{vfield}.{name}",
                    f"the last revision of hand {hand.number} is the hand that stands (R26): its {name} differs",
                    rule="R26",
                )
    for number, j in last.items():
        if number > len(hands) and out[j].action != "undone":
            raise invalid(
                f"{field}.revisions[{j}].action",
                f"no hand {number} stands: its last revision is undone, not {out[j].action} (R26)",
                rule="R26",
                offending=out[j].action,
            )
    return out


def judge_disputes(
    given: list[dict[str, Any]],
    raw: list[dict[str, Any]],
    revisions: list[ImportedRevision],
    rules: Rules,
    field: str,
) -> list[ImportedDispute]:
    """A game's disputes: each of a hand number the game has, its ruling the
    referee's on its input, ``recorded`` the result of a version of that hand
    and ``differences`` how the two differ; an open one unresolved; each
    upheld one named by exactly one correction of its hand, with its input
    and ruling, and no revision naming another."""
    results: dict[int, list[dict[str, Any]]] = {}
    for r in revisions:
        if r.action != "undone":
            results.setdefault(r.number, []).append(
                {name: r.ruling.get(name) for name in ("outcome", "scorer", "points")}
            )
    out: list[ImportedDispute] = []
    by_id: dict[int, int] = {}
    for k, (d, draw) in enumerate(zip(given, raw, strict=True)):
        dfield = f"{field}.disputes[{k}]"
        if d["id"] in by_id:
            raise invalid(f"{dfield}.id", f"dispute {d['id']} appears twice in this game", offending=d["id"])
        by_id[d["id"]] = k
        number = d["number"]
        if number not in results:
            raise invalid(f"{dfield}.number", f"this game has no hand {number}", offending=number)
        judged = _judged_again(d["input"], [], rules, dfield)
        _verify_judged(d, draw, judged, dfield)
        if not any(_identical(draw["recorded"], result) for result in results[number]):
            raise invalid(
                f"{dfield}.recorded",
                f"not the outcome, scorer and points of any version of hand {number}",
                offending=draw["recorded"],
            )
        differences = compare(draw["recorded"], judged.ruling)
        if not _identical(draw["differences"], differences):
            raise invalid(
                f"{dfield}.differences",
                f"the recorded and the disputed rulings differ by {_shown(differences)}",
                offending=draw["differences"],
            )
        if (d["status"] == "open") != (d["resolved_at"] is None):
            raise invalid(
                f"{dfield}.resolved_at",
                f"a dispute {d['status']} has {'no' if d['status'] == 'open' else 'a'} resolved_at",
                offending=draw["resolved_at"],
            )
        if d["status"] == "open" and d["reason"] is not None:
            raise invalid(f"{dfield}.reason", "an open dispute has no decision, nor its reason", offending=d["reason"])
        out.append(
            ImportedDispute(
                d["id"],
                number,
                d["by"],
                d["claim"],
                judged.mode,
                judged.knocker,
                judged.input,
                draw["ruling"],
                draw["recorded"],
                differences,
                d["status"],
                d["reason"],
                d["opened_at"],
                d["resolved_at"],
            )
        )
    _verify_named(revisions, out, by_id, field)
    return out


def _verify_named(
    revisions: list[ImportedRevision], disputes: list[ImportedDispute], by_id: dict[int, int], field: str
) -> None:
    """Each upheld dispute is named by exactly one correction of its hand,
    which is the hand as the dispute has it; no revision names another."""
    out = disputes
    named: dict[int, int] = {}
    for j, r in enumerate(revisions):
        if r.dispute is None:
            continue
        rfield = f"{field}.revisions[{j}].dispute"
        if r.dispute not in by_id:
            raise invalid(rfield, f"there is no dispute {r.dispute} in this game", offending=r.dispute)
        if r.dispute in named:
            raise invalid(
                rfield, f"dispute {r.dispute} is named by revision {named[r.dispute]} already", offending=r.dispute
            )
        named[r.dispute] = j
        dispute = out[by_id[r.dispute]]
        if r.action != "corrected" or dispute.status != "upheld" or dispute.number != r.number:
            raise invalid(
                rfield,
                f"only a correction of hand {dispute.number} names dispute {r.dispute}, once it is upheld (R26)",
                rule="R26",
                offending=r.dispute,
            )
        if not (_identical(r.input, dispute.input) and _identical(r.ruling, dispute.ruling)):
            raise invalid(rfield, f"the hand as dispute {r.dispute} has it is not this revision's", offending=r.dispute)
    for k, dispute in enumerate(out):
        if dispute.status == "upheld" and dispute.id not in named:
            raise invalid(
                f"{field}.disputes[{k}].status",
                "an upheld dispute corrects its hand (R26): no revision names it",
                rule="R26",
                offending="upheld",
            )


def _roles(given: dict[str, int], players: list[int], field: str) -> Roles:
    """R8: the first hand's roles are the game's three players."""
    try:
        return verify_seating(players, roles=given)
    except RefereeError as err:
        raise invalid(field, f"{err.message} {players} ({err.rule})", rule=err.rule, offending=given) from None


def _cut(cut: dict[str, Card] | None, players: list[int], first: Roles, field: str) -> dict[int, str] | None:
    """R9: one card from each of the game's players; the roles it gives are the first hand's."""
    if cut is None:
        return None  # the roles were given directly
    try:
        roles = verify_seating(players, cut=cut)
    except RefereeError as err:
        raise err.at(field) from None
    if roles != first:
        raise invalid(
            f"{field}.cut",
            f"the cut seats {roles.as_dict()} (R9), not first_roles {first.as_dict()}",
            rule="R9",
            offending={k: str(v) for k, v in cut.items()},
        )
    return {int(k): str(c) for k, c in cut.items()}


def _verify_out_of_turn(seating: Roles, state: GameState, hands: list[dict[str, Any]], i: int, field: str) -> None:
    """R26: a hand is seated otherwise than by R11 from the hand before only
    when that hand was corrected after it was played (the record stands)."""
    expected = state.roles
    assert expected is not None
    if i == 0:
        raise invalid(
            field,
            f"the first hand is played in first_roles {expected.as_dict()} (R9), not {seating.as_dict()}",
            rule="R9",
            offending=seating.as_dict(),
        )
    if hands[i - 1]["corrected_at"] is None:
        raise invalid(
            field,
            f"after hand {i} the seating is {expected.as_dict()} (R11), not {seating.as_dict()}; "
            f"a hand sits otherwise only when the hand before it was corrected (R26)",
            rule="R26",
            offending=seating.as_dict(),
        )


_MAX_DIFFERENCES = 10


def _verify_ruling(stored: Any, derived: dict[str, Any], field: str) -> None:
    """The stored ruling must be the referee's exactly: same members, same
    types, same values. A 422 names each difference (up to ten)."""
    if _identical(stored, derived):
        return
    differences: dict[str, list[str]] = {}
    for path, message in _differences(stored, derived, field):
        differences[path] = [message]
        if len(differences) == _MAX_DIFFERENCES:
            break
    if differences:
        where = ", ".join(path[len(field) :].lstrip(".") or "the whole ruling" for path in differences)
        raise Problem(
            422,
            f"{field}: not the referee's ruling of the hand's input (differs at {where})",
            type=INVALID_CONTENT,
            errors={field: [f"not the referee's ruling of the hand's input (differs at {where})"], **differences},
        )


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


#: values orjson writes only if they are plain JSON values: anything else it refuses (TypeError)
_PLAIN_JSON = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _identical(stored: Any, derived: Any) -> bool:
    """Equal, and of the same JSON types throughout (``1 == 1.0 == True`` in
    Python). Both are JSON values as an import reads them, with finite
    numbers only (a document with others is refused before), so their texts,
    members sorted, are the same exactly when they are (but for ``-0.0``,
    told apart from ``0.0``: the referee's numbers are all whole): written
    by orjson, the two texts are compared at once; what orjson does not
    write (an integer past 64 bits, a value that is not plain JSON) is
    compared member by member."""
    if stored is derived:
        return True
    try:
        return orjson.dumps(stored, option=_PLAIN_JSON) == orjson.dumps(derived, option=_PLAIN_JSON)
    except TypeError:
        return _same_members(stored, derived)


def _same_members(stored: Any, derived: Any) -> bool:
    if stored is derived:
        return True
    if type(stored) is not type(derived):
        return False
    if type(derived) is dict:
        return stored.keys() == derived.keys() and all(_same_members(stored[k], v) for k, v in derived.items())
    if type(derived) is list:
        return len(stored) == len(derived) and all(map(_same_members, stored, derived))
    return bool(stored == derived)


def _differences(stored: Any, derived: Any, path: str) -> Iterator[tuple[str, str]]:
    if type(stored) is not type(derived):  # 1 == 1.0 == True in Python, not in a ruling
        yield path, f"{_shown(stored)}; the referee rules {_shown(derived)}"
    elif isinstance(derived, dict):
        for key in derived:
            if key not in stored:
                yield f"{path}.{key}", f"missing; the referee rules {_shown(derived[key])}"
            else:
                yield from _differences(stored[key], derived[key], f"{path}.{key}")
        for key in stored:
            if key not in derived:
                yield f"{path}.{key}", "not a member of the referee's ruling"
    elif isinstance(derived, list) and len(stored) == len(derived):
        for i, (a, b) in enumerate(zip(stored, derived, strict=True)):
            yield from _differences(a, b, f"{path}[{i}]")
    elif stored != derived:
        yield path, f"{_shown(stored)}; the referee rules {_shown(derived)}"
