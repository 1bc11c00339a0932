"""scrapy-redis scheduler with leases: a worker that dies loses nothing.

Thin subclasses of scrapy-redis 0.9's Scheduler, PriorityQueue and
RFPDupeFilter. What they change, and why:

- ``next_request`` leases the request instead of removing it. The lease is
  acknowledged once Scrapy is completely done with the request (its
  response went through the spider, its items through the pipelines and
  ``item_scraped``, the requests it yielded are queued in Redis), and renewed
  while the work goes on. A lease whose worker died returns to the queue
  after ``CONTENTEX_REDIS_LEASE`` seconds.
- Start requests are queued once per crawl: by the first worker to start;
  the others drop theirs (the spider needs no Redis-specific code, a plain
  CrawlSpider with ``start_urls`` works).
- ``close`` never wipes the shared queue (scrapy-redis does when
  SCHEDULER_PERSIST is False, so one stopping worker ended everyone's crawl).
  The crawl state is cleared only when the crawl is over: nothing queued and
  no lease held anywhere; SCHEDULER_PERSIST then keeps the duplicate filter.
- The worker polls Redis every ``CONTENTEX_REDIS_POLL`` seconds instead of
  waiting for Scrapy's 5 s heartbeat, and closes once the shared queue has
  been empty with no lease outstanding for ``CONTENTEX_REDIS_IDLE_CLOSE``
  seconds.
- No ``spider`` arguments to stats, no ``Spider.log``: no deprecation
  warnings on Scrapy 2.13+.
- Duplicates use Scrapy's own request fingerprinter (REQUEST_FINGERPRINTER_*
  settings apply), the same fingerprint that keys items in Redis.

Scrapy has no public "request finished" signal, so the lease bookkeeping
reads the engine's set of requests in progress (``engine._slot.inprogress``:
a request stays there until its response is fully scraped).
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import time
from typing import TYPE_CHECKING, Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy.utils.misc import load_object
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler
from twisted.internet.task import LoopingCall

from ..middlewares import publish_stats
from .connection import connect, crawl_state, redis_settings, setting
from .items import RETRY_META

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

    from .state import CrawlState

logger = logging.getLogger(__name__)

# Stat keys not summed into the crawl-wide counts: a sum of maxima means nothing.
_NOT_SUMMED = ("memusage/",)
REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError)
STATS_EVERY = 1.0  # seconds between two additions of this worker's stats to Redis
REQUEUE_EVERY = 0.5  # seconds between two sweeps for expired leases


class DupeFilter(RFPDupeFilter):
    """scrapy-redis's shared filter, with Scrapy's request fingerprinter.

    It is never cleared when a worker stops: other workers are still crawling.
    """

    def __init__(self, server: Any, key: str, debug: bool = False, fingerprinter: Any = None):
        super().__init__(server, key, debug)
        self.fingerprinter = fingerprinter

    def request_fingerprint(self, request: Request) -> str:
        if self.fingerprinter is None:
            return super().request_fingerprint(request)
        return self.fingerprinter.fingerprint(request).hex()

    def close(self, reason: str = "") -> None:
        pass


class LeasedQueue(PriorityQueue):
    """scrapy-redis's priority queue; ``pop`` takes a lease instead of removing."""

    def __init__(self, server: Any, spider: Spider, key: str, serializer: Any = None,
                 state: CrawlState | None = None):
        super().__init__(server, spider, key, serializer)
        self.state = state

    def push(self, request: Request) -> None:
        self.state.push(self._encode_request(request), request.priority)

    def pop_leased(self) -> tuple[str, Request] | None:
        got = self.state.pop()
        if got is None:
            return None
        token, data = got
        return token, self._decode_request(data)

    def pop(self, timeout: int = 0) -> Request | None:  # noqa: ARG002 - base signature
        raise TypeError("LeasedQueue.pop would lose the lease: use pop_leased()")


