"""DOM weight (seed 003): NodeImp, width share, heaviest subtree, on hand-written pages."""

import math

import pytest

from scrapy_contentex.core.document import Document, parse_html
from scrapy_contentex.core.text import extract_text
from scrapy_contentex.core.text.domweight import (
    Params,
    collect_leaves,
    extract,
    heaviest_by_gain,
    heaviest_subtree,
)


def _words(n: int, stem: str = "w") -> str:
    return " ".join(f"{stem}{i}" for i in range(n))


def _leaf(leaves, tag):
    return next(leaf for leaf in leaves if leaf.element.tag == tag)


def test_node_imp_counts_non_link_words_links_and_tag_pairs():
    root = parse_html(
        "<html><body><div><p>one two three four <a href='/x'>link words</a> "
        "<b>five</b> <span>six</span></p></div></body></html>"
    )
    leaves, _ = collect_leaves(root)
    p = _leaf(leaves, "p")
    # words: one..four, five, six (link text excluded); the <p> pair + <b> + <span>
    assert (p.words, p.links, p.tags) == (6, 1, 3)
    assert math.isclose(p.node_imp, 6 / (1 + 3))


def test_cjk_characters_count_one_word_each():
    root = parse_html("<html><body><p>今天天气很好，<a href='/'>首页</a></p></body></html>")
    p = _leaf(collect_leaves(root)[0], "p")
    assert p.words == 6 and p.links == 1
    assert math.isclose(p.node_imp, 6 / 2)


def test_link_only_leaf_weighs_zero():
    root = parse_html("<html><body><ul><li><a href='/a'>Home page link</a></li></ul></body></html>")
    li = _leaf(collect_leaves(root)[0], "li")
    assert li.node_imp == 0


def test_width_share_from_attributes_styles_and_equal_cells():
    root = parse_html(
        "<html><body><table width='1000'><tr>"
        "<td width='70%'><div id='a'>x</div></td><td style='width:300px'>y</td></tr>"
        "<tr><td>1</td><td>2</td><td width='50%'>3</td></tr></table>"
        "<div style='width: 50%'><p>z</p></div></body></html>"
    )
    _, shares = collect_leaves(root)
    tds = root.findall(".//td")
    assert math.isclose(shares[tds[0]], 0.7)
    assert math.isclose(shares[root.get_element_by_id("a")], 0.7)  # blocks fill their parent
    assert math.isclose(shares[tds[1]], 0.3)  # 300px of the 1000px page
    # cells without width share what the declared cell leaves
    assert math.isclose(shares[tds[2]], 0.25) and math.isclose(shares[tds[3]], 0.25)
    assert math.isclose(shares[tds[4]], 0.5)
    assert math.isclose(shares[root.find(".//p")], 0.5)


# The seed's worked example (its Figure 3): three subtrees with widths 70%, 70%
# and 30% whose leaves have NodeImp (100, 120), (10, 50) and (1, 5).
PAPER_EXAMPLE = (
    "<html><body><table><tr>"
    "<td width='70%'>"
    f"<div id='s1'><p>{_words(100, 'a')}</p><p>{_words(120, 'b')}</p></div>"
    f"<div id='s2'><p>{_words(10, 'c')}</p><p>{_words(50, 'd')}</p></div>"
    "</td><td width='30%'>"
    f"<div id='s3'><p>{_words(1, 'e')}</p><p>{_words(5, 'f')}</p></div>"
    "</td></tr></table></body></html>"
)


def test_heaviest_subtree_reproduces_the_paper_example():
    root = parse_html(PAPER_EXAMPLE)
    leaves, shares = collect_leaves(root)
    best, members, weight = heaviest_subtree(leaves, shares, "mean")
    assert best.get("id") == "s1"
    assert math.isclose(weight, 0.7 * (100 + 120) / 2)  # 77, as in the paper
    assert [m.node_imp for m in members] == [100, 120]
    # the other subtrees weigh 21 and 0.9 (the paper prints 31 for the last)
    s2 = root.get_element_by_id("s2")
    s2_leaves = [leaf for leaf in leaves if leaf.parent is s2]
    assert math.isclose(shares[s2] * sum(x.node_imp for x in s2_leaves) / 2, 21)


def test_seed_settings_return_the_leaves_of_the_heaviest_subtree():
    text = extract(Document(PAPER_EXAMPLE), aggregate="mean", output="leaves")
    assert text.split("\n") == [_words(100, "a"), _words(120, "b")]


def test_width_decides_between_equal_subtrees():
    page = (
        "<html><body><table><tr>"
        f"<td width='20%'><div><p>{_words(80, 'side')}</p></div></td>"
        f"<td width='80%'><div><p>{_words(60, 'main')}</p></div></td>"
        "</tr></table></body></html>"
    )
    assert extract(Document(page), aggregate="mean", output="leaves") == _words(60, "main")


