"""The spec runner: invariant specs kept as data in ``specs/*.toml``, checked by named checkers.

A spec::

    [[spec]]
    id = "MC-INV-BOTS-CONSERVED"
    game = "mechanica-factory"
    statement = "..."
    rules = ["MC-STOCK"]
    predicate = "bgrules.mechanica.invariants:bots_conserved"
    kind = "state"            # or "transition"
    expected = "holds"        # or "violated" (a counterexample is expected)
    checkers = ["sampled", "searched"]
    options = { days = 6 }    # game options, optional
    variant = "path.toml"     # optional, relative to the spec file

Checkers: ``sampled`` plays random legal games from seeds 0..N-1 and checks every state (or
transition); ``searched`` lets hypothesis choose the actions and shrinks a failure to a short trace.
A verdict is ``holds`` only for what was checked; the report says how much (its guarantee), and how many
sampled games the runner truncated (its step bound, or its round cap for games that count rounds: budget
``max_rounds``, default the game's ``runner_rounds``; see ``bgrules.core.playout.round_cap``).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.codec import read_toml
from bgrules.core.errors import BgrulesError, InputError
from bgrules.core.playout import end_trigger, past_cap, round_cap, sample_chance, walk
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import load_game
from bgrules.core.report import Report

CHECKERS = ("sampled", "searched")
MIX_LABELS = ("random", "greedy", "greedy-vs-random")
AGENT_MIX_DEFAULT: tuple[tuple[str, int], ...] = (("random", 1), ("greedy", 2), ("greedy-vs-random", 2))


@attrs.frozen
class Spec:
    id: str
    game: str
    statement: str
    rules: tuple[str, ...]
    predicate: str
    kind: str
    expected: str
    checkers: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict)
    variant: str | None = None
    players: int | None = None
    budget: dict[str, Any] = attrs.field(factory=dict)
    """Per-spec budget (games, examples, max_steps; max_steps "game" = the game's maximum length), used
    unless the caller forces its own."""
    source: str = ""
    thorough: dict[str, Any] = attrs.field(factory=dict)
    """The budget of a ``--thorough`` run, over ``budget`` (the same keys)."""


@attrs.frozen
class Budget:
    """How much each checker does: sampled games, searched examples, steps per game."""

    games: int = 40
    examples: int = 40
    max_steps: int = 400
    seed: int = 0
    max_rounds: int | None = None
    """The runner's round cap for games that count rounds (None: the game's default, ``runner_rounds``)."""
    forced: bool = False
    """True: ignore the specs' own budgets (a caller asked for these figures)."""
    thorough: bool = False
    """True: each spec's ``thorough`` budget over its ``budget`` (``bgrules verify --thorough``)."""
    mix: tuple[tuple[str, int], ...] = AGENT_MIX_DEFAULT
    """Who plays the sampled games: (label, games) pairs, label ``random``, ``greedy`` (every seat) or
    ``greedy-vs-random`` (one greedy seat, rotating); ``random``'s games are the rest (see :data:`AGENT_MIX`).
    ``(("random", 1),)`` gives random games only (the checks of 0.4.0)."""


