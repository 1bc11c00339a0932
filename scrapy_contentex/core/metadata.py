"""Article metadata: headline, publication date, authors, language, description.

Sources are read in order of trust. Publishers' own structured data
(JSON-LD, then meta tags) is exact when present; page markup that names its
role (``<time datetime>``, ``itemprop``, ``rel=author``, class "byline")
comes next; the visible text near the headline is the last resort, because
pages also print today's date in the header and dates of related links.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from lxml import etree
from lxml import html as lxml_html
from lxml.html import HtmlElement

from .author_model import AuthorCandidate, PageContext
from .author_model import choose as choose_author
from .author_model import features as author_features
from .author_model import load_model as load_author_model
from .author_model import merge as merge_authors
from .date_model import DateCandidate, Observation
from .date_model import choose as choose_date
from .date_model import features as date_features
from .date_model import load_model as load_date_model
from .date_model import merge as merge_dates
from .dates import DateMatch, date_from_url, find_dates, parse_date
from .declared import QA_PAGE, WEB_PAGE, object_types, og_type
from .document import Document
from .headline import extract_headline
from .lang import CJK_RE, folded, guess_language, normalize_space, token_count
from .pagetype_model import LogisticModel
from .structured import json_ld_objects, types_of
from .text.common import block_text
from .title import HEADLINE_TYPES, SitePredicate, page_headings, segments, site_test

KEYS = ("headline", "datePublished", "datePublishedRaw", "authors", "inLanguage", "description")

# Meta tags that carry the publication date, most specific first.
DATE_META = (
    "article:published_time", "og:article:published_time", "article:published",
    "og:published_time", "datepublished", "publishdate", "publish-date", "publish_date",
    "pubdate", "pubtime", "publishtime", "publication_date", "citation_publication_date",
    "sailthru.date", "parsely-pub-date", "dc.date.issued", "dcterms.issued", "dc.date",
    "dcterms.date", "dcterms.created", "dc.date.created", "article.published",
    "originalpublicationdate", "og:release_date", "release_date", "date", "weibo:article:create_at",
    "created", "article:post_date", "bt:pubdate", "live_date",
    "published", "published-date", "published_date", "date-published", "date_published",
)
# Meta names DATE_META does not list but that say "published" ("w-published-date",
# "cXenseParse:recs:publishtime"): the site's own publication field.
_PUBLISH_META = re.compile(r"publish(?:ed)?[\W_]?(?:date|time|on)$|publication[\W_]?(?:date|time)$")
# Any other meta name that ends in "date" ("ms.date", "citation_online_date",
# "cludo:date", "date-pub"): a page's date field under the site's own name,
# read after the named ones; not one that says it is another date.
_DATE_NAMED_META = re.compile(r"date(?:[\W_]?(?:pub|created))?$")
_OTHER_DATE_META = re.compile(r"modif|updat|last|expir|valid|start|end|current|birth|event")
AUTHOR_META = (
    "author", "article:author", "og:article:author", "byl", "dc.creator", "dcterms.creator",
    "sailthru.author", "parsely-author", "citation_author", "twitter:data1:author",
)
DESCRIPTION_META = ("description", "og:description", "twitter:description", "dc.description")
LANGUAGE_META = ("content-language", "og:locale", "language", "dc.language", "inlanguage")

# Characters after the headline where the dateline and byline live.
AFTER_TITLE = 1500
# A date this close under the headline is its dateline; further down, one printed
# right above the headline is preferred.
NEAR_TITLE = 200
BEFORE_TITLE = 300


# Words that announce a publication date just before it (EN and ZH).
_DATE_CUE = re.compile(
    r"(?:发布|發布|发表|發表|时间|時間|日期|日時|刊登|出版|published|posted|posté|publié|date|on)"
    r"\s{0,3}(?:于|於|at|on)?\s{0,3}[:：]?\s{0,3}$",
    re.I,
)
_UPDATE_CUE = re.compile(
    r"(?:更新|修改|编辑于|updated|modified|last edit)\S{0,3}(?:\s{1,3}on)?\s{0,3}[:：]?\s{0,3}$", re.I
)

_URL_RE = re.compile(r"^(?:https?:)?//|^www\.|\.(?:com|net|org|cn)(?:/|$)", re.I)
# "By X", "Analysis by X", "Von X": up to three words before "by"; or a label
# and its colon, in the languages that write "Author: X" ("Autor: X").
_AUTHOR_LABELS = (
    r"author|autor|autore|auteur|contributors?|yazar|penulis|tác giả|författare|forfatter|szerző|kirjoittaja|"
    r"συντάκτης|автор|الكاتب|כותב|작성자"
)
# Only "by" may follow other words: "von" after a first name is a particle
# ("Ursula von der Leyen", "Otto von Bismarck"), not a byline.
_BY_RE = re.compile(
    r"^\s*(?:(?:[\w-]{1,20}\s{1,3}){0,3}?by\s+|(?:von|par|por|door|av|przez)\s+"
    rf"|(?:{_AUTHOR_LABELS})\s{{0,2}}[:：]\s*|автор\s+)",
    re.I,
)
# 'y'/'et' are not split on: they occur inside names ("Bruce Y. Lee").
_AUTHOR_SPLIT = re.compile(r"\s*(?:,|;|，|、|／|\||\band\b|\bund\b|&|\n)\s*|\s[-–—]\s", re.I)
# Job titles and desks that bylines print next to the names. A name made only
# of them ("Staff Writer") is no one; with a name beside them it is the
# byline the publisher chose ("Podium Staff", "TOI Lifestyle Desk").
_JOB_RE = re.compile(
    r"\b(?:writer|editor|editorial|correspondent|reporter|staff|contributor|columnist|bureau"
    r"|desk|team|journalist|photographer|news service|wire)s?\b",
    re.I,
)
# Forum chrome printed in author boxes, relative times, brackets: never in a name.
_CHROME_RE = re.compile(
    r"\b(?:member|posts?|likes?|joined|moderator|administrator|reputation|find|reply|quote)\b"
    r"|\d+\s*(?:秒|分钟|小时|天|周|个月|月|年)前|[\[\]【】]",
    re.I,
)
# Words that are a byline's label, not a name ("Author", "By", "Written").
_LABEL_WORDS = frozenset("author authors by written posted published updated autor auteur".split())
_CREDENTIAL_RE = re.compile(r"^(?:[A-Z]{2,4}|Ph\.?\s?D|M\.?\s?D|Jr|Sr|Esq|[IVX]{1,4})\.?$")
# Lower-case words allowed inside a name written in Latin script.
_PARTICLES = frozenset("van von der den de del della da di du la le bin al ibn y e".split())
_EMAIL_RE = re.compile(r"\S+@\S+\.\w+")
# Chinese bylines: 作者：X / 文/X / 记者 X / X 发表于; editors only as a fallback.
# A name is 2-4 Han characters (· for transliterated names) or one Latin
# handle, and must end at a boundary, so "记者近日从西藏" is not read as a name.
_HAN = "\u4e00-\u9fff"
_HAN_NAME = rf"[{_HAN}][{_HAN}·]{{1,3}}"
_LATIN_NAME = r"[A-Za-z][\w.-]{1,30}(?: [A-Z][\w.-]{1,20}){0,2}"
_LATIN_NAME_RE = re.compile(_LATIN_NAME)
# Several Han names ("王建宏 张文攀", "赵延东、风笑天") or one Latin handle.
_ZH_LIST = (
    rf"(?:{_HAN_NAME}(?:(?:[ \t\u3000]{{1,3}}|[、，,])(?:[ \t\u3000]{{0,2}}){_HAN_NAME}){{0,5}}"
    rf"|{_LATIN_NAME})"
)
_ZH_NAMES = rf"(?P<names>{_ZH_LIST})"
_ZH_END = r"(?=$|[\s/／)）】\]|｜,，。;；:：])"
_ZH_LABEL = r"(?:作\s?者|撰\s?文|执\s?笔|口\s?述|记\s?者|記\s?者|实习生|文\s?[/／]|文字\s?[:：])"
# Either a separator after the label ("记者 X", "作者：X") or, glued to the
# label, a name closed by "/" or a bracket ("记者X/文", "（记者X）").
_ZH_AUTHOR = re.compile(
    rf"{_ZH_LABEL}(?:(?:[ \t\u3000]{{0,3}}[:：/／]\s{{0,3}}|[ \t\u3000\n]{{1,3}}){_ZH_NAMES}{_ZH_END}"
    rf"|(?P<glued>{_ZH_LIST})(?=[/／)）]))",
    re.M,
)
_ZH_POSTER_CUE = re.compile(r"发表于|發表於|写于|寫於|张贴")
_ZH_ANY_LABEL = re.compile(r"作\s?者|撰\s?文|执\s?笔|口\s?述|记\s?者|記\s?者|实习生|文|编|編|发表于|發表於|写于|寫於|张贴")
_ZH_POSTER = re.compile(
    rf"(?:^|[\s|｜])由?{_ZH_NAMES}[ \t\u3000]{{0,3}}(?:发表于|發表於|写于|寫於|张贴)", re.M
)
_ZH_EDITOR = re.compile(
    rf"(?:责任编辑|責任編輯|责编|責編|编辑|編輯)"
    rf"(?:[ \t\u3000]{{0,3}}[:：/／]\s{{0,3}}|[ \t\u3000]{{1,3}}){_ZH_NAMES}{_ZH_END}",
    re.M,
)
_CLASS_AUTHOR = re.compile(r"(?:^|[\s_-])(?:author|byline|writer|creator|reporter)(?:$|[\s_-]|name)", re.I)
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A class token that ends in the role ("author-name", "author-box__name", "post-author")
# names the author element whatever else the class list says.
_CLASS_AUTHOR_TOKEN = re.compile(
    r"(?:^|[\s_-])(?:author|byline|writer)(?:[_-]+(?:box[_-]+)?)?(?:name|link)?s?(?:$|\s)", re.I
)
_CLASS_NOT_AUTHOR = re.compile(r"(?:bio|desc|avatar|img|image|photo|pic|about|box|follow|social|date|time)", re.I)
_NAME_SPLIT = re.compile(r"[\s、,，;；/]+")


def extract_metadata(doc: Document) -> dict:
    """The article metadata of a page, with exactly the keys of ``KEYS``.

    Missing values are None (``authors`` is an empty list).
    """
    tree = doc.tree
    meta = doc.meta
    articles = _article_objects(doc.json_ld)
    # The learned choice among the headline's copies; the rule's choice (extract_title)
    # stays what the text algorithms compare with, so the body does not move.
    headline = extract_headline(doc)
    text = doc.visible_text
    is_site = site_test(doc)
    anchor = _anchor(doc, text, headline)
    date = published_date(tree, meta, articles, text, _dateline_anchor(doc, text, anchor), doc.url)
    facts = _author_page_facts(doc, articles, date is not None)
    return {
        "headline": headline,
        "datePublished": date[0] if date else None,
        "datePublishedRaw": date[1] if date else None,
        "authors": find_authors(tree, meta, articles, text, anchor, is_site, facts=facts),
        "inLanguage": find_language(tree, meta, articles, (headline or "") + "\n" + text),
        "description": find_description(meta, articles),
    }


# -- shared inputs ---------------------------------------------------------


def _anchor(doc: Document, text: str, headline: str | None) -> str | None:
    """The printed headline the dateline and byline are looked for under.

    The chosen headline, when the page prints it; else the first printed
    ``<h1>``: the ``<title>`` or og:title wording ("Blog: Headline") is not
    always printed, and the byline and date still sit under the heading.
    """
    if _title_span(text, headline):
        return headline
    for level, heading in page_headings(doc):
        if level == 1 and _title_span(text, heading):
            return heading
    return headline


def _dateline_anchor(doc: Document, text: str, anchor: str | None) -> str | None:
    """The heading a dateline is read under: ``anchor``, unless no date is printed under
    it and one is printed right under the page's first top heading (``<h1>``/``<h2>``).

    The chosen headline is the ``<title>`` wording when the page prints it, and a
    page may print it again elsewhere (a related-posts card, a breadcrumb) or
    print another wording as its heading (a longer ``<h2>``): the date sits
    under the heading the reader sees first.
    """
    span = _title_span(text, anchor)
    if span and find_dates(text[span[1]:span[1] + AFTER_TITLE]):
        return anchor
    for level, heading in page_headings(doc):
        if level > 2:
            continue
        top = _title_span(text, heading)
        if top and top != span and find_dates(text[top[1]:top[1] + NEAR_TITLE]):
            return heading
        break
    return anchor


#: Page-level objects that wrap the page's article or question.
_PAGE_WRAPPERS = WEB_PAGE | QA_PAGE


def _article_objects(objects: list[dict]) -> list[dict]:
    """The objects whose headline may be the page's (``HEADLINE_TYPES``), the page-level
    wrappers (WebPage, QAPage) last: the article or question they hold is more specific."""
    objects = [o for o in objects if object_types(o) & HEADLINE_TYPES]
    return sorted(objects, key=lambda o: bool(object_types(o) & _PAGE_WRAPPERS))


def declared_body(page: HtmlElement | Document) -> str | None:
    """The ``articleBody`` an article's JSON-LD declares, as plain text lines.

    Script-rendered pages serve an empty shell plus this text; the page's
    own text is what we extract first, this is the fallback. Given a
    Document, its JSON-LD decoded for the metadata is reused.
    """
    objects = page.json_ld if isinstance(page, Document) else json_ld_objects(page)
    for obj in _article_objects(objects):
        value = obj.get("articleBody")
        if isinstance(value, list):
            value = "\n".join(v for v in value if isinstance(v, str))
        if not isinstance(value, str) or not value.strip():
            continue
        if "<" in value:
            try:
                value = block_text(lxml_html.fromstring(value))
            except (ValueError, etree.ParserError):
                pass
        lines = [normalize_space(line) for line in value.splitlines()]
        return "\n".join(line for line in lines if line) or None
    return None


# "(页 1)", "(图)", "(组图)": notes titles carry but pages do not print.
_TRAILING_NOTE = re.compile(r"\s*[(（][^()（）]{1,10}[)）]\s*$")


def _title_span(text: str, headline: str | None) -> tuple[int, int] | None:
    """Where the headline is printed in the body text (first occurrence).

    The headline may carry a site suffix or a "(页 1)" the page does not
    print, so its separator segments are tried too, longest first.
    """
    if not headline:
        return None
    whole = normalize_space(headline)
    bare = _TRAILING_NOTE.sub("", whole)
    probes = [whole, bare, *sorted(segments(whole), key=len, reverse=True)]
    for probe in dict.fromkeys(probes):
        if len(probe) < 4 and not (len(probe) >= 2 and CJK_RE.search(probe)):
            continue
        pos = text.find(probe[:40])
        if pos >= 0:
            return pos, pos + len(probe)
    return None


# -- date ------------------------------------------------------------------


def published_date(
    tree: HtmlElement,
    meta: dict[str, str],
    articles: list[dict],
    text: str,
    headline: str | None,
    url: str | None = None,
    model: LogisticModel | None = None,
) -> tuple[str, str] | None:
    """(iso, raw) of the publication date: the learned choice among the page's dates.

    The ordered rule (:func:`rule_date`) answers first; when it finds a date,
    every date the page offers is a candidate and the date model
    (:mod:`.date_model`) picks the one the page shows as its date (the rule's
    pick is one of its features). When the rule finds none, there is none.
    """
    rule, cands = _rule_and_candidates(tree, meta, articles, text, headline, url)
    if rule is None:
        return None
    best = choose_date(cands, date_features(cands), model or load_date_model())
    return (best.iso, best.raw) if best else rule


def page_date_candidates(doc: Document) -> tuple[tuple[str, str] | None, list[DateCandidate]]:
    """The rule's date and every candidate, read as :func:`extract_metadata` reads them
    (training and benchmarks score the date model on exactly these)."""
    text = doc.visible_text
    anchor = _dateline_anchor(doc, text, _anchor(doc, text, extract_headline(doc)))
    return _rule_and_candidates(doc.tree, doc.meta, _article_objects(doc.json_ld), text, anchor, doc.url)


def _rule_and_candidates(
    tree: HtmlElement, meta: dict[str, str], articles: list[dict], text: str, headline: str | None,
    url: str | None,
) -> tuple[tuple[str, str] | None, list[DateCandidate]]:
    """The rule's date, and the candidates when it has one; the <time> elements are searched once for both."""
    times = _time_elements(tree)
    rule = rule_date(tree, meta, articles, text, headline, url, times=times)
    if rule is None:
        return None, []
    return rule, date_candidates(rule, meta, articles, text, headline, url, times[:_MAX_TIMES])


