"""Pipeline: Page -> Article/Product with the real extractors; failures never lose items."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from conftest import ARTICLE_EN, ARTICLE_ZH, PRODUCT_EN, make_pipeline
from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from scrapy_contentex.core.document import Document
from scrapy_contentex.items import Article, Page, PageType, Product
from scrapy_contentex.middlewares import publish_stats


def page(html: str, kind: str = "auto", url: str = "http://example.com/p.html") -> Page:
    return Page(url=url, pageType="content", html=html, kind=kind)


def stat(crawler, key):
    publish_stats(crawler)  # counts reach the stats in batches (StatsBuffer)
    return crawler.stats.get_value(f"contentex/{key}")


def test_article_page_becomes_article():
    pipeline, crawler = make_pipeline()
    item = pipeline.process_item(page(ARTICLE_EN, kind="article"))
    assert isinstance(item, Article)
    assert item.url == "http://example.com/p.html"
    assert item.pageType == "content"
    assert item.headline == "Ferry Timetable Changes for Winter"
    assert "ninety minutes" in item.articleBody
    assert "All rights reserved" not in item.articleBody
    assert item.contentexError is None
    assert stat(crawler, "items/article") == 1
    assert stat(crawler, "extract_time_ms") > 0
    json.dumps(ItemAdapter(item).asdict())


def test_chinese_article():
    pipeline, _ = make_pipeline()
    item = pipeline.process_item(page(ARTICLE_ZH.format(charset="utf-8"), kind="article"))
    assert item.headline == "江边步道全线贯通"
    assert "湿地公园" in item.articleBody


def test_product_page_becomes_product():
    pipeline, crawler = make_pipeline()
    item = pipeline.process_item(page(PRODUCT_EN, kind="product"))
    assert isinstance(item, Product)
    assert item.name == "Walnut Desk Organiser"
    assert Decimal(item.price) == Decimal("45")
    assert item.currency == "GBP"
    assert item.pageType == "content"
    assert stat(crawler, "items/product") == 1
    json.dumps(ItemAdapter(item).asdict())


def test_auto_kind_tells_product_from_article():
    pipeline, _ = make_pipeline()
    assert isinstance(pipeline.process_item(page(PRODUCT_EN)), Product)
    assert isinstance(pipeline.process_item(page(ARTICLE_EN)), Article)


def test_parsed_document_is_reused_and_released():
    pipeline, _ = make_pipeline()
    p = page(ARTICLE_EN, kind="article")
    p._contentex_doc = Document(ARTICLE_EN, url=p.url)
    pipeline.process_item(p)
    assert not hasattr(p, "_contentex_doc")


def test_other_items_pass_through_untouched():
    pipeline, crawler = make_pipeline()
    own = {"title": "x"}
    pt = PageType(url="http://e.com", pageType="index")
    index_page = Page(url="http://e.com", pageType="index", html="<p>x</p>")
    assert pipeline.process_item(own) is own
    assert pipeline.process_item(pt) is pt
    assert pipeline.process_item(index_page) is index_page
    assert crawler.stats.get_stats() == {}


def test_exception_in_extraction_keeps_item(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("extractor exploded")

    monkeypatch.setattr("scrapy_contentex.api.extract_article", boom)
    pipeline, crawler = make_pipeline()
    item = pipeline.process_item(page(ARTICLE_EN, kind="article"))
    assert isinstance(item, Article)
    assert item.url == "http://example.com/p.html"
    assert "extractor exploded" in item.contentexError
    assert stat(crawler, "failed/RuntimeError") == 1
    assert stat(crawler, "items/article") == 1


def test_failed_product_stays_a_product(monkeypatch):
    monkeypatch.setattr("scrapy_contentex.api.extract_product",
                        lambda *a, **k: 1 / 0)
    pipeline, crawler = make_pipeline()
    item = pipeline.process_item(page(PRODUCT_EN, kind="product"))
    assert isinstance(item, Product) and "ZeroDivisionError" in item.contentexError
    assert stat(crawler, "failed/ZeroDivisionError") == 1


def test_drop_failed_is_opt_in(monkeypatch):
    monkeypatch.setattr("scrapy_contentex.api.guess_kind", lambda *a, **k: 1 / 0)
    pipeline, crawler = make_pipeline({"CONTENTEX_DROP_FAILED": True})
    with pytest.raises(DropItem):
        pipeline.process_item(page(ARTICLE_EN))
    assert stat(crawler, "failed/ZeroDivisionError") == 1


def test_empty_page_item_is_a_counted_failure():
    pipeline, crawler = make_pipeline()
    item = pipeline.process_item(Page(url="http://e.com/x", html=""))
    assert item.contentexError and stat(crawler, "failed/empty") == 1


def test_text_algorithm_and_params_are_passed(monkeypatch):
    calls = {}

    def fake_text(doc, algorithm="default", **params):
        calls["algorithm"], calls["params"] = algorithm, params
        return "body from params"

    monkeypatch.setattr("scrapy_contentex.core.text.extract_text", fake_text)
    pipeline, _ = make_pipeline({"CONTENTEX_TEXT_ALGORITHM": "twcem",
                                 "CONTENTEX_TEXT_PARAMS": {"delta1": 3}})
    item = pipeline.process_item(page(ARTICLE_EN, kind="article"))
    assert calls == {"algorithm": "twcem", "params": {"delta1": 3}}
    assert item.articleBody == "body from params"


def test_non_json_values_are_coerced(monkeypatch):
    import datetime

    from scrapy_contentex import api

    real = api.extract_article

    def with_date(*args, **kwargs):
        item = real(*args, **kwargs)
        item.datePublished = datetime.date(2024, 11, 4)
        return item

    monkeypatch.setattr("scrapy_contentex.api.extract_article", with_date)
    pipeline, _ = make_pipeline()
    item = pipeline.process_item(page(ARTICLE_EN, kind="article"))
    assert item.datePublished == "2024-11-04"
    json.dumps(ItemAdapter(item).asdict())


def test_extracted_items_keep_the_page_content_probability():
    pipeline, _ = make_pipeline()
    item = pipeline.process_item(Page(url="http://x/a", html=ARTICLE_EN, kind="article",
                                      contentProbability=0.8123))
    assert isinstance(item, Article) and item.contentProbability == 0.8123
    failed = pipeline.process_item(Page(url="http://x/b", html=None, kind="article",
                                        contentProbability=0.61))
    assert failed.contentexError and failed.contentProbability == 0.61
