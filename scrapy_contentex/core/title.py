"""Headline of an article page (seed 002, TWCEM, section III-B).

The seed takes the meta title (``<title>``) and every ``<h1>``..``<h6>`` text
as candidates and keeps the heading at the smallest edit distance from the
meta title; with no headings it falls back to elements whose id/class marks a
title. The meta title alone is a poor answer because sites append their name
("Headline - Site", "标题_新浪网"), and a heading alone is a poor answer
because pages carry site logos, section names and sidebar headings in
``<h1>``..``<h6>``. Comparing the two keeps the part they agree on.

Improvements over the seed, kept because they are general:

* the references are the ``<title>`` *and* its separator-split segments, plus
  ``og:title``/``twitter:title`` and the JSON-LD ``headline`` of an article
  object, so "Headline | Site" still matches the heading "Headline" exactly;
* a heading must be similar enough to a reference to win, otherwise the page's
  own structured headline (or the cleaned ``<title>``) is returned;
* site-name suffixes are removed from ``<title>`` by keeping the segment that
  other sources agree with, else the longest one;
* the site's own name (og:site_name, JSON-LD WebSite/publisher, the URL's
  host label, a short last ``<title>`` segment) is never the headline, so the
  logo heading loses to the article's;
* a badge glued before the heading ("Question", a forum node) is dropped when
  the ``<title>`` confirms the rest.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from copy import deepcopy
from functools import lru_cache
from urllib.parse import urlsplit

from lxml.html import HtmlElement
from rapidfuzz.distance import Levenshtein

from .declared import ARTICLE, POSTING, THREAD, WEB_PAGE, object_types
from .document import Document
from .lang import folded, normalize_space, token_count
from .structured import json_ld_objects, types_of

# Longest string we compare with edit distance: headlines are short; anything
# longer is cut so a hostile 1 MB <title> costs at most MAX_CMP**2 steps.
MAX_CMP = 160
# How many headings we consider (pages can have thousands of h-tags).
MAX_HEADINGS = 60
# A heading must reach this similarity with a reference title to be chosen.
MIN_SIMILARITY = 0.6
# An <h1> this similar to the <title>'s headline part rewords it (see shown_headline).
# None turns the rule off (the seed's choice alone); the benchmark's --cv chooses
# it by cross-validation grouped by domain.
H1_MIN_SIMILARITY: float | None = 0.3
# Candidates longer than this many tokens are not titles ("abnormal" strings).
MAX_TITLE_TOKENS = 80

#: Objects whose headline (or name) is the page's headline: an article or post, a thread or
#: Q&A (its question is the page's heading), and the generic WebPage, whose name sites fill
#: with the page's title. Not an answer or a comment: their names are replies'.
HEADLINE_TYPES = ARTICLE | POSTING | THREAD | WEB_PAGE

# Separators between a headline and a site/section name. Spaced separators are
# safe in any script; unspaced '|' is a separator too, and so is an unspaced '_'
# except inside a Latin identifier ("rustc_codegen_gcc", "ngx_http_rewrite"); an unspaced dash
# only between CJK characters ("标题-新浪新闻"), never inside English words.
# Han and kana only: Korean puts spaces around separators and uses '-' inside names.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
SEPARATOR_RE = re.compile(
    r"\s+(?:[-–—|:»·•~]|::|\|\|)\s+"
    r"|\s*[|｜]\s*|\s+_\s*|_\s+|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"
    rf"|(?<=[{_CJK}）)”’」』》】])\s*[-–—]+\s*(?=[{_CJK}（(“‘「『《【])"
    r"|\s*[—–]{2}\s*"
)


def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance (insert, delete, substitute all cost 1), seed 002 eq. (1).

    Computed by rapidfuzz (bit-parallel C++): a pure-Python dynamic programme
    was a fifth of the whole metadata step. Inputs are cut to MAX_CMP
    characters so the cost is bounded whatever the page holds. With
    ``limit``, any distance above it is returned as ``limit + 1``: most
    headings of a page are nowhere near the title, and rapidfuzz stops early
    on them.
    """
    a, b = a[:MAX_CMP], b[:MAX_CMP]
    if limit is None:
        return Levenshtein.distance(a, b)
    distance = Levenshtein.distance(a, b, score_cutoff=limit)
    return min(distance, limit + 1)


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """1 - normalised edit distance, case- and blank-insensitive, in [0, 1].

    Values below ``floor`` are not computed exactly (0.0 is returned), which
    lets callers that only want the best match skip hopeless pairs.
    """
    a, b = _key(a), _key(b)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    longest = max(len(a[:MAX_CMP]), len(b[:MAX_CMP]))
    limit = int((1.0 - floor) * longest + 1e-9) if floor > 0 else None
    distance = levenshtein(a, b, limit)
    if limit is not None and distance > limit:
        return 0.0
    return 1.0 - distance / longest


