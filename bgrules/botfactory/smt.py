"""z3 encodings of Bot Factory's token cap, hand limits and contract reservations, for ``proofs/botfactory.py``.

Every rule is a named list of z3 constraints built from :mod:`bgrules.botfactory.arith`, the functions the
game itself calls (``BotFactoryGame._gain``, ``_pay``, ``finance.reserve``, ``limits.check``, ``limits.options``),
so the proof reads the played arithmetic. A property is proved by refuting its negation: the solver is given
the invariant before, one legal step, and the negated invariant after; ``unsat`` is ``holds`` for every state
(inductive), ``sat`` is ``violated`` with the model decoded into the before-state and the step, and a timeout
is ``unknown``, never ``holds``.

Deliberately broken rules (:data:`Fault`) swap one rule's constraints for a wrong reading, so the proofs can
show that they catch a broken rule.

    fig = Figures.of(default variant)
    result = prove_tokens("gain", fig, timeout_ms=10_000)       # Result(verdict="holds", ...)
    result = prove_tokens("gain", fig, fault="gain_uncapped")     # violated, with the decoded step
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Literal

import attrs
import z3

from bgrules.botfactory import arith
from bgrules.botfactory.variant import BotFactoryVariant
from bgrules.core.proofs import solver as new_solver

Verdict = Literal["holds", "violated", "unknown"]
Fault = Literal[
    "gain_uncapped",
    "gain_no_supply",
    "reserve_unpaid",
    "reserve_twice",
    "reserve_third",
    "discard_completed",
    "limit_ignores_completed",
]
"""Deliberately broken rules:

