"""How far can the headline choice go on wcxb-dev? A ceiling study (issue 11 part 5).

    python -m training.headline_ceiling --cache /tmp/headline_all.pkl            # default draw + seeds 1-4
    python -m training.headline_ceiling --cache /tmp/headline_all.pkl --seeds 1 2

Every signal measured for the headline so far, at once and with no cost
limit, under the grouped folds of ``train_headline --check`` (by registered
domain) and other draws of them:

* ``shipped``: the 45 candidate features of :mod:`scrapy_contentex.core.headline`
  (29 before this study, then the URL slug's 4 and the declared kind's 12);
* ``placement``, ``lines under``, ``overlaps``: training/headline_features.py;
* ``own``: training/headline_signals.py (its ``slug`` and ``kind`` groups ship);
* ``page``: page-level values (training/headline_trees.py), read by the trees
  only (a page-level value cancels out of a linear choice among the page's
  candidates).

Models, each fitted on the training folds only: the shipped conditional
logit on the shipped features, on the 29 before this study and on every
candidate feature; LightGBM
(lambdarank and binary, the fixed shapes of headline_trees.py, not tuned
here) on everything; and blends (the mean of a logit's per-page softmax
and the lambdarank trees' per-page softmax).

Then what bounds any chooser, from the truth itself:

* pages with no right candidate (an impossible pick for a chooser);
* the annotators' consistency: on domains with two or more pages where the
  first ``<h1>`` and the ``<title>`` part differ and exactly one is right,
  how often the truth takes the same one on every page of the domain; the
  pages on a domain's minority side are errors for any chooser that treats
  one site's template alike;
* the best model's misses sorted by what the page shows: both the pick and
  the truth printed as headings, both printed, the truth not printed (a
  ``<title>`` or meta copy), the pick not printed.

Not a benchmark and nothing here ships (docs/text.md has the figures and
the reading). lightgbm is imported inside the functions that use it (the
``train`` extra; CI has none).
"""

from __future__ import annotations

import argparse
import math
import pickle
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks.common import group_folds, print_table
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import Candidate
from training.choice import fit_choice
from training.train_headline import FOLDS, RIDGE, SET, Page, load_pages

H1 = "h1_first"
TITLE_PARTS = frozenset({"title_first", "title_segment", "title_stripped"})
HEADINGS = frozenset({"h1_first", "h1_other", "h2"})
# (label, objective, rounds, parameters): headline_trees.py's shapes, fixed.
TREES = (
    ("lightgbm lambdarank", "lambdarank", 400,
     {"num_leaves": 8, "max_depth": 4, "min_child_samples": 30, "lambda_l2": 10.0, "learning_rate": 0.02}),
    ("lightgbm binary", "binary", 300, {"num_leaves": 4, "max_depth": 2, "min_child_samples": 50}),
)
BASE_PARAMS = {
    "learning_rate": 0.05, "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1,
    "lambda_l2": 1.0, "deterministic": True, "force_row_wise": True, "num_threads": 1, "verbose": -1,
}
# A model: fit on training pages, then the scores of one page's candidates.
Fitter = Callable[[list[Page]], Callable[[Page], np.ndarray]]


def all_extra(doc: Document, cands: list[Candidate]) -> list[dict[str, float]]:
    """Every experimental candidate feature (headline_features' and headline_signals' groups)."""
    from training import headline_features, headline_signals

    return [{**a, **b} for a, b in zip(headline_features.extra_features(doc, cands),
                                        headline_signals.extra_features(doc, cands), strict=True)]


def load(cache: str | None, limit: int | None) -> tuple[list[Page], list[str]]:
    """The pages with every signal, and their truths; from ``cache`` when it exists."""
    if cache and Path(cache).exists():
        with open(cache, "rb") as handle:
            return pickle.load(handle)
    from training.headline_trees import page_features

    titles: list[str] = []
    pages = load_pages(limit, page_features=page_features, titles=titles, extra=all_extra)
    if cache and pages:
        with open(cache, "wb") as handle:
            pickle.dump((pages, titles), handle)
    return pages, titles


def pick(scores: np.ndarray) -> int:
    """The best-scored candidate; ties to the earlier one (as ``headline.choose``)."""
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def softmax(scores: np.ndarray) -> np.ndarray:
    """Per-page probabilities of the candidates, from any scores."""
    e = np.exp(scores - scores.max())
    return e / e.sum()


def linear(names: tuple[str, ...], ridge: float = RIDGE) -> Fitter:
    """The shipped conditional logit on ``names``."""
    def fit(train: list[Page]) -> Callable[[Page], np.ndarray]:
        useful = [p for p in train if any(p.labels) and len(p.rows) > 1]
        mean, scale, w = fit_choice([(rows(p, names), np.array(p.labels)) for p in useful], ridge)
        return lambda page: ((rows(page, names) - mean) / scale) @ w
    return fit


def rows(page: Page, names: tuple[str, ...], with_page: bool = False) -> np.ndarray:
    """The page's candidate matrix (plus its page-level values and candidate count)."""
    extra = [*page.page.values(), float(len(page.cands))] if with_page else []
    return np.array([[row[n] for n in names] + extra for row in page.rows], dtype=float)


