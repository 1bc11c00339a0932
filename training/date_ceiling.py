"""How far can the published-date choice go? A ceiling study for issue 11 (part 5).

    python -m training.date_ceiling            # every table below (wcxb-dev pages with a date truth)
    python -m training.date_ceiling --limit 300

The shipped chooser (``training.train_dates``) is a conditional logit over
the shipped features of :func:`scrapy_contentex.core.date_model.features`,
allowed to overrule the rule only with a printed date. This study measures,
on the same pages and the same candidates, with no cost limit:

* the strongest chooser we can build: the shipped features plus every page
  signal below (:func:`extra_features`), fitted as the same conditional logit
  and as LightGBM (a lambdarank ranker per page, and a binary classifier whose
  best-scored candidate is taken), each allowed to pick any candidate, under
  the benchmark's grouped 5 folds on five fold draws;
* the pages no chooser can get right (no right candidate), by family;
* the published-vs-updated split: on pages offering both a publication date
  and a distinct update date, one of them the truth, can anything on the page
  predict which one the annotator took? (grouped CV accuracy of a logistic
  and of LightGBM on page signals, against the majority choice);
* the bound this puts on the 0.93 target, with its arithmetic.

The extra signals, per candidate: how often its day is written in the HTML
and in the visible text, where it is first printed, the label words just
before that (published / updated / reviewed / originally, in several
languages), its distance in days to the URL's date, to the page's latest
modification date and to the copyright year, its rank among the page's days,
and the page's content probability (``classify_page``).

Not a benchmark and nothing here is shipped (docs/text.md has the figures
and their reading). scikit-learn and LightGBM are imported inside the
functions that use them: the tests run without them.
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

import numpy as np

from benchmarks.common import group_folds, print_table, require_datasets
from scrapy_contentex.core.date_model import (
    _MODIFIED,
    _PRINTED,
    DateCandidate,
    choose,
    day_of,
)
from scrapy_contentex.core.dates import date_from_url, find_dates, parse_date
from scrapy_contentex.core.document import Document
from training.choice import fit_choice
from training.train_dates import (
    FOLDS,
    RIDGE,
    Page,
    dated_records,
    feature_names,
    miss_family,
    page_of,
    train,
)

DRAWS = (None, 1, 2, 3, 4)
# Label words read just before a date's first printed copy (EN, ZH, DE, FR, ES, PT, IT, NL).
LABELS = {
    "published": re.compile(
        r"(?:published|posted|publié|posté|veröffentlicht|publicado|publicada|pubblicato|gepubliceerd|"
        r"发布|發布|发表|發表|date|on)\W{0,4}$", re.I),
    "updated": re.compile(
        r"(?:updated|modified|last edit\w*|mis à jour|actualizado|aktualisiert|aggiornato|atualizado|"
        r"bijgewerkt|更新|修改)\W{0,6}(?:on\W{0,3})?$", re.I),
    "reviewed": re.compile(r"(?:reviewed|fact[- ]?checked|verified|revisado|geprüft)\W{0,6}(?:on\W{0,3})?$", re.I),
    "originally": re.compile(r"originally\W{1,3}(?:published|posted)\W{0,6}(?:on\W{0,3})?$", re.I),
}
_COPYRIGHT = re.compile(r"(?:©|&copy;|\(c\)|copyright)\s{0,3}(?:(?:19|20)\d\d\s{0,3}[-–]\s{0,3})?((?:19|20)\d\d)", re.I)
_PUBLISHED = frozenset({"ld_published", "ld_created", "meta_published", "itemprop_published",
                       "time_published", "text_after_cued", "text_before_cued"})


@dataclass
class StudyPage:
    """One page of the study: the shipped chooser's page, its extra rows, and the gold."""

    page: Page
    extra: list[dict[str, float]]
    gold: str
    family: str
    facts: dict[str, float] = field(default_factory=dict)


def _days(a: date | None, b: date | None) -> float:
    return float((a - b).days) if a and b else 0.0


def _log_gap(a: date | None, b: date | None) -> float:
    return math.log1p(abs(_days(a, b)))


def label_of(before: str) -> dict[str, float]:
    """Which label words end ``before`` (the text just before a printed date)."""
    return {f"label_{name}": float(bool(regex.search(before))) for name, regex in LABELS.items()}


