"""Tests of the core machinery: the play protocol, errors, the codec, arithmetic, playouts, the explorer, the
agents, specs, proofs and clarifications, and hygiene. Shared helpers live in tests/support/."""
