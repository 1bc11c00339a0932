"""Spider middleware: the page type of every HTML response, and a Page item per content page.

The middleware is the only place that sees responses, so it decides three
things per response: whether the body is an HTML page at all (otherwise a
counted skip), whether it is an index or a content page (seed 004, through
``api.classify_page``), and what to hand the pipelines (a ``Page`` item for a
content page the spider did not turn into items itself). It also steers the
crawl by page type when asked (both off by default).
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter, is_item
from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, XmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

try:  # Scrapy 2.14+: the asyncio loop when it drives the crawl
    from scrapy.utils.asyncio import create_looping_call
except ImportError:  # pragma: no cover - Scrapy 2.13
    from twisted.internet.task import LoopingCall as create_looping_call

from .core.document import Document, looks_binary, looks_like_feed, looks_like_html
from .core.errors import ContentexError, EmptyDocumentError, NotHtmlError
from .items import Page, PageType
from .settings import ContentexSettings, check_kind

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

# Request/response meta keys (documented in README).
META_PAGE_TYPE = "contentex_page_type"  # "index" / "content", set on the response
META_SKIPPED = "contentex_skipped"  # skip reason when the response is not a page
META_KIND = "contentex_kind"  # per-request override of CONTENTEX_KIND
META_SCORE = "contentex_page_score"
META_PROBABILITY = "contentex_content_probability"  # 0..1, that the page is a content page


def probability_band(probability: float) -> str:
    """The tenth a content probability falls in, as a stat key part: "0.9-1.0"."""
    low = min(int(probability * 10), 9)
    return f"{low / 10:.1f}-{(low + 1) / 10:.1f}"


class _State:
    """What the middleware knows about one response while its output flows."""

    __slots__ = ("label", "doc", "score", "probability", "own_items", "followed", "page_type")

    def __init__(self, label: str | None, doc: Document | None = None) -> None:
        self.label = label
        self.doc = doc
        self.score: float | None = None
        self.probability: float | None = None
        self.page_type: PageType | None = None
        self.own_items = 0
        self.followed = 0


def skip_reason(response: Response, max_size: int) -> str | None:
    """Why a response is not an HTML page we should look at, or None.

    Cheap checks first (status, size, response class) so images, PDFs and
    feeds never get decoded.
    """
    if not 200 <= response.status < 300:
        return "not_2xx"
    body = response.body
    if not body or not body.strip():
        return "empty"
    if max_size and len(body) > max_size:
        return "too_large"
    if isinstance(response, XmlResponse) or looks_like_feed(body):
        return "non_html"
    if isinstance(response, HtmlResponse):
        return "non_html" if looks_binary(body) else None
    # Plain Response / TextResponse (JSON, text/plain, octet-stream...): only
    # mislabelled markup gets through.
    if looks_binary(body) or not looks_like_html(body):
        return "non_html"
    return None


def has_text(doc: Document) -> bool:
    """Whether the page holds any text at all (stops at the first non-blank node)."""
    return any(text.strip() for text in doc.tree.itertext())


def _meta(response: Response) -> dict[str, Any]:
    """response.meta, or a throwaway dict for a response built without a request."""
    try:
        return response.meta
    except AttributeError:
        return {}


def _content_type(response: Response) -> str | None:
    value = response.headers.get("Content-Type")
    if value is None:
        return None
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _decode_reason(exc: BaseException) -> str:
    if isinstance(exc, NotHtmlError):
        return "non_html"
    if isinstance(exc, EmptyDocumentError):
        return "empty"
    if isinstance(exc, ContentexError):
        return exc.reason
    return "decode"


class ContentexSpiderMiddleware(BaseSpiderMiddleware):
    """Classify responses, tag spider items, emit Page items, steer requests.

    Order it above 50 (the add-on uses 550) so HttpErrorMiddleware filters
    non-2xx responses first.
    """

    def __init__(self, crawler: Crawler, config: ContentexSettings | None = None) -> None:
        super().__init__(crawler)
        self.config = config or ContentexSettings()
        self.stats = crawler.stats
        self._states: weakref.WeakKeyDictionary[Response, _State] = weakref.WeakKeyDictionary()
        self._logged: set[str] = set()
        self.spider_kind = self.config.kind
        self._progress_task: Any = None
        self._last_progress = ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentexSpiderMiddleware:
        config = ContentexSettings.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CONTENTEX_ENABLED is False")
        mw = cls(crawler, config)
        spider = getattr(crawler, "spider", None)
        if spider is not None and getattr(spider, "contentex_kind", None) is not None:
            mw.spider_kind = check_kind(spider.contentex_kind, "spider attribute contentex_kind")
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    # -- helpers ---------------------------------------------------------

    def _log_once(self, key: str, level: int, msg: str, *args: Any) -> None:
        """Log a repeated condition the first time only (like DepthMiddleware)."""
        if key in self._logged:
            return
        self._logged.add(key)
        logger.log(level, msg + " (further cases are only counted)", *args,
                   extra={"spider": getattr(self.crawler, "spider", None)})

    def _inc(self, key: str, count: int | float = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"contentex/{key}", count)

    def _skip(self, response: Response, reason: str) -> _State:
        self._inc(f"skipped/{reason}")
        meta = _meta(response)
        meta[META_SKIPPED] = reason
        meta.pop(META_PAGE_TYPE, None)
        self._log_once(f"skip/{reason}", logging.INFO,
                       "contentex: skipping %s (%s)", response.url, reason)
        return _State(None)

    def _classify(self, response: Response) -> _State:
        """Decode and classify one response; never raises."""
        reason = skip_reason(response, self.config.max_page_size)
        if reason:
            return self._skip(response, reason)
        try:
            doc = Document(response.body, url=response.url, content_type=_content_type(response))
        except Exception as exc:  # undecodable bytes, binary, empty after decoding
            return self._skip(response, _decode_reason(exc))
        state = _State("content", doc)
        try:
            from .api import classify_page

            result = classify_page(doc, response.url, **self.config.pagetype_params)
            state.label = result.pageType if result.pageType in ("index", "content") else "content"
            state.score = result.score
            state.probability = result.contentProbability
            state.page_type = result
        except ContentexError as exc:  # the tree could not be built: not a page
            return self._skip(response, _decode_reason(exc))
        except Exception as exc:
            # Classification is advisory: treat the page as content so its
            # extraction is still attempted (and its item not lost).
            self._inc("failed/classify")
            self._log_once("classify", logging.WARNING,
                           "contentex: page type failed on %s: %r", response.url, exc)
        if (state.label == "index" and self.config.record_pages
                and self._kind_for(response) != "article" and self._is_record_page(response, doc)):
            state.label = "content"
        if state.label == "content":
            # Only content pages need the tree (the pipeline reuses it); the
            # page type itself is one scan of the text, so index pages are
            # parsed only for the record-page check.
            try:
                if not has_text(doc):
                    return self._skip(response, "empty")
            except Exception as exc:
                return self._skip(response, _decode_reason(exc))
        meta = _meta(response)
        meta.pop(META_SKIPPED, None)
        meta[META_PAGE_TYPE] = state.label
        if state.score is not None:
            meta[META_SCORE] = state.score
        if state.probability is not None:
            meta[META_PROBABILITY] = state.probability
            band = probability_band(state.probability)
            self._inc(f"pages/content_prob/{band}")
            self._inc(f"pages/{state.label}/content_prob/{band}")
        self._inc(f"pages/{state.label}")
        return state

    def _is_record_page(self, response: Response, doc: Document) -> bool:
        """A product page that its links made look like an index page (counted)."""
        from .core.kind import record_page

        try:
            if record_page(doc):
                self._inc("pages/content_by_record")
                return True
        except Exception as exc:  # advisory, like the page type itself
            self._log_once("record_page", logging.WARNING,
                           "contentex: record-page check failed on %s: %r", response.url, exc)
        return False

    def _state(self, response: Response | None) -> _State | None:
        if response is None:
            return None
        return self._states.get(response)

    def _kind_for(self, response: Response) -> str:
        meta_kind = _meta(response).get(META_KIND)
        if meta_kind is None:
            return self.spider_kind
        try:
            return check_kind(meta_kind, f"request meta {META_KIND}")
        except ValueError as exc:
            self._log_once("meta_kind", logging.WARNING, "contentex: %s", exc)
            return self.spider_kind

    def _tail(self, response: Response | None) -> Iterable[Any]:
        """The items the middleware adds after the spider's own output."""
        state = self._state(response)
        if response is None or state is None or state.label is None:
            return ()
        out: list[Any] = []
        if state.label == "content" and state.own_items == 0:
            page = Page(url=response.url, pageType="content", html=state.doc.html,
                        kind=self._kind_for(response), pageTypeScore=state.score,
                        contentProbability=state.probability)
            # Hand the parsed document to the pipeline in-process (not a field:
            # never exported or pickled) so the page is parsed once.
            page._contentex_doc = state.doc  # type: ignore[attr-defined]
            out.append(page)
        elif state.label == "index" and self.config.emit_index and state.own_items == 0:
            out.append(state.page_type or PageType(url=response.url, pageType="index"))
        state.doc = None  # release the tree early
        return out

    # -- hooks -----------------------------------------------------------

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        """Classify before the callback runs so spiders can read the label in meta."""
        started = time.perf_counter()
        self._states[response] = self._classify(response)
        if self.stats is not None:
            total = self.stats.get_value("contentex/classify_time_ms", 0)
            total += (time.perf_counter() - started) * 1000
            self.stats.set_value("contentex/classify_time_ms", round(total, 1))

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterable[Any]:
        yield from super().process_spider_output(response, result)
        yield from self._tail(response)

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        async for o in super().process_spider_output_async(response, result):
            yield o
        for o in self._tail(response):
            yield o

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        """Crawl steering: boost links of index pages, cap links out of content pages."""
        state = self._state(response)
        if state is None or state.label is None:
            return request
        if state.label == "index" and self.config.index_priority_boost:
            request.priority += self.config.index_priority_boost
            self._inc("requests/boosted")
        elif state.label == "content" and self.config.content_follow_limit >= 0:
            if state.followed >= self.config.content_follow_limit:
                self._inc("requests/not_followed")
                self._log_once("follow_limit", logging.DEBUG,
                               "contentex: not following %s from content page %s "
                               "(CONTENTEX_CONTENT_FOLLOW_LIMIT=%d)", request.url,
                               response.url, self.config.content_follow_limit)
                return None
            state.followed += 1
        return request

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        """Tag the spider's own items with the page type, without ever breaking them."""
        state = self._state(response)
        if state is None or state.label is None or isinstance(item, (Page, PageType)):
            return item
        state.own_items += 1
        if is_item(item):
            try:
                tag_page_type(item, state.label, self._on_untagged, state.probability)
            except Exception as exc:  # an exotic item type: leave it exactly as it is
                self._inc("items/untagged")
                self._log_once("tag_error", logging.INFO,
                               "contentex: could not tag %s: %r", type(item).__name__, exc)
        return item

    def _on_untagged(self, item: Any) -> None:
        self._inc("items/untagged")
        self._log_once("untagged", logging.INFO,
                       "contentex: %s has no pageType field; left as is", type(item).__name__)

    def spider_opened(self, spider: Spider | None = None) -> None:
        """Log progress every LOGSTATS_INTERVAL seconds, next to Scrapy's own LogStats line."""
        interval = self.crawler.settings.getfloat("LOGSTATS_INTERVAL") if self.crawler else 0.0
        if interval > 0 and self.stats is not None:
            self._progress_task = create_looping_call(self.log_progress)
            self._progress_task.start(interval, now=False)

    def log_progress(self) -> None:
        """The running summary, when it changed since the last one (a stalled crawl logs nothing new)."""
        line = summary(self.stats.get_stats()) if self.stats is not None else ""
        if line and line != self._last_progress:
            self._last_progress = line
            logger.info("contentex so far: %s", line)

    def spider_closed(self, spider: Spider | None = None, reason: str | None = None) -> None:
        """One summary line: what the crawl looked like through contentex."""
        if self._progress_task is not None and self._progress_task.running:
            self._progress_task.stop()
        if self.stats is None:
            return
        logger.info("contentex: %s", summary(self.stats.get_stats()),
                    extra={"spider": spider})


