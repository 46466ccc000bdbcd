"""The JSON codec: cattrs does the (un)structuring; nothing here is hand-written per class.

``dumps`` gives canonical text (sorted keys, no spaces), so equal states give equal text.
Malformed input raises :class:`~bgrules.core.errors.InputError` naming the field path and the reason, in
plain words: "expected a whole number", never a Python type or class name. Reading is strict: a whole
number is not read from text or ``true``, text is not read from a number, a list is not read from text
or an object. ``loads`` also checks a state's meaning with the game's ``validate`` (docs/validation.md).
"""

from __future__ import annotations

import enum
import json
import sys
import tomllib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)

from bgrules.core.errors import IllegalAction, InputError

T = TypeVar("T")

converter = cattrs.Converter(forbid_extra_keys=True)

_MAX_DIGITS = 4300
"""Python's default limit of digits for converting text to a whole number (``sys.get_int_max_str_digits``)."""


def show(value: Any, limit: int = 60) -> str:
    """A short, safe rendering of an input value for a message (a huge number is named by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return f"a number of {digits(value)} digits"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):
            text = "a value"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def digits(value: int) -> int:
    """How many decimal digits a whole number has (without converting it to text, which Python refuses
    past 4300 digits)."""
    v = abs(value)
    n = max(1, int((v.bit_length() - 1) * 0.30102999566398120) + 1)
    if v >= 10**n:
        n += 1
    elif n > 1 and v < 10 ** (n - 1):
        n -= 1
    return n


def describe(type_: Any) -> str:
    """What a value of ``type_`` is, in the words of the JSON/TOML a user writes."""
    if type_ is None or type_ is type(None):
        return "null"
    if type_ is bool:
        return "true or false"
    if type_ is int:
        return "a whole number"
    if type_ is float:
        return "a number"
    if type_ is str:
        return "text"
    if type_ is Any:
        return "a value"
    if isinstance(type_, type) and issubclass(type_, enum.IntEnum):
        return "one of " + ", ".join(m.name for m in type_)
    if isinstance(type_, type) and issubclass(type_, enum.Enum):
        return "one of " + ", ".join(show(m.value) for m in type_)
    origin = get_origin(type_)
    if origin is Literal:
        return "one of " + ", ".join(show(v) for v in get_args(type_))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe(a) for a in get_args(type_))
    if origin in (tuple, list) or type_ in (tuple, list):
        args = get_args(type_)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_plural(args[0])}"
        if args:
            return f"a list of {len(args)} items"
        return "a list"
    if origin in (dict, Mapping) or type_ is dict:
        return "an object (a table)"
    if attrs.has(type_):
        return "an object (a table)"
    return "a value"


def _plural(type_: Any) -> str:
    words = {int: "whole numbers", str: "texts", bool: "true/false values"}
    return words.get(type_, f"items, each {describe(type_)}")


def _whole(value: Any, _type: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"expected a whole number, not {show(value)}")


def _text(value: Any, _type: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError(f"expected text, not {show(value)}")


def _truth(value: Any, _type: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError(f"expected true or false, not {show(value)}")


def _number(value: Any, _type: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"expected a number, not {show(value)}")


converter.register_structure_hook(int, _whole)
converter.register_structure_hook(str, _text)
converter.register_structure_hook(bool, _truth)
converter.register_structure_hook(float, _number)


def _is_tuple(type_: Any) -> bool:
    return get_origin(type_) is tuple


def _tuple_hook(type_: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    """Tuples are read from JSON/TOML lists only (not from text or an object); a fixed-size tuple needs
    exactly its number of items. Each item's error keeps its index in the path."""
    args = get_args(type_)
    same = len(args) == 2 and args[1] is Ellipsis

    def hook(value: Any, _type: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise ValueError(f"expected {describe(type_)}, not {show(value)}")
        if same:
            item_types: Sequence[Any] = (args[0],) * len(value)
        else:
            if len(value) != len(args):
                raise ValueError(f"expected a list of {len(args)} items, not {len(value)}")
            item_types = args
        out = []
        errors: list[Exception] = []
        for i, (item, item_type) in enumerate(zip(value, item_types, strict=True)):
            try:
                out.append(converter.structure(item, item_type))
            except RecursionError:
                raise
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []), IterableValidationNote(f"@ index {i}", i, item_type)]
                errors.append(exc)
        if errors:
            raise IterableValidationError("invalid items", errors, type_)
        return tuple(out)

    return hook


converter.register_structure_hook_factory(_is_tuple, _tuple_hook)