def rule_date(
    tree: HtmlElement,
    meta: dict[str, str],
    articles: list[dict],
    text: str,
    headline: str | None,
    url: str | None = None,
    times: list | None = None,
) -> tuple[str, str] | None:
    """The ordered rule: JSON-LD, meta, markup, text, JSON-LD dateModified, URL."""
    for obj in articles:
        for key in ("datePublished", "dateCreated", "uploadDate"):
            found = _parse_value(obj.get(key))
            if found:
                return found
    for key in DATE_META:
        found = parse_date(meta.get(key))
        if found:
            return found
    for names_a_date in (_PUBLISH_META.search, _date_named):  # "published" names first
        for key, value in meta.items():
            if names_a_date(key):
                found = parse_date(value)
                if found:
                    return found
    found = _markup_date(tree, times)
    if found:
        return found
    found = text_date(text, headline)
    if found:
        return found
    for obj in articles:
        found = _parse_value(obj.get("dateModified"))
        if found:
            return found
    return date_from_url(url)


# <time> elements looked at: the article's own come first, comment threads after.
_MAX_TIMES = 20
# The date each JSON-LD key states, as a candidate source.
_LD_DATE_SOURCES = (("datePublished", "ld_published"), ("dateCreated", "ld_created"),
                    ("uploadDate", "ld_created"), ("dateModified", "ld_modified"))
_META_MODIFIED = re.compile(r"modif|updat|last[\W_]?mod")
# Characters under the headline read for dateline candidates.
_AFTER_DATELINE = 600
# Dates read under the headline per page: the dateline is among the first ones.
_MAX_TEXT_DATES = 6


