"""Spider middleware: the page type of every HTML response, and a Page item per content page.

The middleware is the only place that sees responses, so it decides three
things per response: whether the body is an HTML page at all (otherwise a
counted skip), whether it is an index or a content page (seed 004, through
``work.process_page``), and what to hand the pipelines (a ``Page`` item for a
content page the spider did not turn into items itself). It also steers the
crawl by page type when asked (both off by default).

Where the work runs: ``work.process_page`` does it all, in one of two places.
With ``CONTENTEX_WORKERS`` > 0 the downloader middleware
``ContentexWorkerMiddleware`` sends each HTML response to a pool of worker
processes in its async ``process_response`` (``pool.LoopPool``, driven by
the crawl's asyncio loop itself, or ``pool.WorkerPool``, with a thread per
worker, on another reactor), so the reactor keeps crawling while a worker
parses, classifies and extracts the page in one go; the spider middleware finds the result ready. Otherwise
(``CONTENTEX_WORKERS = 0``, or the downloader middleware not installed) the
spider middleware runs the same function in ``process_spider_input`` and the
pipeline extracts. Either way the callback reads the label in meta.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter, is_item
from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, XmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

try:  # Scrapy 2.14+: also true with no reactor at all (asyncio loop only)
    from scrapy.utils.asyncio import is_asyncio_available
except ImportError:  # pragma: no cover - Scrapy 2.13
    from scrapy.utils.reactor import is_asyncio_reactor_installed as is_asyncio_available

try:  # Scrapy 2.14+: the asyncio loop when it drives the crawl
    from scrapy.utils.asyncio import create_looping_call
except ImportError:  # pragma: no cover - Scrapy 2.13
    from twisted.internet.task import LoopingCall as create_looping_call

from .core.document import looks_binary, looks_like_feed, looks_like_html
from .items import Page, PageType
from .pool import WINDOW, WIRE_FUNCTION, LoopPool, WorkerError, WorkerPool, prestart
from .settings import ContentexSettings, check_kind
from .work import (
    PageResult,
    WorkSettings,
    failed_item,
    from_wire,
    has_text,
    process_page,
    settings_to_wire,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

    from scrapy.crawler import Crawler

__all__ = ["ContentexSpiderMiddleware", "ContentexWorkerMiddleware", "StatsBuffer", "has_text",
           "publish_stats", "skip_reason", "stats_buffer", "summary", "tag_page_type"]

logger = logging.getLogger(__name__)

# Request/response meta keys (documented in README).
META_PAGE_TYPE = "contentex_page_type"  # "index" / "content", set on the response
META_SKIPPED = "contentex_skipped"  # skip reason when the response is not a page
META_KIND = "contentex_kind"  # per-request override of CONTENTEX_KIND
META_SCORE = "contentex_page_score"
META_PROBABILITY = "contentex_content_probability"  # 0..1, that the page is a content page


def probability_band(probability: float) -> str:
    """The tenth a content probability falls in, as a stat key part: "0.9-1.0"."""
    return _BANDS[min(int(probability * 10), 9)]


_BANDS = tuple(f"{low / 10:.1f}-{(low + 1) / 10:.1f}" for low in range(10))


@functools.cache
def _band_keys_of(label: str, band: str) -> tuple[str, str]:
    return f"pages/content_prob/{band}", f"pages/{label}/content_prob/{band}"


def _band_keys(label: str, probability: float) -> tuple[str, str]:
    """The two stat keys a page's content probability counts under (built once each)."""
    return _band_keys_of(label, probability_band(probability))

# The contentex/* stats reach the crawler's stats collector at most this many
# seconds after they were counted (and at every progress line, and at close).
STATS_PUBLISH_INTERVAL = 1.0


