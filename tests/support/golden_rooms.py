"""Build or check the golden record of the rooms: ``python tests/support/golden_rooms.py --write`` rewrites the file.

tests/support/golden_traces.py fixes the actions and the final state of playouts under the old readings. This file
fixes, under the default readings and under each other choice of every ruling, what a player *sees* of the
rules along seeded playouts, which the state alone does not show:

- the rule IDs whose effect each playout applied and whose guard refused something, with their counts
  (rule coverage, counted by :func:`bgrules.core.coverage.probe`);
- the refusals themselves: at every few steps the playout offers the game actions it saw earlier that are
  not legal now, and records each refusal's rule ID and message (a digest over all of them, and the first
  message of each rule for a reader);
- the end: scores, winners and the end trigger of the final state.

It is the evidence that kills mutants of the rooms' messages and rule IDs (docs/mutation.md): a changed
message, a rule ID dropped from an effect, a refusal with another rule, all change the record.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import bgrules
from bgrules.agents import make_agent
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.playout import sample_chance
from bgrules.core.protocol import CHANCE

GOLDEN = Path(__file__).parents[1] / "data" / "golden_rooms.json"

POOL = 48
"""How many distinct actions seen earlier a playout keeps to offer again."""
PROBE_EVERY = 3
"""The playout offers the earlier actions at every third step."""
MAX_STEPS = {"botfactory": 1500, "mechanica": 1500, "mechanica-factory": 400}

BF_RULINGS: dict[str, tuple[Any, ...]] = {
    "unpaid_share": ("additional_only",),
    "last_space_toll": ("combined",),
    "project_clear_out": ("bottom_space",),
    "reservation_tokens": ("one_more", "whole_cost"),
    "additional_actions": ("own_turn",),
    "opening_window": ("none",),
    "paid_sharer": ("own_turn",),
}
BF_PREVIOUS: dict[str, Any] = {"opening_window": "none", "paid_sharer": "own_turn"}
"""The default readings before issue 21 (no window after the moves; a player on Sandra's board offered no
window): the record kept for the default configs of that time, under these switches, so the old games are
seen to play on unchanged."""
MC_RULINGS: dict[str, tuple[Any, ...]] = {
    "off_floor": ("forbid",),
    "loop": ("forbid",),
    "jigsaw": ("strict",),
    "flight": ("both_ways",),
    "fabricator_over_fabricator": (True,),
    "extras_4p": ("unused",),
    "blueprint_turn": ("completed",),
    "tie_break": ("wallet",),
    "shop_recycle": ("none",),
    "anytime": ("steps_1_3", "every_step"),
    "blueprint_match": ("whole",),
    "flight_landing": ("any_cell",),
}


def configs() -> list[tuple[str, str, int, int, dict[str, Any], str]]:
    """(key, game, players, seed, rulings, agents): the default readings at every player count with random
    and with greedy players (Bot Factory's also under its previous default readings, ``BF_PREVIOUS``), then
    every other choice of every ruling once."""
    out: list[tuple[str, str, int, int, dict[str, Any], str]] = []
    previous = ",".join(f"{k}={v}" for k, v in BF_PREVIOUS.items())
    for name in ("botfactory", "mechanica"):
        for players in (2, 3, 4):
            for seed, agents in ((0, "random"), (1, "random"), (0, "greedy")):
                out.append((f"{name}/{players}/{seed}/{agents}", name, players, seed, {}, agents))
                if name == "botfactory":
                    key = f"{name}/{players}/{seed}/{agents}/{previous}"
                    out.append((key, name, players, seed, dict(BF_PREVIOUS), agents))
    for name, table in (("botfactory", BF_RULINGS), ("mechanica", MC_RULINGS)):
        for ruling, choices in table.items():
            for choice in choices:
                players = 4 if ruling == "extras_4p" else 3
                for agents in ("random", "greedy"):
                    key = f"{name}/{players}/0/{agents}/{ruling}={choice}"
                    out.append((key, name, players, 0, {ruling: choice}, agents))
    for seed in (0, 1, 2):
        out.append((f"mechanica-factory/1/{seed}/random", "mechanica-factory", 1, seed, {}, "random"))
    return out


def record(name: str, players: int, seed: int, rulings: dict[str, Any], agents: str) -> dict[str, Any]:
    """What one seeded playout shows of the rules (see the module's docstring)."""
    options: dict[str, Any] = {"max_rounds": 20} if name == "botfactory" else {}
    game = bgrules.load_game(name, players=players, variant={"rulings": rulings} if rulings else None, **options)
    rng = random.Random(seed)
    players_ = [make_agent("greedy") if agents == "greedy" else None for _ in range(game.players)]
    digest = hashlib.sha256()
    first: dict[str, str] = {}
    pool: dict[str, Any] = {}
    refused = 0
    with coverage.probe() as counts:
        state = game.initial_state()
        steps = 0
        while not game.is_terminal(state) and steps < MAX_STEPS[name]:
            chance = game.to_move(state) is CHANCE
            legal = () if chance else game.legal_actions(state)
            if not chance and steps % PROBE_EVERY == 0:
                offered = {repr(a) for a in legal}
                for text, candidate in pool.items():
                    if text in offered:
                        continue
                    try:
                        game.apply(state, candidate)
                    except IllegalAction as exc:
                        refused += 1
                        digest.update(f"{steps}|{text}|{exc.rule_id}|{exc.why}\n".encode())
                        first.setdefault(exc.rule_id, exc.why)
                    else:
                        digest.update(f"{steps}|{text}|accepted\n".encode())
            if chance:
                action = sample_chance(game, state, rng)
            else:
                mover = game.to_move(state)
                agent = players_[mover] if isinstance(mover, int) else None
                if agent is None:
                    action = legal[rng.randrange(len(legal))]
                else:
                    with coverage.probe():  # the agent's look-ahead is not what the playout applied
                        action = agent.choose(game, state, rng)
                for a in legal[:4]:
                    pool.setdefault(repr(a), a)
                while len(pool) > POOL:
                    pool.pop(next(iter(pool)))
            state = game.apply(state, action)
            digest.update(f"{steps}|{action!r}\n".encode())
            steps += 1
        end = {
            "terminal": game.is_terminal(state),
            "scores": list(game.scores(state)),
            "winners": list(game.winners(state)) if game.is_terminal(state) else None,
            "end_trigger": getattr(game, "end_trigger", lambda s: None)(state),
        }
    return {
        "steps": steps,
        "refused": refused,
        "effects": dict(sorted(counts.effects.items())),
        "refusals": dict(sorted(counts.refusals.items())),
        "messages": digest.hexdigest()[:32],
        "first_message": dict(sorted(first.items())),
        "end": end,
    }


def compute() -> dict[str, Any]:
    return {
        key: record(name, players, seed, rulings, agents) for key, name, players, seed, rulings, agents in configs()
    }


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(compute(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN}")
