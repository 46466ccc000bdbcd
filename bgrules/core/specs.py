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
    checkers = ["sampled", "searched", "explored"]
    options = { days = 6 }    # game options, optional
    variant = "path.toml"     # optional, relative to the spec file
    players = [2, 3, 4]       # optional: a player count, or a list of them (one verdict per count)
    target = "module:function" # optional: a number from a state the searched checker steers toward

Checkers: ``sampled`` plays random legal games from seeds 0..N-1 and checks every state (or
transition); ``searched`` lets hypothesis choose the actions (steered by the spec's ``target``) and
shrinks a failure to a short trace; ``explored`` visits every state reachable within ``depth`` plies
(:func:`bgrules.core.explore.explore`) and checks each one (a transition spec: each edge). A spec with a
list of player counts is one spec with a verdict per checker and count: its parts are
:func:`parts` (``ID-3P`` selects the 3-player part, :func:`select`).
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
from collections.abc import Callable
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

CHECKERS = ("sampled", "searched", "explored")
MIX_LABELS = ("random", "greedy", "greedy-vs-random")
AGENT_MIX_DEFAULT: tuple[tuple[str, int], ...] = (("random", 1), ("greedy", 2), ("greedy-vs-random", 2))


def player_counts(value: Any) -> tuple[int, ...] | None:
    """A spec's ``players`` as a tuple of counts (an int is one count; None: the game's default)."""
    if value is None:
        return None
    if isinstance(value, int):
        return (value,)
    return tuple(value)


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
    players: tuple[int, ...] | None = attrs.field(default=None, converter=player_counts)
    """The player counts the spec is checked at, each its own verdicts (an int given is one count; None:
    the game's default count)."""
    budget: dict[str, Any] = attrs.field(factory=dict)
    """Per-spec budget (games, examples, max_steps, search_steps, depth, max_states, starts, max_rounds; max_steps
    "game" = the game's maximum length), used unless the caller forces its own."""
    source: str = ""
    thorough: dict[str, Any] = attrs.field(factory=dict)
    """The budget of a ``--thorough`` run, over ``budget`` (the same keys)."""
    target: str | None = None
    """``module:function`` giving a number from ``(game, state)``: the searched checker steers its
    examples toward its highest values (``hypothesis.target``)."""

    @property
    def count(self) -> int | None:
        """The player count of a spec of one count (None: the game's default, or several counts)."""
        return self.players[0] if self.players is not None and len(self.players) == 1 else None


@attrs.frozen
class Budget:
    """How much each checker does: sampled games, searched examples, steps per game."""

    games: int = 40
    examples: int = 40
    max_steps: int = 400
    seed: int = 0
    search_steps: int | None = None
    """The searched checker's steps per example (None: ``max_steps``)."""
    depth: int = 2
    """The explored checker's depth (plies from the initial state)."""
    max_states: int = 20_000
    """The explored checker's bound on the distinct states kept (from each start)."""
    starts: int = 0
    """The explored checker's mid-game starts besides the initial state: start ``i`` is the state part way
    through the random game of seed ``i`` (:func:`midgame_starts`), each explored to ``depth`` plies."""
    database: str | None = None
    """The searched checker's example database (a directory; None: none): a counterexample found is saved
    there and replayed first the next time (:data:`DATABASE`; ``bgrules verify --no-database``)."""
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
    unknown = sorted(set(entry) - {*required, "options", "variant", "players", "budget", "thorough", "target"})
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
    if entry["kind"] == "game" and ("searched" in checkers or "explored" in checkers):
        raise InputError(where, "a 'game' spec (checked on whole games) takes the sampled checker only")
    options = table(entry.get("options", {}), f"{where} options")
    variant = entry.get("variant")
    if variant is not None and (not isinstance(variant, str) or not variant.strip()):
        raise InputError(f"{where} variant", f"the path of a variant file (text), not {show(variant)}")
    players = entry.get("players")
    if isinstance(players, list):
        if not players:
            raise InputError(f"{where} players", "a player count or a list of them, not an empty list")
        for i, n in enumerate(players):
            whole(n, f"{where} players[{i}]", 1, 64)
        if len(set(players)) != len(players):
            raise InputError(f"{where} players", f"each count once, not {show(players)}")
    elif players is not None:
        whole(players, f"{where} players", 1, 64)
    target = entry.get("target")
    if target is not None:
        target = predicate_name(target, f"{where} target")
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
        target=target,
    )


