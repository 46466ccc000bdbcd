"""Specification adequacy (``bgrules adequacy``, docs/adequacy.md): how many plausible rule bugs the checks
of ``bgrules verify`` catch.

A *mutant* is one small edit of the rule code: a function of a game engine module (``bgrules/botfactory/*.py``,
``bgrules/mechanica/*.py``, not the invariants, encodings, validators, figures, scorers or notation) that cites
a rule ID (in a ``coverage.effect``/``refusal`` call, an ``IllegalAction``, its docstring or a comment). The
operators (:data:`OPERATORS`): an integer constant plus or minus one (``0`` to ``1``, ``1`` to ``0``), a
comparison turned (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and
``is not``), ``and`` and ``or``, a ``not`` removed, an ``if`` (or a conditional expression) negated, ``+``
and ``-``, an index plus or minus one, two positional arguments swapped, ``True`` and ``False``, a returned
value replaced by ``None``. Mutants are sorted by module, line, column and operator; each has a stable id
(``bgrules/botfactory/production.py:44:12:cmp-eq-ne``: line and column, from 1, of the edited text) and a
unified diff. Each belongs to one rule, the rule ID cited nearest to it in its function (for the report),
and is checked by every check that reaches any rule its function cites.

Nothing runs in the package this process imported: the package directory (``bgrules.__file__``'s parent)
and the specs, proofs and clarifications are copied into a temporary directory, a mutant is written into a
copy of its own, and the checks run in a subprocess (the same ``sys.executable``) whose ``PYTHONPATH`` is that
copy. There, :func:`child_main` plans verify's checks (:func:`bgrules.core.verify.plan`) and runs each one
in a forked process of its own under a coverage recording, so each check's verdict and the rules it reached
do not depend on the checks before it (memos are per process).

First the *baseline*: every check of the game on the unmutated copy. It gives the expected verdicts and
the map rule ID -> the checks whose run counted an effect or a refusal of it (plus the conformance
obligations that tie a rule's encoding to the code, proofs/conformance.toml). A mutant is *caught* when a
check of its selection gives a verdict other than the expected one, crashes, or the run exceeds
``seconds``. A reviewed file of *equivalent* mutants (``specs/adequacy-equivalent.toml``) lists those
that cannot change behaviour, each with its reason: they are not run and not counted.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.core.descriptor import Table
from bgrules.core.errors import BgrulesError, InputError


def _engine_dirs() -> dict[str, str]:
    from bgrules.core.descriptor import descriptors

    out: dict[str, str] = {}
    for d in descriptors():
        game = d.game if isinstance(d.game, str) else f"{getattr(d.game, '__module__', '')}:"
        package = game.partition(":")[0].split(".")
        if d.rules_doc is not None and len(package) > 2 and package[0] == "bgrules":
            out.setdefault(d.rules_doc, package[1])
    return out


ENGINE_DIRS: Table[str, str] = Table(_engine_dirs, "ENGINE_DIRS")
"""The rules document of each engine package (``bgrules/<dir>``): the package of each shipped game's Game
class, by its descriptor's ``rules_doc`` (a plug-in game's engine is not mutated)."""
NOT_ENGINE = (
    "invariants",
    "game_invariants",
    "smt",
    "validate",
    "figures",
    "ending",
    "evaluate",
    "notation",
    "render",
    "strategies",
    "contracts",
    "targets",
)
"""Module names (or prefixes, ``smt`` for ``smt_days``) of the engine packages that are not rule code: the
invariants and end predicates that check the rules, the z3 encodings, the validators, figures, scorers for
agents, notation, text pictures, hypothesis strategies, and the action contracts and search targets of
the specs (checks, not rules)."""

OPERATORS = (
    "int-inc",
    "int-dec",
    "int-0-1",
    "int-1-0",
    "cmp-lt-le",
    "cmp-le-lt",
    "cmp-gt-ge",
    "cmp-ge-gt",
    "cmp-eq-ne",
    "cmp-ne-eq",
    "cmp-in-notin",
    "cmp-notin-in",
    "cmp-is-isnot",
    "cmp-isnot-is",
    "boolop-and-or",
    "boolop-or-and",
    "not-removed",
    "if-negate",
    "arith-add-sub",
    "arith-sub-add",
    "index-inc",
    "index-dec",
    "args-swap",
    "bool-true-false",
    "bool-false-true",
    "return-none",
)
"""Every mutation operator, by the name a mutant's id ends with."""

DEFAULT_SECONDS = 120.0
"""The default wall budget of one mutant's checks (``--seconds``): over it, the mutant counts as caught."""
MAX_SECONDS = 86_400.0
MAX_MUTANTS = 1_000_000
BASELINE_FLOOR = 900.0
"""The baseline (every check of the game, once) gets at least this many seconds, or ten mutants' worth."""
EQUIVALENT_FILE = "adequacy-equivalent.toml"

