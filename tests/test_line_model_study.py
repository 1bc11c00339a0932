"""The line model study's page weights (training/line_model_study.py), on hand-made rows (no LightGBM needed)."""

import numpy as np

from training.line_model_study import VARIANTS, page_weights


def test_page_weights_scale_only_the_lines_of_grid_pages():
    data = {
        "w": np.array([0.5, 0.5, 1.0, 0.25, 0.75], np.float64),
        "page": np.array([0, 0, 1, 2, 2], np.int32),
        "texts": [([], "", "article"), ([], "", "collection"), ([], "", "listing")],
    }
    weights = page_weights(data, 3.0)
    assert weights.tolist() == [0.5, 0.5, 3.0, 0.75, 2.25]
    assert data["w"].tolist() == [0.5, 0.5, 1.0, 0.25, 0.75]  # the shared rows are left alone
    assert page_weights(data, 2.0, types=("article",)).tolist() == [1.0, 1.0, 1.0, 0.25, 0.75]


def test_the_shipped_variant_changes_nothing():
    params, rounds, factor = VARIANTS["shipped"]
    assert params == {} and rounds is None and factor == 1.0
