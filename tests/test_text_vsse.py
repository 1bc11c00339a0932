"""VSSE (seed 000, text part): vvtc, T1 seeds, tag-path aggregation, SimHash refinement."""

import math

import pytest

from scrapy_contentex.core.document import Document, parse_html
from scrapy_contentex.core.text import extract_text
from scrapy_contentex.core.text.vsse import (
    Params,
    block_leaves,
    common_prefix_length,
    content_area,
    extract,
    page_summary,
    path_tags,
    prune_link_blocks,
    punct_number,
    refine,
    select_seeds,
    tag_path,
    text_leaves,
    text_length,
)

SMALL = (
    "<html><body><div id='c'>"
    "<p>Hello, world. Again!</p>"  # 3 tokens x 3 marks = 9
    "<p>今天天气很好，我们去公园。</p>"  # 11 CJK chars x 2 marks = 22
    "</div><div id='n'><a href='/'>Home</a>"  # no punctuation: 0
    "<p>one, two</p></div>"  # 2 x 1 = 2
    "</body></html>"
)


def _leaves(html: str):
    root = parse_html(html)
    return root, text_leaves(root.find("body"))


def test_counting_follows_the_seed_language_rules():
    assert text_length("今天天气很好，我们去公园。") == 11
    assert punct_number("今天天气很好，我们去公园。") == 2
    assert punct_number("“引号”（括号）《书名》…") == 7
    assert text_length("Hello, world. Again!") == 3 and punct_number("Hello, world. Again!") == 3


def test_vvtc_is_formula_1_on_every_leaf_text_node():
    _, leaves = _leaves(SMALL)
    assert [leaf.text for leaf in leaves][:2] == ["Hello, world. Again!", "今天天气很好，我们去公园。"]
    select_seeds(leaves, 0.8, 100)  # scores every leaf
    n = len(leaves)
    assert n == 4
    expected = [9 / n**2, 22 / n**2, 0.0, 2 / n**2]
    assert all(math.isclose(a, b) for a, b in zip((x.vvtc for x in leaves), expected, strict=True))


def test_t1_keeps_nodes_close_to_the_maximum():
    _, leaves = _leaves(SMALL)
    assert [s.text for s in select_seeds(leaves, 0.8, 100)] == ["今天天气很好，我们去公园。"]
    # 9/22 >= 0.4 so the English paragraph joins; 2/22 does not
    assert len(select_seeds(leaves, 0.4, 100)) == 2
    assert len(select_seeds(leaves, 0.05, 100)) == 3  # zero vvtc never passes


def test_t1_on_the_seed_example_values():
    # Seed Fig. 3: vvtc 1.25, 1.59, 1.56, 0, ..., 0.17; T1 = 0.8 keeps 1.59 and 1.56
    # (1.25 / 1.59 = 0.79). Texts whose length x punctuation are in that ratio:
    # one mark and N words give length x punctuation = N.
    def text(n):
        return "w " * (n - 1) + "w."

    texts = [text(125), text(159), text(156), "nav", "nav", "nav", "nav", text(17)]
    html = "<html><body>" + "".join(f"<p>{t}</p>" for t in texts) + "</body></html>"
    _, leaves = _leaves(html)
    seeds = select_seeds(leaves, 0.8, 100)
    ratios = [round(leaf.vvtc / leaves[1].vvtc, 3) for leaf in leaves]
    assert ratios == [round(v / 1.59, 3) for v in (1.25, 1.59, 1.56, 0, 0, 0, 0, 0.17)]
    assert [s.text for s in seeds] == [texts[1], texts[2]]


def test_max_seeds_bounds_the_aggregation():
    html = "<html><body>" + "<p>a, b.</p>" * 50 + "</body></html>"
    _, leaves = _leaves(html)
    assert len(select_seeds(leaves, 0.8, 7)) == 7


def test_tag_paths_and_their_longest_common_prefix():
    root = parse_html(SMALL)
    ps = root.findall(".//p")
    assert path_tags(ps[0]) == "html/body/div/p"
    paths = [tag_path(p) for p in ps]
    assert common_prefix_length(paths[:2]) == 3  # html/body/div#c
    assert common_prefix_length(paths) == 2  # html/body: the third p is in div#n
    assert common_prefix_length([]) == 0


def test_aggregation_finds_the_lowest_common_node():
    root = parse_html(
        "<html><body><div id='nav'><a>x</a></div><div id='art'><div><p>One, two.</p></div>"
        "<p>Three, four.</p></div></body></html>"
    )
    leaves = text_leaves(root.find("body"))
    seeds = [leaf for leaf in leaves if "," in leaf.text]
    assert content_area(seeds).get("id") == "art"


def test_a_single_seed_is_lifted_to_its_neighbours():
    root = parse_html(
        "<html><body><div id='art'><h2>Title</h2><p>Only, this one.</p><p>short</p></div>"
        "</body></html>"
    )
    seeds = [leaf for leaf in text_leaves(root.find("body")) if "," in leaf.text]
    assert content_area(seeds).get("id") == "art"


def test_coverage_ignores_a_stray_seed():
    body = (
        "<div id='art'>" + "<p>Para, with marks.</p>" * 4 + "</div>"
        "<div id='foot'><p>Cookie notice, accept.</p></div>"
    )
    root = parse_html(f"<html><body>{body}</body></html>")
    seeds = text_leaves(root.find("body"))
    assert content_area(seeds, coverage=1.0).tag == "body"  # the seed's strict prefix
    assert content_area(seeds, coverage=0.7, mass="count").get("id") == "art"