_RULE_ID = re.compile(r"\b(?:BF|MC)-[A-Z]+(?:-[A-Z]+)*\b")
_CMP = {
    ast.Lt: (ast.LtE, "<=", "cmp-lt-le"),
    ast.LtE: (ast.Lt, "<", "cmp-le-lt"),
    ast.Gt: (ast.GtE, ">=", "cmp-gt-ge"),
    ast.GtE: (ast.Gt, ">", "cmp-ge-gt"),
    ast.Eq: (ast.NotEq, "!=", "cmp-eq-ne"),
    ast.NotEq: (ast.Eq, "==", "cmp-ne-eq"),
    ast.In: (ast.NotIn, "not in", "cmp-in-notin"),
    ast.NotIn: (ast.In, "in", "cmp-notin-in"),
    ast.Is: (ast.IsNot, "is not", "cmp-is-isnot"),
    ast.IsNot: (ast.Is, "is", "cmp-isnot-is"),
}
_CMP_TEXT = re.compile(r"<=|>=|==|!=|<|>|\bnot\s+in\b|\bis\s+not\b|\bin\b|\bis\b")
_NO_SWAP = {"isinstance", "issubclass", "getattr", "setattr", "hasattr", "IllegalAction", "InputError", "cast"}
"""Calls whose two arguments are not swapped: a type check or attribute access (swapped, they crash, which
tells nothing of the rules) and the refusals' own (rule, message) pairs."""


class AdequacyError(BgrulesError):
    """The run cannot be made (the package cannot be copied, the baseline fails): one line, exit 2."""


# --- mutants -----------------------------------------------------------------------------------------


