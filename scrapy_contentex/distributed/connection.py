"""Redis connection and key names from Scrapy settings (scrapy-redis's settings)."""

from __future__ import annotations

import logging
from typing import Any

from scrapy.utils.misc import load_object
from scrapy_redis import defaults
from scrapy_redis.connection import SETTINGS_PARAMS_MAP, get_redis

from .state import CrawlState, Keys

logger = logging.getLogger(__name__)

# Defaults of the CONTENTEX_REDIS_* settings (the add-on sets them at priority "addon").
DEFAULTS: dict[str, float] = {
    "CONTENTEX_REDIS_LEASE": 30.0,  # seconds before a dead worker's requests are queued again
    "CONTENTEX_REDIS_IDLE_CLOSE": 5.0,  # quiet seconds (nothing queued or leased) before closing
    "CONTENTEX_REDIS_POLL": 0.1,  # seconds between two looks at the shared queue
}


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

    server = get_redis(**client_params(settings))
    try:
        server.ping()
    except redis.RedisError as exc:
        message = (f"cannot reach Redis at {describe(settings)}: {exc} Start Redis there or "
                   "set REDIS_URL = 'redis://host:port/db' to a server every worker can reach.")
        logger.error("Distributed crawl not started: %s", message)
        raise RedisUnavailable(message) from None
    return server


def client_params(settings: Any) -> dict[str, Any]:
    """scrapy-redis's client parameters (``get_redis_from_settings``), less one warning.

    Its defaults pass ``retry_on_timeout``, deprecated by redis-py 6, which
    retries on timeouts by default: it is dropped unless REDIS_PARAMS sets it.
    """
    import redis

    user = settings.getdict("REDIS_PARAMS")
    params = {**defaults.REDIS_PARAMS, **user}
    for source, dest in SETTINGS_PARAMS_MAP.items():
        value = settings.get(source)
        if value:
            params[dest] = value
    if "retry_on_timeout" not in user and int(redis.__version__.split(".")[0]) >= 6:
        params.pop("retry_on_timeout", None)
    if isinstance(params.get("redis_cls"), str):
        params["redis_cls"] = load_object(params["redis_cls"])
    return params


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
                      setting(settings, "CONTENTEX_REDIS_LEASE"))


def setting(settings: Any, name: str) -> float:
    """A CONTENTEX_REDIS_* value in seconds, with its default."""
    return settings.getfloat(name, DEFAULTS[name])
