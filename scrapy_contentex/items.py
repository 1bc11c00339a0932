"""Items: plain dataclasses (ItemAdapter accepts them), JSON-serialisable fields.

Field names follow the Zyte item schema; ``pageType``, ``contentProbability``
and the ``contentex*`` fields are ours. ``contentProbability`` is the page-type
classifier's confidence (0..1, 4 places) that the page is a content page; it is
None only when no classification ran (e.g. an item built by ``api.extract`` on
its own, outside a crawl). Article and Product are distinct classes so that FEEDS
``item_classes`` can route them to different files.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Article:
    url: str | None = None
    pageType: str = "content"
    contentProbability: float | None = None
    headline: str | None = None
    articleBody: str | None = None
    datePublished: str | None = None
    datePublishedRaw: str | None = None
    authors: list[str] = field(default_factory=list)
    inLanguage: str | None = None
    description: str | None = None
    contentexError: str | None = None


@dataclass
class Product:
    url: str | None = None
    pageType: str = "content"
    contentProbability: float | None = None
    name: str | None = None
    price: str | None = None
    currency: str | None = None
    currencyRaw: str | None = None
    regularPrice: str | None = None
    availability: str | None = None
    sku: str | None = None
    mpn: str | None = None
    gtin: str | None = None
    brand: str | None = None
    description: str | None = None
    additionalProperties: list[dict[str, str]] = field(default_factory=list)
    contentexError: str | None = None


@dataclass
class PageType:
    """The page-type decision and the link-block figures behind it.

    ``score`` is the confidence that the page is an index page and
    ``contentProbability`` (= 1 - score) that it is a content page.
    """

    url: str | None = None
    pageType: str = "content"
    contentProbability: float | None = None
    score: float = 0.0
    linkCoverage: float = 0.0
    codeCoverage: float = 0.0
    linkBlocks: int = 0
    links: int = 0


@dataclass
class Page:
    """A content (or, when emitted, index) page on its way to the pipelines.

    The pipelines turn it into an Article or a Product; ``html`` is the decoded
    page text so the item stays picklable and JSON-serialisable.
    """

    url: str | None = None
    pageType: str = "content"
    html: str | None = None
    kind: str = "auto"
    pageTypeScore: float | None = None
    contentProbability: float | None = None
    contentexError: str | None = None
