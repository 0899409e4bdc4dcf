"""The cyclic garbage collector, paused while a bulk request builds its objects."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pausing = 0  # requests inside collector_paused, in this process
_was_enabled = True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off, for the whole
    process, and turn it back on (if it was) when the last such block ends.

    An import builds hundreds of thousands of dicts and lists, none of them
    in a cycle, and keeps them until it writes: each full collection walked
    all of them again, a sixth of a 40,000-hand import's CPU. Reference
    counting frees what the block drops as before; what other threads leave
    in cycles meanwhile waits for the collector's return."""
    global _pausing, _was_enabled
    with _lock:
        if _pausing == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pausing += 1
    try:
        yield
    finally:
        with _lock:
            _pausing -= 1
            if _pausing == 0 and _was_enabled:
                gc.enable()
