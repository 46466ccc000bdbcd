"""The ruling diff: the shortest action sequence on which two variants of a game part ways.

``find_difference`` loads a game twice, once per variant, and searches breadth first over action
sequences (chance outcomes are actions too) applied in lock-step to both games. A *difference* is anything
a player could observe: the initial states, whose turn it is, terminality, scores (winners at the end),
the legal action sets or chance outcomes and probabilities, an action legal in one game and refused by
the other (:class:`~bgrules.core.errors.IllegalAction` and its rule), or resulting states whose canonical
JSON (``bgrules.dumps``) differs. Visited states are deduplicated by their JSON (the two games' states stay
equal until a difference is found), and the search is bounded by depth, node count and time.

The breadth-first search is exhaustive over the players' actions. At chance nodes it follows the
``chance_width`` most probable outcomes (``None``: every outcome); whether the two games offer the same
outcomes with the same probabilities is checked at every chance node all the same. Whole games such as
Mechanica branch too much (about 50 actions per step) for an exhaustive search to reach a turn's end,
so when the breadth-first search runs out of nodes it falls back on random lock-step playouts (seeded;
one action type chosen uniformly, then one action of it) and shortens the first difference they meet by
deleting actions (delta debugging). The result says which method found it and whether it is proven
shortest: ``minimal`` is true when no sequence shorter than the one reported exists in the tree searched
exhaustively (``depth``).
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import random
import re
import textwrap
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import attrs

from bgrules.core.codec import dumps, unstructure
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.playout import past_cap, round_cap
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import load_game

RULE_ID = re.compile(r"\b(?:MC|BF)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")

DEFAULT_MAX_DEPTH = 60
"""Longest sequence looked at, by breadth-first search and by a playout."""
DEFAULT_MAX_NODES = 20_000
"""State pairs the breadth-first search may visit."""
DEFAULT_PLAYOUTS = 300
"""Random lock-step playouts tried once the breadth-first search has run out of nodes."""
DEFAULT_MAX_SECONDS = 20.0
"""Wall-clock bound of the whole search (checked between nodes and between playouts)."""
BFS_SHARE = 0.5
"""The part of ``max_seconds`` the breadth-first search may take."""
PLAYOUT_FINDS = 8
"""Playouts stop once this many have met a difference; the shortest is shortened."""

Kind = Literal["initial", "to_move", "terminal", "scores", "winners", "chance", "legal_actions", "legality", "state"]
Method = Literal["bfs", "playout", "none"]


@attrs.frozen
class Citation:
    """A rule ID and why it is cited (``illegal in B``, ``ruling off_floor``, ``action Install``)."""

    rule_id: str
    source: str


@attrs.frozen
class RulingChange:
    """A ``Rulings`` field (or a table of component data) that differs between the two variants."""

    field: str
    a: str
    b: str
    rule_ids: tuple[str, ...] = ()


@attrs.frozen
class DiffResult:
    """What ``find_difference`` found. ``sequence`` leads from the initial state to the difference; when
    the difference is about an action (``legal_actions``, ``legality``, ``state``), its last action is
    the witness."""

    game: str
    players: int
    variant_a: str
    variant_b: str
    found: bool
    depth: int
    """Every sequence of at most this many actions was checked (in the tree searched: all player actions,
    ``chance_width`` outcomes per chance node) and none differs."""
    nodes: int
    """State pairs visited (breadth-first search and playouts)."""
    seconds: float
    method: Method = "none"
    minimal: bool = False
    """True when the sequence is proven shortest in the tree searched (len(sequence) <= depth + 1)."""
    chance_width: int | None = 1
    sequence: tuple[Any, ...] = ()
    kind: Kind | None = None
    detail: str = ""
    only_a: tuple[Any, ...] = ()
    """Actions (or chance outcomes) legal in A only, at the end of the sequence (witness excluded)."""
    only_b: tuple[Any, ...] = ()
    citations: tuple[Citation, ...] = ()
    rulings: tuple[RulingChange, ...] = ()
    notes: tuple[str, ...] = ()
    """Anything odd met on the way, such as an action a game lists as legal but refuses."""
    exhausted: str = ""
    """Why the search stopped without a difference: ``depth``, ``nodes``, ``time`` or ``tree`` (every
    reachable pair visited)."""


@attrs.frozen
class _Found:
    sequence: tuple[Any, ...]
    kind: Kind
    detail: str
    only_a: tuple[Any, ...] = ()
    only_b: tuple[Any, ...] = ()
    illegal: tuple[Citation, ...] = ()


class _Budget:
    def __init__(self, max_nodes: int, max_seconds: float) -> None:
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + max_seconds
        self.nodes = 0
        self.notes: list[str] = []

    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

    def note(self, text: str) -> None:
        if text not in self.notes and len(self.notes) < 20:
            self.notes.append(text)


# --- comparing the two games --------------------------------------------------------------------------


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_diff(a: Any, b: Any, path: str = "$", out: list[str] | None = None, limit: int = 6) -> list[str]:
    """The paths at which two unstructured values differ, with both values (at most ``limit``)."""
    out = [] if out is None else out
    if len(out) >= limit or a == b:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if len(out) >= limit:
                break
            if key not in a or key not in b:
                out.append(
                    f"{path}.{key}: {'absent' if key not in a else _short(a[key])} vs "
                    f"{'absent' if key not in b else _short(b[key])}"
                )
            else:
                _json_diff(a[key], b[key], f"{path}.{key}", out, limit)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if len(out) >= limit:
                break
            _json_diff(x, y, f"{path}[{i}]", out, limit)
        return out
    out.append(f"{path}: {_short(a)} vs {_short(b)}")
    return out


def _state_diff(sa: Any, sb: Any) -> str:
    return "; ".join(_json_diff(unstructure(sa), unstructure(sb)))


def _actions_set(actions: Sequence[Any]) -> set[Any]:
    return set(actions)


def _try_apply(game: Game, state: Any, action: Any) -> tuple[Any, IllegalAction | None]:
    try:
        return game.apply(state, action), None
    except IllegalAction as exc:
        return None, exc


class _Pair:
    """The two games, and the checks made on a pair of states (equal JSON) and on one step from it."""

    def __init__(self, ga: Game, gb: Game, budget: _Budget, cap: int | None = None) -> None:
        self.ga = ga
        self.gb = gb
        self.budget = budget
        self.cap = cap
        """The runner's round cap (``bgrules.core.playout.round_cap``), or None."""

    def capped(self, s: Any) -> bool:
        """The runner's truncation: ``s`` lies past the round cap (noted once; the search does not go on)."""
        if not past_cap(self.ga, s, self.cap):
            return False
        self.budget.note(f"truncated: a sequence reached round {(self.cap or 0) + 1}, past the round cap")
        return True

    def state_check(self, sa: Any, sb: Any, seq: tuple[Any, ...]) -> _Found | None:
        """Differences visible in a pair of states with equal JSON (whose turn, end, scores)."""
        ga, gb = self.ga, self.gb
        ta, tb = ga.to_move(sa), gb.to_move(sb)
        if ta != tb:
            return _Found(seq, "to_move", f"to move: A {ta!r}, B {tb!r}")
        ea, eb = ga.is_terminal(sa), gb.is_terminal(sb)
        if ea != eb:
            return _Found(seq, "terminal", f"the game is over in {'A' if ea else 'B'} only")
        pa, pb = ga.scores(sa), gb.scores(sb)
        if pa != pb:
            return _Found(seq, "scores", f"scores: A {pa}, B {pb}")
        if ea:
            wa, wb = ga.winners(sa), gb.winners(sb)
            if wa != wb:
                return _Found(seq, "winners", f"winners: A {wa}, B {wb}")
        return None

    def options(self, s: Any, seq: tuple[Any, ...]) -> tuple[tuple[Any, ...], _Found | None]:
        """The actions (or outcomes, most probable first) of a pair of states, or their difference."""
        ga, gb = self.ga, self.gb
        if ga.to_move(s) is CHANCE:
            oa = dict(ga.chance_outcomes(s))
            ob = dict(gb.chance_outcomes(s))
            if oa != ob:
                only_a = tuple(a for a in oa if a not in ob)
                only_b = tuple(a for a in ob if a not in oa)
                changed = [f"{a!r}: {oa[a]} vs {ob[a]}" for a in oa if a in ob and oa[a] != ob[a]]
                detail = "chance outcomes differ"
                if changed:
                    detail += "; probabilities " + ", ".join(changed[:4])
                return (), _Found(seq, "chance", detail, only_a, only_b)
            order = sorted(range(len(oa)), key=lambda i: -list(oa.values())[i])
            keys = list(oa)
            return tuple(keys[i] for i in order), None
        la, lb = ga.legal_actions(s), gb.legal_actions(s)
        if la != lb:
            sa_set, sb_set = _actions_set(la), _actions_set(lb)
            if sa_set != sb_set:
                only_a = tuple(a for a in la if a not in sb_set)
                only_b = tuple(a for a in lb if a not in sa_set)
                return (), self._legal_diff(s, seq, only_a, only_b)
        return tuple(la), None

    def _legal_diff(self, s: Any, seq: tuple[Any, ...], only_a: tuple[Any, ...], only_b: tuple[Any, ...]) -> _Found:
        """Legal sets differ: the witness is the first action legal in one game only; each one-sided action
        (up to a few) is applied in the other game to learn the rule that refuses it."""
        cites: dict[str, Citation] = {}
        for actions, other, side in ((only_a, self.gb, "B"), (only_b, self.ga, "A")):
            for action in actions[:8]:
                _s, exc = _try_apply(other, s, action)
                if exc is not None:
                    cites.setdefault(exc.rule_id, Citation(exc.rule_id, f"{action!r} refused in {side}: {exc.why}"))
                else:
                    self.budget.note(
                        f"game bug? {type(other).__name__}.apply accepts {action!r} after {len(seq)} action(s) "
                        f"though legal_actions does not list it (variant {side})"
                    )
        witness = only_a[0] if only_a else only_b[0]
        side = "A" if only_a else "B"
        rest_a = tuple(a for a in only_a if a != witness)
        rest_b = tuple(a for a in only_b if a != witness)
        detail = (
            f"legal actions differ: {len(only_a)} legal in A only, {len(only_b)} in B only; "
            f"{witness!r} is legal in {side} only"
        )
        return _Found((*seq, witness), "legal_actions", detail, rest_a, rest_b, tuple(cites.values()))

    def step(self, s: Any, seq: tuple[Any, ...], action: Any) -> tuple[Any, _Found | None]:
        """Apply ``action`` (legal in both) to the shared state ``s`` in both games: the new state (one
        object, shared again when both games agree) or the difference. States that are equal values are
        taken as equal; unequal ones are compared by their JSON (``dumps``)."""
        new = (*seq, action)
        na, exc_a = _try_apply(self.ga, s, action)
        nb, exc_b = _try_apply(self.gb, s, action)
        if exc_a is not None and exc_b is not None:
            self.budget.note(
                f"game bug? {action!r} is listed as legal after {len(seq)} action(s) but apply refuses it in both "
                f"({exc_a.rule_id}: {exc_a.why})"
            )
            return None, None
        if exc_a is not None or exc_b is not None:
            exc = exc_a if exc_a is not None else exc_b
            assert exc is not None
            side = "A" if exc_a is not None else "B"
            cite = Citation(exc.rule_id, f"{action!r} refused in {side}: {exc.why}")
            self.budget.note(
                f"game bug? {action!r} is listed as legal in {side} after {len(seq)} action(s) but apply refuses it"
            )
            found = _Found(new, "legality", f"{action!r} is refused in {side} only ({exc.rule_id})", illegal=(cite,))
            return None, found
        if na != nb and dumps(na) != dumps(nb):
            return None, _Found(new, "state", "the resulting states differ: " + _state_diff(na, nb))
        return na, self.state_check(na, na, new)