def trees(names: tuple[str, ...], objective: str, rounds: int, params: dict, seed: int = 1) -> Fitter:
    """LightGBM over every candidate feature and the page-level values."""
    def fit(train: list[Page]) -> Callable[[Page], np.ndarray]:
        import lightgbm as lgb

        useful = [p for p in train if any(p.labels)]
        x = np.vstack([rows(p, names, True) for p in useful])
        y = np.concatenate([np.array(p.labels, float) for p in useful])
        data = lgb.Dataset(x, y, group=[len(p.rows) for p in useful] if objective == "lambdarank" else None)
        booster = lgb.train({**BASE_PARAMS, **params, "objective": objective, "seed": seed}, data,
                            num_boost_round=rounds)
        return lambda page: booster.predict(rows(page, names, True), raw_score=True)
    return fit


def cv_scores(pages: list[Page], fit: Fitter, seed: int | None) -> list[np.ndarray]:
    """Every page's candidate scores from a model fit on the other folds (grouped by domain)."""
    fold_of = group_folds([p.domain for p in pages], FOLDS, seed)
    scores: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in range(FOLDS):
        scorer = fit([p for p, f in zip(pages, fold_of, strict=True) if f != k])
        for i, (page, f) in enumerate(zip(pages, fold_of, strict=True)):
            if f == k and page.rows:
                scores[i] = np.asarray(scorer(page), dtype=float)
    return scores


def right(page: Page, scores: np.ndarray) -> bool:
    """The best-scored candidate shows a right text (pages with no candidate are misses)."""
    if not page.cands:
        return False
    text = page.cands[pick(scores)].shown
    return any(label and c.shown == text for c, label in zip(page.cands, page.labels, strict=True))


def blend(a: list[np.ndarray], b: list[np.ndarray]) -> list[np.ndarray]:
    """The mean of two models' per-page softmax."""
    return [(softmax(x) + softmax(y)) / 2 if len(x) else x for x, y in zip(a, b, strict=True)]


def source_side(page: Page) -> bool | None:
    """On a page where the first ``<h1>`` and the ``<title>`` part differ and exactly one of
    them is right: True when the ``<h1>`` is, False when the part is; else None."""
    h1 = [i for i, c in enumerate(page.cands) if H1 in c.sources]
    parts = [i for i, c in enumerate(page.cands) if c.sources & TITLE_PARTS]
    if not h1 or not parts or h1[0] in parts:
        return None
    h1_right, part_right = page.labels[h1[0]], any(page.labels[i] for i in parts)
    return h1_right if h1_right != part_right else None


def consistency(pages: list[Page]) -> dict[str, int]:
    """The truth's choice between the ``<h1>`` and the ``<title>`` part, per domain.

    ``domains``/``pages``: domains with 2+ disagreeing pages and their pages;
    ``consistent``: domains whose truth takes the same side on all of them;
    ``minority``: pages on their domain's minority side (errors for a chooser
    that treats a site's pages alike); ``disagree``: all disagreeing pages.
    """
    sides: dict[str, list[bool]] = defaultdict(list)
    for page in pages:
        side = source_side(page)
        if side is not None:
            sides[page.domain].append(side)
    multi = {d: s for d, s in sides.items() if len(s) >= 2}
    return {"disagree": sum(map(len, sides.values())), "domains": len(multi),
            "pages": sum(map(len, multi.values())),
            "consistent": sum(len(set(s)) == 1 for s in multi.values()),
            "minority": sum(min(s.count(True), s.count(False)) for s in multi.values())}


def miss_kind(page: Page, scores: np.ndarray) -> str:
    """What the page shows of a miss's pick and truth (see the module docstring)."""
    if not any(page.labels):
        return "no right candidate (impossible)"
    chosen = page.cands[pick(scores)]
    chosen_row = page.rows[pick(scores)]
    truths = [(c, r) for c, r, label in zip(page.cands, page.rows, page.labels, strict=True) if label]
    if not chosen_row["printed"]:
        return "pick not printed"
    if not any(r["printed"] for _, r in truths):
        return "truth not printed (a <title> or meta copy)"
    if chosen.sources & HEADINGS and any(c.sources & HEADINGS and r["printed"] for c, r in truths):
        return "both printed as headings"
    return "both printed, one not a heading"


def truth_kind(page: Page) -> str:
    """What the page prints of its right candidates."""
    truths = [(c, r) for c, r, label in zip(page.cands, page.rows, page.labels, strict=True) if label]
    if not truths:
        return "no right candidate"
    if any(c.sources & HEADINGS and r["printed"] for c, r in truths):
        return "printed as a heading"
    if any(r["printed"] for _, r in truths):
        return "printed, not as a heading"
    return "not printed (only a <title> or meta copy)"


def truth_table(pages: list[Page], scores: list[np.ndarray]) -> list[list]:
    """Rows: per kind of truth, the pages and how many the model gets right."""
    pages_of: Counter = Counter()
    right_of: Counter = Counter()
    for page, s in zip(pages, scores, strict=True):
        kind = truth_kind(page)
        pages_of[kind] += 1
        right_of[kind] += right(page, s)
    return [[k, pages_of[k], right_of[k]] for k, _ in pages_of.most_common()]


