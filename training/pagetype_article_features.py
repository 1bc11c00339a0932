"""Does the article (line) model tell index pages? A measurement for issue 12.

    python -m training.pagetype_article_features [--cache DIR]

For every labelled page-type page, page-level features are read from the
line model's per-line probabilities (how much main text the article model
finds, and how it lies on the page), then added to the page-type logistic
model (``training/train_pagetype.py``'s recipe: same pages, same grouped
folds, threshold chosen inside each training fold) and compared with the
44-feature model in the same run.

Honesty: the shipped line model was trained on ``training.corpus.TRAIN_SETS``,
so its output on those pages is in-sample. Here a line model is fitted for
each of the page-type CV's 5 folds (``training.train_blocks.fit``) on the
TRAIN_SETS pages outside that fold (by the page-type groups and by the line
corpus's own groups), and the held-out fold's pages are read with that
fold's model. The pagetype and products pages never train a line model.

Slow (line rows of ~2,200 pages and 5 two-stage line-model fits: minutes on
two cores); ``--cache`` keeps the line rows and the out-of-fold
probabilities between runs. Not a benchmark: nothing here is shipped.
"""

from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path

import numpy as np

from benchmarks.common import print_table, require_datasets
from scrapy_contentex.core.pagetype import FEATURES
from scrapy_contentex.core.text.block_features import FEATURE_NAMES, context_features
from scrapy_contentex.core.text.learned import DEFAULT_MODEL, load_line_model
from training.corpus import TRAIN_SETS as LINE_SETS
from training.train_blocks import THRESHOLD, _page_slices, build, fit, page_rows, predict
from training.train_pagetype import (
    FOLDS,
    TRAIN_SETS,
    Labelled,
    fit_with_threshold,
    group_folds,
    index_probability,
    load_labelled,
    matrix,
    roc_auc,
)

_TOKENS = FEATURE_NAMES.index("line_tokens")
_LINK_SHARE = FEATURE_NAMES.index("block_link_share")
#: Page-level figures of the line model's output (see :func:`article_features`).
ARTICLE_FEATURES = (
    "art_kept_share", "art_kept_log_tokens", "art_kept_log_lines", "art_kept_log_runs",
    "art_longest_run_share", "art_mean_p", "art_max_p", "art_kept_link_share",
)


def article_features(rows: np.ndarray | None, p: np.ndarray | None) -> dict[str, float]:
    """How much main text the line model keeps on a page, and in how many pieces.

    ``rows`` are the page's line feature rows (line order), ``p`` the line
    model's probabilities; a page with no visible line has every figure 0.
    """
    if rows is None or p is None or not len(p):
        return dict.fromkeys(ARTICLE_FEATURES, 0.0)
    tok = rows[:, _TOKENS].astype(float)
    total = max(tok.sum(), 1.0)
    keep = p >= THRESHOLD
    kept = tok[keep].sum()
    starts = np.flatnonzero(keep & ~np.r_[False, keep[:-1]])
    ends = np.flatnonzero(keep & ~np.r_[keep[1:], False]) + 1
    cum = np.r_[0.0, np.cumsum(tok)]
    longest = max((cum[b] - cum[a] for a, b in zip(starts, ends, strict=True)), default=0.0)
    return {
        "art_kept_share": kept / total,
        "art_kept_log_tokens": float(np.log1p(kept)),
        "art_kept_log_lines": float(np.log1p(keep.sum())),
        "art_kept_log_runs": float(np.log1p(len(starts))),
        "art_longest_run_share": longest / total,
        "art_mean_p": float((tok * p).sum() / total),
        "art_max_p": float(p.max()),
        "art_kept_link_share": float((tok * rows[:, _LINK_SHARE])[keep].sum() / max(kept, 1.0)),
    }


def _cached(path: Path | None, make):
    if path is not None and path.exists():
        with open(path, "rb") as fh:
            return pickle.load(fh)
    value = make()
    if path is not None:
        with open(path, "wb") as fh:
            pickle.dump(value, fh, protocol=5)
    return value


def cache_in(directory: Path | None):
    """A cache file's name -> its path in ``directory`` (created), or None without one."""
    if directory is None:
        return lambda name: None
    directory.mkdir(parents=True, exist_ok=True)
    return lambda name: directory / name