def date_candidates(
    rule: tuple[str, str],
    meta: dict[str, str],
    articles: list[dict],
    text: str,
    headline: str | None,
    url: str | None,
    times: list,
) -> list[DateCandidate]:
    """Every date the page offers, one candidate per day, with where each copy was read.

    Reads the <time> elements the rule read and no other element: itemprop
    dates on <meta> are in ``meta`` (keyed by the itemprop), on <time> in
    ``times``; a search of every element for itemprops would cost more than
    the whole choice.
    """
    found = [Observation(rule[0], rule[1], "rule")]
    for obj in articles:
        for key, source in _LD_DATE_SOURCES:
            value = _parse_value(obj.get(key))
            if value:
                found.append(Observation(value[0], value[1], source))
    for key, value in meta.items():
        if _META_MODIFIED.search(key):
            source = "meta_modified"
        elif key in _DATE_META_SET or _PUBLISH_META.search(key) or _date_named(key):
            source = "meta_published"
        else:
            continue
        parsed = parse_date(value)
        if parsed:
            found.append(Observation(parsed[0], parsed[1], source))
    found.extend(_time_observations(times))
    found.extend(_text_observations(text, headline))
    in_url = date_from_url(url)
    if in_url:
        found.append(Observation(in_url[0], in_url[1], "url"))
    return merge_dates(found)


_DATE_META_SET = frozenset(DATE_META)


def _date_named(key: str) -> bool:
    """A meta name that ends in "date" and does not name another date (modified, expiry, ...)."""
    return bool(_DATE_NAMED_META.search(key)) and not _OTHER_DATE_META.search(key)


def _time_observations(times: list) -> Iterator[Observation]:
    """Dates of the first <time> elements: their itemprop, class and place among them."""
    first = True
    for element in times:
        for value in (element.get("datetime"), element.text_content()):
            parsed = parse_date(value)
            if not parsed:
                continue
            prop = element.get("itemprop")
            if prop in _DATE_ITEMPROPS or prop == "dateModified":
                source = "itemprop_modified" if prop == "dateModified" else "itemprop_published"
                yield Observation(parsed[0], parsed[1], source)
            css = (element.get("class") or "").lower()
            if _UPDATE_CUE.search(normalize_space(css) + ":"):
                source = "time_modified"
            elif element.get("pubdate") is not None or "publish" in css:
                source = "time_published"
            else:
                source = "time_first" if first else "time_other"
            first = False
            yield Observation(parsed[0], parsed[1], source)
            break


def _text_observations(text: str, headline: str | None) -> Iterator[Observation]:
    """Dates printed just above the headline and in the stretch under it, with their cues."""
    span = _title_span(text, headline)
    if not span:
        return
    start, end = span
    after = text[end:end + _AFTER_DATELINE]
    first = True
    # Dates in a list (archives, related links) are nobody's dateline.
    for date in _unlisted(find_dates(after))[:_MAX_TEXT_DATES]:
        if _updated(after, date):
            source = "text_after_updated"
        elif _cued(after, date):
            source = "text_after_cued"
        else:
            source = "text_after_first" if first else "text_after"
            first = False
        yield Observation(date.iso, date.raw, source, date.start)
    before = text[max(0, start - BEFORE_TITLE):start]
    for date in find_dates(before)[-2:]:
        source = ("text_before_updated" if _updated(before, date)
                  else "text_before_cued" if _cued(before, date) else "text_before")
        yield Observation(date.iso, date.raw, source, date.end - len(before))


def _parse_value(value: object) -> tuple[str, str] | None:
    if isinstance(value, list) and value:
        value = value[0]
    return parse_date(value) if isinstance(value, str) else None


# Searches the metadata runs on every page, from the body (or the root)
# downward: an absolute "//body//x" or "//x" makes libxml2 expand every node
# of the document and merge the results, a descendant search from the one
# <body> (libxml2's HTML parser makes exactly one) finds the same elements
# in the same order, measured 1.3-1.5x faster. The searches only test that
# an attribute is there and the value is compared in Python: libxml2's
# string comparisons (@itemprop="author", concat() of @rel) cost more than
# the test and the Python filter together, measured 1.3-1.7x (same elements).
_ITEMPROPPED = etree.XPath("descendant-or-self::*[@itemprop]")
_TIMES = etree.XPath("descendant::time")
_ITEMPROPPED_BELOW = etree.XPath("descendant::*[@itemprop]")
_RELATED_LINKS = etree.XPath("descendant::a[@rel]")
_DATE_ITEMPROPS = frozenset({"datePublished", "dateCreated"})


def _under_body(tree: HtmlElement, search: etree.XPath) -> list:
    """``//body//<search>``: from the page's <body>; anything else (a fragment) searches the whole document."""
    body = tree.find("body")
    if body is None:
        return tree.xpath("//body//" + search.path.removeprefix("descendant::"))
    return search(body)


def _whole_doc(tree: HtmlElement, search: etree.XPath) -> list:
    """``//<search>`` over the whole document: from its root element when ``tree`` is it."""
    if tree.getparent() is None:
        return search(tree)
    return tree.xpath("//" + search.path.removeprefix("descendant-or-self::"))


def _time_elements(tree: HtmlElement) -> list:
    """The <time> elements under <body>, as ``_under_body(tree, _TIMES)`` finds them:
    lxml's tag-filtered iteration walks the body faster than the XPath search (measured 1.3x)."""
    body = tree.find("body")
    return _under_body(tree, _TIMES) if body is None else list(body.iter("time"))


def _markup_date(tree: HtmlElement, times: list | None = None) -> tuple[str, str] | None:
    """itemprop=datePublished, then <time pubdate>, then the first dated <time>.

    ``times``: the page's <time> elements when the caller already has them.
    """
    for element in _whole_doc(tree, _ITEMPROPPED):
        if element.get("itemprop") not in _DATE_ITEMPROPS:
            continue
        for value in (element.get("content"), element.get("datetime"), element.text_content()):
            found = parse_date(value)
            if found:
                return found
    if times is None:
        times = _time_elements(tree)
    ranked = sorted(
        times,
        key=lambda t: not (
            t.get("pubdate") is not None or "publish" in (t.get("class") or "").lower()
        ),
    )
    for element in ranked[:_MAX_TIMES]:
        if _UPDATE_CUE.search(normalize_space(element.get("class") or "") + ":"):
            continue
        for value in (element.get("datetime"), element.text_content()):
            found = parse_date(value)
            if found:
                return found
    return None


def text_date(text: str, headline: str | None) -> tuple[str, str] | None:
    """A date printed near the headline, preferring one announced by a cue word.

    Order: after the headline with a cue, after the headline, before it with a
    cue, just above it; without the headline in the text, a cued date, else the
    first date that carries a clock time (a bare date at the top of a page is
    usually today's date in the header, a timestamp rarely is).
    """
    span = _title_span(text, headline)
    if span:
        start, end = span
        after = text[end:end + AFTER_TITLE]
        dates = _unlisted([d for d in find_dates(after) if not _updated(after, d)])
        cued = [d for d in dates if _cued(after, d)]
        before = text[max(0, start - BEFORE_TITLE):start]
        before_dates = find_dates(before)
        # A dateline printed right above the headline (newspaper pages, blogs):
        # it beats a date further down, which may be one the article mentions.
        close = _first_published(_dateline_above(before_dates, before), before)
        near = [d for d in (cued or dates)[:1] if d.start <= NEAR_TITLE]
        if close and not near:
            return close[-1].iso, close[-1].raw
        if cued or dates:
            best = (cued or dates)[0]
            return best.iso, best.raw
        cued = [d for d in before_dates if _cued(before, d)]
        if cued:
            return cued[-1].iso, cued[-1].raw
        if close:
            return close[-1].iso, close[-1].raw
        months = [d for d in find_dates(after[:300], months=True) if d.precision == "month"]
        if months:
            return months[0].iso, months[0].raw
        # Only an update date right under the headline ("Last Modified: ..."): the one date shown.
        updated = [d for d in find_dates(after[:NEAR_TITLE]) if _updated(after, d)]
        if updated:
            return updated[0].iso, updated[0].raw
    found = [d for d in find_dates(text) if not _updated(text, d)]
    dates = _unlisted(found) or found
    cued = [d for d in dates if _cued(text, d)]
    timed = [d for d in dates if d.has_time]
    if cued or timed:
        best = (cued or timed)[0]
        return best.iso, best.raw
    if not dates:
        # No full date anywhere: an essay signed "《北京之春》1998年3月号" still has a month.
        months = find_dates(text, months=True)
        if len(months) == 1:
            return months[0].iso, months[0].raw
    return None


def _dateline_above(dates: list[DateMatch], before: str, gap: int = 20) -> list[DateMatch]:
    """The dates printed right above the headline: the last date of ``before``
    if at most ``gap`` characters follow it, and each date at most ``gap``
    characters before one of those ("May 2, 2022 | Updated: June 3, 2023")."""
    close: list[DateMatch] = []
    limit = len(before)
    for date in reversed(dates):
        if len(before[date.end:limit].strip()) > gap:
            break
        close.insert(0, date)
        limit = date.start
    return close


def _first_published(dates: list[DateMatch], text: str) -> list[DateMatch]:
    """The dates not announced as an update, if any; else all of them.

    A dateline above the headline may read "December 22, 2022 · Updated
    January 2, 2026": the first date is the publication, the second the last
    edit, and both are as close to the headline.
    """
    return [d for d in dates if not _updated(text, d)] or dates