def _spec_from(entry: Any, where: str) -> Spec:
    """A spec from one ``[[spec]]`` table: every field of its kind (text, a list of texts, a table, a whole
    number), else an InputError naming the file, the spec and the field."""
    from bgrules.core.codec import identifier, show, table, text, texts, whole

    if not isinstance(entry, dict):
        raise InputError(where, f"a spec is a table ([[spec]]), not {show(entry)}")
    required = ("id", "game", "statement", "rules", "predicate", "kind", "expected", "checkers")
    missing = [k for k in required if k not in entry]
    if missing:
        raise InputError(where, f"missing {', '.join(missing)}")
    unknown = sorted(set(entry) - {*required, "options", "variant", "players", "budget", "thorough"})
    if unknown:
        raise InputError(where, f"unknown key(s) {', '.join(unknown)}")
    spec_id = identifier(entry["id"], f"{where} id")
    game = text(entry["game"], f"{where} game")
    statement = text(entry["statement"], f"{where} statement")
    rules = texts(entry["rules"], f"{where} rules")
    predicate = predicate_name(entry["predicate"], f"{where} predicate")
    if entry["kind"] not in ("state", "transition", "game"):
        raise InputError(f"{where} kind", f"'state', 'transition' or 'game', not {show(entry['kind'])}")
    if entry["expected"] not in ("holds", "violated"):
        raise InputError(f"{where} expected", f"'holds' or 'violated', not {show(entry['expected'])}")
    checkers = texts(entry["checkers"], f"{where} checkers")
    bad = [c for c in checkers if c not in CHECKERS]
    if bad or not checkers:
        raise InputError(f"{where} checkers", f"among {', '.join(CHECKERS)}, not {show(bad or 'none')}")
    if entry["kind"] == "game" and "searched" in checkers:
        raise InputError(where, "a 'game' spec (checked on whole games) takes the sampled checker only")
    options = table(entry.get("options", {}), f"{where} options")
    variant = entry.get("variant")
    if variant is not None and (not isinstance(variant, str) or not variant.strip()):
        raise InputError(f"{where} variant", f"the path of a variant file (text), not {show(variant)}")
    players = entry.get("players")
    if players is not None:
        whole(players, f"{where} players", 1, 64)
    budget = _budget_table(entry.get("budget", {}), "budget", where)
    thorough = _budget_table(entry.get("thorough", {}), "thorough", where)
    return Spec(
        id=spec_id,
        game=game,
        statement=statement,
        rules=rules,
        predicate=predicate,
        kind=str(entry["kind"]),
        expected=str(entry["expected"]),
        checkers=checkers,
        options=dict(options),
        budget=dict(budget),
        thorough=dict(thorough),
        variant=variant,
        players=players,
        source=where,
    )


def _budget_table(table: Any, name: str, where: str) -> dict[str, Any]:
    if not isinstance(table, dict) or set(table) - {"games", "examples", "max_steps", "max_rounds"}:
        raise InputError(where, f"{name} is a table of games, examples, max_steps, max_rounds")
    from bgrules.core.limits import MAXIMA

    for key, value in table.items():
        most = MAXIMA["--" + key.replace("_", "-")][0]
        if isinstance(value, bool) or (
            not (isinstance(value, int) and 0 < value <= most) and not (key == "max_steps" and value == "game")
        ):
            raise InputError(
                f"{where} {name}.{key}",
                f"a whole number from 1 to {most:,}" + (' or "game"' if key == "max_steps" else ""),
            )
    return dict(table)


def load_specs(directory: Path) -> list[Spec]:
    if not directory.is_dir():
        raise InputError(str(directory), "no such specs directory")
    specs: list[Spec] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.toml")):
        data = read_toml(path)
        entries = data.get("spec", [])
        if not isinstance(entries, list):
            raise InputError(f"{path} spec", "expected [[spec]] tables (a list of tables)")
        for i, entry in enumerate(entries):
            spec = _spec_from(entry, f"{path} spec[{i}]")
            if spec.id in seen:
                raise InputError(spec.source, f"duplicate spec id {spec.id!r}")
            seen.add(spec.id)
            if spec.variant is not None:
                spec = attrs.evolve(spec, variant=str((path.parent / spec.variant).resolve()))
            specs.append(spec)
    return specs


def usable_specs(directory: Path, label: str) -> list[Spec]:
    """The specs of ``directory``, which must hold at least one spec of a known game: a directory with none
    (another project's ``specs/``, an empty one) is an InputError naming it as ``label`` says, so that it
    never stands in for the shipped specs unnoticed."""
    from bgrules.core.registry import game_names

    if not directory.is_dir():
        raise InputError(label, "no such specs directory")
    specs = load_specs(directory)
    known = set(game_names())
    if not any(s.game in known for s in specs):
        hint = "; name the specs to use with --specs" if not label.startswith("--") else ""
        raise InputError(label, f"holds no spec of a known game ({', '.join(sorted(known))}){hint}")
    return specs


def default_invariants(
    game_name: str, players: int, specs_dir: Path
) -> list[tuple[str, str, Callable[..., str | None]]]:
    """The invariants of ``specs_dir`` for this game and player count on its default rules, one per
    predicate: (spec id, kind, predicate). Used by ``simulate`` and the benchmarks; an absent directory
    gives none (the caller decides whether that is an error)."""
    if not specs_dir.is_dir():
        return []
    out = []
    seen: set[str] = set()
    for spec in load_specs(specs_dir):
        if (
            spec.game == game_name
            and spec.players in (None, players)
            and spec.expected == "holds"
            and spec.variant is None
            and not spec.options
            and spec.predicate not in seen
        ):
            seen.add(spec.predicate)
            out.append((spec.id, spec.kind, resolve_predicate(spec.predicate, spec.source)))
    return out