def test_block_leaves_merge_inline_elements():
    root = parse_html("<html><body><p>A <a href='/'>link</a>, and <b>bold</b>.</p></body></html>")
    assert [x.text for x in text_leaves(root.find("body"))] == ["A ", "link", ", and ", "bold", "."]
    assert [x.text for x in block_leaves(root.find("body"))] == ["A link, and bold."]


def test_refine_keeps_paragraphs_within_t2_of_title_and_description():
    summary = "央行宣布下调存款准备金率 释放长期资金约一万亿元"
    paragraphs = [summary, "昨晚的足球比赛在上海体育场举行，球迷们热情高涨。"]
    kept = refine(paragraphs, summary, Params(T2=3))
    assert kept == [summary]
    assert refine(paragraphs, summary, Params(T2=64)) == paragraphs
    assert refine(paragraphs, "", Params(T2=0)) == paragraphs  # nothing to compare with


def test_page_summary_is_title_plus_meta_description():
    doc = Document(
        "<html><head><title>Rates cut again</title>"
        "<meta name='description' content='The central bank cut rates.'></head>"
        "<body><h1>Rates cut again</h1><p>Text.</p></body></html>"
    )
    summary = page_summary(doc)
    assert "Rates cut again" in summary and summary.endswith("The central bank cut rates.")


ARTICLE_ZH = """
<html><head><meta charset="utf-8"><title>新桥获批建设_本地新闻</title>
<meta name="description" content="市议会批准在河上修建新桥。"></head><body>
<div id="nav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sports">体育</a></div>
<div id="main"><div id="content">
  <h1>市议会批准建设新桥</h1>
  <p>市议会周二投票批准在河上修建一座新桥，结束了持续十多年的争论。</p>
  <p>工程预计明年春季开工，官员表示，新桥将为东区数千名居民缩短通勤时间。</p>
  <p>反对者认为这笔资金应该用于公共交通，但动议以九票对四票获得通过。</p>
</div>
<div id="side"><ul><li><a href="/1">市长为新公园揭幕</a></li><li><a href="/2">利率上调</a></li></ul>
</div></div>
<div id="footer">版权所有 联系我们</div>
</body></html>
"""

ARTICLE_EN = """
<html><head><title>Council approves new river bridge</title></head><body>
<ul id="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<article><h1>Council approves new river bridge</h1>
<p>The city council voted on Tuesday to approve a new bridge across the river,
   ending a debate that has lasted for more than a decade.</p>
<p>Construction is expected to begin next spring, and officials said the bridge
   would cut commuting times for thousands of residents.</p>
<p>Opponents argued that the money should have been spent on public transport,
   but the motion passed by nine votes to four.</p>
</article>
<div id="footer"><p>Copyright 2024, Example News.</p></div>
</body></html>
"""


@pytest.mark.parametrize("params", [{}, {"T1": 0.8, "coverage": 1.0, "mass": "vvtc"}])
def test_chinese_article_is_extracted(params):
    text = extract_text(Document(ARTICLE_ZH), "vsse", **params)
    lines = text.split("\n")
    assert "市议会周二投票批准在河上修建一座新桥，结束了持续十多年的争论。" in lines
    assert "反对者认为这笔资金应该用于公共交通，但动议以九票对四票获得通过。" in lines
    assert "首页" not in text and "联系我们" not in text


def test_english_article_is_extracted_without_the_stray_footer_seed():
    text = extract(Document(ARTICLE_EN))
    assert text.startswith("Council approves new river bridge\nThe city council voted")
    assert text.endswith("passed by nine votes to four.")
    assert "Home" not in text and "Copyright" not in text


def test_pages_without_punctuation_or_text():
    assert extract(Document("<html><body><a href='/'>Home</a> <a>News</a></body></html>")) == ""
    assert extract(Document("<html><body><div></div></body></html>")) == ""
    deep = "<html><body>" + "<div>" * 3000 + "<p>Deep, but found.</p>" + "</div>" * 3000
    assert extract(Document(deep + "</body></html>")) == "Deep, but found."


def test_defaults_and_unknown_parameters():
    p = Params()
    assert p.T2 == 3 and p.refine == "off"
    with pytest.raises(TypeError):
        extract(Document(ARTICLE_EN), nope=1)


def test_top_k_adds_the_best_leaves_as_seeds():
    _, leaves = _leaves(SMALL)
    assert len(select_seeds(leaves, 0.99, 100, top_k=3)) == 3
    assert len(select_seeds(leaves, 0.99, 100, top_k=10)) == 3  # no vvtc, no seed


def test_link_blocks_inside_the_area_are_pruned():
    root = parse_html(
        "<html><body><div id='area'><p>Real text, with <a href='/'>a link</a> inside.</p>"
        "<ul><li><a href='/1'>Related one</a></li><li><a href='/2'>Related two</a></li></ul>"
        "<div>Read more: <a href='/3'>a much longer related headline here</a></div>"
        "</div></body></html>"
    )
    area = root.get_element_by_id("area")
    prune_link_blocks(area, 0.7)
    assert area.text_content() == "Real text, with a link inside."
