"""Helpers shared by several test files (imported as ``support.<module>``: tests/ is on the path)."""