def tag_page_type(item: Any, label: str, on_untagged: Any = None,
                  probability: float | None = None) -> bool:
    """Set ``pageType`` (and ``contentProbability``) on an item when it can hold
    them and has none yet.

    Dicts get the keys; dataclasses, attrs and scrapy.Item objects only when
    they declare the fields (setting an undeclared one raises). Returns
    whether the item carries the label afterwards.
    """
    if isinstance(item, dict):
        item.setdefault("pageType", label)
        if probability is not None:
            item.setdefault("contentProbability", probability)
        return True
    try:
        adapter = ItemAdapter(item)
        names = adapter.field_names()
        if "pageType" not in names:
            if on_untagged:
                on_untagged(item)
            return False
        if adapter.get("pageType") is None:
            adapter["pageType"] = label
        if probability is not None and "contentProbability" in names \
                and adapter.get("contentProbability") is None:
            adapter["contentProbability"] = probability
        return True
    except (KeyError, TypeError, AttributeError):
        if on_untagged:
            on_untagged(item)
        return False


def summary(stats: dict[str, Any]) -> str:
    """A one-line digest of the contentex/* stats."""
    def group(prefix: str) -> dict[str, Any]:
        return {k[len(prefix):]: v for k, v in sorted(stats.items()) if k.startswith(prefix)}

    def fmt(values: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v}" for k, v in values.items()) or "none"

    pages = {k: v for k, v in group("contentex/pages/").items() if "/" not in k}
    parts = [
        f"pages: {fmt(pages)}",
        f"typed index: {stats.get('contentex/pages/index', 0)}",
        f"items: {fmt(group('contentex/items/'))}",
        f"failed: {fmt(group('contentex/failed/'))}",
        f"skipped: {fmt(group('contentex/skipped/'))}",
        f"page type {stats.get('contentex/classify_time_ms', 0):.0f} ms",
        f"extraction {stats.get('contentex/extract_time_ms', 0):.0f} ms",
    ]
    return "; ".join(parts)
