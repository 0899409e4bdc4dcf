"""From a loaded request body to the referee's ruling, and back to JSON; and
an import document judged again, hand by hand, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

import orjson
from marshmallow import ValidationError

from api.errors import INVALID_CONTENT, MALFORMED_JSON, Problem, flatten_messages, invalid
from models.disputes import compare
from models.game import ruled_score
from models.transfer import ImportedDispute, ImportedGame, ImportedHand, ImportedLeague, ImportedRevision
from referee import (
    DRAW,
    HandRecord,
    Layoff,
    Outcome,
    RefereeError,
    Role,
    Rules,
    Score,
    Side,
    judge_hand,
    score_counts,
)
from referee.cutthroat import CutthroatHand, CutthroatSeating, CutthroatState
from referee.errors import HandError, HistoryError
from referee.explain import explain_draw
from referee.history import (
    Dispute,
    Listing,
    Record,
    Seats,
    Standing,
    Version,
    advance_any,
    list_version,
    results_of,
    same_json,
    seat,
    start,
    verify_cut,
    verify_disputed,
    verify_history,
    verify_named,
    verify_next_hand,
    verify_players,
    verify_recorded,
    verify_resolution,
    verify_result,
    verify_standing,
)
from referee.hollywood import HollywoodState
from referee.preset_hand import (
    DRAW_SCORE,
    HandScore,
    explain_preset_counts,
    explain_preset_hand,
    judge_preset_hand,
    score_preset_counts,
)
from referee.presets import Preset, PresetRules
from referee.roles import PlayerId
from referee.sheet import explain_hand_boxes
from referee.stats import game_figures, two_player_game_figures
from referee.two_player import Seat, Seating, TwoPlayerHand, TwoPlayerState
from schemas.hands import HandInSchema, defender_hand_dict, knocker_hand_dict
from schemas.numbers import NotUtf8Error, NumberOutOfRangeError
from schemas.readers import Shape
from schemas.rulings import count_ruling_dict, draw_ruling_dict, ruling_dict, step_dicts
from schemas.transfer import (
    CUTTHROAT_GAME,
    GAME_SHAPES,
    TWO_PLAYER_GAME,
    GameReader,
    is_cutthroat_game,
    is_two_player_game,
)

K = TypeVar("K", Role, Seat)  # who knocked: a three-handed hand's role, a two-player hand's seat
S = TypeVar("S", Score, HandScore)


@dataclass(frozen=True)
class Ruled(Generic[K, S]):
    """A hand as the referee ruled it: how it was given (cards, counts or a
    draw), who knocked, its score, and the ruling and input as stored."""

    mode: str  # cards, counts, draw
    knocker: K | None
    score: S
    ruling: dict[str, Any]
    input: dict[str, Any]


@dataclass(frozen=True)
class Judged(Ruled[Role, Score]):
    """A three-handed hand as the referee ruled it, and the knocker's discard."""

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


_TWO_PLAYER_ONLY = ("upcard", "big_gin")


def verify_three_handed_input(data: dict[str, Any]) -> None:
    """A three-handed hand names the box or the captain (R8) and gives no
    up-card (R33) nor big gin (R32): those are two-player presets' (R27)."""
    knocker = data.get("knocker")
    if knocker is not None and knocker not in ("box", "captain"):
        raise invalid(
            "knocker",
            f"a three-handed hand's knocker is box or captain, not {knocker} (R8)",
            offending=knocker,
            rule="R8",
        )
    for name in _TWO_PLAYER_ONLY:
        if name in data:
            raise invalid(name, f"a three-handed game takes no {name} (R27)", offending=str(data[name]), rule="R27")


@dataclass(frozen=True)
class PresetJudged(Ruled[Seat, HandScore]):
    """A two-player hand as the referee ruled it under its game's preset."""


def _winner(knocker: Seat | None, score: HandScore) -> str | None:
    if knocker is None:
        return None
    hand = TwoPlayerHand(Seating(1, 2), knocker, score)
    return None if hand.winner is None else hand.winner.value


