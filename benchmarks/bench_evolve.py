"""``bgrules.core.fastevolve.evolve`` against ``attrs.evolve`` on real states, in one process, interleaved.

    python benchmarks/bench_evolve.py [--rounds 5] [--n 20000]

For a Bot Factory and a Mechanica state (one step into a seeded game) it times ``n`` copies changing one
field, and ``n`` changing three, with each function in turn, ``rounds`` times, and prints the median
microseconds per copy: ``attrs.evolve``; fastevolve's generated copy through the class's ``__init__`` (its
path for classes with validators or converters, and its only path before the slot copy); its slot copy that
skips ``__init__`` setting each slot through the slot descriptor's ``__set__`` (0.7.0's path, now the
fallback); its slot copy by plain stores into the class's builder (the path for these two states); and
``fastevolve.evolve`` itself (the slot copy plus the look-up of the generated function). Each is called as
``fn(state, changes)``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import attrs

from bgrules.core import fastevolve
from bgrules.core.fastevolve import evolve
from bgrules.core.playout import walk
from bgrules.core.registry import load_game


def state_of(name: str) -> Any:
    game = load_game(name, players=4)
    for _before, _action, after in walk(game, 0, max_steps=40):
        state = after
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=20_000)
    args = parser.parse_args()
    cases = {
        "botfactory": (state_of("botfactory"), ("index",), ("index", "marker", "sandra")),
        "mechanica": (state_of("mechanica"), ("current",), ("current", "stock", "recycler")),
    }
    for name, (state, one, three) in cases.items():
        for fields in (one, three):
            changes = {f: getattr(state, f) for f in fields}
            via_init = fastevolve._maker_init(type(state), fields)
            by_descriptor = fastevolve._maker(type(state), fields, use_builder=False)
            slot_copy = fastevolve._maker(type(state), fields)
            expected = attrs.evolve(state, **changes)
            assert via_init(state, changes) == by_descriptor(state, changes) == slot_copy(state, changes) == expected
            funcs: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
                "attrs.evolve": lambda s, ch: attrs.evolve(s, **ch),
                "via __init__": via_init,
                "slot copy by descriptors": by_descriptor,
                "slot copy": slot_copy,
                "fastevolve.evolve": lambda s, ch: evolve(s, **ch),
            }
            times: dict[str, list[float]] = {k: [] for k in funcs}
            for _ in range(args.rounds):
                for label, fn in funcs.items():
                    start = time.process_time()
                    for _ in range(args.n):
                        fn(state, changes)
                    times[label].append((time.process_time() - start) / args.n * 1e6)
            figures = ", ".join(f"{k} {statistics.median(v):.2f} us" for k, v in times.items())
            print(f"{name} ({len(attrs.fields(type(state)))} fields), {len(fields)} changed: {figures}")


if __name__ == "__main__":
    main()
