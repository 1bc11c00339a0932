"""A spider with no parsing code: it only follows links; the add-on makes the items."""

from __future__ import annotations

from urllib.parse import urlparse

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class DemoSpider(CrawlSpider):
    """Follow every link of the start sites. No callback, no selectors."""

    name = "demo"
    rules = (Rule(LinkExtractor(), follow=True),)

    def __init__(self, start_urls: str | list[str] | None = None, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(start_urls, str):
            start_urls = [u for u in start_urls.split(",") if u]
        self.start_urls = list(start_urls or [])
        self.allowed_domains = sorted({urlparse(u).hostname for u in self.start_urls if u})