BUDGET_KEYS = ("games", "examples", "max_steps", "search_steps", "max_rounds", "depth", "max_states", "starts")


def _budget_table(table: Any, name: str, where: str) -> dict[str, Any]:
    if not isinstance(table, dict) or set(table) - set(BUDGET_KEYS):
        raise InputError(where, f"{name} is a table of {', '.join(BUDGET_KEYS)}")
    from bgrules.core.limits import MAXIMA

    for key, value in table.items():
        most = MAXIMA[_LIMIT_OF.get(key, "--" + key.replace("_", "-"))][0]
        if isinstance(value, bool) or (
            not (isinstance(value, int) and 0 < value <= most) and not (key == "max_steps" and value == "game")
        ):
            raise InputError(
                f"{where} {name}.{key}",
                f"a whole number from 1 to {most:,}" + (' or "game"' if key == "max_steps" else ""),
            )
    return dict(table)


_LIMIT_OF = {"search_steps": "--max-steps", "depth": "--depth", "max_states": "--nodes", "starts": "--games"}
"""The maximum of a budget key that has no command-line option of its own."""


def parts(spec: Spec) -> list[Spec]:
    """The spec once per player count (each with that one count), in the order the spec lists them; a
    spec of one count (or of the game's default) is its own only part."""
    if spec.players is None or len(spec.players) == 1:
        return [spec]
    return [attrs.evolve(spec, players=(n,)) for n in spec.players]


def part_label(spec: Spec) -> str:
    """The id that selects this part alone: ``ID-3P`` for the 3-player part (the spec's id when it has no
    player count)."""
    return spec.id if spec.count is None else f"{spec.id}-{spec.count}P"


def select(specs: list[Spec], only: str | None) -> list[Spec]:
    """The specs whose id contains ``only``, whole, and the parts of the others whose label (``ID-3P``,
    :func:`part_label`) contains it: ``--only BF-INV-LIMITS-3P`` selects that spec's 3-player part (the
    id the 3-player copy had before the counts were merged), ``--only 3P`` every spec's 3-player part."""
    if not only:
        return list(specs)
    out = []
    for spec in specs:
        if only in spec.id:
            out.append(spec)
            continue
        if spec.players is None:
            continue
        counts = tuple(n for n in spec.players if only in f"{spec.id}-{n}P")
        if counts:
            out.append(attrs.evolve(spec, players=counts))
    return out


def find_spec(specs: list[Spec], label: str) -> Spec | None:
    """The spec whose id is ``label``, or the part ``label`` names (``ID-3P``), or None."""
    for spec in specs:
        if spec.id == label:
            return spec
    for spec in specs:
        for n in spec.players or ():
            if f"{spec.id}-{n}P" == label:
                return attrs.evolve(spec, players=(n,))
    return None


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
            and (spec.players is None or players in spec.players)
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
    """The spec's game, at its first player count (a part of :func:`parts` has one)."""
    players = spec.players[0] if spec.players else None
    return load_game(spec.game, players=players, variant=spec.variant, **spec.options)


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


DATABASE = ".bgrules/hypothesis"
"""The searched checker's example database in a ``bgrules verify`` run, relative to the working directory
(``--no-database``: none). It only ever adds replays of counterexamples found before: a spec that holds
gets the same verdict and guarantee whatever the database holds."""


