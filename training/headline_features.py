"""Experiment: do where a heading sits and what follows it help choose the headline?

    python -m training.headline_features              # seeds 1 2 3 4 5
    python -m training.headline_features --seeds 1 2

Issue 11 part 5. The shipped chooser (:mod:`scrapy_contentex.core.headline`)
reads which sources state a candidate, how many agree, whether and where the
page prints it and how similar it is to the other copies. This script adds
per-candidate signals about what a reader sees, computes them for every
candidate, and measures the shipped fit (``training.train_headline.train``)
with each group added, on the grouped folds of ``train_headline --check`` and
on other draws of them:

* placement of the candidate's heading element (its best-placed copy): level,
  copies, inside header/nav/aside/footer or a role saying so, inside a link,
  inside <main>/<article>, the first heading of its <main>/<article>, a class,
  id or itemprop naming a title;
* the lines printed under the candidate's own line of the visible text: a
  headline has the body under it, a tagline buttons and menus;
* overlaps with the other candidates: words it adds before ("Node - Headline")
  or after ("Headline: subtitle") another candidate, or that another adds to it.

It writes nothing: on wcxb-dev no group beat the shipped features beyond the
spread of the fold draws (see the issue's closing note), so none of them is
computed at run time. The script stays so the result can be re-checked when
the candidates or the fit change.
"""

from __future__ import annotations

import argparse
import math
import re

import numpy as np
from lxml.html import HtmlElement

from benchmarks.common import print_table
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import Candidate, _norm
from scrapy_contentex.core.lang import folded
from scrapy_contentex.core.title import heading_elements
from training.train_headline import FOLDS, SET, Page, cv_picks, load_pages, picked_right

_CHROME_TAGS = frozenset({"nav", "aside", "footer"})
_CHROME_ROLES = frozenset({"banner", "navigation", "complementary", "contentinfo"})
_CONTENT_TAGS = frozenset({"main", "article"})
_TITLE_MARK_RE = re.compile(r"title|headline", re.I)
PLACEMENT = ("heading_level", "heading_copies", "in_chrome", "in_link", "in_content", "opens_content", "title_mark")
UNDER = ("own_line", "under_chars", "under_longest")
OVERLAPS = ("adds_before", "adds_after", "cut_before", "cut_after")
GROUPS = {"placement": PLACEMENT, "lines under": UNDER, "overlaps": OVERLAPS,
          "all three": PLACEMENT + UNDER + OVERLAPS}
# Copies of a heading counted, at most.
MAX_COPIES = 3
# Lines of the visible text read under a candidate's own line.
LINES_UNDER = 4
# Longest line indexed for the lookup (a headline is short).
MAX_LINE_CHARS = 400


def placement(element: HtmlElement) -> tuple[dict[str, float], HtmlElement | None]:
    """Where one heading element sits, and its nearest <main>/<article> if any."""
    chrome = link = False
    content: HtmlElement | None = None
    for ancestor in element.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        if tag in _CONTENT_TAGS and content is None:
            content = ancestor
        elif content is None and (tag in _CHROME_TAGS or tag == "header" or ancestor.get("role") in _CHROME_ROLES):
            chrome = True  # a <header> inside the <article> is the article's own header
        elif tag == "a":
            link = True
    link = link or any(child.tag == "a" and len(child.text_content()) * 2 >= len(element.text_content())
                       for child in element)
    marks = " ".join(filter(None, (element.get("class"), element.get("id"), element.get("itemprop"))))
    parent = element.getparent()
    if parent is not None:
        marks += " " + " ".join(filter(None, (parent.get("class"), parent.get("id"))))
    return {"in_chrome": float(chrome), "in_link": float(link), "in_content": float(content is not None),
            "title_mark": float(bool(_TITLE_MARK_RE.search(marks)))}, content


