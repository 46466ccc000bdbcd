"""Adapters to the tools people who write game AI already use (docs/integrations.md).

- :mod:`bgrules.integrations.actions`: a fixed action space per game (an index for every action);
- :mod:`bgrules.integrations.observations`: a fixed-length observation vector per game, and its one-hot
  encoding (every entry in [0, 1]);
- :mod:`bgrules.integrations.rewards`: the rewards at the end of a game (``"win"`` or ``"score"``);
- :mod:`bgrules.integrations.openspiel`: the games as OpenSpiel Python games (extra ``[openspiel]``);
- :mod:`bgrules.integrations.pettingzoo`: the games as PettingZoo AEC environments (extra ``[pettingzoo]``).

The first three need nothing beyond bgrules; the adapters import their ecosystem through
:func:`bgrules.core.errors.require_extra`, so a missing extra is one line naming what to install.
"""
