"""ContentEx (seed 001) and its preprocessing, on small hand-written pages."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import extract_text
from scrapy_contentex.core.text.common import block_text
from scrapy_contentex.core.text.contentex import (
    Params,
    common_pattern_filter,
    extract,
    link_counts,
    link_table_filter,
)
from scrapy_contentex.core.text.preprocess import (
    is_statement,
    main_region,
    preprocess,
    remove_statements,
)


def _tree(body: str):
    return lxml_html.document_fromstring(f"<html><head><title>t</title></head><body>{body}</body></html>")


def _text(tree) -> str:
    return block_text(tree.find("body"))


# --- preprocessing --------------------------------------------------------

def test_preprocess_drops_scripts_styles_hidden_and_small_forms():
    tree = _tree(
        "<script>var secret = 1;</script><style>p {color: red}</style>"
        "<form><input name=q><button>Search the site</button></form>"
        "<div style='display: none'>hidden promo text</div>"
        "<div hidden>another hidden block</div>"
        "<span aria-hidden='true'>icon label</span>"
        "<div class='modal d-none'>Are you sure you want to delete?</div>"
        "<p>The visible paragraph of the story, long enough to be the content of the page.</p>"
    )
    text = _text(preprocess(tree))
    assert "visible paragraph" in text
    for noise in (
        "secret", "color", "Search the site", "hidden promo", "another hidden", "icon label",
        "Are you sure",
    ):
        assert noise not in text


def test_preprocess_keeps_page_wrapping_form_and_script_revealed_body():
    words = " ".join(f"word{i}" for i in range(120))
    tree = _tree(f"<form id='aspnetForm'><div><p>{words}.</p></div><input name=x></form>")
    assert "word119" in _text(preprocess(tree))
    # WeChat-style: the whole article is hidden until a script shows it.
    tree = _tree(f"<div style='visibility: hidden'><p>{words}.</p></div><div hidden>menu</div>")
    text = _text(preprocess(tree))
    assert "word0" in text and "menu" not in text


def test_preprocess_drops_landmarks_but_not_a_wrapping_header():
    tree = _tree(
        "<nav>Home News Sport</nav><header>Site banner</header>"
        "<p>Main story text that readers came for, with several words in it.</p>"
        "<aside>Most read today</aside><footer>Contact us</footer>"
        "<div role='navigation'>Menu entries</div>"
    )
    text = _text(preprocess(tree))
    assert "Main story text" in text
    for noise in ("Home News", "Site banner", "Most read", "Contact us", "Menu entries"):
        assert noise not in text
    words = " ".join(f"w{i}" for i in range(100))
    tree = _tree(f"<header><h1>Title</h1><p>{words}.</p></header><p>short</p>")
    assert "w99" in _text(preprocess(tree))


@pytest.mark.parametrize(
    "notice",
    [
        "Copyright © 2024 Example Media Inc. All rights reserved.",
        "© 2023 Example News | Privacy Policy | Terms of Use",
        "Disclaimer: the views expressed are the author's own.",
        "版权所有 © 2024 某某网 京ICP备12345678号",
        "未经授权，禁止转载。",
        "免责声明：本文仅代表作者个人观点。",
        "沪公网安备 31010402000001号",
    ],
)
def test_statements_are_recognised(notice):
    assert is_statement(notice)


def test_a_paragraph_mentioning_copyright_is_not_a_statement():
    prose = (
        "The court said the copyright claim was weak, because the photographer never registered "
        "the picture, and the company argued that all rights reserved notices printed in small "
        "type at the bottom of a web page do not by themselves create any enforceable right, a "
        "view several lawyers interviewed for this story disputed at length."
    )
    assert not is_statement(prose)
    tree = _tree(f"<p>{prose}</p><div><p>Copyright © 2024 Foo Ltd. All rights reserved.</p></div>")
    text = _text(remove_statements(tree))
    assert "photographer never registered" in text
    assert "Foo Ltd" not in text


def test_statement_removal_chinese_footer_and_bare_text():
    tree = _tree(
        "<div class='content'><p>今天上午，市政府召开新闻发布会，介绍了全市经济运行的基本情况和下一步工作安排。</p></div>"
        "<div class='foot'><p>关于我们 | 联系我们</p><p>版权所有 © 2024 某某网</p><p>京ICP备12345678号</p></div>"
        "<div>正文后面的一段话，说明了更多细节。" + "这一段文字足够长，是正文的一部分。" * 4
        + "<br>未经本站授权不得转载</div>"
    )
    text = _text(remove_statements(tree))
    assert "新闻发布会" in text and "更多细节" in text
    assert "版权所有" not in text and "ICP" not in text and "不得转载" not in text


def test_small_page_wrapper_with_a_terms_link_is_not_a_statement():
    tree = _tree(
        "<div id='page'><p>My issue is this, what is going on?</p><p>Discussion</p>"
        "<p>Progress!</p><footer>Terms of use Privacy policy</footer><p>Recent topics</p></div>"
    )
    text = _text(remove_statements(tree))
    assert "My issue is this" in text


def test_main_region_only_for_a_lone_article():
    words = " ".join(f"w{i}" for i in range(80))
    body = _tree(f"<div>Related teaser one two three</div><article><p>{words}</p></article>").find("body")
    assert main_region(body, 0.4).tag == "article"
    posts = "".join(f"<article><p>reply {i} {words}</p></article>" for i in range(3))
    body = _tree(posts).find("body")
    assert main_region(body, 0.4).tag == "body"


# --- link-table filter ----------------------------------------------------

def test_link_counts_follow_the_paper():
    tree = _tree("<div id='d'><p>one two three <a href='/x'>a long link text</a></p><a href='/y'>y</a></div>")
    counts = link_counts(tree)
    div = tree.get_element_by_id("d")
    assert counts[div] == (5, 2)  # three words + two links counted one word each
    p = div.find("p")
    assert counts[p] == (4, 1)


def test_link_table_filter_removes_navigation_and_keeps_inline_links():
    tree = _tree(
        "<div id='menu'><ul><li><a href='/'>Home</a></li><li><a href='/world'>World</a></li>"
        "<li><a href='/sport'>Sport</a></li></ul></div>"
        "<p>The minister said on Monday that the <a href='/budget'>budget</a> would be cut, "
        "and several members of parliament objected strongly to the plan.</p>"
    )
    text = _text(link_table_filter(tree, 0.5))
    assert "Home" not in text and "World" not in text and "Sport" not in text
    assert "the\nbudget" not in text and "budget would be cut" in text.replace("\n", " ")


def test_link_table_grows_upward_while_parent_scores_lower():
    tree = _tree(
        "<div id='table'><span><a href='/a'>a</a> more</span><a href='/b'>b</a>"
        "<a href='/c'>c</a><a href='/d'>d</a></div>"
        "<p id='story'>A paragraph of real text that stays where it is.</p>"
    )
    link_table_filter(tree, 0.6)
    ids = {el.get("id") for el in tree.iter() if el.get("id")}
    assert "table" not in ids  # span (0.5) grew to its div (0.2)
    assert "story" in ids


def test_link_table_filter_chinese_related_list():
    tree = _tree(
        "<div class='article'><p>据新华社报道，今年一季度全国经济运行稳中向好，主要指标符合预期。</p></div>"
        "<div class='related'><h3>相关新闻</h3><ul><li><a href='/1'>一季度数据发布</a></li>"
        "<li><a href='/2'>专家解读经济形势</a></li><li><a href='/3'>市场回暖明显</a></li></ul></div>"
    )
    text = _text(link_table_filter(tree, 0.5))
    assert "主要指标符合预期" in text
    assert "专家解读" not in text and "市场回暖" not in text


# --- common-pattern filter ------------------------------------------------

def test_pattern_filter_drops_times_ips_labels_and_copyright():
    tree = _tree(
        "<p>2024-05-13 17:08</p><p>Posted on Jan 5, 2024 at 10:30 am</p>"
        "<p>3 hours ago</p><p>IP: 202.96.134.*</p><p>Posted by:</p><p>作者：</p>"
        "<p>发表于 2024-5-13 17:08</p><p>IP属地：广东</p>"
        "<p>All rights reserved by the forum team.</p>"
        "<p>I met him at 10:30 and we talked about the new amplifier design for an hour.</p>"
    )
    text = _text(common_pattern_filter(tree, Params()))
    assert text == "I met him at 10:30 and we talked about the new amplifier design for an hour."


def test_pattern_filter_drops_repeated_short_text_only():
    posts = "".join(
        f"<div><span>Quote</span><span>Reply</span><p>Answer number {i} explains the fix, step by step.</p></div>"
        for i in range(4)
    )
    tree = _tree(posts + "<p>Thanks</p>")
    text = _text(common_pattern_filter(tree, Params()))
    assert "Quote" not in text and "Reply" not in text
    assert "Thanks" in text  # short but not repeated
    assert all(f"Answer number {i}" in text for i in range(4))


def test_pattern_filter_leaves_code_alone():
    code = "".join(
        f"<span>def</span> f{i}(x):\n    <span>return</span> x\n" for i in range(4)
    )
    tree = _tree(f"<p>Try this:</p><pre><code>{code}</code></pre>")
    text = _text(common_pattern_filter(tree, Params()))
    assert text.count("def") == 4 and text.count("return") == 4
    assert "f0(x):" in text
    assert "Try this:" not in text  # a short label line outside code still goes


# --- the whole algorithm on forum threads ---------------------------------

EN_THREAD = """<html><head><title>Amp bias question - Audio Forum</title></head><body>
<div id="nav"><a href="/">Forum</a> &raquo; <a href="/amps">Amplifiers</a> &raquo; <a href="/amps/t1">Bias</a></div>
<form action="/search"><input name="q"><button>Go</button></form>
<table class="thread">
<tr><td class="user"><a href="/u/alice">alice</a><br>Posts: 120</td>
<td class="post"><div>Posted: 2024-03-01 09:15</div>
<p>What does class-AB bias mean for the output stage of a tube amplifier, and why does it matter?</p>
<div class="sig">--<br><a href="http://alice.example">my blog</a></div></td></tr>
<tr><td class="user"><a href="/u/bob">bob</a><br>Posts: 45</td>
<td class="post"><div>Posted: 2024-03-01 10:02</div>
<p>Class-AB means both tubes conduct near the crossover point, so the idle current is moderate.</p></td></tr>
<tr><td class="user"><a href="/u/carol">carol</a><br>Posts: 3</td>
<td class="post"><div>Posted: 2024-03-02 18:40</div>
<p>It matters because the bias sets distortion, heat and tube life; check it with a meter.</p></td></tr>
</table>
<div class="foot"><a href="/rules">Rules</a> | <a href="/privacy">Privacy</a><br>Copyright © 2024 Audio Forum. All rights reserved.</div>
</body></html>"""

ZH_THREAD = """<html><head><meta charset="utf-8"><title>请教一个关于装修的问题 - 家居论坛</title></head><body>
<div class="top"><a href="/">首页</a> <a href="/bbs">论坛</a> <a href="/login">登录</a> <a href="/reg">注册</a></div>
<div class="post"><div class="author"><a href="/u/1">小明</a></div>
<div class="info">发表于 2024-5-13 17:08 | IP属地：广东</div>
<div class="body">新房刚交付，想问一下大家，墙面是刷乳胶漆好还是贴墙纸好？预算有限。</div>
<div class="bar"><a href="/r">回复</a> 引用 举报</div></div>
<div class="post"><div class="author"><a href="/u/2">老王</a></div>
<div class="info">发表于 2024-5-13 18:20 | IP属地：上海</div>
<div class="body">建议刷乳胶漆，便宜耐用，以后想换颜色也方便。</div>
<div class="bar"><a href="/r">回复</a> 引用 举报</div></div>
<div class="post"><div class="author"><a href="/u/3">设计师小李</a></div>
<div class="info">发表于 2024-5-14 09:01 | IP属地：北京</div>
<div class="body">卧室可以考虑墙纸，客厅用乳胶漆，这样效果和预算都能兼顾。</div>
<div class="bar"><a href="/r">回复</a> 引用 举报</div></div>
<div class="footer">版权所有 © 2024 家居论坛 京ICP备12345678号 未经授权禁止转载</div>
</body></html>"""


def test_english_forum_thread_keeps_every_post_and_drops_chrome():
    text = extract(Document(EN_THREAD))
    assert "What does class-AB bias mean" in text
    assert "both tubes conduct" in text
    assert "the bias sets distortion" in text
    for noise in ("alice", "bob", "carol", "Posted:", "2024-03", "Amplifiers", "Copyright", "Rules", "my blog"):
        assert noise not in text


def test_chinese_forum_thread_keeps_every_reply_and_drops_chrome():
    text = extract(Document(ZH_THREAD))
    assert "墙面是刷乳胶漆好还是贴墙纸好" in text
    assert "建议刷乳胶漆" in text
    assert "卧室可以考虑墙纸" in text
    for noise in ("小明", "老王", "发表于", "IP属地", "引用", "举报", "首页", "版权所有", "ICP"):
        assert noise not in text
    assert text.count("\n") == 2  # three paragraphs


def test_registry_params_and_bad_names():
    doc = Document(EN_THREAD)
    assert extract_text(doc, algorithm="contentex") == extract(doc)
    # A threshold of 0 never starts a link table: the breadcrumb links survive.
    assert "Amplifiers" in extract_text(doc, algorithm="contentex", threshold=0.0)
    with pytest.raises(TypeError):
        extract(doc, no_such_parameter=1)


def test_deeply_nested_page_does_not_recurse():
    depth = 5000
    page = "<html><body>" + "<div>" * depth + "<p>Deep text, still content.</p>" + "</div>" * depth + "</body></html>"
    assert "Deep text" in extract(Document(page))


def test_page_without_body_gives_no_head_text():
    doc = Document("<html><head><title>Only a title</title></head></html>")
    assert extract(doc) == ""
    assert extract(Document("A bare line of text, with no markup at all.")) == (
        "A bare line of text, with no markup at all."
    )
