"""Bot Factory obligations: the token cap and supply (BF-LIMIT-TOKENS), the hand limits (BF-LIMIT-PARTS,
BF-LIMIT-PROJECTS) and contract reservations (BF-FIN-CONTRACT), proved by z3 over the encodings of
bgrules.botfactory.smt, which are built from the arithmetic the game plays with (bgrules.botfactory.arith).

Each rule's property is proved by refuting its negation: the invariant is assumed before one legal step
of any size and the solver looks for a state after that breaks it (``inductive``: every state, not only
reachable ones), or along a bounded run (``bounded k=...``). ``BF-PROOF-*-BROKEN-*`` obligations run the
same proof on a deliberately broken rule and must be ``violated``, with the before-state and the step
decoded. ``BF-PROOF-SMT-CONFORMANCE`` ties the encodings to the Python game on seeded playouts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import z3

from bgrules.botfactory import arith, smt, smt_conformance
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.variant import BotFactoryVariant, load_variant
from bgrules.core.proofs import Budget, Obligation, Outcome

TOKEN_RULES = ("BF-LIMIT-TOKENS",)
GAIN_RULES = ("BF-LIMIT-TOKENS", "BF-ASM-REWARD", "BF-PROJ-RIGHT")
PAY_RULES = ("BF-LIMIT-TOKENS", "BF-SANDRA-SHARE", "BF-ASM-ICON", "BF-ASM-SWAP", "BF-PROD-MARK", "BF-PROJ-LEFT")
PAY_RULES = (*PAY_RULES, "BF-FIN-RAISE")
RESERVE_RULES = ("BF-LIMIT-TOKENS", "BF-FIN-CONTRACT")
LIMIT_RULES = ("BF-LIMIT-PARTS", "BF-LIMIT-PROJECTS")
TOKEN_INVARIANT = "0 <= held <= 9 and held + tokens on contracts <= 9 (the colour's tokens)"
INDUCTIVE = "inductive: every state satisfying the invariant, one step of any size"
CONFORMANCE_SEEDS = (20_240_611,)
RICH = {"counts": {"start_tokens": 8}}
"""Every player starts with 8 tokens: random play reaches the cap and reserves contracts often."""


def _default() -> BotFactoryVariant:
    return load_variant(None)


def _proved(result: smt.Result) -> int:
    """The solver answers behind a verdict: one ``unsat`` when the refutation holds."""
    return 1 if result.verdict == "holds" else 0


def _ms(result: smt.Result) -> str:
    return f"[{result.seconds * 1000:.1f} ms]"


def _tokens(step: str, symbolic: bool = False, fault: smt.Fault | None = None) -> Callable[[Budget], Outcome]:
    """A token proof; a step that may reserve is proved under every reading of ``reservation_tokens``
    (BF-FIN-CONTRACT), and holds only if it holds under each."""
    modes = arith.RESERVATION_TOKENS if step in ("reserve", "any") else (_default().rulings.reservation_tokens,)

    def check(budget: Budget) -> Outcome:
        details = []
        for mode in modes:
            fig = smt.Figures.symbolic(reservation=mode) if symbolic else smt.Figures.of(_default())
            fig = attrs.evolve(fig, reservation=mode)
            result = smt.prove_tokens(step, fig, budget.solver_ms, fault)
            label = f"{mode}: " if len(modes) > 1 else ""
            if result.witness is not None or result.verdict != "holds":
                text = smt.describe_token_witness(result.witness) if result.witness else result.detail
                return Outcome(result.verdict, f"{label}{text} {_ms(result)}", result.witness)
            details.append(f"{label}{result.detail} {_ms(result)}")
        return Outcome("holds", "; ".join(details), checked=len(details))

    return check


def _setup(symbolic: bool, checked: bool = False) -> Callable[[Budget], Outcome]:
    """``symbolic``: the set-up figures a variant file may change, the others as printed; ``checked``: only
    those the variant loader accepts (start + extra <= min(token_cap, tokens_per_colour), variant.py)."""

    def check(budget: Budget) -> Outcome:
        fig = smt.Figures.of(_default())
        if symbolic:
            start, extra = z3.Ints("fig_start fig_extra")
            assumptions = [start >= 0, extra >= 0]
            if checked:
                assumptions += [start + extra <= fig.cap, start + extra <= fig.per_colour]
            fig = attrs.evolve(fig, start=start, extra=extra, assumptions=tuple(assumptions))
        result = smt.prove_token_setup(fig, budget.solver_ms)
        detail = result.detail
        if result.witness is not None:
            w = result.witness
            detail = (
                f"a variant with start_tokens {w['start']}, "
                f"last_player_extra_token {w['extra']}, token_cap {w['cap']}, tokens_per_colour "
                f"{w['per_colour']}: the {'last' if w['last_in_order'] else 'first'} player starts with "
                f"{w['held']} tokens ({', '.join(w['failing'])} fails)"
            )
        return Outcome(result.verdict, f"{detail} {_ms(result)}", result.witness, _proved(result))

    return check


def _hand(
    prove: Callable[[smt.Figures, int, smt.Fault | None], smt.Result], fault: smt.Fault | None = None
) -> Callable[[Budget], Outcome]:
    def check(budget: Budget) -> Outcome:
        result = prove(smt.Figures.of(_default()), budget.solver_ms, fault)
        if result.witness is None:
            return Outcome(result.verdict, f"{result.detail} {_ms(result)}", checked=_proved(result))
        shown = ", ".join(f"{k} {v}" for k, v in result.witness.items() if k != "failing")
        return Outcome(
            result.verdict,
            f"counterexample: {shown} ({', '.join(result.witness['failing'])} fails) {_ms(result)}",
            result.witness,
        )

    return check


def _projects_strict(budget: Budget) -> Outcome:
    """The bounded search; a witness is reported only once replayed in the Python game."""
    variant = _default()
    fig = smt.Figures.of(variant)
    result = smt.shortest_projects_overflow(fig, budget.solver_ms, k=3)
    if result.witness is None:
        return Outcome(result.verdict, f"{result.detail} {_ms(result)}", checked=_proved(result))
    w = result.witness
    trace = smt.describe_hand_trace(w)
    game = BotFactoryGame(players=4, variant=variant)
    state, actions = smt_conformance.projects_overflow_scenario(game, w["rest_completed"])
    for action in actions:
        if action not in game.legal_actions(state):
            return Outcome("unknown", f"z3 found {trace}, but {action!r} is not legal in the Python replay", w)
        state = game.apply(state, action)
    hand = state.hands[0]
    held = len(hand.projects) + len(hand.done)
    if held <= fig.project_limit:
        return Outcome("unknown", f"z3 found {trace}, but the Python replay holds {held} Project tiles", w)
    return Outcome(
        "violated",
        f"{trace}; replayed in the Python game (TakeProject(0, 0) with {w['rest_completed']} completed, then "
        f"PlacePart('red-legs', 'red') at the BF-PROJ-LEFT prompt): the player holds {held} Project tiles, "
        f"{len(hand.done)} completed, phase {state.phase.value} {_ms(result)}",
        {**w, "replay": [repr(a) for a in actions]},
    )


def _contracts(fault: smt.Fault | None = None) -> Callable[[Budget], Outcome]:
    """A contract proof under every reading of ``reservation_tokens``; it holds only if it holds under each."""

    def check(budget: Budget) -> Outcome:
        details = []
        for mode in arith.RESERVATION_TOKENS:
            fig = attrs.evolve(smt.Figures.of(_default()), reservation=mode)
            result = smt.prove_contracts(fig, 4, budget.solver_ms, fault)
            if result.witness is not None or result.verdict != "holds":
                text = smt.describe_contract_witness(result.witness, len(fig.costs)) if result.witness else ""
                return Outcome(result.verdict, f"{mode}: {text or result.detail} {_ms(result)}", result.witness)
            details.append(f"{mode}: {result.detail} {_ms(result)}")
        return Outcome("holds", f"{'; '.join(details)} (players 0-3)", checked=len(details))

    return check


CONFORMANCE_CASES: tuple[tuple[int, dict[str, Any] | None, str], ...] = (
    (4, None, "4 players"),
    (2, None, "2 players"),
    (3, RICH, "3 players starting with 8 tokens"),
    (4, RICH, "4 players starting with 8 tokens"),
    (4, {**RICH, "rulings": {"reservation_tokens": "one_more"}}, "the same under reservation_tokens one_more"),
    (4, {**RICH, "rulings": {"reservation_tokens": "whole_cost"}}, "and whole_cost"),
)
THOROUGH_SEEDS = (20_240_611, 7)
"""--thorough plays every case from these seeds (the default: CONFORMANCE_SEEDS)."""


def _planned(seeds: tuple[int, ...]) -> str:
    cases = ", ".join(what for _p, _v, what in CONFORMANCE_CASES)
    return f"whole games from seeds {list(seeds)} at {cases}"


def _conformance(budget: Budget) -> Outcome:
    seeds: tuple[int, ...] = budget.pick(CONFORMANCE_SEEDS, THOROUGH_SEEDS)
    stop = budget.stop()
    total = {"steps": 0, "gains": 0, "pays": 0, "reserves": 0, "discards": 0}
    problems: list[str] = []
    for players, variant, _what in CONFORMANCE_CASES:
        seen = smt_conformance.conformance(BotFactoryGame(players=players, variant=variant), seeds, stop=stop)
        for key in total:
            total[key] += getattr(seen, key)
        problems.extend(f"{players} players{' (rich)' if variant else ''}: {p}" for p in seen.problems)
    summary = ", ".join(f"{v} {k}" for k, v in total.items())
    planned = _planned(seeds)
    guarantee = f"sampled: {planned}: {summary} compared" + (budget.stopped(planned) if stop.hit else "")
    if problems:
        return Outcome("violated", f"the Python game and the encodings disagree ({summary})", problems[:10])
    return Outcome("holds", f"the Python game and the encodings agree: {summary}", None, total["steps"], guarantee)


def obligations() -> list[Obligation]:
    tokens = [
        Obligation(
            "BF-PROOF-TOKENS-SETUP",
            f"every player's set-up tokens satisfy {TOKEN_INVARIANT} (the base case)",
            ("BF-LIMIT-TOKENS", "BF-SETUP-TOKENS"),
            "base case: every seat, the default figures",
            _setup(False),
        ),
        Obligation(
            "BF-PROOF-TOKENS-GAIN",
            f"a gain of any size (BotFactoryGame._gain: Assembly rewards, the right column) keeps {TOKEN_INVARIANT}",
            GAIN_RULES,
            INDUCTIVE,
            _tokens("gain"),
        ),
        Obligation(
            "BF-PROOF-TOKENS-PAY",
            f"paying any cost the player can pay (BotFactoryGame._pay) keeps {TOKEN_INVARIANT}",
            PAY_RULES,
            INDUCTIVE,
            _tokens("pay"),
        ),
        Obligation(
            "BF-PROOF-TOKENS-RESERVE",
            f"reserving a contract (BotFactoryGame._reserve: the space's cost leaves the hand, one token, or the "
            f"whole cost, lies on the contract; every reading of reservation_tokens) keeps {TOKEN_INVARIANT}",
            RESERVE_RULES,
            INDUCTIVE,
            _tokens("reserve"),
        ),
        Obligation(
            "BF-PROOF-TOKENS-ANY-FIGURES",
            "for any cap, tokens per colour and reservation costs (>= 1), every gain, pay or reservation keeps "
            "0 <= held <= cap and held + on contracts <= tokens per colour",
            (*PAY_RULES, "BF-FIN-CONTRACT"),
            f"{INDUCTIVE}; every variant's figures",
            _tokens("any", symbolic=True),
        ),
        Obligation(
            "BF-PROOF-TOKENS-SETUP-ANY-FIGURES",
            "for any start_tokens and last_player_extra_token, unchecked, the set-up tokens satisfy the token "
            "invariant (they do not: past the cap they break it, which is why the variant loader refuses "
            "start + extra > min(token_cap, tokens_per_colour))",
            ("BF-LIMIT-TOKENS", "BF-SETUP-TOKENS"),
            "base case: any set-up figures",
            _setup(True),
        ),
        Obligation(
            "BF-PROOF-TOKENS-SETUP-CHECKED-FIGURES",
            "for any start_tokens and last_player_extra_token the variant loader accepts (start + extra <= "
            "min(token_cap, tokens_per_colour)), every seat's set-up tokens satisfy the token invariant",
            ("BF-LIMIT-TOKENS", "BF-SETUP-TOKENS"),
            "base case: every variant's set-up figures",
            _setup(True, checked=True),
        ),
        Obligation(
            "BF-PROOF-TOKENS-BROKEN-UNCAPPED",
            f"broken rule: a gain received in full (cap and supply dropped) must break {TOKEN_INVARIANT}",
            GAIN_RULES,
            INDUCTIVE,
            _tokens("any", fault="gain_uncapped"),
        ),
        Obligation(
            "BF-PROOF-TOKENS-BROKEN-NO-SUPPLY",
            f"broken rule: a gain that forgets the tokens on contracts must break {TOKEN_INVARIANT}",
            GAIN_RULES,
            INDUCTIVE,
            _tokens("any", fault="gain_no_supply"),
        ),
        Obligation(
            "BF-PROOF-TOKENS-BROKEN-RESERVE-UNPAID",
            f"broken rule: a reservation that does not take its tokens from the hand must break {TOKEN_INVARIANT}",
            RESERVE_RULES,
            INDUCTIVE,
            _tokens("any", fault="reserve_unpaid"),
        ),
    ]
    limits = [
        Obligation(
            "BF-PROOF-LIMITS-DISCARD-STEP",
            "while a player is over a limit, a discard is on offer, and each discard lowers parts + unfinished "
            "Projects by one (the loop ends), keeps every count >= 0 and leaves completed Projects alone",
            LIMIT_RULES,
            "inductive: every hand over a limit, one discard",
            _hand(smt.prove_discard_step),
        ),
        Obligation(
            "BF-PROOF-LIMITS-RESOLVED",
            "when the discard loop stops, the player holds at most 5 parts and at most 5 Project tiles counting "
            "completed ones, unless no unfinished tile is left to discard",
            LIMIT_RULES,
            "inductive: every hand the discard loop stops at",
            _hand(smt.prove_limits_exit),
        ),
        Obligation(
            "BF-PROOF-LIMITS-COMPLETED-KEPT",
            "no hand change (parts taken, placed, bots completed, Projects taken, trades, swaps, discards) lowers "
            "the completed Projects",
            (*LIMIT_RULES, "BF-ASM-PROJECT", "BF-PROJ-TRADE", "BF-PROD-TRADE", "BF-ASM-SWAP"),
            "inductive: every hand, one change",
            _hand(smt.prove_completed_kept),
        ),
        Obligation(
            "BF-PROOF-LIMITS-PROJECTS-STRICT",
            "after every resolution a player holds at most 5 Project tiles, completed ones included (a Project "
            "taken over the limit is discarded at once, so no sixth bot can be completed on it at BF-PROJ-LEFT)",
            (*LIMIT_RULES, "BF-PROJ-LEFT", "BF-ASM-PROJECT"),
            "bounded k=3 hand changes of one action, then the whole discard loop; witness replayed in Python",
            _projects_strict,
        ),
        Obligation(
            "BF-PROOF-LIMITS-BROKEN-DISCARD-COMPLETED",
            "broken rule: a discard loop that may discard a completed Project must lower the completed Projects",
            LIMIT_RULES,
            "inductive: every hand, one change",
            _hand(smt.prove_completed_kept, "discard_completed"),
        ),
        Obligation(
            "BF-PROOF-LIMITS-BROKEN-IGNORE-COMPLETED",
            "broken rule: a Project limit counting unfinished tiles only must let a loop stop over 5 Project tiles",
            LIMIT_RULES,
            "inductive: every hand the discard loop stops at",
            _hand(smt.prove_limits_exit, "limit_ignores_completed"),
        ),
    ]
    contracts = [
        Obligation(
            "BF-PROOF-CONTRACTS-RESERVE",
            "a reservation keeps every contract at most two reservations, none twice by one player, and puts "
            "exactly the tokens the reading places (one, or the space's cost under whole_cost) of the player's "
            "tokens on it, under every reading of reservation_tokens",
            ("BF-FIN-CONTRACT",),
            "inductive: every contract state, one reservation by any of 4 players",
            _contracts(),
        ),
        Obligation(
            "BF-PROOF-CONTRACTS-BROKEN-TWICE",
            "broken rule: without the once-only guard a player reserves a contract twice",
            ("BF-FIN-CONTRACT",),
            "inductive: every contract state, one reservation by any of 4 players",
            _contracts("reserve_twice"),
        ),
        Obligation(
            "BF-PROOF-CONTRACTS-BROKEN-THIRD",
            "broken rule: without the two-space guard a contract takes a third reservation",
            ("BF-FIN-CONTRACT",),
            "inductive: every contract state, one reservation by any of 4 players",
            _contracts("reserve_third"),
        ),
    ]
    conformance = Obligation(
        "BF-PROOF-SMT-CONFORMANCE",
        "every _gain, _pay and _reserve of the Python game is a step of its z3 encoding evaluated on the same "
        "values and keeps the token invariant; tokens change through them only; every discard is a discard "
        "step; the discard phase starts exactly when the encoded limit check says so; hands at rest are "
        "within the limits",
        (*TOKEN_RULES, *LIMIT_RULES, "BF-FIN-CONTRACT"),
        f"sampled: {_planned(CONFORMANCE_SEEDS)} (--thorough: seeds {list(THOROUGH_SEEDS)}); the report gives "
        "the calls compared",
        _conformance,
    )
    return [*tokens, *limits, *contracts, conformance]
