"""Crawl the test shop of ``shop_site`` with the add-on only: a subprocess entry point.

    python tests/shop_crawl.py SITE_DIR OUTPUT_DIR

Serves SITE_DIR on 127.0.0.1 (a free port) in a thread, runs a CrawlSpider
that only follows links with ``ADDONS = {"scrapy_contentex.Addon": 500}``
and two feeds split by item class, then stops the server and prints the
crawl's stats as one JSON line.
"""

from __future__ import annotations

import functools
import json
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class ShopSpider(CrawlSpider):
    """Follows every link; no parsing code: the add-on makes the items."""

    name = "shop"
    rules = (Rule(LinkExtractor(), follow=True),)


def main(site: Path, output: Path) -> int:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        settings = {
            "ADDONS": {"scrapy_contentex.Addon": 500},
            "ROBOTSTXT_OBEY": False,
            "TELNETCONSOLE_ENABLED": False,
            "REMOTE_CONTROL_ENABLED": False,
            "LOG_LEVEL": "INFO",
            "CONCURRENT_REQUESTS": 4,  # a shared test machine: a few connections at a time
            "RETRY_TIMES": 5,
            "FEED_EXPORT_ENCODING": "utf-8",
            "FEEDS": {
                (output / "products.jsonl").as_uri(): {
                    "format": "jsonlines", "item_classes": ["scrapy_contentex.items.Product"],
                    "overwrite": True},
                (output / "articles.jsonl").as_uri(): {
                    "format": "jsonlines", "item_classes": ["scrapy_contentex.items.Article"],
                    "overwrite": True},
            },
        }
        process = CrawlerProcess(settings)
        crawler = process.create_crawler(ShopSpider)
        process.crawl(crawler, start_urls=[f"{base}/index.html"], allowed_domains=["127.0.0.1"])
        process.start()
        stats = crawler.stats.get_stats()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    print(json.dumps({k: v for k, v in stats.items() if isinstance(v, (int, float, str))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
