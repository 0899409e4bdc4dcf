from __future__ import annotations

import os

import pytest

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every live test starts real servers: they run in the slow tier (make test-slow, make check, CI)."""
    for item in items:
        if "test_live" in item.path.parts:
            item.add_marker(pytest.mark.slow)
