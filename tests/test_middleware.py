"""Spider middleware: labels, Page items, tagging of spider items, steering, stats."""

from __future__ import annotations

import asyncio
import json
import pickle
from dataclasses import dataclass

import pytest
import scrapy
from conftest import (
    ARTICLE_EN,
    INDEX_EN,
    html_response,
    make_middleware,
    run_middleware,
)
from itemadapter import ItemAdapter
from scrapy import Request, Spider

from scrapy_contentex.items import Page, PageType
from scrapy_contentex.middlewares import META_PAGE_TYPE, publish_stats, summary, tag_page_type


def stat(crawler, key):
    publish_stats(crawler)  # counts reach the stats in batches (StatsBuffer)
    return crawler.stats.get_value(f"contentex/{key}")


def test_content_page_emits_one_page_item(force_page_type):
    force_page_type("content")
    mw, crawler = make_middleware()
    response = html_response(ARTICLE_EN, url="http://example.com/ferry.html")
    out = run_middleware(mw, response)
    pages = [o for o in out if isinstance(o, Page)]
    assert len(pages) == 1
    page = pages[0]
    assert page.url == "http://example.com/ferry.html"
    assert page.pageType == "content"
    assert page.kind == "auto"
    assert "ninety minutes" in page.html
    assert response.meta[META_PAGE_TYPE] == "content"
    assert stat(crawler, "pages/content") == 1
    # the item stays JSON-serialisable and the meta picklable
    json.dumps(ItemAdapter(page).asdict())
    pickle.dumps(response.meta)


def test_index_page_emits_nothing_by_default(force_page_type):
    force_page_type("index")
    mw, crawler = make_middleware()
    request = Request("http://example.com/n/1.html")
    out = run_middleware(mw, html_response(INDEX_EN), [request])
    assert out == [request]
    assert stat(crawler, "pages/index") == 1
    assert stat(crawler, "pages/content") is None


def test_emit_index_yields_page_type_item(force_page_type):
    force_page_type("index")
    mw, _ = make_middleware({"CONTENTEX_EMIT_INDEX": True})
    out = run_middleware(mw, html_response(INDEX_EN, url="http://example.com/local"))
    assert len(out) == 1 and isinstance(out[0], PageType)
    assert out[0].pageType == "index"
    json.dumps(ItemAdapter(out[0]).asdict())


