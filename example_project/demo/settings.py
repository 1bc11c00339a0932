"""Settings of the demo project: the add-on and two feeds, nothing else of ours."""

from __future__ import annotations

import os
from pathlib import Path

BOT_NAME = "demo"
SPIDER_MODULES = ["demo.spiders"]
NEWSPIDER_MODULE = "demo.spiders"

ROBOTSTXT_OBEY = False
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # Scrapy 2.19+: no control port for an offline demo
CONCURRENT_REQUESTS = 8
LOG_LEVEL = "INFO"
FEED_EXPORT_ENCODING = "utf-8"

# The whole integration: one line.
ADDONS = {"scrapy_contentex.Addon": 500}

# Articles and products go to separate files (item_classes).
OUTPUT = Path(os.environ.get("CONTENTEX_DEMO_OUTPUT", Path(__file__).resolve().parent.parent / "output"))
FEEDS = {
    (OUTPUT / "articles.jsonl").as_uri(): {
        "format": "jsonlines",
        "item_classes": ["scrapy_contentex.items.Article"],
        "overwrite": True,
    },
    (OUTPUT / "products.jsonl").as_uri(): {
        "format": "jsonlines",
        "item_classes": ["scrapy_contentex.items.Product"],
        "overwrite": True,
    },
}
