"""Rule clarifications as artefacts: a question, our ruling, witness scenarios and properties, in one file.

A clarification file (``specs/clarifications/*.toml``; format in docs/clarifications.md)::

    id = "..."                          # a unique name (ours: the game prefix, "CL", a name)
    question = "README Q15: ..."        # the open question, citing its source
    answer = "..."                      # the ruling in words
    game = "mechanica-factory"
    players = 1                         # optional: the game's default
    rules = ["MC-MOVE-OFF"]
    [ruling]                            # variant [rulings] settings; empty = the default reading
    off_floor = "destroy"
    [options]                           # load_game options (factory, supply, days, max_rounds)
    days = 2
    [[witness]]                         # a scenario and its expected outcome
    name = "route-north"
    start = { ... }                     # optional patch of the initial state (a table or JSON text)
    actions = [{ type = "Fabricate" }]  # replayed from the (patched) initial state
    expect = { state = { destroyed = 1 } }
    [[property]]                        # an invariant that must hold under the ruling
    predicate = "bgrules.mechanica.invariants:bots_conserved"

:func:`load_clarification` reads and validates a file (every problem is an :class:`~bgrules.InputError`
naming the file and the field); :func:`check_clarification` gives one :class:`~bgrules.runners.report.Report`
per witness (checker ``witness``) and per property checker (``sampled`` / ``searched``, the spec runner's);
:func:`check_files` does both for many files or directories.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.codec import (
    action_from_data,
    action_to_data,
    checked,
    identifier,
    parse_json,
    read_toml,
    structure,
    unstructure,
)
from bgrules.core.errors import BgrulesError, IllegalAction, InputError
from bgrules.core.limits import MAXIMA, WHOLE_MAX
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import load_game
from bgrules.runners.report import Report
from bgrules.runners.sampled import check_sampled
from bgrules.runners.searched import check_searched
from bgrules.runners.specfile import Budget, Spec, one_line, resolve_predicate

CHECKERS = ("sampled", "searched")
"""The checkers of a clarification's properties."""

VERDICTS = ("holds", "violated")
KINDS = ("state", "transition", "game")
TOP_KEYS = ("id", "question", "answer", "game", "players", "rules", "ruling", "options", "witness", "property")
WITNESS_KEYS = ("name", "statement", "ruling", "start", "actions", "expect", "expected")
EXPECT_KEYS = ("illegal", "state", "predicate", "legal", "not_legal", "terminal", "to_move", "scores", "winners")
PROPERTY_KEYS = ("id", "statement", "predicate", "kind", "checker", "checkers", "expected", "budget")
BUDGET_KEYS = ("games", "examples", "max_steps", "seed")
DEFAULT_BUDGET = Budget(games=10, examples=10, max_steps=200)
"""Properties are checked on small budgets by default: a clarification is read, not a soak test."""


@attrs.frozen
class Expect:
    """What a witness's outcome must be. Every given check must pass; at least one is given."""

    illegal: str | None = None
    """The last action must be refused with ``IllegalAction`` naming this rule ID (and must not be listed
    among the legal actions); the other checks then apply to the state before it."""
    state: Any = None
    """A pattern matched against the final state's JSON form (``bgrules.dumps``): a table matches when each
    of its keys (field names, or list indices written as numbers) matches; anything else must be equal."""
    predicate: str | None = None
    """``module:function`` called as ``f(game, state)``; it must return None (no complaint)."""
    legal: tuple[Any, ...] = ()
    """Actions that must be legal in the final state."""
    not_legal: tuple[Any, ...] = ()
    """Actions that must not be legal in the final state."""
    terminal: bool | None = None
    to_move: int | str | None = None
    """A player index, ``"chance"`` or ``"none"`` (terminal)."""
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


@attrs.frozen
class Witness:
    """A scenario: a start state (the initial state, optionally patched), actions, and the expected outcome."""

    name: str
    statement: str
    actions: tuple[Any, ...]
    expect: Expect
    expected: str = "holds"
    ruling: dict[str, Any] = attrs.field(factory=dict)
    """This witness's ruling: the clarification's, with this witness's own settings over it."""
    start: Any = None
    """The patch applied to the initial state (plain data), or None."""
    where: str = ""


