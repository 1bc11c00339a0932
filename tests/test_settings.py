"""CONTENTEX_* reading: defaults, types, validation messages, per-spider overrides."""

from __future__ import annotations

import pytest
from conftest import make_crawler
from scrapy import Spider
from scrapy.settings import Settings

from scrapy_contentex.settings import (
    DEFAULT_MAX_PAGE_SIZE,
    DEFAULTS,
    PAGETYPE_PARAMS,
    ContentexSettings,
)


def read(values: dict) -> ContentexSettings:
    return ContentexSettings.from_settings(Settings(values))


def test_defaults_without_any_setting():
    cfg = read({})
    assert cfg.enabled is True
    assert cfg.kind == "auto"
    assert cfg.text_algorithm == "default"
    assert cfg.pagetype_params == {}
    assert cfg.text_params == {}
    assert cfg.record_attributes == ()
    assert cfg.emit_index is False
    assert cfg.record_pages is True
    assert cfg.max_page_size == DEFAULT_MAX_PAGE_SIZE
    assert cfg.drop_failed is False
    assert cfg.index_priority_boost == 0
    assert cfg.content_follow_limit == -1


def test_defaults_table_matches_dataclass():
    assert read(DEFAULTS) == read({})


def test_typed_values_and_strings_from_command_line():
    cfg = read({
        "CONTENTEX_ENABLED": "false",
        "CONTENTEX_KIND": "Product",
        "CONTENTEX_TEXT_ALGORITHM": "twcem",
        "CONTENTEX_TEXT_PARAMS": '{"delta1": 5}',
        "CONTENTEX_RECORD_ATTRIBUTES": "colour, size",
        "CONTENTEX_EMIT_INDEX": "1",
        "CONTENTEX_MAX_PAGE_SIZE": "1000",
        "CONTENTEX_DROP_FAILED": True,
        "CONTENTEX_INDEX_PRIORITY_BOOST": "7",
        "CONTENTEX_CONTENT_FOLLOW_LIMIT": 0,
    })
    assert cfg.enabled is False
    assert cfg.kind == "product"
    assert cfg.text_algorithm == "twcem"
    assert cfg.text_params == {"delta1": 5}
    assert cfg.record_attributes == ("colour", "size")
    assert cfg.emit_index is True
    assert cfg.max_page_size == 1000
    assert cfg.drop_failed is True
    assert cfg.index_priority_boost == 7
    assert cfg.content_follow_limit == 0


@pytest.mark.parametrize("name, value", [
    ("CONTENTEX_KIND", "recipe"),
    ("CONTENTEX_TEXT_ALGORITHM", "magic"),
    ("CONTENTEX_ENABLED", "maybe"),
    ("CONTENTEX_EMIT_INDEX", 3),
    ("CONTENTEX_MAX_PAGE_SIZE", "big"),
    ("CONTENTEX_MAX_PAGE_SIZE", -5),
    ("CONTENTEX_CONTENT_FOLLOW_LIMIT", -2),
    ("CONTENTEX_INDEX_PRIORITY_BOOST", 1.5),
    ("CONTENTEX_TEXT_PARAMS", "[1, 2]"),
    ("CONTENTEX_RECORD_ATTRIBUTES", 12),
    ("CONTENTEX_PAGETYPE_MIN_LINKS", "many"),
    ("CONTENTEX_PAGETYPE_DISTANCE", "euclid"),
    ("CONTENTEX_PAGETYPE_THRESHOLD", "high"),
    ("CONTENTEX_PAGETYPE_THRESHOLD", 3),
])
def test_invalid_values_name_the_setting(name, value):
    with pytest.raises(ValueError, match=name):
        read({name: value})


def test_pagetype_settings_map_to_engine_keywords():
    try:
        cfg = read({"CONTENTEX_PAGETYPE_MIN_LINKS": 4, "CONTENTEX_PAGETYPE_DISTANCE": "code"})
    except ValueError as exc:  # engine present but names differ: the message says so
        assert "not supported" in str(exc)
        return
    assert cfg.pagetype_params == {
        PAGETYPE_PARAMS["CONTENTEX_PAGETYPE_MIN_LINKS"]: 4,
        PAGETYPE_PARAMS["CONTENTEX_PAGETYPE_DISTANCE"]: "code",
    }


def test_unset_pagetype_settings_leave_engine_defaults():
    assert read({"CONTENTEX_PAGETYPE_THRESHOLD": None}).pagetype_params == {}


def test_spider_custom_settings_override_project_and_addon():
    class ProductSpider(Spider):
        name = "products"
        custom_settings = {"CONTENTEX_KIND": "product", "CONTENTEX_EMIT_INDEX": True}

    crawler = make_crawler({"ADDONS": {"scrapy_contentex.Addon": 500},
                            "CONTENTEX_KIND": "article"}, ProductSpider)
    cfg = ContentexSettings.from_settings(crawler.settings)
    assert cfg.kind == "product"
    assert cfg.emit_index is True


def test_settings_object_is_frozen():
    cfg = read({})
    with pytest.raises(AttributeError):
        cfg.kind = "product"  # type: ignore[misc]


def test_default_settings_do_not_load_the_page_type_engine():
    # A crawl whose pages go to worker processes reads its settings in the
    # crawl process; with no page-type setting given, nothing there needs the
    # engine (nor numpy, which it imports). A fresh interpreter tells.
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from scrapy.settings import Settings\n"
        "from scrapy_contentex.settings import ContentexSettings\n"
        "ContentexSettings.from_settings(Settings({}))\n"
        "print('scrapy_contentex.core.pagetype' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    # A page-type setting the user gives is still checked against the engine.
    with pytest.raises(ValueError, match="CONTENTEX_PAGETYPE_THRESHOLD"):
        ContentexSettings.from_settings(Settings({"CONTENTEX_PAGETYPE_THRESHOLD": 2}))
