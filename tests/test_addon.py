"""The add-on only sets defaults: components on, user settings always win."""

from __future__ import annotations

import pytest
from conftest import make_crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import SETTINGS_PRIORITIES, Settings
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_contentex import Addon
from scrapy_contentex.addon import MIDDLEWARE_ORDER, PIPELINE_ORDER
from scrapy_contentex.middlewares import ContentexSpiderMiddleware
from scrapy_contentex.pipelines import ContentexPipeline

ADDONS = {"ADDONS": {"scrapy_contentex.Addon": 500}}


def components(settings, name):
    return [load_object(c) for c in build_component_list(settings.getwithbase(name))]


def order_of(settings, name, cls):
    for key, value in settings.getdict(name).items():
        if key is cls or (isinstance(key, str) and load_object(key) is cls):
            return value
    return None


def test_addon_enables_middleware_and_pipeline():
    crawler = make_crawler(ADDONS)
    assert ContentexSpiderMiddleware in components(crawler.settings, "SPIDER_MIDDLEWARES")
    assert ContentexPipeline in components(crawler.settings, "ITEM_PIPELINES")
    assert order_of(crawler.settings, "SPIDER_MIDDLEWARES", ContentexSpiderMiddleware) == 550


def test_middleware_runs_after_http_error_middleware():
    # process_spider_input runs in increasing order: HttpErrorMiddleware (50) first.
    crawler = make_crawler(ADDONS)
    mws = components(crawler.settings, "SPIDER_MIDDLEWARES")
    names = [m.__name__ for m in mws]
    assert names.index("HttpErrorMiddleware") < names.index("ContentexSpiderMiddleware")
    assert MIDDLEWARE_ORDER > 50


def test_addon_is_exported_at_package_level():
    assert load_object("scrapy_contentex.Addon") is Addon


def test_user_order_of_components_wins():
    crawler = make_crawler({
        **ADDONS,
        "SPIDER_MIDDLEWARES": {"scrapy_contentex.middlewares.ContentexSpiderMiddleware": 700},
        "ITEM_PIPELINES": {"scrapy_contentex.pipelines.ContentexPipeline": 100},
    })
    mws = crawler.settings.getdict("SPIDER_MIDDLEWARES")
    assert mws == {"scrapy_contentex.middlewares.ContentexSpiderMiddleware": 700}
    assert crawler.settings.getdict("ITEM_PIPELINES") == {
        "scrapy_contentex.pipelines.ContentexPipeline": 100}


def test_user_can_disable_a_component_with_none():
    crawler = make_crawler({
        **ADDONS, "ITEM_PIPELINES": {"scrapy_contentex.pipelines.ContentexPipeline": None}})
    assert ContentexPipeline not in components(crawler.settings, "ITEM_PIPELINES")


def test_project_settings_override_addon_defaults():
    crawler = make_crawler({**ADDONS, "CONTENTEX_KIND": "article",
                            "CONTENTEX_MAX_PAGE_SIZE": 1234})
    assert crawler.settings.get("CONTENTEX_KIND") == "article"
    assert crawler.settings.getint("CONTENTEX_MAX_PAGE_SIZE") == 1234


def test_addon_sets_defaults_at_addon_priority():
    settings = Settings()
    settings.set("CONTENTEX_EMIT_INDEX", True, priority="project")
    Addon().update_settings(settings)
    assert settings.getbool("CONTENTEX_EMIT_INDEX") is True
    assert settings.get("CONTENTEX_KIND") == "auto"
    assert settings.getpriority("CONTENTEX_KIND") == SETTINGS_PRIORITIES["addon"]
    settings.set("CONTENTEX_KIND", "product", priority="spider")
    assert settings.get("CONTENTEX_KIND") == "product"


def test_manual_route_without_addon():
    crawler = make_crawler({
        "SPIDER_MIDDLEWARES": {"scrapy_contentex.middlewares.ContentexSpiderMiddleware": 550},
        "ITEM_PIPELINES": {"scrapy_contentex.pipelines.ContentexPipeline": 300},
        "CONTENTEX_KIND": "product",
    })
    mw = build_from_crawler(ContentexSpiderMiddleware, crawler)
    pipeline = build_from_crawler(ContentexPipeline, crawler)
    assert mw.config.kind == "product" and pipeline.config.kind == "product"


def test_disabled_components_raise_not_configured():
    crawler = make_crawler({**ADDONS, "CONTENTEX_ENABLED": False})
    with pytest.raises(NotConfigured):
        build_from_crawler(ContentexSpiderMiddleware, crawler)
    with pytest.raises(NotConfigured):
        build_from_crawler(ContentexPipeline, crawler)


def test_invalid_setting_fails_at_start_up():
    crawler = make_crawler({**ADDONS, "CONTENTEX_KIND": "recipes"})
    with pytest.raises(ValueError, match="CONTENTEX_KIND must be one of"):
        build_from_crawler(ContentexSpiderMiddleware, crawler)


def test_pipeline_order_is_documented_value():
    crawler = make_crawler(ADDONS)
    assert order_of(crawler.settings, "ITEM_PIPELINES", ContentexPipeline) == PIPELINE_ORDER
