"""The distributed add-on: ``"scrapy_contentex.distributed.Addon": 600`` in ADDONS."""

from __future__ import annotations

import logging
from typing import Any

from scrapy.utils.misc import load_object

from .connection import DEFAULTS

logger = logging.getLogger(__name__)

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
        if isinstance(stats_class, str) and stats_class.startswith("scrapy_redis."):
            logger.warning(
                "STATS_CLASS=%s is not needed with scrapy_contentex.distributed (each worker "
                "adds its counts to the <spider>:stats hash) and fails when the spider closes "
                "on Scrapy 2.13+; remove it", stats_class)
