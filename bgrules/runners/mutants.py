"""The mutants of ``bgrules adequacy`` (docs/adequacy.md): small edits of the rule code, found by walking
the syntax tree of each engine module's functions that cite a rule ID (:func:`find_mutants`), spread
evenly over the rules (:func:`spread`), and the reviewed file of equivalent mutants
(:func:`load_equivalent`). :mod:`bgrules.runners.adequacy` runs them."""

from __future__ import annotations

import ast
import difflib
import io
import itertools
import re
import tokenize
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from bgrules.core.codec import read_toml
from bgrules.core.descriptor import Table, descriptors
from bgrules.core.errors import BgrulesError, InputError


def _engine_dirs() -> dict[str, str]:
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


__all__ = [
    "OPERATORS",
    "AdequacyError",
    "Mutant",
    "find_mutants",
    "load_equivalent",
    "module_mutants",
    "rule_modules",
    "spread",
]