_PREDICATE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def predicate_name(name: Any, where: str = "predicate") -> str:
    """``name`` if it is a predicate's path ``module:function`` (``package.module:name``: dotted Python
    names, no relative or empty part), else an InputError naming ``where``."""
    from bgrules.core.codec import show

    if not isinstance(name, str) or not _PREDICATE.fullmatch(name):
        raise InputError(where, f"a predicate is named module:function (e.g. my_rules.checks:money), not {show(name)}")
    return name


def resolve_predicate(name: str, where: str = "predicate") -> Callable[..., str | None]:
    """The function ``module:function`` names. Importing the module runs its code (docs/verify.md, "Code
    that runs"); a module that cannot be found, or whose import fails, is an InputError naming ``where``,
    the module and the one-line reason. User modules are found on the import path: the current directory
    is on it for both ``bgrules`` and ``python -m bgrules``."""
    module_name, _, attr = predicate_name(name, where).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(where, f"cannot find predicate {name!r}: {one_line(exc)}") from None
    except Exception as exc:  # the module's own code failed as it was imported
        raise InputError(where, f"importing {module_name} for predicate {name!r} failed: {one_line(exc)}") from None
    fn = getattr(module, attr, None)
    if fn is None:
        raise InputError(where, f"cannot find predicate {name!r}: module {module_name} has no {attr!r}")
    if not callable(fn):
        raise InputError(where, f"{name!r} is not callable")
    checked: Callable[..., str | None] = fn
    return checked


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception as one line: its class and its message, whitespace folded, cut at ``limit`` characters."""
    try:
        message = " ".join(str(exc).split())
    except Exception:  # a message that cannot be made (a str() that raises)
        message = ""
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Crash(str):
    """A predicate's exception, as the message it gives instead of a verdict: truthy, so the checkers stop
    checking that spec, which is then reported ``unknown`` (a FAIL row naming the exception), while the
    other specs of its group run on."""


def guarded(pred: Callable[..., str | None]) -> Callable[..., str | None]:
    """``pred``, returning a :class:`Crash` instead of raising (its ``__wrapped__``, so what it reads is
    still found: :func:`bgrules.core.observe.reader_of`)."""

    @functools.wraps(pred)
    def safe(*args: Any) -> str | None:
        try:
            return pred(*args)
        except Exception as exc:
            return Crash(f"the predicate raised {one_line(exc)}")

    return safe


def make_game(spec: Spec) -> Game:
    return load_game(spec.game, players=spec.players, variant=spec.variant, **spec.options)


def _check_step(
    spec_kind: str, pred: Callable[..., str | None], game: Game, before: Any, action: Any, after: Any
) -> str | None:
    if spec_kind == "state":
        return pred(game, after)
    return pred(game, before, action, after)


AGENT_MIX = AGENT_MIX_DEFAULT
"""The default mix of a sampled spec's games (``Budget.mix``): all the games but the agents' are random,
then 2 games with greedy in every seat, then 2 with one greedy seat (rotating) against random seats (a
count of 1 for ``random`` means "the rest"). The agents' games are few because greedy is 30-60x slower
per step than random play (docs/agents.md); each is played once per game and variant and replayed for
the other specs of that game (:func:`_agent_game`), so the mix costs little more than random games alone."""

_AGENT_GAMES: dict[tuple[Any, ...], tuple[tuple[tuple[Any, Any, Any], ...], coverage.Counts]] = {}
_AGENT_GAMES_LIMIT = 64


def _mix(budget: Budget, players: int) -> list[tuple[str, str | None, int]]:
    """The sampled games: (label, agents spec or None for random, seed), ``budget.games`` in all."""
    mix = budget.mix
    bad = [label for label, _n in mix if label not in MIX_LABELS]
    if bad:
        raise InputError("mix", f"unknown sampled games {', '.join(bad)}; valid: {', '.join(MIX_LABELS)}")
    agents_games = [(label, n) for label, n in mix if label != "random"]
    want = sum(n for _l, n in agents_games)
    if want > budget.games // 2:  # a small budget: at most half the games by agents, one of each first
        per = max(0, budget.games // 2) // max(1, len(agents_games))
        agents_games = [(label, min(n, per)) for label, n in agents_games]
        want = sum(n for _l, n in agents_games)
    out: list[tuple[str, str | None, int]] = []
    seed = budget.seed
    for _ in range(budget.games - want):
        out.append(("random", None, seed))
        seed += 1
    for label, n in agents_games:
        for k in range(n):
            if label == "greedy-vs-random":
                spec = ",".join("greedy" if i == k % players else "random" for i in range(players))
            else:
                spec = label
            out.append((label, spec, seed))
            seed += 1
    return out


def _agent_game(spec: Spec, game: Game, agents: str, seed: int, budget: Budget) -> tuple[tuple[Any, Any, Any], ...]:
    """The transitions of the seeded game played by ``agents`` (memoised per game, variant, options,
    seed and budget: every spec of a game checks the same agents' games)."""
    from bgrules.agents import parse_agents

    options = repr(sorted(spec.options.items()))
    key = (spec.game, spec.players, spec.variant, options, agents, seed, budget.max_steps, budget.max_rounds)
    got = _AGENT_GAMES.get(key)
    if got is None:
        with coverage.probe() as counted:
            steps = tuple(walk(game, seed, budget.max_steps, budget.max_rounds, parse_agents(agents, game.players)))
        got = (steps, counted)
        if len(_AGENT_GAMES) >= _AGENT_GAMES_LIMIT:
            _AGENT_GAMES.pop(next(iter(_AGENT_GAMES)))
        _AGENT_GAMES[key] = got
    here = coverage.active()
    if here is not None:  # the rules the game applied count each time it is checked, memoised or not
        here.effects.update(got[1].effects)
        here.refusals.update(got[1].refusals)
    return got[0]


def check_sampled(spec: Spec, game: Game, budget: Budget) -> Report:
    """Check every state (or transition, or whole game) of the sampled games of :func:`_mix`; the
    guarantee names the agents, the seeds, the states and how each game ended."""
    (report,) = check_sampled_together([spec], game, budget)
    return report


def check_sampled_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """:func:`check_sampled` of several specs of one game on the same sampled games, each game played
    once and every spec's predicate checked at each of its steps: what each spec reports is what it
    would report alone (its own verdict, guarantee and counterexample), but a group of n specs walks
    the games once instead of n times. Each report's ``seconds`` is the group's time shared evenly."""
    raw = [resolve_predicate(spec.predicate, spec.source) for spec in specs]
    preds = [guarded(p) for p in raw]
    start = time.perf_counter()
    states = 0
    truncated = 0
    plan = _mix(budget, game.players)
    ended: dict[str, int] = {}
    played: dict[str, list[int]] = {}
    failed: dict[int, tuple[str, list[Any]]] = {}
    crashes: set[int] = set()
    """The specs whose predicate raised: reported ``unknown``, not ``violated``."""
    live = list(range(len(specs)))
    initial = game.initial_state()
    for k in live:
        if specs[k].kind == "state":
            msg = preds[k](game, initial)
            if msg:
                failed[k] = (f"seed {plan[0][2] if plan else budget.seed}, initial state: {msg}", [])
                if isinstance(msg, Crash):
                    crashes.add(k)
    live = [k for k in live if k not in failed]
    for label, agents, seed in plan:
        if not live:
            break
        played.setdefault(label, []).append(seed)
        actions: list[Any] = []
        final = None
        steps = (
            walk(game, seed, budget.max_steps, budget.max_rounds)
            if agents is None
            else _agent_game(specs[0], game, agents, seed, budget)
        )
        stepwise = [k for k in live if specs[k].kind != "game"]
        # (index, is a state predicate, predicate) looked up once per game: the loop is verify's hot path
        # (the raw predicates, inside a try that costs nothing until one raises)
        checks = [(k, specs[k].kind == "state", raw[k]) for k in stepwise]
        for before, action, after in steps:
            actions.append(action)
            states += 1
            final = after
            hit = False
            for k, on_state, pred in checks:
                try:
                    msg = pred(game, after) if on_state else pred(game, before, action, after)
                except Exception as exc:
                    msg = Crash(f"the predicate raised {one_line(exc)}")
                if msg:
                    who = "" if agents is None else f" ({agents})"
                    failed[k] = (f"seed {seed}{who}, step {len(actions)}: {msg}", list(actions))
                    if isinstance(msg, Crash):
                        crashes.add(k)
                    hit = True
            if hit:
                checks = [c for c in checks if c[0] not in failed]
                live = [k for k in live if k not in failed]
                if not live:
                    break
        last = final if final is not None else initial
        if not game.is_terminal(last):
            truncated += 1
        else:  # a finished game has its winners among the seats (the seed's tie-breaks: BF-TIE, MC-END-TIE)
            won = game.winners(last)
            if not won or not set(won) <= set(range(game.players)):
                for k in live:
                    failed[k] = (f"seed {seed}: finished, winners {won!r}", list(actions))
                live = []
                break
        trigger = end_trigger(game, last) or "truncated"
        ended[trigger] = ended.get(trigger, 0) + 1
        for k in [k for k in live if specs[k].kind == "game"]:
            msg = preds[k](game, last, len(actions))
            if msg:
                failed[k] = (f"seed {seed}, after {len(actions)} steps: {msg}", list(actions))
                if isinstance(msg, Crash):
                    crashes.add(k)
        live = [k for k in live if k not in failed]
    share = (time.perf_counter() - start) / max(1, len(specs))
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in failed:
            detail, trace = failed[k]
            if trace and spec.kind in ("state", "transition"):  # a short counterexample replays the same
                shorter, _message = shrink_trace(spec, preds[k], game, trace, max_replays=200)
                if len(shorter) < len(trace):
                    detail += f" (shrunk to {len(shorter)} step(s))"
                    trace = shorter
            out.append(_violated(spec, "sampled", share, detail, trace, game, preds[k], crashed=k in crashes))
            continue
        out.append(
            Report(
                spec.id,
                "spec",
                spec.statement,
                spec.rules,
                "sampled",
                "holds",
                spec.expected,
                _sampled_guarantee(game, budget, played, states, ended, truncated),
                share,
            )
        )
    return out


def _sampled_guarantee(
    game: Game, budget: Budget, played: dict[str, list[int]], states: int, ended: dict[str, int], truncated: int
) -> str:
    if not states:
        raise InputError("budget", "the sampled games visited no state; that is not a check")
    parts = [f"{len(seeds)} {label} ({_span(seeds)})" for label, seeds in played.items()]
    games = sum(len(seeds) for seeds in played.values())
    if list(played) == ["random"]:  # random games only: the wording of 0.4.0
        first = played["random"][0]
        guarantee = f"sampled: {games} random games (seeds {first}-{first + games - 1}), {states} states"
    else:
        guarantee = f"sampled: {games} games: {', '.join(parts)}; {states} states"
    guarantee += "; ended by " + ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
    if truncated:
        cap = round_cap(game, budget.max_rounds)
        at = f"{budget.max_steps} steps" + (f" or {cap} rounds" if cap is not None else "")
        guarantee += f"; {truncated} game(s) truncated by the runner at {at}"
    return guarantee


def _span(seeds: list[int]) -> str:
    return f"seeds {seeds[0]}-{seeds[-1]}" if len(seeds) > 1 else f"seed {seeds[0]}"


def _violated(
    spec: Spec,
    checker: str,
    seconds: float,
    detail: str,
    actions: list[Any],
    game: Game,
    pred: Callable[..., str | None],
    *,
    crashed: bool = False,
) -> Report:
    """A counterexample: its detail, the actions' reprs (``witness``) and the replayable trace
    (:mod:`bgrules.core.trace`: every step's rule IDs and the invariant's value after it). ``crashed``: the
    predicate raised instead (``pred`` is :func:`guarded`): the verdict is ``unknown``, the trace the same."""
    from bgrules.core import trace as traces

    steps = traces.explain(game, actions, spec.kind, pred)
    initial = traces.initial_value(game, spec.kind, pred)
    data = traces.make_trace(
        spec.game,
        game,
        actions,
        options=spec.options,
        variant=spec.variant,
        spec=spec.id,
        checker=checker,
        steps=steps,
    )
    if initial:
        data["initial"] = initial
    return Report(
        spec.id,
        "spec",
        spec.statement,
        spec.rules,
        checker,
        "unknown" if crashed else "violated",
        spec.expected,
        f"{checker}: the predicate raised an exception, so no verdict"
        if crashed
        else f"{checker}: counterexample found",
        seconds,
        detail,
        tuple(repr(a) for a in actions),
        data,
    )


def _first_failure(
    spec: Spec, pred: Callable[..., str | None], game: Game, actions: list[Any]
) -> tuple[int, str] | None:
    """Replay ``actions``; the index (1-based step) and message of the first violation, or None if the
    actions are not all legal or nothing fails."""
    from bgrules.core.errors import IllegalAction

    state = game.initial_state()
    if spec.kind == "state":
        msg = pred(game, state)
        if msg:
            return 0, msg
    for i, action in enumerate(actions, start=1):
        if game.is_terminal(state):
            return None
        try:
            after = game.apply(state, action)
        except IllegalAction:
            return None
        msg = _check_step(spec.kind, pred, game, state, action, after)
        if msg:
            return i, msg
        state = after
    return None


def shrink_trace(
    spec: Spec, pred: Callable[..., str | None], game: Game, actions: list[Any], max_replays: int = 400
) -> tuple[list[Any], str]:
    """Delta debugging: drop chunks of actions while the rest stays legal and still fails.
    Bounded by ``max_replays`` replays, so a report never waits on an unbounded shrink."""
    first = _first_failure(spec, pred, game, actions)
    if first is None:  # the failure did not come back on replay (a predicate that is not a function of its arguments)
        return actions, "the failure did not repeat when the actions were replayed"
    actions = actions[: first[0]]
    message = first[1]
    replays = 0
    for k in range(len(actions) - 1, 0, -1):  # the longest removable prefix first
        replays += 1
        found = _first_failure(spec, pred, game, actions[k:])
        if found is not None:
            actions, message = actions[k:][: found[0]], found[1]
            break
    chunk = max(1, len(actions) // 2)
    while chunk >= 1 and replays < max_replays:
        i = 0
        changed = False
        while i < len(actions) and replays < max_replays:
            candidate = actions[:i] + actions[i + chunk :]
            replays += 1
            found = _first_failure(spec, pred, game, candidate)
            if found is not None:
                actions, message = candidate[: found[0]], found[1]
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return actions, message


def check_searched(spec: Spec, game: Game, budget: Budget) -> Report:
    """Hypothesis chooses the actions (derandomized, so reports repeat); a failing trace is then
    shrunk by :func:`shrink_trace` within a fixed number of replays."""
    (report,) = check_searched_together([spec], game, budget)
    return report


def check_searched_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """:func:`check_searched` of several specs of one game on the same hypothesis examples, every spec's
    predicate checked at each step. The examples hypothesis draws depend on the legal actions alone (never
    on a predicate), so each spec meets the examples it would meet alone, up to its first failure, and
    reports what it would report alone; a spec that failed is no longer checked. Each report's
    ``seconds`` is the search's time shared evenly, plus its own shrinking."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    preds = [guarded(resolve_predicate(spec.predicate, spec.source)) for spec in specs]
    start = time.perf_counter()
    found: dict[int, list[Any]] = {}
    cap = round_cap(game, budget.max_rounds)
    examples = 0

    @settings(
        max_examples=budget.examples,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=(Phase.generate,),
    )
    @given(st.data())
    def search(data: Any) -> None:
        nonlocal examples
        examples += 1
        live = [k for k in range(len(specs)) if k not in found]
        state = game.initial_state()
        actions: list[Any] = []
        for k in live:
            if specs[k].kind == "state" and preds[k](game, state):
                found[k] = []
        live = [k for k in live if k not in found]
        failed_here = False
        if len(found) == len(specs):
            raise _AllFound
        # The draws must not depend on which specs failed before (hypothesis notices a prefix it has seen
        # drawing less): an example goes on while any spec is live, and the search ends at once (not as a
        # failing example, which hypothesis would replay) when every spec has its counterexample.
        for _ in range(budget.max_steps):
            if game.is_terminal(state) or past_cap(game, state, cap):
                break
            if game.to_move(state) is CHANCE:
                outcomes = game.chance_outcomes(state)
                action = data.draw(st.sampled_from([a for a, _p in outcomes]))
            else:
                action = data.draw(st.sampled_from(game.legal_actions(state)))
            try:
                after = game.apply(state, action)
            except Exception:
                if failed_here:  # past a spec's counterexample the state may be one the rules cannot go on from
                    return
                raise
            actions.append(action)
            failed = [k for k in live if _check_step(specs[k].kind, preds[k], game, state, action, after)]
            for k in failed:
                found[k] = list(actions)
            if failed:
                failed_here = True
                live = [k for k in live if k not in found]
                if len(found) == len(specs):
                    raise _AllFound
            state = after

    with contextlib.suppress(_AllFound), _without_local_constants():
        search()
    share = (time.perf_counter() - start) / max(1, len(specs))
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in found:
            began = time.perf_counter()
            actions, message = shrink_trace(spec, preds[k], game, found[k])
            out.append(
                _violated(
                    spec,
                    "searched",
                    share + time.perf_counter() - began,
                    f"shrunk to {len(actions)} step(s): {message}",
                    actions,
                    game,
                    preds[k],
                    crashed=isinstance(message, Crash),
                )
            )
            continue
        if not examples:
            raise InputError("budget", "the search ran no example; that is not a check")
        guarantee = f"searched: {budget.examples} hypothesis examples of up to {budget.max_steps} steps" + (
            f" within {cap} rounds" if cap is not None else ""
        )
        out.append(
            Report(spec.id, "spec", spec.statement, spec.rules, "searched", "holds", spec.expected, guarantee, share)
        )
    return out


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    """Hypothesis draws some values from the constants of the "local" (not installed) modules the process
    has imported, so the searched checker's examples would depend on what the process imported before
    (a forked worker against a fresh one, an editable install against a wheel; docs/verify.md). Within a
    search it sees none: the examples depend on the spec, the game and the budget alone. Hypothesis's
    own constants stay. (Its internals: if they are not where this expects, the search runs as before.)"""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - another hypothesis layout
        yield
        return
    found = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if found is None or cache is None:  # pragma: no cover - another hypothesis layout
        yield
        return
    empty = Constants()
    cache.clear()  # the permitted constants of each kind of draw, computed with the local ones
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = found
        cache.clear()


class _AllFound(BaseException):
    """Every spec of a search has its counterexample: the search stops. A BaseException, so hypothesis
    lets it through at once instead of treating it as a failing example to replay."""


def _game_of(spec: Spec) -> Game:
    try:
        return make_game(spec)
    except BgrulesError as exc:
        raise InputError(spec.source, f"cannot load the game: {exc}") from None


def spec_budget(spec: Spec, game: Game, budget: Budget) -> Budget:
    """The budget ``spec`` runs with: ``budget``, unless forced, with the spec's own figures over it (and
    its ``thorough`` figures over those in a thorough run); ``max_steps = "game"`` is the game's bound."""
    if budget.forced:
        return budget
    changes = dict(spec.budget)
    if budget.thorough:
        changes.update(spec.thorough)
    if changes.get("max_steps") == "game":
        changes["max_steps"] = game.info.max_length
    return attrs.evolve(budget, **changes) if changes else budget


def run_spec(spec: Spec, budget: Budget, checkers: tuple[str, ...] | None = None) -> list[Report]:
    game = _game_of(spec)
    budget = spec_budget(spec, game, budget)
    out = []
    for checker in spec.checkers:
        if checkers is not None and checker not in checkers:
            continue
        with coverage.recording(checker):  # rule coverage of this checker (bgrules.core.coverage)
            if checker == "sampled":
                out.append(check_sampled(spec, game, budget))
            else:
                out.append(check_searched(spec, game, budget))
    return out


def sampled_groups(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[list[Spec]]:
    """The specs of ``checker`` that play the same games (same game, players, variant, options and
    budget), in the order of their first member: each group is checked by one :func:`run_group`."""
    groups: dict[tuple[Any, ...], list[Spec]] = {}
    for spec in specs:
        if checker not in spec.checkers:
            continue
        game = _game_of(spec)
        b = spec_budget(spec, game, budget)  # the figures the checker reads (the others differ harmlessly)
        b = attrs.evolve(b, examples=0) if checker == "sampled" else attrs.evolve(b, games=0, mix=())
        key = (spec.game, game.players, spec.variant, repr(sorted(spec.options.items())), b)
        groups.setdefault(key, []).append(spec)
    return list(groups.values())


def run_group(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[Report]:
    """``checker`` on a group of :func:`sampled_groups`, one report per spec, in order."""
    game = _game_of(specs[0])
    check = check_sampled_together if checker == "sampled" else check_searched_together
    with coverage.recording(checker):
        return check(specs, game, spec_budget(specs[0], game, budget))


__all__ = [
    "Budget",
    "Crash",
    "Report",
    "Spec",
    "check_sampled",
    "check_sampled_together",
    "check_searched",
    "check_searched_together",
    "load_specs",
    "run_group",
    "run_spec",
    "sample_chance",
    "sampled_groups",
    "spec_budget",
    "usable_specs",
]
