"""The distributed add-on: ``"scrapy_contentex.distributed.Addon": 600`` in ADDONS."""

from __future__ import annotations

from typing import Any

from scrapy.utils.misc import load_object

from .connection import DEFAULTS

SCHEDULER = "scrapy_contentex.distributed.scheduler.LeasingScheduler"
ITEMS_EXTENSION = "scrapy_contentex.distributed.items.RedisItems"
ITEMS_ORDER = 500


class Addon:
    """Make the spider a worker of a crawl shared through Redis (scrapy-redis).

    Sets the leasing scheduler and the items-to-Redis extension at priority
    "addon" (a project that sets SCHEDULER itself keeps its own), and the
    CONTENTEX_REDIS_* defaults. REDIS_URL and the other scrapy-redis settings
    are read as scrapy-redis reads them.
    """

    def update_settings(self, settings: Any) -> None:
        settings.set("SCHEDULER", SCHEDULER, priority="addon")
        settings.setdefault_in_component_priority_dict(
            "EXTENSIONS", load_object(ITEMS_EXTENSION), ITEMS_ORDER)
        for name, value in DEFAULTS.items():
            settings.set(name, value, priority="addon")
        stats_class = settings.get("STATS_CLASS")
        name = stats_class if isinstance(stats_class, str) else getattr(
            stats_class, "__module__", "")
        if name.startswith("scrapy_redis."):
            raise ValueError(
                f"STATS_CLASS={stats_class!r} cannot be used with "
                "scrapy_contentex.distributed: it reads float stats back as int, so items "
                "fail in the pipeline with ValueError, and it fails again when the spider "
                "closes. Remove it: each worker adds its counts to the <spider>:stats hash.")
