"""Rule coverage of the test suite: with ``BGRULES_COVERAGE_FILE=PATH`` set, every rule effect and refusal
the tests cause is counted (checker ``tests``) and the coverage table is written to PATH when the run ends
(docs/coverage.md). Unset, nothing is recorded and the suite runs as before.

The docs site, built once per run for the tests that read it (``site``: tests/integrations/test_docs_site.py, and
tests/integrations/test_browser.py, which opens it from disk and searches it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bgrules.runners import coverage

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: object) -> None:
    if os.environ.get(coverage.ENV_FILE) and not os.environ.get("PYTEST_XDIST_WORKER"):
        coverage.write_on_exit(checker="tests")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` of the repository's docs into a temporary directory (the site's root)."""
    out = tmp_path_factory.mktemp("docs") / "site"
    before = _untracked()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    assert _untracked() == before, "mkdocs wrote into the repository"
    return out


def _untracked() -> set[str]:
    """Files git ignores under docs/ and site/ (where a build in the checkout would write: site/, a hook's
    __pycache__). New files that are not ignored are left out: other people write docs while this runs."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return set()
    done = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "--", "site", "docs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line[3:] for line in done.stdout.splitlines() if line.startswith("!!") or line[3:].startswith("site/")}
