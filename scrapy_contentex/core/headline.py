"""The headline a reader sees, chosen among the page's candidates by a small learned model.

Sites state their headline several times and the copies disagree: the
``<h1>`` shows one wording, ``<title>`` carries another (often with the site
name), og:title and the JSON-LD ``headline`` a third. No fixed order of
trust is right: the ``<h1>`` is the shown headline on some pages and a
banner on others; the ``<title>`` is sometimes the only clean copy. So every
copy (and the site-name-free parts of ``<title>``) becomes a candidate, each
candidate gets a handful of features (which sources state it, how many agree,
whether the page prints it, its similarity to the other copies, how much of
the URL's slug it spells, its source crossed with the kind of page the
markup declares), and a linear score ranks them; the best-scored candidate is the headline. The
weights are a conditional logit's (a softmax over each page's candidates,
fit to choose the right one against the page's others), stored in the
logistic model's file format.

The rule-based choice of :mod:`.title` (seed 002 plus its refinements) is one
of the candidates and one of the features, so the model only has to learn
when to overrule it. ``training/train_headline.py`` fits the weights
(scrapy_contentex/models/headline.json, a few dozen numbers); the file is
read once per process, on first use. ``extract_title`` itself is unchanged:
the text algorithms compare blocks with it, and the body must not move when
the metadata improves.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .declared import ARTICLE, POSTING, THREAD, og_type, page_types
from .document import Document
from .lang import folded, token_count
from .pagetype_model import LogisticModel
from .pagetype_model import load_model as load_logistic
from .title import (
    MAX_CMP,
    SitePredicate,
    _headline_segments,
    clean_title,
    doc_title,
    extract_title,
    page_headings,
    segments,
    shown_text,
    similarity,
    site_test,
    strip_site_name,
    structured_headline,
)

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "headline.json"

# Sources a candidate may come from; each is a 0/1 feature.
SOURCES = (
    "rule", "h1_first", "h1_other", "h2", "og", "twitter", "ld", "ld_stripped", "og_stripped",
    "title", "title_first", "title_segment", "title_stripped",
)
# Headings looked at per level: the headline is among the first ones.
MAX_PER_LEVEL = 3
# Occurrences of a candidate in the visible text counted, at most.
MAX_PRINTED = 3
# Characters of a heading used as a reference to clean site names off titles.
MAX_REFERENCE = 2 * MAX_CMP

_NON_WORD = re.compile(r"[\W_]+")

# URL path segments read for a slug, from the end ("/2024/05/slug/", "/slug/12345").
SLUG_SEGMENTS = 2
# A slug needs at least this many word tokens (an id, a number or one word is no slug).
MIN_SLUG_WORDS = 2
_SLUG_SPLIT = re.compile(r"[-_.+,~=\s]+")
_EXTENSIONS = frozenset({"html", "htm", "shtml", "php", "asp", "aspx", "jsp", "cfm"})
# An id, not a word: digits only, or a run of 8+ letters and digits holding a digit (hashes, uuids).
_ID_RE = re.compile(r"^(?:\d+|(?=[a-z]*\d)[a-z0-9]{8,})$")


def _norm(text: str) -> str:
    """Comparison key: NFKC, case-folded, every run of non-word characters one space."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


@dataclass
class Candidate:
    """One wording of the headline and the sources that state it."""

    text: str
    sources: set[str] = field(default_factory=set)
    # The printed heading this candidate is the first part of ("A" of the shown
    # "A —— B"), set by :func:`features`; choosing the candidate shows it whole.
    whole: str | None = None

    @property
    def shown(self) -> str:
        """The text a choice of this candidate returns."""
        return self.whole or self.text


