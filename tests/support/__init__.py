"""Helpers shared by the test files, the only modules of tests/ a test imports from (as ``support.<module>``:
tests/ is on the path, through tests/conftest.py)."""