def _dedup(items: Sequence[Citation]) -> list[Citation]:
    seen: set[tuple[str, str]] = set()
    out = []
    for c in items:
        if (c.rule_id, c.source) not in seen:
            seen.add((c.rule_id, c.source))
            out.append(c)
    return out


# --- the searches -------------------------------------------------------------------------------------


@attrs.frozen
class _Node:
    state: Any
    parent: _Node | None
    action: Any

    def sequence(self) -> tuple[Any, ...]:
        out = []
        node: _Node | None = self
        while node is not None and node.parent is not None:
            out.append(node.action)
            node = node.parent
        return tuple(reversed(out))


def _key(state: Any) -> Any:
    """The visited-set key: the state itself when hashable (equal values, equal JSON), else its JSON."""
    try:
        hash(state)
    except TypeError:
        return dumps(state)
    return state


def _bfs(pair: _Pair, s: Any, max_depth: int, chance_width: int | None) -> tuple[_Found | None, int, str]:
    """Breadth-first search; returns the difference (if any), the depth up to which every sequence was
    checked, and why it stopped (``found``, ``tree``, ``depth``, ``nodes``, ``time``)."""
    budget = pair.budget
    visited = {_key(s)}
    budget.nodes += 1
    level = [_Node(s, None, None)]
    depth = 0
    while level:
        if depth >= max_depth:
            return None, depth, "depth"
        nxt: list[_Node] = []
        for node in level:
            if budget.out_of_time():
                return None, depth, "time"
            if pair.ga.is_terminal(node.state) or pair.capped(node.state):
                continue
            seq = node.sequence()
            actions, found = pair.options(node.state, seq)
            if found is not None:
                return found, depth, "found"
            if chance_width is not None and pair.ga.to_move(node.state) is CHANCE:
                actions = actions[:chance_width]
            for action in actions:
                child, found = pair.step(node.state, seq, action)
                if found is not None:
                    return found, depth, "found"
                if child is None:
                    continue
                key = _key(child)
                if key in visited:
                    continue
                if budget.nodes >= budget.max_nodes:
                    return None, depth, "nodes"
                visited.add(key)
                budget.nodes += 1
                nxt.append(_Node(child, node, action))
        level = nxt
        depth += 1
    return None, depth, "tree"


