"""Tests of the core machinery: the play protocol, errors, the codec, arithmetic, playouts, the explorer, the
layers, golden traces and hygiene. Shared helpers live in tests/support/."""
