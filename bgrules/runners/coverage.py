"""Rule coverage's tables: the rule IDs of docs/rules (with their exemptions and the rules a conformance
obligation ties to the code), :func:`table` (the public coverage table of ``bgrules coverage --json``:
``total``, ``reached``, ``exempt`` and ``rules`` with ``id``, ``title``, ``effects``, ``refusals``,
``checkers``, ``exempt``), the sampled run of ``bgrules coverage`` and verify's coverage row. The counting
itself (recordings, collectors) is :mod:`bgrules.core.coverage`'s, which the rule rooms call.

Where the rule IDs come from: the ``#### BF-...`` / ``#### MC-...`` headings of docs/rules/*.md (as
tests/core/test_docs.py finds them; invariant headings, ``-INV-``, are not rules). Exemptions, each with its
reason: specs/coverage-exempt.toml. Rules whose z3 encoding a conformance check ties to the code (the
``proved`` checker): proofs/conformance.toml.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.agents import parse_agents
from bgrules.core.codec import read_toml
from bgrules.core.coverage import (
    CHECKERS,
    NOT_RULES,
    Collector,
    Counts,
    collecting,
    probe,
    process_collector,
    recording,
)
from bgrules.core.defaults import default_dir
from bgrules.core.defaults import rules_dir as found
from bgrules.core.descriptor import Table, descriptors
from bgrules.core.errors import InputError
from bgrules.core.playout import walk
from bgrules.core.registry import load_game
from bgrules.runners.clarify import _check_witness, clarification_paths, load_clarification
from bgrules.runners.specfile import Budget, load_specs
from bgrules.runners.specs import run_spec

ENV_FILE = "BGRULES_COVERAGE_FILE"
"""Set to a path, every ``bgrules`` command (and the test suite, tests/conftest.py) writes the coverage
table of all it checked to that file when it exits."""


def write_on_exit(path: str | Path | None = None, checker: str | None = None) -> Collector | None:
    """Collect every recording of this process and write its table (all rules) to ``path`` (default: the
    ``BGRULES_COVERAGE_FILE`` environment variable; nothing when neither is set) at exit. ``checker``:
    also open a recording of that name for the rest of the process (the test suite's ``tests``)."""
    import atexit
    import json
    import os

    target = path if path is not None else os.environ.get(ENV_FILE)
    if not target:
        return None
    collector, made = process_collector()
    if not made:  # once per process (every CLI call in one process asks again)
        return collector
    whole = None
    if checker is not None:
        whole = recording(checker)
        whole.__enter__()

    def write() -> None:
        if whole is not None:
            whole.__exit__(None, None, None)
        result = table(collector.by_checker, proved=proved_rules())
        Path(target).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    atexit.register(write)
    return collector


# --- the rules, the exemptions, the proved rules ----------------------------------------------------


@attrs.frozen
class Rule:
    id: str
    title: str
    game: str
    """The rules document, ``botfactory`` or ``mechanica`` (from the ID's prefix: :data:`PREFIXES`)."""


def _prefixes() -> dict[str, str]:
    out: dict[str, str] = {}
    for d in descriptors():
        if d.rule_prefix is not None and d.rules_doc is not None:
            out.setdefault(d.rule_prefix, d.rules_doc)
    return out


PREFIXES: Table[str, str] = Table(_prefixes, "PREFIXES")
"""Each rule-ID prefix and its rules document (``BF``: ``botfactory``), from the game descriptors."""


def _heading() -> re.Pattern[str]:
    """A rules document's heading of a rule ID of a known prefix, and the text after it."""
    known = "|".join(re.escape(p) for p in sorted(PREFIXES))
    return re.compile(rf"^#{{2,4}} ((?:{known})-[A-Z]+(?:-[A-Z]+)*)\b(.*)$", flags=re.M)


def rules_dir() -> Path:
    """docs/rules of the working directory, else the packaged rules docs (:mod:`bgrules.core.defaults`)."""

    return found()


def documented_rules(directory: Path | None = None) -> list[Rule]:
    """Every rule ID with a heading in ``directory``/*.md (default :func:`rules_dir`), with its title (the
    heading's text after the dash), sorted by ID."""

    directory = rules_dir() if directory is None else directory
    paths = sorted(directory.glob("*.md")) if directory.is_dir() else []
    if not paths:
        raise InputError(str(directory), "no rules documents (*.md) to take the rule IDs from")
    found: dict[str, Rule] = {}
    heading, prefixes = _heading(), dict(PREFIXES)
    for path in paths:
        for rule_id, rest in heading.findall(path.read_text(encoding="utf-8")):
            if any(marker in rule_id for marker in NOT_RULES) or rule_id in found:
                continue
            title = re.sub(r"^\s*[—–-]+\s*", "", rest).strip()
            found[rule_id] = Rule(rule_id, title, prefixes[rule_id.partition("-")[0]])
    return [found[k] for k in sorted(found)]


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path)