_KEY_DROP_RE = re.compile(r"[\s\"'“”‘’「」『』《》]+")
# Longest text whose key is memoised (headlines are short; a hostile heading
# must not pin megabytes in the memo).
_KEY_MEMO_CHARS = 500


def _key(text: str) -> str:
    """Comparison form: lower case, no blanks, no quotes that sites restyle.

    Memoised for short texts: the title rule and the headline model compare
    the same few dozen strings of a page pairwise (tens of thousands of
    calls per hundred pages), and each key is a case fold plus a regex pass.
    """
    if len(text) > _KEY_MEMO_CHARS:
        return _key_of(text)
    return _memo_key(text)


def _key_of(text: str) -> str:
    return _KEY_DROP_RE.sub("", text.casefold())


_memo_key = lru_cache(maxsize=4096)(_key_of)


# Titles are short; a hostile one is cut before splitting so work stays bounded.
MAX_TITLE_CHARS = 400


def segments(title: str) -> list[str]:
    """Split a page title on site-name separators; empty pieces dropped."""
    return [p.strip() for p in SEPARATOR_RE.split(title[:MAX_TITLE_CHARS]) if p and p.strip()]


SitePredicate = Callable[[str], bool]


def _never(text: str) -> bool:
    return False


def strip_site_name(
    title: str, references: Iterable[str] = (), is_site: SitePredicate = _never
) -> str:
    """Remove " - Site", "Site | ", "_新浪网" parts from a page title.

    The segment (or run of adjacent segments) closest to one of the references
    wins when it is clearly similar; otherwise the longest segment, because a
    site or section name is shorter than the headline in the vast majority of
    titles. A title without separators is returned unchanged.
    """
    title = normalize_space(title)
    parts = segments(title)
    if len(parts) <= 1:
        return title
    refs = [r for r in references if r]
    headline_like = set(_headline_segments(title, is_site))
    spans = [
        (i, j)
        for i in range(len(parts))
        for j in range(i + 1, min(len(parts), i + 3) + 1)
        if headline_like.intersection(parts[i:j])
    ]
    if refs:
        best, best_sim = None, 0.0
        for i, j in spans:
            piece = " ".join(parts[i:j])
            sim = max(similarity(piece, r) for r in refs)
            if sim > best_sim:
                best, best_sim = _rejoin(title, parts[i], parts[j - 1]), sim
        if best is not None and best_sim >= MIN_SIMILARITY:
            return best
    pool = [p for p in parts if not is_site(p)] or parts
    return max(pool, key=lambda p: (token_count(p), -parts.index(p)))


def _rejoin(title: str, first: str, last: str) -> str:
    """The original substring from ``first`` to ``last`` (separators kept)."""
    start = title.find(first)
    end = title.find(last, start) + len(last)
    return title[start:end] if start >= 0 and end >= start else first


def _text(element: HtmlElement) -> str:
    """Element text on one line (headings split over lines by markup are one title).

    A ``<br>`` is a space: "Cosmetic Packaging<br>Design" reads as three words,
    where ``text_content()`` glues "PackagingDesign".
    """
    if element.find(".//br") is None:
        return clean_title(element.text_content())
    copy = deepcopy(element)  # a heading is small; the page's tree stays untouched
    for br in copy.iter("br"):
        br.tail = " " + (br.tail or "")
    return clean_title(copy.text_content())


# An entity left escaped by a template that escaped twice ("Finance &amp;amp; ...").
_ENTITY_RE = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,6}|#x[0-9a-fA-F]{2,5});")
# Invisible format characters (BOM, zero-width space/joiners, soft hyphen) pages leave in titles.
_INVISIBLE_RE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")


def clean_title(text: str) -> str:
    """One line, entities a template escaped twice decoded, invisible characters removed."""
    if "&" in text and _ENTITY_RE.search(text):
        text = html.unescape(text)
    return " ".join(_INVISIBLE_RE.sub("", text).split())