def out_of_fold_lines(pages: list[Labelled], data: dict, log=print) -> np.ndarray:
    """Line probabilities of every line in ``data``, each from a line model that did not
    train on the page's page-type fold (nor on any page sharing its groups)."""
    fold = dict(zip((f"{p.source}/{p.id}" for p in pages), group_folds([p.group for p in pages]), strict=True))
    label_group = {f"{p.source}/{p.id}": p.group for p in pages}
    names = data["names"]
    page_fold = np.array([fold.get(n, -1) for n in names])
    trainable = np.array([n.split("/")[0] in LINE_SETS for n in names])
    p = np.zeros(len(data["y"]))
    for f in range(FOLDS):
        held = page_fold == f
        banned = {data["groups"][k] for k in np.flatnonzero(held)}
        banned |= {label_group[n] for k, n in enumerate(names) if held[k]}
        train = [k for k in np.flatnonzero(trainable & ~held)
                 if data["groups"][k] not in banned and label_group.get(names[k]) not in banned]
        test = np.flatnonzero(held)
        log(f"fold {f}: line model on {len(train)} pages, read {len(test)} pages")
        models = fit(data, np.array(train))
        p[np.isin(data["page"], test)] = predict(models, data, test)
    return p


def shipped_lines(data: dict) -> np.ndarray:
    """Line probabilities from the shipped line model (in-sample on LINE_SETS pages)."""
    model = load_line_model(DEFAULT_MODEL)
    p = np.zeros(len(data["y"]))
    for k, sl in enumerate(_page_slices(data["page"])):
        rows = data["X"][sl]
        first = model.first.predict(rows)
        order, ranges, templates = data["ctx"][k]
        p[sl] = model.second.predict(np.hstack([rows, context_features(rows, order, ranges or [], templates, first)]))
    return p