def load_exempt(path: Path | None = None, known: Sequence[str] | None = None) -> dict[str, str]:
    """rule ID -> reason, from ``[[exempt]]`` tables (``id``, ``reason``) of specs/coverage-exempt.toml.
    A missing file exempts nothing; an entry without a reason, a duplicate, or an ID that is not a
    documented rule (when ``known`` is given) is an InputError."""

    path = default_dir("specs") / "coverage-exempt.toml" if path is None else path
    if not path.exists():
        return {}
    entries = _read(path).get("exempt", [])
    if not isinstance(entries, list):
        raise InputError(str(path), "expected [[exempt]] tables")
    out: dict[str, str] = {}
    for i, entry in enumerate(entries):
        where = f"{path} exempt[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"id", "reason"}:
            raise InputError(where, "an exemption is a table of id and reason")
        rule_id, reason = entry["id"], entry["reason"]
        if not isinstance(reason, str) or len(reason.strip()) < 20:
            raise InputError(where, "an exemption needs its reason (a sentence a reviewer can check)")
        if rule_id in out:
            raise InputError(where, f"{rule_id!r} is exempted twice")
        if known is not None and rule_id not in known:
            raise InputError(where, f"{rule_id!r} is not a documented rule ID")
        out[str(rule_id)] = reason.strip()
    return out


@attrs.frozen
class Tie:
    """An encoding tied to the code by a conformance check, and the rules it proves."""

    encoding: str
    rules: tuple[str, ...]
    obligations: tuple[str, ...]
    """The conformance obligations of proofs/ that run the Python step against the encoding."""
    tests: tuple[str, ...]
    """The conformance tests (``tests/<concept>/file.py::function``) that do the same."""


def load_ties(path: Path | None = None) -> list[Tie]:
    """The ``[[tie]]`` tables of proofs/conformance.toml (encoding, rules, obligations, tests)."""

    path = default_dir("proofs") / "conformance.toml" if path is None else path
    if not path.exists():
        return []
    out = []
    for i, entry in enumerate(_read(path).get("tie", [])):
        where = f"{path} tie[{i}]"
        if not isinstance(entry, dict) or not {"encoding", "rules"} <= set(entry):
            raise InputError(where, "a tie is a table of encoding, rules, obligations and tests")
        if not entry.get("obligations") and not entry.get("tests"):
            raise InputError(where, "a tie names its conformance obligations or tests")
        out.append(
            Tie(
                str(entry["encoding"]),
                tuple(entry["rules"]),
                tuple(entry.get("obligations", ())),
                tuple(entry.get("tests", ())),
            )
        )
    return out


def proved_rules(ties: Sequence[Tie] | None = None) -> set[str]:
    return {r for t in (load_ties() if ties is None else ties) for r in t.rules}


# --- the table -----------------------------------------------------------------------------------


def table(
    by_checker: Mapping[str, Counts],
    *,
    game: str | None = None,
    proved: set[str] | frozenset[str] = frozenset(),
    exempt: Mapping[str, str] | None = None,
    rules: Sequence[Rule] | None = None,
) -> dict[str, Any]:
    """The coverage table (the public JSON of ``bgrules coverage --json``) of the counts gathered per
    checker, for ``game``'s rules (both games when None). A rule is reached when some checker counted
    an effect or a refusal of it, or it is ``proved``; ``exempt`` gives an unreached rule's reason."""
    rules = documented_rules() if rules is None else rules
    exempt = load_exempt(known=[r.id for r in rules]) if exempt is None else exempt
    rows = []
    reached = 0
    exempted = 0
    for rule in rules:
        if game is not None and rule.game != game:
            continue
        effects = sum(c.effects.get(rule.id, 0) for c in by_checker.values())
        refusals = sum(c.refusals.get(rule.id, 0) for c in by_checker.values())
        checkers = [
            name
            for name in CHECKERS
            if (name == "proved" and rule.id in proved)
            or (
                name in by_checker
                and (by_checker[name].effects.get(rule.id, 0) or by_checker[name].refusals.get(rule.id, 0))
            )
        ]
        reason = exempt.get(rule.id)
        if checkers:
            reached += 1
        elif reason is not None:
            exempted += 1
        rows.append(
            {
                "id": rule.id,
                "title": rule.title,
                "effects": effects,
                "refusals": refusals,
                "checkers": checkers,
                "exempt": reason,
            }
        )
    return {
        "total": len(rows),
        "reached": reached,
        "exempt": exempted,
        "states": sum(c.states for c in by_checker.values()),
        "rules": rows,
    }


