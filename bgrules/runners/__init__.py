"""The runners: what the ``bgrules`` commands run and compute, as functions that return data (reports,
dicts, rows). The specs and their checkers (:mod:`bgrules.runners.specs`), ``verify``'s plan
(:mod:`bgrules.runners.verify`), the proofs' runner, the clarifications, campaigns, balance, coverage
tables, ruling diffs, adequacy's mutants, traces and HTML pages. They stand on :mod:`bgrules.core` and on
the games through their descriptors; :mod:`bgrules.runners.commands` holds one module per command: what
the command line (:mod:`bgrules.cli`) calls and the lines it prints. Nothing below imports from here
(tests/core/test_layers.py)."""
