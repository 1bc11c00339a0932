"""Experiment: the URL slug, the page's declared kind and "no headline of its own" as headline signals.

    python -m training.headline_signals                      # default draw + seeds 1 2 3 4 5
    python -m training.headline_signals --cache /tmp/h.pkl   # keep the parsed pages between runs

Issue 11 part 5 (brief head14). The shipped chooser
(:mod:`scrapy_contentex.core.headline`) reads which sources state a
candidate, how many agree, whether and where the page prints it and how
similar it is to the other copies. This script adds three groups of
per-candidate signals never tried before and measures the shipped fit
(``training.train_headline.train``) with each group added, on the grouped
folds of ``train_headline --check`` and on five other draws of them:

* ``slug``: CMSs write the URL slug from the headline. The last two path
  segments split on ``- _ . +``, file extensions, numbers and id-like
  tokens dropped; a slug of fewer than two word tokens (an id, a number, a
  CJK page's path) is absent and every value is 0, so the signal is neutral
  there. Per candidate: the share of the slug's words it holds, the share of
  its own words the slug holds, whether the words it shares come in the
  slug's order, and whether it covers the slug best of the page's candidates.
* ``kind``: the page's declared kind (a JSON-LD article type, og:type
  article, nothing declared) crossed with the candidate's source (first
  ``<h1>``, a ``<title>`` part, the whole ``<title>``, og/JSON-LD). A
  page-level value alone cancels out of a choice among the page's
  candidates; crossed, it lets the weight of a source differ by page kind.
  The declared types are already parsed by the call (``doc.json_ld``): no
  cost.
* ``own``: for the whole ``<title>`` (site name included), does the page
  print no heading of its own: no ``<h1>``/``<h2>`` candidate equal to a
  ``<title>`` part, the first ``<h1>`` is the site's name, no ``<h1>`` at
  all.

It writes nothing to the package. Over six fold draws the slug and the kind
together gained 8-25 pages on every draw (beyond the 1104-1109 spread of
the features before them), so both ship (computed in
:mod:`scrapy_contentex.core.headline`, imported here); ``own`` gained
nothing and does not. docs/text.md has the table. The baseline row is the
shipped features without these groups.
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import numpy as np

from benchmarks.common import print_table
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import (
    KIND_SOURCES,
    PAGE_KINDS,
    Candidate,
    _norm,
    kind_features,
    page_kind,
    slug_features,
    slug_words,
)
from scrapy_contentex.core.title import segments, site_test
from training.train_headline import FOLDS, SET, Page, cv_picks, load_pages, picked_right

SLUG = ("slug_cover", "slug_precision", "slug_order", "slug_best")
KIND = tuple(f"{kind}_x_{group}" for kind in PAGE_KINDS for group in KIND_SOURCES)
OWN = ("title_no_heading_part", "title_h1_is_site", "title_no_h1")
GROUPS = {"slug": SLUG, "kind": KIND, "own": OWN, "slug + kind": SLUG + KIND, "all three": SLUG + KIND + OWN}


def own_features(doc: Document, cands: list[Candidate]) -> list[dict[str, float]]:
    """For the whole ``<title>``: signs that the page prints no headline of its own."""
    is_site = site_test(doc)
    title = next((c for c in cands if "title" in c.sources), None)
    parts = {_norm(p) for p in segments(title.text)} if title else set()
    headings = [c for c in cands if c.sources & {"h1_first", "h1_other", "h2"}]
    h1 = next((c for c in cands if "h1_first" in c.sources), None)
    page = {"title_no_heading_part": float(not any(_norm(c.text) in parts for c in headings)),
            "title_h1_is_site": float(h1 is not None and is_site(h1.text)),
            "title_no_h1": float(h1 is None)}
    return [{n: v * ("title" in c.sources) for n, v in page.items()} for c in cands]


def extra_features(doc: Document, cands: list[Candidate]) -> list[dict[str, float]]:
    """The three groups' values for each candidate."""
    rows = [{**a, **b, **c} for a, b, c in zip(slug_features(slug_words(doc.url), cands),
                                                kind_features(page_kind(doc), cands),
                                                own_features(doc, cands), strict=True)]
    return rows


def right_pages(pages: list[Page], names: tuple[str, ...], seed: int | None) -> int:
    """Pages the fit on the other folds chooses right."""
    return sum(picked_right(p, pick) for p, pick in zip(pages, cv_picks(pages, names, seed=seed), strict=True))


def cached_pages(cache: str | None, limit: int | None) -> list[Page]:
    """The pages with the extra values, from ``cache`` when it exists (written after a load)."""
    if cache and Path(cache).exists():
        with open(cache, "rb") as handle:
            return pickle.load(handle)
    pages = load_pages(limit, extra=extra_features)
    if cache and pages:
        with open(cache, "wb") as handle:
            pickle.dump(pages, handle)
    return pages


def compare(pages: list[Page], groups: dict[str, tuple[str, ...]], seeds: list[int]) -> list[list]:
    """Rows: the shipped features, then each group added; per draw, paired differences to shipped."""
    added = {n for group in groups.values() for n in group}
    shipped = tuple(n for n in pages[0].rows[0] if n not in added)
    draws = [None, *seeds]
    base = [right_pages(pages, shipped, seed) for seed in draws]
    table = [["without these groups", " ".join(map(str, base)), min(base), f"{np.mean(base):.1f}", max(base), "", ""]]
    for label, names in groups.items():
        right = [right_pages(pages, shipped + names, seed) for seed in draws]
        diff = [r - b for r, b in zip(right, base, strict=True)]
        table.append([f"+ {label}", " ".join(map(str, right)), min(right), f"{np.mean(right):.1f}", max(right),
                      " ".join(f"{d:+d}" for d in diff), f"{np.mean(diff):+.1f}"])
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--cache", default=None, help="pickle of the loaded pages (read if present, else written)")
    args = parser.parse_args(argv)
    pages = cached_pages(args.cache, args.limit)
    if not pages:
        print(f"no {SET} pages found: nothing to measure")
        return 0
    slugged = sum(any(row["slug_cover"] for row in p.rows) for p in pages)
    print(f"{len(pages)} pages, {slugged} with a slug some candidate shares words with")
    print_table(["features", "pages right per draw (default, seeds)", "min", "mean", "max",
                 "paired diff per draw", "mean diff"], compare(pages, GROUPS, args.seeds),
                title=f"{SET}: headline, {len(pages)} pages, {FOLDS} folds grouped by registered domain, "
                      f"default draw then seeds {' '.join(map(str, args.seeds))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
