"""Fit the author chooser and write scrapy_contentex/models/authors.json.

    python -m training.train_authors            # grouped CV, then fit on every page, write the JSON
    python -m training.train_authors --check    # grouped CV only, write nothing
    python -m training.train_authors --misses   # grouped CV, then every miss, write nothing
    python -m training.train_authors --seeds 6  # grouped CV, then the same CV on 6 other fold draws

Pages: wcxb-dev (CC-BY-4.0), every page: 672 whose truth names an author,
684 whose truth names none (there, "no author" is the right option). Each
page gives one row per candidate of
:func:`scrapy_contentex.core.metadata.page_author_candidates` plus the "no
author" row, labelled by the benchmark's match rule
(``benchmarks.metadata.author_ok``). Pages where every option is right or
every option is wrong teach nothing about choosing and are left out of the
fit (they still count in the CV figures). The fit is the date model's
conditional logit (softmax per page, ridge fixed, not tuned, Newton steps
from zero weights), so the script is deterministic and its output byte for
byte the same on the same pages. articles-zh and forums-harvest are never
trained on: benchmarks.metadata checks them.
"""

from __future__ import annotations

import numpy as np

from benchmarks.common import (
    ChoicePage,
    choice_picks,
    group_folds,
    load_texts,
    print_table,
    registered_domain,
)
from benchmarks.metadata import author_ok
from scrapy_contentex.core.author_model import (
    MODEL_PATH,
    AuthorCandidate,
    PageContext,
    choose,
    features,
)
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.metadata import page_author_candidates
from scrapy_contentex.core.pagetype_model import LogisticModel
from training.choice import choice_arguments, fit_choice, run_chooser

SET = "wcxb-dev"
FOLDS = 5
RIDGE = 10.0
# "No author" margins tried (score units), and how far below the rule's author
# accuracy the chosen one may go: a point, about the noise of 672 pages' figure.
MARGINS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0)
NOISE = 0.01

# One page's candidates, its rows (the candidates', then "no author"), and which options are right.
Page = ChoicePage


def page_of(html: str, url: str | None, gold: str | list | None) -> Page:
    """The options of one page, labelled against its gold author (None: the page names nobody)."""
    cands, context = page_author_candidates(Document(html, url=url))
    labels = [bool(gold) and author_ok(c.names, gold) for c in cands] + [not gold]
    return Page(registered_domain(url) or "", cands, features(cands, context), labels)


def load_pages(limit: int | None = None, records: list[tuple[dict, str]] | None = None) -> list[Page]:
    """Every wcxb-dev page, with or without an author in its truth."""
    records = load_texts(SET, limit) if records is None else records
    return [page_of(html, record.get("url"), record.get("author")) for record, html in records]


def train(pages: list[Page], names: tuple[str, ...], ridge: float = RIDGE) -> LogisticModel:
    """Fit on the pages, then choose the "no author" margin by a grouped CV on the same pages."""
    model = fit(pages, names, ridge)
    margin = choose_margin(pages, names, ridge)
    return LogisticModel(model.features, model.mean, model.scale, model.weights, model.bias, model.threshold,
                         {**model.meta, "none_margin": margin, "margins_tried": list(MARGINS),
                          "margin_rule": f"smallest keeping the CV author accuracy within {NOISE} of the rule's"})


def choose_margin(pages: list[Page], names: tuple[str, ...], ridge: float = RIDGE) -> float:
    """The smallest margin of MARGINS whose grouped-CV author accuracy on ``pages`` is at most
    NOISE below the rule's on the same pages (the model must not lose the authors the rule finds)."""
    fold_of = group_folds([p.domain for p in pages], FOLDS)
    found = {margin: 0 for margin in MARGINS}
    for k in range(FOLDS):
        model = fit([p for p, f in zip(pages, fold_of, strict=True) if f != k], names, ridge)
        test = [p for p, f in zip(pages, fold_of, strict=True) if f == k]
        for margin in MARGINS:
            found[margin] += scores(test, [model_pick(p, model, margin) for p in test])[0]
    authored = sum(not p.labels[-1] for p in pages)
    rule = scores(pages, [rule_pick(p) for p in pages])[0]
    return next((m for m in MARGINS if found[m] >= rule - NOISE * authored), MARGINS[-1])


def fit(pages: list[Page], names: tuple[str, ...], ridge: float = RIDGE) -> LogisticModel:
    """Fit the weights on the pages that have a right option and a wrong one."""
    data = [(np.array([[row[n] for n in names] for row in page.rows], dtype=float), np.array(page.labels))
            for page in pages if any(page.labels) and not all(page.labels)]
    mean, scale, weights = fit_choice(data, ridge)
    return LogisticModel(
        features=names, mean=tuple(round(float(v), 6) for v in mean),
        scale=tuple(round(float(v), 6) for v in scale), weights=tuple(round(float(v), 6) for v in weights),
        bias=0.0, threshold=0.5,
        meta={"trained_on": f"{SET} (CC-BY-4.0)", "pages": len(data), "rows": sum(len(x) for x, _ in data),
              "fit": "conditional logit (softmax per page), last option: no author", "ridge": ridge,
              "script": "training/train_authors.py"},
    )


