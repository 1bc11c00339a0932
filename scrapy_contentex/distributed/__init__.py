"""Distributed crawls: several Scrapy processes share one crawl through Redis.

    ADDONS = {"scrapy_contentex.Addon": 500, "scrapy_contentex.distributed.Addon": 600}
    REDIS_URL = "redis://host:6379/0"

Built on scrapy-redis (its queue, duplicate filter and key names) with
leases, start requests queued once, items pushed once per page, and a
worker that closes when the whole crawl is done. See the README section
"Distributed crawls". Needs the ``redis`` extra: ``pip install
"scrapy-contentex[redis]"``.
"""

from __future__ import annotations

__all__ = ["Addon"]


def __getattr__(name: str):
    # Keep `import scrapy_contentex.distributed.export` free of Scrapy imports.
    if name == "Addon":
        from .addon import Addon

        return Addon
    raise AttributeError(name)
