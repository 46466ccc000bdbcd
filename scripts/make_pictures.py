"""Write the example pictures of docs/pictures.md into docs/pictures/ (or check that they are up to date).

    python scripts/make_pictures.py           # write docs/pictures/*.svg
    python scripts/make_pictures.py --check   # exit 1, naming the stale files, if any differs from what it writes

Each picture is a state of a seeded playout (``bgrules.core.playout.walk``, greedy or random agents): the seed,
the number of actions and the agents are in EXAMPLES below, so the same checkout always writes the same bytes
(tests/integrations/test_pictures.py runs the check).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"

EXAMPLES: tuple[tuple[str, str, int, int, int, str], ...] = (
    # (file name, game, players, seed, actions played before drawing, agent of every seat)
    ("mechanica.svg", "mechanica", 3, 0, 147, "greedy"),
    ("mechanica-factory.svg", "mechanica-factory", 1, 1, 20, "greedy"),
    ("botfactory.svg", "botfactory", 4, 8, 400, "random"),
)
FACTORY_NOTATION = """
advanced[BB] | DU1[P/..] .         UP0   SC0[/B.] | truck
basic[B]     | GW0       .         DG0[P/...]   . | big[BP]
hole         | .         FC0[P/.]  .     FK0      | huge[BBD]
"""
"""The lone factory of factory.svg (Mechanica's factory notation, docs/mechanica-notation.md)."""


def _state(game: Any, seed: int, actions: int, agent: str) -> Any:
    from bgrules.agents import make_agent
    from bgrules.core.playout import walk

    agents = [make_agent(agent) for _ in range(game.players)]
    state = game.initial_state()
    for _before, _action, after in walk(game, seed, max_steps=actions, agents=agents):
        state = after
    return state


def pictures() -> dict[str, str]:
    """Every example picture: file name -> SVG text."""
    from bgrules import load_game
    from bgrules.mechanica.notation import parse_factory
    from bgrules.pictures import draw, draw_factory

    out: dict[str, str] = {}
    for name, game_name, players, seed, actions, agent in EXAMPLES:
        game = load_game(game_name, players=players)
        out[name] = draw(game, _state(game, seed, actions, agent))
    out["factory.svg"] = draw_factory(parse_factory(FACTORY_NOTATION))
    return out


def stale(folder: Path = OUT, make: Callable[[], dict[str, str]] = pictures) -> list[str]:
    """The example files in ``folder`` that differ from what :func:`pictures` writes (or are missing)."""
    found = []
    for name, svg in make().items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != svg:
            found.append(name)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/pictures/ is up to date")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        for name in bad:
            print(f"docs/pictures/{name} is out of date: run python scripts/make_pictures.py", file=sys.stderr)
        return 1 if bad else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        (OUT / name).write_text(svg, encoding="utf-8")
        print(f"wrote docs/pictures/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
