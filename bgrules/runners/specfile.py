"""The invariant specs as data: :class:`Spec` and its :class:`Budget`, read from ``specs/*.toml``
(:func:`load_specs`), selected (:func:`select`, :func:`parts`), their predicates resolved and guarded
(a predicate that raises is a :class:`Crash`, a verdict, never an escape). The checkers that run them are
:mod:`bgrules.runners.sampled`, :mod:`bgrules.runners.searched` and :mod:`bgrules.runners.explored`;
:mod:`bgrules.runners.specs` runs a spec with each of its checkers."""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from bgrules.core.codec import identifier, read_toml, show, table, text, texts, whole
from bgrules.core.errors import InputError
from bgrules.core.limits import MAXIMA
from bgrules.core.protocol import Game
from bgrules.core.registry import game_names, load_game

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

    if not directory.is_dir():
        raise InputError(label, "no such specs directory")
    specs = load_specs(directory)
    known = set(game_names())
    if not any(s.game in known for s in specs):
        hint = "; name the specs to use with --specs" if not label.startswith("--") else ""
        raise InputError(label, f"holds no spec of a known game ({', '.join(sorted(known))}){hint}")
    return specs


COMPARISONS = ("bgrules.core.refinement:refines",)
"""Predicates that compare the engine with another engine rather than state a fact of the game: the
refinement specs' (docs/refinement.md). ``verify`` runs them; they are not among the invariants
``simulate`` checks at every step (each costs a whole reference step and more: 30 to 60 times a step)."""


def default_invariants(
    game_name: str, players: int, specs_dir: Path
) -> list[tuple[str, str, Callable[..., str | None]]]:
    """The invariants of ``specs_dir`` for this game and player count on its default rules, one per
    predicate: (spec id, kind, predicate), the engine comparisons (:data:`COMPARISONS`) left to ``verify``.
    Used by ``simulate`` and the benchmarks; an absent directory gives none (the caller decides whether
    that is an error)."""
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
            and spec.predicate not in COMPARISONS
        ):
            seen.add(spec.predicate)
            out.append((spec.id, spec.kind, resolve_predicate(spec.predicate, spec.source)))
    return out


_PREDICATE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def predicate_name(name: Any, where: str = "predicate") -> str:
    """``name`` if it is a predicate's path ``module:function`` (``package.module:name``: dotted Python
    names, no relative or empty part), else an InputError naming ``where``."""

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


__all__ = [
    "Budget",
    "Crash",
    "Spec",
    "find_spec",
    "load_specs",
    "parts",
    "select",
    "usable_specs",
]
