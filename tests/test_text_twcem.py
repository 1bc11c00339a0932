"""TWCEM (seed 002) on small hand-written pages, English and Chinese."""

from __future__ import annotations

import random

import pytest
from lxml import html as lxml_html

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import extract_text
from scrapy_contentex.core.text.twcem import (
    Params,
    ctext_rows,
    extract,
    lcs_length,
    locate,
    page_title,
    segment,
)


def _lcs_dp(a: list[str], b: list[str]) -> int:
    """The paper's LCS recurrence, written out as the plain O(m*n) table."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def test_bit_parallel_lcs_equals_the_recurrence():
    rng = random.Random(7)
    for _ in range(500):
        a = [rng.choice("abcdef") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcdef") for _ in range(rng.randint(0, 12))]
        assert lcs_length(a, b) == _lcs_dp(a, b)
    assert lcs_length(list("火星车发现了水冰"), list("火星车在火星发现水冰")) == 7


def test_segment_filters_by_length_delta1_and_punctuation_delta2():
    rows = [
        ("Home", 0.0),                                       # too short (δ1)
        ("Sign in to your account now", 0.0),                # long, no punctuation (δ2)
        ("The rover found ice near the pole.", 0.0),         # kept
        ("首页", 0.0),                                        # 2 CJK tokens < δ1
        ("今天天气很好，我们去公园", 0.0),                    # Chinese comma counts (δ2)
        ("今天天气很好我们去公园", 0.0),                      # no punctuation
        ("Read: Mars news, Moon news, Venus news", 0.9),      # link row
    ]
    kept = segment(rows, delta1=4, delta2=1)
    assert kept == [
        "The rover found ice near the pole.",
        "今天天气很好，我们去公园",
        "Read: Mars news, Moon news, Venus news",
    ]
    assert "Read: Mars news, Moon news, Venus news" not in segment(rows, 4, 1, max_link_share=0.5)
    assert segment(rows, delta1=4, delta2=2) == ["Read: Mars news, Moon news, Venus news"]
    assert "Sign in to your account now" in segment(rows, delta1=4, delta2=0)


def test_locate_start_and_end_by_lcs_with_the_title():
    title = "Rover finds water ice on Mars"
    blocks = [
        "Subscribe today, cancel any time.",              # 0: shares nothing with the title
        "NASA said on Monday its rover found ice.",       # 1: 'rover', 'ice' -> start (δ3=2)
        "The deposits lie a metre below the surface.",    # 2
        "Scientists plan to drill there next year.",      # 3
        "Water on Mars could supply future crews.",       # 4: 'water', 'mars' -> end
        "Comments are closed, see our policy.",           # 5: nothing in common
    ]
    assert locate(blocks, title, delta3=2) == (1, 4)
    # With δ3 = 3 no block of the first half qualifies: start stays at 0.
    assert locate(blocks, title, delta3=3)[0] == 0
    # No title: everything is kept.
    assert locate(blocks, "", delta3=2) == (0, 5)


def test_locate_chinese_counts_characters():
    title = "火星车发现水冰"
    blocks = ["欢迎订阅，随时取消。", "新华社电，火星车在南极附近发现冰。", "专家说，这很重要。", "这些水冰可供未来使用。", "评论已关闭，谢谢。"]
    start, end = locate(blocks, title, delta3=2)
    assert (start, end) == (1, 3)


EN_PAGE = """<html><head><title>Rover finds water ice on Mars | Space Daily</title></head><body>
<div class="top">Space Daily: news, views and more.</div>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/mars">Mars</a></li><li><a href="/moon">Moon</a></li></ul>
<div class="story">
<h1>Rover finds water ice on Mars</h1>
<p>The rover found water ice a metre under the surface, NASA said on Monday.</p>
<p>The deposits, spread over a wide plain, are thicker than expected.</p>
<p>Engineers will now plan a drill campaign for next year.</p>
<p>Future crews could use the water on Mars for fuel and drinking, officials said.</p>
</div>
<div class="more"><p>Also read: <a href="/a">Moon base plans, explained</a>, <a href="/b">Jupiter, again</a></p></div>
<div class="legal">Cookies help us deliver our services, see the settings.</div>
</body></html>"""

ZH_PAGE = """<html><head><meta charset="utf-8"><title>火星车发现水冰_新闻中心</title></head><body>
<div class="nav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/tech">科技</a></div>
<div class="ad">下载客户端，精彩内容随时看！</div>
<div class="article">
<h1>火星车发现水冰</h1>
<p>新华社北京电，火星车近日在火星南极附近发现大量冰层。</p>
<p>专家表示，冰层厚度超出预期，分布范围很广。</p>
<p>科研团队将据此制定下一步的钻探计划。</p>
<p>这些水冰将来可为航天员提供饮用水和燃料。</p>
</div>
<div class="comment">网友评论：说得好，支持一下！</div>
</body></html>"""


def test_extract_english_page_between_start_and_end():
    text = extract(Document(EN_PAGE), delta3=2)
    lines = text.split("\n")
    assert lines[0].startswith("The rover found water ice")
    assert lines[-1].startswith("Future crews could use the water on Mars")
    assert "Engineers will now plan" in text
    for noise in ("Space Daily", "Home", "Moon base", "Cookies"):
        assert noise not in text


def test_extract_chinese_page_between_start_and_end():
    text = extract(Document(ZH_PAGE), delta3=2)
    lines = text.split("\n")
    assert lines[0].startswith("新华社北京电")
    assert lines[-1].startswith("这些水冰将来")
    assert len(lines) == 4
    for noise in ("首页", "下载客户端", "网友评论"):
        assert noise not in text


def test_rows_follow_blocks_and_record_link_share():
    tree = lxml_html.document_fromstring(
        "<html><body><p>one two <a href='/x'>three four</a></p><div>five<br>six</div></body></html>"
    )
    rows = ctext_rows(tree)
    assert [row for row, _ in rows] == ["one two three four", "five", "six"]
    assert rows[0][1] == pytest.approx(0.5)
    assert rows[1][1] == 0.0


def test_title_comes_from_the_page():
    assert "Rover finds water ice on Mars" in page_title(Document(EN_PAGE))


def test_empty_and_registry_and_params():
    assert extract(Document("<html><body><p>Home</p><p>Login</p></body></html>")) == ""
    doc = Document(EN_PAGE)
    assert extract_text(doc, algorithm="twcem") == extract(doc)
    assert Params().delta1 == 4 and Params().delta2 == 1
    with pytest.raises(TypeError):
        extract(doc, delta9=1)


def test_long_single_row_page_is_linear():
    # One huge row (a minified page with no blocks): LCS is one pass over it.
    words = " ".join(f"w{i % 997}," for i in range(200_000))
    page = f"<html><head><title>w1 w2 w3</title></head><body>{words}</body></html>"
    assert extract(Document(page)).startswith("w0, w1,")
