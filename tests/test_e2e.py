"""A real crawl of the bundled demo sites through a local HTTP server.

The runner (example_project/run.py) starts the server on 127.0.0.1, runs the
add-on-only CrawlSpider and writes the two feeds; we read them back and check
every demo article and product against the demo manifest.
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlparse

import pytest
from conftest import DEMO_SITES, ROOT

RUNNER = ROOT / "example_project" / "run.py"
EXPECTED = json.loads((DEMO_SITES / "expected.json").read_text(encoding="utf-8"))


def start_crawl(output: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(RUNNER), "--json", "--loglevel", "INFO", "--output", str(output),
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )


def finish(proc: subprocess.Popen) -> tuple[dict, str]:
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr[-3000:]
    return json.loads(stdout.strip().splitlines()[-1]), stderr


def read_feed(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def by_path(items: list[dict]) -> dict[str, dict]:
    return {urlparse(item["url"]).path: item for item in items}


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    """The demo crawl, plain and with crawl steering, run side by side."""
    plain_dir = tmp_path_factory.mktemp("feeds")
    steered_dir = tmp_path_factory.mktemp("steered")
    plain = start_crawl(plain_dir)
    steered = start_crawl(steered_dir, "--steer")
    return (plain_dir, *finish(plain)), finish(steered)


@pytest.fixture(scope="module")
def demo(crawls):
    (output, result, log), _ = crawls
    articles = read_feed(output / "articles.jsonl")
    products = read_feed(output / "products.jsonl")
    return result, log, articles, products


def test_crawl_is_clean(demo):
    result, log, _, _ = demo
    assert "Traceback" not in log
    assert " ERROR" not in log
    assert "contentex: pages:" in log  # the summary line at spider_closed
    assert result["stats"]["finish_reason"] == "finished"


def needs_page_type_engine():
    """Index pages can only be told apart once the page-type engine is installed."""
    pytest.importorskip("scrapy_contentex.core.pagetype")


def test_one_item_per_page(demo):
    needs_page_type_engine()
    _, _, articles, products = demo
    assert len(by_path(articles)) == len(articles)
    assert len(by_path(products)) == len(products)


def test_every_article_with_headline_and_body(demo):
    articles = by_path(demo[2])
    assert {a["path"] for a in EXPECTED["articles"]} <= set(articles)
    for expected in EXPECTED["articles"]:
        item = articles[expected["path"]]
        assert item["pageType"] == "content"
        assert item["headline"] == expected["headline"], expected["path"]
        assert expected["excerpt"] in (item["articleBody"] or ""), expected["path"]
        assert "All rights reserved" not in (item["articleBody"] or "")
        assert item["contentexError"] is None


def test_article_metadata_mostly_right(demo):
    articles = by_path(demo[2])
    dates = sum((articles[e["path"]]["datePublished"] or "").startswith(e["datePublished"])
                for e in EXPECTED["articles"])
    langs = sum((articles[e["path"]]["inLanguage"] or "").startswith(e["lang"])
                for e in EXPECTED["articles"])
    authors = sum(articles[e["path"]]["authors"] == [e["author"]] for e in EXPECTED["articles"])
    assert dates >= len(EXPECTED["articles"]) - 2
    assert langs == len(EXPECTED["articles"])
    assert authors >= len(EXPECTED["articles"]) - 1


def test_every_product_with_name_price_currency(demo):
    products = by_path(demo[3])
    assert {p["path"] for p in EXPECTED["products"]} <= set(products)
    for expected in EXPECTED["products"]:
        item = products[expected["path"]]
        assert item["pageType"] == "content"
        assert item["name"] == expected["name"], expected["path"]
        assert Decimal(item["price"]) == Decimal(expected["price"]), expected["path"]
        assert item["currency"] == expected["currency"], expected["path"]
        assert item["availability"] == expected["availability"], expected["path"]
        names = {prop["name"] for prop in item["additionalProperties"]}
        assert {name for name, _ in expected["properties"]} <= names, expected["path"]


def test_no_items_for_index_pages_and_counted_skips(demo):
    needs_page_type_engine()
    result, _, articles, products = demo
    articles, products = by_path(articles), by_path(products)
    content = {a["path"] for a in EXPECTED["articles"]} | {p["path"] for p in EXPECTED["products"]}
    assert set(articles) | set(products) == content
    stats = result["stats"]
    assert stats["contentex/pages/content"] == len(content)
    # start requests are not dupe-filtered: the two home pages are fetched twice
    twice = len(EXPECTED["start_paths"])
    assert stats["contentex/pages/index"] == len(EXPECTED["index_pages"]) + twice
    assert stats["contentex/items/article"] == len(EXPECTED["articles"])
    assert stats["contentex/items/product"] == len(EXPECTED["products"])
    assert stats["contentex/skipped/non_html"] == len(EXPECTED["non_html"])
    assert not any(k.startswith("contentex/failed/") for k in stats)


def test_demo_pages_always_extracted(demo):
    """Whatever the page type engine says, no demo page is skipped or failed."""
    result = demo[0]
    assert result["expected_found"] == result["expected_items"]
    assert result["stats"]["contentex/skipped/non_html"] == len(EXPECTED["non_html"])
    assert not any(k.startswith("contentex/failed/") and k != "contentex/failed/classify"
                   for k in result["stats"])


def test_steering_saves_requests_and_loses_nothing(demo, crawls):
    needs_page_type_engine()
    plain = demo[0]
    steered, log = crawls[1]
    assert "Traceback" not in log
    assert steered["expected_found"] == steered["expected_items"]
    assert steered["requests"] < plain["requests"]
    assert steered["stats"]["contentex/requests/not_followed"] > 0


def test_feeds_are_split_by_item_class(demo):
    _, _, articles, products = demo
    assert all("headline" in item and "price" not in item for item in articles)
    assert all("price" in item and "headline" not in item for item in products)