class StatsBuffer:
    """A crawler's contentex/* stats, counted in plain dicts and published in batches.

    Why: every call on Scrapy 2.19's stats collector goes through its
    ``__getattribute__`` and a wrapper that checks for a deprecated
    ``spider`` argument (about 1.2 us a call when idle, several times that
    in a busy crawl), and a page made eight such calls on the crawl's main
    thread, the one that sets a crawl's pace; a shared collector (scrapy-redis's
    ``STATS_CLASS``) makes each call a round trip to Redis. Here a count is
    a dict update; ``publish`` adds what was counted to the collector, which
    happens at most ``STATS_PUBLISH_INTERVAL`` seconds later, on each
    progress line and when the spider closes (the pipeline's
    ``close_spider``, the middlewares' ``spider_closed``), before Scrapy
    dumps the stats. Millisecond totals are rounded to 0.1 when published
    (float sums would carry binary noise).
    """

    def __init__(self, stats: Any) -> None:
        self.stats = stats
        self.counts: dict[str, int | float] = {}
        self.ms: dict[str, float] = {}
        self._due = time.monotonic() + STATS_PUBLISH_INTERVAL

    def inc(self, key: str, count: int | float = 1) -> None:
        """Add ``count`` to the stat ``contentex/<key>``."""
        counts = self.counts
        counts[key] = counts.get(key, 0) + count
        if time.monotonic() >= self._due:
            self.publish()

    def add_ms(self, key: str, ms: float) -> None:
        """Add ``ms`` milliseconds to the total ``contentex/<key>``."""
        totals = self.ms
        totals[key] = totals.get(key, 0.0) + ms
        if time.monotonic() >= self._due:
            self.publish()

    def publish(self) -> None:
        """Add everything counted since the last call to the stats collector."""
        self._due = time.monotonic() + STATS_PUBLISH_INTERVAL
        counts, self.counts = self.counts, {}
        totals, self.ms = self.ms, {}
        stats = self.stats
        if stats is None:
            return
        for key, count in counts.items():
            stats.inc_value(f"contentex/{key}", count)
        for key, ms in totals.items():
            total = stats.get_value(f"contentex/{key}", 0) + ms
            stats.set_value(f"contentex/{key}", round(total, 1))


_BUFFERS: weakref.WeakKeyDictionary[Any, StatsBuffer] = weakref.WeakKeyDictionary()


def stats_buffer(crawler: Any) -> StatsBuffer:
    """The crawler's StatsBuffer, shared by the middlewares and the pipeline
    (a private one for a component built without a crawler)."""
    if crawler is None:
        return StatsBuffer(None)
    buffer = _BUFFERS.get(crawler)
    if buffer is None:
        buffer = _BUFFERS[crawler] = StatsBuffer(getattr(crawler, "stats", None))
    return buffer


def publish_stats(crawler: Any) -> None:
    """Publish the crawler's contentex/* counts now (they are otherwise at most
    ``STATS_PUBLISH_INTERVAL`` seconds late until the spider closes)."""
    buffer = _BUFFERS.get(crawler)
    if buffer is not None:
        buffer.publish()


# Tasks in flight per worker: the pool's window (one running, the next ones
# already in the worker's pipe) and one more waiting, so the pool (its thread, or the loop) finds
# the next task ready when an answer comes. Few enough that a slow pool holds
# responses back in the downloader (they count against CONCURRENT_REQUESTS)
# instead of growing a queue.
TASKS_PER_WORKER = WINDOW + 1


class _State:
    """What the middleware knows about one response while its output flows."""

    __slots__ = ("label", "result", "own_items", "followed")

    def __init__(self, label: str | None, result: PageResult | None = None) -> None:
        self.label = label
        self.result = result
        self.own_items = 0
        self.followed = 0

    @property
    def score(self) -> float | None:
        return self.result.score if self.result is not None else None

    @property
    def probability(self) -> float | None:
        return self.result.probability if self.result is not None else None


def skip_reason(response: Response, max_size: int) -> str | None:
    """Why a response is not an HTML page we should look at, or None.

    Cheap checks first (status, size, response class) so images, PDFs and
    feeds never get decoded.
    """
    if not 200 <= response.status < 300:
        return "not_2xx"
    body = response.body
    if not body or body.isspace():  # (strip() would copy a body that ends in a newline)
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


