"""scripts/rule_bugs.py's hand-picked rule bugs still apply to the code: each edit's old text occurs in
its file exactly as often as the list says (a refactor that moves the text makes the bug stale, and the
script would report it instead of measuring it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bugs() -> tuple[tuple[str, str, str, str, str, int], ...]:
    spec = importlib.util.spec_from_file_location("rule_bugs", ROOT / "scripts" / "rule_bugs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BUGS  # type: ignore[no-any-return]


BUGS = _bugs()


@pytest.mark.parametrize("bug", BUGS, ids=[b[0] for b in BUGS])
def test_each_rule_bug_edits_the_current_code(bug: tuple[str, str, str, str, str, int]) -> None:
    bug_id, _what, path, old, new, times = bug
    text = (ROOT / "bgrules" / path).read_text(encoding="utf-8")
    assert text.count(old) == times, f"{bug_id}: {old!r} occurs {text.count(old)} times in {path}, not {times}"
    assert old != new


def test_the_list_has_distinct_ids_and_both_games() -> None:
    ids = [b[0] for b in BUGS]
    assert len(ids) == len(set(ids)) == 24
    assert {i.split("-")[0] for i in ids} == {"bf", "mc"}
