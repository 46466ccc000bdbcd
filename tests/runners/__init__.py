"""Tests of the runners and commands: the CLI, campaigns, balance, coverage, verify, diff, adequacy, the HTML
reports, validation, and fuzzing of the CLI and the loaders. Shared helpers live in tests/support/."""
