"""The docs site (issue 11 item 6): ``mkdocs build --strict`` succeeds outside the repository, with the API
reference of ``load_game`` generated from its docstring, the CLI reference of every command and option from
click, every docs page in the nav, and the examples page's pictures and report made at build time."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))


def test_the_api_reference_documents_load_game(site: Path) -> None:
    page = site / "reference" / "bgrules.html"
    source = page.read_text(encoding="utf-8")
    assert 'id="bgrules.load_game"' in source, "no heading for bgrules.load_game"
    text = " ".join(_text(page).split())
    # the docstring and the signature, as the code has them today
    import bgrules

    doc = bgrules.load_game.__doc__
    assert doc is not None
    first = " ".join(doc.replace("``", "").split())[:40]
    assert first in text, f"load_game's docstring is not on the page: {first!r}"
    assert "load_game(name:str,players:int|None=None," in "".join(text.split()), "no signature of load_game"


def test_the_cli_reference_documents_verify_and_its_options(site: Path) -> None:
    from bgrules.cli import main

    page = site / "reference" / "cli.html"
    assert 'id="bgrules-verify"' in page.read_text(encoding="utf-8"), "no section for bgrules verify"
    text = _text(page)
    for name, command in main.commands.items():  # type: ignore[attr-defined]
        assert f"bgrules {name}" in text, f"the CLI reference misses bgrules {name}"
        for param in command.params:
            for opt in getattr(param, "opts", ()):
                if opt.startswith("--"):
                    assert opt in text, f"the CLI reference misses bgrules {name} {opt}"


def test_every_docs_page_is_built_and_in_the_nav(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    for md in sorted((ROOT / "docs").rglob("*.md")):
        rel = md.relative_to(ROOT / "docs").with_suffix(".html").as_posix()
        assert (site / rel).is_file(), f"docs/{md.relative_to(ROOT / 'docs')} was not built"
        assert f'href="{rel}"' in index, f"{rel} is not in the nav"


def test_the_examples_page_shows_a_picture_of_every_game_and_an_example_report(site: Path) -> None:
    import bgrules

    page = (site / "examples.html").read_text(encoding="utf-8")
    for name in bgrules.game_names():
        svg = site / "examples" / f"{name}.svg"
        assert svg.is_file(), f"no picture of {name}"
        assert ET.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg"), f"{name}: not SVG"
        assert f'src="examples/{name}.svg"' in page
    report = site / "examples" / "report" / "index.html"
    assert report.is_file(), "no example report"
    assert 'href="examples/report/index.html"' in page
    source = report.read_text(encoding="utf-8")
    assert "MC-Q-COLLISIONS-HAPPEN" in source
    links = [h for h in re.findall(r'href="([^"#]+)', source) if "://" not in h]
    traces = [link for link in links if link.startswith("traces/")]
    assert traces, "the report links no counterexample trace"
    for link in links:
        assert (report.parent / link).is_file(), f"the example report links a missing {link}"
    for link in traces:
        assert f'href="examples/report/{link}"' in page, f"the examples page does not link {link}"


def test_the_docstrings_roles_become_code_and_links(site: Path) -> None:
    """The docstrings' reST roles (``:class:`X```) are not printed as they are: each is its target in code,
    linked to the target's entry where the reference has one (docs/hooks/griffe_roles.py)."""
    pages = sorted((site / "reference").glob("*.html"))
    for page in pages:
        text = _text(page)
        # Markdown would print :class:`X` as ":class:" and X in code: ":class: X" once the tags are gone
        raw = re.search(r":(?:class|func|meth|mod|data|attr|obj|exc|const):(?=[\s`])", text)
        assert raw is None, f"a raw reST role on {page.name}: {text[raw.start() : raw.start() + 60]!r}"
    errors = (site / "reference" / "bgrules.html").read_text(encoding="utf-8")
    # IllegalAction's docstring names :func:`bgrules.core.coverage.refusal`, documented on the Core page
    assert 'href="core.html#bgrules.core.coverage.refusal"' in errors


@pytest.mark.parametrize("page", ["index.md", "reference/bgrules.md"])
def test_the_sites_own_examples_run(page: str) -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(encoding="utf-8"), flags=re.S)
    assert blocks, f"docs/{page} has no Python example"
    for block in blocks:
        exec(compile(block, f"docs/{page}", "exec"), {})


def test_every_module_of_bgrules_is_in_the_api_reference(site: Path) -> None:
    built = "".join(page.read_text(encoding="utf-8") for page in (site / "reference").glob("*.html"))
    missing = []
    for path in sorted((ROOT / "bgrules").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "defaults" in parts or any(p.startswith("_") and p != "__init__" for p in parts):
            continue
        if parts[-1] == "__init__":
            if not path.read_text(encoding="utf-8").strip():
                continue  # an empty package: nothing to show
            parts = parts[:-1]
        name = ".".join(parts)
        if name != "bgrules.cli" and f'id="{name}"' not in built:  # the CLI has its own reference
            missing.append(name)
    assert not missing, f"modules without an API reference entry: {missing}"