def check_searched(spec: Spec, game: Game, budget: Budget) -> Report:
    """Hypothesis chooses the actions (derandomized, so reports repeat), steered by the spec's
    ``target``; a failing trace is then shrunk by :func:`shrink_trace` within a fixed number of replays."""
    (report,) = check_searched_together([spec], game, budget)
    return report


def _choose(data: Any, n: int) -> int:
    """An index below ``n``, drawn as booleans, most significant first. Hypothesis's integer draws
    sometimes take a constant of the "local" modules the process has imported, so they would differ
    between processes with other import histories (a forked worker and a fresh one, an editable install
    and a wheel); its booleans never do, and shrink toward index 0 (the first legal action) all the same."""
    from hypothesis import strategies as st

    if n <= 1:
        return 0
    value = 0
    for _ in range((n - 1).bit_length()):
        value = 2 * value + int(data.draw(st.booleans()))
    return value - n if value >= n else value


def _database(budget: Budget) -> Any:
    if budget.database is None:
        return None
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(budget.database)


def _database_key(spec: Spec, game: Game) -> bytes:
    import json

    options = json.dumps(sorted(spec.options.items()), default=str)
    return f"bgrules-searched\0{spec.id}\0{spec.game}\0{game.players}\0{spec.variant}\0{options}".encode()


def _replayed(db: Any, spec: Spec, pred: Callable[..., str | None], game: Game) -> list[Any] | None:
    """The first counterexample saved for ``spec`` (in the order of their bytes) that still fails when
    replayed: its actions up to the failure; saved ones that no longer fail are deleted."""
    import json

    from bgrules.core.trace import parse_actions

    key = _database_key(spec, game)
    for value in sorted(db.fetch(key)):
        try:
            actions = parse_actions(game, json.loads(value.decode("utf-8")), "database")
        except Exception:  # another format, another version of the game's actions
            db.delete(key, value)
            continue
        first = _first_failure(spec, pred, game, actions)
        if first is not None:
            return actions[: first[0]]
        db.delete(key, value)
    return None


def _save(db: Any, spec: Spec, game: Game, actions: list[Any]) -> None:
    import json

    from bgrules.core.codec import action_to_data

    db.save(_database_key(spec, game), json.dumps([action_to_data(a) for a in actions], sort_keys=True).encode())