class LeasingScheduler(Scheduler):
    """The scrapy-redis scheduler of a distributed contentex crawl (see module doc)."""

    def __init__(self, server: Any, crawler: Crawler, **kwargs: Any) -> None:
        super().__init__(server, **kwargs)
        self.crawler = crawler
        self.stats = crawler.stats
        settings = crawler.settings
        self.lease_seconds = setting(settings, "CONTENTEX_REDIS_LEASE")
        self.idle_close = setting(settings, "CONTENTEX_REDIS_IDLE_CLOSE")
        self.poll = setting(settings, "CONTENTEX_REDIS_POLL")
        for name, value in (("CONTENTEX_REDIS_LEASE", self.lease_seconds),
                            ("CONTENTEX_REDIS_POLL", self.poll)):
            if value <= 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        if self.idle_close < 0:
            raise ValueError(f"CONTENTEX_REDIS_IDLE_CLOSE must be >= 0, not {self.idle_close!r}")
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.state: CrawlState | None = None
        self.leases: dict[Request, str] = {}
        self._pending: list[tuple[str, str, bytes, int]] = []
        self._seen: set[str] = set()  # fingerprints this worker has sent (a local cache)
        self._seeding: bool | None = None
        self._quiet_since: float | None = None
        self._failing = False
        self._renewed = self._requeued = self._stats_sent_at = 0.0
        self._stats_sent: dict[str, int | float] = {}
        self._tick = LoopingCall(self._housekeeping)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeasingScheduler:
        settings = crawler.settings
        serializer = settings.get("SCHEDULER_SERIALIZER")
        if isinstance(serializer, str):  # a module path, as in scrapy-redis
            serializer = importlib.import_module(serializer)
        queue_cls = settings.get("SCHEDULER_QUEUE_CLASS")
        if queue_cls and load_object(queue_cls) is not LeasedQueue:
            logger.warning("SCHEDULER_QUEUE_CLASS=%s ignored: distributed contentex crawls "
                           "need their leased priority queue", queue_cls)
        keys = redis_settings(settings)
        return cls(
            connect(settings),
            crawler,
            persist=settings.getbool("SCHEDULER_PERSIST"),
            flush_on_start=settings.getbool("SCHEDULER_FLUSH_ON_START"),
            queue_key=keys["queue"],
            queue_cls=LeasedQueue,
            dupefilter_key=keys["dupefilter"],
            serializer=serializer,
        )

    # -- Scrapy scheduler interface ---------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        self.state = crawl_state(self.server, self.crawler.settings, spider.name)
        self.queue = LeasedQueue(self.server, spider, self.state.keys.queue,
                                 serializer=self.serializer, state=self.state)
        self.df = DupeFilter(self.server, self.state.keys.dupefilter,
                             debug=self.crawler.settings.getbool("DUPEFILTER_DEBUG"),
                             fingerprinter=self.crawler.request_fingerprinter)
        if self.flush_on_start:
            self.state.flush()
        queued, leased = self.state.outstanding()
        if queued or leased:
            logger.info("Joining a crawl in progress: %d requests queued, %d leased",
                        queued, leased, extra={"spider": spider})
        self.crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)
        self._tick.start(self.poll, now=False)

    def close(self, reason: str) -> None:
        if self._tick.running:
            self._tick.stop()
        try:
            self._settle_leases(closing=True)
            if reason == "finished" and self.state.finish(keep_seen=self.persist):
                logger.info("Crawl over: shared queue empty and no lease outstanding; crawl "
                            "state cleared%s", " (duplicate filter kept)" if self.persist else "",
                            extra={"spider": self.spider})
            self._send_stats()
        except REDIS_ERRORS as exc:
            logger.error("Redis unreachable at close (%s): this worker's %d leases return to "
                         "the queue after CONTENTEX_REDIS_LEASE seconds, and %d requests it "
                         "found were not queued", exc, len(self.leases), len(self._pending),
                         extra={"spider": self.spider})

    def enqueue_request(self, request: Request) -> bool:
        """Buffer the request; the buffer goes to Redis in one round trip (see _flush).

        Scrapy enqueues the links of a page one by one; one blocking Redis
        round trip each (scrapy-redis) makes every page wait for tens of them
        before the next download starts. The buffer is flushed before any
        request is taken, before any lease is acknowledged and at close, so a
        page's links are in Redis before the page is: a worker that dies with
        a full buffer had not acknowledged the page, which is crawled again.
        """
        if request.meta.get("is_start_request"):
            if not self._seeds():
                self._inc("contentex/redis/start_requests_skipped")
                return False
            mode = "mark"  # so links back to it are not crawled again
        else:
            mode = "always" if request.dont_filter else "filter"
        fingerprint = "" if mode == "always" else self.df.request_fingerprint(request)
        if mode == "filter" and fingerprint in self._seen:
            # this worker already sent it: a duplicate for sure, no need to ask Redis
            self._inc("contentex/redis/duplicates_filtered")
            return False
        if fingerprint:
            self._seen.add(fingerprint)
        self._pending.append((mode, fingerprint, self.queue._encode_request(request),
                              request.priority))
        return True

    def _flush(self) -> None:
        """Send the buffered requests: new fingerprints are queued, the others dropped.

        If Redis fails, the buffer is kept for the next attempt.
        """
        if not self._pending:
            return
        queued = self.state.enqueue(self._pending)
        sent, self._pending = len(self._pending), []
        self._inc("scheduler/enqueued/redis", queued)
        self._inc("contentex/redis/duplicates_filtered", sent - queued)

    def next_request(self) -> Request | None:
        try:
            self._flush()
            got = self.queue.pop_leased()
        except REDIS_ERRORS as exc:
            self._redis_failed(exc)
            return None
        if got is None:
            return None
        token, request = got
        # A redirect or retry of a start request is not a start request of this worker.
        request.meta.pop("is_start_request", None)
        self.leases[request] = token
        self._inc("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        try:
            return bool(self._pending) or self.state.queued() > 0
        except REDIS_ERRORS as exc:
            self._redis_failed(exc)
            return True  # wait for Redis rather than close

    def __len__(self) -> int:
        return len(self._pending) + self.state.queued()

    # -- start requests ---------------------------------------------------

    def _seeds(self) -> bool:
        """Whether this worker queues the start requests (decided at the first one)."""
        if self._seeding is None:
            self._seeding = self.state.claim_seeding(self.worker)
            if self._seeding:
                self.state.reset_stats()
                self.stats.set_value("contentex/redis/seeded", 1)
                logger.info("This worker starts the crawl: queueing the start requests",
                            extra={"spider": self.spider})
            else:
                logger.info("Crawl already started by another worker: start requests "
                            "not queued again", extra={"spider": self.spider})
        return self._seeding

    # -- housekeeping -------------------------------------------------------

    def _housekeeping(self) -> None:
        """Runs every CONTENTEX_REDIS_POLL seconds on the reactor thread.

        An exception here would stop the LoopingCall for good (no more lease
        renewals, no idle close): it is logged and the next tick tries again.
        """
        try:
            self._housekeep()
        except REDIS_ERRORS as exc:
            self._redis_failed(exc)
        except Exception:
            if not self._failing:
                logger.error("Distributed housekeeping failed", exc_info=True,
                             extra={"spider": self.spider})
            self._failing = True
        else:
            if self._failing:
                logger.info("Redis reachable again", extra={"spider": self.spider})
            self._failing = False

    def _redis_failed(self, exc: Exception) -> None:
        self._inc("contentex/redis/errors")
        self._quiet_since = None
        if not self._failing:
            logger.warning("Redis unreachable (%s: %s): this worker waits and retries",
                           type(exc).__name__, exc, extra={"spider": self.spider})
        self._failing = True

    def _housekeep(self) -> None:
        now = time.monotonic()
        self._settle_leases()
        if self.leases and now - self._renewed >= self.lease_seconds / 3:
            self.state.renew(self.leases.values())
            self._renewed = now
        if now - self._requeued >= REQUEUE_EVERY:
            self._requeued = now
            returned = self.state.requeue_expired()
            if returned:
                self._inc("contentex/redis/leases_requeued", returned)
                logger.info("%d expired leases (a worker stopped or hung) returned to the "
                            "queue", returned, extra={"spider": self.spider})
        self._track_quiet(now)
        if now - self._stats_sent_at >= STATS_EVERY:
            self._send_stats()
        slot = getattr(self.crawler.engine, "_slot", None)
        if slot is not None:
            slot.nextcall.schedule()  # look for shared work now, not at the 5 s heartbeat

    def _settle_leases(self, closing: bool = False) -> None:
        """Acknowledge leases whose request Scrapy has finished with.

        When closing, a lease still held (a request Scrapy never finished)
        goes back to the queue at once instead of waiting for it to expire.
        """
        self._flush()  # the links of a page reach Redis before its lease is acknowledged
        if not self.leases:
            return
        slot = getattr(self.crawler.engine, "_slot", None)
        busy = slot.inprogress if slot is not None else set()
        done = [r for r in self.leases if closing or r not in busy]
        acked = [self.leases[r] for r in done if r not in busy and not r.meta.get(RETRY_META)]
        retry = [self.leases[r] for r in done if r in busy or r.meta.get(RETRY_META)]
        self.state.ack(acked)
        returned = self.state.give_back(retry)
        for request in done:  # forgotten only once Redis has them
            del self.leases[request]
        self._inc("contentex/redis/leases_acked", len(acked))
        self._inc("contentex/redis/leases_returned", returned)

    def _track_quiet(self, now: float) -> None:
        if self.leases or self._pending:
            self._quiet_since = None
            return
        queued, leased = self.state.outstanding()
        if queued or leased:
            self._quiet_since = None
        elif self._quiet_since is None:
            self._quiet_since = now

    def _spider_idle(self) -> None:
        """Keep an idle worker open until the whole crawl has been quiet long enough."""
        quiet = self._quiet_since
        if quiet is None or time.monotonic() - quiet < self.idle_close:
            raise DontCloseSpider

    def _inc(self, key: str, count: int = 1) -> None:
        if count:
            self.stats.inc_value(key, count)

    def _send_stats(self) -> None:
        """Add what this worker's numeric stats grew by since last time to NAME:stats."""
        self._stats_sent_at = time.monotonic()
        # The add-on's own counts wait in a StatsBuffer (published at most a
        # second late): bring them in first, so the last push at close has them.
        publish_stats(self.crawler)
        deltas: dict[str, int | float] = {}
        for name, value in self.stats.get_stats().items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if name.startswith(_NOT_SUMMED):
                continue
            delta = value - self._stats_sent.get(name, 0)
            if delta:
                deltas[name] = delta
                self._stats_sent[name] = value
        self.state.add_stats(deltas)
