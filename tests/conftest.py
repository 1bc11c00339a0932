"""Shared helpers for the Scrapy-side tests: crawlers, responses, small pages."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse, Response
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_contentex.items import PageType
from scrapy_contentex.middlewares import ContentexSpiderMiddleware
from scrapy_contentex.pipelines import ContentexPipeline

ROOT = Path(__file__).resolve().parent.parent
DEMO_SITES = ROOT / "example_project" / "demo_sites"

ARTICLE_EN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry Timetable Changes for Winter - Bay Herald</title></head>
<body>
<nav><a href="/">Home</a> <a href="/local">Local</a> <a href="/sport">Sport</a></nav>
<article>
<h1>Ferry Timetable Changes for Winter</h1>
<p class="byline">By Ruth Adler, 4 November 2024</p>
<p>The island ferry will run every ninety minutes instead of every hour from the first
Monday of December, the operator said on Tuesday, citing lower passenger numbers.</p>
<p>Commuters who cross each morning asked for the early boat at six to be kept, and the
operator agreed, so the change affects only the middle of the day and the evenings.</p>
<p>The summer timetable will return in April, when the second vessel comes back from its
yearly overhaul in the mainland shipyard.</p>
</article>
<footer>&copy; 2024 Bay Herald. All rights reserved.</footer>
</body></html>
"""

ARTICLE_ZH = """<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="{charset}"><title>江边步道全线贯通 - 城市日报</title></head>
<body>
<div class="nav"><a href="/">首页</a> <a href="/city">城市</a></div>
<h1>江边步道全线贯通</h1>
<div class="info">2024年5月20日 来源：城市日报</div>
<div class="content">
<p>沿江步道最后一段工程近日完工，市民可以从老码头一路步行到新建的湿地公园，全程约十二公里。</p>
<p>步道沿途设置了休息座椅、饮水点和公共厕所，夜间照明采用低亮度灯具，减少对江边鸟类的影响。</p>
<p>管理部门提醒，步道禁止机动车驶入，骑行者请在指定车道内通行，注意避让行人。</p>
</div>
<div class="footer">版权所有 城市日报</div>
</body></html>
"""

PRODUCT_EN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Walnut Desk Organiser | Oak &amp; Pine</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",
"name":"Walnut Desk Organiser","sku":"WD-77","brand":{"@type":"Brand","name":"Oak & Pine"},
"offers":{"@type":"Offer","price":"45.00","priceCurrency":"GBP",
"availability":"https://schema.org/InStock"}}</script></head>
<body><nav><a href="/">Home</a> <a href="/desk">Desk</a></nav>
<h1>Walnut Desk Organiser</h1><div class="price">&pound;45.00</div>
<p>Five compartments for pens, cards and a phone, cut from one block of oiled walnut.</p>
<table><tr><th>Width</th><td>30 cm</td></tr><tr><th>Wood</th><td>Walnut</td></tr></table>
</body></html>
"""

INDEX_EN = (
    "<html><head><title>Local news</title></head><body><h1>Local</h1><ul>"
    + "".join(f'<li><a href="/n/{i}.html">Story number {i}</a></li>' for i in range(30))
    + "</ul></body></html>"
)


class DemoSpider(Spider):
    name = "test"


def make_crawler(settings: dict[str, Any] | None = None, spidercls: type[Spider] = DemoSpider):
    """A crawler with a spider instance, as components see it in a real crawl."""
    crawler = get_crawler(spidercls, settings or {})
    crawler.spider = crawler._create_spider()
    return crawler


def make_middleware(settings: dict[str, Any] | None = None, spidercls: type[Spider] = DemoSpider):
    crawler = make_crawler(settings, spidercls)
    return build_from_crawler(ContentexSpiderMiddleware, crawler), crawler


def make_pipeline(settings: dict[str, Any] | None = None):
    crawler = make_crawler(settings)
    return build_from_crawler(ContentexPipeline, crawler), crawler


def html_response(body: bytes | str, url: str = "http://example.com/page.html",
                  headers: dict | None = None, status: int = 200,
                  cls: type[Response] = HtmlResponse, meta: dict | None = None) -> Response:
    """A response as the engine would hand it over (with a request and meta)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    request = Request(url, meta=dict(meta or {}))
    return cls(url=url, body=body, headers=headers or {}, status=status, request=request)


def run_middleware(mw: ContentexSpiderMiddleware, response: Response, output: list | None = None):
    """process_spider_input + process_spider_output, like the scraper does."""
    mw.process_spider_input(response)
    return list(mw.process_spider_output(response, list(output or [])))


def fake_classifier(label: str):
    """A classify_page stand-in so middleware tests don't depend on the engine's tuning."""
    def classify_page(doc, url=None, **params):
        score = 0.25 if label == "content" else 0.9
        return PageType(url=url, pageType=label, score=score, contentProbability=1 - score)
    return classify_page


@pytest.fixture
def best_of_three() -> Callable[[Callable[[], Any]], float]:
    """Time a call as the fastest of three runs, in CPU time: other processes only ever add time.

    Tests compare two such times taken in the same run (a ratio), never one
    time against a number of seconds.
    """
    def timed(func: Callable[[], Any]) -> float:
        times = []
        for _ in range(3):
            started = time.process_time()
            func()
            times.append(time.process_time() - started)
        return min(times)

    return timed


@pytest.fixture
def force_page_type(monkeypatch):
    """force_page_type("index") makes api.classify_page return that label."""
    def apply(label: str) -> None:
        monkeypatch.setattr("scrapy_contentex.api.classify_page", fake_classifier(label))
    return apply
