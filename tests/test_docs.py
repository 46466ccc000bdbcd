"""The docs stay tied to the code: every rule ID the code enforces has a documented entry, every quoted
seed line is in the seed, and the README's quick start runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT.parent / "shared" / "seeds" / "003_56950de1fac7652e.txt"
RULES_DOC = ROOT / "docs" / "rules" / "mechanica.md"
ID = re.compile(r"MC-[A-Z]+(?:-[A-Z]+)*")


def code_rule_ids() -> set[str]:
    ids: set[str] = set()
    for path in (ROOT / "bgrules").rglob("*.py"):
        ids |= set(ID.findall(path.read_text(encoding="utf-8")))
    return {i for i in ids if not i.startswith(("MC-INV-", "MC-Q-", "MC-PROOF-"))}


def documented_ids() -> set[str]:
    text = RULES_DOC.read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,4} (MC-[A-Z]+(?:-[A-Z]+)*)\b", text, flags=re.M))


def test_every_enforced_rule_has_a_doc_entry() -> None:
    missing = sorted(code_rule_ids() - documented_ids())
    assert not missing, f"rule IDs used in bgrules/ without an entry in {RULES_DOC.name}: {missing}"


def test_every_spec_cites_documented_rules() -> None:
    import tomllib

    documented = documented_ids()
    for path in (ROOT / "specs").glob("*.toml"):
        for spec in tomllib.loads(path.read_text(encoding="utf-8")).get("spec", []):
            unknown = [r for r in spec["rules"] if r not in documented]
            assert not unknown, f"{spec['id']} cites undocumented rules {unknown}"


@pytest.mark.skipif(not SEED.exists(), reason="the seeds are outside the repository")
def test_quoted_seed_lines_are_verbatim() -> None:
    seed = re.sub(r"\s+", "", SEED.read_text(encoding="utf-8"))
    quotes = []
    for line in RULES_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line.split("|")[1]):
            cell = line.split("|")[1].strip()
            if cell != "原文":
                quotes.append(cell)
    assert len(quotes) > 20
    for quote in quotes:
        compact = re.sub(r"\s+", "", quote.replace("…", ""))
        parts = [p for p in compact.split("...") if p]
        for part in parts:
            assert part in seed, f"not in the seed: {quote}"


def test_readme_quick_start_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, flags=re.S)
    assert block is not None
    exec(compile(block.group(1), "README quick start", "exec"), {})
    out = capsys.readouterr().out
    assert "MC-DAY" in out and "Route(" in out