def _unlisted(dates: list[DateMatch], gap: int = 80, run: int = 3) -> list[DateMatch]:
    """Dates that are not part of a list (archives, related links, comment threads).

    ``run`` or more dates each within ``gap`` characters of the previous one
    are a list; an article's own dateline stands alone or in a pair
    (published / updated).
    """
    keep: list[DateMatch] = []
    group: list[DateMatch] = []
    for date in [*dates, None]:
        if date is not None and group and date.start - group[-1].end <= gap:
            group.append(date)
            continue
        if group and len(group) < run:
            keep.extend(group)
        group = [date] if date is not None else []
    return keep


def _cued(text: str, date: DateMatch) -> bool:
    """A cue word just before the date, or a byline ("Written by A and B April 8, 2024")."""
    return bool(_DATE_CUE.search(text[max(0, date.start - 16):date.start])) or bool(
        _BYLINE_CUE.search(text[max(0, date.start - 80):date.start])
    )


# A byline label, the names, then the date (on the same line or the next).
_BYLINE_CUE = re.compile(
    rf"(?:^|\n)\s{{0,3}}(?:(?:written|posted|published)\s+)?(?:by|{_AUTHOR_LABELS})\b"
    r"[^\n\d]{2,60}(?:\n\s{0,3})?[^\n\d]{0,3}$",
    re.I,
)


def _updated(text: str, date: DateMatch) -> bool:
    return bool(_UPDATE_CUE.search(text[max(0, date.start - 16):date.start]))


# -- authors ---------------------------------------------------------------


# Where author names are read, in the rule's order of trust, each with its kind:
# what a kind may do in the rule is decided by name in :func:`rule_authors`.
AUTHOR_SOURCES = (
    ("ld", "declared"), ("meta", "declared"), ("semantic", "markup"), ("zh_text", "text"),
    ("byline", "byline"), ("card", "text"), ("classes", "classes"), ("poster", "poster"),
    ("user_card", "poster"), ("dateline", "dateline"),
)
_SOURCE_KIND = dict(AUTHOR_SOURCES)


def _no_site(text: str) -> bool:
    """The site-name test when none is given: nothing is the site's name."""
    return False


class AuthorSources:
    """Every author source of one page, each read once, on first use, and cleaned.

    The rule stops at the first source that names someone (most pages stop at
    structured data, and the later sources cost the most); the author model
    chooses among the names of the sources the rule read. Both ask this
    object, so no source is read twice.
    """

    def __init__(self, tree: HtmlElement, meta: dict[str, str], articles: list[dict], text: str = "",
                 headline: str | None = None, is_site: SitePredicate | None = None) -> None:
        self.text = text
        self.headline = headline
        # The readers close over locals, never over ``self``: a reader holding
        # ``self`` would make a reference cycle that keeps the page's whole
        # tree alive after the call, until the cyclic collector finds it.
        self.is_site = site = is_site or _no_site
        named = cache(lambda: _class_named(tree))
        self._read = {
            "ld": lambda: _ld_authors(articles),
            "meta": lambda: _meta_authors(meta),
            "semantic": lambda: _semantic_authors(tree),
            "zh_text": lambda: _zh_text_authors(text, headline),
            "byline": lambda: _text_byline(text, headline),
            "card": lambda: _author_card(text, headline),
            # The class and poster sources read one walk over the named elements.
            "classes": lambda: _class_authors(tree, named()[0]),
            "poster": lambda: _poster_names(tree, named()[1]),
            "user_card": lambda: _user_card(text),
            "dateline": lambda: _dateline_names(text, headline, site),
        }
        self._raw: dict[str, list[str]] = {}
        self._clean: dict[str, list[str]] = {}
        self._organisation: dict[str, bool] = {}

    def was_read(self, name: str) -> bool:
        """Whether the source has been read (the rule reads them in order until it has an answer)."""
        return name in self._raw

    def raw(self, name: str) -> list[str]:
        """What the source read, before cleaning (JSON-LD's list says if it holds organisations)."""
        if name not in self._raw:
            self._raw[name] = self._read[name]()
        return self._raw[name]

    def names(self, name: str) -> list[str]:
        """The source's cleaned names; a labelled byline may name a role only ("Written by Our Editors")."""
        if name not in self._clean:
            self._clean[name] = clean_authors(self.raw(name), roles=name == "byline")
        return self._clean[name]

    def organisation(self, name: str) -> bool:
        """Whether a declared source names an organisation: JSON-LD says so, or every name is the site's."""
        if name not in self._organisation:  # the rule and the candidates both ask
            names = self.names(name)
            self._organisation[name] = _SOURCE_KIND[name] == "declared" and bool(names) and (
                getattr(self.raw(name), "organisations", False) or all(self.is_site(n) for n in names)
            )
        return self._organisation[name]


def find_authors(
    tree: HtmlElement,
    meta: dict[str, str],
    articles: list[dict],
    text: str = "",
    headline: str | None = None,
    is_site: SitePredicate | None = None,
    model: LogisticModel | None = None,
    facts: dict[str, float] | None = None,
) -> list[str]:
    """Author names: the author model's choice among the names its sources give, or none.

    See :mod:`.author_model`; the ordered rule (:func:`rule_authors`) is one
    of its features. ``facts``: :func:`_author_page_facts` (none known: all 0).
    """
    sources = AuthorSources(tree, meta, articles, text, headline, is_site)
    cands, page = author_candidates(sources, facts)
    best = choose_author(cands, author_features(cands, page), model or load_author_model())
    return list(best.names) if best else []


def page_author_candidates(doc: Document) -> tuple[list[AuthorCandidate], PageContext]:
    """The author candidates and their page context, read as :func:`extract_metadata` reads them
    (training and benchmarks score the author model on exactly these)."""
    text = doc.visible_text
    anchor = _anchor(doc, text, extract_headline(doc))
    articles = _article_objects(doc.json_ld)
    dated = published_date(doc.tree, doc.meta, articles, text, anchor, doc.url) is not None
    sources = AuthorSources(doc.tree, doc.meta, articles, text, anchor, site_test(doc))
    return author_candidates(sources, _author_page_facts(doc, articles, dated))


def _author_page_facts(doc: Document, articles: list[dict], dated: bool) -> dict[str, float]:
    """What the author model's "no author" option reads of the page (author_model.PAGE_FACTS;
    author_candidates adds whether the headline is printed): whether the page has a
    publication date and declares an article (JSON-LD, og:type)."""
    ld_article = any(object_types(o) & (HEADLINE_TYPES - _PAGE_WRAPPERS) for o in articles)
    return {"dated": float(dated), "ld_article": float(ld_article),
            "og_article": float(og_type(doc) == "article")}  # the word the model was trained on


def author_candidates(sources: AuthorSources,
                      facts: dict[str, float] | None = None) -> tuple[list[AuthorCandidate], PageContext]:
    """The names of every source the rule read as candidates (its answer marked "rule"), and the
    page context the features read."""
    found = [("rule", rule_authors(sources), False)]
    # Only the sources the rule read before it stopped: reading every source on every page
    # cost 10% of the whole extract_article call (the class scans) and moved the grouped-CV
    # figures by a page or two (author 607/672, none in truth 107/684, against 604 and 106).
    found += [(name, sources.names(name), sources.organisation(name)) for name, _ in AUTHOR_SOURCES
              if sources.was_read(name)]
    # The rule's list last: it joins the candidate of the source it came from (order of trust kept).
    cands = merge_authors(found[1:] + found[:1])
    span = _title_span(sources.text, sources.headline)
    facts = {**(facts or {}), "headline_printed": float(span is not None)}
    page = PageContext(sources.text, span, sources.headline, sources.is_site, _name_facts, facts)
    return cands, page


def _name_facts(name: str) -> tuple[bool, bool, bool]:
    """(written like a person's name, holds a job word, a lower-case user handle)."""
    handle = " " not in name and bool(_HANDLE_RE.fullmatch(name)) and not name[:1].isupper()
    return bool(_PERSON_SHAPE.fullmatch(name)), bool(_JOB_RE.search(name)), handle


def rule_authors(sources: AuthorSources) -> list[str]:
    """The ordered rule: the most trusted source that yields a person.

    Publishers often declare their own name as the author (a JSON-LD
    Organization, ``<meta name=author content="Site">``) while the page
    shows the person's byline: a declared organisation or site name is kept
    only when no later source names someone.
    """
    fallback: list[str] = []
    listed: list[str] = []
    for name, kind in AUTHOR_SOURCES:
        names = sources.names(name)
        if not names:
            continue
        organisation = sources.organisation(name)
        if (fallback or listed) and kind == "dateline":
            break  # after a declared organisation or a list, a bare name beside the date is too weak
        if fallback and len(names) > 2:
            continue  # after a declared organisation, three names or more are a list (reviews, posts)
        if not organisation:
            if kind == "declared":
                return _shown_instead(names, sources)
            if kind == "classes" and len(names) > 2:
                listed = listed or names  # the class scan found a list (posters, commenters):
                continue  # the first post's user, if the template marks it, is the author
            return names
        fallback = fallback or names
    return fallback or listed


