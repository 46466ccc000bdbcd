"""Tests of the agents (bgrules.agents): random, greedy and mcts play legally and deterministically, the fast
greedy agent makes the plain one's choices. Shared helpers live in tests/support/."""
