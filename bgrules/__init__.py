"""bgrules: executable, formally checked rules of Bot Factory and Mechanica."""

from bgrules.core.codec import dumps, loads
from bgrules.core.errors import BgrulesError, IllegalAction, InputError
from bgrules.core.explore import explore
from bgrules.core.protocol import CHANCE, Game, GameInfo
from bgrules.core.registry import game_names, load_game

__all__ = [
    "CHANCE",
    "BgrulesError",
    "Game",
    "GameInfo",
    "IllegalAction",
    "InputError",
    "dumps",
    "explore",
    "game_names",
    "load_game",
    "loads",
]


def _version() -> str:
    """The one version number, pyproject.toml's ``version``: read from the checkout when bgrules runs from
    one (an editable install's metadata keeps the version it was installed with), else from the installed
    package's metadata."""
    import tomllib
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    project = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if project.is_file():
        data = tomllib.loads(project.read_text(encoding="utf-8")).get("project", {})
        if data.get("name") == "bgrules" and isinstance(data.get("version"), str):
            return str(data["version"])
    try:
        return version("bgrules")
    except PackageNotFoundError:
        return "unknown"


__version__ = _version()
