"""mkdocs hook (mkdocs.yml ``hooks:``): what the docs site makes at build time rather than keeps in git.

- ``examples.md``, a generated page: a picture of a state of every game (``bgrules.pictures.draw``) and a small
  example ``bgrules verify --html`` report (one question with an expected counterexample, whose trace steps),
  both written into the built site beside the page. Either part is left out, and the page says so, when this
  checkout does not have it yet (``bgrules.pictures`` with ``draw``; ``bgrules.core.html`` with ``verify --html``);
  when it is there but fails, the build fails.
- The nav lists the pages other parts of the project write (pictures, the HTML report, the integrations);
  one not written yet is left out of the nav instead of failing the strict build.

Nothing is written into the repository: the generated files live in memory until mkdocs writes the site.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

OPTIONAL_PAGES = ("pictures.md", "html.md", "integrations.md")
"""Pages in the nav that other parts of the project write; left out of the nav while missing."""

PAGE = "examples.md"
FOLDER = "examples"
PICTURE_SEED = 7
"""Each game's picture shows the state halfway through the random playout of this seed."""
REPORT_ONLY = "MC-Q-COLLISIONS-HAPPEN"
"""The example report's ``--only`` selection: the sandbox question whose expected counterexample is a trace."""


def _prune(items: list[Any], docs: Path) -> list[Any]:
    """The nav without the optional pages that are not in ``docs``, nor sections left empty by that."""
    kept: list[Any] = []
    for item in items:
        if isinstance(item, str):
            if item in OPTIONAL_PAGES and not (docs / item).is_file():
                continue
            kept.append(item)
        elif isinstance(item, dict):
            entry = {}
            for title, value in item.items():
                if isinstance(value, list):
                    value = _prune(value, docs)
                    if not value:
                        continue
                elif isinstance(value, str) and value in OPTIONAL_PAGES and not (docs / value).is_file():
                    continue
                entry[title] = value
            if entry:
                kept.append(entry)
        else:
            kept.append(item)
    return kept


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if config.nav is not None:
        config.nav = _prune(list(config.nav), Path(config.docs_dir))
    return config


def _pictures() -> list[tuple[str, str, str, str]] | None:
    """(game name, player count, the action it is drawn after, SVG text) for every game, or None without
    ``bgrules.pictures.draw``."""
    try:
        pictures = importlib.import_module("bgrules.pictures")
    except ImportError:
        return None
    draw = getattr(pictures, "draw", None)
    if draw is None:
        return None
    from bgrules import game_names, load_game
    from bgrules.core.playout import walk

    drawn = []
    for name in game_names():
        game = load_game(name)
        states = [game.initial_state(), *(after for _before, _action, after in walk(game, PICTURE_SEED))]
        state = states[(len(states) - 1) // 2]
        try:
            svg = draw(game, state)
        except Exception as exc:
            raise PluginError(f"bgrules.pictures.draw failed on a {name} state: {exc}") from exc
        drawn.append((name, str(game.players), str((len(states) - 1) // 2), str(svg)))
    return drawn


def _report_available() -> bool:
    """``bgrules.core.html`` exists and ``bgrules verify`` has its ``--html`` option."""
    try:
        importlib.import_module("bgrules.core.html")
    except ImportError:
        return False
    from bgrules.cli import verify

    return any("--html" in getattr(param, "opts", ()) for param in verify.params)


def _report(root: Path) -> dict[str, bytes] | None:
    """The files of the example ``bgrules verify --html`` report by their path in it, or None without it."""
    if not _report_available():
        return None
    with tempfile.TemporaryDirectory(prefix="bgrules-docs-") as tmp:
        out = Path(tmp) / "report"
        command = [sys.executable, "-m", "bgrules", "verify", "--only", REPORT_ONLY, "--jobs", "1", "--quiet"]
        done = subprocess.run(
            [*command, "--html", str(out)], cwd=root, capture_output=True, text=True, timeout=300, check=False
        )
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
            raise PluginError(f"the example report failed (exit {done.returncode}): {' '.join(tail)}")
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    if "index.html" not in files:
        raise PluginError("the example report has no index.html")
    return files


def _page(pictures: list[tuple[str, str, str, str]] | None, report: dict[str, bytes] | None, explained: bool) -> str:
    lines = [
        "# Examples",
        "",
        "Made when this site was built, by the code it documents: a picture of one state of every game and",
        "a small verify report.",
        "",
        "## Pictures",
        "",
    ]
    if pictures is None:
        lines += ["The pictures (`bgrules.pictures`) are not in this build.", ""]
    else:
        lines += [
            "Each game as `bgrules.load_game(name)` sets it up, halfway through the random playout of",
            f"seed {PICTURE_SEED} (`bgrules.core.playout.walk`; Bot Factory's cut at the runners' round cap),",
            "drawn by `bgrules.pictures.draw(game, state)`. `bgrules render STATE.json --svg OUT.svg` draws",
            "any state." + (" [Pictures](pictures.md) says what each picture shows." if explained else ""),
            "",
        ]
        for name, players, step, _svg in pictures:
            lines += [
                f"### {name}",
                "",
                f"{players} player(s), after action {step}. [The SVG file]({FOLDER}/{name}.svg)",
                "",
                f"![A {name} state]({FOLDER}/{name}.svg)",
                "",
            ]
    lines += ["## A verify report", ""]
    if report is None:
        lines += ["The HTML report (`bgrules verify --html`) is not in this build.", ""]
    else:
        lines += [
            f"`bgrules verify --only {REPORT_ONLY} --html DIR`: the sandbox's question whether two bots can",
            "collide, expected to find a counterexample; the report links the counterexample's trace, which",
            "steps with the arrow keys or the buttons.",
            "",
            f"[Open the example report]({FOLDER}/report/index.html)",
            "",
        ]
        traces = sorted(path for path in report if path.startswith("traces/") and path.endswith(".html"))
        lines += [f"- [Step through the counterexample {path[7:-5]}]({FOLDER}/report/{path})" for path in traces]
        lines += [""]
    return "\n".join(lines)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = Path(config.config_file_path).resolve().parent
    pictures = _pictures()
    report = _report(root)
    explained = (Path(config.docs_dir) / "pictures.md").is_file()
    files.append(File.generated(config, PAGE, content=_page(pictures, report, explained)))
    for name, _players, _step, svg in pictures or ():
        files.append(File.generated(config, f"{FOLDER}/{name}.svg", content=svg))
    for path, data in (report or {}).items():
        files.append(File.generated(config, f"{FOLDER}/report/{path}", content=data))
    return files
