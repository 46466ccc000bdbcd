"""mkdocs hook (mkdocs.yml ``hooks:``): the pages made at build time rather than kept in git.

- ``examples.md``: a picture of a state of every game (``bgrules.pictures.draw``) and a small example
  ``bgrules verify --html`` report (one question with an expected counterexample, whose trace steps), both
  written into the built site beside the page. If either cannot be made, the build fails and says why.
- ``reference/more.md``: the API reference of every module of bgrules that no page of docs/reference
  shows, so a new module is in the reference from its first build.

Nothing is written into the repository: the generated files live in memory until mkdocs writes the site.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

PAGE = "examples.md"
FOLDER = "examples"
PICTURE_SEED = 7
"""Each game's picture shows the state halfway through the random playout of this seed."""
MORE = "reference/more.md"
NOT_IN_THE_API = ("bgrules.cli",)
"""Modules the API reference leaves out: the command line has its own reference (reference/cli.md)."""
REPORT_ONLY = "MC-Q-COLLISIONS-HAPPEN"
"""The example report's ``--only`` selection: the sandbox question whose expected counterexample is a trace."""


def _pictures() -> list[tuple[str, int, int, str]]:
    """(game name, player count, the action it is drawn after, SVG text) for every game."""
    from bgrules import game_names, load_game
    from bgrules.core.playout import walk
    from bgrules.pictures import draw

    drawn = []
    for name in game_names():
        game = load_game(name)
        states = [game.initial_state(), *(after for _before, _action, after in walk(game, PICTURE_SEED))]
        step = (len(states) - 1) // 2
        try:
            svg = draw(game, states[step])
        except Exception as exc:
            raise PluginError(f"bgrules.pictures.draw failed on a {name} state: {exc}") from exc
        drawn.append((name, game.players, step, svg))
    return drawn


def _report(root: Path) -> dict[str, bytes]:
    """The files of the example ``bgrules verify --html`` report, by their path in it."""
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


def _page(pictures: list[tuple[str, int, int, str]], report: dict[str, bytes]) -> str:
    lines = [
        "# Examples",
        "",
        "Made when this site was built, by the code it documents: a picture of one state of every game and",
        "a small verify report.",
        "",
        "## Pictures",
        "",
        "Each game as `bgrules.load_game(name)` sets it up, halfway through the random playout of",
        f"seed {PICTURE_SEED} (`bgrules.core.playout.walk`; Bot Factory's cut at the runners' round cap),",
        "drawn by `bgrules.pictures.draw(game, state)`. `bgrules render STATE.json --svg OUT.svg` draws",
        "any state; [Pictures](pictures.md) says what each picture shows.",
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
    lines += [
        "## A verify report",
        "",
        f"`bgrules verify --only {REPORT_ONLY} --html DIR`: the sandbox's question whether two bots can",
        "collide, expected to find a counterexample; the report links the counterexample's trace, which",
        "steps with the arrow keys or the buttons ([HTML report and traces](html.md)).",
        "",
        f"[Open the example report]({FOLDER}/report/index.html)",
        "",
    ]
    traces = sorted(path for path in report if path.startswith("traces/") and path.endswith(".html"))
    lines += [f"- [Step through the counterexample {path[7:-5]}]({FOLDER}/report/{path})" for path in traces]
    return "\n".join([*lines, ""])


def _modules(root: Path) -> list[str]:
    """Every public module of bgrules by its dotted name (packages with an empty ``__init__`` left out)."""
    names = []
    for path in sorted((root / "bgrules").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if "defaults" in parts or any(part.startswith("_") and part != "__init__" for part in parts):
            continue
        if parts[-1] == "__init__":
            if not path.read_text(encoding="utf-8").strip():
                continue
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def _more(docs: Path, root: Path) -> str:
    shown: set[str] = set()
    for page in sorted((docs / "reference").glob("*.md")):
        shown |= set(re.findall(r"(?m)^::: (bgrules[\w.]*)", page.read_text(encoding="utf-8")))
    rest = [name for name in _modules(root) if name not in shown and name not in NOT_IN_THE_API]
    lines = [
        "# Other modules",
        "",
        "Every module of bgrules that the pages before this one leave out: the rooms of each game's rules,",
        "the z3 encodings, the agents' evaluations, the pictures' parts. Made at each build, so a new module",
        "is here from its first build until a page of its own shows it.",
        "",
    ]
    lines += [f"::: {name}\n" for name in rest] or ["Every module is on one of the pages before this one.", ""]
    return "\n".join(lines)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    pictures = _pictures()
    root = Path(config.config_file_path).resolve().parent
    report = _report(root)
    files.append(File.generated(config, MORE, content=_more(Path(config.docs_dir), root)))
    files.append(File.generated(config, PAGE, content=_page(pictures, report)))
    for name, _players, _step, svg in pictures:
        files.append(File.generated(config, f"{FOLDER}/{name}.svg", content=svg))
    for path, data in report.items():
        files.append(File.generated(config, f"{FOLDER}/report/{path}", content=data))
    return files
