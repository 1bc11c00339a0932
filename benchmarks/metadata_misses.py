"""Where the headline and author misses of ``benchmarks.metadata`` come from, by family.

    python -m benchmarks.metadata_misses [--limit N]

A development aid that counts families, never pages: each wcxb-dev miss is
put in one family by fixed tests on the page (no tuning happens here).

Headline: which copy of the headline the truth is (the first ``<h1>``, the
whole ``<title>``, a part of it, og:title/JSON-LD only, another heading) and
which copy we chose; misses with no right candidate say where the truth is
(inside the ``<title>`` but not one of its segments, printed only as plain
text, not printed at all). A second table splits every page that prints an
``<h1>`` worded unlike its ``<title>`` by the copy the truth took: the share
of truths that take a ``<title>`` wording the page never prints is a
convention the page cannot tell us.

Author: what we gave (nothing, another name, the same person in another
form) against where the true name is (declared in JSON-LD or meta, printed
in the 600 characters under the headline, printed elsewhere, nowhere in the
text).

Exit status 0; 0 with a note when the datasets are absent.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from benchmarks.common import datasets_dir, load_texts, print_table
from benchmarks.metadata import SET, author_ok, gold_names, headline_ok, norm

_H1 = {"h1_first", "h1_other"}
_TITLE_PARTS = {"title_first", "title_segment", "title_stripped"}
_DECLARED = {"og", "twitter", "ld", "og_stripped", "ld_stripped"}


def copy_kind(sources: set[str]) -> str:
    """The family of a candidate by the copies that state it (a heading first)."""
    if sources & _H1:
        return "<h1>"
    if "title" in sources:
        return "whole <title>"
    if sources & _TITLE_PARTS:
        return "<title> part"
    if sources & _DECLARED:
        return "og:title / JSON-LD"
    if "h2" in sources:
        return "<h2>"
    return "rule only" if sources else "nothing"


def headline_family(doc, gold: str, cands: list) -> tuple[str, str]:
    """(truth family, our family) of one missed page."""
    from scrapy_contentex.core.title import page_headings, page_title

    right = [c for c in cands if headline_ok(c.shown, gold)]
    if right:
        return copy_kind(right[0].sources), ""
    key = norm(gold)
    if any(norm(text) == key for _, text in page_headings(doc)):
        return "no candidate: another heading", ""
    if key and key in norm(page_title(doc.tree) or ""):
        return "no candidate: inside <title>, not a segment", ""
    if key and f" {key} " in f" {norm(doc.visible_text)} ":
        return "no candidate: printed as plain text only", ""
    return "no candidate: not printed", ""


def h1_split(doc, gold: str, cands: list, ours_right: bool) -> str | None:
    """Which copy the truth took on a page whose first <h1> differs from its <title> wordings."""
    h1 = [c for c in cands if "h1_first" in c.sources]
    titles = [c for c in cands if c.sources & (_TITLE_PARTS | {"title"}) and "h1_first" not in c.sources]
    if not h1 or not titles:
        return None
    if headline_ok(h1[0].shown, gold):
        side = "truth = the <h1>"
    elif any(headline_ok(c.shown, gold) for c in titles):
        printed = f" {norm(gold)} " in f" {norm(doc.visible_text)} "
        side = "truth = a <title> wording " + ("the page prints" if printed else "the page never prints")
    else:
        side = "truth = neither"
    return f"{side}, ours {'right' if ours_right else 'wrong'}"


def author_family(doc, gold: str, predicted: list[str], near: str) -> tuple[str, str]:
    """(what we gave, where the true name is) of one missed page."""
    names = gold_names(gold)
    if not predicted:
        got = "nothing"
    elif any(set(norm(p).split()) & set(n.split()) for p in predicted for n in names):
        got = "same person, other form"
    else:
        got = "another name"
    declared = norm(json.dumps(doc.json_ld, ensure_ascii=False) + " " + " ".join(doc.meta.values()))
    text, near = f" {norm(doc.visible_text)} ", f" {norm(near)} "
    if any(f" {n} " in near for n in names):
        where = "printed under the headline"
    elif any(f" {n} " in text for n in names):
        where = "printed elsewhere" + (", declared too" if any(n in declared for n in names) else "")
    elif any(n in declared for n in names):
        where = "declared only (JSON-LD / meta)"
    else:
        where = "nowhere in the text or declarations"
    return got, where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    if datasets_dir() is None:
        print("datasets not found: nothing to count")
        return 0
    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.headline import candidates
    from scrapy_contentex.core.metadata import NEAR_BYLINE, _anchor, _title_span, extract_metadata

    headline_misses: Counter = Counter()
    split: Counter = Counter()
    author_misses: Counter = Counter()
    for record, html in load_texts(SET, args.limit):
        doc = Document(html, url=record.get("url"))
        meta = extract_metadata(doc)
        gold = record.get("title")
        if gold:
            cands = candidates(doc)
            ok = headline_ok(meta["headline"], gold)
            side = h1_split(doc, gold, cands, ok)
            if side:
                split[side] += 1
            if not ok:
                ours = next((c.sources for c in cands if c.shown == meta["headline"]), set())
                headline_misses[(headline_family(doc, gold, cands)[0], copy_kind(ours))] += 1
        if record.get("author") and not author_ok(meta["authors"], record["author"]):
            text = doc.visible_text
            span = _title_span(text, _anchor(doc, text, meta["headline"]))
            near = text[span[1]:span[1] + NEAR_BYLINE] if span else ""
            author_misses[author_family(doc, record["author"], meta["authors"], near)] += 1
    print_table(["truth is", "we chose", "pages"],
                [[t, o, n] for (t, o), n in sorted(headline_misses.items(), key=lambda kv: -kv[1])],
                title=f"{SET}: headline misses by family ({sum(headline_misses.values())} pages)")
    print_table(["pages whose <h1> differs from the <title> wordings", "pages"],
                [[k, n] for k, n in sorted(split.items())], title="which copy the truth takes")
    print_table(["we gave", "the true name is", "pages"],
                [[g, w, n] for (g, w), n in sorted(author_misses.items(), key=lambda kv: -kv[1])],
                title=f"{SET}: author misses by family ({sum(author_misses.values())} pages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