def ascii_fold(text: str) -> str:
    """Accents dropped: slugs write "café" as "cafe"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def slug_words(url: str | None) -> list[str]:
    """The URL's slug as word tokens, in order; [] when the URL has none.

    CMSs write the slug from the headline the editor typed ("/2024/05/seven-
    ways-to-grow-basil/"), so it says which copy of the headline is the
    article's own. The slug is the words of the path's last two segments
    (ids, numbers and file extensions are no words; reading only the
    wordiest segment measured worse, +2 pages against +7.5 over six fold
    draws); with fewer than two words (an id, a number, most Chinese pages)
    there is none and the slug features are 0 on every candidate: neutral.
    """
    if not url:
        return []
    path = unquote(urlsplit(url).path).casefold()
    parts = [p for p in path.split("/") if p][-SLUG_SEGMENTS:]
    words = [w for w in _SLUG_SPLIT.split(ascii_fold(" ".join(parts)))
             if w and w not in _EXTENSIONS and not _ID_RE.match(w)]
    return words if len(words) >= MIN_SLUG_WORDS else []


def _in_order(words: list[str], slug: list[str]) -> bool:
    """Two or more of the candidate's words are in the slug, in the candidate's order."""
    position = {w: i for i, w in enumerate(slug)}
    found = [position[w] for w in words if w in position]
    return len(found) >= MIN_SLUG_WORDS and found == sorted(found)


def slug_features(slug: list[str], cands: list[Candidate]) -> list[dict[str, float]]:
    """Per candidate: the share of the slug's words it holds, the share of its words the
    slug holds, whether they come in the slug's order, whether it covers the slug best
    of the page's candidates. Zeros when the URL has no slug."""
    names = ("slug_cover", "slug_precision", "slug_order", "slug_best")
    if not slug:
        return [dict.fromkeys(names, 0.0) for _ in cands]
    slug_set = set(slug)
    rows = []
    for cand in cands:
        words = ascii_fold(_norm(cand.shown)).split()
        shared = slug_set.intersection(words)
        rows.append({"slug_cover": len(shared) / len(slug_set), "slug_precision": len(shared) / max(1, len(set(words))),
                     "slug_order": float(_in_order(words, slug)), "slug_best": 0.0})
    best = max((row["slug_cover"] for row in rows), default=0.0)
    for row in rows:
        row["slug_best"] = float(best > 0 and row["slug_cover"] == best)
    return rows


# Source groups whose weight may differ with the page's declared kind.
KIND_SOURCES = {
    "h1": frozenset({"h1_first"}),
    "part": frozenset({"title_first", "title_segment", "title_stripped"}),
    "title": frozenset({"title"}),
    "social": frozenset({"og", "twitter", "ld", "og_stripped", "ld_stripped"}),
}
PAGE_KINDS = ("ld_article", "og_article", "undeclared")


def page_kind(doc: Document) -> str:
    """The kind the page declares: a JSON-LD type whose headline is the page's (an
    article, a post, a thread; WebPage alone is none), og:type article, or nothing.
    Both are parsed already (``doc.json_ld``, ``doc.meta``)."""
    if page_types(doc) & (ARTICLE | POSTING | THREAD):
        return "ld_article"
    if og_type(doc) == "article":
        return "og_article"
    return "undeclared"


def kind_features(kind: str, cands: list[Candidate]) -> list[dict[str, float]]:
    """The page's declared kind crossed with each candidate's source group.

    A page-level value alone cancels out of a choice among the page's
    candidates; crossed with the source, it lets the trust in the ``<h1>``
    or the ``<title>`` part differ between declared articles and the rest
    (service, listing and product pages, where the ``<h1>`` is often a slogan).
    """
    return [{f"{k}_x_{g}": float(k == kind and bool(c.sources & s)) for k in PAGE_KINDS
             for g, s in KIND_SOURCES.items()} for c in cands]


def candidates(doc: Document) -> list[Candidate]:
    """Every copy of the headline the page states, merged when they read the same.

    The first text seen for a wording is kept (the rule's own answer first).
    """
    tree, meta = doc.tree, doc.meta
    is_site = site_test(doc)
    found: dict[str, Candidate] = {}

    def add(text: str | None, source: str) -> None:
        text = clean_title(text or "")
        key = _norm(text)
        if not key or token_count(text) > 80:
            return
        found.setdefault(key, Candidate(text)).sources.add(source)

    add(extract_title(doc), "rule")
    levels: dict[int, list[str]] = {}
    for level, text in page_headings(doc):
        levels.setdefault(level, []).append(text)
    for number, text in enumerate(levels.get(1, [])[:MAX_PER_LEVEL]):
        add(text, "h1_first" if number == 0 else "h1_other")
    for text in levels.get(2, [])[:1]:
        add(text, "h2")
    # The references that clean a site name off a title: the top headings, cut to
    # the start a headline can match (a hostile 50 kB heading must not make every
    # comparison cost its length; sixty sidebar headings must not either).
    heading_texts = [t[:MAX_REFERENCE] for level in (1, 2) for t in levels.get(level, [])[:MAX_PER_LEVEL]]
    social = {"og": meta.get("og:title"), "twitter": meta.get("twitter:title"),
              "ld": structured_headline(tree, doc.json_ld)}
    for source, value in social.items():
        add(value, source)
    for source, value in (("og_stripped", social["og"]), ("ld_stripped", social["ld"])):
        if value and len(segments(value)) > 1:
            add(strip_site_name(clean_title(value), heading_texts, is_site), source)
    raw = doc_title(doc)
    if raw:
        add(raw, "title")
        parts = segments(raw)
        if len(parts) > 1:
            add(parts[0], "title_first")
            for part in _headline_segments(raw, is_site):
                add(part, "title_segment")
            add(strip_site_name(raw, heading_texts, is_site), "title_stripped")
    return list(found.values())


def features(doc: Document, cands: list[Candidate]) -> list[dict[str, float]]:
    """Feature values of each candidate (names as in the model file)."""
    meta = doc.meta
    is_site = site_test(doc)
    # Case-folded, blanks as printed: a C-speed search (normalising the whole
    # page text like the candidates cost more than the rest of the model).
    shown = f" {shown_text(doc)} "
    raw = doc_title(doc) or ""
    og = clean_title(meta.get("og:title") or "")
    h1 = next((c.text for c in cands if "h1_first" in c.sources), "")
    rule = next((c.text for c in cands if "rule" in c.sources), "")
    _mark_cut_headings(cands, raw, shown)
    title_has_site = float(any(is_site(p) for p in segments(raw))) if raw else 0.0
    rows = []
    for cand in cands:
        key = folded(cand.text)
        first = shown.find(f" {key} ")
        tokens = token_count(cand.text)
        row = {f"from_{s}": float(s in cand.sources) for s in SOURCES}
        row.update({
            "sources": float(len(cand.sources)),
            "log_tokens": math.log1p(tokens),
            "is_site": float(is_site(cand.text)),
            "printed": float(min(MAX_PRINTED, shown.count(f" {key} "))),
            "separators": float(len(segments(cand.text)) > 1 and not cand.sources & _HEADINGS),
            "heading_separators": float(len(segments(cand.text)) > 1 and bool(cand.sources & _HEADINGS)),
            "sim_title": similarity(cand.text, raw) if raw else 0.0,
            "sim_og": similarity(cand.text, og) if og else 0.0,
            "sim_h1": similarity(cand.text, h1) if h1 else 0.0,
            "sim_rule": similarity(cand.text, rule) if rule else 0.0,
            "first_at": first / len(shown) if first >= 0 else 1.0,
            "words_vs_title": tokens / max(1, token_count(raw)),
            "has_digit": float(any(map(str.isdigit, cand.text))),
            "cuts_heading": float(cand.whole is not None),
            "rest_is_site": float(_rest_is_site(cand.text, raw, is_site)),
            "title_has_site": title_has_site,
        })
        rows.append(row)
    for row, slug, kind in zip(rows, slug_features(slug_words(doc.url), cands),
                               kind_features(page_kind(doc), cands), strict=True):
        row.update(slug)
        row.update(kind)
    return rows


_HEADINGS = frozenset({"h1_first", "h1_other", "h2"})
# What follows a headline in "Headline — subtitle", "标题——副标题", "Headline: subtitle";
# not '|', '_', '/' or '>', which join breadcrumbs and site names.
_SUBTITLE_RE = re.compile(r"\s*(?:[-–—:：]|——)\s*\S")
# What ends the headline part before a subtitle ("Headline — " of "Headline — subtitle"),
# when the title segment is the subtitle: an editor's dash or a full-width colon.
# Not the spaced ASCII hyphen or colon: templates join "Forum node - Question" and
# "Blog: Post" with them, and there the part after it is the headline.
_HEAD_RE = re.compile(r"\S\s*(?:[–—：]|——)\s*$")


def _rest_is_site(text: str, raw_title: str, is_site: SitePredicate) -> bool:
    """The ``<title>`` is this text plus only the site's name ("Text | Site")."""
    if not raw_title or text == raw_title:
        return False
    parts = segments(raw_title)
    kept = segments(text)
    rest = [p for p in parts if p not in kept]
    return bool(rest) and len(rest) < len(parts) and all(is_site(p) for p in rest)


def _mark_cut_headings(cands: list[Candidate], raw_title: str, shown: str) -> None:
    """Set ``whole`` on candidates that are a part of a printed "headline — subtitle".

    A ``<title>`` segment ("A", or "B" after an editor's dash) cuts the
    heading "A — B" when the page prints that heading and the ``<title>``
    holds it whole: the site split its own title on the dash, the reader sees
    "A — B". Chinese agencies write "标题——副标题" the same way.
    """
    title_key = f" {_norm(raw_title)} " if raw_title else ""
    if not title_key:
        return
    headings = [c.text for c in cands if c.sources & _HEADINGS and f" {_norm(c.text)} " in title_key
                and f" {folded(c.text)} " in shown]
    for cand in cands:
        if cand.sources & _HEADINGS:
            continue
        part = cand.text.casefold()
        cand.whole = next((h for h in headings
                           if h.casefold().startswith(part) and _SUBTITLE_RE.match(h, len(cand.text))
                           or h.casefold().endswith(part) and _HEAD_RE.search(h, 0, len(h) - len(cand.text))),
                          None)


def load_model(path: str | None = None) -> LogisticModel:
    """The shipped headline model (or one at ``path``), read once per process by
    the page-type model's cached loader (the same file format)."""
    return load_logistic(str(path or MODEL_PATH))


def choose(cands: list[Candidate], rows: list[dict[str, float]], model: LogisticModel) -> str | None:
    """The best-scored candidate's text; ties go to the earlier candidate (the rule's first)."""
    if not cands:
        return None
    scores = [model.index_probability(row) for row in rows]
    best = max(range(len(cands)), key=lambda i: (scores[i], -i))
    return cands[best].shown


def extract_headline(doc: Document, model: LogisticModel | None = None) -> str | None:
    """The headline a reader sees: the model's choice among the page's candidates."""
    cands = candidates(doc)
    return choose(cands, features(doc, cands), model or load_model())
