"""The learned page-type decision: a standardised logistic regression in JSON.

``training/train_pagetype.py`` fits it (deterministically) on the labelled
pages the licences allow and writes ``scrapy_contentex/models/pagetype.json``:
the feature names, their training means and standard deviations, one weight
per feature, a bias and the default threshold chosen by grouped
cross-validation. Evaluating it is a dot product, so the runtime needs no
numerical library; the file is read once per process, on first use.

A logistic regression, not trees: grouped cross-validation measured both
(docs/pagetype.md), and a few dozen weights is also what the page-type set's
terms allow a shipped model to hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .trees import read_model

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "pagetype.json"


@dataclass(frozen=True)
class LogisticModel:
    """P(index) = sigmoid(bias + sum(w_i * (x_i - mean_i) / scale_i)).

    ``threshold`` is the default cut on P(index): index when reached.
    """

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float
    meta: dict

    def index_probability(self, values: dict[str, float]) -> float:
        """Confidence (0..1) that a page with these feature values is an index page.

        A missing feature counts as its training mean (it then moves nothing).
        """
        z = self.bias
        for name, m, s, w in zip(self.features, self.mean, self.scale, self.weights, strict=True):
            z += w * (values.get(name, m) - m) / s
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def to_json(self) -> dict:
        return {
            "kind": "logistic",
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "bias": self.bias,
            "threshold": self.threshold,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict) -> LogisticModel:
        if data.get("kind") != "logistic":
            raise ValueError(f"not a logistic page-type model: kind={data.get('kind')!r}")
        n = len(data["features"])
        for key in ("mean", "scale", "weights"):
            if len(data[key]) != n:
                raise ValueError(f"page-type model: {key} has {len(data[key])} values, not {n}")
        return cls(
            features=tuple(data["features"]),
            mean=tuple(float(v) for v in data["mean"]),
            scale=tuple(float(v) or 1.0 for v in data["scale"]),
            weights=tuple(float(v) for v in data["weights"]),
            bias=float(data["bias"]),
            threshold=float(data["threshold"]),
            meta=dict(data.get("meta", {})),
        )


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> LogisticModel:
    """The shipped model (or one at ``path``), read once per process."""
    return LogisticModel.from_json(read_model(str(path or MODEL_PATH)))