def cv(x: np.ndarray, y: np.ndarray, groups: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold P(index) and each page's fold threshold (train_pagetype.cross_validate's loop)."""
    folds = group_folds(groups)
    prob, cut = np.zeros(len(y)), np.zeros(len(y))
    for f in range(FOLDS):
        test = folds == f
        model, t = fit_with_threshold(x[~test], y[~test], [g for g, s in zip(groups, test, strict=True) if not s])
        prob[test], cut[test] = index_probability(model, x[test]), t
    return prob, cut


def cost_table(texts: list[str], repeats: int = 3) -> None:
    """What the article features would cost in the classifier, side by side with an lxml parse.

    Same pages, alternating page by page, best of ``repeats`` per page for
    each step, CPU time (as benchmarks/pagetype.py's cost table).
    """
    from lxml import html as lxml_html

    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.pagetype import classify
    from scrapy_contentex.core.text.learned import extract

    model = load_line_model(DEFAULT_MODEL)

    def with_article(text: str) -> dict:
        lines = page_rows(text, None)
        return article_features(None if lines is None else lines.features,
                                None if lines is None else model.probabilities(lines))

    steps = [
        ("lxml.html.document_fromstring", lambda t: lxml_html.document_fromstring(t)),
        ("pagetype.classify (shipped, 44 features)", lambda t: classify(Document(t))),
        ("article features (parse, lines, line model)", with_article),
        ("article text extraction (learned.extract)", lambda t: extract(Document(t))),
    ]
    best = np.full((len(steps), len(texts)), np.inf)
    for _ in range(repeats):
        for i, text in enumerate(texts):
            for k, (_, step) in enumerate(steps):
                t0 = time.process_time()
                step(text)
                best[k, i] = min(best[k, i], time.process_time() - t0)
    parse = best[0].sum()
    rows = [[name, float(best[k].sum() / parse), float(np.median(best[k] / np.maximum(best[0], 1e-9)))]
            for k, (name, _) in enumerate(steps)]
    print_table(["step", "time / lxml parse", "median page ratio"], rows,
                title=f"Cost over {len(texts)} page-type pages, alternating page by page, best of {repeats}, CPU time")


def _logit(v: np.ndarray) -> np.ndarray:
    v = np.clip(v, 1e-9, 1 - 1e-9)
    return np.log(v / (1 - v))


def bootstrap_diff(pred: np.ndarray, base: np.ndarray, y: np.ndarray, groups: list[str],
                   rounds: int = 1000) -> str:
    """95% interval of the balanced-accuracy difference to ``base``, resampling whole domains.

    The noise yardstick: the same pages scored by two models, so the
    difference is paired; domains, not pages, are the unit of resampling.
    """
    names, inverse = np.unique(groups, return_inverse=True)
    rng = np.random.default_rng(12)
    diffs = []
    for _ in range(rounds):
        weight = np.bincount(rng.integers(0, len(names), len(names)), minlength=len(names))[inverse]
        if not (weight * y).any() or not (weight * ~y).any():
            continue
        score = [(np.sum(weight * (y & (v == y))) / np.sum(weight * y)
                  + np.sum(weight * (~y & (v == y))) / np.sum(weight * ~y)) / 2 for v in (pred, base)]
        diffs.append(score[0] - score[1])
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return f"{lo:+.3f} .. {hi:+.3f}"


def summary_row(name: str, pages: list[Labelled], pred: np.ndarray, band: float | None, diff: str) -> list:
    y = np.array([p.index for p in pages])

    def rec(sel: np.ndarray, want: bool) -> float:
        sel = sel & (y == want)
        return float((pred[sel] == want).mean())

    every = np.ones(len(y), dtype=bool)
    zh = np.array([p.zh for p in pages])
    ir, cr = rec(every, True), rec(every, False)
    kind = np.array([p.page_type if p.source == "wcxb-dev" else "" for p in pages])
    return [name, (ir + cr) / 2, diff, ir, cr, (rec(zh, True) + rec(zh, False)) / 2,
            rec(np.array([p.thread for p in pages]), False),
            rec(kind == "listing", True), rec(kind == "collection", True), band]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None, help="directory for line rows and probabilities")
    parser.add_argument("--cost", action="store_true", help="also time the article features against a parse")
    args = parser.parse_args(argv)
    require_datasets()
    cache = cache_in(args.cache)
    pages = load_labelled(TRAIN_SETS)
    data = _cached(cache("lines.pkl"), lambda: build(LINE_SETS + ("pagetype", "products")))
    p = _cached(cache("oof_p.pkl"), lambda: out_of_fold_lines(pages, data))
    shipped = _cached(cache("shipped_p.pkl"), lambda: shipped_lines(data))
    slices = _page_slices(data["page"])
    where = {n: k for k, n in enumerate(data["names"])}
    for page in pages:
        k = where.get(f"{page.source}/{page.id}")
        sl = slices[k] if k is not None else None
        page.features.update(article_features(None if sl is None else data["X"][sl],
                                               None if sl is None else p[sl]))
        in_sample = article_features(None if sl is None else data["X"][sl], None if sl is None else shipped[sl])
        page.features.update({f"shipped_{n}": v for n, v in in_sample.items()})
    y = np.array([pg.index for pg in pages])
    groups = [pg.group for pg in pages]

    rows = []
    for name in ARTICLE_FEATURES:
        v = np.array([pg.features[name] for pg in pages])
        rows.append([name, float(v[y].mean()), float(v[~y].mean()), float(roc_auc(y, -v))])
    print_table(["feature (out-of-fold line model)", "mean index", "mean content", "AUC (low = index)"], rows,
                title=f"Article-model features alone, {len(pages)} labelled pages ({int(y.sum())} index)")

    variants = {
        "44 features (shipped recipe)": FEATURES,
        "44 + all 8 article features": FEATURES + ARTICLE_FEATURES,
        "44 + kept share, longest run share, kept tokens": FEATURES + (
            "art_kept_share", "art_longest_run_share", "art_kept_log_tokens"),
        "44 + kept share": FEATURES + ("art_kept_share",),
        "44 + max p, kept link share, kept runs": FEATURES + (
            "art_max_p", "art_kept_link_share", "art_kept_log_runs"),
        "44 + all 8, shipped line model (in-sample: optimistic)": FEATURES + tuple(
            f"shipped_{n}" for n in ARTICLE_FEATURES),
    }
    results = {name: cv(matrix(pages, names), y, groups) for name, names in variants.items()}
    base = results["44 features (shipped recipe)"]
    base_pred = base[0] >= base[1]
    rows = [summary_row(name, pages, prob >= cut, None, bootstrap_diff(prob >= cut, base_pred, y, groups))
            for name, (prob, cut) in results.items()]
    cheap_prob, cheap_cut = results["44 features (shipped recipe)"]
    distance = np.abs(_logit(cheap_prob) - _logit(cheap_cut))
    for full, short in (("44 + all 8 article features", "all 8"), ("44 + max p, kept link share, kept runs", "3")):
        full_prob, full_cut = results[full]
        for width in (0.5, 1.0, 2.0, 3.0):
            band = distance <= width
            pred = np.where(band, full_prob >= full_cut, cheap_prob >= cheap_cut)
            rows.append(summary_row(f"two-tier: {short} where |logit - logit(t)| <= {width}", pages, pred,
                                    float(band.mean()), bootstrap_diff(pred, base_pred, y, groups)))
    print_table(["model", "bal.acc", "diff 95% (groups)", "index rec", "content rec", "Chinese bal.acc", "threads",
                 "wcxb listing", "wcxb collection", "band share"], rows,
                title=f"Grouped {FOLDS}-fold CV by registered domain (train_pagetype recipe, threshold "
                "chosen inside each training fold), line models out of fold")
    if args.cost:
        cost_table([pg.doc.html for pg in pages if pg.source == "pagetype"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
