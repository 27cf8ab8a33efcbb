"""Intervals and significance: the verdict follows the interval, and the test is calibrated."""

from __future__ import annotations

import math

import numpy as np
import pytest

from llpbench.report import stats as S


def _lognormal(seed: int, n: int, scale: float = 1.0, sigma: float = 0.1) -> np.ndarray:
    return scale * np.random.default_rng(seed).lognormal(0.0, sigma, n)


def test_identical_samples_are_not_significant_with_ratio_one():
    a = _lognormal(1, 10)
    d = S.difference(a, a.copy())
    assert d.ratio == 1.0
    assert d.low <= 1.0 <= d.high
    assert d.p_value == pytest.approx(1.0)
    assert d.verdict == S.NOT_SIGNIFICANT and not d.significant


def test_a_clear_slowdown_is_significant_and_its_interval_excludes_one():
    a = _lognormal(2, 8)
    b = _lognormal(3, 8, scale=1.5)
    d = S.difference(a, b)
    assert d.verdict == S.SLOWER and d.significant
    assert 1.0 < d.low <= d.ratio <= d.high
    assert d.p_value < S.ALPHA
    back = S.difference(b, a)
    assert back.verdict == S.FASTER and back.high < 1.0


def test_verdict_is_not_significant_whenever_the_interval_includes_one():
    assert S.verdict(0.9, 1.1, 0.001) == S.NOT_SIGNIFICANT
    assert S.verdict(1.0, 1.3, 0.001) == S.NOT_SIGNIFICANT
    assert S.verdict(1.05, 1.3, 0.2) == S.NOT_SIGNIFICANT  # the rank test disagrees
    assert S.verdict(1.05, 1.3, 0.01) == S.SLOWER
    assert S.verdict(0.7, 0.95, 0.01) == S.FASTER
    assert S.verdict(math.nan, math.nan, 0.01) == S.TOO_FEW


def test_one_row_on_a_side_gives_no_interval():
    d = S.difference([1.0], [2.0, 2.1, 2.2])
    assert math.isnan(d.low) and math.isnan(d.high)
    assert d.verdict == S.TOO_FEW


def test_same_rows_always_give_the_same_interval():
    a, b = _lognormal(4, 12), _lognormal(5, 12)
    assert S.ratio_ci(a, b) == S.ratio_ci(a, b)
    assert S.median_ci(a) == S.median_ci(a)


def test_median_interval_lies_within_the_sample_and_holds_the_median():
    x = _lognormal(6, 15)
    low, high = S.median_ci(x)
    assert x.min() <= low <= np.median(x) <= high <= x.max()


def test_samples_from_one_distribution_are_rarely_called_different():
    # 200 seeded A/A pairs: the false-positive rate must stay near (below) alpha.
    flagged = sum(
        S.difference(_lognormal(100 + k, 10), _lognormal(500 + k, 10)).significant
        for k in range(200)
    )
    assert flagged <= 200 * S.ALPHA


def test_a_ten_percent_slowdown_is_found_with_enough_rows():
    found = sum(
        S.difference(_lognormal(900 + k, 20, sigma=0.05),
                     _lognormal(1900 + k, 20, scale=1.1, sigma=0.05)).verdict == S.SLOWER
        for k in range(20)
    )  # fmt: skip
    assert found >= 18
