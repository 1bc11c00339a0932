"""Redis connection and key names from Scrapy settings (scrapy-redis's settings)."""

from __future__ import annotations

import logging
from typing import Any

from scrapy_redis import defaults
from scrapy_redis.connection import get_redis_from_settings

from .state import CrawlState, Keys

logger = logging.getLogger(__name__)

DEFAULT_LEASE = 30.0


class RedisUnavailable(RuntimeError):
    """Redis could not be reached when the worker started."""


def describe(settings: Any) -> str:
    """Where the worker looks for Redis, in the user's own words."""
    url = settings.get("REDIS_URL")
    if url:
        return f"REDIS_URL={url!r}"
    host = settings.get("REDIS_HOST")
    if host:
        return f"REDIS_HOST={host!r} REDIS_PORT={settings.get('REDIS_PORT', 6379)!r}"
    return "REDIS_URL (not set, so scrapy-redis's default localhost:6379)"


def connect(settings: Any) -> Any:
    """A redis-py client for the crawl, checked with a PING.

    Raises RedisUnavailable naming the setting, instead of a connection
    traceback from somewhere in the first scheduled request.
    """
    import redis

    server = get_redis_from_settings(settings)
    try:
        server.ping()
    except redis.RedisError as exc:
        message = (f"cannot reach Redis at {describe(settings)}: {exc} Start Redis there or "
                   "set REDIS_URL = 'redis://host:port/db' to a server every worker can reach.")
        logger.error("Distributed crawl not started: %s", message)
        raise RedisUnavailable(message) from None
    return server


def redis_settings(settings: Any) -> dict[str, str]:
    """Key patterns, with scrapy-redis's setting names and defaults."""
    return {
        "queue": settings.get("SCHEDULER_QUEUE_KEY") or defaults.SCHEDULER_QUEUE_KEY,
        "dupefilter": settings.get("SCHEDULER_DUPEFILTER_KEY")
        or defaults.SCHEDULER_DUPEFILTER_KEY,
        "items": settings.get("REDIS_ITEMS_KEY") or defaults.PIPELINE_KEY,
        "stats": settings.get("STATS_KEY") or defaults.STATS_KEY,
    }


def spider_keys(settings: Any, spider_name: str) -> Keys:
    """The Redis keys of one spider's crawl."""
    names = {k: v % {"spider": spider_name} for k, v in redis_settings(settings).items()}
    return Keys(crawl=f"{spider_name}:crawl", **names)


def crawl_state(server: Any, settings: Any, spider_name: str) -> CrawlState:
    return CrawlState(server, spider_keys(settings, spider_name),
                      settings.getfloat("CONTENTEX_REDIS_LEASE", DEFAULT_LEASE))
