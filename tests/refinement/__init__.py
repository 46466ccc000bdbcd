"""The fast engines refine the reference engines (bgrules.core.refinement). Shared helpers live in
tests/support/."""
