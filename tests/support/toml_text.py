"""TOML text of Python values, for tests that write spec, clarification and proof manifests by hand."""

from __future__ import annotations

import json
from typing import Any


def toml_value(value: Any) -> str:
    """``value`` as a TOML value: booleans, strings, lists and inline tables (their None items left out, so a
    test can drop a field by setting it to None); anything else as its ``repr`` (numbers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items() if v is not None) + "}"
        )
    return repr(value)
