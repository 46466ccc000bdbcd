"""The JSON codec: cattrs does the (un)structuring; nothing here is hand-written per class.

``dumps`` gives canonical text (sorted keys, no spaces), so equal states give equal text.
Malformed input raises :class:`~bgrules.core.errors.InputError` naming the field path and the reason.
"""

from __future__ import annotations

import enum
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.v import format_exception

from bgrules.core.errors import InputError

T = TypeVar("T")

converter = cattrs.Converter(forbid_extra_keys=True)


def _structure_int_enum(value: Any, cls: type[enum.IntEnum]) -> enum.IntEnum:
    """Int enums (directions, bot grades) are written by name; their numbers are read too."""
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            names = ", ".join(m.name for m in cls)
            raise ValueError(f"{value!r} is not one of {names}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return cls(value)
    raise ValueError(f"expected a {cls.__name__} name, got {value!r}")


def register_named_enum(cls: type[enum.IntEnum]) -> None:
    """Write ``cls`` members by name in JSON and TOML; read names (any case) or numbers."""
    converter.register_structure_hook(cls, _structure_int_enum)
    converter.register_unstructure_hook(cls, lambda v: v.name)


def _format_exception(exc: BaseException, type_: Any) -> str:
    """cattrs' wording, but keeping a validator's own reason instead of a bare "invalid value"."""
    if isinstance(exc, ValueError) and not isinstance(exc, KeyError) and str(exc):
        return f"invalid value: {exc}"
    return format_exception(exc, type_)


def _describe(exc: BaseException, where: str) -> str:
    if isinstance(exc, ClassValidationError | IterableValidationError | ForbiddenExtraKeysError):
        messages = cattrs.transform_error(exc, path=where or "$", format_exception=_format_exception)
        return "; ".join(messages)
    return f"{where or '$'}: {exc}"


def structure(data: Any, cls: type[T], where: str = "") -> T:
    """Build ``cls`` from plain data, or raise InputError saying which field is wrong and why."""
    try:
        return converter.structure(data, cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        raise InputError(where, _describe(exc, "$")) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(where, f"invalid value: {exc}") from None


def unstructure(obj: Any) -> Any:
    return converter.unstructure(obj)


def dumps(obj: Any) -> str:
    """Canonical JSON text of a state or action."""
    return json.dumps(converter.unstructure(obj), sort_keys=True, separators=(",", ":"))


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}line {exc.lineno} column {exc.colno}", exc.msg) from None


def loads_as(text: str, cls: type[T], where: str = "JSON ") -> T:
    return structure(_parse_json(text, where), cls, where.strip() or "JSON")


def loads(game: Any, text: str) -> Any:
    """Parse a state of ``game`` from ``dumps`` text."""
    return loads_as(text, game.state_type(), "state JSON ")


def action_to_data(action: Any) -> dict[str, Any]:
    data = converter.unstructure(action)
    assert isinstance(data, dict)
    return {"type": type(action).__name__, **data}


def action_from_data(data: Any, types: Sequence[type[Any]], where: str = "action") -> Any:
    if not isinstance(data, dict) or "type" not in data:
        raise InputError(where, 'an action is an object with a "type" key')
    by_name = {t.__name__: t for t in types}
    name = data["type"]
    if name not in by_name:
        raise InputError(where, f"unknown action type {name!r}; known: {', '.join(sorted(by_name))}")
    fields = {k: v for k, v in data.items() if k != "type"}
    return structure(fields, by_name[name], where)


def read_package_toml(package: str, name: str) -> dict[str, Any]:
    """Read a TOML data file shipped inside a bgrules package (e.g. ``data/components.toml``)."""
    from importlib import resources

    return tomllib.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file, turning every failure into an InputError with the file and position."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(str(p), f"cannot read: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(p), f"malformed TOML: {exc}") from None
