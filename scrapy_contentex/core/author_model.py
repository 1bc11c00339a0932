"""The authors, chosen among the names the page's author sources give by a small learned model.

A page names people in many places: JSON-LD and meta tags, ``itemprop`` and
``rel=author`` markup, labelled bylines ("By X", "Author: X", "作者：X"),
author cards, elements whose class says author, a forum post's user, a bare
name on the dateline. The ordered rule of :mod:`.metadata`
(:func:`~.metadata.rule_authors`) trusts them in a fixed order, and that
order was written from one set's misses. Here the names of every source the
rule read before it stopped become candidates (lists that start with the
same person merged, so the sources that agree are counted; the sources it
did not need stay unread, see :func:`~.metadata.author_candidates`), each
gets features (which sources state it, how many, whether the rule picked it, whether it reads as a person, a handle or
the site's name, whether and where the page prints it relative to the
headline), and a conditional logit scores them against one more option:
no author at all (many pages name nobody, and a name read off a list of
posts or a related story is a wrong answer too).

"No author" must beat the best name by a margin (in the model file) before
a name is withheld; training picks the smallest margin that keeps the
grouped-CV author accuracy within a point of the rule's, so the model takes
names away only where that costs the pages with an author nothing
measurable. ``training/train_authors.py`` fits the weights and the margin
(scrapy_contentex/models/authors.json); the file is read once per process,
on first use.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .lang import token_count
from .pagetype_model import LogisticModel
from .pagetype_model import load_model as load_logistic

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "authors.json"

# Where names were read (metadata.AUTHOR_SOURCES, in the rule's order), and the rule's own answer.
SOURCES = ("ld", "meta", "semantic", "zh_text", "byline", "card", "classes", "poster", "user_card",
           "dateline")
# What tells an article, which names its writer, from a page that names nobody.
PAGE_FACTS = ("dated", "ld_article", "og_article", "headline_printed")
# A Chinese labelled byline ("作者：X", "记者 X") is the same evidence as "By X" and shares its
# column: the training set (wcxb-dev) has no Chinese page, so a column of its own would keep
# a zero weight and leave Chinese bylines to the other features.
COLUMN = {"zh_text": "byline"}
COLUMNS = tuple(s for s in SOURCES if s not in COLUMN)
# Characters around the printed headline where a byline sits (metadata.BEFORE_TITLE, AFTER_TITLE).
BEFORE = 300
AFTER = 1500
# Occurrences of a name in the text counted, at most.
MAX_PRINTED = 5
_NON_WORD = re.compile(r"[\W_]+")


def key_of(name: str) -> str:
    """Comparison key of a name: case-folded, non-word runs made one space."""
    return _NON_WORD.sub(" ", name.casefold()).strip()


@dataclass
class AuthorCandidate:
    """One list of names (its first name is its identity) and the sources that give it."""

    names: list[str]
    sources: set[str] = field(default_factory=set)
    # A declared source says this is an organisation (JSON-LD Organization) or the site's name.
    organisation: bool = False


@dataclass
class PageContext:
    """What the features read besides the candidates: the page text, where its headline is
    printed, the rule's answer, and the page's "is this the site's name" test."""

    text: str
    span: tuple[int, int] | None
    headline: str | None
    is_site: Callable[[str], bool]
    # The rules' name tests: (written like a person's, holds a job word, a user handle).
    name_facts: Callable[[str], tuple[bool, bool, bool]]
    # Page facts the "no author" row reads (names as in PAGE_FACTS), 0 or 1.
    facts: dict[str, float] = field(default_factory=dict)
    # Lower-cased text, computed once.
    lowered: str = ""

    def __post_init__(self) -> None:
        self.lowered = self.text.casefold()


def merge(found: list[tuple[str, list[str], bool]]) -> list[AuthorCandidate]:
    """(source, names, organisation) in the order read -> candidates; lists with one first name merge.

    The merged candidate keeps the rule's list when the rule is among its
    sources, else the first list read (the most trusted source's).
    """
    out: dict[str, AuthorCandidate] = {}
    for source, names, organisation in found:
        if not names:
            continue
        key = key_of(names[0])
        cand = out.get(key)
        if cand is None:
            cand = out[key] = AuthorCandidate(list(names))
        elif source == "rule":
            cand.names = list(names)
        cand.sources.add(source)
        cand.organisation = cand.organisation or organisation
    return list(out.values())


def features(cands: list[AuthorCandidate], page: PageContext) -> list[dict[str, float]]:
    """One feature row per candidate, then one for "no author" (the last row).

    Page-level facts are the same for every candidate of a page and cancel in
    the choice; they enter through the "no author" row, which holds them as
    its own features (a page whose names all come from weak sources is more
    often a page with no author).
    """
    rows = [_candidate_row(cand, page) for cand in cands]
    rule = next((row for cand, row in zip(cands, rows, strict=True) if "rule" in cand.sources), None)
    declared = any(c.sources & {"ld", "meta", "semantic"} and not c.organisation for c in cands)
    none = dict.fromkeys(rows[0] if rows else _candidate_row(AuthorCandidate(["x"]), page), 0.0)
    none.update({
        "no_author": 1.0,
        "none_candidates": math.log1p(len(cands)),
        "none_declared_person": float(declared),
        "none_printed_near": float(any(r["near_headline"] for r in rows)),
        "none_strong": float(any(r["strong"] for r in rows)),
        **{f"none_{fact}": float(page.facts.get(fact, 0.0)) for fact in PAGE_FACTS},
        # The rule's answer, seen from the "no author" side: how it was read and where it sits.
        **{f"none_rule_{name}": rule[name] if rule else 0.0 for name in _RULE_FACTS},
    })
    for row in rows:
        row.update({k: 0.0 for k in none if k.startswith(("no_author", "none_"))})
    rows.append(none)
    return rows


# Features of the rule's answer the "no author" row holds too.
_RULE_FACTS = ("strong", "organisation", "site_name", "near_headline", "printed", "person_shape", "handle", "names")
_STRONG = frozenset({"ld", "meta", "semantic", "zh_text", "byline"})


def _candidate_row(cand: AuthorCandidate, page: PageContext) -> dict[str, float]:
    first = cand.names[0]
    person, _, handle = page.name_facts(first)
    key = first.casefold()
    pos = page.lowered.find(key) if key else -1
    count = 0
    if pos >= 0:
        count = min(MAX_PRINTED, page.lowered.count(key))
    offset = None
    if pos >= 0 and page.span:
        # Distance from the printed headline: negative above it, 0 inside, positive below.
        offset = pos - page.span[1] if pos >= page.span[1] else min(0, pos - page.span[0])
    unplaced = pos >= 0 and not page.span
    near = offset is not None and -BEFORE <= offset <= AFTER
    ranks = [SOURCES.index(s) for s in cand.sources if s in SOURCES]
    read = {COLUMN.get(s, s) for s in cand.sources}
    row = {f"from_{s}": float(s in read) for s in ("rule", *COLUMNS)}
    row.update({
        "sources": float(len(cand.sources - {"rule"})),
        "strong": float(bool(cand.sources & _STRONG)),
        "first_rank": min(ranks) / len(SOURCES) if ranks else 1.0,
        "organisation": float(cand.organisation),
        "site_name": float(page.is_site(first)),
        "names": math.log1p(len(cand.names)),
        "words": float(min(6, token_count(first))),
        "person_shape": float(person),
        "handle": float(handle),
        "job": float(any(page.name_facts(n)[1] for n in cand.names)),
        "printed": float(pos >= 0),
        "printed_count": math.log1p(count),
        "near_headline": float(near),
        "printed_unplaced": float(unplaced),
        "above_headline": float(offset is not None and offset < 0),
        # Unknown (not printed, or no printed headline to measure from): 0, and the indicators
        # "printed" and "printed_unplaced" say which; a far name is not an unplaced one.
        "log_offset": math.log1p(min(AFTER * 4, abs(offset))) if offset is not None else 0.0,
        "in_headline": float(bool(page.headline) and key in (page.headline or "").casefold()),
    })
    return row


def load_model(path: str | None = None) -> LogisticModel:
    """The shipped author model (or one at ``path``), read once per process (the page-type model's format)."""
    return load_logistic(str(path or MODEL_PATH))


def score(model: LogisticModel, row: dict[str, float]) -> float:
    """The option's score (the logit the model's probability is the sigmoid of)."""
    z = model.bias
    for name, m, s, w in zip(model.features, model.mean, model.scale, model.weights, strict=True):
        z += w * (row.get(name, m) - m) / s
    return z


def choose(cands: list[AuthorCandidate], rows: list[dict[str, float]], model: LogisticModel,
           margin: float | None = None) -> AuthorCandidate | None:
    """The best-scored candidate, or None when "no author" (the last row) beats it by ``margin``.

    ``margin`` (the model file's ``none_margin`` by default) is how much more
    likely "no author" must be than the best name for the name to be
    withheld; training chooses it so that pages with an author keep theirs.
    Ties among names go to the rule's answer, then to the earlier candidate.
    """
    if not cands:
        return None
    margin = float(model.meta.get("none_margin", 0.0)) if margin is None else margin
    scores = [score(model, row) for row in rows]
    best = max(range(len(cands)), key=lambda i: (scores[i], "rule" in cands[i].sources, -i))
    return None if scores[-1] - margin > scores[best] else cands[best]