def _pick(rng: random.Random, pair: _Pair, state: Any, actions: tuple[Any, ...]) -> Any:
    """A chance outcome by its probability; a player's action type uniformly, then an action of it."""
    if pair.ga.to_move(state) is CHANCE:
        outcomes = dict(pair.ga.chance_outcomes(state))
        return rng.choices(list(outcomes), weights=[float(p) for p in outcomes.values()])[0]
    by_type: dict[type, list[Any]] = {}
    for a in actions:
        by_type.setdefault(type(a), []).append(a)
    group = by_type[rng.choice(list(by_type))]
    return rng.choice(group)


def _walk(
    pair: _Pair,
    s: Any,
    prefix: tuple[Any, ...],
    sequence: Sequence[Any] | None,
    rng: random.Random | None,
    max_depth: int,
    trail: list[Any] | None = None,
) -> _Found | None:
    """Step both games from ``s`` (reached by ``prefix``) along ``sequence``, or along random actions from
    ``rng`` up to ``max_depth`` actions in all: the first difference met, or None (also when an action of
    ``sequence`` is not legal in both). ``trail`` collects the states passed."""
    seq = prefix
    steps = len(sequence) if sequence is not None else max_depth - len(prefix)
    for i in range(steps):
        if trail is not None:
            trail.append(s)
        if pair.ga.is_terminal(s) or pair.capped(s):
            return None
        actions, found = pair.options(s, seq)
        if found is not None:
            return found
        if sequence is not None:
            action = sequence[i]
            if action not in actions:
                return None
        elif not actions:
            return None
        else:
            assert rng is not None
            action = _pick(rng, pair, s, actions)
        s, found = pair.step(s, seq, action)
        pair.budget.nodes += 1
        if found is not None:
            return found
        if s is None:
            return None
        seq = (*seq, action)
    return None


