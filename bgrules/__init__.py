"""bgrules: executable, formally checked rules of Bot Factory and Mechanica."""

from bgrules.core.codec import dumps, loads
from bgrules.core.errors import BgrulesError, IllegalAction, InputError
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
    "game_names",
    "load_game",
    "loads",
]
__version__ = "0.4.0"
