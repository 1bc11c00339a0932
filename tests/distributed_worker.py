"""One worker of a distributed test crawl: a plain CrawlSpider with start_urls.

    python tests/distributed_worker.py --redis-url URL --start-url URL --name NAME [-s K=V]

The spider has no Redis code: the two add-ons and REDIS_URL make it a worker.
At the end it prints one line ``WORKER-STATS {json}`` with its own stats.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrapy.crawler import CrawlerProcess  # noqa: E402
from scrapy.linkextractors import LinkExtractor  # noqa: E402
from scrapy.spiders import CrawlSpider, Rule  # noqa: E402


class SiteSpider(CrawlSpider):
    name = "site"
    rules = (Rule(LinkExtractor(), follow=True),)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--start-url", required=True)
    parser.add_argument("--name", default="site")
    parser.add_argument("-s", dest="settings", action="append", default=[])
    parser.add_argument("--record-warnings", default=None, metavar="FILE",
                        help="write every warning raised during the crawl to FILE (JSON)")
    args = parser.parse_args()
    settings = {
        "ADDONS": {"scrapy_contentex.Addon": 500, "scrapy_contentex.distributed.Addon": 600},
        "REDIS_URL": args.redis_url,
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 4,
        "CONTENTEX_REDIS_IDLE_CLOSE": 1.0,
    }
    for item in args.settings:
        key, value = item.split("=", 1)
        settings[key] = json.loads(value) if value.startswith(("[", "{")) else value
    spider = type("SiteSpider", (SiteSpider,), {"name": args.name,
                                                "start_urls": [args.start_url]})
    process = CrawlerProcess(settings)
    # After CrawlerProcess: its logging set-up would otherwise take the warnings over.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        crawler = process.create_crawler(spider)
        process.crawl(crawler)
        process.start()
    if args.record_warnings:
        Path(args.record_warnings).write_text(json.dumps(
            [{"category": w.category.__name__, "filename": w.filename, "lineno": w.lineno,
              "message": str(w.message)} for w in caught]))
    stats = {k: v for k, v in crawler.stats.get_stats().items()
             if isinstance(v, (int, float, str))}
    print("WORKER-STATS " + json.dumps(stats), flush=True)
    return 1 if process.bootstrap_failed else 0


if __name__ == "__main__":
    sys.exit(main())