def _preset_ruling(
    base: dict[str, Any], knocker: Seat | None, score: HandScore, limit: int | None, upcard: Any, steps: Any
) -> dict[str, Any]:
    """A two-player hand's ruling as stored and served: the hand's ruling with
    its points after the spade double (R33), and what the preset adds."""
    return {
        **base,
        "points": score.points,
        "winner": _winner(knocker, score),
        "base_points": score.base_points,
        "boxes": score.boxes,
        "big_gin": score.big_gin,
        "upcard": None if upcard is None else str(upcard),
        "knock_limit": limit,
        "explanation": step_dicts((*steps, *explain_hand_boxes(score.boxes))),
    }


def judge_preset_input(data: dict[str, Any], rules: PresetRules) -> PresetJudged:
    """A two-player hand (R28) in any of its three forms, judged under the
    game's preset (R29, R32, R33, R35)."""
    if data.get("outcome") == "draw":  # R12
        base = draw_ruling_dict()
        ruling = _preset_ruling(base, None, DRAW_SCORE, None, None, explain_draw())
        return PresetJudged("draw", None, DRAW_SCORE, ruling, {"outcome": "draw"})
    knocker_name = data["knocker"]
    if knocker_name not in ("dealer", "non_dealer"):
        raise invalid(
            "knocker",
            f"a two-player hand's knocker is dealer or non_dealer, not {knocker_name} (R28)",
            offending=knocker_name,
            rule="R28",
        )
    knocker = Seat(knocker_name)
    upcard = data.get("upcard")
    try:
        if "knocker_deadwood_count" in data:  # R25
            k, d = data["knocker_deadwood_count"], data["defender_deadwood_count"]
            big_gin = bool(data.get("big_gin", False))
            score = score_preset_counts(rules, k, d, up_card=upcard, big_gin=big_gin)
            steps = explain_preset_counts(rules, score, k, d, up_card=upcard)
            base = count_ruling_dict(Score(score.outcome, score.scorer, score.base_points), k, d)
            given: dict[str, Any] = {"knocker": knocker_name, "knocker_deadwood_count": k, "defender_deadwood_count": d}
            if big_gin:
                given["big_gin"] = True
            if upcard is not None:
                given["upcard"] = str(upcard)
            limit = rules.terms(upcard).knock_limit
            return PresetJudged(
                "counts", knocker, score, _preset_ruling(base, knocker, score, limit, upcard, steps), given
            )
        if "big_gin" in data:
            raise HandError(
                "by cards, a big gin gives the knocker's 11 cards and no discard", field="big_gin", rule="R32"
            )
        knocker_hand, defender_hand = data["knocker_hand"], data["defender_hand"]
        layoffs = defender_hand.get("layoffs")
        judged = judge_preset_hand(
            rules,
            knocker_hand["cards"],
            defender_hand["cards"],
            up_card=upcard,
            knocker_melds=knocker_hand.get("melds"),
            defender_melds=defender_hand.get("melds"),
            layoffs=None if layoffs is None else [Layoff(lo["card"], lo["meld"]) for lo in layoffs],
            discard=knocker_hand.get("discard"),
        )
    except HandError as err:
        if err.field == "up_card":
            err.field = "upcard"
        raise
    given = {
        "knocker": knocker_name,
        "knocker_hand": knocker_hand_dict(knocker_hand),
        "defender_hand": defender_hand_dict(defender_hand),
    }
    if upcard is not None:
        given["upcard"] = str(upcard)
    ruling = _preset_ruling(
        ruling_dict(judged.ruling), knocker, judged.score, judged.terms.knock_limit, upcard, explain_preset_hand(judged)
    )
    return PresetJudged("cards", knocker, judged.score, ruling, given)


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
    games = []
    given = doc["games"]
    reader = GameReader()
    version = doc["format_version"]
    for i in range(len(given)):
        field = f"games[{i}]"
        text, given[i] = given[i], None  # let each game's document go once it is judged
        # A game read as fast as it comes (msgspec); anything wrong with it is
        # read again the way that names it (a number's path) and loaded again.
        decoded = reader.decoded(text)
        if decoded is not None:
            try:
                games.append(judge_game(_game_shape(decoded, version).load(decoded), decoded, known, field))
                continue
            except (ValidationError, Problem, RefereeError):
                pass
        del decoded
        try:
            raw = reader.read(text, field)
        except (NumberOutOfRangeError, NotUtf8Error):
            raise
        except ValueError:
            raise Problem(400, "the request body is not valid JSON", type=MALFORMED_JSON) from None
        try:
            game = _game_shape(raw, version).load(raw)
        except ValidationError as err:
            raise refused(err.messages, field) from None
        games.append(judge_game(game, raw, known, field))
    players = [(p["id"], p["name"]) for p in doc["players"]]
    return ImportedLeague(doc["league"]["name"], players, games, doc["league"]["visibility"])


