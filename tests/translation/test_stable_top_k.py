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
