"""Tests of Mechanica, the whole game and the factory sandbox: its rules, rulings, encodings and fast paths.
Shared helpers live in tests/support/."""