def page_title(tree: HtmlElement) -> str | None:
    """The ``<title>`` of the head (the seed's "meta title").

    The head is searched first: walking a whole tree for ``title`` (svg
    icons carry them too) cost more than the rest of the lookup. The first
    non-empty one in document order is the same either way.
    """
    head = tree.find("head")
    for element in () if head is None else head.iter("title"):
        text = _text(element)
        if text:
            return text
    for element in tree.iter("title"):
        text = _text(element)
        if text:
            return text
    return None


def doc_title(doc: Document) -> str | None:
    """``page_title`` of the Document's tree, read once: the title rule and the
    headline model's candidates and features all start from it."""
    return doc.memo("page_title", lambda: page_title(doc.tree))


def structured_headline(tree: HtmlElement, objects: list[dict] | None = None) -> str | None:
    """JSON-LD ``headline`` (or ``name``) of the first article-like object."""
    for obj in json_ld_objects(tree) if objects is None else objects:
        if not object_types(obj) & HEADLINE_TYPES:
            continue
        for key in ("headline", "name"):
            value = obj.get(key)
            if isinstance(value, str) and clean_title(value):
                return clean_title(value)
    return None


def heading_elements(tree: HtmlElement) -> list[tuple[int, str, HtmlElement]]:
    """(level, text, element) of the h1..h6 elements in document order, abnormal ones dropped
    (training/headline_features.py reads where each heading sits)."""
    found: list[tuple[int, str, HtmlElement]] = []
    for element in tree.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        text = _text(element)
        if _plausible(text):
            found.append((int(element.tag[1]), text, element))
            if len(found) >= MAX_HEADINGS:
                break
    return found


def headings(tree: HtmlElement) -> list[tuple[int, str]]:
    """(level, text) of the h1..h6 elements in document order, abnormal ones dropped."""
    return [(level, text) for level, text, _ in heading_elements(tree)]


def page_headings(doc: Document) -> list[tuple[int, str]]:
    """``headings`` of the Document's tree, computed once (the rule and the headline model both read them)."""
    return doc.memo("headings", lambda: headings(doc.tree))


def _plausible(text: str | None) -> bool:
    """Not empty, not a paragraph, not punctuation-only (the seed's abnormal strings)."""
    if not text:
        return False
    n = token_count(text)
    return 0 < n <= MAX_TITLE_TOKENS


def id_class_title(tree: HtmlElement) -> str | None:
    """Seed fallback: [id^=title], [id$=title], [class^=title] elements' text."""
    for element in tree.xpath(
        "//body//*[contains(translate(@id,'TITLE','title'),'title')"
        " or contains(translate(@class,'TITLE','title'),'title')]"
    ):
        ident = (element.get("id") or "").strip().lower()
        klass = (element.get("class") or "").strip().lower()
        if ident.startswith("title") or ident.endswith("title") or klass.startswith("title"):
            text = _text(element)
            if _plausible(text):
                return text
    return None


def _headline_segments(title: str, is_site: SitePredicate = _never) -> list[str]:
    """Segments long enough to be the headline part (site names are the short ones).

    Matching a heading against a short "Site" segment would pick the logo
    heading of the page, so only segments at least half as long as the longest
    one are kept, plus the first segment whatever its length: "Headline -
    Section - Site" is by far the most common order ("夜雨_原文、翻译及赏析_...").
    """
    parts = segments(title)
    if len(parts) <= 1:
        return []
    first = parts[0]
    parts = [p for p in parts if not is_site(p)] or parts
    sizes = [token_count(p) for p in parts]
    if len(parts) > 1 and parts[0] == first and sizes[-1] < sizes[0]:
        # "Headline | Section | Site Name": a last part shorter than the first is the site.
        parts, sizes = parts[:-1], sizes[:-1]
    top = max(sizes)
    return [p for p, n in zip(parts, sizes, strict=True) if n * 2 >= top or p == first]