def check_searched_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """:func:`check_searched` of several specs of one game (and one ``target``) on the same hypothesis
    examples, every spec's predicate checked at each step. The examples hypothesis draws depend on the
    legal actions and the target alone (never on a predicate), so each spec meets the examples it would
    meet alone, up to its first failure, and reports what it would report alone; a spec that failed is no
    longer checked. Public hypothesis only: ``@given`` with its own derandomized ``settings``, the
    actions drawn as booleans (:func:`_choose`), ``hypothesis.target`` on the highest value of the
    target over each example's states. A counterexample saved in the example database
    (``budget.database``) is replayed first. Each report's ``seconds`` is the search's time shared
    evenly, plus its own shrinking."""
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import strategies as st

    preds = [guarded(resolve_predicate(spec.predicate, spec.source)) for spec in specs]
    aims = sorted({spec.target for spec in specs if spec.target is not None})
    goals: list[tuple[str, Callable[..., Any]]] = [
        (name, resolve_predicate(name, f"{specs[0].source} target")) for name in aims
    ]
    start = time.perf_counter()
    found: dict[int, list[Any]] = {}
    replayed: set[int] = set()
    db = _database(budget)
    if db is not None:
        for k, spec in enumerate(specs):
            if spec.kind in ("state", "transition"):
                again = _replayed(db, spec, preds[k], game)
                if again is not None:
                    found[k] = again
                    replayed.add(k)
    cap = round_cap(game, budget.max_rounds)
    steps_per = budget.search_steps or budget.max_steps
    examples = 0
    walked = 0
    highest: dict[str, float] = {}

    @settings(
        max_examples=budget.examples,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=(Phase.generate, Phase.target) if goals else (Phase.generate,),
    )
    @given(st.data())
    def search(data: Any) -> None:
        nonlocal examples, walked
        examples += 1
        live = [k for k in range(len(specs)) if k not in found]
        state = game.initial_state()
        actions: list[Any] = []
        best = [float(fn(game, state)) for _name, fn in goals]
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
        try:
            for _ in range(steps_per):
                if game.is_terminal(state) or past_cap(game, state, cap):
                    break
                if game.to_move(state) is CHANCE:
                    choices = [a for a, _p in game.chance_outcomes(state)]
                else:
                    choices = list(game.legal_actions(state))
                action = choices[_choose(data, len(choices))]
                try:
                    after = game.apply(state, action)
                except Exception:
                    if failed_here:  # past a counterexample the state may be one the rules cannot go on from
                        return
                    raise
                actions.append(action)
                walked += 1
                failed = [k for k in live if _check_step(specs[k].kind, preds[k], game, state, action, after)]
                for k in failed:
                    found[k] = list(actions)
                if failed:
                    failed_here = True
                    live = [k for k in live if k not in found]
                    if len(found) == len(specs):
                        raise _AllFound
                state = after
                for i, (_name, fn) in enumerate(goals):
                    best[i] = max(best[i], float(fn(game, state)))
        finally:
            for (name, _fn), value in zip(goals, best, strict=True):
                highest[name] = max(highest.get(name, value), value)
        for (name, _fn), value in zip(goals, best, strict=True):
            target(value, label=name)

    if len(found) < len(specs):
        with contextlib.suppress(_AllFound):
            search()
    share = (time.perf_counter() - start) / max(1, len(specs))
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in found:
            began = time.perf_counter()
            actions, message = shrink_trace(spec, preds[k], game, found[k])
            if db is not None and not isinstance(message, Crash):
                _save(db, spec, game, actions)
            report = _violated(
                spec,
                "searched",
                share + time.perf_counter() - began,
                f"shrunk to {len(actions)} step(s): {message}",
                actions,
                game,
                preds[k],
                crashed=isinstance(message, Crash),
            )
            if k in replayed:
                report = attrs.evolve(report, guarantee=report.guarantee + " (replayed from the example database)")
            out.append(report)
            continue
        if not examples:
            raise InputError("budget", "the search ran no example; that is not a check")
        guarantee = f"searched: {examples} hypothesis examples of up to {steps_per} steps" + (
            f" within {cap} rounds" if cap is not None else ""
        )
        guarantee += f"; {walked} steps checked"
        if spec.target is not None:
            guarantee += f"; target {spec.target.rpartition(':')[2]}: highest {_number(highest[spec.target])}"
        out.append(
            Report(spec.id, "spec", spec.statement, spec.rules, "searched", "holds", spec.expected, guarantee, share)
        )
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


class _AllFound(BaseException):
    """Every spec of a search has its counterexample: the search stops. A BaseException, so hypothesis
    lets it through at once instead of treating it as a failing example to replay."""


def check_explored(spec: Spec, game: Game, budget: Budget) -> Report:
    """Every state reachable within ``budget.depth`` plies checked (:func:`check_explored_together`)."""
    (report,) = check_explored_together([spec], game, budget)
    return report


