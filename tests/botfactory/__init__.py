"""Tests of Bot Factory: its rules, rulings, encodings and fast paths. Shared helpers live in tests/support/."""