def copyright_year(html: str) -> int | None:
    """The latest year a copyright line of the page states ("© 2019-2025" reads 2025)."""
    years = [int(m.group(1)) for m in _COPYRIGHT.finditer(html)]
    return max(years) if years else None


def extra_features(html: str, url: str | None, text: str, cands: list[DateCandidate],
                   content_probability: float = 0.0) -> list[dict[str, float]]:
    """The study's extra signals of each candidate (see the module docstring)."""
    in_html = Counter(d.iso[:10] for d in find_dates(html, months=True))
    printed = find_dates(text, months=True)
    in_text = Counter(d.iso[:10] for d in printed)
    first_at: dict[str, int] = {}
    for d in printed:
        first_at.setdefault(d.iso[:10], d.start)
    in_url = date_from_url(url)
    url_day = day_of(in_url[0][:10]) if in_url else None
    modified = [day_of(c.key) for c in cands if c.sources & _MODIFIED]
    latest_modified = max((d for d in modified if d), default=None)
    year = copyright_year(html)
    days = [day_of(c.key) for c in cands]
    order = sorted({d for d in days if d})
    rows = []
    for cand, day in zip(cands, days, strict=True):
        at = first_at.get(cand.key[:10])
        row = {
            "html_mentions": math.log1p(in_html[cand.key[:10]]),
            "text_mentions": math.log1p(in_text[cand.key[:10]]),
            "first_text_pos": at / max(1, len(text)) if at is not None else 1.0,
            **label_of(text[max(0, at - 40):at] if at is not None else ""),
            "url_has_date": float(url_day is not None),
            "url_log_gap": _log_gap(day, url_day),
            "modified_log_gap": _log_gap(day, latest_modified),
            "after_modified": float(bool(day and latest_modified and day > latest_modified)),
            "copyright_gap": max(-5.0, min(5.0, float(day.year - year))) if day and year else 0.0,
            "copyright_same_year": float(bool(day and year and day.year == year)),
            "day_rank": order.index(day) / max(1, len(order) - 1) if day in order else 0.5,
            "content_probability": content_probability,
        }
        rows.append(row)
    return rows


def split_pair(page: Page) -> tuple[int, int] | None:
    """(published, updated) candidate indexes of a page offering both on distinct days with
    exactly one of them right, else None. Published: a candidate a publication source
    states and no modification source; updated: one only modification sources state."""
    pub = [i for i, c in enumerate(page.cands) if c.sources & _PUBLISHED and not c.sources & _MODIFIED]
    upd = [i for i, c in enumerate(page.cands) if c.sources & _MODIFIED and not c.sources & _PUBLISHED]
    for p in pub:
        for u in upd:
            if page.labels[p] != page.labels[u]:
                return p, u
    return None


def split_facts(page: Page, extra: list[dict[str, float]], pair: tuple[int, int]) -> dict[str, float]:
    """Page signals that might tell whether the annotator took the update or the publication."""
    p, u = (page.cands[i] for i in pair)
    dp, du = day_of(p.key), day_of(u.key)
    return {
        "log_gap_days": _log_gap(du, dp),
        "update_printed": float(bool(u.sources & _PRINTED)),
        "published_printed": float(bool(p.sources & _PRINTED)),
        "update_near": float(u.offset is not None and abs(u.offset) <= 400),
        "update_above": float(u.offset is not None and u.offset < 0),
        "published_in_ld": float(bool(p.sources & {"ld_published", "ld_created"})),
        "rule_is_published": float("rule" in p.sources),
        "published_year": float(dp.year) if dp else 0.0,
        "update_year": float(du.year) if du else 0.0,
        "update_label": extra[pair[1]]["label_updated"],
        "update_reviewed": extra[pair[1]]["label_reviewed"],
        "update_copyright_year": extra[pair[1]]["copyright_same_year"],
        "published_mentions": extra[pair[0]]["html_mentions"],
        "update_mentions": extra[pair[1]]["html_mentions"],
        "candidates": float(len(page.cands)),
        "content_probability": extra[pair[0]]["content_probability"],
    }


