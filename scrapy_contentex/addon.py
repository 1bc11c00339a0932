"""The add-on: ``ADDONS = {"scrapy_contentex.Addon": 500}`` enables everything.

It only sets defaults: components through
``setdefault_in_component_priority_dict`` (a project that already lists them,
at any order, keeps its choice) and CONTENTEX_* values at priority "addon",
which project, spider (``custom_settings``) and command-line settings override.
"""

from __future__ import annotations

from typing import Any

from .middlewares import ContentexSpiderMiddleware, ContentexWorkerMiddleware
from .pipelines import ContentexPipeline
from .settings import DEFAULTS

# Above 50 so HttpErrorMiddleware filters non-2xx responses before us, and
# below DepthMiddleware (900): spider output reaches us after depth priorities
# are set, so the page-type boost adds to them.
MIDDLEWARE_ORDER = 550
# Downloader side: lowest of the defaults (OffsiteMiddleware is 50), so its
# process_response runs last and sees the response the spider will get
# (decompressed, after redirects and retries).
WORKER_MIDDLEWARE_ORDER = 25
PIPELINE_ORDER = 300


class Addon:
    """Scrapy add-on enabling the contentex middlewares (spider, worker pool) and pipeline."""

    def update_settings(self, settings: Any) -> None:
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", ContentexSpiderMiddleware, MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", ContentexWorkerMiddleware, WORKER_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", ContentexPipeline, PIPELINE_ORDER
        )
        for name, value in DEFAULTS.items():
            if value is None:
                continue
            settings.set(name, value, priority="addon")