``gain_uncapped``: a gain is received in full, past the cap and the colour's supply (with the default figures
the cap alone is implied by the supply bound, 9 tokens a colour, so dropping only the cap changes nothing);
``gain_no_supply``: a gain forgets the tokens on contracts (only the cap bounds it);
``reserve_unpaid``: a reservation puts its tokens on the contract without taking them from the hand;
``reserve_twice``: a player may reserve a contract they already reserved;
``reserve_third``: a contract takes reservations past its two spaces;
``discard_completed``: a player over the Project limit may discard a completed Project;
``limit_ignores_completed``: the Project limit counts unfinished tiles only.
"""

TOKEN_STEPS = ("gain", "pay", "reserve")


@attrs.frozen
class Figures:
    """The component figures the encodings read: ints from a variant, or z3 terms for every figure."""

    cap: Any
    per_colour: Any
    costs: tuple[Any, ...]
    start: Any
    extra: Any
    part_limit: Any
    project_limit: Any
    assumptions: tuple[Any, ...] = ()
    """Constraints on symbolic figures (none for a variant's ints)."""
    reservation: str = "one_paid"
    """The ruling ``reservation_tokens`` (BF-FIN-CONTRACT): which tokens a reservation moves."""

    @classmethod
    def of(cls, variant: BotFactoryVariant) -> Figures:
        c = variant.components
        return cls(
            cap=c.counts.token_cap,
            per_colour=c.counts.tokens_per_colour,
            costs=tuple(c.finance.reservation_costs),
            start=c.counts.start_tokens,
            extra=c.counts.last_player_extra_token,
            part_limit=c.counts.part_limit,
            project_limit=c.counts.project_limit,
            reservation=variant.rulings.reservation_tokens,
        )

    @classmethod
    def symbolic(cls, spaces: int = 2, reservation: str = "one_paid") -> Figures:
        """Every figure a z3 unknown: any cap and tokens per colour at least 0, any reservation costs at
        least 1 (as ``variant._check`` demands), any limits at least 0; ``reservation`` is the ruling
        ``reservation_tokens``."""
        cap, per, start, extra = z3.Ints("fig_cap fig_per_colour fig_start fig_extra")
        part_limit, project_limit = z3.Ints("fig_part_limit fig_project_limit")
        costs = tuple(z3.Int(f"fig_cost_{i}") for i in range(spaces))
        assumptions = (
            cap >= 0,
            per >= 0,
            start >= 0,
            extra >= 0,
            part_limit >= 0,
            project_limit >= 0,
            *(k >= 1 for k in costs),
        )
        return cls(cap, per, costs, start, extra, part_limit, project_limit, assumptions, reservation)


@attrs.frozen
class Result:
    verdict: Verdict
    detail: str
    seconds: float
    witness: dict[str, Any] | None = None


# --- the refutation driver -----------------------------------------------------------------------------


def refute(
    assumptions: Sequence[Any],
    claims: Sequence[tuple[str, Any]],
    decode: Sequence[tuple[str, Any]],
    timeout_ms: int,
) -> Result:
    """Is there a model of ``assumptions`` in which some named claim fails? ``holds`` if not (unsat),
    ``violated`` with the decoded terms and the failing claims if so, ``unknown`` on a timeout."""
    start = time.perf_counter()
    solver = new_solver(timeout_ms)
    solver.add(*assumptions)
    solver.add(z3.Not(z3.And(*[c for _n, c in claims])))
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return Result("holds", f"negation unsatisfiable ({len(claims)} claim(s))", seconds)
    if answer != z3.sat:
        return Result("unknown", f"z3: {solver.reason_unknown()}", seconds)
    model = solver.model()
    values: dict[str, Any] = {}
    for name, term in decode:
        if not isinstance(term, z3.ExprRef):  # a figure given as an int
            values[name] = term
            continue
        v = model.eval(term, model_completion=True)
        values[name] = v.as_long() if z3.is_int_value(v) else z3.is_true(v) if z3.is_bool(v) else str(v)
    failing = [name for name, c in claims if not z3.is_true(model.eval(c, model_completion=True))]
    values["failing"] = failing
    return Result("violated", f"counterexample: {failing[0] if failing else '?'} fails", seconds, values)


# --- BF-LIMIT-TOKENS: one player's tokens --------------------------------------------------------------


@attrs.frozen
class TokenState:
    held: Any
    on_contracts: Any

    @classmethod
    def fresh(cls, name: str) -> TokenState:
        return cls(z3.Int(f"{name}_held"), z3.Int(f"{name}_on_contracts"))


def token_invariant(t: TokenState, fig: Figures) -> list[tuple[str, Any]]:
    """BF-LIMIT-TOKENS: 0 <= held <= cap, and held + on contracts <= the colour's tokens (on contracts >= 0)."""
    return [
        ("held >= 0", t.held >= 0),
        ("held <= cap", t.held <= fig.cap),
        ("on contracts >= 0", t.on_contracts >= 0),
        ("held + on contracts <= tokens per colour", t.held + t.on_contracts <= fig.per_colour),
    ]


def setup_tokens(t: TokenState, last: Any, fig: Figures) -> list[Any]:
    """BF-SETUP-TOKENS: a player starts with ``start`` tokens, the last in order ``extra`` more; none on contracts."""
    return [t.held == fig.start + arith.ite(last, fig.extra, 0), t.on_contracts == 0]


def gain_step(t: TokenState, t2: TokenState, n: Any, fig: Figures, fault: Fault | None = None) -> list[Any]:
    """BF-LIMIT-TOKENS (BF-ASM-REWARD, BF-PROJ-RIGHT, any size): ``BotFactoryGame._gain``."""
    if fault == "gain_uncapped":
        return [t2.held == t.held + arith.maximum(0, n), t2.on_contracts == t.on_contracts]
    if fault == "gain_no_supply":
        received = arith.maximum(0, arith.minimum(n, fig.cap - t.held))
        return [t2.held == t.held + received, t2.on_contracts == t.on_contracts]
    return [
        t2.held == arith.gain(t.held, t.on_contracts, n, fig.cap, fig.per_colour),
        t2.on_contracts == t.on_contracts,
    ]


def pay_step(t: TokenState, t2: TokenState, n: Any) -> list[Any]:
    """Every cost (BF-SANDRA-SHARE, BF-ASM-ICON, BF-ASM-SWAP, BF-PROD-MARK, BF-PROJ-LEFT, BF-FIN-RAISE):
    ``BotFactoryGame._pay`` of a cost ``n >= 0`` (every cost the rules charge is a figure of at least 0)."""
    return [n >= 0, arith.can_pay(t.held, n), t2.held == arith.pay(t.held, n), t2.on_contracts == t.on_contracts]


def reserve_step(
    t: TokenState, t2: TokenState, taken: Any, mine: Any, fig: Figures, fault: Fault | None = None
) -> list[Any]:
    """BF-FIN-CONTRACT: ``finance.reserve`` on a contract reserved ``taken`` times (``mine``: by
    this player): the cost of the next space is paid from the hand (``arith.reservation_paid``) and the
    tokens ``arith.reservation_placed`` lie on the contract (ruling ``reservation_tokens``)."""
    cost = arith.reservation_cost(fig.costs, taken)
    paid = arith.reservation_paid(cost, fig.reservation)
    held_after = t.held if fault == "reserve_unpaid" else arith.pay(t.held, paid)
    return [
        taken >= 0,
        arith.can_reserve(taken, mine, len(fig.costs)),
        arith.can_afford_reservation(t.held, cost, fig.reservation),
        t2.held == held_after,
        t2.on_contracts == t.on_contracts + arith.reservation_placed(cost, fig.reservation),
    ]


def prove_token_setup(fig: Figures, timeout_ms: int) -> Result:
    """Base case: every seat's set-up tokens satisfy the token invariant."""
    t = TokenState.fresh("setup")
    last = z3.Bool("last_in_order")
    return refute(
        [*fig.assumptions, *setup_tokens(t, last, fig)],
        token_invariant(t, fig),
        [("held", t.held), ("on_contracts", t.on_contracts), ("last_in_order", last), *_fig_terms(fig)],
        timeout_ms,
    )


def prove_tokens(
    step: str, fig: Figures, timeout_ms: int, fault: Fault | None = None, claim: str | None = None
) -> Result:
    """Inductive step: from any state satisfying the token invariant, one ``step`` ("gain", "pay",
    "reserve" or "any") keeps it; with ``claim``, only the after-state's claim of that name is asked
    about (a broken rule may break several claims, and which of them a model shows is z3's choice)."""
    t, t2 = TokenState.fresh("before"), TokenState.fresh("after")
    n, taken = z3.Ints("n taken")
    mine = z3.Bool("already_reserved_by_player")
    choice = z3.Int("step")
    steps = {
        "gain": z3.And(*gain_step(t, t2, n, fig, fault)),
        "pay": z3.And(*pay_step(t, t2, n)),
        "reserve": z3.And(*reserve_step(t, t2, taken, mine, fig, fault)),
    }
    if step == "any":
        relation = z3.Or(*[z3.And(choice == i, steps[s]) for i, s in enumerate(TOKEN_STEPS)])
    else:
        relation = z3.And(choice == TOKEN_STEPS.index(step), steps[step])
    before = [c for _n, c in token_invariant(t, fig)]
    decode = [
        ("held", t.held),
        ("on_contracts", t.on_contracts),
        ("step", choice),
        ("n", n),
        ("taken", taken),
        ("already_reserved_by_player", mine),
        ("held_after", t2.held),
        ("on_contracts_after", t2.on_contracts),
        *_fig_terms(fig),
    ]
    claims = token_invariant(t2, fig)
    if claim is not None:
        claims = [(name, c) for name, c in claims if name == claim]
        if not claims:
            names = ", ".join(repr(name) for name, _c in token_invariant(t2, fig))
            raise ValueError(f"no token claim {claim!r}: the claims are {names}")
    result = refute([*fig.assumptions, *before, relation], claims, decode, timeout_ms)
    return _decode_step(result)


def _fig_terms(fig: Figures) -> list[tuple[str, Any]]:
    if not fig.assumptions:
        return []
    return [
        ("cap", fig.cap),
        ("per_colour", fig.per_colour),
        ("start", fig.start),
        ("extra", fig.extra),
        *((f"cost_{i}", k) for i, k in enumerate(fig.costs)),
    ]


def _decode_step(result: Result) -> Result:
    """Name the step of a token witness, and drop the variables the step does not use."""
    w = result.witness
    if w is None:
        return result
    name = TOKEN_STEPS[w.pop("step")]
    if name != "reserve":
        w.pop("taken")
        w.pop("already_reserved_by_player")
    if name == "reserve":
        w.pop("n")
    w["step"] = name
    return attrs.evolve(result, witness=w)


def describe_token_witness(w: dict[str, Any]) -> str:
    step = w["step"]
    if step == "reserve":
        what = f"reserve a contract already reserved {w['taken']} time(s)" + (
            " (already by this player)" if w["already_reserved_by_player"] else ""
        )
    else:
        what = f"{step} {w['n']}"
    return (
        f"before: held {w['held']}, on contracts {w['on_contracts']}; step: {what}; "
        f"after: held {w['held_after']}, on contracts {w['on_contracts_after']} ({', '.join(w['failing'])} fails)"
    )


# --- BF-LIMIT-PARTS / BF-LIMIT-PROJECTS: one player's hand --------------------------------------------

HAND_STEPS = (
    "take_part",
    "place",
    "complete",
    "take_project",
    "exchange",
    "trade",
    "swap",
    "discard_part",
    "discard_project",
)
"""Every change of a hand's counts (parts P, unfinished Projects U, completed D): a part taken (TakeOutput,
the icon's TakeTop, a draw to the hand), a part placed, a bot completed on an unfinished Project
(BF-ASM-PROJECT), a Project taken (BF-PROJ, BF-FIN-LINE), BF-PROJ-TRADE, BF-PROD-TRADE, BF-ASM-SWAP, and
the two discards of the limit loop."""
ACTION_STEPS = HAND_STEPS[:7]


@attrs.frozen
class HandState:
    parts: Any
    unfinished: Any
    completed: Any

    @classmethod
    def fresh(cls, name: str) -> HandState:
        return cls(z3.Int(f"{name}_parts"), z3.Int(f"{name}_unfinished"), z3.Int(f"{name}_completed"))

    def terms(self, name: str) -> list[tuple[str, Any]]:
        return [
            (f"{name}_parts", self.parts),
            (f"{name}_unfinished", self.unfinished),
            (f"{name}_completed", self.completed),
        ]


def nonnegative(h: HandState) -> list[Any]:
    return [h.parts >= 0, h.unfinished >= 0, h.completed >= 0]


def over(h: HandState, fig: Figures, fault: Fault | None = None) -> Any:
    """``limits.check``: the player must discard."""
    if fault == "limit_ignores_completed":
        return arith.either(arith.parts_over(h.parts, fig.part_limit), h.unfinished > fig.project_limit)
    return arith.over_limits(h.parts, h.unfinished, h.completed, fig.part_limit, fig.project_limit)


def discard_step(h: HandState, h2: HandState, which: Any, fig: Figures, fault: Fault | None = None) -> list[Any]:
    """``limits.act`` as ``limits.options`` offers it: a part while over the part limit,
    else an unfinished Project (``which`` 0: a part, 1: an unfinished Project, 2: a completed one, which
    only the broken rule ``discard_completed`` offers)."""
    parts_first = arith.parts_over(h.parts, fig.part_limit)
    options = [
        z3.And(
            which == 0,
            parts_first,
            h.parts >= 1,
            h2.parts == h.parts - 1,
            h2.unfinished == h.unfinished,
            h2.completed == h.completed,
        ),
        z3.And(
            which == 1,
            z3.Not(parts_first),
            h.unfinished >= 1,
            h2.parts == h.parts,
            h2.unfinished == h.unfinished - 1,
            h2.completed == h.completed,
        ),
    ]
    if fault == "discard_completed":
        options.append(
            z3.And(
                which == 2,
                z3.Not(parts_first),
                h.completed >= 1,
                h2.parts == h.parts,
                h2.unfinished == h.unfinished,
                h2.completed == h.completed - 1,
            )
        )
    return [over(h, fig, fault), z3.Or(*options)]


def action_step(h: HandState, h2: HandState, which: Any, project_limit: Any = None) -> list[Any]:
    """One hand change of an action (``which`` indexes :data:`ACTION_STEPS`). With ``project_limit`` given,
    a Project taken over the limit is discarded at once, before any pending choice (BF-LIMIT-PROJECTS, as
    ``limits.check`` does): an unfinished one goes, so the unfinished count stays."""
    p, u, d = h.parts, h.unfinished, h.completed
    p2, u2, d2 = h2.parts, h2.unfinished, h2.completed
    if project_limit is not None:
        take = z3.And(which == 3, p2 == p, d2 == d, u2 == z3.If(u + 1 + d > project_limit, u, u + 1))
    else:
        take = z3.And(which == 3, p2 == p, u2 == u + 1, d2 == d)
    return [
        z3.Or(
            z3.And(which == 0, p2 == p + 1, u2 == u, d2 == d),
            z3.And(which == 1, p >= 1, p2 == p - 1, u2 == u, d2 == d),
            z3.And(which == 2, p >= 1, u >= 1, p2 == p - 1, u2 == u - 1, d2 == d + 1),
            take,
            z3.And(which == 4, u >= 2, p2 == p + 1, u2 == u - 2, d2 == d),
            z3.And(which == 5, p >= 3, p2 == p - 2, u2 == u, d2 == d),
            z3.And(which == 6, p >= 1, p2 == p, u2 == u, d2 == d),
        )
    ]


def hand_step(h: HandState, h2: HandState, which: Any, fig: Figures, fault: Fault | None = None) -> list[Any]:
    """Any hand change: an action's (0-6) or the limit loop's discard (7 a part, 8 a Project; 9 a completed
    Project under the broken rule)."""
    discard = discard_step(h, h2, which - 7, fig, fault)
    return [z3.Or(z3.And(which < 7, *action_step(h, h2, which)), z3.And(which >= 7, *discard))]


def resolved_limits(h: HandState, fig: Figures) -> list[tuple[str, Any]]:
    """BF-LIMIT-PARTS / BF-LIMIT-PROJECTS once the discard loop ends: at most the part limit, and at most the
    Project limit counting completed ones, unless no unfinished one is left to discard."""
    return [
        ("parts <= part limit", h.parts <= fig.part_limit),
        (
            "unfinished + completed <= project limit, or no unfinished one left",
            z3.Or(h.unfinished + h.completed <= fig.project_limit, h.unfinished == 0),
        ),
    ]


def prove_limits_exit(fig: Figures, timeout_ms: int, fault: Fault | None = None) -> Result:
    """Where the discard loop stops (no longer over), the limits hold."""
    h = HandState.fresh("hand")
    return refute(
        [*fig.assumptions, *nonnegative(h), z3.Not(over(h, fig, fault))],
        resolved_limits(h, fig),
        h.terms("hand"),
        timeout_ms,
    )


def prove_discard_step(fig: Figures, timeout_ms: int, fault: Fault | None = None) -> Result:
    """Inductive over discard steps: while over, a discard is on offer, every discard lowers parts +
    unfinished by one (so the loop ends within that many steps), keeps every count >= 0 and never touches
    the completed Projects."""
    h, h2 = HandState.fresh("before"), HandState.fresh("after")
    which = z3.Int("discard")
    options = z3.Exists([h2.parts, h2.unfinished, h2.completed, which], z3.And(*discard_step(h, h2, which, fig, fault)))
    base = [*fig.assumptions, *nonnegative(h), over(h, fig, fault)]
    offered = refute(base, [("a discard is on offer", options)], h.terms("before"), timeout_ms)
    if offered.verdict != "holds":
        return offered
    step = refute(
        [*base, *discard_step(h, h2, which, fig, fault)],
        [
            ("parts + unfinished falls by one", h2.parts + h2.unfinished == h.parts + h.unfinished - 1),
            ("completed unchanged", h2.completed == h.completed),
            ("counts >= 0", z3.And(*nonnegative(h2))),
        ],
        [*h.terms("before"), ("discard", which), *h2.terms("after")],
        max(1, timeout_ms - int(offered.seconds * 1000)),
    )
    return attrs.evolve(step, seconds=offered.seconds + step.seconds)


def prove_completed_kept(fig: Figures, timeout_ms: int, fault: Fault | None = None) -> Result:
    """Inductive over every hand change (actions and discards): completed Projects never decrease."""
    h, h2 = HandState.fresh("before"), HandState.fresh("after")
    which = z3.Int("step")
    return refute(
        [*fig.assumptions, *nonnegative(h), *hand_step(h, h2, which, fig, fault)],
        [("completed never decrease", h2.completed >= h.completed)],
        [*h.terms("before"), ("step", which), *h2.terms("after")],
        timeout_ms,
    )


def prove_projects_strict(fig: Figures, timeout_ms: int, k: int = 3) -> Result:
    """Bounded: from a hand at rest with unfinished + completed <= the Project limit (and parts within
    theirs), up to ``k`` hand changes of one action with its pending choices (the part limit waits for
    them; a Project taken over the limit is discarded at once), then the discard loop to its end: is
    unfinished + completed still within the limit?"""
    hands = [HandState.fresh(f"h{i}") for i in range(k + 1)]
    whiches = [z3.Int(f"step{i}") for i in range(k)]
    assumptions: list[Any] = [*fig.assumptions, *nonnegative(hands[0])]
    assumptions += [hands[0].parts <= fig.part_limit, hands[0].unfinished + hands[0].completed <= fig.project_limit]
    used = z3.Int("steps_used")
    assumptions += [used >= 1, used <= k]
    for i in range(k):
        same = z3.And(
            hands[i + 1].parts == hands[i].parts,
            hands[i + 1].unfinished == hands[i].unfinished,
            hands[i + 1].completed == hands[i].completed,
        )
        step = action_step(hands[i], hands[i + 1], whiches[i], fig.project_limit)
        assumptions.append(z3.If(i < used, z3.And(*step), same))
    last = hands[-1]
    # the discard loop: it ends (prove_discard_step) with the completed count untouched, in a hand no
    # longer over with at most the parts and unfinished Projects it started with
    end = HandState.fresh("resolved")
    assumptions += [
        *nonnegative(end),
        end.completed == last.completed,
        end.parts <= last.parts,
        end.unfinished <= last.unfinished,
        z3.Not(over(end, fig)),
    ]
    decode = [*hands[0].terms("rest"), ("steps_used", used)]
    for i in range(k):
        decode += [(f"step{i}", whiches[i]), *hands[i + 1].terms(f"after_step{i}")]
    decode += end.terms("resolved")
    return refute(
        assumptions,
        [("unfinished + completed <= project limit", end.unfinished + end.completed <= fig.project_limit)],
        decode,
        timeout_ms,
    )


def shortest_projects_overflow(fig: Figures, timeout_ms: int, k: int = 3) -> Result:
    """:func:`prove_projects_strict` for 1, 2, ... ``k`` hand changes: the first (shortest) witness, or
    ``holds`` for all of them."""
    spent = 0.0
    result = Result("holds", "no hand changes", 0.0)
    for j in range(1, k + 1):
        result = prove_projects_strict(fig, max(1, timeout_ms - int(spent * 1000)), j)
        spent += result.seconds
        if result.verdict != "holds":
            break
    return attrs.evolve(result, seconds=spent)


def describe_hand_trace(w: dict[str, Any], k: int = 3) -> str:
    def hand(name: str) -> str:
        return f"(parts {w[name + '_parts']}, unfinished {w[name + '_unfinished']}, completed {w[name + '_completed']})"

    out = [f"at rest {hand('rest')}"]
    for i in range(min(k, int(w["steps_used"]))):
        out.append(f"{ACTION_STEPS[w[f'step{i}']]} -> {hand(f'after_step{i}')}")
    out.append(f"discard loop ends -> {hand('resolved')}")
    return "; ".join(out)


# --- BF-FIN-CONTRACT: one contract's reservation spaces ----------------------------------------------


@attrs.frozen
class ContractState:
    taken: Any
    seats: tuple[Any, ...]
    """The seat on each reservation space in order, -1 when empty; one more space than printed, so that a
    broken rule's extra reservation is representable."""

    @classmethod
    def fresh(cls, name: str, spaces: int) -> ContractState:
        return cls(z3.Int(f"{name}_taken"), tuple(z3.Int(f"{name}_seat{i}") for i in range(spaces + 1)))

    def mine(self, seat: Any) -> Any:
        return z3.Or(*[z3.And(i < self.taken, s == seat) for i, s in enumerate(self.seats)])


def contract_invariant(c: ContractState, spaces: int, players: Any) -> list[tuple[str, Any]]:
    """BF-FIN-CONTRACT: at most ``spaces`` reservations; the filled spaces hold distinct seats; the others
    are empty."""
    filled = [(i, s) for i, s in enumerate(c.seats)]
    return [
        ("0 <= reservations <= spaces", z3.And(c.taken >= 0, c.taken <= spaces)),
        (
            "filled spaces hold players, the others none",
            z3.And(*[z3.If(i < c.taken, z3.And(s >= 0, s < players), s == -1) for i, s in filled]),
        ),
        (
            "no player twice",
            z3.And(*[z3.Implies(z3.And(j < c.taken), a != b) for i, a in filled for j, b in filled if i < j]),
        ),
    ]


def contract_reserve_step(
    c: ContractState, c2: ContractState, seat: Any, fig: Figures, players: Any, fault: Fault | None = None
) -> list[Any]:
    """``finance.reserve`` by ``seat`` on one contract: the guard, then the seat on the next space."""
    spaces = len(fig.costs)
    if fault == "reserve_twice":
        guard = arith.reservation_open(c.taken, spaces)
    elif fault == "reserve_third":
        guard = z3.Not(c.mine(seat))
    else:
        guard = arith.can_reserve(c.taken, c.mine(seat), spaces)
    return [
        seat >= 0,
        seat < players,
        c.taken < len(c.seats),  # the representable spaces
        guard,
        c2.taken == c.taken + 1,
        *[s2 == z3.If(c.taken == i, seat, s) for i, (s, s2) in enumerate(zip(c.seats, c2.seats, strict=True))],
    ]


def prove_contracts(fig: Figures, players: Any, timeout_ms: int, fault: Fault | None = None) -> Result:
    """Inductive over reserve steps: the contract invariant is kept, and the reserving player's tokens on
    the contract (``arith.tokens_on_contract``) rise by exactly the tokens the token step places
    (``arith.reservation_placed``: one, or the cost under ``"whole_cost"``)."""
    spaces = len(fig.costs)
    c, c2 = ContractState.fresh("before", spaces), ContractState.fresh("after", spaces)
    seat = z3.Int("seat")
    cost = arith.reservation_cost(fig.costs, c.taken)
    mode = fig.reservation
    on_before = arith.tokens_on_contract(fig.costs, c.seats, c.taken, seat, mode)
    on_after = arith.tokens_on_contract(fig.costs, c2.seats, c2.taken, seat, mode)
    claims = [
        *contract_invariant(c2, spaces, players),
        ("tokens on the contract rise by those placed", on_after == on_before + arith.reservation_placed(cost, mode)),
    ]
    decode = [("taken", c.taken), *((f"seat{i}", s) for i, s in enumerate(c.seats)), ("reserving_seat", seat)]
    decode += [("taken_after", c2.taken), *((f"seat{i}_after", s) for i, s in enumerate(c2.seats))]
    before = [cl for _n, cl in contract_invariant(c, spaces, players)]
    return refute(
        [*fig.assumptions, *before, *contract_reserve_step(c, c2, seat, fig, players, fault)],
        claims,
        decode,
        timeout_ms,
    )


def describe_contract_witness(w: dict[str, Any], spaces: int) -> str:
    seats = [w[f"seat{i}"] for i in range(w["taken"])]
    after = [w[f"seat{i}_after"] for i in range(min(w["taken_after"], spaces + 1))]
    return (
        f"before: reserved by seats {seats}; step: seat {w['reserving_seat']} reserves; after: {after} "
        f"({', '.join(w['failing'])} fails)"
    )
