"""The public functions: HTML (bytes or text) in, an item out.

Each accepts ``bytes`` (decoded as Scrapy would), ``str`` or a parsed
:class:`~scrapy_contentex.core.document.Document`, so a caller that runs
several extractors on one page parses it once.
"""

from __future__ import annotations

from .core.document import Document, as_document
from .items import Article, PageType, Product

HtmlInput = bytes | str | Document


def classify_page(html: HtmlInput, url: str | None = None, **params) -> PageType:
    """Index or content page: logical link blocks (seed 004) and the page's
    other figures, weighed by the shipped model (docs/pagetype.md).

    ``params`` override the engine's parameters (see
    ``core.pagetype.PageTypeParams``; ``threshold`` is the cut on the index
    score). ``contentProbability`` is the confidence that the page is a
    content page, ``score`` (its complement) that it is an index page.
    """
    from .core.pagetype import PageTypeParams, classify

    doc = as_document(html, url)
    result = classify(doc, PageTypeParams(**params) if params else None)
    return PageType(
        url=doc.url,
        pageType=result.label,
        contentProbability=round(result.probability, 4),
        score=round(result.score, 4),
        linkCoverage=round(result.lcr, 4),
        codeCoverage=round(result.ccr, 4),
        linkBlocks=len(result.blocks),
        links=result.links,
    )


def extract_article(
    html: HtmlInput,
    url: str | None = None,
    algorithm: str = "default",
    params: dict | None = None,
) -> Article:
    """Headline, body text and metadata of an article page.

    ``algorithm`` picks the text extractor: "default" (the learned line
    model), "rules" (the rule-based region choice it reads as one feature),
    "contentex", "twcem", "domweight" or "vsse" (the seeds); ``params``
    override that algorithm's parameters (the ``CONTENTEX_TEXT_PARAMS`` setting).
    """
    from .core.metadata import declared_body, extract_metadata
    from .core.text import extract_text

    doc = as_document(html, url)
    meta = extract_metadata(doc)
    body = extract_text(doc, algorithm=algorithm, **(params or {}))
    # A script-rendered page shows little text but declares its body in
    # JSON-LD: when the declared body is over twice what we found, use it.
    declared = declared_body(doc)
    if declared and len(body) < 0.5 * len(declared):
        body = declared
    return Article(url=doc.url, articleBody=body or None, **meta)


def extract_product(html: HtmlInput, url: str | None = None,
                    attributes: list[str] | None = None) -> Product:
    """Product record: structured data first, then the seed's record area.

    ``attributes`` extends the records method's attribute-name dictionary
    (the ``CONTENTEX_RECORD_ATTRIBUTES`` setting).
    """
    from .core.gcpause import gc_paused
    from .core.product import extract_product_fields

    # The page's tree and leaves are dropped before the collector resumes:
    # it would otherwise walk them all once more on its way out (core.gcpause).
    with gc_paused():
        doc = as_document(html, url)
        fields = extract_product_fields(doc, extra_attributes=attributes)
        page_url = doc.url
        del doc
    return Product(url=page_url, **fields)


def guess_kind(html: HtmlInput, url: str | None = None) -> str:
    """"article" or "product": what kind of content page this is."""
    from .core.kind import guess_kind as _guess

    return _guess(as_document(html, url))


def extract(
    html: HtmlInput,
    url: str | None = None,
    kind: str = "auto",
    algorithm: str = "default",
    params: dict | None = None,
    attributes: list[str] | None = None,
) -> Article | Product:
    """Extract an Article or a Product; ``kind="auto"`` decides per page."""
    doc = as_document(html, url)
    if kind == "auto":
        kind = guess_kind(doc)
    if kind == "product":
        return extract_product(doc, attributes=attributes)
    if kind == "article":
        return extract_article(doc, algorithm=algorithm, params=params)
    raise ValueError(f"kind must be 'auto', 'article' or 'product', not {kind!r}")
