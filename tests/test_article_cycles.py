"""An article extraction leaves no reference cycles: each page's tree is freed when
the call returns, not when the cyclic collector next runs."""

import json
import subprocess
import sys

PAGES = (
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

_CYCLE_CHECK = """
import gc, json, sys
from scrapy_contentex import extract_article
pages = json.loads(sys.stdin.read())
for html in pages:
    extract_article(html, "https://news.example/a/1")  # imports and models: once
gc.collect()
gc.disable()
for html in pages:
    assert extract_article(html, "https://news.example/a/1").articleBody
print(gc.collect())
"""


def test_article_extraction_leaves_no_cycles():
    """In a fresh process: other tests leave threads and finalizers behind whose own
    garbage would be counted here. A reader of the author sources that closed over
    its ``AuthorSources`` once made a cycle holding the page's tree."""
    done = subprocess.run([sys.executable, "-c", _CYCLE_CHECK], input=json.dumps(PAGES),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["0"]