def unreached(result: Mapping[str, Any]) -> list[str]:
    """The rule IDs of a table neither reached nor exempt."""
    return [r["id"] for r in result["rules"] if not r["checkers"] and r["exempt"] is None]


def percent(result: Mapping[str, Any]) -> float:
    """Reached rules as a percentage of the rules not exempt (100 when every rule is exempt)."""
    counted = [r for r in result["rules"] if r["exempt"] is None or r["checkers"]]
    if not counted:
        return 100.0
    return 100.0 * sum(1 for r in counted if r["checkers"]) / len(counted)


# --- runners: bgrules coverage and verify's coverage row ----------------------------------------------


def _documents() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    where = rules_dir()
    for d in descriptors():
        if d.rules_doc is not None and (where / f"{d.rules_doc}.md").is_file():
            out[d.rules_doc] = (*out.get(d.rules_doc, ()), d.name)
    return out


GAMES: Table[str, tuple[str, ...]] = Table(_documents, "GAMES")
"""The games whose rules each rules document holds (the descriptors' ``rules_doc``, of the documents in
:func:`rules_dir`): Mechanica's factory sandbox plays MC rules too."""


def choice(game: str | None) -> tuple[str | None, tuple[str, ...]]:
    """A ``--game`` of ``bgrules coverage``: (the rules document whose rules the table lists, None for
    both; the games played). A rules document's game (``botfactory``, ``mechanica``) plays every game of
    its rules; one of those games (``mechanica-factory``, as ``bgrules games`` lists it) plays that game
    alone, its table the rules of its document. Any other name is an InputError."""
    if game is None:
        return None, tuple(n for names in GAMES.values() for n in names)
    if game in GAMES:
        return game, GAMES[game]
    for document, names in GAMES.items():
        if game in names:
            return document, (game,)

    valid = sorted({*GAMES, *(n for names in GAMES.values() for n in names)})
    raise InputError("--game", f"unknown game {game!r}; valid: {', '.join(valid)}")


def _agents(spec: str | None, players: int) -> tuple[Any, ...] | None:
    """The agents of ``spec`` for ``players`` seats (None: the playout's random play)."""
    if spec is None:
        return None
    return tuple(parse_agents(spec, players))


def _seat_counts(game: Any, agents: str | None, players: int | None) -> list[int]:
    if players is not None:
        return [players]
    if agents is not None and "," in agents:
        return [len(agents.split(","))]
    info = game.info
    return list(range(info.min_players, info.max_players + 1))


def sample(
    game_name: str,
    n_games: int,
    *,
    seed: int = 0,
    agents: str | None = None,
    players: int | None = None,
    max_rounds: int | None = None,
) -> int:
    """Play ``n_games`` games of ``game_name`` for each player count (or ``players``) from ``seed``, with
    ``agents`` (an ``--agents`` spec; None: random), inside a ``sampled`` recording; each final state is
    scored and its winners found, as a runner reports them. Returns the states visited."""

    if not isinstance(n_games, int) or n_games < 1:
        raise InputError("--games", f"play at least one game, not {n_games!r}")
    first = load_game(game_name)
    states = 0
    with recording("sampled") as counts:
        for n in _seat_counts(first, agents, players):
            game = load_game(game_name, players=n) if n != first.players else first
            seats = _agents(agents, n)
            for s in range(seed, seed + n_games):
                last = game.initial_state()
                counts.visit()
                for _before, _action, after in walk(game, s, max_rounds=max_rounds, agents=seats):
                    counts.visit()
                    last = after
                if game.is_terminal(last):
                    game.scores(last)
                    game.winners(last)
        states = counts.states
    return states


