"""The per-response work of the Scrapy layer, as one pure function.

decode -> Document -> page type -> record-page check -> text check -> item.

No Scrapy import and only picklable inputs and outputs, so the same function
runs in the crawl process (``CONTENTEX_WORKERS = 0``) and in the worker
processes of :mod:`scrapy_contentex.pool`: both paths give the same items by
construction. The Scrapy glue (middleware, pipeline) only moves these values
into meta, stats and feeds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from functools import cache, partial
from typing import Any

from .core.document import Document
from .core.errors import ContentexError, EmptyDocumentError, NotHtmlError
from .items import Article, PageType, Product

_JSON_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class WorkSettings:
    """The CONTENTEX_* values the per-page work needs (small and picklable)."""

    pagetype_params: tuple[tuple[str, Any], ...] = ()
    record_pages: bool = True
    text_algorithm: str = "default"
    text_params: tuple[tuple[str, Any], ...] = ()
    record_attributes: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, config: Any) -> WorkSettings:
        """From a :class:`~scrapy_contentex.settings.ContentexSettings`."""
        return cls(
            pagetype_params=tuple(sorted(config.pagetype_params.items())),
            record_pages=config.record_pages,
            text_algorithm=config.text_algorithm,
            text_params=tuple(sorted(config.text_params.items())),
            record_attributes=tuple(config.record_attributes),
        )


@dataclass
class PageResult:
    """What the work found out about one response (picklable, no tree).

    ``label`` is None when the response is not a page (``skip`` says why).
    ``item`` is the extracted Article or Product when extraction ran; on an
    extraction failure it is an empty one of the right class with
    ``contentexError`` set, and ``error`` holds the stat slug.
    """

    label: str | None = None
    skip: str | None = None
    score: float | None = None
    probability: float | None = None
    page_type: PageType | None = None
    by_record: bool = False
    classify_error: str | None = None
    record_error: str | None = None
    item: Article | Product | None = None
    error: str | None = None
    classify_ms: float = 0.0
    extract_ms: float = 0.0
    # In-process only: the parsed page, so a later extraction parses nothing
    # again. Never set on results that cross a process boundary.
    doc: Document | None = field(default=None, repr=False, compare=False)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _values(obj: Any) -> tuple:
    return tuple(getattr(obj, name) for name in _field_names(type(obj)))


def to_wire(result: PageResult) -> tuple:
    """A result as a tuple of plain values (str, numbers, lists, dicts), for the pipe.

    Why not the dataclasses themselves: unpickling a PageResult with its
    PageType and item costs the crawl's main thread about 6.7 us a page
    (three classes looked up and rebuilt through ``copyreg``) against 1.4 us
    for this tuple, and the main thread sets the pace of a crawl with workers.
    The tuple follows PageResult's fields (the tree left out), the page type
    and the item as their own field values; ``from_wire`` rebuilds an equal
    PageResult.
    """
    flat = {name: getattr(result, name) for name in _field_names(PageResult)
            if name != "doc"}  # a tree never crosses the pipe
    page_type, item = result.page_type, result.item
    flat["page_type"] = None if page_type is None else _values(page_type)
    flat["item"] = None if item is None else (isinstance(item, Product), _values(item))
    return tuple(flat.values())


def from_wire(values: tuple) -> PageResult:
    """The PageResult that ``to_wire`` flattened."""
    result = PageResult(*values)
    if result.page_type is not None:
        result.page_type = PageType(*result.page_type)
    if result.item is not None:
        is_product, fields_ = result.item
        result.item = (Product if is_product else Article)(*fields_)
    return result


def jsonable(value: Any) -> Any:
    """Coerce a field value to JSON types (items must survive any feed exporter)."""
    if isinstance(value, _JSON_SCALARS):
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def error_reason(exc: BaseException) -> str:
    """Stable stat slug for a failure: the core's reason, or the exception class."""
    if isinstance(exc, ContentexError):
        return exc.reason
    return type(exc).__name__


