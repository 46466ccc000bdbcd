"""The docs stay tied to the code: every rule ID the code enforces has a documented entry, every quoted
seed line is in the seed, and the README's quick start runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
# game prefix -> (rules doc, seed file)
GAMES = {
    "MC": (ROOT / "docs" / "rules" / "mechanica.md", SEEDS / "003_56950de1fac7652e.txt"),
    "BF": (ROOT / "docs" / "rules" / "botfactory.md", SEEDS / "000_a7a09e9bc70ab148.txt"),
}
NOT_RULES = ("-INV-", "-Q-", "-PROOF-", "-GAME-")


def code_rule_ids(prefix: str) -> set[str]:
    pattern = re.compile(prefix + r"-[A-Z]+(?:-[A-Z]+)*")
    ids: set[str] = set()
    for path in (ROOT / "bgrules").rglob("*.py"):
        ids |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return {i for i in ids if not any(marker in i for marker in NOT_RULES)}


def documented_ids(prefix: str) -> set[str]:
    text = GAMES[prefix][0].read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,4} (" + prefix + r"-[A-Z]+(?:-[A-Z]+)*)\b", text, flags=re.M))


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_enforced_rule_has_a_doc_entry(prefix: str) -> None:
    missing = sorted(code_rule_ids(prefix) - documented_ids(prefix))
    assert code_rule_ids(prefix), f"no {prefix} rule IDs found in the code"
    assert not missing, f"rule IDs used in bgrules/ without an entry in {GAMES[prefix][0].name}: {missing}"


def test_every_spec_cites_documented_rules() -> None:
    import tomllib

    documented = documented_ids("MC") | documented_ids("BF")
    for path in (ROOT / "specs").glob("*.toml"):
        for spec in tomllib.loads(path.read_text(encoding="utf-8")).get("spec", []):
            unknown = [r for r in spec["rules"] if r not in documented]
            assert not unknown, f"{spec['id']} cites undocumented rules {unknown}"


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_quoted_seed_lines_are_verbatim(prefix: str) -> None:
    doc, seed_path = GAMES[prefix]
    if not seed_path.exists():
        pytest.skip("the seeds are outside the repository")
    seed = re.sub(r"\s+", "", seed_path.read_text(encoding="utf-8"))
    quotes = []
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line.split("|")[1]):
            cell = line.split("|")[1].strip()
            if cell not in ("原文", "原文 (Chinese)"):
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