def _shrink(pair: _Pair, s0: Any, found: _Found) -> _Found:
    """Delete chunks of actions (halving the chunk size, then single actions until nothing more can go)
    while the sequence stays playable and still leads to a difference; keeps the shortest. Replays start
    from the states recorded along the best sequence so far."""
    best = found

    def trail_of(seq: tuple[Any, ...]) -> list[Any]:
        trail: list[Any] = []
        _walk(pair, s0, (), seq[:-1], None, 0, trail)
        return trail

    trail = trail_of(best.sequence)
    size = max(1, len(best.sequence) // 2)
    while size >= 1:
        improved = False
        i = 0
        while i < len(trail) and not pair.budget.out_of_time():
            seq = best.sequence
            got = _walk(pair, trail[i], seq[:i], seq[i + size :], None, 0)
            if got is not None and len(got.sequence) < len(seq):
                best = got
                trail = trail_of(best.sequence)
                improved = True
            else:
                i += 1
        if size > 1:
            size //= 2
        elif not improved or pair.budget.out_of_time():
            break
    return best


# --- citations ----------------------------------------------------------------------------------------


def _field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under the fields of an attrs class (not kept at run time: read from source)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for stmt, after in zip(body, [*body[1:], None], strict=True):
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[stmt.target.id] = after.value.value
    return docs


def _variant_changes(va: Any, vb: Any) -> list[RulingChange]:
    if va is None or vb is None or not attrs.has(type(va)) or type(va) is not type(vb):
        return []
    out: list[RulingChange] = []
    for field in attrs.fields(type(va)):
        if field.name == "source":
            continue
        xa, xb = getattr(va, field.name), getattr(vb, field.name)
        if xa == xb:
            continue
        if field.name == "rulings" and attrs.has(type(xa)):
            docs = _field_docs(type(xa))
            for sub in attrs.fields(type(xa)):
                ra, rb = getattr(xa, sub.name), getattr(xb, sub.name)
                if ra != rb:
                    ids = tuple(dict.fromkeys(RULE_ID.findall(docs.get(sub.name, ""))))
                    out.append(RulingChange(f"rulings.{sub.name}", repr(ra), repr(rb), ids))
        else:
            paths = _json_diff(unstructure(xa), unstructure(xb), field.name, limit=3)
            out.append(RulingChange(field.name, "; ".join(paths), "(component data)", ()))
    return out


def _action_rules(action: Any) -> tuple[str, ...]:
    doc = type(action).__doc__ or ""
    return tuple(dict.fromkeys(RULE_ID.findall(doc)))


def _citations(found: _Found, changes: Sequence[RulingChange]) -> tuple[Citation, ...]:
    cites = list(found.illegal)
    for change in changes:
        cites.extend(Citation(r, f"ruling {change.field.removeprefix('rulings.')}") for r in change.rule_ids)
    witnesses = [found.sequence[-1]] if found.sequence else []
    witnesses += [*found.only_a[:3], *found.only_b[:3]]
    for action in witnesses:
        cites.extend(Citation(r, f"action {type(action).__name__}") for r in _action_rules(action))
    return tuple(_dedup(cites))


# --- the public function ------------------------------------------------------------------------------


def _source(variant: Any, game: Game) -> str:
    loaded = getattr(game, "variant", None)
    if isinstance(variant, str):
        return variant
    if variant is None:
        return "default"
    return str(getattr(loaded, "source", None) or type(variant).__name__)


def find_difference(
    game_name: str,
    variant_a: Any,
    variant_b: Any,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_nodes: int = DEFAULT_MAX_NODES,
    *,
    chance_width: int | None = 1,
    playouts: int = DEFAULT_PLAYOUTS,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    seed: int = 0,
    max_rounds: int | None = None,
) -> DiffResult:
    """The shortest action sequence from the initial state on which ``variant_a`` and ``variant_b`` of
    ``game_name`` differ observably (see the module docstring).

    Variants are anything ``load_game`` takes: None (the default rulings), a variant object, a mapping or
    a TOML path. ``options`` are the game's options (e.g. ``factory``, ``supply``, ``days`` for
    mechanica-factory). ``chance_width``: chance outcomes followed per chance node by the breadth-first
    search, most probable first (None: all). ``playouts``: random playouts tried when the breadth-first
    search runs out of nodes before ``max_depth`` (0: none). ``max_rounds``: the runner's round cap for
    games that count rounds (default the game's own, ``bgrules.core.playout.round_cap``): a sequence is not
    followed into the round after it, and a note says when a search was truncated so. Malformed input
    raises InputError.
    """
    if not isinstance(max_depth, int) or max_depth < 0:
        raise InputError("max_depth", f"a whole number of at least 0, not {max_depth!r}")
    if not isinstance(max_nodes, int) or max_nodes < 1:
        raise InputError("max_nodes", f"a whole number of at least 1, not {max_nodes!r}")
    if chance_width is not None and (not isinstance(chance_width, int) or chance_width < 1):
        raise InputError("chance_width", f"a whole number of at least 1, or None, not {chance_width!r}")
    opts = dict(options or {})
    started = time.perf_counter()
    ga = load_game(game_name, players=players, variant=variant_a, **opts)
    gb = load_game(game_name, players=players, variant=variant_b, **opts)
    if ga.state_type() is not gb.state_type():
        raise InputError("variant", "the two games do not share a state type")
    budget = _Budget(max_nodes, max_seconds)
    pair = _Pair(ga, gb, budget, round_cap(ga, max_rounds))
    changes = _variant_changes(getattr(ga, "variant", None), getattr(gb, "variant", None))
    base = functools.partial(
        DiffResult,
        game=game_name,
        players=ga.players,
        variant_a=_source(variant_a, ga),
        variant_b=_source(variant_b, gb),
        chance_width=chance_width if ga.info.has_chance else None,
        rulings=tuple(changes),
    )

    sa, sb = ga.initial_state(), gb.initial_state()
    found: _Found | None = None
    method: Method = "bfs"
    checked = 0
    why = ""
    if sa != sb and dumps(sa) != dumps(sb):
        found = _Found((), "initial", "the initial states differ: " + _state_diff(sa, sb))
    else:
        found = pair.state_check(sa, sb, ())
        if found is None:
            bfs_budget = _Budget(max_nodes, max_seconds * BFS_SHARE)
            bfs_budget.notes = budget.notes
            found, checked, why = _bfs(_Pair(ga, gb, bfs_budget, pair.cap), sa, max_depth, chance_width)
            budget.nodes += bfs_budget.nodes
    if found is None and why in ("nodes", "time") and playouts > 0:
        rng = random.Random(seed)
        tries = 0
        finds = 0
        while tries < playouts and not budget.out_of_time() and finds < PLAYOUT_FINDS:
            tries += 1
            got = _walk(pair, sa, (), None, rng, max_depth)
            if got is not None:
                finds += 1
                if found is None or len(got.sequence) < len(found.sequence):
                    found = got
        if found is not None:
            method = "playout"
            found = _shrink(pair, sa, found)
    seconds = round(time.perf_counter() - started, 3)
    if found is None:
        return base(
            found=False,
            depth=checked,
            nodes=budget.nodes,
            seconds=seconds,
            notes=tuple(budget.notes),
            exhausted=why or "depth",
        )
    return base(
        found=True,
        depth=min(checked, len(found.sequence) - 1) if found.sequence else 0,
        nodes=budget.nodes,
        seconds=seconds,
        method=method,
        minimal=len(found.sequence) <= checked + 1,
        sequence=found.sequence,
        kind=found.kind,
        detail=found.detail,
        only_a=found.only_a,
        only_b=found.only_b,
        citations=_citations(found, changes),
        notes=tuple(budget.notes),
    )


__all__ = [
    "Citation",
    "DiffResult",
    "RulingChange",
    "find_difference",
]