def load_study(records: list[tuple[dict, str]]) -> list[StudyPage]:
    """Pages with a date truth: their candidates, shipped rows and extra rows."""
    from scrapy_contentex import classify_page

    out = []
    for record, html in records:
        page = page_of(html, record.get("url"), record["date"])
        text = Document(html, url=record.get("url")).visible_text
        prob = classify_page(html, url=record.get("url")).contentProbability if page.cands else 0.0
        extra = extra_features(html, record.get("url"), text, page.cands, prob)
        out.append(StudyPage(page, extra, record["date"], miss_family(page, record["date"], html)))
    return out


# A datetime with a clock and a UTC offset, as JSON-LD, meta tags and <time> write it.
_ZONED = re.compile(r"(?:19|20)\d\d-\d\d-\d\dT\d\d:\d\d(?::\d\d)?(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)")


def zone_days(html: str) -> set[tuple[str, str]]:
    """(local day, UTC day) of each zoned datetime of the page whose two days differ."""
    found = set()
    for match in _ZONED.finditer(html):
        parsed = parse_date(match.group(0))
        if not parsed:
            continue
        moment = datetime.fromisoformat(parsed[0])
        local, utc = moment.date().isoformat(), moment.astimezone(timezone.utc).date().isoformat()
        if local != utc:
            found.add((local, utc))
    return found


def zone_census(records: list[tuple[dict, str]]) -> Counter:
    """Which day of a zoned datetime the truth takes, where its local and UTC days differ."""
    counts: Counter = Counter()
    for record, html in records:
        gold = record["date"][:10]
        for local, utc in zone_days(html):
            counts["the local day of its offset" if gold == local else "its UTC day" if gold == utc
                   else "neither (another date of the page)"] += 1
    return counts


# -- choosers ----------------------------------------------------------------

Chooser = Callable[[list[StudyPage], list[StudyPage]], list[int | None]]


def _matrix(sp: StudyPage, names: list[str]) -> np.ndarray:
    return np.array([[{**row, **extra}[n] for n in names] for row, extra in
                     zip(sp.page.rows, sp.extra, strict=True)], dtype=float)


def shipped_chooser(train_pages: list[StudyPage], test: list[StudyPage]) -> list[int | None]:
    """The shipped recipe: train_dates.train on the shipped features, train_dates' choose."""
    names = feature_names()
    model = train([sp.page for sp in train_pages], names)
    picks = []
    for sp in test:
        best = choose(sp.page.cands, sp.page.rows, model)
        picks.append(None if best is None else sp.page.cands.index(best))
    return picks


def _teachable(pages: list[StudyPage]) -> list[StudyPage]:
    return [sp for sp in pages if any(sp.page.labels) and not all(sp.page.labels)]


def logit_chooser(names: list[str]) -> Chooser:
    """The conditional logit on ``names``, free to pick any candidate."""
    def run(train_pages: list[StudyPage], test: list[StudyPage]) -> list[int | None]:
        data = [(_matrix(sp, names), np.array(sp.page.labels)) for sp in _teachable(train_pages)]
        mean, scale, w = fit_choice(data, RIDGE)
        return [int(np.argmax(((_matrix(sp, names) - mean) / scale) @ w)) if sp.page.cands else None
                for sp in test]
    return run


def lightgbm_chooser(names: list[str], rank: bool) -> Chooser:
    """LightGBM over ``names``: a lambdarank ranker per page or a binary classifier (fixed size)."""
    def run(train_pages: list[StudyPage], test: list[StudyPage]) -> list[int | None]:
        import lightgbm

        teach = _teachable(train_pages)
        x = np.vstack([_matrix(sp, names) for sp in teach])
        y = np.concatenate([np.array(sp.page.labels, dtype=int) for sp in teach])
        params = dict(n_estimators=200, learning_rate=0.05, num_leaves=15, min_child_samples=10,
                      subsample=0.8, subsample_freq=1, colsample_bytree=0.8, random_state=0,
                      verbose=-1, n_jobs=1)
        if rank:
            model = lightgbm.LGBMRanker(objective="lambdarank", **params)
            model.fit(x, y, group=[len(sp.page.cands) for sp in teach])
            score = model.predict
        else:
            model = lightgbm.LGBMClassifier(**params)
            model.fit(x, y)
            score = lambda m: model.predict_proba(m)[:, 1]  # noqa: E731
        return [int(np.argmax(score(_matrix(sp, names)))) if sp.page.cands else None for sp in test]
    return run


