"""Rule coverage of the test suite: with ``BGRULES_COVERAGE_FILE=PATH`` set, every rule effect and refusal
the tests cause is counted (checker ``tests``) and the coverage table is written to PATH when the run ends
(docs/coverage.md). Unset, nothing is recorded and the suite runs as before."""

from __future__ import annotations

import os

from bgrules.core import coverage


def pytest_configure(config: object) -> None:
    if os.environ.get(coverage.ENV_FILE) and not os.environ.get("PYTEST_XDIST_WORKER"):
        coverage.write_on_exit(checker="tests")
