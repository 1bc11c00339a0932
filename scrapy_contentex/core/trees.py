"""Gradient-boosted trees evaluated with numpy: the runtime of the shipped models.

Training uses LightGBM (a training-time dependency); the package ships its
trees as JSON and evaluates them here, so a crawl needs numpy only.  All
trees are laid out in one node table where a leaf is a node that points to
itself with an infinite threshold: every row then walks every tree for
exactly ``depth`` steps of whole-array operations, with no per-row Python.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


class TreeEnsemble:
    """A binary classifier: the sum of the trees' leaf values through a sigmoid."""

    def __init__(self, payload: dict) -> None:
        if payload.get("kind") != "gbdt-binary":
            raise ValueError(f"not a tree model: kind={payload.get('kind')!r}")
        self.features: list[str] = payload["features"]
        feature: list[int] = []
        thresh: list[float] = []
        left: list[int] = []
        value: list[float] = []
        roots: list[int] = []
        depth = 0
        for tree in payload["trees"]:
            # Breadth-first renumbering puts a split's two children side by
            # side, so the right child is always ``left + 1`` and a step is
            # ``node = left[node] + (x > threshold)``.
            roots.append(len(feature))
            queue = [(tree_ref(tree), 1)]
            feature.append(0)
            thresh.append(np.inf)
            left.append(0)
            value.append(0.0)
            head = 0
            while head < len(queue):
                ref, level = queue[head]
                me = roots[-1] + head
                head += 1
                depth = max(depth, level - 1)
                if ref >= 0:
                    feature[me] = tree["feature"][ref]
                    thresh[me] = tree["threshold"][ref]
                    left[me] = len(feature)
                    for child in (tree["left"][ref], tree["right"][ref]):
                        queue.append((child, level + 1))
                        feature.append(0)
                        thresh.append(np.inf)
                        left.append(0)
                        value.append(0.0)
                else:  # a leaf points to itself and never goes right
                    left[me] = me
                    value[me] = tree["value"][-1 - ref]
        self.feature = np.asarray(feature, np.intp)
        self.thresh = np.asarray(thresh, np.float64)
        # Rows arrive as float32 features: for a float32 x, ``x > t`` holds
        # exactly when ``x > t32`` with t32 the largest float32 not above t,
        # so the walk compares in float32 (no float64 copy of the rows) with
        # the very same outcome.
        t32 = self.thresh.astype(np.float32)
        above = t32.astype(np.float64) > self.thresh
        t32[above] = np.nextafter(t32[above], np.float32(-np.inf))
        self.thresh32 = t32
        self.left = np.asarray(left, np.intp)
        self.value = np.asarray(value, np.float64)
        self.roots = np.asarray(roots, np.intp)
        self.depth = depth

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Probability of the positive class for every row of ``X``."""
        m, width = X.shape
        if m == 0:
            return np.zeros(0)
        if width != len(self.features):
            raise ValueError(f"model expects {len(self.features)} features, got {width}")
        if X.dtype == np.float32:
            flat, thresh = np.ascontiguousarray(X).ravel(), self.thresh32
        else:
            flat, thresh = np.ascontiguousarray(X, np.float64).ravel(), self.thresh
        offsets = (np.arange(m, dtype=np.intp) * width)[:, None]
        left, feature, roots = self.left, self.feature, self.roots
        if self.depth:
            # Every row starts at the roots: the first step reads one
            # column per tree, the same for all rows.
            node = left[roots] + (flat[offsets + feature[roots]] > thresh[roots])
            for _ in range(self.depth - 1):
                node = left[node] + (flat[offsets + feature[node]] > thresh[node])
        else:
            node = np.broadcast_to(roots, (m, len(roots)))
        raw = self.value[node].sum(axis=1)
        return 1.0 / (1.0 + np.exp(-raw))


def tree_ref(tree: dict) -> int:
    """The root of a tree in the file's encoding: split 0, or leaf 0 (``-1``) for a stump."""
    return 0 if tree["feature"] else -1


def read_model(path: str) -> dict:
    """A model file's JSON (a bare name is one shipped in the package).

    Not cached here: the loaders that build models from it cache what they build.
    """
    file = Path(path)
    if not file.suffix:
        file = MODELS_DIR / f"{path}.json"
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"model file not found: {file}") from None