def _is_plain_enum(type_: Any) -> bool:
    return isinstance(type_, type) and issubclass(type_, enum.Enum) and not issubclass(type_, enum.IntEnum)


def _enum_hook(type_: Any) -> Callable[[Any, Any], Any]:
    by_value = {m.value: m for m in type_}

    def hook(value: Any, _type: Any) -> Any:
        if isinstance(value, str | int) and not isinstance(value, bool) and value in by_value:
            return by_value[value]
        raise ValueError(f"{show(value)} is not {describe(type_)}")

    return hook


converter.register_structure_hook_factory(_is_plain_enum, _enum_hook)


def _is_literal(type_: Any) -> bool:
    return get_origin(type_) is Literal


def _literal_hook(type_: Any) -> Callable[[Any, Any], Any]:
    allowed = get_args(type_)

    def hook(value: Any, _type: Any) -> Any:
        for a in allowed:
            if type(value) is type(a) and value == a:
                return a
        raise ValueError(f"{show(value)} is not {describe(type_)}")

    return hook


converter.register_structure_hook_factory(_is_literal, _literal_hook)


def _structure_int_enum(value: Any, cls: type[enum.IntEnum]) -> enum.IntEnum:
    """Int enums (directions, bot grades) are written by name; their numbers are read too."""
    names = ", ".join(m.name for m in cls)
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            raise ValueError(f"{show(value)} is not one of {names}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"{show(value)} is not one of {names} (0 to {len(cls) - 1})") from None
    raise ValueError(f"expected one of {names}, not {show(value)}")


def register_named_enum(cls: type[enum.IntEnum]) -> None:
    """Write ``cls`` members by name in JSON and TOML; read names (any case) or numbers."""
    converter.register_structure_hook(cls, _structure_int_enum)
    converter.register_unstructure_hook(cls, lambda v: v.name)


def _field_names(cls: Any) -> list[str]:
    try:
        return [a.alias or a.name for a in attrs.fields(cls)]
    except (TypeError, attrs.exceptions.NotAnAttrsClassError):
        return []


def _reason(exc: BaseException, type_: Any) -> str:
    """One error in plain words (a validator's or hook's own sentence when it has one)."""
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = ", ".join(sorted(map(str, exc.extra_fields)))
        valid = ", ".join(sorted(_field_names(exc.cl)))
        return f"unknown key(s) {extra}; valid keys: {valid}"
    if isinstance(exc, KeyError):
        return "required, but missing"
    if isinstance(exc, AttributeError) and "items" in str(exc):
        return "expected an object (a table)"
    text = str(exc)
    if isinstance(exc, ValueError) and text and not _internal(text):
        return text
    if type_ is not None:
        return f"expected {describe(type_)}"
    return "not a value of the expected kind"


_INTERNAL_WORDS = ("cattrs", "ClassValidationError", "<class", "typing.", "NoneType", "builtins", "Traceback")


def _internal(text: str) -> bool:
    """Whether a message speaks of Python's or cattrs' internals (then it is rephrased)."""
    return any(word in text for word in _INTERNAL_WORDS) or ("object" in text and "attribute" in text)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def errors_of(exc: BaseException, path: str = "", type_: Any = None) -> list[tuple[str, str]]:
    """Every (field path, reason) in a cattrs error tree; the root path is ``""``."""
    out: list[tuple[str, str]] = []
    if isinstance(exc, IterableValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, inote in with_notes:
            out.extend(errors_of(sub, f"{path}[{inote.index}]", inote.type))
        for plain in without:
            out.extend(errors_of(plain, path, None))
    elif isinstance(exc, ClassValidationError):
        cwith, cwithout = exc.group_exceptions()
        for sub, cnote in cwith:
            out.extend(errors_of(sub, _join(path, cnote.name), cnote.type))
        for bare in cwithout:
            out.extend(errors_of(bare, path, None))
    elif isinstance(exc, BaseExceptionGroup):
        for member in exc.exceptions:
            out.extend(errors_of(member, path, type_))
    elif isinstance(exc, ValueError) and len(exc.args) > 1 and isinstance(exc.args[0], str):
        field = getattr(exc.args[1], "name", None)  # an attrs validator: (message, attribute, ...)
        out.append((_join(path, field) if isinstance(field, str) else path or "$", exc.args[0]))
    else:
        out.append((path or "$", _reason(exc, type_)))
    return out


def input_error(where: str, errors: Sequence[tuple[str, str]]) -> InputError:
    """One InputError for several (path, reason) pairs: ``where`` names the paths, ``why`` each reason."""
    paths = list(dict.fromkeys(p for p, _r in errors))
    head = f"{where} {', '.join(paths)}".strip() if paths != ["$"] else where
    if len(errors) == 1:
        return InputError(head, errors[0][1])
    return InputError(head, "; ".join(f"{p}: {r}" for p, r in errors))


def structure(data: Any, cls: type[T], where: str = "") -> T:
    """Build ``cls`` from plain data, or raise InputError saying which field is wrong and why."""
    try:
        return converter.structure(data, cls)
    except RecursionError:
        raise InputError(where, "nested too deeply") from None
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        raise input_error(where, errors_of(exc)) from None
    except (ValueError, TypeError, KeyError, AttributeError, cattrs.errors.CattrsError) as exc:
        raise input_error(where, [("$", _reason(exc, cls))]) from None


ID_MAX = 120
"""The longest id a spec, proof obligation, clarification, witness or property may have (characters)."""


def identifier(value: Any, where: str, what: str = "id") -> str:
    """``value`` as an id: non-empty text of at most :data:`ID_MAX` characters with no control character
    (NUL included) and no path separator (``/`` or ``\\``), since an id names its trace files; anything
    else is an InputError naming ``where``."""
    if not isinstance(value, str):
        raise InputError(where, f"{what} is text, not {show(value)}")
    if not value.strip():
        raise InputError(where, f"{what} is non-empty text")
    if len(value) > ID_MAX:
        raise InputError(where, f"{what} has {len(value)} characters; at most {ID_MAX}")
    bad = next((c for c in value if c in "/\\" or ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        name = "a path separator" if bad in "/\\" else f"the control character {ord(bad):#04x}"
        raise InputError(where, f"{what} {show(value)} holds {name}; an id names files, so it may not")
    return value


def whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number (not true or false, not text) within ``low``..``high`` when given, else an
    InputError naming ``where`` (a huge number is named by its size, never converted to text)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(where, f"expected a whole number, not {show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else (f"at least {low}" if low is not None else f"at most {high}")
        )
        raise InputError(where, f"a whole number {span}, not {show(value)}")
    return value


def table(value: Any, where: str) -> dict[str, Any]:
    """``value`` as a table (a JSON object / TOML table), else an InputError naming ``where``."""
    if not isinstance(value, dict):
        raise InputError(where, f"expected a table, not {show(value)}")
    return value


def texts(value: Any, where: str) -> tuple[str, ...]:
    """``value`` as a list of texts, else an InputError naming ``where``."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise InputError(where, f"expected a list of texts, not {show(value)}")
    return tuple(value)


def text(value: Any, where: str) -> str:
    """``value`` as text, else an InputError naming ``where``."""
    if not isinstance(value, str):
        raise InputError(where, f"expected text, not {show(value)}")
    return value


def unstructure(obj: Any) -> Any:
    return converter.unstructure(obj)


def dumps(obj: Any) -> str:
    """Canonical JSON text of a state or action."""
    return json.dumps(converter.unstructure(obj), sort_keys=True, separators=(",", ":"))


def decode(data: bytes | bytearray | str, where: str) -> str:
    """Text from bytes that must be UTF-8; other bytes are an InputError naming ``where`` and the byte."""
    if isinstance(data, str):
        return data
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(where, f"not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})") from None


def read_text(path: str | Path, what: str = "") -> str:
    """A text file's contents: a file that cannot be read, or bytes that are not UTF-8, are an InputError
    naming the file (``what``, e.g. "state file", is put before its name)."""
    p = Path(path)
    where = f"{what} {p}".strip()
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(where, f"cannot read: {exc.strerror or exc}") from None
    return decode(data, where)


def parse_json(text: str | bytes | bytearray, where: str) -> Any:
    """JSON text as plain data; malformed text, bytes that are not UTF-8, numbers too long to read and
    too deep nesting are InputErrors naming ``where`` (with the line and column when known)."""
    text = decode(text, where.strip() or "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}line {exc.lineno} column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise InputError(where.strip() or "JSON", "nested too deeply") from None
    except ValueError:
        limit = sys.get_int_max_str_digits() or _MAX_DIGITS
        raise InputError(where.strip() or "JSON", f"a number has more than {limit} digits") from None


_parse_json = parse_json


def loads_as(text: str | bytes, cls: type[T], where: str = "JSON ") -> T:
    return structure(parse_json(text, where), cls, where.strip() or "JSON")


def loads(game: Any, text: str | bytes) -> Any:
    """Parse a state of ``game`` from ``dumps`` text, and check it is one the game can reach the shape of
    (``game.validate``): a state that breaks an index range, a count, or its phase's fields is an InputError
    listing every violation."""
    name = getattr(getattr(game, "info", None), "name", "game")
    state = loads_as(text, game.state_type(), f"{name} state ")
    return checked(game, state, f"{name} state")


def checked(game: Any, state: T, where: str) -> T:
    """``state`` if ``game.validate`` finds nothing wrong with it, else an InputError listing every violation
    (``where`` names the paths: "botfactory state hands[0].tokens, supply[1]")."""
    validate = getattr(game, "validate", None)
    if validate is None:
        return state
    problems = validate(state)
    if not problems:
        return state
    raise problems_error(where, problems)


def problems_error(where: str, problems: Sequence[str]) -> InputError:
    """One InputError for ``validate``'s messages ("path: reason" each)."""
    pairs = []
    for text in problems:
        path, sep, reason = text.partition(": ")
        pairs.append((path, reason) if sep and " " not in path else ("$", text))
    return input_error(where, pairs)


def _kind_test(type_: Any) -> Callable[[Any], bool]:
    """A fast test of whether a value is exactly of ``type_`` (a bool is not a whole number, a float not
    an index, a list not a tuple), compiled once per action field."""
    if type_ is Any:
        return lambda v: True
    if type_ is None or type_ is type(None):
        return lambda v: v is None
    if type_ in (int, bool, str, float) or (isinstance(type_, type) and issubclass(type_, enum.Enum)):
        return lambda v: type(v) is type_
    origin = get_origin(type_)
    args = get_args(type_)
    if origin in (typing.Union, types.UnionType):
        tests = tuple(_kind_test(a) for a in args)
        return lambda v: any(t(v) for t in tests)
    if origin is Literal:
        return lambda v: any(type(v) is type(a) and v == a for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _kind_test(args[0])
            return lambda v: type(v) is tuple and all(item(x) for x in v)
        items = tuple(_kind_test(a) for a in args)
        return lambda v: type(v) is tuple and len(v) == len(items) and all(t(x) for t, x in zip(items, v, strict=True))
    if isinstance(type_, type):
        return lambda v: isinstance(v, type_)
    return lambda v: True


def action_checker(cls: type[Any]) -> Callable[[Any], str | None] | None:
    """For an action class with fields, a function naming the first field of an instance whose value is not
    of the field's declared kind (``"space: expected a whole number, not '3'"``), or None when all are;
    None for a class with nothing to check. Fields with an attrs converter (bot grades, sorted part lists)
    are checked too: their converters are :func:`lenient`, leaving a value they cannot convert as it was.
    The games' ``apply`` calls it first, so an
    action with a field of the wrong type is an IllegalAction, never a TypeError deep in the rules; the
    test is compiled once per class to a single expression (``type(a.space) is int and ...``) so that the
    hot path stays fast."""
    hints = typing.get_type_hints(cls)
    fields = tuple((a.name, hints.get(a.name, Any)) for a in attrs.fields(cls))
    if not fields:
        return None
    namespace: dict[str, Any] = {}
    terms = []
    for i, (name, type_) in enumerate(fields):
        if type_ in (int, str, bool, float) or (isinstance(type_, type) and issubclass(type_, enum.Enum)):
            namespace[f"T{i}"] = type_
            terms.append(f"type(a.{name}) is T{i}")
        else:
            namespace[f"F{i}"] = _kind_test(type_)
            terms.append(f"F{i}(a.{name})")
    tests = {name: _kind_test(type_) for name, type_ in fields}

    def problem(action: Any) -> str | None:
        for name, type_ in fields:
            value = getattr(action, name)
            if not tests[name](value):
                return f"{name}: expected {describe(type_)}, not {show(value)}"
        return None

    namespace["problem"] = problem
    exec(f"def check(a):\n    return None if {' and '.join(terms)} else problem(a)\n", namespace)
    check: Callable[[Any], str | None] = namespace["check"]
    return check


def lenient(convert: Callable[[Any], Any], *, sequence: bool = False) -> Callable[[Any], Any]:
    """An action field's converter that never raises: ``convert(value)``, or ``value`` as it was when it
    cannot be converted (``sequence``: when it is not a list or tuple, so text such as ``""`` is not read as
    a list of its letters). The action is made all the same, and the game's ``apply`` refuses it with an
    IllegalAction naming the rule and the field (:func:`action_checker` checks every field), as it refuses
    a field of the wrong type without a converter: ``Fabricate(declare="")`` is an action ``apply``
    refuses, never a TypeError or a silently empty declaration."""

    def converted(value: Any) -> Any:
        if sequence and not isinstance(value, list | tuple):
            return value
        try:
            return convert(value)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return tuple(value) if isinstance(value, list) else value  # a list as a tuple: the action hashes

    return converted


def action_checkers(types_: Sequence[type[Any]]) -> dict[type[Any], Callable[[Any], str | None] | None]:
    """:func:`action_checker` of each action class of a game, by class."""
    return {t: action_checker(t) for t in types_}


def action_rule(cls: type[Any], default: str) -> str:
    """The rule an action class answers to: the first rule ID in its docstring (``default`` if none)."""
    import re

    found = re.search(r"\b(?:BF|MC)-[A-Z0-9-]*[A-Z0-9]", cls.__doc__ or "")
    return found.group(0) if found else default


def show_action(action: Any) -> str:
    """``repr(action)``, safe for any field value (a number too long to print is named by its size)."""
    try:
        text = repr(action)
    except (ValueError, RecursionError):
        text = f"{type(action).__name__}(...)"
    return text if len(text) <= 200 else text[:197] + "..."


class ActionGuard:
    """What a game's ``apply`` does with a malformed action: ``checks`` holds, per action class with fields,
    the :func:`action_checker` its ``apply`` calls first (a dict look-up and a few ``type(...) is``
    tests: the hot path stays fast); :meth:`refusal` is the IllegalAction naming the class's rule and the
    field; :meth:`unexpected` turns an error the rules met on an action that is not legal here into an
    IllegalAction (and leaves any other error as it is: a bug is never hidden)."""

    def __init__(self, types_: Sequence[type[Any]], default_rule: str) -> None:
        self.checks = action_checkers(types_)
        self.rules = {t: action_rule(t, default_rule) for t in types_}
        self.default_rule = default_rule

    def refusal(self, action: Any, why: str) -> BaseException:

        rule = self.rules.get(type(action), self.default_rule)
        return IllegalAction(rule, f"{show_action(action)}: {why}")

    def apply(self, game: Any, state: T, action: Any, step: Callable[[T, Any], T]) -> T:
        """``step(state, action)`` (a game's own dispatch) behind the guard: an action whose fields are
        not of their declared kinds is refused (:meth:`refusal`), and an error the rules meet on an
        action they cannot read here becomes an IllegalAction (:meth:`unexpected`); the state never
        changes."""
        check = self.checks.get(type(action))
        if check is not None:
            bad = check(action)
            if bad is not None:
                raise self.refusal(action, bad)
        try:
            return step(state, action)
        except (TypeError, IndexError, KeyError, ValueError, AttributeError) as exc:
            raise self.unexpected(game, state, action, exc) from None

    def unexpected(self, game: Any, state: Any, action: Any, exc: BaseException) -> BaseException:
        try:
            legal = action in game.legal_actions(state)
        except Exception:  # the original error is the one to report
            return exc
        if legal:
            return exc
        kind = type(action)
        if kind not in self.rules:
            return self.refusal(action, f"not an action of this game ({', '.join(t.__name__ for t in self.rules)})")
        return self.refusal(action, "not a legal action here")


def action_to_data(action: Any) -> dict[str, Any]:
    data = converter.unstructure(action)
    assert isinstance(data, dict)
    return {"type": type(action).__name__, **data}


def action_from_data(data: Any, types: Sequence[type[Any]], where: str = "action") -> Any:
    if not isinstance(data, dict) or "type" not in data:
        raise InputError(where, 'an action is an object with a "type" key')
    by_name = {t.__name__: t for t in types}
    name = data["type"]
    if not isinstance(name, str) or name not in by_name:
        raise InputError(where, f"unknown action type {show(name)}; known: {', '.join(sorted(by_name))}")
    fields = {k: v for k, v in data.items() if k != "type"}
    return structure(fields, by_name[name], where)


def read_package_toml(package: str, name: str) -> dict[str, Any]:
    """Read a TOML data file shipped inside a bgrules package (e.g. ``data/components.toml``)."""
    from importlib import resources

    return tomllib.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file, turning every failure into an InputError with the file and position (a file that
    is not UTF-8, too deep nesting and numbers too long to read included)."""
    p = Path(path)
    text = read_text(p)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(p), f"malformed TOML: {exc}") from None
    except RecursionError:
        raise InputError(str(p), "malformed TOML: nested too deeply") from None
    except ValueError:
        limit = sys.get_int_max_str_digits() or _MAX_DIGITS
        raise InputError(str(p), f"malformed TOML: a number has more than {limit} digits") from None
