"""From a loaded request body to the referee's ruling, and back to JSON; and
an import document judged again, hand by hand, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError

from api.errors import INVALID_CONTENT, Problem, flatten_messages, invalid
from models.transfer import ImportedGame, ImportedHand, ImportedLeague
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
from schemas.hands import DefenderHandSchema, KnockerHandSchema
from schemas.rulings import count_ruling_dict, draw_ruling_dict, ruling_dict
from schemas.transfer import GameImportSchema


@dataclass(frozen=True)
class Judged:
    mode: str  # cards, counts, draw
    knocker: Role | None
    score: Score
    ruling: dict[str, Any]
    input: dict[str, Any]
    discard: str | None = None


KNOCKER_HAND, DEFENDER_HAND = KnockerHandSchema(), DefenderHandSchema()


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
        "knocker_hand": KNOCKER_HAND.dump(knocker_hand),
        "defender_hand": DEFENDER_HAND.dump(defender_hand),
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
    schema = GameImportSchema()
    games = []
    given = doc["games"]
    for i in range(len(given)):
        raw, given[i] = given[i], None  # let each game's document go once it is judged
        field = f"games[{i}]"
        try:
            game = schema.load(raw)
        except ValidationError as err:
            raise refused(err.messages, field) from None
        games.append(judge_game(game, raw["hands"], known, field))
    players = [(p["id"], p["name"]) for p in doc["players"]]
    return ImportedLeague(doc["league"]["name"], players, games, doc["league"]["visibility"])


def judge_game(game: dict[str, Any], raw_hands: list[dict[str, Any]], known: set[int], field: str) -> ImportedGame:
    """One loaded game of an import; ``raw_hands`` are its hands as given
    (their inputs are kept where they are canonical already)."""
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
    for i, (hand, raw) in enumerate(zip(game["hands"], raw_hands, strict=True)):
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
        # The stored ruling equals the referee's; the input is kept as given when it is canonical.
        canonical = raw["input"] if raw["input"] == judged.input else judged.input
        hands.append(
            ImportedHand(
                hand["number"],
                seating,
                judged.knocker,
                judged.score,
                judged.mode,
                canonical,
                hand["ruling"],
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
    return ImportedGame(
        game["played_at"],
        players,
        rules,
        cut,
        first,
        hands,
        state,
        {int(p): f for p, f in game_figures(records, players, state.winner).items()},
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


def _identical(stored: Any, derived: Any) -> bool:
    """Equal, and of the same JSON types throughout (``1 == 1.0 == True`` in Python)."""
    if type(stored) is not type(derived):
        return False
    if type(derived) is dict:
        return stored.keys() == derived.keys() and all(_identical(stored[k], v) for k, v in derived.items())
    if type(derived) is list:
        return len(stored) == len(derived) and all(map(_identical, stored, derived))
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