class _Inbox:
    """The pool's answers, handed to the asyncio loop in batches.

    ``asyncio.wrap_future`` wakes the loop once per future: a write to its
    self-pipe from the pool thread, which then waits for the GIL again before
    it can read the next answer. Here the first answer of a batch schedules
    one drain and the answers that come before it runs just join the batch.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._ready: deque[tuple[Future, asyncio.Future]] = deque()
        self._scheduled = False

    def watch(self, future: Future) -> asyncio.Future:
        """An asyncio future of this loop that gets ``future``'s outcome."""
        waiter = self.loop.create_future()
        future.add_done_callback(lambda done: self._arrived(done, waiter))
        return waiter

    def _arrived(self, done: Future, waiter: asyncio.Future) -> None:
        """In the pool's thread (or this loop's, for a future already done)."""
        self._ready.append((done, waiter))
        if not self._scheduled:
            self._scheduled = True
            self.loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        """In the loop: settle every waiter whose answer came (cleared first, so
        an answer that arrives meanwhile schedules the next drain)."""
        self._scheduled = False
        while self._ready:
            done, waiter = self._ready.popleft()
            if waiter.cancelled():
                continue
            if done.cancelled():
                waiter.cancel()
            elif (exc := done.exception()) is not None:
                waiter.set_exception(exc)
            else:
                waiter.set_result(done.result())


def _deferred(future: Future) -> Any:
    """A concurrent.futures.Future as a Deferred, for a crawl on a plain Twisted reactor."""
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    deferred: Deferred = Deferred()

    def settle(done: Future) -> None:
        exc = done.exception()
        if exc is not None:
            deferred.errback(exc)
        else:
            deferred.callback(done.result())

    future.add_done_callback(lambda done: reactor.callFromThread(settle, done))
    return deferred


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The running asyncio loop of this crawl when it can watch pipes, else None
    (another reactor, a loop without ``add_reader``, or Windows, where the
    selector loop watches sockets only)."""
    if sys.platform == "win32" or not is_asyncio_available():
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop if isinstance(loop, asyncio.SelectorEventLoop) or _watches_pipes(loop) else None


def _watches_pipes(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether a loop that is not the standard selector loop (uvloop...) has ``add_reader``."""
    try:
        loop.remove_reader(-1)
    except NotImplementedError:
        return False
    except (OSError, ValueError):  # it tried: the method is there
        return True
    return True


class _Gate:
    """At most ``size`` tasks in flight; the others wait (asyncio or Twisted)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.in_flight = 0
        self.peak = 0
        self._sem: Any = None

    async def __aenter__(self) -> None:
        if self._sem is None:
            if is_asyncio_available():
                self._sem = asyncio.Semaphore(self.size)
            else:
                from twisted.internet.defer import DeferredSemaphore

                self._sem = DeferredSemaphore(self.size)
        await self._sem.acquire()
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    async def __aexit__(self, *exc: Any) -> None:
        self.in_flight -= 1
        self._sem.release()


def spider_kind(crawler: Crawler, config: ContentexSettings) -> str:
    """CONTENTEX_KIND, or the spider's ``contentex_kind`` attribute when it has one."""
    spider = getattr(crawler, "spider", None)
    if spider is not None and getattr(spider, "contentex_kind", None) is not None:
        return check_kind(spider.contentex_kind, "spider attribute contentex_kind")
    return config.kind


# Results the worker middleware computed, waiting for the spider middleware:
# per crawler, per response object (both weak, so nothing outlives its response).
_READY: weakref.WeakKeyDictionary[Any, weakref.WeakKeyDictionary[Response, PageResult]] = \
    weakref.WeakKeyDictionary()


def _ready(crawler: Any) -> weakref.WeakKeyDictionary[Response, PageResult]:
    """The crawler's results in waiting (each middleware looks it up once)."""
    ready = _READY.get(crawler)
    if ready is None:
        ready = _READY[crawler] = weakref.WeakKeyDictionary()
    return ready


