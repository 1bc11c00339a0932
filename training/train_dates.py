"""Fit the published-date chooser and write scrapy_contentex/models/dates.json.

    python -m training.train_dates            # grouped CV, then fit on every page, write the JSON
    python -m training.train_dates --check    # grouped CV only, write nothing
    python -m training.train_dates --misses   # grouped CV, then every miss by family, write nothing
    python -m training.train_dates --seeds 6  # grouped CV, then the same CV on 6 other fold draws

Pages: wcxb-dev (CC-BY-4.0), the set with a date truth on many sites
(``date``, the day the page shows). Each page gives one row per candidate of
:func:`scrapy_contentex.core.metadata.page_date_candidates`, labelled by the
benchmark's match rule (``benchmarks.metadata.date_ok``); pages where no
candidate is right teach nothing about choosing and are left out of the fit
(they still count as misses in the CV figure), and so are pages where the
rule finds no date (the model is not asked there). The fit is a conditional
logit over each page's candidates (``training.choice.fit_choice``, an L2
ridge, Newton steps from zero weights), so the script is deterministic and its output byte for byte the
same on the same pages. The ridge is fixed, not tuned. articles-zh and
forums-harvest are never trained on: benchmarks.metadata checks them.
"""

from __future__ import annotations

import numpy as np

from benchmarks.common import (
    ChoicePage,
    choice_cross_validation,
    choice_picks,
    load_texts,
    print_choice_seeds,
    print_table,
    registered_domain,
)
from benchmarks.metadata import date_ok
from scrapy_contentex.core.date_model import (
    MODEL_PATH,
    DateCandidate,
    choose,
    day_of,
    eligible,
    features,
)
from scrapy_contentex.core.dates import find_dates
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.metadata import page_date_candidates
from scrapy_contentex.core.pagetype_model import LogisticModel
from training.choice import choice_arguments, fit_choice, run_chooser

SET = "wcxb-dev"
FOLDS = 5
RIDGE = 10.0


# One page's date candidates, their feature rows and which of them match the truth.
Page = ChoicePage


def page_of(html: str, url: str | None, gold: str) -> Page:
    """The candidates of one page, labelled against its gold date."""
    _, cands = page_date_candidates(Document(html, url=url))
    return Page(registered_domain(url) or "", cands, features(cands), [date_ok(c.iso, gold) for c in cands])


def dated_records(limit: int | None = None) -> list[tuple[dict, str]]:
    """wcxb-dev truth records with a date, and their pages."""
    return [(record, html) for record, html in load_texts(SET, limit) if record.get("date")]


def load_pages(limit: int | None = None, records: list[tuple[dict, str]] | None = None) -> list[Page]:
    """wcxb-dev pages with a date truth."""
    return [page_of(html, record.get("url"), record["date"])
            for record, html in (dated_records(limit) if records is None else records)]


def train(pages: list[Page], names: tuple[str, ...], ridge: float = RIDGE) -> LogisticModel:
    """Fit on the eligible candidates of the pages that have a right one and a wrong one."""
    data = []
    for page in pages:
        keep = [i for i, c in enumerate(page.cands) if eligible(c)]
        labels = [page.labels[i] for i in keep]
        if any(labels) and not all(labels):
            data.append((np.array([[page.rows[i][n] for n in names] for i in keep], dtype=float),
                         np.array(labels)))
    mean, scale, weights = fit_choice(data, ridge)
    rows = sum(len(x) for x, _ in data)
    return LogisticModel(
        features=names, mean=tuple(round(float(v), 6) for v in mean),
        scale=tuple(round(float(v), 6) for v in scale), weights=tuple(round(float(v), 6) for v in weights),
        bias=0.0, threshold=0.5,
        meta={"trained_on": f"{SET} (CC-BY-4.0)", "pages": len(data), "rows": rows, "fit": "conditional logit (softmax per page)",
              "ridge": ridge, "script": "training/train_dates.py"},
    )


def picked_right(page: Page, pick: DateCandidate | None) -> bool:
    """Whether ``pick``, one of the page's candidates or None, is a right one."""
    return pick is not None and page.labels[page.cands.index(pick)]


def accuracy(pages: list[Page], model: LogisticModel | None) -> int:
    """Pages whose chosen date is right; ``model`` None scores the rule's own choice."""
    right = 0
    for page in pages:
        if model is None:
            right += page.rule_right()
            continue
        right += picked_right(page, choose(page.cands, page.rows, model))
    return right


