"""Page type (index or content) on the labelled development pages, cross-validated by domain.

    python -m benchmarks.pagetype            # everything below
    python -m benchmarks.pagetype --quick    # 60 pages per set (a smoke run, not a figure)

1. Grouped 5-fold cross-validation (folds by registered domain, from the
   truth URL or the page's canonical / og:url; a page with no URL is its own
   group) of the shipped recipe (training/train_pagetype.py: features, fit,
   and the threshold chosen inside each training fold) on every labelled page
   of the sets that train the shipped model, beside the reference: the share
   of visible text inside links with one threshold, chosen the same way
   (best balanced accuracy on the training folds). Per source, per wcxb-dev
   page type, Chinese pages, thread pages.
   The same recipe on several fold assignments (seeded): the spread is the
   noise a change of features must beat.
2. Content pages passed on through the middleware's full decision: the
   model's label, then the record-page check on pages typed index
   (CONTENTEX_RECORD_PAGES, on by default when the kind allows products).
3. Held-out sets that never train the shipped model (records-books, dragnet:
   all content pages): the share the shipped model passes on.
4. Cost: classify, the scan alone and the features alone (from a given scan)
   against a plain lxml parse of the same pages, side by side
   in one run (alternating page by page, best of 3 per page for each, CPU
   time).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from lxml import html as lxml_html

from benchmarks.common import load_texts, print_table, require_datasets
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.linkblocks import find_link_blocks
from scrapy_contentex.core.pagetype import FEATURES, classify, features_from_scan
from training.train_pagetype import (
    FOLDS,
    HELD_OUT_SETS,
    TRAIN_SETS,
    Labelled,
    cross_validate,
    group_folds,
    load_labelled,
)


def balanced(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(balanced accuracy, index recall, content recall); nan where a class is absent."""
    ir = float(pred[y].mean()) if y.any() else float("nan")
    cr = float((~pred[~y]).mean()) if (~y).any() else float("nan")
    both = (ir + cr) / 2 if y.any() and (~y).any() else float("nan")
    return both, ir, cr


def reference_cv(pages: list[Labelled]) -> np.ndarray:
    """The link-text-share reference, its one threshold chosen on each training fold."""
    share = np.array([p.features["link_share"] for p in pages])
    y = np.array([p.index for p in pages])
    folds = group_folds([p.group for p in pages])
    pred = np.zeros(len(pages), dtype=bool)
    for f in range(FOLDS):
        test = folds == f
        best_t, best = 0.5, -1.0
        for t in np.unique(np.round(share[~test], 3)):
            acc = balanced(share[~test] >= t, y[~test])[0]
            if acc > best:
                best_t, best = float(t), acc
        pred[test] = share[test] >= best_t
    return pred


def slices(pages: list[Labelled]) -> list[tuple[str, np.ndarray]]:
    """The rows of the table: all pages, each source, each wcxb-dev type, Chinese, threads."""
    rows = [("all labelled pages", np.ones(len(pages), dtype=bool))]
    for source in TRAIN_SETS:
        rows.append((source, np.array([p.source == source for p in pages])))
    for kind in ("article", "forum", "product", "documentation", "listing", "collection"):
        rows.append((f"  wcxb-dev {kind}",
                     np.array([p.source == "wcxb-dev" and p.page_type == kind for p in pages])))
    rows.append(("Chinese pages (lang zh)", np.array([p.zh for p in pages])))
    rows.append(("thread pages", np.array([p.thread for p in pages])))
    return rows


def passed_on(pages: list[Labelled], typed_index: np.ndarray) -> np.ndarray:
    """Final decision of the middleware: pages typed index go through the record-page check."""
    from scrapy_contentex.core.kind import record_page

    final = typed_index.copy()
    for i, p in enumerate(pages):
        if typed_index[i] and record_page(p.doc):
            final[i] = False
    return final


def cv_section(pages: list[Labelled]) -> None:
    y = np.array([p.index for p in pages])
    _, pred = cross_validate(pages, FEATURES)
    ref = reference_cv(pages)
    full = passed_on(pages, pred)
    rows = []
    for name, sel in slices(pages):
        if not sel.any():
            continue
        m, r, f = balanced(pred[sel], y[sel]), balanced(ref[sel], y[sel]), balanced(full[sel], y[sel])
        rows.append([name, int(sel.sum()), int(y[sel].sum()), *m, f[1], f[2], *r])
    print_table(
        ["pages", "n", "index", "bal.acc", "index rec", "content rec", "index rec (full)",
         "content rec (full)",
         "ref bal.acc", "ref index rec", "ref content rec"],
        rows,
        title=f"Grouped {FOLDS}-fold CV by registered domain, {len(pages)} labelled pages "
        f"({int(y.sum())} index). Model: training/train_pagetype.py recipe, threshold chosen "
        "inside each training fold; full: + the middleware's record-page check. "
        "ref: share of text inside links, one threshold chosen on the training folds.",
    )


