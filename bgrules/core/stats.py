"""Small statistics for runners' reports: the Wilson score interval of a proportion and a summary of a sample.

Pure functions over ints and floats, no third-party dependency (``statistics`` and ``math`` only).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable

import attrs

from bgrules.core.errors import InputError

Z95 = statistics.NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959963984540054."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927; Newcombe 1998, method 3) of ``successes`` out of ``trials``,
    at the confidence whose two-sided normal quantile is ``z`` (default 95%).

    It is the set of proportions p that the score test does not reject: ``|k/n - p| <= z * sqrt(p (1 - p) / n)``,
    whose bounds are the roots of a quadratic in p. Unlike the normal ("Wald") interval it stays inside [0, 1] and
    is not empty at 0 or n successes: 0 of 10 gives [0, 0.2775], 10 of 10 gives [0.7225, 1]. With no trials
    nothing is known and the interval is [0, 1]. No continuity correction.
    """
    if isinstance(successes, bool) or isinstance(trials, bool) or not isinstance(successes, int):
        raise InputError("successes", f"a whole number, not {successes!r}")
    if not isinstance(trials, int) or trials < 0:
        raise InputError("trials", f"a whole number of at least 0, not {trials!r}")
    if not 0 <= successes <= trials:
        raise InputError("successes", f"between 0 and {trials} trials, not {successes}")
    if not z > 0:
        raise InputError("z", f"a positive normal quantile, not {z!r}")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denominator = 1 + z2 / n
    low = (centre - half) / denominator
    high = (centre + half) / denominator
    # At k = 0 (k = n) the lower (upper) bound is exactly 0 (1); rounding must not leave it a hair off.
    if successes == 0:
        low = 0.0
    if successes == n:
        high = 1.0
    return (max(0.0, low), min(1.0, high))


@attrs.frozen
class Summary:
    """A sample's size, mean, sample standard deviation (n - 1; 0.0 for one value), median and range."""

    n: int
    mean: float
    sd: float
    median: float
    min: float
    max: float

    def as_dict(self, digits: int = 4) -> dict[str, float | int]:
        return {
            "n": self.n,
            "mean": round(self.mean, digits),
            "sd": round(self.sd, digits),
            "median": round(self.median, digits),
            "min": self.min,
            "max": self.max,
        }


def summarise(values: Iterable[float]) -> Summary | None:
    """The :class:`Summary` of ``values``, or None for an empty sample."""
    xs = list(values)
    if not xs:
        return None
    return Summary(
        n=len(xs),
        mean=statistics.fmean(xs),
        sd=statistics.stdev(xs) if len(xs) > 1 else 0.0,
        median=float(statistics.median(xs)),
        min=min(xs),
        max=max(xs),
    )
