"""The report and a counterexample's trace page in a real headless Chromium (Debian's ``chromium``, driven
by playwright): they load without console errors or network requests, and the right arrow key and the
Next button step the trace forward (the step number and the picture change). A screenshot of each page is
kept as a test artefact (its path is printed).

``.ci/run`` installs chromium when it is missing and sets ``BGRULES_REQUIRE_BROWSER=1``: there a missing
browser FAILS the test. Elsewhere (the README's test command on a machine without a chromium) the tests are
skipped with a reason that says what to install."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bgrules.cli import main

FORK_SPLIT = """\
hole[B]  | .  .    .  . | truck
basic[P] | .  FK0  .  . | truck
hole     | .  .    .  . | truck
"""


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        why = "chromium is not installed (Debian's chromium package: apt-get install chromium; .ci/run installs it)"
        if os.environ.get("BGRULES_REQUIRE_BROWSER") == "1":
            pytest.fail(why)
        pytest.skip(why)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page with its console errors, uncaught exceptions and every request that left the file system."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def route(r: Any) -> None:
            if r.request.url.startswith("file://"):
                r.continue_()
            else:
                self.requests.append(r.request.url)
                r.abort()

        self.page.route("**/*", route)

    def shown(self) -> tuple[str, str, str]:
        """(the counter's text, the shown section's id, the shown picture's SVG)."""
        section = self.page.locator("section.step:not([hidden])")
        assert section.count() == 1
        return (
            self.page.locator("#counter").inner_text(),
            section.get_attribute("id") or "",
            section.locator(".stage").inner_html(),
        )


def screenshot(w: Watched, path: Path) -> None:
    w.page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {path}")


def test_report_and_trace_page_in_chromium(browser: Any, tmp_path: Path) -> None:
    report = tmp_path / "report"
    result = CliRunner().invoke(
        main,
        ["verify", "--only", "MC-Q-COLLISIONS-HAPPEN", "--checker", "searched", "--html", str(report), "-q"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    w = Watched(browser)
    w.page.goto((report / "index.html").as_uri())
    assert "every verdict as expected" in w.page.title()
    assert w.page.locator("table.results tr").count() == 2  # the header and the searched counterexample
    screenshot(w, tmp_path / "report.png")
    # the counterexample's link opens its stepping page
    w.page.locator("a", has_text="step through").click()
    w.page.wait_for_load_state()
    assert w.page.url.endswith("/traces/MC-Q-COLLISIONS-HAPPEN-searched.html#step-0")
    counter, section, picture = w.shown()
    assert (counter, section) == ("step 0 of 1", "step-0") and "<svg" in picture
    w.page.keyboard.press("ArrowRight")
    counter, section, after = w.shown()
    assert (counter, section) == ("step 1 of 1", "step-1") and "<svg" in after and after != picture
    assert w.page.locator("#next").is_disabled()
    screenshot(w, tmp_path / "trace.png")
    w.page.keyboard.press("Home")
    assert w.shown()[:2] == ("step 0 of 1", "step-0")
    w.page.locator("#next").click()
    assert w.shown()[:2] == ("step 1 of 1", "step-1")
    w.page.locator("#prev").click()
    assert w.shown()[:2] == ("step 0 of 1", "step-0")
    w.page.locator("#to-failure").click()  # the link to the step where the invariant fails
    w.page.wait_for_function("document.body.dataset.step === '1'")
    assert w.shown()[:2] == ("step 1 of 1", "step-1")
    assert w.errors == [] and w.requests == []


def test_a_longer_trace_steps_with_keys_and_buttons(browser: Any, tmp_path: Path) -> None:
    factory = tmp_path / "f.txt"
    factory.write_text(FORK_SPLIT)
    page = tmp_path / "collision.html"
    result = CliRunner().invoke(main, ["check", str(factory), "--html", str(page)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    w = Watched(browser)
    w.page.goto(page.as_uri())
    seen = [w.shown()]
    w.page.keyboard.press("ArrowRight")
    seen.append(w.shown())
    w.page.locator("#next").click()
    seen.append(w.shown())
    assert [s[:2] for s in seen] == [("step 0 of 2", "step-0"), ("step 1 of 2", "step-1"), ("step 2 of 2", "step-2")]
    assert len({s[2] for s in seen}) == 3  # a different picture at each step
    w.page.keyboard.press("ArrowRight")  # past the end: stays on the last step
    assert w.shown()[:2] == ("step 2 of 2", "step-2")
    w.page.keyboard.press("ArrowLeft")
    assert w.shown()[:2] == ("step 1 of 2", "step-1")
    screenshot(w, tmp_path / "collision.png")
    assert w.errors == [] and w.requests == []


def test_the_docs_site_searches_when_opened_from_disk(browser: Any, site: Path, tmp_path: Path) -> None:
    # the site as a reader opens it from a folder (file://, no server): the search box finds pages, and
    # nothing is fetched from anywhere else (the search worker's shim is part of the site)
    w = Watched(browser)
    w.page.goto((site / "index.html").as_uri())
    box = w.page.locator("input.md-search__input")
    box.click()
    box.type("collision", delay=20)  # typed, key by key, as a reader does
    w.page.wait_for_selector(".md-search-result__item", timeout=30_000)
    meta = w.page.locator(".md-search-result__meta").inner_text()
    assert re.fullmatch(r"\d+ matching documents?", meta.strip()) and not meta.startswith("0"), meta
    links = [a.get_attribute("href") or "" for a in w.page.locator(".md-search-result__link").all()]
    assert links and all(not h.startswith(("http:", "https:")) for h in links), links
    screenshot(w, tmp_path / "search.png")
    w.page.locator(".md-search-result__link").first.click()  # a result opens its page, from disk too
    w.page.wait_for_load_state()
    assert w.page.url.startswith("file://") and "collision" in w.page.content().lower()
    assert w.errors == [] and w.requests == []
