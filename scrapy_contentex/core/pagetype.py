"""Index or content page: logical link blocks (seed 004) and a learned decision.

One forward scan (:mod:`.linkblocks`) finds the page's logical link blocks
and counts its visible text, without a tree. The seed observes that index
pages are links almost everywhere while a content page is mostly one text
region framed by link blocks; on real pages (shops, forums, heavy news
navigation) that alone is not enough, so the scan's figures are joined by a
few more, read from what the scan already produced (its links and their
targets, the visible text, the markup without scripts, the ld+json
scripts) rather than from new passes over the page, which cost about as
much as the scan itself:

* link blocks: the largest text region's share of the page, LCR, CCR, the
  blocks' count and sizes, headline-sized links, teaser-sized gaps, the
  share of text in link-headed teaser records, and whether any run of text
  between links is as long as prose;
* markup: headings, paragraphs, a reply form, pagination;
* declared types: Open Graph (in the head), JSON-LD and microdata;
* listing marks: prices and dates in the visible text, links without text
  (image tiles), links whose target names one content page;
* the page URL's shape (fetched URL, else canonical / og:url).

:mod:`.pagetype_model` weighs these 44 numbers (a logistic regression fitted
by ``training/train_pagetype.py``, cross-validated by domain) into ``score``,
the confidence that the page is an index page; ``probability`` (1 - score)
is the confidence that it is a content page, and ``label`` is "index" when
``score`` reaches the threshold (the model's default, or
``PageTypeParams.threshold``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter, or_

import numpy as np

from .declared import (
    ARTICLE,
    LIST_PAGE,
    MEDIA,
    OG_PRODUCT,
    OG_WEBSITE,
    ONE_PRODUCT,
    POSTING,
    QUESTION,
    THREAD,
)
from .document import Document
from .linkblocks import LinkBlock, LinkBlockScan, find_link_blocks

# Default d_t per distance: text units vs characters of attribute-free markup.
DEFAULT_MAX_DISTANCE = {"text": 20, "code": 80}


@dataclass
class PageTypeParams:
    """Every knob of the page-type decision.

    ``min_links`` is the seed's C_t, ``max_distance`` its d_t (``None``: 20
    text units, or 80 characters with ``distance="code"``). The shipped model
    was fitted with text distance, C_t=2, d_t=20; other values change the
    block features it reads. ``threshold`` is the cut on the index
    probability (``None``: the model's default, chosen by grouped
    cross-validation); ``model`` a path to another model JSON.
    """

    min_links: int = 2
    max_distance: int | None = None
    distance: str = "text"
    threshold: float | None = None
    model: str | None = None

    def resolved_distance(self) -> int:
        if self.max_distance is not None:
            return int(self.max_distance)
        return DEFAULT_MAX_DISTANCE.get(self.distance, 20)


@dataclass
class PageTypeResult:
    """The decision and the figures behind it.

    ``score`` is the confidence (0..1) that the page is an index page and
    ``probability`` (= 1 - score) that it is a content page; ``label`` is
    "index" when ``score`` reaches the threshold. ``lcr`` and ``ccr`` are the
    seed's link and code coverage ratios, ``blocks`` the logical link blocks
    (offsets into the decoded HTML), ``links`` the number of links,
    ``features`` every value the model read.
    """

    label: str
    score: float
    lcr: float
    ccr: float
    blocks: list[LinkBlock] = field(default_factory=list)
    links: int = 0
    region_share: float = 0.0
    declared: int = 0
    probability: float = 0.0
    threshold: float = 0.5
    features: dict[str, float] = field(default_factory=dict)
    scan: LinkBlockScan | None = field(default=None, repr=False)


# --- declared type ------------------------------------------------------------

_OG_TYPE_RE = re.compile(
    r"""<meta\b[^<>]*?(?:property|name)\s*=\s*["']?og:type\b[^<>]*>""", re.I
)
_CONTENT_ATTR_RE = re.compile(r"""\bcontent\s*=\s*["']?\s*([^"'\s>]+)""", re.I)
_LD_TYPE_RE = re.compile(r""""@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?(\w+)\"""")
# Types of a page about one thing: an article or post, a thread, a Q&A page, a
# product, a recipe, a video. Not a Question alone: FAQ pages declare many (a
# page's one question counts in _one_subject). The Product type itself, not its
# family: shops' category pages declare one ProductGroup for what they list (with
# the family, collection pages of wcxb-dev read as content; grouped CV lost index pages).
_LD_CONTENT = ARTICLE | POSTING | (THREAD - QUESTION) | ONE_PRODUCT | MEDIA
_LD_INDEX = LIST_PAGE
# The subject of a page about one thing: a product, a Q&A page or question, a
# discussion thread (JSON-LD or microdata types).
_SUBJECT_TYPES = THREAD | ONE_PRODUCT


