"""A plain reference implementation of Bot Factory (docs/rules/botfactory.md), which the fast engine
``bgrules.botfactory.game.BotFactoryGame`` must refine (tests/refinement)."""

from bgrules.botfactory.reference.game import ReferenceBotFactoryGame

__all__ = ["ReferenceBotFactoryGame"]