def cv_right(pages: list[StudyPage], chooser: Chooser, seed: int | None) -> list[bool]:
    """Whether each page is right under grouped 5-fold CV (fold draw ``seed``), scored by a fit on the others."""
    fold_of = group_folds([sp.page.domain for sp in pages], FOLDS, seed)
    right = [False] * len(pages)
    for k in range(FOLDS):
        test = [i for i, f in enumerate(fold_of) if f == k]
        picks = chooser([sp for sp, f in zip(pages, fold_of, strict=True) if f != k], [pages[i] for i in test])
        for i, pick in zip(test, picks, strict=True):
            right[i] = pick is not None and pages[i].page.labels[pick]
    return right


# -- the published-vs-updated split --------------------------------------------


def split_cv(x: np.ndarray, y: np.ndarray, groups: list[str], fit_predict: Callable, seed: int | None) -> int:
    """Right answers of a page-level classifier under grouped 5-fold CV (draw ``seed``)."""
    fold_of = np.array(group_folds(groups, FOLDS, seed))
    right = 0
    for k in range(FOLDS):
        test = fold_of == k
        if not test.any():
            continue
        train_y = y[~test]
        if train_y.min() == train_y.max():
            pred = np.full(test.sum(), train_y[0])
        else:
            pred = fit_predict(x[~test], train_y, x[test])
        right += int((pred == y[test]).sum())
    return right


def majority_cv(x: np.ndarray, y: np.ndarray, groups: list[str], seed: int | None) -> int:
    """The majority choice of the training folds, under the same folds."""
    return split_cv(x, y, groups, lambda _x, ty, tx: np.full(len(tx), int(ty.mean() >= 0.5)), seed)


def _sk_logistic(x: np.ndarray, y: np.ndarray, tx: np.ndarray) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=2000)).fit(x, y).predict(tx)


def _lgbm_small(x: np.ndarray, y: np.ndarray, tx: np.ndarray) -> np.ndarray:
    import lightgbm

    model = lightgbm.LGBMClassifier(n_estimators=100, learning_rate=0.05, num_leaves=4, min_child_samples=5,
                                    random_state=0, verbose=-1, n_jobs=1)
    return model.fit(x, y).predict(tx)


def _stump(x: np.ndarray, y: np.ndarray, tx: np.ndarray) -> np.ndarray:
    """The one feature and threshold that split the training pages best (a depth-1 tree)."""
    best = (-1, 0, 0.0, 0)
    for j in range(x.shape[1]):
        for t in np.unique(x[:, j]):
            for side in (0, 1):
                pred = (x[:, j] > t).astype(int) ^ side
                score = int((pred == y).sum())
                if score > best[0]:
                    best = (score, j, float(t), side)
    _, j, t, side = best
    return (tx[:, j] > t).astype(int) ^ side


# -- the run -------------------------------------------------------------------


def _spread(counts: list[int], n: int) -> str:
    mean = sum(counts) / len(counts)
    return f"{mean / n:.3f} ({min(counts)}-{max(counts)}/{n})"


def chooser_rows(pages: list[StudyPage], hard: list[int]) -> tuple[list[list], int]:
    """The choosers' table, and the fewest misses any of them makes on the ``hard`` pages (any draw)."""
    shipped = list(feature_names())
    every = shipped + next((list(sp.extra[0]) for sp in pages if sp.extra), [])
    models = {
        f"shipped recipe ({len(shipped)} features, printed dates only)": shipped_chooser,
        "conditional logit, shipped features, any candidate": logit_chooser(shipped),
        f"conditional logit, every feature ({len(every)})": logit_chooser(every),
        "LightGBM lambdarank, every feature": lightgbm_chooser(every, rank=True),
        "LightGBM binary, every feature": lightgbm_chooser(every, rank=False),
    }
    n = len(pages)
    rows, fewest = [], len(hard)
    for name, chooser in models.items():
        runs = [cv_right(pages, chooser, seed) for seed in DRAWS]
        on_hard = [sum(run[i] for i in hard) for run in runs]
        fewest = min(fewest, len(hard) - max(on_hard))
        rows.append([name, n, _spread([sum(run) for run in runs], n), sum(runs[0]), _spread(on_hard, len(hard))])
    oracle = sum(any(sp.page.labels) for sp in pages)
    rows.append(["a right candidate exists (oracle)", n, f"{oracle / n:.3f} ({oracle}/{n})", oracle, ""])
    return rows, fewest