_MD_TYPE_RE = re.compile(r'itemtype\s*=\s*["\']?https?://schema\.org/(\w+)')


def declared_type(html: str) -> int:
    """+1 when the page declares itself an article/product, -1 a site or list page, else 0.

    Open Graph first (the tag sites fill for link previews, so it reflects
    what the page is), then JSON-LD types, then microdata content types (its
    list types are left out: sidebars use them as often as list pages); a
    JSON-LD list type wins over article types because list pages embed their
    articles as items. One exception to
    Open Graph: shop and forum systems type every page "website", and a page
    that declares one product, Q&A page, question or discussion (JSON-LD or
    microdata, none of these types twice) is about that subject; a list page
    declares many of one kind.
    """
    return _declared(og_type(html), *schema_types(html))


def og_type(html: str, end: int | None = None) -> str | None:
    """The page's og:type value, lowercased ("" when the tag has no value), or None.

    Found by a literal search in ``html[:end]`` and read inside its tag only.
    (A compiled literal pattern: on pages with non-Latin-1 text, which is
    nearly all, it finds a string several times faster than ``str.find``.)
    """
    end = len(html) if end is None else end
    for mark in _OG_MARKS:
        m = mark.search(html, 0, end)
        while m is not None:
            at = m.start()
            tag = _OG_TYPE_RE.match(html, html.rfind("<", 0, at))
            if tag is not None and tag.end() > at:
                c = _CONTENT_ATTR_RE.search(tag.group(0))
                return c.group(1).lower() if c else ""
            m = mark.search(html, at + 1, end)
    return None


_OG_MARKS = tuple(re.compile(mark) for mark in ("og:type", "OG:TYPE", "og:Type"))
_BODY_MARKS = (re.compile("<body"), re.compile("<BODY"))


def _head_end(html: str) -> int:
    """Where the body starts (the end of the head, where meta tags are), else the page's end."""
    for mark in _BODY_MARKS:
        m = mark.search(html)
        if m is not None:
            return m.start()
    return len(html)


def schema_types(html: str) -> tuple[list[str], list[str]]:
    """schema.org types the page declares: (JSON-LD ``@type`` values, microdata ``itemtype`` ones).

    Names as written: the page-type model was trained on names in schema.org's case.
    Read case-insensitively, as ``declared`` reads them, its inputs changed on 11
    training pages instead of 4 (the NewsArticle subtypes its old list lacked), and the
    model refitted on them read 14 more held-out dragnet pages as index; on 4 pages
    the shipped model stays.
    """
    ld = _LD_TYPE_RE.findall(html) if '"@type"' in html else []
    md = _MD_TYPE_RE.findall(html) if "itemtype" in html else []
    return ld, md


def _declared(og: str | None, ld_types: list[str], md_types: list[str]) -> int:
    if og:
        if og != OG_WEBSITE:
            return 1
        return 1 if _one_subject(ld_types, md_types) and not _LD_INDEX.intersection(ld_types) else -1
    types = set(ld_types)
    if types & _LD_INDEX:
        return -1
    # microdata content types too; its list types mark sidebars as often as lists
    types.update(md_types)
    if types & _LD_CONTENT or _one_subject(ld_types, md_types):
        return 1
    return 0