def cross_validate(pages: list[Page], names: tuple[str, ...], folds: int = FOLDS) -> list[list]:
    """Rows of a table: per fold, the rule's and the model's accuracy (model fit on the other folds)."""
    return choice_cross_validation(pages, [p.domain for p in pages], lambda part: train(part, names),
                                   accuracy, folds)


def cv_picks(pages: list[Page], names: tuple[str, ...], folds: int = FOLDS,
             seed: int | None = None) -> list[DateCandidate | None]:
    """The candidate each page gets from a model fit on the other folds (the CV's own
    folds; with a ``seed``, another deterministic draw of folds grouped by domain)."""
    return choice_picks(pages, [p.domain for p in pages], lambda part: train(part, names),
                        lambda model, page: choose(page.cands, page.rows, model), folds, seed)


def miss_family(page: Page, gold: str, html: str) -> str:
    """Why a page's date is wrong: (a) no candidate is right, split by whether the page
    writes the gold day anywhere in its markup in a format we read (so a place or a
    rule we miss) or nowhere (the truth came from elsewhere); (c) the only candidates
    near it are one day off (a time zone); (b) a right candidate exists, another was chosen."""
    if any(page.labels):
        return "b: a right candidate exists, another was chosen"
    days = [day_of(c.key) for c in page.cands]
    gold_day = day_of(gold[:10]) if len(gold[:10]) == 10 else None
    if gold_day and any(d and abs((d - gold_day).days) == 1 for d in days):
        return "c: one day off (time zone), no right candidate"
    written = any(d.iso[:len(gold[:10])] == gold[:10] for d in find_dates(html, months=True))
    where = "written in the markup, not read" if written else "not written in the page"
    return f"a: no right candidate{'' if page.cands else ' (the rule finds no date)'}, {where}"


def print_seeds(pages: list[Page], names: tuple[str, ...], seeds: int) -> None:
    """The CV's right pages on other draws of the folds: their spread is the noise a change must beat."""
    print_choice_seeds(pages, lambda seed: sum(picked_right(page, pick) for page, pick in
                                               zip(pages, cv_picks(pages, names, seed=seed), strict=True)),
                       seeds, FOLDS)


def print_misses(records: list[tuple[dict, str]], pages: list[Page], names: tuple[str, ...]) -> None:
    """Every cross-validated miss: gold, ours, each candidate (sources, offset, right or not), by family."""
    families: dict[str, list[str]] = {}
    for (record, html), page, pick in zip(records, pages, cv_picks(pages, names), strict=True):
        if picked_right(page, pick):
            continue
        lines = [f"{record['id']} {record.get('url')}\n  gold {record['date']}  ours {pick.iso if pick else None}"]
        lines += [f"  {'*' if right else ' '} {c.key} {sorted(c.sources)} offset={c.offset} raw={c.raw[:50]!r}"
                  for c, right in zip(page.cands, page.labels, strict=True)]
        families.setdefault(miss_family(page, record["date"], html), []).append("\n".join(lines))
    print_table(["miss family", "pages"], [[f, len(v)] for f, v in sorted(families.items())],
                title="cross-validated misses by family")
    for family, misses in sorted(families.items()):
        print(f"\n== {family}\n" + "\n".join(misses))


def feature_names() -> tuple[str, ...]:
    """The model's feature names, in the order :func:`features` gives them."""
    return tuple(features([DateCandidate("2000-01-01", "2000-01-01", "")])[0])


def main(argv: list[str] | None = None) -> int:
    args = choice_arguments(argv, __doc__, "list the cross-validated misses by family")
    records = dated_records(args.limit)
    pages = load_pages(records=records)
    if not pages:
        print(f"no {SET} pages found: nothing to train")
        return 0
    names = feature_names()
    return run_chooser(
        args,
        table=lambda: print_table(["date", "pages", "rule", "model"], cross_validate(pages, names),
                                  title=f"{SET}: date accuracy, {FOLDS} folds grouped by registered domain"),
        seeds=lambda n: print_seeds(pages, names, n),
        misses=lambda: print_misses(records, pages, names),
        fit=lambda: train(pages, names), path=MODEL_PATH)


if __name__ == "__main__":
    raise SystemExit(main())