def decode_reason(exc: BaseException) -> str:
    """Skip reason for a body that did not become a page."""
    if isinstance(exc, NotHtmlError):
        return "non_html"
    if isinstance(exc, EmptyDocumentError):
        return "empty"
    if isinstance(exc, ContentexError):
        return exc.reason
    return "decode"


def has_text(doc: Document) -> bool:
    """Whether the page holds any text at all (stops at the first non-blank node)."""
    return any(text.strip() for text in doc.tree.itertext())


def failed_item(kind: str, url: str | None, exc: BaseException | str) -> Article | Product:
    """The item kept for a page whose extraction failed (never lose an item)."""
    reason = exc if isinstance(exc, str) else f"{error_reason(exc)}: {exc}"
    cls = Product if kind == "product" else Article
    return cls(url=url, pageType="content", contentexError=reason[:500])


def set_probability(item: Any, probability: float | None) -> None:
    """Copy the content probability onto an item that declares the field."""
    if probability is not None and "contentProbability" in {f.name for f in fields(item)}:
        item.contentProbability = probability


def extract_item(doc: Document, url: str | None, kind: str,
                 settings: WorkSettings) -> Article | Product:
    """The Article or Product of a content page, JSON-ready; raises on failure."""
    from . import api

    if kind == "auto":
        kind = api.guess_kind(doc, url)
    if kind == "product":
        item: Article | Product = api.extract_product(
            doc, url, attributes=list(settings.record_attributes))
    elif kind == "article":
        item = api.extract_article(doc, url, algorithm=settings.text_algorithm,
                                   params=dict(settings.text_params))
    else:
        raise ValueError(f"kind must be auto, article or product, not {kind!r}")
    for f in fields(item):
        setattr(item, f.name, jsonable(getattr(item, f.name)))
    if not item.url:
        item.url = url
    item.pageType = "content"
    return item


def _classify(doc: Document, url: str | None, kind: str, settings: WorkSettings,
              result: PageResult) -> None:
    """Page type, then the record-page check; fills ``result``; raises ContentexError."""
    from . import api

    result.label = "content"
    try:
        page_type = api.classify_page(doc, url, **dict(settings.pagetype_params))
        result.label = page_type.pageType if page_type.pageType in ("index", "content") \
            else "content"
        result.score = page_type.score
        result.probability = getattr(page_type, "contentProbability", None)
        result.page_type = page_type
    except ContentexError:  # the tree could not be built: not a page
        raise
    except Exception as exc:
        # Advisory: treat the page as content so its extraction is still
        # attempted (and its item not lost).
        result.classify_error = repr(exc)
    if result.label == "index" and settings.record_pages and kind != "article":
        from .core.kind import record_page

        try:
            if record_page(doc):
                result.label = "content"
                result.by_record = True
        except Exception as exc:  # advisory, like the page type itself
            result.record_error = repr(exc)


def process_page(body: bytes | str, url: str | None, content_type: str | None, kind: str,
                 settings: WorkSettings, extract: bool = True) -> PageResult:
    """Everything the crawl needs to know about one response body; never raises.

    The page is parsed once: classification and extraction share the tree.
    With ``extract=False`` (the in-process path, which extracts later and only
    when the spider made no item of its own) the parsed Document is kept on
    the result instead.
    """
    started = time.perf_counter()
    result = PageResult()
    try:
        doc = Document(body, url=url, content_type=content_type)
        _classify(doc, url, kind, settings, result)
        if result.label == "content" and not has_text(doc):
            result.label, result.skip = None, "empty"
    except Exception as exc:  # undecodable bytes, binary, empty after decoding
        result.label, result.skip = None, decode_reason(exc)
    finished = time.perf_counter()
    result.classify_ms = (finished - started) * 1000
    if result.label != "content":
        return result
    if not extract:
        result.doc = doc
        return result
    try:
        result.item = extract_item(doc, url, kind, settings)
    except Exception as exc:
        result.item = failed_item(kind, url, exc)
        result.error = error_reason(exc)
    set_probability(result.item, result.probability)
    result.extract_ms = (time.perf_counter() - finished) * 1000
    return result