def _shown_instead(declared: list[str], sources: AuthorSources) -> list[str]:
    """The declared authors, unless the page prints none of them and its byline names someone else.

    Sites fill ``meta author`` or JSON-LD from the account that uploaded the
    post ("kffnirmitap", an editor) while the labelled byline ("By X",
    "Author: X") shows the writer. A declared name the page prints anywhere
    is kept, and so is the declaration when no byline names one or two people
    (a labelled one, else a full name on the dateline under the headline).
    """
    lowered = sources.text.casefold()
    if any(name.casefold() in lowered for name in declared):
        return declared
    shown = clean_authors(sources.raw("byline")) or [
        n for n in sources.names("dateline") if token_count(n) >= 2
    ]
    if shown and len(shown) <= 2:
        return shown
    return declared


class _Names(list):
    """A list of names that may say they are organisations (JSON-LD Organization)."""

    organisations = False


def _ld_authors(articles: list[dict]) -> list[str]:
    """JSON-LD author/creator: a string, a Person/Organization dict or a list of them.

    People win over organisations when both are listed.
    """
    people: list[str] = []
    orgs: list[str] = []
    for obj in articles:
        raw = obj.get("author") or obj.get("creator")
        for item in raw if isinstance(raw, list) else [raw]:
            if isinstance(item, str):
                people.append(item)
            elif isinstance(item, dict):
                name = item.get("name")
                if isinstance(name, list):
                    name = name[0] if name else None
                if isinstance(name, str):
                    (orgs if types_of(item) & _ORGANISATION_TYPES else people).append(name)
        if people or orgs:
            break
    names = _Names(people or orgs)
    names.organisations = not people
    return names


_ORGANISATION_TYPES = frozenset({"Organization", "NewsMediaOrganization", "Corporation", "WebSite"})


def _meta_authors(meta: dict[str, str]) -> list[str]:
    """``meta`` author tags, then a ``twitter:labelN`` "Written by" with its ``twitter:dataN``."""
    for key in AUTHOR_META:
        value = meta.get(key)
        if value and not _URL_RE.search(value):
            if key == "citation_author":
                value = _INVERTED_NAME.sub(r"\2 \1", value.strip())
            return [value]
    for n in range(1, 5):
        label = meta.get(f"twitter:label{n}", "")
        value = meta.get(f"twitter:data{n}")
        if value and _WRITTEN_BY_LABEL.search(label) and not _URL_RE.search(value):
            return [value]
    return []


# Highwire's citation_author is written "Last, First M." (one author per tag).
_INVERTED_NAME = re.compile(r"^([^\W\d][\w'’-]*(?: [^\W\d][\w'’-]*)?), ([^\W\d][\w'’.-]*(?: [^\W\d][\w'’.-]*){0,2})$")
_WRITTEN_BY_LABEL = re.compile(r"\b(?:written|author|autor|auteur|verfasst)", re.I)


def _semantic_authors(tree: HtmlElement) -> list[str]:
    """itemprop=author, then rel=author links: markup that names the role."""
    found: list[str] = []
    authors = [e for e in _under_body(tree, _ITEMPROPPED_BELOW) if e.get("itemprop") == "author"]
    for element in authors[:10]:
        names = element.xpath('.//*[@itemprop="name"]')
        value = element.get("content") or (
            names[0].get("content") or names[0].text_content() if names else element.text_content()
        )
        found.append(value)
    if found:
        return found
    links = [e for e in _under_body(tree, _RELATED_LINKS) if " author " in f" {e.get('rel')} "]
    for element in links[:10]:
        found.append(element.text_content())
    return found


# The word that introduces a byline's name, in the languages that write "By X".
_BY_WORDS = "by|von|par|por|door|av|przez"
# A visible byline line: "By Jane Roe", "Written by A, B on Nov 14", "Von Max Muster",
# "Author: Jane Roe", "Written by:Jane Roe", "Article byJane Roe" (markup glued the name).
_BYLINE_LINE = re.compile(
    r"^\s{0,3}(?:(?:this|the)\s(?:post|article|story|guide|page)\s(?:was|is)\s)?"
    r"(?:(?:written|posted|reported|words|story|text|article|authored|started|asked|submitted)\s{1,3})?"
    rf"(?:{_BY_WORDS})"
    r"(?:\s{0,3}[:：]\s{0,3}|\s{1,3}|(?=(?-i:[A-Z][a-z]))|(?<=(?-i:by))(?=(?-i:[A-Z]{2})))"
    r"(?P<names>[^\n]{2,120})$"
    rf"|^\s{{0,3}}(?:{_AUTHOR_LABELS}|authors|(?:article |post )?written by|posted by)"
    r"\s{0,2}[:：]\s{0,3}"
    r"(?P<labelled>[^\n]{2,120})$",
    re.I | re.M,
)
# Where a byline stops: "on <date>", a date, a separator, a handle.
_BYLINE_END = re.compile(r"\s(?:on|am|le|el|em|op|den|dia|in)\s|\s[|/／•·⋅@»]|\s\d|$", re.I)
_GLUED_LIST = re.compile(r"\n\s{0,3}([,&]|and|und)\s{0,3}\n", re.I)
_GLUED_BY = re.compile(
    r"^(\s{0,3}(?:(?:article|post|story)\s{1,3})?(?:(?:written|posted|article)\s{1,3})?"
    rf"(?:{_BY_WORDS})"
    r"\s{0,3}[:：]?"
    rf"|\s{{0,3}}(?:{_AUTHOR_LABELS}|authors)\s{{0,2}}[:：]?)\s{{0,3}}\n",
    re.I | re.M,
)
_ENDS_WITH_BY = re.compile(rf"(?:{_BY_WORDS})$", re.I)


# A line of one to three capitals above a line that may be a name: an avatar's initials
# ("Author / CP / Chengcheng Pei"), dropped when they are that name's initials.
_AVATAR_INITIALS = re.compile(r"^[ \t]{0,3}([A-Z]{1,3})[ \t]{0,3}\n(?=[ \t]{0,3}([^\n]{2,60})$)", re.M)


def _drop_initials(match: re.Match) -> str:
    initials = "".join(word[0] for word in match.group(2).split() if word[:1].isupper())
    return "" if initials == match.group(1) else match.group(0)


def _glue_label(match: re.Match) -> str:
    """A label alone on its line joined to the name below it; a bare "Author" gets its colon."""
    label = match.group(1).rstrip()
    if label[-1:] not in ":：" and not _ENDS_WITH_BY.search(label):
        label += ":"
    return label + " "


# Bylines looked for in the whole text when none is printed under the headline.
MAX_BYLINES = 40


def _text_byline(text: str, headline: str | None) -> list[str]:
    """A labelled byline line: under the headline first, else the one byline of the page.

    "By X", "Written by X", "Author: X" (a label followed by the name, which
    may be a link: ``<strong>Author:</strong> <a href=...>X</a>`` reads as one
    line). Lines are rejoined first where markup split a byline ("By\nA\n,\nB").
    Only short, capitalised names are kept: prose that starts with "By" is not
    a byline ("By 2030 the city ..."). Away from the headline a bare "By X"
    needs two words ("Shop by Category" is a filter), and a page whose bylines
    name three or more people is listing posts or reviews: none of them is
    taken.
    """
    span = _title_span(text, headline)
    if span:
        found = _bylines(text[span[1]:span[1] + 600], near=True)
        if len(found) in (1, 2):
            return found[:1]
        if found:
            return []  # three people or more under the headline: a list of posts or reviews
    found = _bylines(text, near=False)
    return found[:1] if len(found) in (1, 2) else []


def _bylines(window: str, near: bool) -> list[str]:
    """Distinct byline names of a stretch of text, in order (at most three are needed)."""
    found: list[str] = []
    window = _AVATAR_INITIALS.sub(_drop_initials, window)
    window = _GLUED_BY.sub(_glue_label, _GLUED_LIST.sub(r" \1 ", window))
    for number, match in enumerate(_BYLINE_LINE.finditer(window)):
        if number >= MAX_BYLINES or len(found) >= 3:
            break
        raw = match.group("names") or match.group("labelled") or ""
        names = _byline_names(raw) or (_first_name_of(raw) or _handle_of(raw) if near else "")
        bare = match.group("names") is not None and not _WRITTEN_BY.match(match.group(0))
        if not names or names in found or (bare and not near and not _person_like(names)):
            continue
        found.append(names)
    return found


# An author card: a name alone on its line, then (maybe after one line such as
# "Last updated on ...") a biography that starts with the same name. The name runs
# greedily to the line's end (the page text has no blanks there): a third cheaper
# than a lazy match, the same cards on 1,606 page texts.
_BIO_CARD = re.compile(
    r"^[ \t]{0,3}(?P<name>[^\W\d_][^\n]{2,50})\n(?:[^\n]{0,80}\n)?[ \t]{0,3}(?P=name)"
    r"(?:['’]s\b|\s(?:is|was|has|writes|covers|leads|works|joined|serves)\b)(?P<bio>[^\n]{0,200})",
    re.M,
)
# What tells a person's biography from a product's or a club's ("X is a free program"):
# a pronoun, or a role in the first words ("is a growth-focused marketing professional").
_BIO_PRONOUN = re.compile(r"\b(?:he|she|his|her)\b", re.I)
_BIO_ROLE = re.compile(
    _JOB_RE.pattern + r"|\b(?:manager|director|head|founder|co-founder|ceo|cto|president|partner|owner"
    r"|author|professor|researcher|scientist|engineer|developer|designer|consultant|specialist"
    r"|professional|expert|analyst|marketer|strategist|attorney|lawyer|physician|doctor|nurse"
    r"|therapist|coach|teacher|blogger)\b",
    re.I,
)
# Under the headline, a name line then a job line: "Jane Roe / Tech Writer".
_ROLE_CARD = re.compile(
    r"^[ \t]{0,3}(?P<name>[^\W\d_][^\n]{2,50}?)[ \t]{0,3}\n[ \t]{0,3}(?:[A-Z][\w&-]*[ \t]){0,3}"
    r"(?:[Ww]riter|[Ee]ditor|[Cc]orrespondent|[Rr]eporter|[Jj]ournalist|[Cc]olumnist|[Cc]ontributor)[ \t]*$",
    re.M,
)