def split_predictions(chosen: list[tuple[StudyPage, tuple[int, int]]]) -> tuple[list[list], float]:
    """Rows of the predictors' grouped-CV accuracy on ``chosen`` pages, and the best mean accuracy."""
    names = list(split_facts(chosen[0][0].page, chosen[0][0].extra, chosen[0][1]))
    x = np.array([[split_facts(sp.page, sp.extra, pair)[n] for n in names] for sp, pair in chosen])
    y = np.array([int(sp.page.labels[pair[1]]) for sp, pair in chosen])
    groups = [sp.page.domain for sp, _ in chosen]
    n = len(y)
    predictors = {
        "majority of the training folds": lambda s: majority_cv(x, y, groups, s),
        "one-feature stump": lambda s: split_cv(x, y, groups, _stump, s),
        "logistic (scikit-learn, C 0.3)": lambda s: split_cv(x, y, groups, _sk_logistic, s),
        "LightGBM (4 leaves, 100 trees)": lambda s: split_cv(x, y, groups, _lgbm_small, s),
    }
    rows, best = [], 0.0
    for name, run in predictors.items():
        counts = [run(seed) for seed in DRAWS]
        best = max(best, sum(counts) / len(counts) / n)
        rows.append([name, n, _spread(counts, n)])
    return rows, best


def split_sets(pages: list[StudyPage]) -> dict[str, list[tuple[StudyPage, tuple[int, int]]]]:
    """The published-or-updated pages, and among them those printing the update but not the publication."""
    both = [(sp, pair) for sp in pages if (pair := split_pair(sp.page))]
    shown = [(sp, pair) for sp, pair in both if sp.page.cands[pair[1]].sources & _PRINTED
             and not sp.page.cands[pair[0]].sources & _PRINTED]
    return {"a publication and a distinct update date, one right": both,
            "the update printed, the publication not": shown}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    require_datasets()  # prints why and exits 0 when the datasets are missing
    records = dated_records(args.limit)
    pages = load_study(records)
    if not pages:
        print("no wcxb-dev pages with a date truth: nothing to study")
        return 0
    n = len(pages)
    sets = split_sets(pages)
    hard_label = "the update printed, the publication not"
    hard = [i for i, sp in enumerate(pages) if any(sp is h for h, _ in sets[hard_label])]
    rows, fewest = chooser_rows(pages, hard)
    print_table(["chooser", "pages", "right: mean (range) over 5 fold draws", "default draw",
                 f"right on the {len(hard)} update-printed pages"], rows,
                title=f"wcxb-dev: the date choice, 5-fold CV grouped by registered domain, {len(DRAWS)} fold draws")
    families = Counter(sp.family for sp in pages if not any(sp.page.labels))
    print_table(["pages with no right candidate, by family", "pages"],
                [[f, c] for f, c in sorted(families.items())] + [["total", sum(families.values())]])
    census = zone_census(records)
    print_table(["where a zoned datetime's local and UTC days differ, the truth takes", "datetimes"],
                [[k, v] for k, v in census.most_common()],
                title="time zones: local day of the stated offset or UTC day (distinct datetimes per page)")
    bests = {}
    for label, chosen in sets.items():
        took = sum(sp.page.labels[pair[1]] for sp, pair in chosen)
        title = f"{label}: {len(chosen)} pages, the truth took the update on {took}"
        if len(chosen) < FOLDS * 2:
            print(f"\n{title} (too few to cross-validate)")
            continue
        rows, bests[label] = split_predictions(chosen)
        print_table(["page signals only: who predicts the truth's pick", "pages",
                     "right: mean (range) over 5 fold draws"], rows, title=title)
    oracle = sum(any(sp.page.labels) for sp in pages)
    target = math.ceil(0.93 * n)
    print(f"\nbound: {n} pages; 0.93 needs {target} right. A right candidate exists on {oracle} "
          f"({oracle / n:.3f}), so at most {oracle - target} pages with a right candidate may be missed.")
    if hard:
        print(f"On the {len(hard)} pages printing the update but not the publication, the fewest misses "
              f"of any chooser above on any draw is {fewest}, so at most {oracle - fewest}/{n} = "
              f"{(oracle - fewest) / n:.3f} even if every other page were chosen right"
              + (f"; page signals alone reach {bests[hard_label]:.3f} there." if hard_label in bests else "."))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