@attrs.frozen
class Mutant:
    """One edit of a module's text: the characters ``start:end`` of ``module`` become ``text``."""

    id: str
    module: str
    """The module's path from the package's parent, ``bgrules/botfactory/production.py``."""
    line: int
    column: int
    operator: str
    rule: str
    """The rule the report counts it under: the one its function cites nearest to it."""
    rules: tuple[str, ...]
    """Every rule its function cites: the checks reaching any of them are run."""
    function: str
    start: int
    end: int
    text: str

    def apply(self, source: str) -> str:
        return source[: self.start] + self.text + source[self.end :]

    def compiles(self, source: str) -> bool:
        """The mutated module still compiles (every edit is made to; this is the check)."""
        try:
            compile(self.apply(source), self.module, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
        return True

    def diff(self, source: str) -> str:
        lines = difflib.unified_diff(
            source.splitlines(keepends=True),
            self.apply(source).splitlines(keepends=True),
            f"a/{self.module}",
            f"b/{self.module}",
            n=1,
        )
        return "".join(lines)


class _Offsets:
    """Character offsets of (line, UTF-8 byte column) positions, as ast gives them."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def at(self, line: int, col: int) -> int:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.at(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.at(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column), both from 1, of a character offset."""
        import bisect

        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


def _comments(source: str) -> dict[int, list[str]]:
    """Line -> the rule IDs its comment names."""
    out: dict[int, list[str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                found = _RULE_ID.findall(tok.string)
                if found:
                    out.setdefault(tok.start[0], []).extend(found)
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _citations(fn: ast.AST, comments: Mapping[int, list[str]], known: set[str]) -> list[tuple[int, str]]:
    """(line, rule ID) of every documented rule ID ``fn`` names: in a string (a docstring, a
    ``coverage.effect`` call, an ``IllegalAction``) or a comment within it, in line order."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for m in _RULE_ID.finditer(node.value):
                if m.group() in known:
                    out.append((node.lineno + node.value[: m.start()].count("\n"), m.group()))
    for line in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1):  # type: ignore[attr-defined]
        out.extend((line, r) for r in comments.get(line, ()) if r in known)
    return sorted(out, key=lambda c: c[0])


def _nearest(citations: Sequence[tuple[int, str]], line: int) -> str:
    return min(citations, key=lambda c: (abs(c[0] - line), c[0]))[1]


def _skipped_call(node: ast.Call) -> bool:
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
    return owner == "coverage" or name in _NO_SWAP


class _Finder:
    """The mutants of one module: every node of every rule function's body, visited once."""

    def __init__(self, module: str, source: str, known: set[str]) -> None:
        self.module = module
        self.source = source
        self.known = known
        self.off = _Offsets(source)
        self.comments = _comments(source)
        self.found: list[Mutant] = []
        self.cited: dict[int, list[tuple[int, str]]] = {}

    # the edit, checked to compile
    def add(self, start: int, end: int, text: str, op: str, where: tuple[str, list[tuple[int, str]]]) -> None:
        line, col = self.off.position(start)
        name, citations = where
        m = Mutant(
            f"{self.module}:{line}:{col}:{op}",
            self.module,
            line,
            col,
            op,
            _nearest(citations, line),
            tuple(sorted({r for _, r in citations})),
            name,
            start,
            end,
            text,
        )
        self.found.append(m)

    def seg(self, node: ast.AST) -> str:
        a, b = self.off.span(node)
        return self.source[a:b]

    def run(self) -> list[Mutant]:
        self._scan(ast.parse(self.source), [])
        return self.found

    def _scan(self, node: ast.AST, stack: list[tuple[str, list[tuple[int, str]]]]) -> None:
        """The definitions under ``node`` (a module, a class, a module-level block)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self._enter(child, stack)
            elif isinstance(child, ast.stmt):
                self._scan(child, stack)

    def _enter(self, node: ast.AST, stack: list[tuple[str, list[tuple[int, str]]]]) -> None:
        if isinstance(node, ast.ClassDef):
            self._scan(node, stack)
            return
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        cites = _citations(node, self.comments, self.known)
        name = (stack[-1][0] + "." if stack else "") + node.name
        where = (name, cites) if cites else (stack[-1] if stack else (name, []))
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for stmt in body:
            self._visit(stmt, [*stack, where], node)

    def _visit(self, node: ast.AST, stack: list[tuple[str, list[tuple[int, str]]]], fn: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self._enter(node, stack)
            return
        if isinstance(node, ast.Assert | ast.JoinedStr | ast.Global | ast.Nonlocal):
            return
        where = stack[-1]
        if where[1]:
            self._mutate(node, where, fn)
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "type_comment"):
                continue
            if isinstance(node, ast.Call) and _skipped_call(node) and field in ("args", "keywords"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self._visit(child, stack, fn)

    def _mutate(self, node: ast.AST, where: tuple[str, list[tuple[int, str]]], fn: ast.AST) -> None:
        if isinstance(node, ast.Constant):
            a, b = self.off.span(node)
            v = node.value
            if isinstance(v, bool):
                self.add(a, b, str(not v), "bool-true-false" if v else "bool-false-true", where)
            elif isinstance(v, int):
                self.add(a, b, str(v + 1), "int-0-1" if v == 0 else "int-inc", where)
                self.add(a, b, str(v - 1) if v >= 1 else f"({v - 1})", "int-1-0" if v == 1 else "int-dec", where)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                new = _CMP.get(type(op))
                if new is None:
                    continue
                a = self.off.span(operands[i])[1]
                b = self.off.span(operands[i + 1])[0]
                m = _CMP_TEXT.search(self.source, a, b)
                if m is not None:
                    self.add(m.start(), m.end(), new[1], new[2], where)
        elif isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            word, other, name = ("and", "or", "boolop-and-or") if is_and else ("or", "and", "boolop-or-and")
            for left, right in itertools.pairwise(node.values):
                a = self.off.span(left)[1]
                b = self.off.span(right)[0]
                m = re.compile(rf"\b{word}\b").search(self.source, a, b)
                if m is not None:
                    self.add(m.start(), m.end(), other, name, where)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            a, b = self.off.span(node)
            self.add(a, b, f"({self.seg(node.operand)})", "not-removed", where)
        elif isinstance(node, ast.If | ast.IfExp):
            a, b = self.off.span(node.test)
            self.add(a, b, f"not ({self.seg(node.test)})", "if-negate", where)
        elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
            left = node.left if isinstance(node, ast.BinOp) else node.target
            right = node.right if isinstance(node, ast.BinOp) else node.value
            if any(_sequence_literal(x) for x in (left, right)):
                return
            a = self.off.span(left)[1]
            b = self.off.span(right)[0]
            add = isinstance(node.op, ast.Add)
            m = re.compile(r"\+" if add else r"-").search(self.source, a, b)
            if m is not None:
                self.add(m.start(), m.end(), "-" if add else "+", "arith-add-sub" if add else "arith-sub-add", where)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            index = node.slice
            if isinstance(index, ast.Name | ast.BinOp | ast.UnaryOp):
                a, b = self.off.span(index)
                text = self.seg(index) if isinstance(index, ast.Name) else f"({self.seg(index)})"
                self.add(a, b, f"{text} + 1", "index-inc", where)
                self.add(a, b, f"{text} - 1", "index-dec", where)
        elif isinstance(node, ast.Call):
            positional = node.args
            if len(positional) == 2 and not any(isinstance(x, ast.Starred) for x in positional):
                if _skipped_call(node) or self.seg(positional[0]) == self.seg(positional[1]):
                    return
                a0, b0 = self.off.span(positional[0])
                a1, b1 = self.off.span(positional[1])
                text = self.seg(positional[1]) + self.source[b0:a1] + self.seg(positional[0])
                self.add(a0, b1, text, "args-swap", where)
        elif isinstance(node, ast.Return) and node.value is not None:
            if isinstance(node.value, ast.Constant) or _generator(fn):
                return  # a constant is another operator's (an int, a bool); None stays None
            a, b = self.off.span(node.value)
            self.add(a, b, "None", "return-none", where)


def _sequence_literal(node: ast.AST) -> bool:
    """A string, tuple or list literal (``+`` of sequences has no ``-``: the mutant would only crash)."""
    return isinstance(node, ast.Tuple | ast.List | ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
    )


def _generator(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(fn))


def module_mutants(module: str, source: str, known: Iterable[str]) -> list[Mutant]:
    """The mutants of one module's ``source`` (``module``: its path for the ids), in the canonical order
    (line, column, operator), for the rule IDs ``known``."""
    found = _Finder(module, source, set(known)).run()
    found.sort(key=lambda m: (m.line, m.column, m.operator, m.start, m.end, m.text))
    seen: Counter[str] = Counter()
    out = []
    for m in found:
        seen[m.id] += 1
        out.append(m if seen[m.id] == 1 else attrs.evolve(m, id=f"{m.id}~{seen[m.id]}"))
    return out


def rule_modules(package: Path, document: str | None) -> list[Path]:
    """The engine modules of ``document``'s package (both when None), sorted."""
    dirs = [ENGINE_DIRS[document]] if document is not None else sorted(ENGINE_DIRS.values())
    out = []
    for d in dirs:
        for path in sorted((package / d).glob("*.py")):
            stem = path.stem
            if stem == "__init__" or any(stem == n or stem.startswith(n + "_") for n in NOT_ENGINE):
                continue
            out.append(path)
    return out


def find_mutants(package: Path, document: str | None, known: Iterable[str]) -> tuple[list[Mutant], dict[str, str]]:
    """Every mutant of ``document``'s engine modules (both games when None), sorted by module, line,
    column, operator; and each module's source text, by module path."""
    known = set(known)
    mutants: list[Mutant] = []
    sources: dict[str, str] = {}
    for path in rule_modules(package, document):
        module = f"{package.name}/{path.relative_to(package).as_posix()}"
        source = path.read_text(encoding="utf-8")
        sources[module] = source
        mutants.extend(module_mutants(module, source, known))
    return mutants, sources


def spread(mutants: Sequence[Mutant], n: int) -> list[Mutant]:
    """At most ``n`` of ``mutants``, spread evenly over their rules: every rule gets the same share (a rule
    with fewer mutants gives its unused share to the others; a remainder goes to rules spread evenly
    through the rule IDs' order), and each rule's share is spread evenly through its mutants. In the
    canonical order."""
    by_rule: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_rule.setdefault(m.rule, []).append(m)
    rules = sorted(by_rule)
    quota = dict.fromkeys(rules, 0)
    left = min(n, len(mutants))
    open_rules = list(rules)
    while left > 0 and open_rules:
        share = left // len(open_rules)
        if share == 0:
            k = len(open_rules)
            for j in range(left):
                quota[open_rules[(2 * j + 1) * k // (2 * left)]] += 1
            break
        for r in open_rules:
            give = min(share, len(by_rule[r]) - quota[r])
            quota[r] += give
            left -= give
        open_rules = [r for r in open_rules if quota[r] < len(by_rule[r])]
    chosen: list[Mutant] = []
    for r in rules:
        items, q = by_rule[r], quota[r]
        chosen.extend(items[(2 * j + 1) * len(items) // (2 * q)] for j in range(q))
    order = {id(m): i for i, m in enumerate(mutants)}
    return sorted(chosen, key=lambda m: order[id(m)])


# --- the equivalent mutants ------------------------------------------------------------------------


def load_equivalent(
    path: Path, ids: Iterable[str], *, required: bool, modules: Iterable[str] | None = None
) -> tuple[dict[str, str], list[str]]:
    """The reviewed equivalent mutants of ``path`` (``[[equivalent]]`` tables: ``id``, ``reason``): id ->
    reason, and a warning line for each entry not taken (an unknown key, no reason, an id that is not a
    mutant any more, a duplicate). ``modules``: the modules ``ids`` are the mutants of (None: every one);
    an entry of another module (the other game's) is left aside without a warning. A file that is not
    TOML, or not ``[[equivalent]]`` tables, is an InputError; a missing file is one when ``required``
    (given on the command line)."""
    if not path.exists():
        if required:
            raise InputError(str(path), "no such equivalent-mutants file")
        return {}, []
    from bgrules.core.codec import read_toml

    data = read_toml(path)
    extra = sorted(set(data) - {"equivalent"})
    if extra:
        raise InputError(str(path), f"expected [[equivalent]] tables only, not {', '.join(extra)}")
    entries = data.get("equivalent", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(str(path), "expected [[equivalent]] tables (id, reason)")
    exists = set(ids)
    scope = None if modules is None else set(modules)
    out: dict[str, str] = {}
    warnings: list[str] = []
    for i, entry in enumerate(entries):
        where = f"{path} equivalent[{i}]"
        unknown = sorted(set(entry) - {"id", "reason"})
        if unknown:
            warnings.append(f"{where}: unknown key(s) {', '.join(unknown)} (an entry is id and reason)")
        mutant_id, reason = entry.get("id"), entry.get("reason")
        if not isinstance(mutant_id, str) or not mutant_id:
            warnings.append(f"{where}: no id; entry ignored")
            continue
        if not isinstance(reason, str) or not reason.strip():
            warnings.append(f"{where}: {mutant_id} has no reason; not taken as equivalent")
            continue
        if scope is not None and mutant_id.split(":")[0] not in scope:
            continue
        if mutant_id not in exists:
            warnings.append(f"{where}: {mutant_id} is not a mutant of the current code (stale); entry ignored")
            continue
        if mutant_id in out:
            warnings.append(f"{where}: {mutant_id} is listed twice")
            continue
        out[mutant_id] = reason.strip()
    return out, warnings


# --- the copy and the checks in a subprocess ---------------------------------------------------------


def _copy_package(package: Path, target: Path) -> None:
    """``package`` (its links followed: the packaged defaults) copied to ``target``, bytecode kept."""
    shutil.copytree(package, target, symlinks=False)


@attrs.frozen
class Workspace:
    """The run's temporary directory: the clean package copy and the specs, proofs and clarifications."""

    root: str
    package: str
    """The name of the package directory (``bgrules``)."""
    specs: str
    proofs: str
    clarifications: str
    games: tuple[str, ...]
    timeout_ms: int
    cwd: str
    checkers: tuple[str, ...] = ("sampled", "searched", "explored", "proved", "clarified")
    """verify's checkers whose checks are run (``--checker``)."""
    """The caller's directory (put last on the checks' import path, for a spec's own predicate module)."""


def make_workspace(
    package: Path,
    specs: Path,
    proofs: Path,
    clarifications: Path,
    games: Sequence[str],
    timeout_ms: int,
    checkers: Sequence[str] = ("sampled", "searched", "explored", "proved", "clarified"),
) -> Workspace:
    """A temporary directory holding a copy of ``package`` (``clean/<name>``) and of the three directories;
    an AdequacyError when something cannot be copied."""
    root = Path(tempfile.mkdtemp(prefix="bgrules-adequacy-"))
    try:
        _copy_package(package, root / "clean" / package.name)
        for name, src in (("specs", specs), ("proofs", proofs), ("clarifications", clarifications)):
            if src.is_dir():
                shutil.copytree(src, root / name, symlinks=False)
            else:
                (root / name).mkdir()
    except OSError as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise AdequacyError(f"adequacy: cannot copy the package or its checks to {root}: {exc}") from None
    return Workspace(
        str(root),
        package.name,
        str(root / "specs"),
        str(root / "proofs"),
        str(root / "clarifications"),
        tuple(games),
        timeout_ms,
        os.getcwd(),
        tuple(checkers),
    )


@attrs.frozen
class Outcome:
    """What one run of the checks in a copy gave."""

    units: tuple[dict[str, Any], ...]
    """Each check unit run: ``checks`` (its check ids), ``rows`` (id, checker, verdict, expected, ok,
    detail), ``reached`` (rule IDs), ``error`` (None, or why it gave no rows)."""
    error: str | None
    """None, ``timeout``, or why the subprocess failed."""
    seconds: float


def run_checks(ws: Workspace, copy: Path, select: Sequence[str] | None, seconds: float) -> Outcome:
    """Run the checks ``select`` (check ids, ``ID [checker]``; None: every check of the games) in a
    subprocess importing the package at ``copy`` (the directory holding it), within ``seconds``."""
    request = {
        "root": str(copy),
        "package": ws.package,
        "specs": ws.specs,
        "proofs": ws.proofs,
        "clarifications": ws.clarifications,
        "games": list(ws.games),
        "timeout_ms": ws.timeout_ms,
        "select": None if select is None else list(select),
        "cwd": ws.cwd,
        "checkers": list(ws.checkers),
    }
    env = {k: v for k, v in os.environ.items() if k not in ("BGRULES_COVERAGE_FILE", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = str(copy) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    code = f"import {ws.package}.core.adequacy as a; a.child_main()"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=copy,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    error: str | None = None
    try:
        out, err = proc.communicate(json.dumps(request), timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, err = proc.communicate()
        error = "timeout"
    units = []
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                units.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    if error is None and proc.returncode != 0:
        last = (err.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        error = f"the checks' process failed: {last[:300]}"
    return Outcome(tuple(u for u in units if "checks" in u), error, time.perf_counter() - start)


def _kill(proc: subprocess.Popen[str]) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run_mutant(ws: Workspace, mutant: Mutant, source: str, checks: Sequence[str], seconds: float) -> dict[str, Any]:
    """Write ``mutant`` into a copy of its own of the clean package and run ``checks`` there: the mutant's
    result (``id``, ``caught``, ``by``: the check ids that caught it, ``timeout``/``crash`` when the run
    itself did, ``seconds``). The copy is removed after."""
    root = Path(tempfile.mkdtemp(prefix="m-", dir=ws.root))
    try:
        target = root / ws.package
        shutil.copytree(Path(ws.root) / "clean" / ws.package, target, symlinks=True)
        path = root / mutant.module
        path.write_text(mutant.apply(source), encoding="utf-8")
        for stale in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
            stale.unlink()
        outcome = run_checks(ws, root, checks, seconds)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    by: list[str] = []
    ran = set()
    for unit in outcome.units:
        ran.update(unit["checks"])
        if unit.get("error"):
            by.extend(unit["checks"])
            continue
        by.extend(f"{r['id']} [{r['checker']}]" for r in unit["rows"] if not r["ok"])
    if outcome.error == "timeout":
        by.append("timeout")
    elif outcome.error is not None:
        by.append("crash")
    elif set(checks) - ran:
        by.append("crash")  # some check gave no result: the process stopped short
    return {
        "id": mutant.id,
        "caught": bool(by),
        "by": sorted(set(by)),
        "seconds": round(outcome.seconds, 2),
        "error": outcome.error,
    }


# --- the child: verify's checks, each in a fork of its own --------------------------------------------


def _units(request: Mapping[str, Any]) -> list[tuple[list[str], Callable[[], list[dict[str, Any]]]]]:
    """verify's checks of the request's games, as units: (their check ids, the call giving their rows).
    A sampled or searched group is one unit (its specs walk the same games), a proof obligation one, and
    a clarification's witness or property one. ``select``: only those checks (a group keeps the selected
    specs; each reports what it would alone)."""
    from bgrules.core.clarify import check_clarification, load_clarification
    from bgrules.core.specs import Budget
    from bgrules.core.verify import group_rows, plan, proof_rows

    select = None if request["select"] is None else set(request["select"])
    budget = Budget(games=100, examples=40, max_steps=200)  # verify's default run
    tasks, _specs = plan(
        Path(request["specs"]),
        Path(request["proofs"]),
        Path(request["clarifications"]),
        budget,
        tuple(request["checkers"]),
        None,
        int(request["timeout_ms"]),
        games=request["games"],
    )
    out: list[tuple[list[str], Callable[[], list[dict[str, Any]]]]] = []
    for task in tasks:
        if task.target.endswith(":group_rows"):
            group, b, checker = task.args
            kept = [s for s in group if select is None or f"{s.id} [{checker}]" in select]
            if kept:
                out.append(([f"{s.id} [{checker}]" for s in kept], _call(group_rows, kept, b, checker)))
        elif task.target.endswith(":proof_rows"):
            ob_id = task.args[1]
            if select is None or f"{ob_id} [proved]" in select:
                out.append(([f"{ob_id} [proved]"], _call(proof_rows, *task.args)))
        else:
            path, _only, base = task.args
            c = load_clarification(path, base)
            for w in c.witnesses:
                check = f"{c.id}/{w.name} [witness]"
                if select is None or check in select:
                    one = attrs.evolve(c, witnesses=(w,), properties=())
                    out.append(([check], _call(_reports, check_clarification, one)))
            for p in c.properties:
                checks = [f"{p.id} [{k}]" for k in p.checkers]
                if select is None or select & set(checks):
                    one = attrs.evolve(c, witnesses=(), properties=(p,))
                    out.append((checks, _call(_reports, check_clarification, one)))
    return out


def _call(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: fn(*args)


def _reports(fn: Callable[..., Any], c: Any) -> list[dict[str, Any]]:
    return [r.to_json() for r in fn(c)]


def _run_unit(call: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
    from bgrules.core import coverage
    from bgrules.core.specs import one_line

    start = time.perf_counter()
    try:
        with coverage.recording("tests") as counts:
            rows = call()
    except Exception as exc:
        seconds = round(time.perf_counter() - start, 3)
        return {"rows": [], "reached": [], "error": f"the check raised {one_line(exc)}", "seconds": seconds}
    keep = ("id", "checker", "verdict", "expected", "ok")
    slim = [{**{k: r[k] for k in keep}, "detail": str(r.get("detail") or "")[:300]} for r in rows]
    seconds = round(time.perf_counter() - start, 3)
    named = {rule for r in rows for rule in r.get("rules") or ()}  # a check reaches the rules it names too
    return {"rows": slim, "reached": sorted(set(counts.reached()) | named), "error": None, "seconds": seconds}


def _forked(call: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
    """``call``'s unit result, run in a forked process (a fresh copy of this one: no memo of an earlier
    check), or here where there is no fork."""
    if not hasattr(os, "fork"):
        return _run_unit(call)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the fork: run, write, leave at once
        code = 0
        try:
            os.close(read)
            data = json.dumps(_run_unit(call)).encode("utf-8")
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return {"rows": [], "reached": [], "error": f"the check's process died (status {status})"}
    result: dict[str, Any] = json.loads(data)
    return result


def child_main() -> None:
    """The subprocess's side of :func:`run_checks`: the request (JSON) on stdin; one JSON line per check
    unit on stdout as each finishes."""
    import bgrules

    request = json.load(sys.stdin)
    here = Path(bgrules.__file__).resolve().parent
    expected = (Path(request["root"]) / request["package"]).resolve()
    if here != expected:
        sys.stderr.write(f"adequacy: the checks imported {here}, not the copy {expected}\n")
        sys.exit(3)
    if request["cwd"] not in sys.path:
        sys.path.append(request["cwd"])  # a spec's own predicate module; never before the copy
    from bgrules.core import gcpolicy

    with contextlib.suppress(InputError):
        gcpolicy.for_runners()
    for checks, call in _units(request):
        result = _forked(call)
        sys.stdout.write(json.dumps({"checks": checks, **result}) + "\n")
        sys.stdout.flush()


# --- the run ----------------------------------------------------------------------------------------


def coverage_map(units: Iterable[Mapping[str, Any]], ties: Iterable[Any]) -> dict[str, list[str]]:
    """Rule ID -> the check ids reaching it: a unit's checks reach every rule it counted, and a
    conformance obligation every rule of its tie (proofs/conformance.toml)."""
    out: dict[str, set[str]] = {}
    obligations: dict[str, set[str]] = {}
    for tie in ties:
        for ob in tie.obligations:
            obligations.setdefault(f"{ob} [proved]", set()).update(tie.rules)
    for unit in units:
        for check in unit["checks"]:
            for rule in [*unit["reached"], *sorted(obligations.get(check, ()))]:
                out.setdefault(rule, set()).add(check)
    return {r: sorted(c) for r, c in sorted(out.items())}


def _check_figure(value: Any, option: str, maximum: float, whole: bool) -> None:
    from bgrules.core.codec import show

    bad = isinstance(value, bool) or not isinstance(value, int | float) or (whole and not isinstance(value, int))
    if bad or value < (1 if whole else 0) or (not whole and value <= 0):
        kind = "a whole number of at least 1" if whole else "a number of seconds above 0"
        raise InputError(option, f"{kind}, not {show(value)}")
    if value > maximum:
        raise InputError(option, f"at most {maximum:,g}, not {show(value)}")


def run_adequacy(
    game: str | None = None,
    *,
    rules: Sequence[str] = (),
    mutants: Sequence[str] = (),
    max_mutants: int | None = None,
    seconds: float = DEFAULT_SECONDS,
    jobs: int = 1,
    engine: str = "local",
    address: str | None = None,
    equivalent: Path | None = None,
    specs_dir: Path | None = None,
    proofs_dir: Path | None = None,
    clarifications_dir: Path | None = None,
    timeout_ms: int | None = None,
    checkers: Sequence[str] = (),
    progress: Callable[[str, int, int], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The adequacy report of ``game``'s rule code (both games when None; docs/adequacy.md): its keys
    ``game``, ``mutants`` (tried, not equivalent), ``caught``, ``equivalent``, ``checks`` (the checks
    run on the baseline), ``seconds``, ``rules`` (``id``, ``mutants``, ``caught``, ``survivors``
    [``id``, ``diff``], ``by`` {check id: mutants caught}), ``results`` (each mutant tried: ``id``,
    ``rule``, ``caught``, ``by``, ``seconds``), ``selection`` (how ``max_mutants`` chose), ``warnings``.
    ``progress(label, done, total)`` before each mutant and at the end; ``warn(line)`` for each warning
    (the equivalent file's, a slow selection) as it is found. Bad input is an InputError; a package that
    cannot be copied, or a baseline whose check fails, an AdequacyError."""
    import bgrules
    from bgrules.core import coverage
    from bgrules.core.defaults import DEFAULT_TIMEOUT_MS, default_dir
    from bgrules.core.jobs import Task, check_jobs, run_tasks
    from bgrules.core.limits import too_large

    started = time.perf_counter()
    warnings: list[str] = []

    def note(line: str) -> None:
        warnings.append(line)
        if warn is not None:
            warn(line)

    document, played = coverage.choice(game)
    if max_mutants is not None:
        _check_figure(max_mutants, "--max-mutants", MAX_MUTANTS, True)
    _check_figure(seconds, "--seconds", MAX_SECONDS, False)
    if engine not in ("local", "ray"):
        raise InputError("--engine", f"local or ray, not {engine!r}")
    if engine == "local":
        jobs = check_jobs(jobs)
        problem = too_large("--jobs", jobs)
        if problem is not None:
            raise InputError("--jobs", problem)
    from bgrules.core.verify import CHECKERS

    for c in checkers:
        if c not in CHECKERS:
            raise InputError("--checker", f"{c!r} is not one of verify's checkers ({', '.join(CHECKERS)})")
    checkers = tuple(c for c in CHECKERS if c in checkers) or CHECKERS
    timeout_ms = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
    _check_figure(timeout_ms, "--timeout", 86_400_000, True)
    documented = coverage.documented_rules()
    known = {r.id for r in documented}
    of_game = {r.id for r in documented if document is None or r.game == document}
    for r in rules:
        if r not in known:
            raise InputError("--rule", f"{r!r} is not a documented rule ID (docs/rules; bgrules coverage lists them)")
        if r not in of_game:
            raise InputError("--rule", f"{r} is not a rule of {game}")

    package = Path(bgrules.__file__).resolve().parent
    every, sources = find_mutants(package, document, of_game)
    specs_dir = default_dir("specs") if specs_dir is None else specs_dir
    given_equivalent = equivalent is not None
    equivalent = specs_dir / EQUIVALENT_FILE if equivalent is None else equivalent
    equivalents, problems = load_equivalent(
        equivalent, (m.id for m in every), required=given_equivalent, modules=sources
    )
    for line in problems:
        note(line)
    wanted = set(rules)
    pool = [m for m in every if not wanted or m.rule in wanted]
    for r in sorted(wanted - {m.rule for m in pool}):
        raise InputError("--rule", f"{r}: no rule code cites it, so there is nothing to mutate")
    if mutants:
        ids = {m.id for m in pool}
        for mutant_id in mutants:
            if mutant_id not in ids:
                scope = f" of {', '.join(sorted(wanted))}" if wanted else (f" of {game}" if game else "")
                raise InputError("--mutant", f"{mutant_id!r} is not a mutant{scope} (--json lists their ids)")
        pool = [m for m in pool if m.id in set(mutants)]
    equivalent_here = [m for m in pool if m.id in equivalents]
    pool = [m for m in pool if m.id not in equivalents]
    chosen = pool if max_mutants is None else spread(pool, max_mutants)
    broken = [m for m in chosen if not m.compiles(sources[m.module])]
    for m in broken:
        note(f"{m.id}: the edit does not compile; not tried")
    chosen = [m for m in chosen if m not in broken]
    if not chosen:
        raise InputError("--rule" if rules else "--game", "no mutant to try (every one is listed as equivalent)")
    selection = (
        f"all {len(pool)} mutants"
        if len(chosen) == len(pool)
        else f"{len(chosen)} of {len(pool)} mutants, spread evenly over their {len({m.rule for m in pool})} rules"
    )

    ws = make_workspace(
        package,
        specs_dir,
        default_dir("proofs") if proofs_dir is None else proofs_dir,
        default_dir("clarifications") if clarifications_dir is None else clarifications_dir,
        played,
        timeout_ms,
        checkers,
    )
    try:
        if progress is not None:
            progress("baseline: every check of the game on the unmutated copy", 0, len(chosen) + 1)
        base = run_checks(ws, Path(ws.root) / "clean", None, max(BASELINE_FLOOR, 10 * seconds))
        if base.error is not None or not base.units:
            raise AdequacyError(f"adequacy: the baseline (the unmutated copy) did not run: {base.error or 'no check'}")
        ties = coverage.load_ties(Path(ws.proofs) / "conformance.toml")
        reach = coverage_map(base.units, ties)
        failing: dict[str, str] = {}
        for unit in base.units:
            for check in unit["checks"]:
                if unit.get("error"):
                    failing[check] = unit["error"]
            for row in unit["rows"]:
                if not row["ok"]:
                    failing[f"{row['id']} [{row['checker']}]"] = f"{row['verdict']}, expected {row['expected']}"
        checks_of = {m.id: sorted({c for r in m.rules for c in reach.get(r, ())}) for m in chosen}
        selected = sorted({c for cs in checks_of.values() for c in cs})
        bad = [c for c in selected if c in failing]
        if bad:
            raise AdequacyError(
                f"adequacy: the baseline fails on the unmutated code: {bad[0]} ({failing[bad[0]]})"
                + (f" and {len(bad) - 1} more" if len(bad) > 1 else "")
                + "; fix it (bgrules verify) before measuring"
            )
        slowest = max(
            (sum(u["seconds"] for u in base.units if set(u["checks"]) & set(cs)) for cs in checks_of.values()),
            default=0.0,
        )
        if slowest > seconds / 2:
            note(
                f"the slowest mutant's checks take {slowest:.1f} s on the unmutated copy, over half of --seconds "
                f"{seconds:g}: a slower mutant may count as caught by its timeout; raise --seconds"
            )
        tasks = []
        results: dict[str, dict[str, Any]] = {}
        for m in chosen:
            if not checks_of[m.id]:
                results[m.id] = {"id": m.id, "caught": False, "by": [], "seconds": 0.0, "error": None}
                continue
            tasks.append(
                Task(m.id, "bgrules.core.adequacy:run_mutant", (ws, m, sources[m.module], checks_of[m.id], seconds))
            )
        unreached = sorted({m.rule for m in chosen if not checks_of[m.id]})
        if unreached:
            note(f"no check reaches {', '.join(unreached)}: their mutants survive without a run")
        done_count = [1]

        def finished(done: Any) -> None:
            value = done.value
            results[value["id"]] = value
            done_count[0] += 1
            if progress is not None:
                verdict = f"caught by {', '.join(value['by'])}" if value["caught"] else "survived"
                progress(f"{value['id']}: {verdict} ({value['seconds']:.1f} s)", done_count[0], len(chosen) + 1)

        if engine == "ray":
            from bgrules.integrations import ray_engine

            ray_engine.run_tasks(tasks, address, on_done=finished)
        else:
            run_tasks(tasks, jobs, on_done=finished, keep=False)
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)
    if progress is not None:
        progress("done", len(chosen) + 1, len(chosen) + 1)
    return _report(game, chosen, results, sources, equivalent_here, equivalents, selected, selection, warnings, started)


def _report(
    game: str | None,
    chosen: Sequence[Mutant],
    results: Mapping[str, Mapping[str, Any]],
    sources: Mapping[str, str],
    equivalent_here: Sequence[Mutant],
    equivalents: Mapping[str, str],
    selected: Sequence[str],
    selection: str,
    warnings: Sequence[str],
    started: float,
) -> dict[str, Any]:
    by_rule: dict[str, list[Mutant]] = {}
    for m in chosen:
        by_rule.setdefault(m.rule, []).append(m)
    rows = []
    for rule in sorted(by_rule):
        caught = [m for m in by_rule[rule] if results[m.id]["caught"]]
        by: Counter[str] = Counter(c for m in caught for c in results[m.id]["by"])
        rows.append(
            {
                "id": rule,
                "mutants": len(by_rule[rule]),
                "caught": len(caught),
                "survivors": [
                    {"id": m.id, "diff": m.diff(sources[m.module])}
                    for m in by_rule[rule]
                    if not results[m.id]["caught"]
                ],
                "by": dict(sorted(by.items(), key=lambda kv: (-kv[1], kv[0]))),
            }
        )
    return {
        "game": game,
        "mutants": len(chosen),
        "caught": sum(1 for m in chosen if results[m.id]["caught"]),
        "equivalent": len(equivalent_here),
        "equivalents": [{"id": m.id, "reason": equivalents[m.id]} for m in equivalent_here],
        "checks": len(selected),
        "seconds": round(time.perf_counter() - started, 1),
        "selection": selection,
        "rules": rows,
        "results": [{"rule": m.rule, **results[m.id]} for m in chosen],
        "warnings": list(warnings),
    }


__all__ = [
    "OPERATORS",
    "AdequacyError",
    "Mutant",
    "Outcome",
    "Workspace",
    "child_main",
    "coverage_map",
    "find_mutants",
    "load_equivalent",
    "module_mutants",
    "rule_modules",
    "run_adequacy",
    "run_checks",
    "run_mutant",
    "spread",
]
