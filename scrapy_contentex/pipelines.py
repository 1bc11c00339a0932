"""Item pipeline: Page items in, Article / Product items out; no item is ever lost.

Scrapy drops an item whose ``process_item`` raises (feeds listen to
``item_scraped`` and never see it), so every failure is caught here: the
item goes on with a ``contentexError`` field and a counted stat. Dropping
failed items is opt-in (CONTENTEX_DROP_FAILED).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.exceptions import DropItem, NotConfigured

from .core.document import Document
from .core.errors import ContentexError
from .items import Article, Page, Product
from .settings import ContentexSettings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_JSON_SCALARS = (str, int, float, bool, type(None))


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


class ContentexPipeline:
    """Turn ``Page`` items into Article or Product items with the public API.

    Other items pass through untouched.
    """

    def __init__(self, crawler: Crawler | None = None, config: ContentexSettings | None = None):
        self.crawler = crawler
        self.config = config or ContentexSettings()
        self.stats = getattr(crawler, "stats", None)
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentexPipeline:
        config = ContentexSettings.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CONTENTEX_ENABLED is False")
        return cls(crawler, config)

    def _inc(self, key: str, count: int | float = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"contentex/{key}", count)

    def _add_time(self, seconds: float) -> None:
        # set_value with rounding: inc_value of floats accumulates binary noise.
        if self.stats is not None:
            total = self.stats.get_value("contentex/extract_time_ms", 0) + seconds * 1000
            self.stats.set_value("contentex/extract_time_ms", round(total, 1))

    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        """Extract a Page; anything else is returned as it came."""
        if not isinstance(item, Page) or item.pageType != "content":
            return item
        started = time.perf_counter()
        try:
            result = self._extract(item)
        except Exception as exc:
            result = self._failed(item, exc)
        finally:
            self._add_time(time.perf_counter() - started)
        kind = "product" if isinstance(result, Product) else "article"
        self._inc(f"items/{kind}")
        return result

    # -- extraction ----------------------------------------------------

    def _document(self, page: Page) -> Document:
        doc = page.__dict__.pop("_contentex_doc", None)
        if isinstance(doc, Document):
            return doc
        if not page.html:
            raise ContentexError("page item without html", reason="empty")
        return Document(page.html, url=page.url)

    def _extract(self, page: Page) -> Article | Product:
        from . import api

        doc = self._document(page)
        kind = page.kind or self.config.kind
        if kind == "auto":
            kind = api.guess_kind(doc, page.url)
        if kind == "product":
            result: Article | Product = self._product(api, doc, page.url)
        elif kind == "article":
            result = self._article(api, doc, page.url)
        else:
            raise ValueError(f"kind must be auto, article or product, not {kind!r}")
        adapter = ItemAdapter(result)
        for name in adapter.field_names():
            adapter[name] = jsonable(adapter.get(name))
        if not adapter.get("url"):
            adapter["url"] = page.url
        adapter["pageType"] = page.pageType
        adapter["contentProbability"] = page.contentProbability
        return result

    def _article(self, api: Any, doc: Document, url: str | None) -> Article:
        cfg = self.config
        return api.extract_article(
            doc, url, algorithm=cfg.text_algorithm, params=dict(cfg.text_params)
        )

    def _product(self, api: Any, doc: Document, url: str | None) -> Product:
        return api.extract_product(doc, url, attributes=list(self.config.record_attributes))

    def _failed(self, page: Page, exc: Exception) -> Article | Product:
        reason = error_reason(exc)
        self._inc(f"failed/{reason}")
        key = f"failed/{reason}"
        if key not in self._logged:
            self._logged.add(key)
            logger.warning("contentex: extraction failed on %s: %r (further failures of "
                           "this kind are only counted)", page.url, exc,
                           exc_info=not isinstance(exc, ContentexError),
                           extra={"spider": getattr(self.crawler, "spider", None)})
        if self.config.drop_failed:
            raise DropItem(f"contentex extraction failed ({reason}): {exc}")
        cls = Product if page.kind == "product" else Article
        return cls(url=page.url, pageType=page.pageType, contentProbability=page.contentProbability,
                   contentexError=f"{reason}: {exc}"[:500])
