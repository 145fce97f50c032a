"""search.stable_top_k must pick exactly what a full stable argsort picks (beam search relies on
the order of ties to match transformers' generate)."""

import numpy as np
import pytest

from app.translation.search import stable_top_k


@pytest.mark.parametrize("kind", ["normal", "ties", "with_inf", "all_equal", "with_nan"])
def test_stable_top_k_equals_full_stable_argsort(kind):
    rng = np.random.default_rng(7)
    for _ in range(300):
        n, k = int(rng.integers(1, 400)), int(rng.integers(1, 24))
        if kind == "normal":
            values = rng.standard_normal(n).astype(np.float32)
        elif kind == "ties":
            values = rng.integers(-3, 3, n).astype(np.float32)
        elif kind == "with_inf":
            values = rng.standard_normal(n).astype(np.float32)
            values[rng.integers(0, n, max(1, n // 2))] = -np.inf
        elif kind == "with_nan":
            values = rng.standard_normal(n).astype(np.float32)
            values[rng.integers(0, n, max(1, n // 10))] = np.nan
        else:
            values = np.zeros(n, np.float32)
        expected = np.argsort(-values, kind="stable")[:k]
        assert np.array_equal(stable_top_k(values, k), expected), (kind, n, k)


@pytest.mark.parametrize("kind", ["normal", "ties", "with_inf", "mostly_inf", "with_nan", "nan_groups"])
def test_stable_top_k_on_vocab_sized_rows_equals_full_stable_argsort(kind):
    """Rows as long as a vocab (the group-maxima path): beams x 65001 and one row of 65001."""
    rng = np.random.default_rng(11)
    for n, k in [(65001, 5), (4 * 65001, 8), (3 * 4096 + 17, 6), (1000, 12)]:
        values = rng.standard_normal(n).astype(np.float32)
        if kind == "ties":
            values = np.round(values * 2).astype(np.float32)
        elif kind == "with_inf":
            values[rng.integers(0, n, n // 3)] = -np.inf
        elif kind == "mostly_inf":  # forced EOS: every token banned but a few
            values[:] = -np.inf
            values[rng.integers(0, n, 3)] = 0.0
        elif kind == "with_nan":
            values[rng.integers(0, n, n // 50)] = np.nan
        elif kind == "nan_groups":  # NaN in the groups that would hold the k best
            values[np.argsort(-values)[:k]] = np.nan
        expected = np.argsort(-values, kind="stable")[:k]
        assert np.array_equal(stable_top_k(values, k), expected), (kind, n, k)
