"""Items: plain dataclasses (ItemAdapter accepts them), JSON-serialisable fields.

Field names follow the Zyte item schema; ``pageType`` and the ``contentex*``
fields are ours. Article and Product are distinct classes so that FEEDS
``item_classes`` can route them to different files.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Article:
    url: str | None = None
    pageType: str = "content"
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
    """The page-type decision and the link-block figures behind it."""

    url: str | None = None
    pageType: str = "content"
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
    contentexError: str | None = None