def _game_shape(game: Any, version: int) -> Shape:
    """The shape a document's game (as given) is read by: by the document's
    format, and from format 3 by the preset its rules name (R27, R36)."""
    if version >= 3 and is_two_player_game(game):
        return CUTTHROAT_GAME if is_cutthroat_game(game) else TWO_PLAYER_GAME
    return GAME_SHAPES[version]


def _refuted(err: HistoryError, field: str) -> Problem:
    """The 422 of a record the referee refutes (``referee.history``), at ``field`` (the game's path)."""
    err.at(field)
    members: dict[str, Any] = {}
    if err.rule.startswith("R"):
        members["rule"] = err.rule
    if "value" in err.evidence:
        members["offending"] = err.evidence["value"]
    if "hands" in err.evidence:
        members["hands"] = err.evidence["hands"]
    return invalid(err.field or field, err.message, **members)


def judge_game(game: dict[str, Any], given: dict[str, Any], known: set[int], field: str) -> ImportedGame:
    """One loaded game of an import; ``given`` is the game as given (its
    revisions and disputes are compared as given). Its record, when the
    document has one (format 2), is judged after its hands
    (:func:`judge_revisions`, :func:`judge_disputes`)."""
    try:
        return _judge_game(game, given, known, field)
    except HistoryError as err:
        raise _refuted(err, field) from None
    except RefereeError as err:
        raise err.at(field) from None


def _judge_game(game: dict[str, Any], given: dict[str, Any], known: set[int], field: str) -> ImportedGame:
    """:func:`judge_game`, its referee's errors with paths into the game. A
    game of a two-player preset (R27, R28) is judged by its preset's rules
    and folded as a two-player game, a cutthroat game (R36) as one of three
    whose every hand is a two-player hand; every check is the same."""
    players: list[int] = game["players"]
    rules: Rules | PresetRules = game["rules"] if isinstance(game["rules"], PresetRules) else Rules(**game["rules"])
    cutthroat = isinstance(rules, PresetRules) and rules.preset is Preset.CUTTHROAT
    verify_players(players, known, two_player=isinstance(rules, PresetRules) and not cutthroat, cutthroat=cutthroat)
    first = seat(players, game["first_roles"], "first_roles", cutthroat=cutthroat)
    verify_cut(players, game["cut"], first)
    state = start(rules, first)
    log: list[tuple[Record, int | None]] = []
    running: list[dict[PlayerId, int]] = []
    hands: list[ImportedHand] = []
    given_hands = game["hands"]
    total = len(given_hands)
    after_correction = False
    for i, hand in enumerate(given_hands):
        seating = verify_next_hand(
            rules, players, state, hand["number"], hand["seating"], total=total, after_correction=after_correction
        )
        after_correction = hand["corrected_at"] is not None
        hfield = f"{field}.hands[{i}]"
        try:
            judged = judge_any(hand["input"], rules)
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
        deadwood = judged.ruling["knocker"]["deadwood_count"] if judged.mode == "cards" else None
        record = _record(seating, judged.knocker, judged.score, deadwood)
        state = advance_any(rules, state, record)
        log.append((record, deadwood))
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
    verify_result(rules, state, game["status"], game["winner"], game["scores"])
    state = replace(state, running=tuple(running))
    revisions, disputes = None, []
    if "revisions" in game:
        revisions, versions = judge_revisions(
            game["revisions"], given["revisions"], hands, rules, players, first, field
        )
        disputes = judge_disputes(game["disputes"], given["disputes"], versions, rules, field)
    cut = game["cut"]
    if isinstance(state, TwoPlayerState | HollywoodState | CutthroatState):
        two = [(cast(TwoPlayerHand | CutthroatHand, record), deadwood) for record, deadwood in log]
        figures = two_player_game_figures(two, players, state.winner, finished=state.finished)
    else:
        figures = game_figures([cast(HandRecord, record) for record, _ in log], players, state.winner)
    return ImportedGame(
        game["played_at"],
        players,
        rules,
        None if cut is None else {int(k): str(c) for k, c in cut.items()},
        first,
        hands,
        state,
        {int(p): f for p, f in figures.items()},
        revisions,
        disputes,
    )