def test_spider_requests_pass_through_and_page_comes_last(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware()
    reqs = [Request(f"http://example.com/{i}") for i in range(3)]
    out = run_middleware(mw, html_response(ARTICLE_EN), reqs)
    assert out[:3] == reqs
    assert isinstance(out[3], Page)


@dataclass
class OwnArticle:
    title: str
    pageType: str | None = None


@dataclass
class NoPageTypeItem:
    title: str


class ScrapyItemWithField(scrapy.Item):
    title = scrapy.Field()
    pageType = scrapy.Field()


class ScrapyItemWithoutField(scrapy.Item):
    title = scrapy.Field()


def test_spider_items_are_tagged_and_replace_page_item(force_page_type):
    force_page_type("content")
    mw, crawler = make_middleware()
    own = [{"title": "a"}, {"title": "b", "pageType": "custom"}, OwnArticle("c"),
           NoPageTypeItem("d"), ScrapyItemWithField(title="e"), ScrapyItemWithoutField(title="f")]
    out = run_middleware(mw, html_response(ARTICLE_EN), own)
    assert out == own  # same objects, same order, no Page added
    assert own[0]["pageType"] == "content"
    assert own[1]["pageType"] == "custom"  # never overwritten
    assert own[2].pageType == "content"
    assert not hasattr(own[3], "pageType")
    assert own[4]["pageType"] == "content"
    assert "pageType" not in own[5]
    assert stat(crawler, "items/untagged") == 2


def test_tag_page_type_guards_undeclared_fields():
    calls = []
    assert tag_page_type(NoPageTypeItem("x"), "index", calls.append) is False
    assert tag_page_type({"a": 1}, "index") is True
    assert len(calls) == 1


def test_kind_from_spider_attribute_and_request_meta(force_page_type):
    force_page_type("content")

    class ProductSpider(Spider):
        name = "p"
        contentex_kind = "product"

    mw, _ = make_middleware(spidercls=ProductSpider)
    (page,) = run_middleware(mw, html_response(ARTICLE_EN))
    assert page.kind == "product"
    (page,) = run_middleware(mw, html_response(ARTICLE_EN, meta={"contentex_kind": "article"}))
    assert page.kind == "article"


def test_invalid_spider_attribute_fails_at_start_up():
    class BadSpider(Spider):
        name = "bad"
        contentex_kind = "recipe"

    with pytest.raises(ValueError, match="contentex_kind"):
        make_middleware(spidercls=BadSpider)


def test_invalid_request_meta_kind_falls_back(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware({"CONTENTEX_KIND": "article"})
    (page,) = run_middleware(mw, html_response(ARTICLE_EN, meta={"contentex_kind": "nope"}))
    assert page.kind == "article"


def test_index_priority_boost(force_page_type):
    force_page_type("index")
    mw, crawler = make_middleware({"CONTENTEX_INDEX_PRIORITY_BOOST": 5})
    reqs = [Request("http://example.com/a", priority=1), Request("http://example.com/b")]
    out = run_middleware(mw, html_response(INDEX_EN), reqs)
    assert [r.priority for r in out] == [6, 5]
    assert stat(crawler, "requests/boosted") == 2


def test_content_follow_limit(force_page_type):
    force_page_type("content")
    mw, crawler = make_middleware({"CONTENTEX_CONTENT_FOLLOW_LIMIT": 2})
    reqs = [Request(f"http://example.com/{i}") for i in range(5)]
    out = run_middleware(mw, html_response(ARTICLE_EN), reqs)
    assert [o.url for o in out if isinstance(o, Request)] == [r.url for r in reqs[:2]]
    assert stat(crawler, "requests/not_followed") == 3
    # the limit is per response
    out = run_middleware(mw, html_response(ARTICLE_EN), reqs[:1])
    assert sum(isinstance(o, Request) for o in out) == 1


def test_steering_off_by_default(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware()
    reqs = [Request(f"http://example.com/{i}", priority=3) for i in range(50)]
    out = run_middleware(mw, html_response(ARTICLE_EN), reqs)
    assert [o for o in out if isinstance(o, Request)] == reqs
    assert all(r.priority == 3 for r in reqs)


def test_async_output_path(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware()
    response = html_response(ARTICLE_EN)
    mw.process_spider_input(response)

    async def source():
        yield {"title": "own"}

    async def collect():
        return [o async for o in mw.process_spider_output_async(response, source())]

    out = asyncio.run(collect())
    assert out == [{"title": "own", "pageType": "content", "contentProbability": 0.75}]


def test_start_requests_untouched(force_page_type):
    mw, _ = make_middleware({"CONTENTEX_CONTENT_FOLLOW_LIMIT": 0})
    req = Request("http://example.com/")
    assert list(mw.process_spider_output(None, [req])) == [req]


def test_classifier_failure_keeps_page_as_content(monkeypatch):
    def boom(doc, url=None, **params):
        raise RuntimeError("engine bug")

    monkeypatch.setattr("scrapy_contentex.api.classify_page", boom)
    mw, crawler = make_middleware()
    out = run_middleware(mw, html_response(ARTICLE_EN))
    assert len(out) == 1 and isinstance(out[0], Page)
    assert stat(crawler, "failed/classify") == 1


def test_pagetype_settings_reach_classifier(monkeypatch):
    seen = {}

    def spy(doc, url=None, **params):
        seen.update(params)
        return PageType(url=url, pageType="index")

    monkeypatch.setattr("scrapy_contentex.api.classify_page", spy)
    mw, _ = make_middleware()
    mw.config = type(mw.config)(pagetype_params={"min_links": 7})
    run_middleware(mw, html_response(INDEX_EN))
    assert seen == {"min_links": 7}


def test_real_classifier_on_own_pages():
    """With the real engine: a link list is an index page, an article is content."""
    pytest.importorskip("scrapy_contentex.core.pagetype")
    mw, _ = make_middleware()
    index_out = run_middleware(mw, html_response(INDEX_EN, url="http://example.com/local"))
    article_out = run_middleware(mw, html_response(ARTICLE_EN, url="http://example.com/a.html"))
    assert not any(isinstance(o, Page) for o in index_out)
    assert any(isinstance(o, Page) for o in article_out)


def test_summary_line():
    line = summary({"contentex/pages/content": 3, "contentex/pages/index": 2,
                    "contentex/items/article": 3, "contentex/skipped/non_html": 1,
                    "contentex/extract_time_ms": 12.5})
    assert "content 3" in line and "index 2" in line and "article 3" in line
    assert "non_html 1" in line and "failed: none" in line


def test_progress_line_every_logstats_interval_and_only_when_changed(caplog):
    mw, _ = make_middleware({"LOGSTATS_INTERVAL": 30.0})
    mw.spider_opened()
    try:
        assert mw._progress_task is not None and mw._progress_task.running
        mw.stats.inc_value("contentex/pages/content")
        with caplog.at_level("INFO", logger="scrapy_contentex.middlewares"):
            mw.log_progress()
            mw.log_progress()  # nothing new: no second line
        lines = [r.getMessage() for r in caplog.records if "so far" in r.getMessage()]
        assert len(lines) == 1 and "content 1" in lines[0]
    finally:
        mw.spider_closed()
    assert not mw._progress_task.running


def test_no_progress_task_when_logstats_is_off():
    mw, _ = make_middleware({"LOGSTATS_INTERVAL": 0})
    mw.spider_opened()
    assert mw._progress_task is None
    mw.spider_closed()


MENU = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(60))
RELATED = "".join(f"<li><a href='/p/{i}'>Related item {i}</a> <span class='price'>${i}.99</span></li>"
                  for i in range(20))
# A shop page whose menus and related-product rail make its links look like an index page's.
SHOP_PAGE = f"""<html><head><title>Trail Kettle 1.2 L | Camp Shop</title></head><body>
<nav><ul>{MENU}</ul></nav>
<h1>Trail Kettle 1.2 L</h1>
<p class="price">$39.99</p><button class="add-to-cart">Add to cart</button>
<ul class="specs"><li>Brand: Campco</li><li>Material: Titanium</li><li>Weight: 180 g</li>
<li>Capacity: 1.2 L</li><li>SKU: TK-12</li></ul>
<h2>Related</h2><ul>{RELATED}</ul>
<footer>{MENU}</footer></body></html>"""


def test_product_page_with_index_like_links_is_content_by_its_record(force_page_type):
    force_page_type("index")
    mw, crawler = make_middleware()
    out = run_middleware(mw, html_response(SHOP_PAGE, url="http://shop.example/p/kettle"))
    pages = [o for o in out if isinstance(o, Page)]
    assert len(pages) == 1 and pages[0].pageType == "content"
    assert stat(crawler, "pages/content_by_record") == 1 and stat(crawler, "pages/content") == 1


def test_record_page_check_follows_kind_and_setting(force_page_type):
    force_page_type("index")
    for settings in ({"CONTENTEX_KIND": "article"}, {"CONTENTEX_RECORD_PAGES": False}):
        mw, crawler = make_middleware(settings)
        out = run_middleware(mw, html_response(SHOP_PAGE, url="http://shop.example/p/kettle"))
        assert not [o for o in out if isinstance(o, Page)]
        assert stat(crawler, "pages/index") == 1 and stat(crawler, "pages/content_by_record") is None


def test_index_page_without_a_record_stays_index(force_page_type):
    force_page_type("index")
    mw, crawler = make_middleware()
    run_middleware(mw, html_response(INDEX_EN, url="http://example.com/"))
    assert stat(crawler, "pages/index") == 1 and stat(crawler, "pages/content_by_record") is None


def test_content_probability_reaches_meta_items_and_stats():
    pytest.importorskip("scrapy_contentex.core.pagetype_model")
    from scrapy_contentex.middlewares import META_PROBABILITY, probability_band

    mw, crawler = make_middleware()
    response = html_response(ARTICLE_EN, url="http://example.com/2024/ferry-crossing-returns.html")
    out = run_middleware(mw, response, [{"title": "own"}])
    probability = response.meta[META_PROBABILITY]
    assert 0.0 <= probability <= 1.0 and probability == round(probability, 4)
    assert out[0]["contentProbability"] == probability  # the spider's own dict item
    band = probability_band(probability)
    assert stat(crawler, f"pages/content_prob/{band}") == 1
    label = response.meta[META_PAGE_TYPE]
    assert stat(crawler, f"pages/{label}/content_prob/{band}") == 1
    assert f"typed index: {stat(crawler, 'pages/index') or 0}" in summary(crawler.stats.get_stats())
    assert "content_prob" not in summary(crawler.stats.get_stats())
    assert [probability_band(p) for p in (0.0, 0.05, 0.5, 0.95, 1.0)] == \
        ["0.0-0.1", "0.0-0.1", "0.5-0.6", "0.9-1.0", "0.9-1.0"]


def test_page_item_carries_the_content_probability(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware()
    out = run_middleware(mw, html_response(ARTICLE_EN))
    page = [o for o in out if isinstance(o, Page)][0]
    assert page.contentProbability == 0.75  # the fake classifier's


def test_counts_reach_the_stats_in_batches_and_at_close(monkeypatch):
    """StatsBuffer: a page's counts wait in a dict until the publish interval
    has passed (or a progress line, or the spider closes), then add up exactly."""
    from scrapy_contentex import middlewares

    clock = [1000.0]
    monkeypatch.setattr(middlewares.time, "monotonic", lambda: clock[0])
    mw, crawler = make_middleware()
    for n in range(3):
        run_middleware(mw, html_response(ARTICLE_EN, url=f"http://example.com/a{n}.html"))
    assert crawler.stats.get_value("contentex/pages/content") is None  # not yet published
    clock[0] += middlewares.STATS_PUBLISH_INTERVAL
    run_middleware(mw, html_response(ARTICLE_EN, url="http://example.com/a3.html"))
    # The interval passed: the first count of that page published what came before it.
    assert crawler.stats.get_value("contentex/pages/content") == 3
    run_middleware(mw, html_response(INDEX_EN, url="http://example.com/"))
    assert crawler.stats.get_value("contentex/pages/index") is None
    mw.spider_closed()
    assert crawler.stats.get_value("contentex/pages/index") == 1
    assert crawler.stats.get_value("contentex/pages/content") == 4
    assert crawler.stats.get_value("contentex/classify_time_ms") > 0


def test_stats_buffer_adds_to_what_the_collector_holds():
    from scrapy_contentex.middlewares import StatsBuffer

    _, crawler = make_middleware()
    crawler.stats.set_value("contentex/items/article", 5)
    crawler.stats.set_value("contentex/extract_time_ms", 1.5)
    buffer = StatsBuffer(crawler.stats)
    buffer.inc("items/article", 2)
    buffer.add_ms("extract_time_ms", 0.1)
    buffer.add_ms("extract_time_ms", 0.2)
    buffer.publish()
    buffer.publish()  # nothing new: nothing added twice
    assert crawler.stats.get_value("contentex/items/article") == 7
    assert crawler.stats.get_value("contentex/extract_time_ms") == 1.8
    StatsBuffer(None).inc("x")  # no collector: counts are dropped, never an error
