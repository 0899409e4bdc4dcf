"""models.game.GameRow: a game's row as plain values, its rules and its
state made once for the row, and kept by what replaces it when they stay."""

from __future__ import annotations

from models.game import GameRow
from referee import Rules


def test_a_game_rows_rules_and_state_are_made_once_and_its_rules_kept_by_replace() -> None:
    values = {
        "rules": {"target_score": 150, "knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 10},
        "scores": {"1": 20, "2": 0, "3": 5},
        "roles": {"box": 1, "captain": 2, "sitter": 3},
        "winner": None,
        "hands_played": 2,
        "out_of_turn": [],
        "version": 3,
    }
    row = GameRow(values)
    rules, state = row.rule_options, row.state()
    assert rules == Rules(target_score=150) and row.rule_options is rules
    assert state.scores == {1: 20, 2: 0, 3: 5} and state.hands_played == 2 and row.state() is state
    later = row.replace(version=4, hands_played=3)
    assert later.rule_options is rules  # the same rules: not made again
    assert later.state().hands_played == 3  # a state of its own
    changed = row.replace(rules={**values["rules"], "target_score": 200})
    assert changed.rule_options == Rules(target_score=200)
