"""``bgrules diff``: the shortest action sequence whose outcome differs between two variants
(:func:`bgrules.runners.diff.find_difference`), with the seed figures each variant departs from, and its
actions as a trace per variant and one page."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules.core.figures import departures as departed
from bgrules.core.registry import load_game
from bgrules.runners import html
from bgrules.runners.trace import explain, make_trace


def departures(game_name: str, variants: tuple[Path, ...], players: int | None, options: dict[str, Any]) -> Any:
    """The seed figures each variant (A, B) departs from (bgrules.core.figures)."""

    return {
        label: departed(load_game(game_name, players=players, variant=str(v), **options))
        for label, v in zip(("A", "B"), variants, strict=True)
    }


def write_files(
    result: Any,
    game_name: str,
    variants: tuple[Path, ...],
    players: int | None,
    options: dict[str, Any],
    trace_dir: Path | None,
    html_path: Path | None,
    say: Callable[[str], None],
) -> None:
    """The difference's actions as a trace per variant (``A.json``, ``B.json``; B's last action is the one
    B refuses when the difference is about legality) and as one page with A beside B; ``say`` is told
    what was written."""

    if not result.found:
        say("no difference found: no trace or page written")
        return
    spec = f"diff ({result.kind}): {result.detail}"
    games = [load_game(game_name, players=players, variant=str(v), **options) for v in variants]
    if trace_dir is not None:
        trace_dir.mkdir(parents=True, exist_ok=True)
        for label, variant, game in zip(("A", "B"), variants, games, strict=True):
            data = make_trace(
                game_name,
                game,
                result.sequence,
                options=options,
                variant=str(variant),
                spec=spec,
                checker=f"{label}: {variant}",
                steps=explain(game, result.sequence),
            )
            (trace_dir / f"{label}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        say(f"wrote {trace_dir / 'A.json'} and {trace_dir / 'B.json'}")
    if html_path is not None:
        tracks = [
            html.track(f"{label}: {variant}", game, result.sequence)
            for label, variant, game in zip(("A", "B"), variants, games, strict=True)
        ]
        meta = [
            ("game", f"{game_name}, {result.players} player(s)"),
            ("variants", f"A = {result.variant_a}, B = {result.variant_b}"),
            ("rulings that differ", "; ".join(f"{c.field}: A {c.a}, B {c.b}" for c in result.rulings) or "none"),
            ("difference", f"after {len(result.sequence)} action(s), {result.kind}: {result.detail}"),
            ("rules cited", ", ".join(f"{c.rule_id} ({c.source})" for c in result.citations) or "none"),
        ]
        html_path.write_text(html.tracks_page(f"ruling diff of {game_name}", tracks, meta), encoding="utf-8")
        say(f"wrote {html_path}")