def judge_any(data: dict[str, Any], rules: Rules | PresetRules) -> Judged | PresetJudged:
    """A loaded hand judged under its game's rules: the three-handed game's
    (:func:`judge_input`) or a two-player preset's (:func:`judge_preset_input`)."""
    if isinstance(rules, PresetRules):
        return judge_preset_input(data, rules)
    return judge_input(data, rules)


def _record(seating: Seats, knocker: Role | Seat | None, score: Score | HandScore, deadwood: int | None) -> Record:
    """A judged hand as its game's fold replays it."""
    if isinstance(seating, CutthroatSeating):  # R36: a two-player hand, its sitter sat out
        assert knocker is None or isinstance(knocker, Seat)
        assert isinstance(score, HandScore)
        return CutthroatHand(seating, knocker, score)
    if isinstance(seating, Seating):
        assert knocker is None or isinstance(knocker, Seat)
        assert isinstance(score, HandScore)
        return TwoPlayerHand(seating, knocker, score)
    assert knocker is None or isinstance(knocker, Role)
    assert isinstance(score, Score)
    return HandRecord(seating, knocker, score, deadwood)


@dataclass(frozen=True, slots=True)
class _Known:
    """An input given as ``raw`` that the referee has judged already."""

    raw: dict[str, Any]
    mode: str
    knocker: str | None
    input: dict[str, Any]  # canonical
    ruling: dict[str, Any]


def _judged_again(raw: dict[str, Any], known: list[_Known], rules: Rules | PresetRules, field: str) -> _Known:
    """The referee's ruling of an input, loaded (``HandInSchema``) and judged;
    one given exactly as an input loaded and judged already (in ``known``,
    which this adds to) is neither loaded nor judged twice: the same input
    always gives the same ruling (R24). ``field`` is the path in the game."""
    for k in known:
        if _identical(raw, k.raw):
            return k
    try:
        loaded = HAND_INPUT.load(raw)
    except ValidationError as err:
        raise refused(err.messages, f"{field}.input") from None
    try:
        judged = judge_any(loaded, rules)
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


def _version_record(seating: Seats, judged: _Known) -> Record:
    ruling = judged.ruling
    scorer = ruling["scorer"]
    if isinstance(seating, CutthroatSeating):  # R36: a two-player hand while the third sits out
        return CutthroatHand(seating, None if judged.knocker is None else Seat(judged.knocker), ruled_score(ruling))
    if isinstance(seating, Seating):  # R28: a two-player hand, its boxes and big gin as ruled
        return TwoPlayerHand(seating, None if judged.knocker is None else Seat(judged.knocker), ruled_score(ruling))
    return HandRecord(
        seating,
        None if judged.knocker is None else Role(judged.knocker),
        Score(Outcome(ruling["outcome"]), None if scorer is None else Side(scorer), ruling["points"]),
        ruling["knocker"]["deadwood_count"] if judged.mode == "cards" else None,
    )


