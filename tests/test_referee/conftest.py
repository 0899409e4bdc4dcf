"""Make the repository root importable (``referee``, ``tests.reference``,
``tests.test_referee.helpers``) however pytest is started: ``python -m pytest``
from the root, the ``pytest`` script, or xdist workers."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
