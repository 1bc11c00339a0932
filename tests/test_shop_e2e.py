"""A real crawl of a small shop written for the test (issue 15).

The shop (tests/shop_site.py) uses the common spec layouts, a ``<table>`` of
th/td rows and a ``<dl>``, with names that carry parentheses ("Price (excl.
tax)"), a "Product Description" heading over a paragraph, a slogan as meta
description, and a rail of related books with their own prices and stock.
It is served on 127.0.0.1 and crawled with the add-on only; the feed's
products are checked against what each page shows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlparse

import pytest
from shop_site import BOOKS, properties, write_site

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    site = tmp_path_factory.mktemp("shop")
    output = tmp_path_factory.mktemp("feeds")
    write_site(site)
    done = subprocess.run([sys.executable, str(HERE / "shop_crawl.py"), str(site), str(output)],
                          capture_output=True, text=True, timeout=300, cwd=HERE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    stats = json.loads(done.stdout.strip().splitlines()[-1])
    feed = output / "products.jsonl"
    products = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines() if line]
    return stats, done.stderr, {urlparse(p["url"]).path: p for p in products}


def test_the_crawl_is_clean(crawl):
    stats, log, _ = crawl
    assert "Traceback" not in log and " ERROR" not in log
    assert stats["finish_reason"] == "finished"
    assert not any(k.startswith("contentex/failed/") for k in stats)


def test_one_product_per_book_page(crawl):
    products = crawl[2]
    assert {f"/catalogue/{b['slug']}/index.html" for b in BOOKS} <= set(products)


@pytest.mark.parametrize("book", BOOKS, ids=[b["slug"] for b in BOOKS])
def test_every_book_as_its_page_shows_it(crawl, book):
    stats, log, products = crawl
    path = f"/catalogue/{book['slug']}/index.html"
    assert path in products, (sorted(products), {k: v for k, v in stats.items() if "error" in k or "retry" in k},
                              log[-2000:])
    item = products[path]
    assert item["name"] == book["name"]
    assert Decimal(item["price"]) == Decimal(book["price"])  # not a related book's price
    assert item["currency"] == "GBP"
    assert item["availability"] == book["availability"]  # not a related book's stock
    # names and values exactly as shown, parentheses kept
    assert [(p["name"], p["value"]) for p in item["additionalProperties"]][:7] == properties(book)
    # the paragraph under "Product Description", not the shop's slogan
    assert item["description"] == book["description"]
    assert item["contentexError"] is None