def rule_pick(page: Page) -> int:
    """The option the ordered rule takes: its candidate, else "no author" (the last option)."""
    return next((i for i, c in enumerate(page.cands) if "rule" in c.sources), len(page.cands))


def model_pick(page: Page, model: LogisticModel, margin: float | None = None) -> int:
    """The option the model takes (with the model's own margin, or ``margin``)."""
    best = choose(page.cands, page.rows, model, margin)
    return len(page.cands) if best is None else page.cands.index(best)


def scores(pages: list[Page], picks: list[int]) -> tuple[int, int]:
    """(pages with an author in the truth whose pick is right, pages with none whose pick names someone)."""
    right = sum(page.labels[pick] for page, pick in zip(pages, picks, strict=True) if not page.labels[-1])
    given = sum(pick < len(page.cands) for page, pick in zip(pages, picks, strict=True) if page.labels[-1])
    return right, given


def cv_picks(pages: list[Page], names: tuple[str, ...], folds: int = FOLDS,
             seed: int | None = None) -> tuple[list[int], list[int]]:
    """Each page's option from a model fit on the other folds, and each page's fold."""
    domains = [p.domain for p in pages]
    picks = choice_picks(pages, domains, lambda part: train(part, names), lambda model, page: model_pick(page, model),
                         folds, seed)
    return picks, group_folds(domains, folds, seed)


def cross_validate(pages: list[Page], names: tuple[str, ...], folds: int = FOLDS) -> list[list]:
    """Rows of a table: per fold, the author right (rule, model) and an author given where the
    truth has none (rule, model), the model fit on the other folds."""
    picks, fold_of = cv_picks(pages, names, folds)
    rules = [rule_pick(p) for p in pages]
    rows = []

    def row(label: str, index: list[int]) -> list:
        part = [pages[i] for i in index]
        authored = sum(not p.labels[-1] for p in part)
        rule = scores(part, [rules[i] for i in index])
        model = scores(part, [picks[i] for i in index])
        return [label, len(part), _rate(rule[0], authored), _rate(model[0], authored),
                _rate(rule[1], len(part) - authored), _rate(model[1], len(part) - authored)]

    for k in range(folds):
        rows.append(row(f"fold {k}", [i for i, f in enumerate(fold_of) if f == k]))
    rows.append(row("cross-validated", list(range(len(pages)))))
    authored = [p for p in pages if not p.labels[-1]]
    oracle = sum(any(p.labels[:-1]) for p in authored)
    rows.append(["a right candidate exists", len(pages), _rate(oracle, len(authored)), "", "", ""])
    return rows


CV_HEADERS = ["author", "pages", "right: rule (designed on these)", "right: model", "given, none in truth: rule", "model"]


def _rate(hits: int, n: int) -> str:
    return f"{hits / n:.3f} ({hits}/{n})" if n else "-"


def print_seeds(pages: list[Page], names: tuple[str, ...], seeds: int) -> None:
    """The CV on other draws of the folds: their spread is the noise a change must beat."""
    rows = []
    authored = sum(not p.labels[-1] for p in pages)
    for seed in range(1, seeds + 1):
        right, given = scores(pages, cv_picks(pages, names, seed=seed)[0])
        rows.append([f"seed {seed}", len(pages), _rate(right, authored), _rate(given, len(pages) - authored)])
    print_table(["folds drawn with", "pages", "right: model", "given, none in truth: model"], rows,
                title=f"the same grouped CV on {seeds} other draws of the {FOLDS} folds")


def print_misses(records: list[tuple[dict, str]], pages: list[Page], names: tuple[str, ...]) -> None:
    """Every cross-validated miss: gold, the pick, each candidate with its sources (* = right)."""
    picks, _ = cv_picks(pages, names)
    for (record, _), page, pick in zip(records, pages, picks, strict=True):
        if page.labels[pick]:
            continue
        chosen = page.cands[pick].names if pick < len(page.cands) else None
        print(f"{record['id']} {record.get('url')}\n  gold {record.get('author')!r}  ours {chosen!r}")
        for cand, right in zip(page.cands, page.labels, strict=False):
            print(f"  {'*' if right else ' '} {cand.names[:3]!r} {sorted(cand.sources)}"
                  f"{' organisation' if cand.organisation else ''}")


def feature_names() -> tuple[str, ...]:
    """The model's feature names, in the order :func:`features` gives them."""
    page = PageContext("", None, None, lambda _: False, lambda _: (False, False, False))
    return tuple(features([AuthorCandidate(["x"])], page)[0])


def main(argv: list[str] | None = None) -> int:
    args = choice_arguments(argv, __doc__, "list the cross-validated misses")
    records = load_texts(SET, args.limit)
    pages = load_pages(records=records)
    if not pages:
        print(f"no {SET} pages found: nothing to train")
        return 0
    names = feature_names()
    return run_chooser(
        args,
        table=lambda: print_table(CV_HEADERS, cross_validate(pages, names),
                                  title=f"{SET}: authors, {FOLDS} folds grouped by registered domain"),
        seeds=lambda n: print_seeds(pages, names, n),
        misses=lambda: print_misses(records, pages, names),
        fit=lambda: train(pages, names), path=MODEL_PATH)


if __name__ == "__main__":
    raise SystemExit(main())