def placements(doc: Document) -> dict[str, dict[str, float]]:
    """Placement values of each heading text of the page (its best-placed copy), by :func:`_norm` key."""
    found: dict[str, dict[str, float]] = {}
    opened: set[int] = set()
    for level, text, element in heading_elements(doc.tree):
        row, content = placement(element)
        row["opens_content"] = float(content is not None and id(content) not in opened)
        if content is not None:
            opened.add(id(content))
        row["heading_level"] = (7.0 - level) / 6.0
        key = _norm(text)
        previous = found.get(key)
        copies = min(float(MAX_COPIES), previous["heading_copies"] + 1.0) if previous else 1.0
        if previous is None or (row["in_content"] - row["in_chrome"], row["heading_level"]) > (
                previous["in_content"] - previous["in_chrome"], previous["heading_level"]):
            found[key] = row
        found[key]["heading_copies"] = copies
    return found


def lines_under(doc: Document, key: str, index: dict[str, int], lines: list[str]) -> dict[str, float]:
    """Characters printed on the lines under the candidate's own line (none: zeros)."""
    number = index.get(key)
    if number is None:
        return {"own_line": 0.0, "under_chars": 0.0, "under_longest": 0.0}
    under = [len(line) for line in lines[number + 1:number + 1 + LINES_UNDER]]
    return {"own_line": 1.0, "under_chars": math.log1p(sum(under)), "under_longest": math.log1p(max(under, default=0))}


def overlaps(key: str, keys: list[str]) -> dict[str, float]:
    """Log of the words this wording adds before/after another candidate, or that another adds to it."""
    extra = dict.fromkeys(OVERLAPS, 0)
    size = len(key.split())
    for other in keys:
        if other == key or not other:
            continue
        more = len(other.split())
        if key.endswith(f" {other}"):
            extra["adds_before"] = max(extra["adds_before"], size - more)
        if key.startswith(f"{other} "):
            extra["adds_after"] = max(extra["adds_after"], size - more)
        if other.endswith(f" {key}"):
            extra["cut_before"] = max(extra["cut_before"], more - size)
        if other.startswith(f"{key} "):
            extra["cut_after"] = max(extra["cut_after"], more - size)
    return {name: math.log1p(count) for name, count in extra.items()}


def extra_features(doc: Document, cands: list[Candidate]) -> list[dict[str, float]]:
    """The three groups' values for each candidate."""
    where = placements(doc)
    lines = doc.visible_text.split("\n")
    index: dict[str, int] = {}
    for number, line in enumerate(lines):
        if len(line) <= MAX_LINE_CHARS:
            index.setdefault(folded(line), number)
    keys = [_norm(c.text) for c in cands]
    empty = dict.fromkeys(PLACEMENT, 0.0)
    return [{**where.get(key, empty), **lines_under(doc, folded(c.text), index, lines), **overlaps(key, keys)}
            for c, key in zip(cands, keys, strict=True)]


def right_pages(pages: list[Page], names: tuple[str, ...], seed: int | None) -> int:
    """Pages the fit on the other folds chooses right."""
    return sum(picked_right(p, pick) for p, pick in zip(pages, cv_picks(pages, names, seed=seed), strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    pages = load_pages(args.limit, extra=extra_features)
    if not pages:
        print(f"no {SET} pages found: nothing to measure")
        return 0
    added = {n for group in GROUPS.values() for n in group}
    shipped = tuple(n for n in pages[0].rows[0] if n not in added)
    draws = [None, *args.seeds]
    table = []
    for label, names in [("shipped features", shipped)] + [(f"+ {g}", shipped + f) for g, f in GROUPS.items()]:
        right = [right_pages(pages, names, seed) for seed in draws]
        table.append([label, " ".join(map(str, right)), min(right), f"{np.mean(right):.1f}", max(right)])
    print_table(["features", "pages right per draw (default, seeds)", "min", "mean", "max"], table,
                title=f"{SET}: headline, {len(pages)} pages, {FOLDS} folds grouped by registered domain, "
                      f"default draw then seeds {' '.join(map(str, args.seeds))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
