"""Fit the headline chooser and write scrapy_contentex/models/headline.json.

    python -m training.train_headline            # grouped CV, then fit on every page, write the JSON
    python -m training.train_headline --check    # grouped CV only, write nothing

Pages: wcxb-dev (CC-BY-4.0), the only set with a headline truth (``title``,
the headline the page shows). Each page gives one row per candidate of
:func:`scrapy_contentex.core.headline.candidates`, labelled by the
benchmark's match rule (``benchmarks.metadata.headline_ok``); pages where no
candidate is right teach nothing about choosing and are left out of the fit
(they still count as misses in the CV figure). The fit is the page-type
model's: class-balanced L2 logistic regression, Newton steps from zero
weights, so the script is deterministic. The ridge is fixed, not tuned.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import numpy as np

from benchmarks.common import (
    ChoicePage,
    choice_cross_validation,
    load_texts,
    print_table,
    registered_domain,
)
from benchmarks.metadata import headline_ok
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import MODEL_PATH, candidates, choose, features
from scrapy_contentex.core.pagetype_model import LogisticModel
from training.train_pagetype import fit

SET = "wcxb-dev"
FOLDS = 5
RIDGE = 10.0


# One page's candidates, their feature rows, which of them match the truth and
# its page-level values (``page_features`` of :func:`load_pages`; empty for the linear model).
Page = ChoicePage


def load_pages(limit: int | None = None,
               page_features: Callable[[Document], dict[str, float]] | None = None) -> list[Page]:
    """wcxb-dev pages with a headline truth; ``page_features`` adds page-level values
    (training/headline_trees.py's experiment)."""
    pages = []
    for record, html in load_texts(SET, limit):
        if not record.get("title"):
            continue
        doc = Document(html, url=record.get("url"))
        cands = candidates(doc)
        pages.append(Page(registered_domain(record.get("url")) or "", cands, features(doc, cands),
                          [headline_ok(c.shown, record["title"]) for c in cands],
                          page_features(doc) if page_features else {}))
    return pages


def train(pages: list[Page], names: tuple[str, ...], ridge: float = RIDGE) -> LogisticModel:
    """Fit on the candidate rows of the pages that have a right candidate."""
    useful = [p for p in pages if any(p.labels)]
    x = np.array([[row[n] for n in names] for p in useful for row in p.rows], dtype=float)
    y = np.array([label for p in useful for label in p.labels], dtype=float)
    mean, scale, weights, bias = fit(x, y, ridge)
    return LogisticModel(
        features=names, mean=tuple(mean.tolist()), scale=tuple(scale.tolist()),
        weights=tuple(weights.tolist()), bias=bias, threshold=0.5,
        meta={"trained_on": f"{SET} (CC-BY-4.0)", "pages": len(useful), "rows": int(len(y)),
              "ridge": ridge, "script": "training/train_headline.py"},
    )


def accuracy(pages: list[Page], model: LogisticModel | None) -> int:
    """Pages whose chosen candidate is right; ``model`` None scores the rule's own choice."""
    right = 0
    for page in pages:
        if model is None:
            right += page.rule_right()
        else:
            text = choose(page.cands, page.rows, model)
            right += any(label and c.shown == text for c, label in zip(page.cands, page.labels, strict=True))
    return right


def cross_validate(pages: list[Page], names: tuple[str, ...], folds: int = FOLDS) -> list[list]:
    """Rows of a table: per fold, the rule's and the model's accuracy (model fit on the other folds)."""
    return choice_cross_validation(pages, [p.domain for p in pages], lambda part: train(part, names),
                                   accuracy, folds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="cross-validate only, write nothing")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    pages = load_pages(args.limit)
    if not pages:
        print(f"no {SET} pages found: nothing to train")
        return 0
    names = next(tuple(p.rows[0]) for p in pages if p.rows)
    print_table(["headline", "pages", "rule", "model"], cross_validate(pages, names),
                title=f"{SET}: headline accuracy, {FOLDS} folds grouped by registered domain")
    if not args.check:
        model = train(pages, names)
        MODEL_PATH.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
