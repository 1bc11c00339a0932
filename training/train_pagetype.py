"""Fit the page-type model and write scrapy_contentex/models/pagetype.json.

    python -m training.train_pagetype            # fit on every licensed page, write the JSON
    python -m training.train_pagetype --check    # grouped CV only, write nothing

Deterministic: the pages are read in file order through benchmarks/common.py,
the folds are a fixed function of the registered domains, and the fit is
Newton steps from zero weights.

Labelled pages (index or content) and what may train the shipped model:

* ``pagetype`` (labels; sources with no stated licence and a GPL repository's
  pages: the datasets README allows a model of a few dozen weights on it);
* ``wcxb-dev`` (CC-BY-4.0): listing and collection pages are index; article,
  forum, product and documentation pages content; ``service`` pages
  (marketing, pricing) are neither and are left out;
* every page of articles-en, articles-zh, articles-multi, forums, products
  (MIT) and forums-harvest (Apache-2.0) is a content page.

records-books (no licence stated), dragnet (AGPLv3) and cleaneval (research
use) never train the shipped model: records-books and dragnet (all content
pages) are held-out checks in benchmarks/pagetype.py.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import ROOT, load_texts, registered_domain
from benchmarks.common import group_folds as common_group_folds
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.pagetype import PageTypeParams, features_of
from scrapy_contentex.core.pagetype_model import MODEL_PATH, LogisticModel

TRAIN_SETS = (
    "pagetype", "wcxb-dev", "articles-en", "articles-zh", "articles-multi",
    "forums", "forums-harvest", "products",
)
HELD_OUT_SETS = ("records-books", "dragnet")
WCXB_INDEX = frozenset(("listing", "collection"))
WCXB_CONTENT = frozenset(("article", "forum", "product", "documentation"))
THREAD_SETS = ("forums", "forums-harvest")
FOLDS = 5
# Content recall matters more than index recall: a content page typed index
# yields no item. The threshold is the one with the best balanced accuracy
# among those keeping at least this content recall (on training folds).
CONTENT_RECALL_FLOOR = 0.975
RIDGE = 10.0


@dataclass
class Labelled:
    """One labelled page: where it comes from, its label and its features."""

    source: str
    id: str
    index: bool
    lang: str | None
    page_type: str | None  # wcxb-dev's type
    url: str | None
    group: str
    features: dict[str, float]
    doc: Document

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    @property
    def thread(self) -> bool:
        return self.source in THREAD_SETS or self.page_type == "forum"


def label_of(source: str, record: dict) -> bool | None:
    """True for index, False for content, None when the page is left out."""
    if source == "pagetype":
        return record["label"] == "index"
    if source == "wcxb-dev":
        kind = record.get("page_type")
        if kind in WCXB_INDEX:
            return True
        return False if kind in WCXB_CONTENT else None
    return False


def load_labelled(sets: tuple[str, ...], params: PageTypeParams | None = None,
                  limit: int | None = None) -> list[Labelled]:
    """Every labelled page of ``sets`` with its features (the page decides, with its URL)."""
    params = params or PageTypeParams()
    out: list[Labelled] = []
    for source in sets:
        for record, text in load_texts(source, limit):
            index = label_of(source, record)
            if index is None:
                continue
            doc = Document(text, url=record.get("url"))
            feats, url = features_of(doc, params)
            group = registered_domain(url) or f"{source}:{record['id']}"
            out.append(Labelled(source, record["id"], index, record.get("lang"),
                                record.get("page_type"), url, group, feats, doc))
    return out


# --- fit ------------------------------------------------------------------------


def matrix(pages: list[Labelled], names: tuple[str, ...]) -> np.ndarray:
    return np.array([[p.features[n] for n in names] for p in pages], dtype=float)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE,
        balanced: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Class-balanced (unless not ``balanced``), L2-penalised logistic regression
    on standardised features.

    Returns (mean, scale, weights, bias). Newton steps from zero: deterministic.
    """
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    a = np.hstack([np.ones((len(z), 1)), z])
    n_pos = max(y.sum(), 1)
    n_neg = max(len(y) - y.sum(), 1)
    cw = np.where(y, 0.5 / n_pos, 0.5 / n_neg) * len(y) if balanced else np.ones(len(y))
    w = np.zeros(a.shape[1])
    penalty = np.full(a.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -60, 60)))
        grad = a.T @ (cw * (p - y)) + penalty * w
        hess = (a * (cw * p * (1 - p))[:, None]).T @ a + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[1:], float(w[0])