@attrs.frozen
class Property:
    """An invariant that must hold under the ruling, with its checkers and budget."""

    id: str
    statement: str
    predicate: str
    kind: str = "state"
    checkers: tuple[str, ...] = ("sampled",)
    expected: str = "holds"
    budget: Budget = DEFAULT_BUDGET
    where: str = ""


@attrs.frozen
class Clarification:
    id: str
    question: str
    answer: str
    game: str
    players: int | None
    rules: tuple[str, ...]
    ruling: dict[str, Any]
    options: dict[str, Any]
    witnesses: tuple[Witness, ...]
    properties: tuple[Property, ...]
    source: str = ""
    variant: dict[str, Any] = attrs.field(factory=dict)
    """A base variant (a box holder's corrected component data, say) under the clarification's ruling: its
    component tables replace the default figures, the clarification's ``[ruling]`` goes over its ``[rulings]``."""


# --- loading ------------------------------------------------------------------------------------------


def _require(table: Mapping[str, Any], keys: Sequence[str], allowed: Sequence[str], where: str) -> None:
    if not isinstance(table, Mapping):
        raise InputError(where, "expected a table")
    missing = [k for k in keys if k not in table]
    if missing:
        raise InputError(where, f"missing {', '.join(missing)}")
    unknown = sorted(str(k) for k in set(table) - set(allowed))
    if unknown:
        raise InputError(where, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(where, "expected non-empty text")
    return value


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(where, "expected a table")
    return dict(value)


def _data(value: Any, where: str) -> Any:
    """A table as is, or JSON text (for values TOML cannot write, such as null)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise InputError(where, f"malformed JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None
        except (RecursionError, ValueError):
            return parse_json(value, f"{where} ")  # deep nesting, a number too long: parse_json says which
    if not isinstance(value, dict):
        raise InputError(where, "expected a table or JSON text")
    return value


def _verdict(value: Any, where: str) -> str:
    if value not in VERDICTS:
        raise InputError(where, f"expected is 'holds' or 'violated', not {value!r}")
    return str(value)


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(where, "expected a list of whole numbers")
    return tuple(value)


def _make_game(
    c_game: str,
    players: int | None,
    ruling: Mapping[str, Any],
    options: Mapping[str, Any],
    base: Mapping[str, Any] | None = None,
) -> Game:
    variant: dict[str, Any] = dict(base or {})
    rulings = variant.get("rulings", {})
    if not isinstance(rulings, Mapping):
        raise InputError("variant [rulings]", "expected a table of ruling switches")
    variant["rulings"] = {**rulings, **ruling}
    return load_game(c_game, players=players, variant=variant, **options)


def variant_data(variant: str | Path | Mapping[str, Any] | None) -> dict[str, Any]:
    """A base variant for clarifications: a TOML file's path, its parsed data, or None (the default data)."""
    if variant is None:
        return {}
    if isinstance(variant, Mapping):
        return dict(variant)
    return read_toml(variant)


def _patch(base: Any, patch: Any, where: str) -> Any:
    """``patch`` laid over ``base``: tables merge key by key (a table over a list patches items by index),
    anything else replaces. A key the base lacks is an error, so a misspelt field is caught."""
    if isinstance(patch, dict) and isinstance(base, dict):
        out = dict(base)
        for key, value in patch.items():
            if key not in base:
                raise InputError(f"{where}.{key}", f"the state has no field {key!r}; fields: {', '.join(sorted(base))}")
            out[key] = _patch(base[key], value, f"{where}.{key}")
        return out
    if isinstance(patch, dict) and isinstance(base, list):
        items = list(base)
        for key, value in patch.items():
            i = int(key) if isinstance(key, str) and key.isdigit() and len(key) < 10 else -1
            if not 0 <= i < len(base):
                raise InputError(f"{where}.{key}", f"not an index of a list of {len(base)} (0 to {len(base) - 1})")
            items[i] = _patch(items[i], value, f"{where}[{key}]")
        return items
    return patch


def start_state(game: Game, patch: Any, where: str = "start") -> Any:
    """The game's initial state with ``patch`` (plain data, as in :func:`_patch`) laid over its JSON form."""
    state = game.initial_state()
    if patch is None:
        return state
    data = _patch(_plain(state), patch, where)
    return checked(game, structure(data, game.state_type(), where), where)


def _actions(value: Any, game: Game, where: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InputError(where, 'expected a list of actions, e.g. [{type = "Fabricate"}]')
    return tuple(action_from_data(a, game.action_types(), f"{where}[{i}]") for i, a in enumerate(value))


def _expect(value: Any, game: Game, where: str) -> Expect:
    table = _table(value, where)
    _require(table, (), EXPECT_KEYS, where)
    if not table:
        raise InputError(where, f"give at least one check: {', '.join(EXPECT_KEYS)}")
    illegal = table.get("illegal")
    if illegal is not None:
        _text(illegal, f"{where}.illegal")
    predicate = table.get("predicate")
    if predicate is not None:
        resolve_predicate(_text(predicate, f"{where}.predicate"), f"{where}.predicate")
    terminal = table.get("terminal")
    if terminal is not None and not isinstance(terminal, bool):
        raise InputError(f"{where}.terminal", "expected true or false")
    to_move = table.get("to_move")
    if to_move is not None and not (
        (isinstance(to_move, int) and not isinstance(to_move, bool)) or to_move in ("chance", "none")
    ):
        raise InputError(f"{where}.to_move", 'expected a player index, "chance" or "none"')
    return Expect(
        illegal=illegal,
        state=_data(table["state"], f"{where}.state") if "state" in table else None,
        predicate=predicate,
        legal=_actions(table.get("legal", []), game, f"{where}.legal"),
        not_legal=_actions(table.get("not_legal", []), game, f"{where}.not_legal"),
        terminal=terminal,
        to_move=to_move,
        scores=_ints(table["scores"], f"{where}.scores") if "scores" in table else None,
        winners=_ints(table["winners"], f"{where}.winners") if "winners" in table else None,
    )


def _budget(value: Any, where: str) -> Budget:
    table = _table(value, where)
    _require(table, (), BUDGET_KEYS, where)

    for key, n in table.items():
        most = WHOLE_MAX if key == "seed" else MAXIMA["--" + key.replace("_", "-")][0]
        if not isinstance(n, int) or isinstance(n, bool) or not (0 if key == "seed" else 1) <= n <= most:
            raise InputError(f"{where}.{key}", f"expected a whole number from {0 if key == 'seed' else 1} to {most:,}")
    return attrs.evolve(DEFAULT_BUDGET, **table)


def clarification_from_data(
    data: Mapping[str, Any], source: str = "clarification", variant: Mapping[str, Any] | None = None
) -> Clarification:
    """Validate plain data (a parsed clarification file) into a :class:`Clarification`; ``variant`` is a
    base variant's data (component tables, rulings) that the clarification's ruling goes over."""
    base = dict(variant or {})
    _require(data, ("id", "question", "answer", "game", "rules"), TOP_KEYS, source)
    cid = identifier(data["id"], f"{source} id")
    rules = data["rules"]
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise InputError(f"{source} rules", "expected a list of rule IDs")
    players = data.get("players")
    ruling = _table(data.get("ruling", {}), f"{source} [ruling]")
    options = _table(data.get("options", {}), f"{source} [options]")
    try:
        game = _make_game(data["game"], players, ruling, options, base)
    except InputError as exc:
        raise InputError(f"{source} {exc.where}".strip(), exc.why) from None
    witnesses: list[Witness] = []
    raw_witnesses = data.get("witness", [])
    if not isinstance(raw_witnesses, list) or not raw_witnesses:
        raise InputError(f"{source} witness", "a clarification has at least one [[witness]]")
    names: set[str] = set()
    for i, raw in enumerate(raw_witnesses):
        where = f"{source} witness[{i}]"
        table = _table(raw, where)
        _require(table, ("name", "actions", "expect"), WITNESS_KEYS, where)
        name = identifier(table["name"], f"{where}.name", "a witness's name")
        if name in names:
            raise InputError(f"{where}.name", f"duplicate witness name {name!r}")
        names.add(name)
        own = _table(table.get("ruling", {}), f"{where}.ruling")
        wgame = game
        if own:
            try:
                wgame = _make_game(data["game"], players, {**ruling, **own}, options, base)
            except InputError as exc:
                raise InputError(f"{where}.ruling {exc.where}".strip(), exc.why) from None
        start = _data(table["start"], f"{where}.start") if "start" in table else None
        start_state(wgame, start, f"{where}.start")  # validates the patch
        witnesses.append(
            Witness(
                name=name,
                statement=_text(table.get("statement", data["answer"]), f"{where}.statement"),
                actions=_actions(table["actions"], wgame, f"{where}.actions"),
                expect=_expect(table["expect"], wgame, f"{where}.expect"),
                expected=_verdict(table.get("expected", "holds"), f"{where}.expected"),
                ruling={**ruling, **own},
                start=start,
                where=where,
            )
        )
    properties: list[Property] = []
    raw_properties = data.get("property", [])
    if not isinstance(raw_properties, list):
        raise InputError(f"{source} property", "expected [[property]] tables")
    for i, raw in enumerate(raw_properties):
        where = f"{source} property[{i}]"
        table = _table(raw, where)
        _require(table, ("predicate",), PROPERTY_KEYS, where)
        predicate = _text(table["predicate"], f"{where}.predicate")
        resolve_predicate(predicate, f"{where}.predicate")
        kind = table.get("kind", "state")
        if kind not in KINDS:
            raise InputError(f"{where}.kind", f"kind is one of {', '.join(KINDS)}, not {kind!r}")
        if "checker" in table and "checkers" in table:
            raise InputError(where, "give checker (one) or checkers (a list), not both")
        checkers = [table["checker"]] if "checker" in table else table.get("checkers", ["sampled"])
        if not isinstance(checkers, list) or not checkers or any(c not in CHECKERS for c in checkers):
            raise InputError(f"{where}.checkers", f"checkers are among {', '.join(CHECKERS)}, not {checkers!r}")
        if kind == "game" and "searched" in checkers:
            raise InputError(f"{where}.checkers", "a 'game' property takes the sampled checker only")
        properties.append(
            Property(
                id=identifier(table["id"], f"{where}.id") if "id" in table else f"{cid}/{predicate.rpartition(':')[2]}",
                statement=_text(table.get("statement", data["answer"]), f"{where}.statement"),
                predicate=predicate,
                kind=kind,
                checkers=tuple(checkers),
                expected=_verdict(table.get("expected", "holds"), f"{where}.expected"),
                budget=_budget(table.get("budget", {}), f"{where}.budget"),
                where=where,
            )
        )
    return Clarification(
        id=cid,
        question=_text(data["question"], f"{source} question"),
        answer=_text(data["answer"], f"{source} answer"),
        game=str(data["game"]),
        players=players,
        rules=tuple(rules),
        ruling=ruling,
        options=options,
        witnesses=tuple(witnesses),
        properties=tuple(properties),
        source=source,
        variant=base,
    )


def load_clarification(path: str | Path, variant: str | Path | Mapping[str, Any] | None = None) -> Clarification:
    """Read and validate one clarification file; any problem is an InputError naming the file and field.
    ``variant``: a base variant (path or data) every witness and property runs on."""
    return clarification_from_data(read_toml(path), str(path), variant_data(variant))


# --- checking -----------------------------------------------------------------------------------------


def _plain(obj: Any) -> Any:
    """The JSON form of ``obj`` as plain data (lists, not tuples), as ``bgrules.dumps`` writes it."""
    return json.loads(json.dumps(unstructure(obj)))


def _match(expected: Any, actual: Any, path: str) -> list[str]:
    if isinstance(expected, dict):
        out: list[str] = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if isinstance(actual, dict):
                if key not in actual:
                    out.append(f"{sub}: the state has no such field")
                    continue
                out.extend(_match(value, actual[key], sub))
            elif isinstance(actual, list):
                try:
                    item = actual[int(key)]
                except (ValueError, IndexError):
                    out.append(f"{sub}: not an index of a list of {len(actual)}")
                    continue
                out.extend(_match(value, item, sub))
            else:
                out.append(f"{sub}: {actual!r} has no fields")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [m for i, (e, a) in enumerate(zip(expected, actual, strict=True)) for m in _match(e, a, f"{path}[{i}]")]
    if expected == actual and isinstance(expected, bool) == isinstance(actual, bool):
        return []
    return [f"{path or 'state'}: expected {json.dumps(expected)}, found {json.dumps(actual)}"]


def _mover(game: Game, state: Any) -> int | str:
    who = game.to_move(state)
    if who is CHANCE:
        return "chance"
    return "none" if who is None else int(who)


def _final_checks(game: Game, state: Any, expect: Expect) -> list[str]:
    problems: list[str] = []
    if expect.state is not None:
        problems.extend(_match(expect.state, _plain(state), ""))
    if expect.predicate is not None:
        message = resolve_predicate(expect.predicate)(game, state)
        if message:
            problems.append(f"{expect.predicate}: {message}")
    if expect.legal or expect.not_legal:
        legal = set(game.legal_actions(state))
        problems.extend(f"{a!r} is not legal" for a in expect.legal if a not in legal)
        problems.extend(f"{a!r} is legal" for a in expect.not_legal if a in legal)
    if expect.terminal is not None and game.is_terminal(state) != expect.terminal:
        problems.append(f"terminal: expected {expect.terminal}, found {not expect.terminal}")
    if expect.to_move is not None and _mover(game, state) != expect.to_move:
        problems.append(f"to_move: expected {expect.to_move!r}, found {_mover(game, state)!r}")
    if expect.scores is not None and tuple(game.scores(state)) != expect.scores:
        problems.append(f"scores: expected {list(expect.scores)}, found {list(game.scores(state))}")
    if expect.winners is not None and tuple(game.winners(state)) != expect.winners:
        problems.append(f"winners: expected {list(expect.winners)}, found {list(game.winners(state))}")
    return problems


def _variant_text(c: Clarification) -> str:
    tables = sorted(k for k in c.variant if k != "rulings")
    return f"base variant ({', '.join(tables) or 'rulings only'}); " if c.variant else ""


def _ruling_text(ruling: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(ruling.items())) or "the default reading"


def run_witness(c: Clarification, w: Witness) -> tuple[str, str]:
    """Replay a witness; its verdict (``holds`` / ``violated`` / ``unknown``) and a detail line."""
    game = _make_game(c.game, c.players, w.ruling, c.options, c.variant)
    state = start_state(game, w.start, f"{w.where}.start")
    problems: list[str] = []
    last = len(w.actions) - 1
    for i, action in enumerate(w.actions):
        refused_here = w.expect.illegal is not None and i == last
        listed = not game.is_terminal(state) and action in game.legal_actions(state)
        try:
            after = game.apply(state, action)
        except IllegalAction as exc:
            if not refused_here:
                return "violated", f"action {i + 1} {action!r} refused: {exc}"
            if exc.rule_id != w.expect.illegal:
                problems.append(f"action {i + 1} refused by {exc.rule_id}, expected {w.expect.illegal}: {exc.why}")
            if listed:
                problems.append(f"action {i + 1} {action!r} is listed as legal but refused (a library bug)")
            continue
        except BgrulesError as exc:
            return "unknown", f"action {i + 1} {action!r} raised {one_line(exc)}"
        except Exception as exc:  # a crash in the game is reported, not raised: the report says what failed
            return "unknown", f"action {i + 1} {action!r} crashed: {one_line(exc)}"
        if refused_here:
            problems.append(f"action {i + 1} {action!r} was accepted, expected IllegalAction {w.expect.illegal}")
            state = after
            continue
        if not listed:
            problems.append(f"action {i + 1} {action!r} was accepted but is not listed as legal (a library bug)")
        state = after
    try:
        problems.extend(_final_checks(game, state, w.expect))
    except Exception as exc:  # a predicate or the game crashed on the final state
        return "unknown", f"checking the final state crashed: {one_line(exc)}"
    if problems:
        return "violated", "; ".join(problems)
    outcome = f"refused by {w.expect.illegal}" if w.expect.illegal else "outcome as expected"
    return "holds", outcome


def _check_witness(c: Clarification, w: Witness) -> Report:
    start = time.perf_counter()
    with coverage.recording("witness"):
        verdict, detail = run_witness(c, w)
    n = len(w.actions)
    start_text = "patched" if w.start is not None else "initial"
    return Report(
        id=f"{c.id}/{w.name}",
        kind="clarification",
        statement=w.statement,
        rules=c.rules,
        checker="witness",
        verdict=verdict,
        expected=w.expected,
        guarantee=f"scenario: {n} action{'s' if n != 1 else ''} replayed",
        seconds=time.perf_counter() - start,
        detail=f"{_variant_text(c)}ruling: {_ruling_text(w.ruling)}; {start_text} start; {detail}",
        witness=tuple(json.dumps(action_to_data(a), sort_keys=True) for a in w.actions),
    )


def _check_property(c: Clarification, p: Property) -> list[Report]:
    game = _make_game(c.game, c.players, c.ruling, c.options, c.variant)
    spec = Spec(
        id=p.id,
        game=c.game,
        statement=p.statement,
        rules=c.rules,
        predicate=p.predicate,
        kind=p.kind,
        expected=p.expected,
        checkers=p.checkers,
        options=dict(c.options),
        players=c.players,
        source=p.where,
    )
    out = []
    for checker in p.checkers:
        try:
            with coverage.recording(checker):
                report = (check_sampled if checker == "sampled" else check_searched)(spec, game, p.budget)
        except Exception as exc:  # the game or predicate crashed: no verdict
            report = Report(
                p.id, "spec", p.statement, c.rules, checker, "unknown", p.expected, f"{checker}: not run", 0.0
            )
            report = attrs.evolve(report, detail=f"crashed: {one_line(exc)}")
        ruling = f"{_variant_text(c)}ruling: {_ruling_text(c.ruling)}"
        out.append(attrs.evolve(report, kind="clarification", detail=f"{ruling}; {report.detail}".rstrip("; ")))
    return out


def check_clarification(c: Clarification) -> list[Report]:
    """One Report per witness (checker ``witness``) and per property checker (``sampled`` / ``searched``)."""
    reports = []
    for w in c.witnesses:
        try:
            reports.append(_check_witness(c, w))
        except BgrulesError:
            raise
        except Exception as exc:  # the game raised outside the replay's own guard: this witness has no verdict
            reports.append(_crashed(f"{c.id}/{w.name}", w.statement, c.rules, "witness", w.expected, exc))
    for p in c.properties:
        try:
            reports.extend(_check_property(c, p))
        except BgrulesError:
            raise
        except Exception as exc:
            reports.extend(_crashed(p.id, p.statement, c.rules, k, p.expected, exc) for k in p.checkers)
    return reports


def _crashed(rid: str, statement: str, rules: tuple[str, ...], checker: str, expected: str, exc: Exception) -> Report:
    """The ``unknown`` row of a check that raised, naming the exception in one line."""
    detail = f"the check raised {one_line(exc)}"
    return Report(
        rid, "clarification", statement, rules, checker, "unknown", expected, f"{checker}: not run", 0.0, detail
    )


def clarification_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; a directory stands for its ``*.toml`` files, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.glob("*.toml")))
        else:
            out.append(p)
    return out


