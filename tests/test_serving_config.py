"""gunicorn.conf.py: what a worker does once it has built the app."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"


def test_a_worker_freezes_what_building_the_app_made() -> None:
    config = runpy.run_path(str(CONF))
    assert config["worker_class"] == "serving.ApiWorker"
    made = {"schemas": [], "spec": {}}  # stands for the app's objects, which the collector tracks
    gc.unfreeze()
    try:
        assert any(o is made for o in gc.get_objects())
        config["post_worker_init"](None)
        assert gc.get_freeze_count() > 0
        assert not any(o is made for o in gc.get_objects())  # out of every generation the collector scans
    finally:
        gc.unfreeze()