def index_probability(model: tuple, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = model
    return 1.0 / (1.0 + np.exp(-np.clip(((x - mean) / scale) @ w + b, -60, 60)))


def group_folds(groups: list[str], k: int = FOLDS, seed: int | None = None) -> np.ndarray:
    """Fold of each page, grouped by registered domain (``benchmarks.common.group_folds``;
    a ``seed`` gives another deterministic assignment)."""
    return np.array(common_group_folds(groups, k, seed))


def roc_auc(y: np.ndarray, score: np.ndarray) -> float:
    """Area under the ROC curve: the chance that a positive outscores a negative
    (ties count half), from average ranks. In numpy, so the training scripts and
    their tests need no scikit-learn."""
    y = np.asarray(y, dtype=bool)
    score = np.asarray(score, dtype=float)
    order = np.argsort(score, kind="mergesort")
    _, tie, counts = np.unique(score[order], return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    ranks = np.empty(len(score))
    ranks[order] = ((ends - counts + 1 + ends) / 2.0)[tie]
    n_pos = int(y.sum())
    n_neg = len(y) - n_pos
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def pick_threshold(prob: np.ndarray, y: np.ndarray, floor: float = CONTENT_RECALL_FLOOR) -> float:
    """Best balanced accuracy among thresholds (index when prob >= t) keeping content recall >= floor."""
    best_t, best = 0.5, -1.0
    for t in np.unique(np.round(np.concatenate([prob, [0.5]]), 4)):
        pred = prob >= t
        content_recall = float((~pred[~y]).mean()) if (~y).any() else 1.0
        index_recall = float(pred[y].mean()) if y.any() else 1.0
        if content_recall < floor:
            continue
        bacc = (content_recall + index_recall) / 2
        if bacc > best + 1e-12:
            best_t, best = float(t), bacc
    return best_t


def fit_with_threshold(x: np.ndarray, y: np.ndarray, groups: list[str], ridge: float = RIDGE,
                       floor: float = CONTENT_RECALL_FLOOR, seed: int | None = None) -> tuple[tuple, float]:
    """Fit on all of x, with the threshold chosen on an inner grouped CV of x."""
    inner = group_folds(groups, 3, seed)
    prob = np.zeros(len(y))
    for f in range(3):
        test = inner == f
        prob[test] = index_probability(fit(x[~test], y[~test], ridge), x[test])
    return fit(x, y, ridge), pick_threshold(prob, y, floor)


def cross_validate(pages: list[Labelled], names: tuple[str, ...], ridge: float = RIDGE,
                   floor: float = CONTENT_RECALL_FLOOR, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold P(index) and index decision of every page (folds grouped by domain;
    the threshold of each fold is chosen on its training part only; ``seed``:
    another fold assignment, see ``group_folds``)."""
    x = matrix(pages, names)
    y = np.array([p.index for p in pages])
    groups = [p.group for p in pages]
    folds = group_folds(groups, FOLDS, seed)
    prob = np.zeros(len(pages))
    pred = np.zeros(len(pages), dtype=bool)
    for f in range(FOLDS):
        test = folds == f
        train_groups = [g for g, t in zip(groups, test, strict=True) if not t]
        model, t = fit_with_threshold(x[~test], y[~test], train_groups, ridge, floor, seed)
        prob[test] = index_probability(model, x[test])
        pred[test] = prob[test] >= t
    return prob, pred


def train(pages: list[Labelled], names: tuple[str, ...]) -> LogisticModel:
    x = matrix(pages, names)
    y = np.array([p.index for p in pages])
    (mean, scale, w, b), t = fit_with_threshold(x, y, [p.group for p in pages])
    counts: dict[str, list[int]] = {}
    for p in pages:
        counts.setdefault(p.source, [0, 0])[0 if p.index else 1] += 1
    return LogisticModel(
        features=names,
        mean=tuple(round(float(v), 6) for v in mean),
        scale=tuple(round(float(v), 6) for v in scale),
        weights=tuple(round(float(v), 6) for v in w),
        bias=round(b, 6),
        threshold=round(t, 4),
        meta={
            "trained_on": {s: {"index": c[0], "content": c[1]} for s, c in counts.items()},
            "ridge": RIDGE,
            "content_recall_floor": CONTENT_RECALL_FLOOR,
            "script": "training/train_pagetype.py",
        },
    )


def main(argv: list[str] | None = None) -> int:
    from scrapy_contentex.core.pagetype import FEATURES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="grouped CV only, write nothing")
    parser.add_argument("--out", default=str(MODEL_PATH))
    args = parser.parse_args(argv)
    pages = load_labelled(TRAIN_SETS)
    y = np.array([p.index for p in pages])
    _, pred = cross_validate(pages, FEATURES)
    ci = float(pred[y].mean())
    cc = float((~pred[~y]).mean())
    print(f"{len(pages)} pages ({int(y.sum())} index); grouped {FOLDS}-fold CV: "
          f"balanced accuracy {(ci + cc) / 2:.3f}, index recall {ci:.3f}, content recall {cc:.3f}")
    if args.check:
        return 0
    model = train(pages, FEATURES)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(model.to_json(), fh, indent=1)
        fh.write("\n")
    print(f"wrote {Path(args.out).relative_to(ROOT) if Path(args.out).is_relative_to(ROOT) else args.out} "
          f"({len(model.features)} weights, threshold {model.threshold})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
