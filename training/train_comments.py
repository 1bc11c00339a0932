"""A learned comment-section decision, measured against the hand thresholds (not shipped).

    python -m training.train_comments                 # grouped-CV table, writes nothing
    python -m training.train_comments --out PATH      # also fit on every training page, write it to PATH
    python -m training.train_comments --limit 20      # the first pages of each set (a quick look)

The default extractor cuts a comment-named section after an article's prose
by hand thresholds (:func:`scrapy_contentex.core.text.comments.reader_comments`:
300 tokens of prose, 100 in article markup or on a declared article, 30 in
article markup alone, no thread template, no declared thread).  This script
asks whether a logistic regression over the signals those thresholds read,
plus cheap page facts, can take their place.  For every page of the training
sets (``training.corpus.TRAIN_SETS``; dragnet and cleaneval are never read
here) whose comment section (:func:`.comments.comment_section`) holds text,
it computes :data:`COMMENT_FEATURES` and a label: the gold drops the
section, i.e. under half of the tokens of the section's prose lines occur in
the gold text.  The folds are text_cv's (``benchmarks.common.group_folds``
over the groups of the pages that give lines, in corpus order), so every
page is decided by weights fit without its domain; the table gives, per set,
how often the thresholds and the out-of-fold model agree with the label.

Deterministic: corpus order, fixed folds, Newton steps from zero weights
(``training.train_pagetype.fit``, not class-balanced: the prior matters).

Why it is not shipped: out of fold, with the 5 CV fold line models, the
learned decision matched the thresholds on the training sets but lost on
dragnet (0.8934 -> 0.8728; docs/comments.md has the table).  The training
sets hold only 14 pages where cutting the section raises the page's F1,
against 109 where keeping it does (dragnet: 214 and 26), so what tells an
article's reader comments from a thread's posts cannot be learned from them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import group_folds, print_table, require_datasets
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.lang import tokens
from scrapy_contentex.core.pagetype_model import LogisticModel
from scrapy_contentex.core.text.block_features import _LINK_SHARE, _TOKENS, PageLines, page_lines
from scrapy_contentex.core.text.combined import Params
from scrapy_contentex.core.text.comments import (
    _ARTICLE_WORDS,
    _THREAD_WORDS,
    comment_elements,
    comment_section,
    declares_article,
    declares_discussion,
    markup_words,
    prose_lines,
    reader_comments,
)
from scrapy_contentex.core.text.region import PageBlocks, page_blocks
from training.corpus import TRAIN_SETS, load_corpus
from training.train_pagetype import fit, index_probability

FOLDS = 5
RIDGE = 1.0
#: P(the gold drops the section) from which the model cuts it.
THRESHOLD = 0.5
#: The signals the learned decision reads (:func:`comment_candidate`).
COMMENT_FEATURES = (
    "prose_log", "prose_share", "article_markup", "thread_markup", "declared_article",
    "declared_discussion", "template_share", "section_lines_log", "section_tokens_log",
    "line_tokens_log", "section_prose_share", "records_log", "header_share", "link_share",
    "position",
)
#: A post header: a clock time, a date, "3 days ago", "X wrote/said", a floor (楼).
_STAMP_RE = re.compile(r"\d{1,2}:\d{2}|\d{4}[-/.年]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"
                       r"|\bago\b|\b(?:said|says|wrote|replied)\b|楼", re.I)
#: Post headers are short lines.
_HEADER_TOKENS = 12


def comment_candidate(doc: Document, pb: PageBlocks, lines: PageLines,
                      from_prose: bool = True) -> tuple[np.ndarray, dict[str, float]] | None:
    """The lines of the page's comment section and the signals that may tell
    reader comments under an article from the posts of a thread; None without
    a section that holds text.

    The section is :func:`.comments.comment_section`'s.  Its signals: the
    prose before it (log tokens, and its share of prose plus section), the
    words of that prose's markup (article or thread), what the page declares,
    how much of that prose is built like the section's lines (a thread's
    opening post shares their template), the section's size, line length,
    prose share, record count (comment-named elements in it), post-header
    share, link share, and where it opens on the page.
    """
    owners = lines.owners
    if not owners:
        return None
    line_tokens, link_share = lines.features[:, _TOKENS], lines.features[:, _LINK_SHARE]
    inside, first, prose = comment_section(pb, owners, line_tokens, link_share, from_prose)
    section = inside & (np.arange(len(owners)) >= first)
    size = float(line_tokens[section].sum())
    if not size:
        return None
    before = np.flatnonzero(prose_lines(line_tokens[:first], link_share[:first]) & ~inside[:first])
    words = markup_words(pb, owners, before)
    template_share = 0.0
    if lines.templates is not None and prose:
        records = np.isin(lines.templates[before], np.unique(lines.templates[section]))
        template_share = float(line_tokens[before][records].sum()) / prose
    rows = np.flatnonzero(section)
    top, bottom = owners[rows[0]], owners[rows[-1]]
    headers = sum(1 for k in rows.tolist()
                  if line_tokens[k] <= _HEADER_TOKENS and _STAMP_RE.search(lines.texts[k]))
    section_prose = section & prose_lines(line_tokens, link_share)
    features = {
        "prose_log": math.log1p(prose),
        "prose_share": prose / (prose + size),
        "article_markup": float(bool(words & _ARTICLE_WORDS)),
        "thread_markup": float(bool(words & _THREAD_WORDS)),
        "declared_article": float(declares_article(doc)),
        "declared_discussion": float(declares_discussion(doc)),
        "template_share": template_share,
        "section_lines_log": math.log1p(len(rows)),
        "section_tokens_log": math.log1p(size),
        "line_tokens_log": math.log1p(size / len(rows)),
        "section_prose_share": float(line_tokens[section_prose].sum()) / size,
        "records_log": math.log1p(sum(1 for i in comment_elements(pb) if top <= i <= bottom)),
        "header_share": headers / len(rows),
        "link_share": float((line_tokens[section] * link_share[section]).sum()) / size,
        "position": first / len(owners),
    }
    return section, features


def gold_drops(texts: list[str], lines: np.ndarray, gold: str) -> bool | None:
    """Under half of the tokens of the given lines occur in the gold (counted
    with multiplicity, CJK characters one each); None when they hold none."""
    counts = Counter(tokens("\n".join(t for t, k in zip(texts, lines, strict=True) if k).lower()))
    total = sum(counts.values())
    if not total:
        return None
    truth = Counter(tokens(gold.lower()))
    return 2 * sum(min(n, truth[w]) for w, n in counts.items()) < total


@dataclass
class Candidate:
    """One page's comment section: its set, group, signals, label and the thresholds' decision."""

    set_name: str
    group: str
    features: np.ndarray
    drops: bool | None
    rule_cuts: bool


def page_candidate(set_name: str, html: str, url: str | None, gold: str, group: str,
                   prm: Params) -> tuple[bool, Candidate | None]:
    """(the page gives lines, its candidate or None)."""
    doc = Document(html, url=url)
    pb = page_blocks(doc.tree, prm.region)
    if not pb.els:
        return False, None
    lines = page_lines(pb, prm)
    if not lines.texts:
        return False, None
    found = comment_candidate(doc, pb, lines, prm.comment_from_prose)
    if found is None:
        return True, None
    section, features = found
    prose = section & prose_lines(lines.features[:, _TOKENS], lines.features[:, _LINK_SHARE])
    rule = reader_comments(doc, pb, lines, prm.comment_prose_tokens, prm.comment_from_prose,
                           prm.comment_article_tokens, prm.comment_thread_template,
                           prm.comment_declared_article, prm.comment_markup_tokens)
    vector = np.array([features[n] for n in COMMENT_FEATURES], float)
    return True, Candidate(set_name, group, vector, gold_drops(lines.texts, prose, gold), bool(rule.any()))


def load_candidates(limit: int | None = None) -> tuple[list[Candidate], list[int]]:
    """The training sets' candidates and the fold of each (text_cv's folds)."""
    prm = Params()
    candidates, groups = [], []
    for set_name, record, html, group in load_corpus(TRAIN_SETS, limit):
        try:
            has_lines, candidate = page_candidate(set_name, html, record.get("url"),
                                                  record.get("body") or "", group, prm)
        except Exception as exc:  # a page we cannot parse teaches nothing
            print(f"skip {set_name}/{record['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        if has_lines:
            groups.append(group)
        if candidate is not None:
            candidates.append(candidate)
    fold_of = dict(zip(groups, group_folds(groups, FOLDS), strict=True))
    return candidates, [fold_of[c.group] for c in candidates]


def out_of_fold(candidates: list[Candidate], folds: list[int]) -> np.ndarray:
    """P(the gold drops the section) of every candidate, from weights fit on the other folds
    (on the candidates with a label)."""
    x = np.array([c.features for c in candidates])
    labelled = np.array([c.drops is not None for c in candidates])
    y = np.array([bool(c.drops) for c in candidates])
    fold = np.asarray(folds)
    prob = np.zeros(len(candidates))
    for k in range(FOLDS):
        train, test = labelled & (fold != k), fold == k
        if train.any() and test.any():
            prob[test] = index_probability(fit(x[train], y[train], RIDGE, balanced=False), x[test])
    return prob


def model(candidates: list[Candidate]) -> LogisticModel:
    """Weights fit on every labelled candidate."""
    rows = [c for c in candidates if c.drops is not None]
    mean, scale, weights, bias = fit(np.array([c.features for c in rows]),
                                     np.array([bool(c.drops) for c in rows]), RIDGE, balanced=False)
    return LogisticModel(COMMENT_FEATURES, tuple(mean.tolist()), tuple(scale.tolist()),
                         tuple(weights.tolist()), bias, THRESHOLD,
                         {"label": "gold drops the comment section", "ridge": RIDGE,
                          "sets": list(TRAIN_SETS), "pages": len(rows)})


def agreement_table(candidates: list[Candidate], prob: np.ndarray) -> list[list]:
    """Per set: candidates, labelled ones, gold-drops share, and how often the
    thresholds and the out-of-fold model agree with the label."""
    out = []
    for name in (*TRAIN_SETS, "all"):
        index = [i for i, c in enumerate(candidates)
                 if (name == "all" or c.set_name == name) and c.drops is not None]
        if not index:
            continue
        drops = [candidates[i].drops for i in index]
        rule = [candidates[i].rule_cuts == d for i, d in zip(index, drops, strict=True)]
        learned = [(prob[i] >= THRESHOLD) == d for i, d in zip(index, drops, strict=True)]
        count = sum(1 for c in candidates if name == "all" or c.set_name == name)
        out.append([name, count, len(index), sum(drops) / len(index),
                    sum(rule) / len(index), sum(learned) / len(index)])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help="write the model fit on every page here")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    require_datasets()
    candidates, folds = load_candidates(args.limit)
    prob = out_of_fold(candidates, folds)
    print_table(["set", "sections", "labelled", "gold drops", "thresholds right", "learned right (OOF)"],
                agreement_table(candidates, prob),
                title=f"Comment sections: the label against the thresholds and the {FOLDS}-fold grouped-CV model")
    if args.out:
        args.out.write_text(json.dumps(model(candidates).to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
