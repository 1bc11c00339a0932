"""Shared benchmark plumbing: find ../shared/datasets, load pages, score, print tables.

Pages are third-party content: they are read from ../shared/datasets (or
$CONTENTEX_DATASETS) at run time and never copied into the repository.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from scrapy_contentex.core.document import decode_html
from scrapy_contentex.core.lang import tokens

ROOT = Path(__file__).resolve().parent.parent


def datasets_dir() -> Path | None:
    """The datasets folder, or None (benchmarks then say so and exit 0)."""
    env = os.environ.get("CONTENTEX_DATASETS")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared" / "datasets")
    for path in candidates:
        if path.is_dir():
            return path
    return None


def require_datasets() -> Path:
    path = datasets_dir()
    if path is None:
        print(
            "datasets not found: expected ../shared/datasets beside the project "
            "(or set CONTENTEX_DATASETS); nothing to measure."
        )
        sys.exit(0)
    return path


def load_set(name: str, limit: int | None = None) -> Iterator[tuple[dict, bytes]]:
    """Yield (truth record, raw page bytes) for every page of a set."""
    base = require_datasets() / name
    with open(base / "truth.jsonl", encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    for record in records[:limit]:
        with gzip.open(base / "pages" / f"{record['id']}.html.gz") as page:
            yield record, page.read()


def load_texts(name: str, limit: int | None = None) -> list[tuple[dict, str]]:
    """Like load_set, with bytes decoded the way the extractors decode them."""
    return [(record, decode_html(raw)) for record, raw in load_set(name, limit)]


def shingles(text: str, n: int = 4) -> Counter:
    toks = tokens(text or "")
    if len(toks) < n:
        return Counter([tuple(toks)]) if toks else Counter()
    return Counter(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))


def page_scores(predicted: str, truth: str) -> tuple[float, float]:
    """Per-page (precision, recall) of 4-token shingles, as the datasets README defines."""
    pred, gold = shingles(predicted), shingles(truth)
    tp = sum((pred & gold).values())
    fp = sum(pred.values()) - tp
    fn = sum(gold.values()) - tp
    if fp == 0 and fn == 0:
        return 1.0, 1.0
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall


def f1_of(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Mean precision, mean recall and the F1 of the two means."""
    if not pairs:
        return 0.0, 0.0, 0.0
    p = sum(x for x, _ in pairs) / len(pairs)
    r = sum(y for _, y in pairs) / len(pairs)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def print_table(headers: list[str], rows: list[list], title: str | None = None) -> None:
    """A plain fixed-width table a person can read in a terminal or a note."""
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    if title:
        print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "" if value is None else str(value)


_WORD_RE = re.compile(r"\w+")


def word_f1(predicted: str, truth: str) -> float:
    """WCXB's page score: F1 of the bags of lower-cased \\w+ tokens.

    A page with empty gold scores 1 when nothing is extracted, else 0.
    """
    return word_scores(predicted, truth)[2]