class _Component:
    """What both middlewares share: counted stats, logs once, the kind of a page."""

    crawler: Crawler
    stats: Any
    counts: StatsBuffer
    spider_kind: str
    _logged: set[str]

    def _log_once(self, key: str, level: int, msg: str, *args: Any) -> None:
        """Log a repeated condition the first time only (like DepthMiddleware)."""
        if key in self._logged:
            return
        self._logged.add(key)
        logger.log(level, msg + " (further cases are only counted)", *args,
                   extra={"spider": getattr(self.crawler, "spider", None)})

    def _inc(self, key: str, count: int | float = 1) -> None:
        self.counts.inc(key, count)

    def _kind_for(self, response: Response) -> str:
        meta_kind = _meta(response).get(META_KIND)
        if meta_kind is None:
            return self.spider_kind
        try:
            return check_kind(meta_kind, f"request meta {META_KIND}")
        except ValueError as exc:
            self._log_once("meta_kind", logging.WARNING, "contentex: %s", exc)
            return self.spider_kind


class ContentexSpiderMiddleware(BaseSpiderMiddleware, _Component):
    """Classify responses, tag spider items, emit Page items, steer requests.

    Order it above 50 (the add-on uses 550) so HttpErrorMiddleware filters
    non-2xx responses first.
    """

    def __init__(self, crawler: Crawler, config: ContentexSettings | None = None) -> None:
        super().__init__(crawler)
        self.config = config or ContentexSettings()
        self.stats = crawler.stats
        self.counts = stats_buffer(crawler)
        self._states: weakref.WeakKeyDictionary[Response, _State] = weakref.WeakKeyDictionary()
        self._logged: set[str] = set()
        self.spider_kind = self.config.kind
        # Requests are steered only when a setting asks for it (neither does by
        # default): otherwise every request of the spider passes untouched.
        self._steers = bool(self.config.index_priority_boost) or self.config.content_follow_limit >= 0
        self._progress_task: Any = None
        self._last_progress = ""
        self._ready = _ready(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentexSpiderMiddleware:
        config = ContentexSettings.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CONTENTEX_ENABLED is False")
        mw = cls(crawler, config)
        mw.spider_kind = spider_kind(crawler, config)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    # -- helpers ---------------------------------------------------------

    def _skip(self, response: Response, reason: str) -> _State:
        self._inc(f"skipped/{reason}")
        meta = _meta(response)
        meta[META_SKIPPED] = reason
        meta.pop(META_PAGE_TYPE, None)
        self._log_once(f"skip/{reason}", logging.INFO,
                       "contentex: skipping %s (%s)", response.url, reason)
        return _State(None)

    def _apply(self, response: Response, result: PageResult) -> _State:
        """The one place a page's classification becomes meta, stats and logs."""
        counts = self.counts
        counts.add_ms("classify_time_ms", result.classify_ms)
        if result.label is None:
            return self._skip(response, result.skip or "decode")
        if result.classify_error:
            self._inc("failed/classify")
            self._log_once("classify", logging.WARNING,
                           "contentex: page type failed on %s: %s", response.url,
                           result.classify_error)
        if result.record_error:
            self._log_once("record_page", logging.WARNING,
                           "contentex: record-page check failed on %s: %s", response.url,
                           result.record_error)
        if result.by_record:
            counts.inc("pages/content_by_record")
        meta = _meta(response)
        meta.pop(META_SKIPPED, None)
        meta[META_PAGE_TYPE] = result.label
        if result.score is not None:
            meta[META_SCORE] = result.score
        if result.probability is not None:
            meta[META_PROBABILITY] = result.probability
            for key in _band_keys(result.label, result.probability):
                counts.inc(key)
        counts.inc(f"pages/{result.label}")
        return _State(result.label, result)

    def _state(self, response: Response | None) -> _State | None:
        if response is None:
            return None
        return self._states.get(response)

    def _tail(self, response: Response | None) -> Iterable[Any]:
        """The items the middleware adds after the spider's own output (the
        response's state is done with after this)."""
        state = self._states.pop(response, None) if response is not None else None
        if response is None or state is None or state.label is None:
            return ()
        out: list[Any] = []
        result = state.result
        if state.label == "content" and state.own_items == 0:
            doc = result.doc if result is not None else None
            page = Page(url=response.url, pageType="content",
                        html=doc.html if doc is not None else None,
                        kind=self._kind_for(response), pageTypeScore=state.score,
                        contentProbability=state.probability)
            # Hand the work done so far to the pipeline in-process (not a
            # field: never exported or pickled): the extracted item from a
            # worker, or the parsed document, so the page is parsed once.
            if result is not None and result.item is not None:
                page._contentex_result = result  # type: ignore[attr-defined]
            elif doc is not None:
                page._contentex_doc = doc  # type: ignore[attr-defined]
            out.append(page)
        elif state.label == "index" and self.config.emit_index and state.own_items == 0:
            out.append((result.page_type if result is not None else None)
                       or PageType(url=response.url, pageType="index"))
        if result is not None:
            result.doc = None  # release the tree early
        return out

    # -- where the work runs -----------------------------------------------

    @property
    def work(self) -> WorkSettings:
        return WorkSettings.from_config(self.config)

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        """Classify before the callback runs so spiders can read the label in meta.

        A response the worker middleware sent to the pool passed the skip
        checks there and has its result waiting; any other is checked and
        classified here (extraction then follows in the pipeline, if needed).
        """
        done = self._ready.pop(response, None)
        if done is None:
            if reason := skip_reason(response, self.config.max_page_size):
                self._states[response] = self._skip(response, reason)
                return
            done = process_page(response.body, response.url, _content_type(response),
                                self._kind_for(response), self.work, extract=False)
        self._states[response] = self._apply(response, done)

    # The two output hooks do what BaseSpiderMiddleware's do (each request
    # and item through get_processed_request / get_processed_item), written
    # out: a CrawlSpider yields a few dozen requests per page, and calling
    # the base class's generator added two async generator layers (its own
    # and the decorator that checks the ``spider`` argument) to every one.

    def _processed(self, o: Any, response: Response | None) -> Any:
        if isinstance(o, Request):
            return self.get_processed_request(o, response)
        return self.get_processed_item(o, response)

    # Without steering a request passes untouched, with no call at all: a
    # CrawlSpider page yields a few dozen of them and one item at most.

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterable[Any]:
        steers = self._steers
        for o in result:
            if steers or not isinstance(o, Request):
                o = self._processed(o, response)
                if o is None:
                    continue
            yield o
        yield from self._tail(response)

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        steers = self._steers
        async for o in result:
            if steers or not isinstance(o, Request):
                o = self._processed(o, response)
                if o is None:
                    continue
            yield o
        for o in self._tail(response):
            yield o

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        """Crawl steering: boost links of index pages, cap links out of content pages."""
        if not self._steers:
            return request
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
        self.counts.publish()
        line = summary(self.stats.get_stats()) if self.stats is not None else ""
        if line and line != self._last_progress:
            self._last_progress = line
            logger.info("contentex so far: %s", line)

    def spider_closed(self, spider: Spider | None = None, reason: str | None = None) -> None:
        """One summary line: what the crawl looked like through contentex."""
        if self._progress_task is not None and self._progress_task.running:
            self._progress_task.stop()
        self.counts.publish()
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


class ContentexWorkerMiddleware(_Component):
    """Downloader middleware: each HTML response's work runs in a worker process.

    The whole per-page work (``work.process_page``: decode, page type,
    record-page check, extraction, one parse) goes to a pool of
    ``CONTENTEX_WORKERS`` processes while the reactor thread keeps crawling;
    the spider middleware then finds the result ready, so callbacks still
    read the page type in meta. Backpressure comes for free: a response
    waiting here still counts against CONCURRENT_REQUESTS, so a slow pool
    slows the downloads instead of piling responses up; at most
    ``TASKS_PER_WORKER`` tasks per worker are handed to the pool at a time.

    Disabled (``NotConfigured``) when ``CONTENTEX_WORKERS = 0``: the spider
    middleware then does the work in-process. Order it below every
    middleware that changes the response (the add-on uses 25), so it sees
    the response the spider will get.
    """

    def __init__(self, crawler: Crawler, config: ContentexSettings) -> None:
        self.crawler = crawler
        self.config = config
        self.stats = crawler.stats
        self.counts = stats_buffer(crawler)
        self.spider_kind = spider_kind(crawler, config)
        self.work = WorkSettings.from_config(config)
        self._work_wire = settings_to_wire(self.work)  # what each task carries
        self._logged: set[str] = set()
        self.pool: WorkerPool | LoopPool | None = None
        self.gate = _Gate(config.workers * TASKS_PER_WORKER)
        self._inbox: _Inbox | None = None
        self._ready = _ready(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentexWorkerMiddleware:
        config = ContentexSettings.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CONTENTEX_ENABLED is False")
        if config.workers == 0:
            raise NotConfigured("CONTENTEX_WORKERS is 0: the work runs in the crawl process")
        mw = cls(crawler, config)
        # The workers start now, while Scrapy builds the rest of the crawl; the
        # pool (made when the spider opens, in the crawl's loop) takes them.
        prestart(config.workers, WIRE_FUNCTION)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    def _ensure_pool(self) -> WorkerPool | LoopPool:
        """The pool; driven by the crawl's asyncio loop when one runs (no pool thread)."""
        if self.pool is None:
            loop = _event_loop()
            if loop is not None:
                self.pool = LoopPool(self.config.workers, timeout=self.config.worker_timeout,
                                     function=WIRE_FUNCTION, loop=loop)
            else:
                self.pool = WorkerPool(self.config.workers, timeout=self.config.worker_timeout,
                                       function=WIRE_FUNCTION)
        return self.pool

    async def process_response(self, request: Request, response: Response,
                               spider: Spider | None = None) -> Response:
        """Run the page's work in a worker and leave the result for the spider middleware."""
        if skip_reason(response, self.config.max_page_size):
            return response  # the spider middleware counts the skip
        kind = self._kind_for(response)
        async with self.gate:
            pool = self.pool or self._ensure_pool()
            # work.process_page_wire: the result comes back as a plain tuple.
            future = pool.submit(response.body, response.url, _content_type(response), kind,
                                 self._work_wire)
            try:
                done = from_wire(await (future if isinstance(pool, LoopPool)
                                        else self._awaitable(future)))
            except WorkerError as exc:
                done = self._failure(response, kind, exc)
            except Exception as exc:  # the function itself failed in the worker
                done = self._failure(response, kind, WorkerError(repr(exc)))
        self._ready[response] = done
        return response

    def _awaitable(self, future: Future) -> Any:
        """The pool's future as something this crawl's coroutines can await."""
        if not is_asyncio_available():
            return _deferred(future)
        loop = asyncio.get_running_loop()
        if self._inbox is None or self._inbox.loop is not loop:
            self._inbox = _Inbox(loop)
        return self._inbox.watch(future)

    def _failure(self, response: Response, kind: str, exc: WorkerError) -> PageResult:
        """A dead or stuck worker: the page counts as content, its item keeps the reason."""
        self._inc(f"failed/{exc.reason}")
        self._log_once(exc.reason, logging.WARNING, "contentex: %s on %s: %s",
                       exc.reason, response.url, exc)
        return PageResult(label="content", error=exc.reason,
                          item=failed_item(kind, response.url, f"{exc.reason}: {exc}"))

    def spider_opened(self, spider: Spider | None = None) -> None:
        """Start the workers now: they load while the first pages download."""
        self._ensure_pool()

    def spider_closed(self, spider: Spider | None = None, reason: str | None = None) -> None:
        """Stop the workers and record what they did in the stats."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        pool.shutdown()
        self.counts.publish()
        if self.stats is not None:
            self.stats.set_value("contentex/workers/processes", pool.size)
            self.stats.set_value("contentex/workers/restarts", pool.restarts)
            self.stats.set_value("contentex/workers/peak_in_flight", self.gate.peak)
            self.stats.set_value("contentex/workers/peak_rss_kb", pool.peak_rss_kb)
