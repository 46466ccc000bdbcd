"""The Wilson score interval (bgrules.core.stats) against published values, an independent root search, and the
exact binomial coverage it promises; and the sample summary."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgrules.core.errors import InputError
from bgrules.core.stats import Z95, summarise, wilson_interval

# Newcombe, R. G. (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
# methods", Statistics in Medicine 17, 857-872, Table I, method 3 (Wilson score, no continuity correction):
# the paper's four examples, to its 4 decimals.
NEWCOMBE_1998 = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]

# n = 10, the cases a designer meets first: none, half, all. 0/10's upper bound is z^2 / (n + z^2) = 0.27753;
# 5/10 is symmetric about 1/2; 10/10 mirrors 0/10.
TEN = [
    (0, 10, 0.0000, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0000),
]


@pytest.mark.parametrize(("k", "n", "low", "high"), NEWCOMBE_1998 + TEN)
def test_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert round(lo, 4) == low
    assert round(hi, 4) == high


def test_z95_is_the_normal_quantile() -> None:
    assert abs(Z95 - 1.959963984540054) < 1e-12


def test_zero_and_all_bounds_are_exact() -> None:
    for n in (1, 2, 10, 263, 10_000):
        assert wilson_interval(0, n)[0] == 0.0
        assert wilson_interval(n, n)[1] == 1.0
        assert wilson_interval(0, n)[1] == pytest.approx(Z95**2 / (n + Z95**2), rel=1e-12)


def test_no_trials_knows_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _score_rejects(k: int, n: int, p: float, z: float) -> bool:
    """The score test of H0: p at level z rejects: (k - n p)^2 > z^2 n p (1 - p)."""
    return (k - n * p) ** 2 > z * z * n * p * (1 - p)


def _bisect(k: int, n: int, z: float, inside: float, outside: float) -> float:
    """The boundary between a p the score test keeps (``inside``) and one it rejects (``outside``)."""
    for _ in range(200):
        mid = (inside + outside) / 2
        if _score_rejects(k, n, mid, z):
            outside = mid
        else:
            inside = mid
    return (inside + outside) / 2


@given(
    n=st.integers(min_value=1, max_value=2000),
    frac=st.floats(min_value=0, max_value=1),
    z=st.sampled_from([1.0, 1.6448536269514722, Z95, 2.5758293035489004]),
)
def test_bounds_are_where_the_score_test_turns(n: int, frac: float, z: float) -> None:
    """Computed independently of the closed form: the bounds are the roots of the score test, found by bisection."""
    k = round(frac * n)
    lo, hi = wilson_interval(k, n, z)
    phat = k / n
    expect_lo = 0.0 if k == 0 else _bisect(k, n, z, phat, 0.0)
    expect_hi = 1.0 if k == n else _bisect(k, n, z, phat, 1.0)
    assert lo == pytest.approx(expect_lo, abs=1e-9)
    assert hi == pytest.approx(expect_hi, abs=1e-9)
    assert 0.0 <= lo <= phat <= hi <= 1.0
    # Mirror: k successes is n - k failures.
    mlo, mhi = wilson_interval(n - k, n, z)
    assert mlo == pytest.approx(1 - hi, abs=1e-12)
    assert mhi == pytest.approx(1 - lo, abs=1e-12)


@given(k=st.integers(min_value=0, max_value=50), extra=st.integers(min_value=0, max_value=50))
def test_more_confidence_is_wider(k: int, extra: int) -> None:
    n = k + extra
    if n == 0:
        return
    lo90, hi90 = wilson_interval(k, n, 1.6448536269514722)
    lo95, hi95 = wilson_interval(k, n)
    assert lo95 <= lo90 and hi90 <= hi95


def _coverage(n: int, p: float) -> float:
    """The exact probability that the interval of Binomial(n, p) successes holds p."""
    total = 0.0
    for k in range(n + 1):
        lo, hi = wilson_interval(k, n)
        if lo <= p <= hi:
            total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return total


@pytest.mark.parametrize(("n", "p"), [(50, 0.3), (100, 0.5), (200, 0.25), (400, 0.1)])
def test_exact_coverage_is_near_95_percent(n: int, p: float) -> None:
    """Away from the edges the Wilson interval's coverage is close to its nominal level (Brown, Cai and
    DasGupta 2001); a wrong quantile or a lost square root would move it far off."""
    assert 0.93 <= _coverage(n, p) <= 0.97


@pytest.mark.parametrize(("k", "n"), [(-1, 10), (11, 10), (3, -1), (True, 2), (1.5, 3)])
def test_bad_counts_are_refused(k: object, n: object) -> None:
    with pytest.raises(InputError):
        wilson_interval(k, n)  # type: ignore[arg-type]


def test_bad_quantile_is_refused() -> None:
    with pytest.raises(InputError):
        wilson_interval(1, 2, 0.0)


def test_summary() -> None:
    assert summarise([]) is None
    one = summarise([7])
    assert one is not None and (one.n, one.mean, one.sd, one.median, one.min, one.max) == (1, 7.0, 0.0, 7.0, 7, 7)
    xs = [3, -1, 4, 1, 5, 9]
    s = summarise(xs)
    assert s is not None
    assert s.n == 6 and s.mean == pytest.approx(21 / 6) and s.median == 3.5 and (s.min, s.max) == (-1, 9)
    assert s.sd == pytest.approx(math.sqrt(sum((x - 21 / 6) ** 2 for x in xs) / 5))
    assert s.sd == pytest.approx(statistics.stdev(xs))
