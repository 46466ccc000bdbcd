"""Tests of the integrations: OpenSpiel, PettingZoo, Ray, the observations, the pictures and narration, the
browser and the docs site. Shared helpers live in tests/support/."""
