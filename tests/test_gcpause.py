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
from scrapy_contentex import extract_product
pages = json.loads(sys.stdin.read())
for html in pages:
    extract_product(html, "https://shop.example/p/1")  # imports and models: once
gc.collect()
gc.disable()
for html in pages:
    assert extract_product(html, "https://shop.example/p/1").name
print(gc.collect())
"""


def test_extraction_leaves_no_cycles():
    """What makes the pause safe: everything an extraction made is freed by reference
    counting, so nothing waits for the collector. A cycle added later fails here.

    In a fresh process: other tests leave threads and finalizers behind whose
    own garbage (Scrapy's signal weakrefs) would be counted here."""
    done = subprocess.run([sys.executable, "-c", _CYCLE_CHECK], input=json.dumps(PAGES),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["0"]
