"""The collector's setting in bgrules' own processes (bgrules/core/gcpolicy.py): the CLI and the local
runner's workers take :data:`RUNNERS` where the thresholds are Python's default, never a caller's own
setting, never on import; ``BGRULES_GC=python`` keeps Python's; another value is one line naming it. (The
Ray workers' setting: tests/integrations/test_ray.py.)"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bgrules.core import gcpolicy
from bgrules.core.errors import InputError
from bgrules.core.jobs import Task, run_tasks


@pytest.fixture
def default_thresholds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test runs with Python's default thresholds and no BGRULES_GC; whatever it sets is undone."""
    before = gc.get_threshold()
    monkeypatch.delenv(gcpolicy.ENV, raising=False)
    gc.set_threshold(*gcpolicy.PYTHON_DEFAULT)
    yield
    gc.set_threshold(*before)


def test_python_default_is_what_a_new_interpreter_has() -> None:
    code = "import gc; print(gc.get_threshold())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    if sys.version_info[:2] in ((3, 11), (3, 12)):
        assert out.strip() == str(gcpolicy.PYTHON_DEFAULT)


def test_for_runners_sets_them_over_python_default_only(default_thresholds: None) -> None:
    assert gcpolicy.for_runners() is True
    assert gc.get_threshold() == gcpolicy.RUNNERS
    gc.set_threshold(1000, 5, 5)  # a caller's own setting is kept
    assert gcpolicy.for_runners() is False
    assert gc.get_threshold() == (1000, 5, 5)


def test_bgrules_gc_python_keeps_python_default(default_thresholds: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(gcpolicy.ENV, " Python ")
    assert gcpolicy.for_runners() is False
    assert gc.get_threshold() == gcpolicy.PYTHON_DEFAULT
    monkeypatch.setenv(gcpolicy.ENV, "RUNNERS")
    assert gcpolicy.for_runners() is True


def test_another_value_names_the_variable(default_thresholds: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(gcpolicy.ENV, "off")
    with pytest.raises(InputError) as err:
        gcpolicy.for_runners()
    assert str(err.value) == "BGRULES_GC: 'off' is not one of runners, python"
    assert gc.get_threshold() == gcpolicy.PYTHON_DEFAULT


def _cli_thresholds(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import gc\n"
        "import bgrules, bgrules.runners.campaign, bgrules.core.playout\n"
        "print(gc.get_threshold())  # importing changes nothing\n"
        "from bgrules.cli import main\n"
        "try:\n"
        "    main(['games'], standalone_mode=False)\n"
        "finally:\n"
        "    print(gc.get_threshold())\n"
    )
    full = {k: v for k, v in os.environ.items() if k != gcpolicy.ENV} | env
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)


def test_the_cli_takes_it_and_imports_do_not() -> None:
    done = _cli_thresholds({})
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0] == str(gcpolicy.PYTHON_DEFAULT) and lines[-1] == str(gcpolicy.RUNNERS)
    done = _cli_thresholds({gcpolicy.ENV: "python"})
    assert done.stdout.strip().splitlines()[-1] == str(gcpolicy.PYTHON_DEFAULT)


def test_the_cli_refuses_an_unknown_value_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != gcpolicy.ENV} | {gcpolicy.ENV: "off"}
    done = subprocess.run(
        [sys.executable, "-m", "bgrules", "games"], capture_output=True, text=True, env=env, timeout=120
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().splitlines() == ["error: BGRULES_GC: 'off' is not one of runners, python"]


def test_local_workers_take_it_and_the_caller_keeps_its_own(default_thresholds: None) -> None:
    tasks = [Task(f"threshold {i}", "gc:get_threshold") for i in range(3)]
    assert run_tasks(tasks, jobs=2) == [gcpolicy.RUNNERS] * 3
    assert gc.get_threshold() == gcpolicy.PYTHON_DEFAULT  # the calling program's setting is untouched
    assert run_tasks(tasks, jobs=1) == [gcpolicy.PYTHON_DEFAULT] * 3  # in the caller's process: its own
