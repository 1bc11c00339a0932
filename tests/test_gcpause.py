"""The collector pause around extraction: restored afterwards, counted across threads,
and safe because an extraction leaves no reference cycles behind."""

import gc
import json
import subprocess
import sys
import threading

import pytest

from scrapy_contentex.core.gcpause import gc_paused

PAGES = (
    """<html><head><title>Kettle K2 | Shop</title>
<script type="application/ld+json">{"@type": "Product", "name": "Kettle K2", "sku": "K2",
 "offers": {"@type": "Offer", "price": "19.90", "priceCurrency": "EUR"}}</script></head>
<body><h1>Kettle K2</h1><p class="price">19,90 €</p><p>In stock</p></body></html>""",
    """<html><head><title>青瓷茶杯 - 示例商城</title></head><body>
<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">青瓷茶杯</h1>
<p>售价：<span>¥128.00</span></p><ul><li>品牌：龙泉窑</li><li>型号：QC-01</li>
<li>材质：陶瓷</li></ul></div></body></html>""",
)


@pytest.fixture
def gc_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_pause_and_restore(gc_enabled):
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: still paused when the inner one ends
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error(gc_enabled):
    with pytest.raises(RuntimeError):
        with gc_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(gc_enabled):
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()


def test_concurrent_pauses_resume_once_the_last_ends(gc_enabled):
    inside, release = threading.Event(), threading.Event()

    def hold():
        with gc_paused():
            inside.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    assert inside.wait(5)
    with gc_paused():
        pass
    assert not gc.isenabled()  # the other thread's extraction is still running
    release.set()
    other.join(5)
    assert gc.isenabled()


_CYCLE_CHECK = """
import gc, json, sys
import scrapy_contentex
call, url, field = sys.argv[1:4]
extract = getattr(scrapy_contentex, call)
pages = json.loads(sys.stdin.read())
for html in pages:
    extract(html, url)  # imports and models: once
gc.collect()
gc.disable()
for html in pages:
    assert getattr(extract(html, url), field)
print(gc.collect())
"""

ARTICLE_PAGES = (
    """<html><head><title>Rain returns to the valley | Daily Example</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Rain returns to the valley</h1><p class="byline">By Jane Roe</p>
<p>After a dry month, rain returned to the valley on Tuesday, filling the reservoirs again.</p>
<p>Farmers said the fields needed it, and the river rose by half a metre overnight.</p></article>
<footer>Copyright 2025 Daily Example</footer></body></html>""",
    """<html><head><title>社区论坛 - 雨季来了</title></head><body>
<div class="post"><span class="username">小王</span><p>今年的雨季来得比往年早，大家注意出行安全。</p></div>
<div class="post"><span class="username">老李</span><p>谢谢提醒，我们这里昨天已经下了一整天。</p></div>
</body></html>""",
)


@pytest.mark.parametrize("call, url, field, pages", [
    ("extract_product", "https://shop.example/p/1", "name", PAGES),
    # The article call's tree was once held by a cycle (an author-source reader
    # closing over its AuthorSources) until the collector ran.
    ("extract_article", "https://news.example/a/1", "articleBody", ARTICLE_PAGES),
])
def test_extraction_leaves_no_cycles(call, url, field, pages):
    """What makes the pause safe: everything an extraction made is freed by reference
    counting, so nothing waits for the collector. A cycle added later fails here.

    In a fresh process: other tests leave threads and finalizers behind whose
    own garbage (Scrapy's signal weakrefs) would be counted here."""
    done = subprocess.run([sys.executable, "-c", _CYCLE_CHECK, call, url, field], input=json.dumps(pages),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["0"]