def judge_revisions(
    given: list[dict[str, Any]],
    raw: list[dict[str, Any]],
    hands: list[ImportedHand],
    rules: Rules | PresetRules,
    players: list[int],
    first: Seats,
    field: str,
) -> tuple[list[ImportedRevision], list[Version]]:
    """A game's revisions (R26: the record stands), each version's ruling
    the referee's on its input, and the record as the referee judges it
    (``referee.history.verify_revisions``): listed by hand number then
    revision, a hand keeping its seating through its corrections, the hands
    that stand its last versions, made in the order of its history with the
    scores that history gives. The referee's errors name paths inside the
    game (``revisions[3].seating``), which :func:`judge_game` prefixes; the
    problems raised here name whole paths (``field`` is the game's)."""
    out: list[ImportedRevision] = []
    versions: list[Version] = []
    # Each hand that stands was judged already: a version with its (canonical) input is not judged again.
    known: dict[int, list[_Known]] = {
        h.number: [_Known(h.input, h.mode, None if h.knocker is None else h.knocker.value, h.input, h.ruling)]
        for h in hands
    }
    listing = Listing()
    for j, (rev, rraw) in enumerate(zip(given, raw, strict=True)):
        number = rev["number"]
        listing = list_version(
            listing,
            number,
            rev["revision"],
            rev["action"],
            rev["seating"],
            players,
            cutthroat=isinstance(first, CutthroatSeating),
        )
        roles = listing.seating
        assert roles is not None
        rfield = f"{field}.revisions[{j}]"
        judged = _judged_again(rev["input"], known.setdefault(number, []), rules, rfield)
        _verify_judged(rev, rraw, judged, rfield)
        scores = _player_scores(rev["scores"], players, f"{rfield}.scores")
        game_scores = _player_scores(rev["game_scores"], players, f"{rfield}.game_scores")
        # the given ruling's equal, shared with the hand's where it is the same
        out.append(
            ImportedRevision(
                number,
                rev["revision"],
                rev["action"],
                judged.mode,
                roles,
                judged.knocker,
                judged.input,
                judged.ruling,
                scores,
                game_scores,
                rev["made_at"],
                rev["reason"],
                rev["dispute"],
            )
        )
        try:
            record = _version_record(roles, judged)
        except RefereeError as err:
            raise err.at(rfield) from None
        versions.append(
            Version(
                number,
                rev["revision"],
                rev["action"],
                roles,
                record,
                scores,
                game_scores,
                rev["made_at"],
                judged.input,
                judged.ruling,
                rev["dispute"],
            )
        )
    verify_standing(versions, [Standing(h.seating, h.input, h.ruling) for h in hands], _identical)
    verify_history(versions, rules, first)
    return out, versions


def judge_disputes(
    given: list[dict[str, Any]],
    raw: list[dict[str, Any]],
    versions: list[Version],
    rules: Rules | PresetRules,
    field: str,
) -> list[ImportedDispute]:
    """A game's disputes: each of a hand number the game has, its ruling the
    referee's on its input, ``recorded`` the result of a version of that hand
    and ``differences`` how the two differ; an open one unresolved; each
    upheld one named by exactly one correction of its hand, with its input
    and ruling, and no revision naming another (``referee.history``)."""
    results = results_of(versions)
    out: list[ImportedDispute] = []
    ids: set[int] = set()
    for k, (d, draw) in enumerate(zip(given, raw, strict=True)):
        dfield = f"{field}.disputes[{k}]"
        number = d["number"]
        verify_disputed(k, d["id"], number, ids, results)
        ids.add(d["id"])
        judged = _judged_again(d["input"], [], rules, dfield)
        _verify_judged(d, draw, judged, dfield)
        verify_recorded(k, number, draw["recorded"], results, _identical)
        differences = compare(draw["recorded"], judged.ruling)
        if not _identical(draw["differences"], differences):
            raise invalid(
                f"{dfield}.differences",
                f"the recorded and the disputed rulings differ by {_shown(differences)}",
                offending=draw["differences"],
            )
        verify_resolution(k, d["status"], draw["resolved_at"], d["reason"])
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
    verify_named(versions, [Dispute(d.id, d.number, d.status, d.input, d.ruling) for d in out], _identical)
    return out


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


#: the member-by-member comparison :func:`_identical` stands for
_same_members = same_json


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