def _one_subject(ld_types: list[str], md_types: list[str]) -> bool:
    """A Product, QAPage, Question or DiscussionForumPosting declared (JSON-LD or
    microdata), none of them twice: a Q&A page declares its page and its one
    question, a list page declares many of one kind."""
    counts = Counter(t for t in ld_types if t in _SUBJECT_TYPES)
    counts.update(t for t in md_types if t in _SUBJECT_TYPES)
    return bool(counts) and max(counts.values()) == 1


# --- features -----------------------------------------------------------------

# Class values, for repeated sibling records (cards, tiles, teasers share one).
# Each pattern below opens with a literal, which the regex engine finds fast.
# Headings and paragraphs in one pass: the search jumps from "<" to "<" in C
# and fails at once on any other tag; the group tells a heading ("h") from a
# paragraph (""). Upper-case headings are left out (no change on the grouped
# CV); upper-case paragraphs are not (old pages, often lists).
_HEADING_PARAGRAPH_RE = re.compile(r"<(?:(h)[1-6]|[pP])(?=[\s>/])")
# Pagination: "page=" or "/page/" in a link target, 下一页 / 下页 (next page) in
# the text; each pattern opens with a literal, found by a fast search.
_PAGE_HREF_RE = re.compile(r"page(?:=|(?<=/page)/)")
_NEXT_PAGE_RE = re.compile(r"下一?页")
_CANONICAL_RE = re.compile(
    r"""<link\b[^<>]*\brel\s*=\s*["']?canonical\b[^<>]*>|<meta\b[^<>]*og:url\b[^<>]*>""", re.I
)
_HREF_VALUE_RE = re.compile(r"""\b(?:href|content)\s*=\s*["']?\s*(https?://[^"'\s<>]+)""", re.I)
_DATE_PATH_RE = re.compile(r"/(?:19|20)\d\d[/-]?(?:0?[1-9]|1[0-2])(?:[/-]|\b)")
_DIGITS_RE = re.compile(r"\d{4,}")


def page_url(doc_url: str | None, html: str) -> str | None:
    """The page's URL: the one it was fetched from, else its canonical or og:url."""
    if doc_url:
        return doc_url
    m = _CANONICAL_RE.search(html)
    if m:
        v = _HREF_VALUE_RE.search(m.group(0))
        if v:
            return v.group(1)
    return None


def url_features(url: str | None) -> dict[str, float]:
    """The URL's shape, general to any site: how deep, and whether the last
    segment names one thing (a long number, a date in the path, a slug of
    several words, a file ending) or a section (the root, a short word)."""
    from urllib.parse import urlsplit

    if not url:
        return dict.fromkeys(URL_FEATURES, 0.0)
    try:
        parts = urlsplit(url)
    except ValueError:
        return dict.fromkeys(URL_FEATURES, 0.0)
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    stem = last.rsplit(".", 1)[0] if "." in last else last
    # the words of the path (and query keys) that say "list" or "one item"
    words = {w for seg in segments for w in _WORD_SPLIT_RE.split(seg.lower().rsplit(".", 1)[0]) if w}
    words.update(k.lower() for k in _QUERY_KEY_RE.findall(parts.query))
    return {
        "url_depth": float(min(len(segments), 6)),
        "url_root": float(not segments),
        "url_digits": float(bool(_DIGITS_RE.search(last) or _DIGITS_RE.search(parts.query))),
        "url_date": float(bool(_DATE_PATH_RE.search(path))),
        "url_slug": float(min(stem.count("-") + stem.count("_"), 8)),
        "url_file": float("." in last and not last.endswith("/")),
        "url_query": float(bool(parts.query)),
        "url_list_word": float(any(w in _LIST_WORDS for w in words)),
        "url_item_word": float(any(w in _ITEM_WORDS for w in words)),
    }