# Characters of a biography after "Name is" in which its role is looked for.
BIO_ROLE_WITHIN = 60
# Characters under the headline a byline is looked for in.
NEAR_BYLINE = 600


def _author_card(text: str, headline: str | None) -> list[str]:
    """The one person an author card presents: "Jane Roe / Jane Roe is a marketing
    professional ..." anywhere, or "Jane Roe / Tech Writer" under the headline.

    A biography card sits beside or after the article, far from the headline,
    so it is trusted only when it reads as a person's (a pronoun or a role in
    its first words) and the page has exactly one: a team or contributors
    page prints several, and none of them is the author.
    """
    names: list[str] = []
    span = _title_span(text, headline)
    near = text[span[1]:span[1] + NEAR_BYLINE] if span else ""
    cards = [(m, m.group("bio")) for m in _BIO_CARD.finditer(text)] + [(m, None) for m in _ROLE_CARD.finditer(near)]
    for match, bio in cards:
        name = match.group("name")
        if bio is not None and not (_BIO_ROLE.search(bio, 0, BIO_ROLE_WITHIN) or _BIO_PRONOUN.search(bio)):
            continue
        if name not in names and _full_dateline_name(name):
            names.append(name)
            if len(names) > 1:
                return []
    return names


# Lines under the headline searched for an unlabelled name beside the dateline.
DATELINE_LINES = 8
# Names a dateline's name line may list.
MAX_DATELINE_NAMES = 6
# How many lines away from the name the date may be.
DATELINE_GAP = 1
# Words of page chrome that share a line with nothing else under headlines.
_DATELINE_CHROME = re.compile(
    r"\b(?:share|menu|home|blog|posts?|news|read|min|minutes?|updated|published|posted|comments?|print"
    r"|email|facebook|twitter|linkedin|subscribe|sign|log|search|back|next|previous|contents|table|tags?"
    r"|category|categories|topics?|advertisement|sponsored|listen|audio|video|photo|image|loading|skip"
    r"|show|hide|toggle|sidebar)\b",
    re.I,
)
_READ_TIME = re.compile(r"\b\d+\s*(?:min(?:ute)?s?)\b", re.I)


# After a date at the start of a line: a separator, the name, maybe a dangling " in" (its category).
_DATELINE_JOIN = re.compile(r"\s{0,3}[•·⋅|/—–-]\s{0,3}(?:by\s)?([^\d•·⋅|/]{3,60}?)(?:\s+in)?\s*$", re.I)


def _dateline_names(text: str, headline: str | None, is_site: SitePredicate) -> list[str]:
    """An unlabelled byline: a line under the headline holding only a name, beside the dateline.

    Many templates print "Headline / Jane Roe / Dec 19, 2025" with no "By":
    the name is a line of a few capitalised words (or one user handle) within
    two lines of a date or a reading time, among the first lines under the
    headline. The dateline is what tells a byline from a menu entry or a
    section name, which are short capitalised lines too.
    """
    for copy, end in enumerate(_headline_ends(text, headline)):
        names = _dateline_names_after(text[end:end + NEAR_BYLINE], headline, is_site)
        # Under a later copy (the first was a breadcrumb or a menu entry) only names written
        # like a person's, word by word, count: listings repeat titles above their chrome.
        if names and (copy == 0 or all(_PERSON_SHAPE.fullmatch(n) for n in names)):
            return names
    return []


# Capitalised words, initials and particles: "Trond Teigen", "Ann-Marie O'Neil", "J. R. de Vries".
_PERSON_SHAPE = re.compile(
    r"(?:(?:[A-Z](?:[a-z]+(?:['’-][A-Z]?[a-z]+)?|\.)|Mc[A-Z][a-z]+|O['’][A-Z][a-z]+|"
    + "|".join(sorted(_PARTICLES)) + r")(?:\s|$))+"
)


# Printed copies of the headline looked under (breadcrumb, then the heading, then a share box).
HEADLINE_COPIES = 3


def _headline_ends(text: str, headline: str | None) -> Iterator[int]:
    """Where each of the first printed copies of the headline ends."""
    span = _title_span(text, headline)
    if not span:
        return
    probe = text[span[0]:span[1]]
    end = span[1]
    for _ in range(HEADLINE_COPIES):
        yield end
        start = text.find(probe, end)
        if start < 0:
            return
        end = start + len(probe)


def _dateline_names_after(window: str, headline: str | None, is_site: SitePredicate) -> list[str]:
    """The dateline name among the first lines of ``window`` (the text after a printed headline)."""
    lines = [normalize_space(line) for line in window.split("\n")[1:DATELINE_LINES + 1]]
    found = [find_dates(line) for line in lines]
    dated = [bool(dates) or bool(_READ_TIME.search(line)) for line, dates in zip(lines, found, strict=True)]
    for line, dates in zip(lines, found, strict=True):
        # "Dec 26, 2025 • Jane Roe": the name shares the dateline, after a separator.
        rest = _DATELINE_JOIN.match(line[dates[0].end:]) if len(dates) == 1 and dates[0].start == 0 else None
        if rest and _full_dateline_name(rest.group(1)) and not is_site(rest.group(1)):
            return [rest.group(1)]
    for number, line in enumerate(lines):
        if not any(dated[max(0, number - DATELINE_GAP):number] + dated[number + 1:number + 1 + DATELINE_GAP]):
            continue
        name = line.strip(_BYLINE_PUNCT)
        names = _dateline_names_in(name)
        if names and not is_site(name) and folded(name) not in folded(headline or ""):
            return names
    return []


def _first_name_of(names: str) -> str:
    """The name before a comma when the rest is a role ("by Ann Lee, Candidate Representative to
    the Committee"): the whole reads as prose, its first part as a person."""
    head = names.split(",", 1)[0].strip()
    if head == names.strip() or not _person_like(head) or not _capitalised(head):
        return ""
    return _byline_names(head)


def _handle_of(names: str) -> str:
    """A user handle alone on its byline line under the headline ("by ibby", "by j_doe"),
    or before the date ("by galitsyn » 11. Sep 2024", a forum post's header)."""
    handle = _HANDLE_HEAD.match(names)
    return handle.group(1) if handle and _is_handle(handle.group(1)) else ""


# A handle, then the line's end or a separator before the date ("galitsyn » 11. Sep 2024").
_HANDLE_HEAD = re.compile(r"\s*(\S+?)\s*(?:[»|•·⋅]|$)")


def _dateline_names_in(line: str) -> list[str]:
    """The names of a dateline's name line: one name, or a list of two or more full names
    ("Ann Lee, Bo Chen and Al Smith", as paper and report pages print their authors)."""
    if _dateline_name(line):
        return [line]
    parts = [p for p in _AUTHOR_SPLIT.split(line) if p]
    if 2 <= len(parts) <= MAX_DATELINE_NAMES and all(map(_full_dateline_name, parts)):
        return parts
    return []


def _dateline_name(line: str) -> bool:
    """A few capitalised words (particles allowed), or one user handle; no digits, no chrome."""
    words = line.split()
    if not 1 <= len(words) <= 4 or _DATELINE_CHROME.search(line) or _CHROME_RE.search(line):
        return False
    if any(ch.isdigit() for ch in line) or line[-1:] in ".!?:;,":
        return False
    if len(words) == 1:
        # One capitalised word is a section or a button as often as a first name;
        # a user handle is written in lower case or with digits, dots, underscores.
        return _is_handle(line) and not line[0].isupper()
    return _capitalised(line) and all(w[0].isupper() or w.lower() in _PARTICLES for w in words)


def _full_dateline_name(text: str) -> bool:
    """A dateline name of two words or more: a first name alone, or a handle, may be anything."""
    return token_count(text) >= 2 and _dateline_name(text)


def _is_handle(text: str) -> bool:
    """One user-handle token of three characters or more ("ibby", "j_doe")."""
    return bool(_HANDLE_RE.fullmatch(text)) and len(text) >= 3


def _person_like(names: str) -> bool:
    """Every name of the list has two to four words ("Shop by Gender & Age" has none)."""
    parts = [p for p in _AUTHOR_SPLIT.split(names) if p]
    return bool(parts) and all(2 <= token_count(p) <= 4 for p in parts)


_WRITTEN_BY = re.compile(r"\s*(?:written|posted|article|authored)\s", re.I)


