"""A plain reference implementation of Mechanica's rules, written from docs/rules/mechanica.md and the
seed: the fast engine (:mod:`bgrules.mechanica.game`, :mod:`bgrules.mechanica.sandbox`) must refine it
(tests/refinement/test_mechanica_reference.py). It shares only the state and action records and the
component data with the fast engine."""

from bgrules.mechanica.reference.game import ReferenceMechanicaGame
from bgrules.mechanica.reference.sandbox import ReferenceFactoryGame

__all__ = ["ReferenceFactoryGame", "ReferenceMechanicaGame"]