def run_coverage(
    game: str | None = None,
    *,
    n_games: int = 20,
    seed: int = 0,
    agents: str | None = None,
    players: int | None = None,
    specs_dir: Path | None = None,
    clarifications_dir: Path | None = None,
    proofs_dir: Path | None = None,
    searched: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """The coverage table of ``bgrules coverage``: sampled games of each of ``game``'s games (both games when
    None; :func:`sample`), the searched specs of specs/ for them, their clarifications' witnesses, and the
    rules proved through a conformance-tied encoding (proofs/conformance.toml). ``progress(label, done,
    total)`` is called before each step (a game's samples, a searched spec, a clarification file) and at
    the end."""

    document, played = choice(game)
    if not isinstance(n_games, int) or n_games < 1:
        raise InputError("--games", f"play at least one game, not {n_games!r}")
    specs_dir = default_dir("specs") if specs_dir is None else specs_dir
    clarifications_dir = specs_dir / "clarifications" if clarifications_dir is None else clarifications_dir
    proofs_dir = default_dir("proofs") if proofs_dir is None else proofs_dir
    names = set(played)

    # --players is for a rules document's own game (or the one game asked for), not the factory sandbox
    samples = [(name if name in GAMES or name == game else "", name) for name in played]
    specs = (
        [s for s in load_specs(specs_dir) if s.game in names and "searched" in s.checkers]
        if searched and specs_dir.is_dir()
        else []
    )
    clarifications = clarification_paths([clarifications_dir]) if clarifications_dir.is_dir() else []
    total = len(samples) + len(specs) + len(clarifications)
    done = 0

    def step(label: str) -> None:
        nonlocal done
        if progress is not None:
            progress(label, done, total)
        done += 1

    with collecting() as collector:
        for g, name in samples:
            step(f"{name}: {n_games} sampled game(s) per player count")
            sample(name, n_games, seed=seed, agents=agents, players=players if name == g else None)
        for spec in specs:
            step(f"{spec.id} [searched]")
            run_spec(spec, Budget(), ("searched",))
        for path in clarifications:
            step(f"{path.name} [witness]")
            c = load_clarification(path)
            if c.game in names:
                for w in c.witnesses:
                    _check_witness(c, w)
    if progress is not None:
        progress("done", total, total)
    rules = documented_rules()
    exempt = load_exempt(specs_dir / "coverage-exempt.toml", known=[r.id for r in rules])
    proved = proved_rules(load_ties(proofs_dir / "conformance.toml"))
    return table(collector.by_checker, game=document, proved=proved, exempt=exempt, rules=rules)


def verify_row(
    collector: Collector,
    proof_rows: Sequence[Mapping[str, Any]] | None,
    *,
    specs_dir: Path,
    proofs_dir: Path,
    complete: bool,
    seconds: float = 0.0,
    game: str | None = None,
) -> dict[str, Any]:
    """The final row of ``bgrules verify --json`` (kind ``coverage``; docs/coverage.md): the same keys as
    every result row, plus ``coverage``, the table. A tie of proofs/conformance.toml proves its rules when
    the proofs ran and each of its conformance obligations gave its expected verdict. The verdict is
    ``violated`` when a rule is neither reached nor exempt; only a ``complete`` run (every checker, no
    ``--only``) is held to that, a partial one reports its table with verdict ``unknown``, expected too.
    ``game``: the table of that rules document's rules only (``bgrules coverage --game``)."""
    rules = documented_rules()
    exempt = load_exempt(specs_dir / "coverage-exempt.toml", known=[r.id for r in rules])
    proved: set[str] = set()
    if proof_rows is not None:
        ok = {r["id"] for r in proof_rows if r["ok"]}
        for tie in load_ties(proofs_dir / "conformance.toml"):
            if all(o in ok for o in tie.obligations):
                proved.update(tie.rules)
    result = table(collector.by_checker, game=game, proved=proved, exempt=exempt, rules=rules)
    result["states"] = None  # the spec checkers count their states in their own guarantees
    missing = unreached(result)
    if complete:
        verdict = "violated" if missing else "holds"
        expected = "holds"
    else:
        verdict = expected = "unknown"
    guarantee = (
        f"coverage: {result['reached']} of {result['total']} rule IDs reached "
        f"({', '.join(c for c in CHECKERS if c in collector.by_checker or (c == 'proved' and proved))}), "
        f"{result['exempt']} exempt" + ("" if complete else "; a partial run (not held to reaching every rule)")
    )
    return {
        "id": "RULE-COVERAGE",
        "kind": "coverage",
        "statement": "every rule ID of docs/rules is reached by some check or exempt with its reason",
        "rules": missing,
        "checker": "coverage",
        "verdict": verdict,
        "expected": expected,
        "guarantee": guarantee,
        "seconds": round(seconds, 4),
        "ok": verdict == expected,
        "detail": ("neither reached nor exempt: " + ", ".join(missing)) if missing else "",
        "witness": None,
        "trace": None,
        "coverage": result,
    }


__all__ = [  # with the counting names of bgrules.core.coverage the tables use
    "CHECKERS",
    "ENV_FILE",
    "NOT_RULES",
    "Collector",
    "Counts",
    "Rule",
    "Tie",
    "choice",
    "collecting",
    "documented_rules",
    "load_exempt",
    "load_ties",
    "percent",
    "probe",
    "proved_rules",
    "recording",
    "run_coverage",
    "sample",
    "table",
    "unreached",
    "verify_row",
    "write_on_exit",
]
