"""Items to the Redis list ``<spider>:items``, exactly once per page.

Listens to ``item_scraped`` (like FEEDS, so it sees the items after every
pipeline) and appends each item as JSON with one atomic check-and-push keyed
by the fingerprint of the request the item came from. A page fetched twice,
because a worker died after pushing but before its lease was acknowledged,
or because its lease expired while a slow worker still held it, adds its item
once. Scrapy waits for this handler before it counts the request as done, so
the lease is acknowledged only after the push.
"""

from __future__ import annotations

import hashlib
import logging
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter, is_item
from scrapy import signals
from scrapy.http import Response
from scrapy.utils.serialize import ScrapyJSONEncoder

from .connection import connect, crawl_state

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

    from .state import CrawlState

logger = logging.getLogger(__name__)

# Meta flag for the scheduler: the item push failed, queue the page again
# instead of acknowledging it.
RETRY_META = "contentex_redis_retry"


def item_json(item: Any) -> str:
    """The item as one line of JSON, fields in item order (as the feeds write them)."""
    data = ItemAdapter(item).asdict() if is_item(item) else item
    return ScrapyJSONEncoder(ensure_ascii=False).encode(data)


class RedisItems:
    """Extension: push every scraped item to Redis once (see module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.server = connect(crawler.settings)
        self.state: CrawlState | None = None
        # items already pushed per response: the second item of a page gets key fp#1
        self._per_response: weakref.WeakKeyDictionary[Response, int] = (
            weakref.WeakKeyDictionary())
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisItems:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        self.state = crawl_state(self.server, self.crawler.settings, spider.name)

    def item_key(self, item_data: str, response: Response | None) -> str:
        """The request fingerprint (``#n`` for a page's (n+1)-th item)."""
        if response is None or response.request is None:
            return "item:" + hashlib.sha1(item_data.encode()).hexdigest()
        key = self.crawler.request_fingerprinter.fingerprint(response.request).hex()
        n = self._per_response.get(response, 0)
        self._per_response[response] = n + 1
        return key if n == 0 else f"{key}#{n}"

    def item_scraped(self, item: Any, response: Response | None = None, **kwargs: Any) -> None:
        data = item_json(item)
        key = self.item_key(data, response if isinstance(response, Response) else None)
        try:
            pushed = self.state.push_item(key, data)
        except Exception as exc:
            self.stats.inc_value("contentex/redis/item_push_failed")
            logger.error("Item of %s not pushed to Redis (%s: %s); the page will be queued "
                         "again", getattr(response, "url", None), type(exc).__name__, exc)
            if isinstance(response, Response) and response.request is not None:
                response.request.meta[RETRY_META] = True
            return
        self.stats.inc_value("contentex/redis/items_pushed" if pushed
                             else "contentex/redis/items_duplicate")