ARTICLE_EN = """
<html><head><title>Council approves new river bridge</title></head><body>
<div class="nav"><ul>
  <li><a href="/">Home</a></li><li><a href="/news">News</a></li>
  <li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li>
</ul></div>
<div class="main">
  <h1>Council approves new river bridge</h1>
  <div class="body">
    <p>The city council voted on Tuesday to approve a new bridge across the river,
       ending a debate that has lasted for more than a decade.</p>
    <p>Construction is expected to begin next spring, and officials said the bridge
       would cut commuting times for thousands of residents on the east side.</p>
    <ul><li>Cost: about 40 million dollars, shared with the state.</li>
        <li>Length: 350 metres, with a separate lane for bicycles.</li></ul>
    <p>Opponents argued that the money should have been spent on public transport,
       but the motion passed by nine votes to four.</p>
  </div>
</div>
<div class="related"><a href="/a">Mayor opens park</a><a href="/b">Rates rise</a>
<a href="/c">Train delays</a></div>
<div class="footer"><a href="/about">About us</a> | <a href="/contact">Contact</a></div>
</body></html>
"""

ARTICLE_ZH = """
<html><head><meta charset="utf-8"><title>新桥获批建设</title></head><body>
<div id="nav"><a href="/">首页</a><a href="/news">新闻</a><a href="/sports">体育</a>
<a href="/finance">财经</a><a href="/tech">科技</a></div>
<div id="content">
  <h1>市议会批准建设新桥</h1>
  <p>市议会周二投票批准在河上修建一座新桥，结束了持续十多年的争论。</p>
  <p>工程预计明年春季开工，官员表示，新桥将为东区数千名居民缩短通勤时间。</p>
  <p>反对者认为这笔资金应该用于公共交通，但动议以九票对四票获得通过。</p>
</div>
<div id="side"><ul><li><a href="/1">市长为新公园揭幕</a></li><li><a href="/2">利率上调</a></li>
<li><a href="/3">列车延误</a></li></ul></div>
<div id="footer"><a href="/about">关于我们</a><a href="/contact">联系我们</a></div>
</body></html>
"""


@pytest.mark.parametrize("params", [{}, {"aggregate": "sum", "output": "subtree"}])
def test_english_article_body_is_found_without_navigation(params):
    text = extract_text(Document(ARTICLE_EN), "domweight", **params)
    assert "The city council voted on Tuesday" in text
    assert "passed by nine votes to four." in text
    assert "Weather" not in text and "Train delays" not in text and "Contact" not in text
    assert "\n" in text  # paragraphs stay separate


def test_default_keeps_lists_inside_the_article():
    text = extract(Document(ARTICLE_EN))
    assert "Cost: about 40 million dollars, shared with the state." in text.split("\n")


def test_chinese_article_body_is_found_without_navigation():
    text = extract_text(Document(ARTICLE_ZH), "domweight")
    lines = text.split("\n")
    assert "市议会周二投票批准在河上修建一座新桥，结束了持续十多年的争论。" in lines
    assert "反对者认为这笔资金应该用于公共交通，但动议以九票对四票获得通过。" in lines
    assert "首页" not in text and "利率上调" not in text and "关于我们" not in text


def test_gain_penalises_link_leaves_inside_a_block():
    page = (
        "<html><body><div id='outer'><div id='inner'>"
        f"<p>{_words(30, 'a')}</p><p>{_words(30, 'b')}</p></div>"
        + "".join(f"<p><a href='/{i}'>menu {i}</a></p>" for i in range(40))
        + "</div></body></html>"
    )
    root = parse_html(page)
    leaves, shares = collect_leaves(root)
    best, weight = heaviest_by_gain(leaves, shares, penalty=4.0)
    assert best.get("id") == "inner" and math.isclose(weight, 2 * (30 - 4))


def test_small_forms_are_pruned_but_a_page_wide_form_is_kept():
    small = ARTICLE_EN.replace(
        '<div class="related">',
        "<form><p>Subscribe to our newsletter, please, it is free, and you can stop "
        "at any time, really, we promise, honestly.</p></form><div class=\"related\">",
    )
    assert "newsletter" not in extract(Document(small), aggregate="mean", output="subtree")
    wrapped = ARTICLE_ZH.replace("<body>", "<body><form action='/x'>").replace(
        "</body>", "</form></body>"
    )
    assert "市议会周二投票" in extract(Document(wrapped))


def test_empty_and_deeply_nested_pages():
    assert extract(Document("<html><body><div></div></body></html>")) == ""
    deep = "<html><body>" + "<div>" * 5000 + "<p>deep text, still found.</p>" + "</div>" * 5000
    assert extract(Document(deep + "</body></html>")) == "deep text, still found."


def test_unknown_parameter_is_an_error():
    with pytest.raises(TypeError):
        extract(Document(ARTICLE_EN), no_such_param=1)
    assert Params().aggregate == "gain"


def test_link_lists_inside_the_body_are_pruned_unless_disabled():
    page = (
        "<html><body><div id='art'>"
        f"<p>{_words(40, 'a')}</p><p>{_words(40, 'b')}</p>"
        "<div class='related'><a href='/1'>Related story one</a> "
        "<a href='/2'>Related story two</a></div>"
        "</div></body></html>"
    )
    assert "Related story" not in extract(Document(page))
    assert "Related story one" in extract(Document(page), max_link_share=1.0)
