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

from scrapy import Spider
from scrapy.exceptions import DropItem, NotConfigured

from .core.document import Document
from .core.errors import ContentexError
from .items import Page, Product
from .middlewares import stats_buffer
from .settings import ContentexSettings
from .work import (
    PageResult,
    WorkSettings,
    error_reason,
    extract_item,
    failed_item,
    jsonable,
    set_probability,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["ContentexPipeline", "error_reason", "jsonable"]  # the last two moved to .work

logger = logging.getLogger(__name__)

class ContentexPipeline:
    """Turn ``Page`` items into Article or Product items with the public API.

    Other items pass through untouched.
    """

    def __init__(self, crawler: Crawler | None = None, config: ContentexSettings | None = None):
        self.crawler = crawler
        self.config = config or ContentexSettings()
        self.counts = stats_buffer(crawler)  # published in batches and at close_spider
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentexPipeline:
        config = ContentexSettings.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CONTENTEX_ENABLED is False")
        return cls(crawler, config)

    @property
    def settings(self) -> WorkSettings:
        return WorkSettings.from_config(self.config)

    def _inc(self, key: str, count: int | float = 1) -> None:
        self.counts.inc(key, count)

    def close_spider(self, spider: Spider | None = None) -> None:
        """Publish the counts: the pipelines close before the spider_closed signal."""
        self.counts.publish()

    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        """Extract a Page; anything else is returned as it came.

        A Page from the worker pool already carries its item; any other is
        extracted here, with the same function the workers run.
        """
        if not isinstance(item, Page) or item.pageType != "content":
            return item
        done = item.__dict__.pop("_contentex_result", None)
        if not isinstance(done, PageResult) or done.item is None:
            done = self._extract_here(item)
        self.counts.add_ms("extract_time_ms", done.extract_ms)
        if done.error:
            self._failed(item, done)
        result = done.item
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

    def _extract_here(self, page: Page) -> PageResult:
        """``work.extract_item`` in this process; a failure keeps an item with the reason."""
        started = time.perf_counter()
        kind = page.kind or self.config.kind
        done = PageResult(label="content")
        try:
            done.item = extract_item(self._document(page), page.url, kind, self.settings)
        except Exception as exc:
            done.item, done.error = failed_item(kind, page.url, exc), error_reason(exc)
            self._log_failure(page, done.error, exc)
        set_probability(done.item, getattr(page, "contentProbability", None))
        done.extract_ms = (time.perf_counter() - started) * 1000
        return done

    def _log_failure(self, page: Page, reason: str, exc: BaseException | str) -> None:
        key = f"failed/{reason}"
        if key not in self._logged:
            self._logged.add(key)
            logger.warning("contentex: extraction failed on %s: %s (further failures of "
                           "this kind are only counted)", page.url,
                           exc if isinstance(exc, str) else repr(exc),
                           exc_info=isinstance(exc, BaseException)
                           and not isinstance(exc, ContentexError),
                           extra={"spider": getattr(self.crawler, "spider", None)})

    def _failed(self, page: Page, done: PageResult) -> None:
        """Count (and log) a failed extraction; drop the item only when asked to."""
        reason = done.error or "error"
        message = done.item.contentexError if done.item is not None else reason
        if not reason.startswith("worker_"):  # the middleware counted worker failures
            self._inc(f"failed/{reason}")
            self._log_failure(page, reason, message or reason)
        if self.config.drop_failed:
            raise DropItem(f"contentex extraction failed ({message})")
