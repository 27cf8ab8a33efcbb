"""How far to trust a timing: confidence intervals and significance, from stored rows.

Timings on a shared machine are skewed and heavy-tailed (a preempted thread, a page fault),
so nothing here assumes a normal distribution:

- a cell's time is the **median** of its rows;
- an interval on a median, or on a ratio of two medians (a speedup, or run B over run A), is
  a **percentile bootstrap** (``scipy.stats.bootstrap``, :data:`RESAMPLES` resamples of each
  sample independently, :data:`CONFIDENCE` level), drawn from a fixed seed so that the same
  rows always give the same interval and a table can be redrawn identically later;
- whether two samples differ is a **Mann-Whitney U** test (two-sided), which compares ranks.

A difference is *significant* only when both agree: the interval of the ratio excludes 1.0
and the test's p-value is below :data:`ALPHA`. An interval that includes 1.0 is "not
significant" whatever the test says, as pyperf's ``compare_to`` marks it.
"""

from __future__ import annotations

import inspect
import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
ALPHA = 0.05
RESAMPLES = 9999
SEED = 20260710
#: A sample needs this many values for a bootstrap interval.
MIN_SAMPLE = 2

FASTER, SLOWER, NOT_SIGNIFICANT, TOO_FEW = "faster", "slower", "not significant", "too few rows"

_RNG_KEYWORD = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"


def _values(x) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    return arr[np.isfinite(arr)]


def _bootstrap(samples: tuple[np.ndarray, ...], statistic) -> tuple[float, float]:
    if any(len(s) < MIN_SAMPLE for s in samples):
        return math.nan, math.nan
    if all(np.ptp(s) == 0 for s in samples):  # nothing varies: every resample is the same
        value = float(statistic(*(s[None, :] for s in samples), axis=-1)[0])
        return value, value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.bootstrap(
            samples, statistic, n_resamples=RESAMPLES, confidence_level=CONFIDENCE,
            method="percentile", vectorized=True, paired=False,
            **{_RNG_KEYWORD: np.random.default_rng(SEED)},
        )  # fmt: skip
    ci = res.confidence_interval
    return float(ci.low), float(ci.high)


def _median_of(x, axis=-1):
    return np.median(x, axis=axis)


def _median_ratio(num, den, axis=-1):
    return np.median(num, axis=axis) / np.median(den, axis=axis)


def median_ci(x) -> tuple[float, float]:
    """The :data:`CONFIDENCE` interval of the median of ``x`` (NaN, NaN with < 2 values)."""
    return _bootstrap((_values(x),), _median_of)


def ratio_ci(numerator, denominator) -> tuple[float, float]:
    """The interval of ``median(numerator) / median(denominator)``, both resampled.

    A speedup ``baseline / LLP`` is ``ratio_ci(baseline_seconds, llp_seconds)``.
    """
    return _bootstrap((_values(numerator), _values(denominator)), _median_ratio)


def mann_whitney_p(a, b) -> float:
    """Two-sided Mann-Whitney U p-value; 1.0 when the samples cannot differ (all equal)."""
    a, b = _values(a), _values(b)
    if len(a) == 0 or len(b) == 0:
        return math.nan
    if np.ptp(np.concatenate([a, b])) == 0:
        return 1.0
    return float(stats.mannwhitneyu(b, a, alternative="two-sided").pvalue)


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided Mann-Whitney p that samples of ``n_a`` and ``n_b`` values can
    give, whatever the values: ``2 / C(n_a + n_b, n_a)`` (the exact test, all of one sample
    below all of the other). At or above :data:`ALPHA` no verdict can be significant."""
    if n_a < 1 or n_b < 1:
        return 1.0
    return min(1.0, 2.0 / math.comb(n_a + n_b, n_a))


def rows_for_alpha(alpha: float = ALPHA) -> int:
    """The fewest values a side (equal sizes) whose :func:`smallest_p` is below ``alpha``."""
    k = 1
    while smallest_p(k, k) >= alpha:
        k += 1
    return k


@dataclass(frozen=True)
class Difference:
    """Sample B against sample A: ``ratio`` = median(B) / median(A), its interval, the
    Mann-Whitney p-value, and the verdict (:data:`FASTER`, :data:`SLOWER`,
    :data:`NOT_SIGNIFICANT`, or :data:`TOO_FEW` when a side has fewer than 2 values)."""

    ratio: float
    low: float
    high: float
    p_value: float
    verdict: str

    @property
    def significant(self) -> bool:
        return self.verdict in (FASTER, SLOWER)


def difference(a, b) -> Difference:
    """How sample ``b`` (times) differs from sample ``a``; see :class:`Difference`."""
    a, b = _values(a), _values(b)
    ratio = float(np.median(b) / np.median(a)) if len(a) and len(b) else math.nan
    low, high = ratio_ci(b, a)
    p = mann_whitney_p(a, b)
    return Difference(ratio, low, high, p, verdict(low, high, p))


def verdict(low: float, high: float, p_value: float) -> str:
    """The word for an interval and p-value: significant only if both say so."""
    if math.isnan(low) or math.isnan(high) or math.isnan(p_value):
        return TOO_FEW
    if low <= 1.0 <= high or p_value >= ALPHA:
        return NOT_SIGNIFICANT
    return SLOWER if low > 1.0 else FASTER


def mad(x) -> float:
    """Median absolute deviation from the median (unscaled)."""
    x = _values(x)
    return float(np.median(np.abs(x - np.median(x)))) if len(x) else math.nan
