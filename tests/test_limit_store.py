"""api.limit_store.MemoryStore against ``limits``' own memory store, for each
strategy: the same hits, on a clock of the test's, get the same answers and
the same window stats."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import STRATEGIES

from api.limit_store import MemoryStore

ITEMS = [parse("3 per second"), parse("2 per 2 seconds"), parse("5 per 10 seconds")]
STEPS = st.lists(
    st.tuples(
        st.sampled_from([0.0, 0.001, 0.3, 0.5, 0.999, 1.0, 1.7, 2.5, 11.0]),  # seconds before the step
        st.sampled_from(["hit", "test", "stats"]),
        st.integers(0, len(ITEMS) - 1),
        st.sampled_from(["a", "b"]),
        st.integers(1, 3),  # the hit's cost
    ),
    max_size=40,
)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@settings(max_examples=300, deadline=None)
@given(steps=STEPS)
def test_the_store_answers_every_strategy_as_limits_own_memory_store_does(
    strategy: str, steps: list[tuple[float, str, int, str, int]]
) -> None:
    clock = [1_700_000_000.25]
    real_time, real_timer = time.time, threading.Timer
    time.time = lambda: clock[0]
    threading.Timer = _NoTimer  # type: ignore[assignment,misc]  # limits' store sweeps on a timer thread
    try:
        ours, theirs = STRATEGIES[strategy](MemoryStore()), STRATEGIES[strategy](MemoryStorage())
        for advance, action, which, key, cost in steps:
            clock[0] += advance
            item = ITEMS[which]
            if action == "hit":
                assert ours.hit(item, key, cost=cost) == theirs.hit(item, key, cost=cost), (strategy, clock[0])
            elif action == "test":
                assert ours.test(item, key, cost=cost) == theirs.test(item, key, cost=cost)
            else:
                mine, other = ours.get_window_stats(item, key), theirs.get_window_stats(item, key)
                assert mine.remaining == other.remaining
                if mine.remaining < item.amount:  # a window with hits in it: when it frees a place
                    assert mine.reset_time == pytest.approx(other.reset_time)
    finally:
        time.time, threading.Timer = real_time, real_timer  # type: ignore[misc]


class _NoTimer:
    def __init__(self, *_: Any) -> None:
        pass

    def start(self) -> None:
        pass

    def is_alive(self) -> bool:
        return True


def test_a_key_keeps_no_more_of_its_moving_window_than_its_limit_and_a_sweep_drops_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1_700_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    store = MemoryStore()
    for _ in range(3):
        assert store.acquire_entry("k", 3, 1) is True
        clock[0] += 0.1
    assert store.acquire_entry("k", 3, 1) is False  # the third hit before is 0.3 s old
    assert store.get_moving_window("k", 3, 1) == (pytest.approx(1_700_000_000.0), 3)
    clock[0] += 0.75  # the first hit is past its second
    assert store.acquire_entry("k", 3, 1) is True
    assert store.get_moving_window("k", 3, 1) == (pytest.approx(1_700_000_000.1), 3)
    assert store.incr("n", 5) == 1 and store.incr("n", 5, 2) == 3 and store.decr("n") == 2
    assert len(store) == 2
    clock[0] += 10  # both past: the next hit sweeps them
    assert store.acquire_entry("m", 1, 1) is True
    assert len(store) == 1 and store.get("n") == 0 and store.get_moving_window("k", 3, 1)[1] == 0
    store.clear("m")
    assert len(store) == 0 and store.check() is True and store.reset() == 0