URL_FEATURES = (
    "url_depth", "url_root", "url_digits", "url_date", "url_slug", "url_file", "url_query",
    "url_list_word", "url_item_word",
)
# Words that name a list or a single item in URLs of any site (CMS, shop and
# forum conventions), English and pinyin; a vocabulary, like the schema types.
_LIST_WORDS = frozenset(
    "tag tags category categories cat section sections topics archive archives list lists "
    "listing browse collection collections search results index catalog catalogue shop "
    "department departments channel channels column lanmu liebiao fenlei forumdisplay "
    "board boards author authors".split()
)
_ITEM_WORDS = frozenset(
    "article story post detail details item product dp thread viewtopic showthread "
    "question answer".split()
)
_WORD_SPLIT_RE = re.compile(r"[^a-z0-9]+")
_QUERY_KEY_RE = re.compile(r"(?:^|&)([A-Za-z_]+)=")


def _log(x: float) -> float:
    return math.log1p(max(x, 0.0))


def region_share(scan: LinkBlockScan) -> float:
    """Share of the page's text in its largest region outside the link blocks."""
    if scan.text_units <= 0:
        return 0.0
    return max(scan.region_units()) / scan.text_units


def scan_features(scan: LinkBlockScan) -> dict[str, float]:
    """The link blocks' figures (seed 004 and the size distribution of blocks)."""
    text = max(scan.text_units, 1)
    links = max(scan.link_count, 1)
    regions = sorted(scan.region_units(), reverse=True)
    blocks = scan.blocks
    # counted by array comparisons (no Python step per link)
    link_text, gap_text = np.array(scan.link_text), np.array(scan.gap_text)
    long_links = int(np.count_nonzero(link_text >= HEADLINE_UNITS))
    teaser_gaps = int(np.count_nonzero((gap_text >= TEASER_MIN_UNITS) & (gap_text < PROSE_UNITS)))
    longest_run = max(scan.lead_text, max(scan.gap_text, default=0))
    big_blocks = sum(b.links for b in blocks if b.links >= 10)
    return {
        "region_share": regions[0] / text if scan.text_units else 0.0,
        "region2_share": (regions[1] / text) if len(regions) > 1 and scan.text_units else 0.0,
        "lcr": scan.lcr,
        "ccr": scan.ccr,
        "link_share": scan.link_units / text,
        "log_text": _log(scan.text_units),
        "log_links": _log(scan.link_count),
        "log_blocks": _log(len(blocks)),
        "log_region": _log(regions[0]),
        "long_link_share": long_links / links,
        "log_long_links": _log(long_links),
        "log_teaser_gaps": _log(teaser_gaps),
        "big_block_share": big_blocks / links,
        "max_block_share": max((b.links for b in blocks), default=0) / links,
        "teaser_share": teaser_share(scan, link_text, gap_text),
        "no_prose": float(longest_run < PROSE_UNITS),
    }


# A headline link is at least this many text units long, a teaser's text
# after it fewer than PROSE_UNITS (a sentence or two); a run of text between
# links that reaches PROSE_UNITS is prose.
HEADLINE_UNITS = 5
TEASER_MIN_UNITS = 8
PROSE_UNITS = 80


def teaser_share(scan: LinkBlockScan, link_text: np.ndarray | None = None,
                 gap_text: np.ndarray | None = None) -> float:
    """Share of the page's text in link-headed teaser records: a headline-sized
    link followed by teaser-sized text before the next link.

    Why: an index page that shows only one to three teasers has few links
    and no large link block, so LCR and the largest region read like a short
    article; but nearly all its text sits in records that open with a link,
    where an article's text sits in prose runs with no link at their head.
    """
    if scan.text_units <= 0:
        return 0.0
    heads = np.array(scan.link_text) if link_text is None else link_text
    gaps = np.array(scan.gap_text) if gap_text is None else gap_text
    count = min(len(heads), len(gaps))
    heads, gaps = heads[:count], gaps[:count]
    record = (heads >= HEADLINE_UNITS) & (gaps >= TEASER_MIN_UNITS) & (gaps < PROSE_UNITS)
    return int(heads[record].sum() + gaps[record].sum()) / scan.text_units