def _byline_names(names: str) -> str:
    """The names part of a byline line, or "" when it reads as prose."""
    names = names[:_BYLINE_END.search(names).start()]
    names = _cut_tail(names).strip(" ,;|-–—:")
    if not names or token_count(names) > 10 or not _capitalised(names):
        return ""
    if names[-1] in ".!?" and not re.search(r"\b[A-Z]\.$", names):
        return ""  # a sentence, not a name ("By now, everyone knows.")
    if _FACET_RE.search(names):
        return ""  # a filter or sort control ("Filter by Company Size", "Sort by Date")
    return names


# Last words of the controls that read "by X" without naming anyone.
_FACET_RE = re.compile(
    r"\b(?:type|size|category|categories|industry|industries|topic|date|price|popularity|relevance"
    r"|role|region|location|format|level|use case|solution|rating)s?$",
    re.I,
)


def markup_authors(tree: HtmlElement) -> list[str]:
    """Author names the markup points at: itemprop/rel author first, then class/id words.

    Book and media pages use it too: their author is marked up the same way.
    """
    for source in (_semantic_authors(tree), _class_authors(tree)):
        names = clean_authors(source)
        if names:
            return names
    return []


def _names_of(element: HtmlElement) -> str:
    """Class and id words of an element, camelCase split ("bookAuthor" -> "book Author")."""
    names = f"{element.get('class') or ''} {element.get('id') or ''}"
    return _CAMEL_RE.sub(" ", names)


# Elements with a class or id, in document order; which of them name an
# author is decided in Python below: lxml's XPath translate() per attribute
# costs more than a str.translate, measured (same elements).
_NAMED = etree.XPath("descendant::*[@class or @id]")
_AUTHOR_CASE = str.maketrans("ABHORTWY", "abhortwy")


def _class_named(tree: HtmlElement) -> tuple[list[HtmlElement], list[HtmlElement]]:
    """The elements the class and poster sources read, from one walk of the body.

    First: elements whose class holds "author", "byline" or "writer", or
    whose id holds the first two.  Only the letters of those words are
    lowered (as the XPath translate() this replaces did): "AUTHOR" keeps its
    "U" and names no author.  Second: elements whose class holds "user",
    "oster" or "author" ("User", "userName", "poster", "Author" too).
    A page whose rule reads the class source mostly reads the poster source
    next: one walk (and one proxy per named element) serves both.
    """
    authors: list[HtmlElement] = []
    users: list[HtmlElement] = []
    for element in _under_body(tree, _NAMED):
        get = element.get
        cls = get("class")
        if cls is not None:
            low = cls.translate(_USER_CASE)
            if "user" in low or "oster" in low or "author" in low:
                users.append(element)
            cls = cls.translate(_AUTHOR_CASE)
            if "author" in cls or "byline" in cls or "writer" in cls:
                authors.append(element)
                continue
        ident = get("id")
        if ident is not None:
            ident = ident.translate(_AUTHOR_CASE)
            if "author" in ident or "byline" in ident:
                authors.append(element)
    return authors, users


def _class_authors(tree: HtmlElement, candidates: list[HtmlElement] | None = None) -> list[str]:
    """Short elements whose class or id says author/byline/writer (weakest markup signal).

    ``candidates``: the first list of :func:`_class_named`, when the caller has it.
    """
    found: list[str] = []
    if candidates is None:
        candidates = _class_named(tree)[0]
    chosen = [
        e for e in candidates[:30]
        if _CLASS_AUTHOR_TOKEN.search(_names_of(e)) or (
            _CLASS_AUTHOR.search(_names_of(e)) and not _CLASS_NOT_AUTHOR.search(_names_of(e))
        )
    ]
    # An author element inside a byline element is the cleaner of the two.
    outer = {id(a) for e in chosen for a in e.iterancestors()}
    for element in chosen:
        if id(element) in outer:
            continue
        value = _strip_labels(normalize_space(" ".join(element.itertext())))
        if token_count(value) > 12:
            # An author box: the name first, then the biography ("Jane Roe / Jane Roe is a ...").
            value = _strip_labels(next((t.strip() for t in element.itertext() if t.strip()), ""))
        if value and token_count(value) <= 12 and _capitalised(value):
            found.append(value)
        if len(found) >= 3:
            break
    return found


# A class token of a forum post's user element ("username", "bigusername",
# "user-name", "PostUser-name", "poster", "postauthor", "author-name", the
# microformats "p-author"/"u-author"): the post template repeats it, and its
# first occurrence is the thread's starter.
_POSTER_CLASS = re.compile(
    r"^(?:big)?user-?name$|^poster(?:-?name)?$|^post-?(?:author|user)(?:-?name)?$|^author-?name$"
    r"|^[pu]-author$",  # microformats2: an h-entry's author
    re.I,
)
# Classes filtered in Python (:func:`_class_named`): libxml2's translate() on
# every class costs more than a str.translate, measured (same elements, 250 pages).
_USER_CASE = str.maketrans("UNA", "una")


def _poster_names(tree: HtmlElement, users: list[HtmlElement] | None = None) -> list[str]:
    """The first post's user in a thread: the first element whose class names a post's user.

    Forum handles are often lower case ("pelex", "b.scherer"), which the
    class-based author source rejects as prose; here the class names the role,
    so a single short word is taken as it is. ``users``: the second list of
    :func:`_class_named`, when the caller has it.
    """
    if users is None:
        users = _class_named(tree)[1]
    for element in users[:200]:
        if not any(_POSTER_CLASS.match(token) for token in (element.get("class") or "").split()):
            continue
        value = _strip_labels(normalize_space(element.text_content()))
        if value and token_count(value) <= 4 and _looks_like_name(value):
            return [value]
    return []


# A word that starts with a letter; "3i" of "3i Global" is no lower-case word.
_WORD_START = re.compile(r"(?<![\w'.-])[^\W\d_][\w'.-]*")


# A forum post's user card: the user's line, then (maybe after a rank such as "Member")
# the account's figures ("Registered: 2024-01-27", "Joined: Jul 2012", "Posts: 98").
_USER_CARD = re.compile(
    r"^[ \t]{0,3}(?P<name>[^\n]{2,40})\n(?:[^\n:]{1,30}\n){0,2}?[ \t]{0,3}"
    r"(?:registered|joined|posts|member since|messages)[ \t]{0,3}[:：]",
    re.M | re.I,
)


def _user_card(text: str) -> list[str]:
    """The thread starter from the first post's user card, when the template marks no class.

    The first line of the card that reads as a name is the user; a post number
    with its date does not.
    """
    match = _USER_CARD.search(text)
    if match:
        # The card's lines above its figures: a post number and date may come first ("#1 2025-11-01").
        for line in match.group(0).split("\n")[:-1]:
            name = line.strip()
            if token_count(name) <= 4 and _looks_like_name(name):
                return [name]
    return []


def _capitalised(value: str) -> bool:
    """Latin-script names start their words with capitals; prose does not.

    Only checked for the weak class-based source, where a byline element may
    hold a sentence ("The Russian and Syrian defense ministries").
    """
    for word in _WORD_START.findall(value):
        if not word[0].isascii() or word[0].isupper():
            continue
        if word.lower() not in _PARTICLES and word.lower() not in ("and", "und", "by", "the", "of") and not (
            _JOB_RE.fullmatch(word)
        ):
            return False
    return True


def _strip_labels(value: str) -> str:
    """'Written by X', 'Author: X', '作者：X' -> 'X'; dates and time cues are cut.

    The name may stand before the date ("X | Updated: 2024-...") or after it
    ("Posted on 27/01/2025 by X", "2024/09/05 09:00 | 周婷"): the first piece
    between dates that still holds something once labels are gone is the name.
    """
    pieces, pos = [], 0
    for date in find_dates(value):
        pieces.append(_ON_BEFORE_DATE.sub("", value[pos:date.start]))  # "X on <date>"
        pos = date.end
    pieces.append(value[pos:])
    for piece in pieces:
        name = _BYLINE_LABEL_RE.sub("", _cut_tail(piece).strip(_BYLINE_PUNCT))
        name = name.strip(_BYLINE_PUNCT)
        if name:
            return name
    return ""


_BYLINE_PUNCT = " |-–—:：,.·•⋅"
_ON_BEFORE_DATE = re.compile(r"[\s.,;]+on\s*$", re.I)
_BYLINE_LABEL_RE = re.compile(
    r"^(?:(?:(?:written|posted|published|reported|updated)\s+)?(?:on\s+)?(?:by\s+)"
    r"|(?:posted|published|updated)(?:\s+on)?\s*$"
    rf"|(?:{_AUTHOR_LABELS}|authors|作者|文)\s{{0,2}}[:：/]\s{{0,2}})",
    re.IGNORECASE,
)


def _cut_tail(value: str) -> str:
    """Keep what precedes a separator or a time cue ("X | Updated: ...", "X. Published ...")."""
    parts = _BYLINE_TAIL_RE.split(value)
    if len(parts) == 1:
        return value
    return next((p.rstrip(" .") for p in parts if p.strip(_BYLINE_PUNCT)), "")


_BYLINE_TAIL_RE = re.compile(
    # "on" cues a date only when something follows it ("Audiophile ON" is a name).
    r"\s*[|•·⋅»]\s*|[\s.,;]+(?:published|updated|last\s+updated|posted|modified|on(?!\s*$))\b",
    re.IGNORECASE,
)