SEEDS = (None, 1, 2, 3, 4)


def seeds_section(pages: list[Labelled]) -> None:
    """The shipped recipe's CV on several fold assignments: the spread is the
    noise a change of features must beat (compare paired, seed by seed)."""
    y = np.array([p.index for p in pages])
    zh = np.array([p.zh for p in pages])
    thread = np.array([p.thread for p in pages])
    rows = []
    for seed in SEEDS:
        pred = cross_validate(pages, FEATURES, seed=seed)[1]
        rows.append(["default" if seed is None else seed, *balanced(pred, y),
                     balanced(pred[zh], y[zh])[0], float((~pred[thread]).mean())])
    values = np.array([r[1:] for r in rows], dtype=float)
    rows.append(["mean", *values.mean(axis=0)])
    rows.append(["max - min", *(values.max(axis=0) - values.min(axis=0))])
    print_table(["fold seed", "bal.acc", "index rec", "content rec", "Chinese bal.acc", "threads"], rows,
                title=f"Grouped {FOLDS}-fold CV on {len(SEEDS)} fold assignments (seed: groups in a "
                "seeded order within size bands; default: largest first, as above)")


def held_out_section(limit: int | None) -> None:
    """Sets the shipped model never saw: the share of their (content) pages passed on."""
    from scrapy_contentex.core.kind import record_page

    rows = []
    for name in HELD_OUT_SETS:
        pages = load_texts(name, limit)
        by_model = by_full = 0
        for record, text in pages:
            doc = Document(text, url=record.get("url"))
            if classify(doc).label == "content":
                by_model += 1
                by_full += 1
            elif record_page(doc):
                by_full += 1
        n = max(len(pages), 1)
        rows.append([name, len(pages), by_model / n, by_full / n])
    print_table(["held-out set (all content)", "pages", "content rec (model)", "content rec (full)"],
                rows, title="Shipped model on sets it was not trained on")


def speed_section(texts: list[str], repeats: int = 3) -> None:
    """classify (and its two parts) against lxml.html.document_fromstring,
    same decoded pages, alternating page by page, best of ``repeats`` per page for each.

    CPU time (``time.process_time``), as benchmarks/speed.py: other load on a
    shared machine disturbs it far less than wall time.
    """
    docs = [Document(t) for t in texts]
    scans = [find_link_blocks(t, 2, 20, "text") for t in texts]
    steps: list[tuple[str, Callable[[int], object]]] = [
        ("lxml.html.document_fromstring", lambda i: lxml_html.document_fromstring(texts[i])),
        ("link-block scan alone", lambda i: find_link_blocks(texts[i], 2, 20, "text")),
        ("features alone (from a given scan)", lambda i: features_from_scan(texts[i], scans[i], None)),
        ("pagetype.classify (scan + features + model)", lambda i: classify(docs[i])),
    ]
    best = [[float("inf")] * len(texts) for _ in steps]
    clock = time.process_time
    for _ in range(repeats):
        for i in range(len(texts)):
            for k, (_, fn) in enumerate(steps):
                t0 = clock()
                fn(i)
                best[k][i] = min(best[k][i], clock() - t0)
    parse = sum(best[0])
    rows = []
    for k, (name, _) in enumerate(steps):
        ratios = sorted(b / p for b, p in zip(best[k], best[0], strict=True) if p > 0)
        rows.append([name, len(texts) / sum(best[k]), sum(best[k]) / parse, ratios[len(ratios) // 2]])
    print_table(["step", "pages/s", "time / lxml parse", "median page ratio"], rows,
                title=f"Cost over the same {len(texts)} pages, alternating page by page, best of "
                f"{repeats} per page for each (target: classify <= 1.5x parse)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 pages per set (smoke run)")
    args = parser.parse_args(argv)
    require_datasets()
    limit = 60 if args.quick else None
    pages = load_labelled(TRAIN_SETS, limit=limit)
    cv_section(pages)
    seeds_section(pages)
    held_out_section(limit)
    speed_section([p.doc.html for p in pages if p.source == "pagetype"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
