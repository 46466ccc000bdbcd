"""What the ``bgrules`` commands print, as functions that return text (lines, table rows, summaries) from
what a runner returned: the command line (:mod:`bgrules.cli`) parses the options, calls a runner
(:mod:`bgrules.runners`), and prints what these give. A game's own pieces come from its package (e.g.
:mod:`bgrules.runners.factory`)."""