def choose_heading(
    candidates: list[tuple[int, str]], references: list[str], is_site: SitePredicate = _never
) -> tuple[str, float] | None:
    """The heading at minimum edit distance from a reference (seed Algorithm 2).

    Each reference is compared whole and by its separator segments, so a
    site-name suffix does not count against the heading. Ties go to the higher
    heading level, then to the earlier heading.
    """
    if not candidates or not references:
        return None
    variants: list[str] = []
    for ref in references:
        variants.append(ref)
        variants.extend(_headline_segments(ref, is_site))
    variants = list(dict.fromkeys(v for v in variants if v))
    best: tuple[float, int, int, str] | None = None
    floor = MIN_SIMILARITY / 2  # anything below cannot matter: it loses to the fallbacks
    for order, (level, text) in enumerate(candidates):
        if is_site(text):
            continue  # the logo heading matches the site-name part of <title>
        sim = 0.0
        for variant in variants:
            sim = max(sim, similarity(text, variant, max(floor, sim)))
        key = (sim, -level, -order, text)
        if best is None or key[:3] > best[:3]:
            best = key
            floor = max(floor, sim)
    return (best[3], best[0]) if best else None


# Host labels that say nothing about the site's name.
_GENERIC_LABELS = frozenset(
    "www m mobile wap bbs forum forums blog blogs news en zh cn home web www2 amp "
    "com net org gov edu info biz co ac".split()
)


def site_names(
    tree: HtmlElement, meta: dict[str, str], objects: list[dict] | None = None
) -> list[str]:
    """Names the page gives its site: og:site_name, application-name, JSON-LD WebSite/publisher."""
    names = [meta.get(k, "") for k in ("og:site_name", "application-name", "apple-mobile-web-app-title")]
    for obj in json_ld_objects(tree) if objects is None else objects:
        kinds = types_of(obj)
        if kinds & {"WebSite", "Organization", "NewsMediaOrganization"}:
            names.append(obj.get("name") if isinstance(obj.get("name"), str) else "")
        publisher = obj.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(publisher["name"])
    return list(dict.fromkeys(normalize_space(n) for n in names if n and normalize_space(n)))


def host_label(url: str | None) -> str | None:
    """The distinctive label of the URL's host: forums.debian.net -> 'debian'."""
    if not url:
        return None
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return None
    labels = [x for x in host.lower().split(".") if x]
    while labels and (len(labels[-1]) <= 3 or labels[-1] in _GENERIC_LABELS):
        labels.pop()
    labels = [x for x in labels if x not in _GENERIC_LABELS]
    return labels[-1] if labels and len(labels[-1]) >= 4 else None


def site_predicate(names: list[str], host: str | None) -> SitePredicate:
    """A test for "this text is the site's name", from declared names and the host.

    A short text that starts or ends with the host label ("Debian User Forums"
    on forums.debian.net) or that matches a declared site name is the site,
    not the article.
    """
    keys = [_key(n) for n in names if _key(n)]
    # The headline rule, the model's features and the author step ask about
    # the same few dozen texts of a page thousands of times per hundred
    # pages: each answer is kept (the predicate lives as long as its page).
    answers: dict[str, bool] = {}

    def is_site(text: str) -> bool:
        answer = answers.get(text)
        if answer is None:
            answer = answers[text] = _is_site(text)
        return answer

    def _is_site(text: str) -> bool:
        key = _key(text)
        if not key:
            return False
        if any(key == k or similarity(key, k, 0.8) >= 0.8 for k in keys):
            return True
        return bool(host) and token_count(text) <= 5 and (key.startswith(host) or key.endswith(host))

    return is_site


def site_test(doc: Document) -> SitePredicate:
    """The page's "is this the site's name" test, built once per Document (and URL).

    The headline rule, the headline model and the author step all ask it.
    """
    return doc.memo(
        "site_test",
        lambda: site_predicate(site_names(doc.tree, doc.meta, doc.json_ld), host_label(doc.url)),
        by_url=True,
    )


def _trim_heading(heading: str, references: list[str], is_site: SitePredicate) -> str:
    """Drop a badge glued before the heading ("Question Social login ...", "Ruby Ruby：...").

    When a title segment ends the heading and what is left before it is a
    word or two with no separator (a label or a forum node name, not the part
    of a headline after a dash), the segment is the headline.
    """
    for ref in references:
        for part in [ref, *_headline_segments(ref, is_site)]:
            if part == heading or not heading.endswith(part):
                continue  # only a leading badge: a shorter reference may be a truncated headline
            rest = heading[: -len(part)].strip()
            if token_count(rest) <= 2 and not SEPARATOR_RE.search(f" {rest} ") and not re.search(
                r"[-–—|:：·»]", rest
            ):
                return part
    return heading