def word_scores(predicted: str, truth: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of :func:`word_f1`'s bags of tokens (to tell a loss's side)."""
    gold = Counter(_WORD_RE.findall((truth or "").lower()))
    pred = Counter(_WORD_RE.findall((predicted or "").lower()))
    if not gold:
        return (0.0, 0.0, 0.0) if pred else (1.0, 1.0, 1.0)
    if not pred:
        return 0.0, 0.0, 0.0
    tp = sum((pred & gold).values())
    if not tp:
        return 0.0, 0.0, 0.0
    precision = tp / sum(pred.values())
    recall = tp / sum(gold.values())
    return precision, recall, 2 * precision * recall / (precision + recall)


def race(pages: list[tuple[str, str | None]], sides: dict[str, Callable[[str, str | None], object]], passes: int) -> dict[str, float]:
    """Best-of-``passes`` CPU seconds of each side over all pages, interleaved page by page.

    The order of the sides rotates from page to page (two sides: A B, B A,
    A B ...), so every side runs after each side, itself included, equally
    often. A call right after another workload runs on caches that workload
    filled: with a fixed order, ``classify_page`` always ran right after an
    lxml parse and measured about 8% slower than after itself, while the
    parse measured faster after it; any call in between (even a
    ``gc.collect()``) did the same, so the cost was the order's, not the code's.
    """
    names = list(sides)
    for html, url in pages[:3]:  # warm: imports, models, caches
        for call in sides.values():
            call(html, url)
    best = dict.fromkeys(sides, float("inf"))
    for _ in range(passes):
        spent = dict.fromkeys(sides, 0.0)
        for i, (html, url) in enumerate(pages):
            shift = i % len(names)
            for name in names[shift:] + names[:shift]:
                call = sides[name]
                started = time.process_time()
                call(html, url)
                spent[name] += time.process_time() - started
        best = {name: min(best[name], spent[name]) for name in sides}
    return best


def registered_domain(url: str | None) -> str | None:
    """The registered domain of a URL ("news.bbc.co.uk" -> "bbc.co.uk"), or None.

    Every cross-validation of the project groups pages by this, so that no
    page is scored by a model or a value chosen on its own site. It reads
    tldextract's bundled public-suffix snapshot: offline, the same groups on
    every machine.
    """
    if not url:
        return None
    parts = _suffix_extractor()(url)
    domain = getattr(parts, "top_domain_under_public_suffix", None) or parts.registered_domain
    return domain or parts.domain or None


@lru_cache(maxsize=1)
def _suffix_extractor():
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=())


def group_folds(groups: list[str], k: int, seed: int | None = None) -> list[int]:
    """Fold of each page: whole groups go to the fold with the fewest pages so far,
    largest groups first (GroupKFold's rule), ties by name: deterministic.

    With a ``seed``, another deterministic assignment by the same rule: groups
    in a seeded random order within bands of similar size, ties broken by the
    same generator. The CV's spread over seeds tells a real gain from a lucky
    split.
    """
    sizes = Counter(groups)
    if seed is None:
        order = sorted(sizes, key=lambda g: (-sizes[g], g))
        tie: Callable[[int], float] = float
    else:
        rng = random.Random(seed)
        order = sorted(sizes)
        rng.shuffle(order)
        order.sort(key=lambda g: -sizes[g] // 4)  # stable: shuffled within size bands
        tie = lambda _: rng.random()  # noqa: E731
    load = [0] * k
    fold_of: dict[str, int] = {}
    for g in order:
        f = min(range(k), key=lambda i: (load[i], tie(i)))
        fold_of[g] = f
        load[f] += sizes[g]
    return [fold_of[g] for g in groups]


@dataclass
class ChoicePage:
    """One page of a learned choice among candidates (headline, date): its
    candidates, their feature rows, which of them match the truth, and
    page-level values where a model reads some."""

    domain: str
    cands: list
    rows: list[dict[str, float]]
    labels: list[bool]
    page: dict[str, float] = field(default_factory=dict)

    def rule_right(self) -> bool:
        """Whether the rule's own pick (the candidate whose sources hold "rule") is right."""
        picked = next((i for i, c in enumerate(self.cands) if "rule" in c.sources), None)
        return picked is not None and self.labels[picked]


def choice_cross_validation(pages: list, domains: list[str], train: Callable[[list], object],
                            right: Callable[[list, object | None], int], folds: int) -> list[list]:
    """Rows of a table for a learned choice among candidates against its rule.

    Per fold (grouped by ``domains``), the pages the rule gets right
    (``right(test, None)``) and those a model fit on the other folds gets
    right (``right(test, model)``); then the totals, and the share of pages
    where some candidate is right (``page.labels``), the ceiling of any choice.
    """
    fold_of = group_folds(domains, folds)
    rows, totals = [], [0, 0]
    for k in range(folds):
        test = [p for p, f in zip(pages, fold_of, strict=True) if f == k]
        model = train([p for p, f in zip(pages, fold_of, strict=True) if f != k])
        rule, learned = right(test, None), right(test, model)
        totals[0] += rule
        totals[1] += learned
        rows.append([f"fold {k}", len(test), rule / len(test), learned / len(test)])
    n = len(pages)
    rows.append(["cross-validated", n, f"{totals[0] / n:.3f} ({totals[0]}/{n})", f"{totals[1] / n:.3f} ({totals[1]}/{n})"])
    oracle = sum(any(p.labels) for p in pages)
    rows.append(["a right candidate exists", n, oracle / n, oracle / n])
    return rows


def choice_picks(pages: list, domains: list[str], train: Callable[[list], object],
                 pick: Callable[[object, object], object], folds: int, seed: int | None = None) -> list:
    """What each page gets from a model fit on the other folds (grouped by ``domains``;
    with a ``seed``, another deterministic draw of the folds): ``pick(model, page)``."""
    fold_of = group_folds(domains, folds, seed)
    picks: list = [None] * len(pages)
    for k in range(folds):
        model = train([p for p, f in zip(pages, fold_of, strict=True) if f != k])
        for i, (page, f) in enumerate(zip(pages, fold_of, strict=True)):
            if f == k:
                picks[i] = pick(model, page)
    return picks


def print_choice_seeds(pages: list, right: Callable[[int], int], seeds: int, folds: int) -> None:
    """The pages a choice gets right (``right(seed)``) on other draws of the folds: their
    spread is the noise a change must beat."""
    rows = []
    for seed in range(1, seeds + 1):
        count = right(seed)
        rows.append([f"seed {seed}", len(pages), f"{count / len(pages):.3f} ({count}/{len(pages)})"])
    print_table(["folds drawn with", "pages", "model"], rows,
                title=f"the same grouped CV on {seeds} other draws of the {folds} folds")