def midgame_starts(game: Game, count: int, seed: int = 0) -> list[tuple[list[Any], Any]]:
    """``count`` states from the middle of games, each with the actions (chance outcomes included) that
    reach it from the initial state: start ``i`` is the state ``(i + 1) / count`` of the way through the
    uniform random game of seed ``seed + i`` (:func:`bgrules.core.playout.walk`, the runner's bounds), so
    the starts spread from early play to the last state before the game's end (or its truncation). The
    same game and figures give the same starts."""
    out: list[tuple[list[Any], Any]] = []
    for i in range(count):
        steps = list(walk(game, seed + i))
        if not steps:
            continue
        at = max(0, len(steps) * (i + 1) // count - 1)
        out.append(([a for _s, a, _n in steps[:at]], steps[at][0]))
    return out


def check_explored_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """The explored checker: :func:`bgrules.core.explore.explore` breadth-first from the initial state to
    ``budget.depth`` plies (at most ``budget.max_states`` distinct states, every state itself: no
    symmetry), then as far from each of ``budget.starts`` mid-game states (:func:`midgame_starts`), each
    spec's predicate checked on every distinct state (a state spec) or on every edge expanded (a
    transition spec: every action and chance outcome of every state expanded). The first violation found
    from a start is at the least depth from it, and its trace the actions to the start, then the
    explorer's shortest path from there, then the step; it is not shrunk further. The guarantee names the
    depth, the starts, the distinct states and whether each exploration was complete (nothing left
    unexplored)."""
    from bgrules.core.explore import explore

    for spec in specs:
        if spec.kind not in ("state", "transition"):
            raise InputError(spec.source, "the explored checker takes state and transition specs")
    preds = [guarded(resolve_predicate(spec.predicate, spec.source)) for spec in specs]
    start = time.perf_counter()
    failed: dict[int, tuple[list[Any], int, Any, str]] = {}
    """spec -> (the actions of its trace, how many reach its start, the step's state or None at a start,
    the message)."""
    live = list(range(len(specs)))
    edges = distinct = 0
    stopped: list[str] = []
    starts = [([], game.initial_state()), *midgame_starts(game, budget.starts, budget.seed)]
    hits: dict[int, tuple[Any, Any, str]] = {}
    """spec -> (the state the failing step came from, the step, the message), from the current start."""

    def visit(state: Any, step: Any, child: Any, new: bool) -> bool:
        nonlocal live, edges
        edges += 1
        hit = False
        for k in live:
            if specs[k].kind == "state":
                if not new:
                    continue
                msg = preds[k](game, child)
            else:
                msg = preds[k](game, state, step, child)
            if msg:
                hits[k] = (state, step, msg)
                hit = True
        if hit:
            live = [k for k in live if k not in hits]
        return not live

    for prefix, state0 in starts:
        if not live:
            break
        for k in live:
            if specs[k].kind == "state":
                msg = preds[k](game, state0)
                if msg:
                    failed[k] = (list(prefix), len(prefix), None, msg)
        live = [k for k in live if k not in failed]
        hits.clear()
        found = explore(
            game,
            depth=budget.depth,
            symmetry=False,
            max_states=budget.max_states,
            start=state0,
            visit=visit if live else None,
        )
        distinct += found.distinct
        if not found.complete:
            stopped.append(found.stopped or "budget")
        for k, (state, step, msg) in hits.items():
            path = found.path_to(state)
            assert path is not None  # every state expanded was reached
            failed[k] = ([*prefix, *path, step], len(prefix), state, msg)
    share = (time.perf_counter() - start) / max(1, len(specs))
    how = "complete" if not stopped else f"incomplete (stopped by {', '.join(sorted(set(stopped)))})"
    where = "the initial state"
    if len(starts) > 1:
        seeds = f"seed {budget.seed}" if len(starts) == 2 else f"seeds {budget.seed}-{budget.seed + len(starts) - 2}"
        where += f" and of {len(starts) - 1} mid-game state(s) (random games, {seeds})"
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in failed:
            actions, before, at, msg = failed[k]
            if at is None:
                detail = f"mid-game start after {before} actions: {msg}" if before else f"initial state: {msg}"
            elif before:
                detail = f"depth {len(actions) - before} from the mid-game start after {before} actions: {msg}"
            else:
                detail = f"depth {len(actions)} (a shortest trace): {msg}"
            out.append(
                _violated(spec, "explored", share, detail, actions, game, preds[k], crashed=isinstance(msg, Crash))
            )
            continue
        what = "states" if spec.kind == "state" else f"states, {edges} edges"
        guarantee = (
            f"explored: every state within {budget.depth} plies of {where} ({distinct} distinct "
            f"{what}; max_states {budget.max_states}), {how}"
        )
        out.append(
            Report(spec.id, "spec", spec.statement, spec.rules, "explored", "holds", spec.expected, guarantee, share)
        )
    return out


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


def _checker(checker: str) -> Callable[[list[Spec], Game, Budget], list[Report]]:
    """The function that checks a group of specs with ``checker``."""
    if checker == "sampled":
        return check_sampled_together
    if checker == "searched":
        return check_searched_together
    return check_explored_together


def _with_players(reports: list[Report], spec: Spec, game: Game) -> list[Report]:
    """The reports of a spec that names its player counts carry the count they were checked at."""
    if spec.players is None:
        return reports
    return [attrs.evolve(r, players=game.players) for r in reports]


def run_spec(spec: Spec, budget: Budget, checkers: tuple[str, ...] | None = None) -> list[Report]:
    """Every checker of ``spec`` (of ``checkers``, when given) at each of its player counts: per checker,
    its reports in the order of the spec's counts."""
    out = []
    games = [(part, _game_of(part)) for part in parts(spec)]
    for checker in spec.checkers:
        if checkers is not None and checker not in checkers:
            continue
        for part, game in games:
            b = spec_budget(part, game, budget)
            with coverage.recording(checker):  # rule coverage of this checker (bgrules.core.coverage)
                out += _with_players(_checker(checker)([part], game, b), spec, game)
    return out


def _key_budget(b: Budget, checker: str) -> Budget:
    """The figures of ``b`` the checker reads (the others zeroed: they differ harmlessly)."""
    if checker == "sampled":
        return attrs.evolve(b, examples=0, search_steps=None, depth=0, max_states=0, database=None)
    if checker == "searched":
        return attrs.evolve(
            b, games=0, mix=(), max_steps=0, search_steps=b.search_steps or b.max_steps, depth=0, max_states=0
        )
    return attrs.evolve(
        b, games=0, mix=(), examples=0, max_steps=0, search_steps=None, max_rounds=None, database=None, seed=0
    )


def sampled_groups(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[list[Spec]]:
    """The specs of ``checker`` that play the same games (same game, player count, variant, options and
    budget; for the searched checker the same target too), in the order of their first member, one part
    per player count (:func:`parts`): each group is checked by one :func:`run_group`."""
    groups: dict[tuple[Any, ...], list[Spec]] = {}
    for whole_spec in specs:
        if checker not in whole_spec.checkers:
            continue
        for spec in parts(whole_spec):
            game = _game_of(spec)
            b = _key_budget(spec_budget(spec, game, budget), checker)
            aim = spec.target if checker == "searched" else None
            key = (spec.game, game.players, spec.variant, repr(sorted(spec.options.items())), b, aim)
            groups.setdefault(key, []).append(spec)
    return list(groups.values())


def run_group(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[Report]:
    """``checker`` on a group of :func:`sampled_groups`, one report per spec, in order."""
    game = _game_of(specs[0])
    check = _checker(checker)
    with coverage.recording(checker):
        reports = check(specs, game, spec_budget(specs[0], game, budget))
    return [r for spec, report in zip(specs, reports, strict=True) for r in _with_players([report], spec, game)]


__all__ = [
    "Budget",
    "Crash",
    "Report",
    "Spec",
    "check_explored",
    "check_explored_together",
    "check_sampled",
    "check_sampled_together",
    "check_searched",
    "check_searched_together",
    "find_spec",
    "load_specs",
    "parts",
    "run_group",
    "run_spec",
    "sample_chance",
    "sampled_groups",
    "select",
    "spec_budget",
    "usable_specs",
]