def extract_title(doc: Document) -> str | None:
    """The article headline, or None when the page offers nothing title-like.

    Metadata, the text algorithms and the product extractor all ask for it:
    it is computed once per Document (and URL, which the site test reads).
    """
    return doc.memo("title", lambda: _extract_title(doc), by_url=True)


def shown_headline(
    doc: Document,
    candidates: list[tuple[int, str]],
    raw_title: str | None,
    social: list[str],
    is_site: SitePredicate,
) -> str | None:
    """The ``<h1>`` or the ``<title>``'s headline part, when the two disagree.

    Sites write one headline for search engines (``<title>``) and show
    another (``<h1>``). The reader sees the ``<h1>``; the edit-distance
    choice of the seed favours whatever heading resembles the ``<title>``,
    often an ``<h2>`` or a FAQ heading. The ``<h1>`` is the headline when the
    page's own og:title/twitter:title says it is, or when it is a rewording
    of the ``<title>`` headline (similarity at least ``H1_MIN_SIMILARITY``)
    and that headline is not printed elsewhere on the page. Otherwise the
    ``<h1>`` is a tagline, a section name or a banner, and the ``<title>``
    headline is the one to keep.

    Returns None when there is no ``<h1>`` or no ``<title>``, or when they
    agree: the seed's choice then decides.
    """
    if H1_MIN_SIMILARITY is None:
        return None
    h1s = [t for level, t in candidates if level == 1 and not is_site(t)]
    if not h1s or not raw_title or not _plausible(raw_title):
        return None
    told = strip_site_name(raw_title, [t for _, t in candidates], is_site)
    ranked = sorted(h1s, key=lambda t: -similarity(t, told))
    h1 = ranked[0] if similarity(ranked[0], told) >= H1_MIN_SIMILARITY else h1s[0]
    if _key(h1) == _key(told):
        return None
    declared = {_key(p) for value in social if value for p in (value, *segments(value))}
    if _key(h1) in declared:
        return h1
    if similarity(h1, told) >= H1_MIN_SIMILARITY and not _printed_besides(doc, told, h1s):
        return h1
    return told


def _printed_besides(doc: Document, text: str, h1s: list[str]) -> bool:
    """Whether ``text`` is printed on the page more often than inside its ``<h1>``s."""
    key = text.casefold()
    inside = sum(folded(h).count(key) for h in h1s)
    return shown_text(doc).count(folded(text)) > inside


def shown_text(doc: Document) -> str:
    """The page's visible text, :func:`~.lang.folded`, once per Document:
    the title rule and the headline model both look headings up in it."""
    return doc.memo("shown_text", lambda: folded(doc.visible_text))


def _extract_title(doc: Document) -> str | None:
    tree = doc.tree
    meta = doc.meta
    raw_title = doc_title(doc)
    social = [clean_title(meta.get(k, "")) for k in ("og:title", "twitter:title")]
    ld = structured_headline(tree, doc.json_ld)
    references = [r for r in (ld, *social, raw_title) if r]
    is_site = site_test(doc)

    candidates = page_headings(doc)
    shown = shown_headline(doc, candidates, raw_title, social, is_site)
    if shown:
        return _trim_heading(shown, references, is_site)
    chosen = choose_heading(candidates, references, is_site)
    if chosen and chosen[1] >= MIN_SIMILARITY:
        return _trim_heading(chosen[0], references, is_site)

    # Structured headlines are the publisher's own; clean a site suffix off them
    # only when the <title> or a heading confirms a shorter form.
    heading_texts = [t for _, t in candidates]
    for value in (ld, *social):
        if value and _plausible(value) and not is_site(value):
            return strip_site_name(value, heading_texts, is_site) if len(segments(value)) > 1 else value
    if raw_title and _plausible(raw_title):
        return strip_site_name(raw_title, heading_texts, is_site)
    fallback = id_class_title(tree)
    if fallback:
        return fallback
    if candidates:
        return min(candidates, key=lambda c: c[0])[1]
    return None


def title_text(doc: Document) -> str:
    """The headline, else the raw ``<title>`` text: what seeds 000 and 002 compare with."""
    title = extract_title(doc)
    if title:
        return title
    element = doc.tree.find(".//title")
    return normalize_space(element.text_content()) if element is not None else ""