def check_files(
    paths: Iterable[str | Path],
    variant: str | Path | Mapping[str, Any] | None = None,
    game: str | None = None,
) -> list[Report]:
    """Load every file (a directory: its ``*.toml``) and check it; all loaded first, so a malformed file
    stops the run before anything is checked. Duplicate clarification ids are an InputError.

    ``game``: only the clarifications of that game. ``variant``: a base variant (a box holder's corrected
    data) that every witness and property of those clarifications runs on, the clarification's own ruling
    over it; a witness whose outcome the corrected data changes then reports ``violated``. A variant file
    is for one game, so ``variant`` needs ``game``."""
    return [r for _path, c, _base in load_files(paths, variant, game) for r in check_clarification(c)]


def load_files(
    paths: Iterable[str | Path],
    variant: str | Path | Mapping[str, Any] | None = None,
    game: str | None = None,
) -> list[tuple[Path, Clarification, Any]]:
    """Every clarification of ``paths`` (of ``game`` only, when given), loaded and checked for duplicate
    ids before anything runs: (file, clarification, the base variant data it was loaded on or None), as
    :func:`check_files` and ``bgrules verify``'s tasks use them."""
    if variant is not None and game is None:
        raise InputError("variant", "a variant file is for one game: name it (--game)")
    base = variant_data(variant) if game is not None else None
    files = clarification_paths(paths)
    if game is not None:
        files = [p for p in files if read_toml(p).get("game") == game]
        if not files:
            raise InputError("game", f"no clarification of game {game!r} among the files given")
    loaded = [(p, load_clarification(p, base), base) for p in files]
    seen: dict[str, str] = {}
    for _p, c, _b in loaded:
        if c.id in seen:
            raise InputError(f"{c.source} id", f"duplicate clarification id {c.id!r} (also in {seen[c.id]})")
        seen[c.id] = c.source
    return loaded


__all__ = [
    "Clarification",
    "Expect",
    "Property",
    "Witness",
    "check_clarification",
    "check_files",
    "clarification_from_data",
    "clarification_paths",
    "load_clarification",
    "load_files",
    "run_witness",
    "start_state",
    "variant_data",
]