def expressiveness(pages: list[Page], shipped: tuple[str, ...], every: tuple[str, ...]) -> list[list]:
    """Pages right when a model is fit on every page and scored on the same pages: no chooser of
    that family over these features does better under cross-validation."""
    fits = {"logit, shipped features": linear(shipped), "logit, every candidate feature": linear(every, ridge=1.0),
            "lightgbm lambdarank, everything, 63 leaves, 500 rounds":
                trees(every, "lambdarank", 500, {"num_leaves": 63, "min_child_samples": 2, "lambda_l2": 0.0})}
    return [[label, sum(right(p, scorer(p)) if p.rows else False for p in pages)]
            for label, scorer in ((label, fit(pages)) for label, fit in fits.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--cache", default=None, help="pickle of the loaded pages (read if present, else written)")
    args = parser.parse_args(argv)
    pages, _ = load(args.cache, args.limit)
    if not pages:
        print(f"no {SET} pages found: nothing to measure")
        return 0
    from training.headline_features import GROUPS as OLD
    from training.headline_signals import KIND, OWN, SLUG

    experimental = {n for group in OLD.values() for n in group} | set(OWN)
    every = tuple(pages[0].rows[0])
    shipped = tuple(n for n in every if n not in experimental)
    before = tuple(n for n in shipped if n not in SLUG + KIND)
    draws = [None, *args.seeds]
    models: dict[str, list[list[np.ndarray]]] = {
        "logit, shipped features": [cv_scores(pages, linear(shipped), s) for s in draws],
        f"logit, the {len(before)} features before slug and kind": [cv_scores(pages, linear(before), s)
                                                                     for s in draws],
        "logit, every candidate feature": [cv_scores(pages, linear(every), s) for s in draws],
    }
    for label, objective, rounds, params in TREES:
        models[f"{label}, everything"] = [cv_scores(pages, trees(every, objective, rounds, params), s)
                                          for s in draws]
    label, objective, rounds, params = TREES[0]
    models[f"{label}, shipped + page"] = [cv_scores(pages, trees(shipped, objective, rounds, params), s)
                                          for s in draws]
    for label in ("logit, shipped features", "logit, every candidate feature"):
        models[f"blend: {label.removeprefix('logit, ')} logit + lambdarank"] = [
            blend(a, b) for a, b in zip(models[label], models["lightgbm lambdarank, everything"], strict=True)]
    n = len(pages)
    counts = {label: [sum(map(right, pages, s)) for s in per_draw] for label, per_draw in models.items()}
    base = counts["logit, shipped features"]
    table = [[label, " ".join(map(str, c)), f"{np.mean(c) / n:.3f}", " ".join(f"{x - b:+d}" for x, b in
                                                                         zip(c, base, strict=True))]
             for label, c in counts.items()]
    oracle = sum(any(p.labels) for p in pages)
    print(f"{n} pages; features: shipped {len(shipped)} ({len(before)} before slug and kind), "
          f"every candidate feature {len(every)}, "
          f"page-level {len(pages[0].page)}; a right candidate exists on {oracle} ({oracle / n:.3f})")
    print_table(["model", "pages right per draw (default, seeds)", "mean acc", "paired diff to shipped"], table,
                title=f"{SET}: headline ceiling, {FOLDS} folds grouped by registered domain, default draw then "
                      f"seeds {' '.join(map(str, args.seeds))}")
    best = max(counts, key=lambda label: np.mean(counts[label]))
    kinds = Counter(miss_kind(p, s) for p, s in zip(pages, models[best][0], strict=True) if not right(p, s))
    print_table(["miss (default draw)", "pages"], [[k, v] for k, v in kinds.most_common()],
                title=f"what the page shows of the misses of the best model ({best})")
    print_table(["what the page prints of the truth", "pages", "right (best model, default draw)"],
                truth_table(pages, models[best][0]),
                title="where the right pages are")
    print_table(["fit and scored on all pages (how much the features can express; not a quality figure)",
                 "pages right"], expressiveness(pages, shipped, every),
                title="in-sample: an upper bound of each model family on these features")
    c = consistency(pages)
    print_table(["the first <h1> and the <title> part differ, one is right", "count"],
                [["pages", c["disagree"]], ["domains with 2+ such pages", c["domains"]],
                 ["their pages", c["pages"]], ["domains where the truth takes the same side on all", c["consistent"]],
                 ["pages on their domain's minority side", c["minority"]]],
                title="the annotators' consistency within a site")
    rate = c["minority"] / c["pages"] if c["pages"] else 0.0
    unavoidable = n - oracle + math.floor(rate * c["disagree"])
    print(f"\nbound: {n} pages - {n - oracle} with no right candidate - {rate:.3f} x {c['disagree']} disagreeing "
          f"pages on a minority side = {n - unavoidable} ({(n - unavoidable) / n:.3f}); "
          f"0.90 needs {math.ceil(0.9 * n)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