def markup_features(scan: LinkBlockScan, href_text: str) -> dict[str, float]:
    """Headings, paragraphs, a reply form and pagination.

    Read from what the scan kept, not from the page again: headings and
    paragraphs from ``scan.markup`` (the page without scripts, styles and
    comments: about half its length), textareas from the scan's count,
    pagination from the links' targets (``href_text``: joined once, so each
    test is one substring search in C) and the visible text.
    """
    markup = scan.markup
    text = scan.text
    pagination = (
        _PAGE_HREF_RE.search(href_text) is not None or _NEXT_PAGE_RE.search(text) is not None
    )
    tags = _HEADING_PARAGRAPH_RE.findall(markup)
    headings = tags.count("h")
    return {
        "log_headings": _log(headings),
        "log_paragraphs": _log(len(tags) - headings),
        "textarea": float(scan.textareas > 0),
        "pagination": float(pagination),
    }


# The og:type words the model reads (its features name them).
_OG_KIND = {"article": "og_article", OG_WEBSITE: "og_website", OG_PRODUCT: "og_product"}
# Articles and posts: one on an article's page, many on a list page.
_ARTICLE_TYPES = ARTICLE | POSTING
# A price in visible text: a currency sign before a number, or a sign after one.
# The pattern opens with one class of every sign, so the engine jumps from
# sign to sign in C instead of trying every digit; the branches then look
# around the sign.
_PRICE_RE = re.compile(
    r"[$€£¥₹₩￥元円₽](?:(?<=[$€£¥₹₩￥])(?=\s?\d)|(?<=\d[€元円₽])(?!\w)|(?<=\d\s[€元円₽])(?!\w))"
)


def price_count(text: str) -> int:
    """Prices in the visible text (``_PRICE_RE``): one pass that stops only at signs."""
    return len(_PRICE_RE.findall(text))


# A date in visible text: 2014-03-08, 2014/3/8, 2014.03.08, 2014年3月.
_DATE_RE = re.compile(r"(?:19|20)\d\d[-/.年]\d{1,2}[-/.月]")


def declared_features(html: str, scan: LinkBlockScan | None = None) -> dict[str, float]:
    """What the page says it is: the overall reading (``declared_type``), the
    kind of its og:type, and how many products and articles it declares (a
    list page declares many, a product or article page one).

    With the page's ``scan``, JSON-LD types are read in the ``ld+json``
    scripts it kept and microdata types in its markup, and og:type in the
    head: a few small searches instead of passes over the whole page.
    """
    if scan is None:
        og = og_type(html)
        ld, md = schema_types(html)
    else:
        og = og_type(html, _head_end(html))
        ld = [t for script in scan.json_ld for t in _LD_TYPE_RE.findall(script)]
        md = _MD_TYPE_RE.findall(scan.markup)
    d = _declared(og, ld, md)
    feats = dict.fromkeys(("og_article", "og_website", "og_product", "og_other"), 0.0)
    if og:
        feats[_OG_KIND.get(og.split(".")[0], "og_other")] = 1.0
    products = articles = lists = 0
    for t in ld + md:
        if t in ONE_PRODUCT:
            products += 1
        elif t in _ARTICLE_TYPES:
            articles += 1
        elif t in _LD_INDEX:
            lists += 1
    feats.update(
        declared_content=float(d > 0),
        declared_index=float(d < 0),
        log_ld_products=_log(products),
        log_ld_articles=_log(articles),
        ld_lists=float(lists > 0),
    )
    return feats


# A last path segment that names one item: two word separators (a slug of
# three words or more) or a number of five digits or more.
_ITEM_SEGMENT_RE = re.compile(r"[-_][^-_]*[-_]|\d{5}")


def content_link(href: str) -> bool:
    """Whether a link's path names one content page: a slug of three words or
    more, a long number, or a date in the path (what section links lack)."""
    return content_link_count([href]) == 1


