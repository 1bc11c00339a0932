"""Index or content page from its logical link blocks (seed 004), no tree needed.

One forward scan (:mod:`.linkblocks`) finds the page's logical link blocks.
The seed observes that index pages are links almost everywhere (high link
coverage LCR, little text outside blocks) while a content page is mostly one
text region framed by link blocks. We turn that into a small logistic score
with three features, each measured to carry signal on its own:

* ``region_share``: text units of the largest region outside the blocks over
  all text units of the page (the body of an article is one big region; on
  an index page every region is a short teaser). Single-threshold balanced
  accuracy on the development set: 0.91.
* ``lcr``: the seed's link coverage ratio (index pages close to 1).
* ``declared``: what the page says about itself, when it says anything:
  +1 for an ``og:type`` other than "website" or a JSON-LD article/product
  type, -1 for ``og:type`` "website" or a JSON-LD list/collection page,
  0 when silent (most Chinese pages). Read with a regex, no JSON parsing.

``score = sigmoid(bias + w_region*region_share + w_lcr*lcr + w_declared*declared)``
is the confidence (0..1) that the page is an index page; ``label`` is
"index" when ``score >= threshold``. The weights are a logistic fit with
class-balanced weights on the development set, rounded (see
docs/pagetype.md and ``python -m benchmarks.pagetype --sweep``). URLs are
never used: the decision comes from the page alone.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from .document import Document
from .linkblocks import LinkBlock, LinkBlockScan, find_link_blocks

# Default d_t per distance: text units vs characters of attribute-free markup.
DEFAULT_MAX_DISTANCE = {"text": 20, "code": 80}


@dataclass
class PageTypeParams:
    """Every knob of the page-type decision; defaults chosen on the development set.

    ``min_links`` is the seed's C_t, ``max_distance`` its d_t (``None``: 20
    text units, or 80 characters with ``distance="code"``). The weights were
    fitted with text distance, C_t=2, d_t=20.
    """

    min_links: int = 2
    max_distance: int | None = None
    distance: str = "text"
    threshold: float = 0.5
    bias: float = -0.4
    w_region: float = -10.0
    w_lcr: float = 3.6
    w_declared: float = -3.4
    use_declared: bool = True

    def resolved_distance(self) -> int:
        if self.max_distance is not None:
            return int(self.max_distance)
        return DEFAULT_MAX_DISTANCE.get(self.distance, 20)


@dataclass
class PageTypeResult:
    """The decision and the figures behind it.

    ``score`` is the confidence (0..1) that the page is an index page;
    ``label`` is "index" when it reaches ``params.threshold``. ``lcr`` and
    ``ccr`` are the seed's link and code coverage ratios, ``blocks`` the
    logical link blocks (offsets into the decoded HTML), ``links`` the
    number of links on the page.
    """

    label: str
    score: float
    lcr: float
    ccr: float
    blocks: list[LinkBlock] = field(default_factory=list)
    links: int = 0
    region_share: float = 0.0
    declared: int = 0
    scan: LinkBlockScan | None = field(default=None, repr=False)


# --- declared type ------------------------------------------------------------

_OG_TYPE_RE = re.compile(
    r"""<meta\b[^<>]*?(?:property|name)\s*=\s*["']?og:type\b[^<>]*>""", re.I
)
_CONTENT_ATTR_RE = re.compile(r"""\bcontent\s*=\s*["']?\s*([^"'\s>]+)""", re.I)
_LD_TYPE_RE = re.compile(r""""@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?(\w+)\"""")
_LD_CONTENT = frozenset(
    "Article NewsArticle BlogPosting Report ScholarlyArticle TechArticle LiveBlogPosting "
    "SocialMediaPosting DiscussionForumPosting QAPage Product Recipe VideoObject "
    "AnalysisNewsArticle OpinionNewsArticle ReviewNewsArticle".split()
)
_LD_INDEX = frozenset("CollectionPage ItemList SearchResultsPage".split())
# The subject of a page about one thing: a product, a Q&A page or question, a
# discussion thread. JSON-LD types come from _LD_TYPE_RE; microdata ones from
# this pattern, which opens with a literal the regex engine searches for fast.
_SUBJECT_TYPES = frozenset(("Product", "QAPage", "Question", "DiscussionForumPosting"))
_SUBJECT_MD_RE = re.compile(
    r'itemtype\s*=\s*["\']?https?://schema\.org/(' + "|".join(sorted(_SUBJECT_TYPES)) + r')(?!\w)'
)


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
    m = _OG_TYPE_RE.search(html)
    if m:
        c = _CONTENT_ATTR_RE.search(m.group(0))
        if c:
            if c.group(1).lower() != "website":
                return 1
            ld_types = _LD_TYPE_RE.findall(html)
            return 1 if _one_subject(html, ld_types) and not _LD_INDEX.intersection(ld_types) else -1
    ld_types = _LD_TYPE_RE.findall(html)
    types = set(ld_types)
    if types & _LD_INDEX:
        return -1
    if "itemtype" in html:
        # microdata content types too; its list types mark sidebars as often as lists
        types.update(_MD_TYPE_RE.findall(html))
    if types & _LD_CONTENT or _one_subject(html, ld_types):
        return 1
    return 0


def _one_subject(html: str, ld_types: list[str]) -> bool:
    """A Product, QAPage, Question or DiscussionForumPosting declared (JSON-LD or
    microdata), none of them twice: a Q&A page declares its page and its one
    question, a list page declares many of one kind."""
    counts = Counter(t for t in ld_types if t in _SUBJECT_TYPES)
    if "itemtype" in html:
        counts.update(_SUBJECT_MD_RE.findall(html))
    return bool(counts) and max(counts.values()) == 1


# --- the decision -------------------------------------------------------------


def region_share(scan: LinkBlockScan) -> float:
    """Share of the page's text in its largest region outside the link blocks."""
    if scan.text_units <= 0:
        return 0.0
    return max(scan.region_units()) / scan.text_units


def index_score(region: float, lcr: float, declared: int, params: PageTypeParams) -> float:
    """Logistic confidence that a page with these figures is an index page."""
    z = params.bias + params.w_region * region + params.w_lcr * lcr
    if params.use_declared:
        z += params.w_declared * declared
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def classify(doc: Document, params: PageTypeParams | None = None) -> PageTypeResult:
    """Classify a page as "index" or "content" from one scan of its HTML text."""
    params = params or PageTypeParams()
    scan = find_link_blocks(
        doc.html, params.min_links, params.resolved_distance(), params.distance
    )
    region = region_share(scan)
    declared = declared_type(doc.html) if params.use_declared else 0
    score = index_score(region, scan.lcr, declared, params)
    return PageTypeResult(
        label="index" if score >= params.threshold else "content",
        score=score,
        lcr=scan.lcr,
        ccr=scan.ccr,
        blocks=scan.blocks,
        links=scan.link_count,
        region_share=region,
        declared=declared,
        scan=scan,
    )