def process_page_wire(body: bytes | str, url: str | None, content_type: str | None,
                      kind: str, settings: WorkSettings | tuple) -> tuple:
    """``process_page`` with extraction, its result flattened by ``to_wire``: what
    the worker pool runs for the crawl (the parent rebuilds it with ``from_wire``).

    ``settings`` may come as ``settings_to_wire``'s tuple: pickling the
    WorkSettings dataclass cost 3.7 of the 4.7 us a task's arguments took to
    pickle on the crawl's main thread; the tuple, 0.2.
    """
    if not isinstance(settings, WorkSettings):
        settings = settings_from_wire(settings)
    return to_wire(process_page(body, url, content_type, kind, settings))


def settings_to_wire(settings: WorkSettings) -> tuple:
    """WorkSettings as the tuple of its field values (see ``process_page_wire``)."""
    return _values(settings)


@cache
def _cached_settings(values: tuple) -> WorkSettings:
    return WorkSettings(*values)


def settings_from_wire(values: tuple) -> WorkSettings:
    """The WorkSettings of ``settings_to_wire``'s tuple, built once per worker."""
    try:
        return _cached_settings(values)
    except TypeError:  # a parameter value that cannot be hashed (a list): built each time
        return WorkSettings(*values)


# -- warming a worker up -------------------------------------------------------

# Two small made-up pages (never a page of the evaluation sets): an English
# article and a product, enough to load what a first real page would (the
# page-type and line models, the extractors' modules and their patterns).
_WARM_ARTICLE = (
    "<html><head><title>Harbour ferry returns after winter repairs</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    "<article><h1>Harbour ferry returns after winter repairs</h1>"
    "<p class='byline'>By Jane Roe, 3 March 2024</p>"
    + "".join(f"<p>The council said the ferry would run every {n} minutes from Monday, and "
              "residents welcomed the news after a long winter of detours by road.</p>"
              for n in range(10, 16))
    + "</article><footer>© 2024 Harbour News</footer></body></html>")
_WARM_PRODUCT = (
    "<html><head><title>Walnut desk lamp | Oak shop</title></head><body>"
    "<div class='product'><h1>Walnut desk lamp</h1><div class='price'>£45.00</div>"
    "<span class='stock'>In stock</span><p class='desc'>A warm light for a quiet desk, "
    "turned from walnut and finished by hand.</p><table class='specs'>"
    "<tr><th>Brand</th><td>Oak</td></tr><tr><th>SKU</th><td>OAK-1024</td></tr>"
    "<tr><th>Weight</th><td>1.2 kg</td></tr></table><button>Add to basket</button></div>"
    "</body></html>")


def warm_up_steps(settings: WorkSettings | None = None) -> list:
    """The steps that load what a worker's first pages would, one callable each.

    A worker runs them while it has no task (``pool.worker_main`` checks for
    a task between steps), so the loading happens while the crawl is still
    fetching its first pages instead of on the first article or product.
    The first step classifies only: every page needs the page-type model,
    so a worker takes that step at once, before its first task. jieba is
    left out: it costs about 0.75 s and 130 MB (see ``pool``) and only
    Chinese pages need it.
    """
    settings = settings or WorkSettings()
    url, content_type = "http://warm.invalid/page", "text/html; charset=utf-8"
    return [partial(process_page, _WARM_ARTICLE, url, content_type, "article", settings,
                    extract=False)] + [
        partial(process_page, page, url, content_type, kind, settings)
        for page, kind in ((_WARM_ARTICLE, "article"), (_WARM_PRODUCT, "product"))]