def content_link_count(hrefs: list[str]) -> int:
    """How many of ``hrefs`` are content links (:func:`content_link`).

    Each step is a C-level map over all the targets (path before the query,
    its last segment once trailing slashes go, one regex search on each), so
    a page's hundreds of links cost no Python call each.
    """
    paths = list(map(itemgetter(0), map(str.partition, hrefs, repeat("?"))))
    lasts = map(itemgetter(2), map(str.rpartition, map(str.rstrip, paths, repeat("/")), repeat("/")))
    item = map(bool, map(_ITEM_SEGMENT_RE.search, lasts))
    dated = map(bool, map(_DATE_PATH_RE.search, paths))
    return sum(map(or_, item, dated))


def date_count(text: str) -> int:
    """Dates (``_DATE_RE``) in the visible ``text``."""
    return len(_DATE_RE.findall(text))


def listing_features(scan: LinkBlockScan, hrefs: list[str]) -> dict[str, float]:
    """Marks of a list of records: prices and dates in the visible text,
    links without text (image tiles, icons), and links that point at content
    pages (``hrefs``: the links' targets)."""
    content_links = content_link_count(hrefs)
    links = max(scan.link_count, 1)
    empty = scan.link_text.count(0)
    return {
        "log_prices": _log(price_count(scan.text)),
        "empty_link_share": empty / links,
        "log_empty_links": _log(empty),
        "log_dates": _log(date_count(scan.digit_text)),
        "log_content_links": _log(content_links),
        "content_link_share": content_links / links,
    }


FEATURES = (
    "region_share", "region2_share", "lcr", "ccr", "link_share", "log_text", "log_links",
    "log_blocks", "log_region", "long_link_share", "log_long_links", "log_teaser_gaps",
    "big_block_share", "max_block_share", "teaser_share", "no_prose",
    "log_headings", "log_paragraphs", "textarea", "pagination",
    "declared_content", "declared_index", "og_article", "og_website", "og_product", "og_other",
    "log_ld_products", "log_ld_articles", "ld_lists",
    "log_prices", "empty_link_share", "log_empty_links", "log_dates", "log_content_links",
    "content_link_share",
    *URL_FEATURES,
)


# --- the decision -------------------------------------------------------------


def features_of(doc: Document, params: PageTypeParams | None = None) -> tuple[dict[str, float], str | None]:
    """The model's features of a page and the URL they read (fetched, canonical or og:url)."""
    params = params or PageTypeParams()
    scan = find_link_blocks(doc.html, params.min_links, params.resolved_distance(), params.distance)
    url = page_url(doc.url, doc.html)
    return features_from_scan(doc.html, scan, url), url


def features_from_scan(html: str, scan: LinkBlockScan, url: str | None) -> dict[str, float]:
    """Every feature, read from the scan's outputs (links, their targets, the
    visible text, the markup without scripts) plus a search of the head."""
    hrefs = list(map(itemgetter(0), map(str.partition, scan.hrefs, repeat("#"))))
    feats = scan_features(scan)
    feats.update(markup_features(scan, " ".join(hrefs)))
    feats.update(declared_features(html, scan))
    feats.update(listing_features(scan, hrefs))
    feats.update(url_features(url))
    return feats


def classify(doc: Document, params: PageTypeParams | None = None) -> PageTypeResult:
    """Classify a page as "index" or "content": one scan of its HTML text, a few
    regex passes, and the shipped logistic model (core/pagetype_model.py)."""
    from .pagetype_model import load_model

    params = params or PageTypeParams()
    model = load_model(params.model)
    scan = find_link_blocks(doc.html, params.min_links, params.resolved_distance(), params.distance)
    feats = features_from_scan(doc.html, scan, page_url(doc.url, doc.html))
    score = model.index_probability(feats)
    threshold = model.threshold if params.threshold is None else float(params.threshold)
    return PageTypeResult(
        label="index" if score >= threshold else "content",
        score=score,
        lcr=scan.lcr,
        ccr=scan.ccr,
        blocks=scan.blocks,
        links=scan.link_count,
        region_share=feats["region_share"],
        declared=int(feats["declared_content"] - feats["declared_index"]),
        probability=1.0 - score,
        threshold=threshold,
        features=feats,
        scan=scan,
    )