def _zh_text_authors(text: str, headline: str | None) -> list[str]:
    """Labelled bylines in the text: near the headline first, then anywhere after it.

    Authors (作者, 记者, 文/) win over forum posters ("X 发表于"), which win over
    editors (责任编辑), who are only a fallback: many Chinese portals name the
    editor and nobody else.
    """
    labelled = bool(_ZH_ANY_LABEL.search(text))
    if not labelled and not CJK_RE.search(text):
        return []  # cheap exit for pages in other languages
    posters = bool(_ZH_POSTER_CUE.search(text))
    span = _title_span(text, headline)
    start = max(0, span[0] - BEFORE_TITLE) if span else 0
    near = text[start:(span[1] if span else 0) + AFTER_TITLE]
    rest = text[start:]
    for regex, window in (
        (_ZH_AUTHOR, near), (_ZH_POSTER, near), (_ZH_AUTHOR, rest), (_ZH_POSTER, rest),
        (None, near), (_ZH_EDITOR, rest),
    ):
        if regex is None:
            names = _name_line_authors(text, span, headline)
            if names:
                return names
            continue
        if not labelled or (regex is _ZH_POSTER and not posters):
            continue
        pieces: list[str] = []
        last_end = -1
        for match in regex.finditer(window):
            if pieces and match.start() - last_end > 40:
                break  # only bylines printed together ("实习生 A\n记者 B C") are merged
            found = match.group("names") or match.groupdict().get("glued") or ""
            # Han names are listed with spaces; a Latin name keeps its own
            names = [found] if _LATIN_NAME_RE.fullmatch(found) else [p for p in _NAME_SPLIT.split(found) if p]
            names = [p for p in names if p not in _NOT_NAMES]
            if names:
                pieces.extend(names)
                last_end = match.end()
        if pieces:
            return pieces[:10]
    return []


_NAME_LINE_PIECE = re.compile(f"^[{_HAN}][{_HAN}·]{{1,3}}$")
_NAME_LINE_JUNK = re.compile(r"[^\w\s、,，·]")
# A byline line may go on with the source or the time: keep what precedes them.
_NAME_LINE_CUT = re.compile(r"来源|來源|出处|出處|时间|時間|日期|发布|發布")


def _name_line_authors(
    text: str, span: tuple[int, int] | None, headline: str | None, lines: int = 4
) -> list[str]:
    """Unlabelled bylines: a line right below the headline holding only person names.

    Chinese pages often print "胡平" or "赵延东、风笑天" alone under the title
    (the title may be printed more than once: breadcrumb, then heading, so the
    first four places it appears are tried). A 2-4 character word is not
    necessarily a name ("关注", "分享到"), so jieba's part-of-speech tagger must
    call at least half of them a person name (nr); it loads lazily, and only
    for such short lines.
    """
    if not span:
        return []
    probe = _TRAILING_NOTE.sub("", text[span[0]:span[1]]) or text[span[0]:span[1]]
    end = span[1]
    for _ in range(4):
        for line in text[end:end + 400].split("\n")[1:lines + 1]:
            line = _NAME_LINE_CUT.split(line, 1)[0]
            pieces = [p for p in _NAME_SPLIT.split(_NAME_LINE_JUNK.sub(" ", line)) if p]
            if not 1 <= len(pieces) <= 4 or not all(_NAME_LINE_PIECE.match(p) for p in pieces):
                continue
            people = sum(1 for p in pieces if _is_person_name(p))
            if people and people * 2 >= len(pieces):
                return pieces
        nxt = text.find(probe, end, end + 5000)
        if nxt < 0:
            break
        end = nxt + len(probe)
    return []


def _is_person_name(word: str) -> bool:
    # Through keywords._jieba so the dictionary loads once, quietly.
    from .keywords import _jieba

    _jieba()
    import jieba.posseg as posseg

    tagged = posseg.lcut(word)
    return len(tagged) == 1 and tagged[0].flag.startswith("nr")


# Words that follow a label but are no one's name.
_NOT_NAMES = frozenset("来源 来自 时间 日期 发布 编辑 本报 报道 摄影 未知 佚名 网友 匿名 admin".split())


def clean_authors(values: Iterable[str], roles: bool = False) -> list[str]:
    """Strip 'By', e-mails and URLs, split 'A and B', drop junk, dedupe in order."""
    seen: set[str] = set()
    names: list[str] = []
    for value in _split_names(values, roles):
        key = value.casefold()
        if key in seen:
            continue
        seen.add(key)
        names.append(value)
        if len(names) >= 10:
            break
    return names


def _split_names(values: Iterable[str], roles: bool = False) -> Iterator[str]:
    for value in values:
        if not isinstance(value, str):
            continue
        value = normalize_space(_EMAIL_RE.sub("", value))
        value = _BY_RE.sub("", value)
        if not value or _URL_RE.search(value):
            continue
        for position, name in enumerate(_AUTHOR_SPLIT.split(value)):
            name = _BY_RE.sub("", name).strip(" .|-–—:：@")
            if position and (_CREDENTIAL_RE.match(name) or _JOB_RE.search(name)):
                continue  # "Rachael Link, MS, RD", "X, CNN Editor": degrees and jobs after a name
            if _looks_like_name(name, roles):
                yield name


def _looks_like_name(name: str, roles: bool = False) -> bool:
    """Short, mostly letters, not a URL, not a date or a bare label."""
    if not name or len(name) > 60 or _URL_RE.search(name):
        return False
    if token_count(name) > 8 or _CHROME_RE.search(name):
        return False
    if sum(ch.isdigit() for ch in name) > 2 and not (
        _HANDLE_RE.fullmatch(name) and sum(ch.isalpha() for ch in name) >= 3
    ):
        return False  # a date, a count or an id ("L_104485"); a user handle ("paulb203") keeps its digits
    if all(word in _LABEL_WORDS for word in name.casefold().split()) or _TEMPLATE_KEY.fullmatch(name):
        return False
    if _CALENDAR_WORD.fullmatch(name):
        return False  # "Sun", "Wed" of a "Joined: Sun Dec 17" line
    if _JOB_RE.search(name) and not roles:
        rest = _JOB_RE.sub(" ", name)
        if not any(w[0].isupper() and w.casefold() not in _NOT_A_NAME_WORDS
                   for w in re.findall(r"[^\W\d_][\w'.-]*", rest)):
            return False  # only a job title ("Staff Writer", "The Editors")
    return any(ch.isalpha() for ch in name)


# A weekday or a month, whole or abbreviated: part of a date, never a name.
_CALENDAR_WORD = re.compile(
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?|wednesday|tuesday|thursday|saturday"
    r"|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t|tember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?",
    re.I,
)
# A template's unfilled placeholder ("page.head.extra.author", "{{ author }}").
_TEMPLATE_KEY = re.compile(r"[a-z_]+(?:\.[a-z_]+){3,}|.*(?:\{\{|\}\}|\$\{).*")
# A forum or site user name: one ASCII word that starts with a letter.
_HANDLE_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{1,40}")
# Capitalised words that do not make a job title a name ("Senior Staff Writer").
_NOT_A_NAME_WORDS = frozenset("the our senior chief contributing guest special associate managing "
                              "executive deputy".split())


# -- language and description -----------------------------------------------

_SCRIPT = {
    "zh": "han", "ja": "ja", "ko": "ko", "ru": "cyr", "uk": "cyr", "bg": "cyr", "sr": "cyr",
    "be": "cyr", "mk": "cyr", "kk": "cyr", "ar": "arab", "fa": "arab", "ur": "arab",
    "th": "thai", "he": "heb", "yi": "heb", "el": "greek",
}
_LANG_RE = re.compile(r"^\s*([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*\s*$")


def normalize_language(value: str | None) -> str | None:
    """'zh-CN', 'en_US', 'EN' -> ISO 639-1 ('zh', 'en'); junk -> None."""
    if not value:
        return None
    match = _LANG_RE.match(value.split(",")[0])
    if not match:
        return None
    code = match.group(1).lower()
    return {"chi": "zh", "zho": "zh", "eng": "en", "cn": "zh", "jp": "ja", "kr": "ko"}.get(code, code)


def declared_language(tree: HtmlElement, meta: dict[str, str], articles: list[dict]) -> str | None:
    """The language the page declares: <html lang>, meta, og:locale, JSON-LD."""
    values: list[object] = [tree.get("lang"), tree.get("xml:lang")]
    values.extend(meta.get(key) for key in LANGUAGE_META)
    values.extend(obj.get("inLanguage") for obj in articles)
    for value in values:
        code = normalize_language(value) if isinstance(value, str) else None
        if code:
            return code
    return None


def find_language(
    tree: HtmlElement, meta: dict[str, str], articles: list[dict], text: str
) -> str | None:
    """Declared language unless the text is plainly in another script.

    Templates often keep lang="en" on Chinese or Russian sites; when the
    script of the text disagrees with the declared language, the script wins.
    """
    declared = declared_language(tree, meta, articles)
    guessed = guess_language(text)
    if declared is None:
        return guessed
    if guessed and _SCRIPT.get(guessed, "latin") != _SCRIPT.get(declared, "latin"):
        return guessed
    return declared


def find_description(meta: dict[str, str], articles: list[dict]) -> str | None:
    for key in DESCRIPTION_META:
        value = normalize_space(meta.get(key) or "")
        if value:
            return value
    for obj in articles:
        value = obj.get("description")
        if isinstance(value, str) and normalize_space(value):
            return normalize_space(value)
    return None
