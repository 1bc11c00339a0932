"""Page type (index vs content) on small hand-written English and Chinese pages."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_contentex import classify_page
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.linkblocks import find_link_blocks, markup_text_distance
from scrapy_contentex.core.pagetype import (
    PageTypeParams,
    PageTypeResult,
    classify,
    declared_type,
    region_share,
)

NAV_EN = "".join(
    f'<li><a href="/{s.lower()}">{s}</a></li>'
    for s in ("World", "Politics", "Business", "Tech", "Science", "Sport", "Culture")
)
FOOT_EN = " | ".join(
    f'<a href="/{s}">{s.title()}</a>' for s in ("about", "contact", "privacy", "terms", "jobs")
)

ARTICLE_EN = f"""<!DOCTYPE html><html><head><meta charset="utf-8">
<title>City council approves new river park</title></head><body>
<header><ul class="nav">{NAV_EN}</ul></header>
<article><h1>City council approves new river park</h1>
<p class="byline">By Jane Doe, March 8th, 2014</p>
<p>The city council voted on Tuesday to turn the old freight yard along the river into a
public park, ending a debate that has divided residents for almost a decade. The plan, which
will cost about 12 million dollars, includes walking paths, a playground and a small harbour
for rowing boats.</p>
<p>Supporters said the park would give families in the eastern districts a green space they
have long lacked. Opponents argued that the money should go to repairing schools and roads,
and that the yard could have been sold to developers. After a long session the measure passed
by seven votes to four, and work is expected to begin next spring.</p>
<p>"This is a good day for the city," the mayor told reporters after the vote, adding that the
first paths could open to the public within eighteen months if the weather allows it.
Residents will be invited to comment on the detailed design at two public meetings.</p>
</article>
<footer>{FOOT_EN}</footer></body></html>"""

INDEX_EN = f"""<!DOCTYPE html><html><head><title>World news</title></head><body>
<header><ul class="nav">{NAV_EN}</ul></header>
<main><h1>World</h1><ul class="list">
{"".join(
    f'<li><h3><a href="/world/story-{i}">Headline number {i} about events abroad</a></h3>'
    f'<span class="date">2014-03-{i + 1:02d}</span>'
    f' <a href="/world/tag-{i}">Region {i}</a></li>'
    for i in range(25)
)}
</ul><div class="pager"><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">3</a>
<a href="?p=4">Next</a></div></main>
<footer>{FOOT_EN}</footer></body></html>"""

NAV_ZH = "".join(
    f'<li><a href="/{i}">{s}</a></li>'
    for i, s in enumerate(("首页", "新闻", "财经", "科技", "体育", "娱乐", "汽车", "房产"))
)

ARTICLE_ZH = f"""<html><head><meta charset="gbk"><title>我市新建滨江公园获批</title></head>
<body><div class="nav"><ul>{NAV_ZH}</ul></div>
<div class="content"><h1>我市新建滨江公园获批</h1>
<div class="info">发布时间：2014年3月8日 来源：本报讯</div>
<p>本报讯 市议会周二投票通过决议，将沿江的旧货运站改建为公共公园，结束了居民之间持续近十年的争论。
该计划预计耗资约一千二百万元，包括步行道、儿童游乐场以及一个供划艇使用的小码头。</p>
<p>支持者表示，公园将为东部城区的家庭提供长期缺乏的绿色空间。反对者则认为，这笔钱应当用于修缮学校和道路，
而且货运站本可以出售给开发商。经过长时间的讨论，该议案以七票对四票获得通过，工程预计明年春天开工。</p>
<p>市长在投票后对记者说：“今天是城市的好日子。”他还表示，如果天气允许，第一批步道有望在十八个月内向公众开放。
居民将受邀在两次公开会议上对详细设计发表意见。</p></div>
<div class="foot"><a href="/about">关于我们</a> | <a href="/contact">联系我们</a> |
<a href="/ad">广告服务</a> | <a href="/jobs">招聘信息</a></div></body></html>"""

INDEX_ZH = f"""<html><head><title>新闻中心</title></head><body>
<div class="nav"><ul>{NAV_ZH}</ul></div>
<div class="list"><ul>
{"".join(
    f'<li><a href="/news/{i}.html">第{i}条新闻标题关于本市发展</a><span>2014-03-{i + 1:02d}</span></li>'
    for i in range(30)
)}
</ul><div class="page"><a href="?p=1">1</a><a href="?p=2">2</a><a href="?p=3">下一页</a></div></div>
<div class="foot"><a href="/about">关于我们</a> | <a href="/contact">联系我们</a></div>
</body></html>"""


def test_english_article_is_content():
    result = classify(Document(ARTICLE_EN))
    assert isinstance(result, PageTypeResult)
    assert result.label == "content"
    assert result.score < 0.5
    assert result.region_share > 0.5


def test_english_index_is_index():
    result = classify(Document(INDEX_EN))
    assert result.label == "index"
    assert result.score >= 0.5
    assert result.lcr > 0.9
    assert result.links > 50


def test_chinese_article_is_content():
    result = classify(Document(ARTICLE_ZH.encode("gbk")))
    assert result.label == "content"


def test_chinese_index_is_index():
    result = classify(Document(INDEX_ZH))
    assert result.label == "index"
    assert result.lcr > 0.9


def test_score_orders_pages():
    scores = {name: classify(Document(html)).score for name, html in
              (("ae", ARTICLE_EN), ("ie", INDEX_EN), ("az", ARTICLE_ZH), ("iz", INDEX_ZH))}
    assert scores["ie"] > scores["ae"]
    assert scores["iz"] > scores["az"]
    assert all(0.0 <= s <= 1.0 for s in scores.values())


def test_content_page_shows_text_region_between_blocks():
    # The seed's observation: one body region framed by link blocks.
    result = classify(Document(ARTICLE_EN))
    assert len(result.blocks) >= 2
    first, last = result.blocks[0], result.blocks[-1]
    body_at = ARTICLE_EN.index("The city council voted")
    assert first.end < body_at < last.start


def test_shipped_model_reads_every_feature_the_classifier_computes():
    from scrapy_contentex.core.pagetype import FEATURES
    from scrapy_contentex.core.pagetype_model import load_model

    model = load_model()
    assert model.features == FEATURES
    assert 0.0 < model.threshold < 1.0
    result = classify(Document(ARTICLE_EN))
    assert set(result.features) == set(FEATURES)
    assert result.probability == 1.0 - result.score
    assert result.threshold == model.threshold


def test_probability_follows_the_model_file(tmp_path):
    # A model that reads only region_share: a page with one big text region
    # is content, a page of links index; the threshold comes from the file.
    import json

    from scrapy_contentex.core.pagetype_model import load_model

    path = tmp_path / "m.json"
    path.write_text(json.dumps({
        "kind": "logistic", "features": ["region_share"], "mean": [0.5], "scale": [0.1],
        "weights": [-3.0], "bias": 0.0, "threshold": 0.4,
    }))
    params = PageTypeParams(model=str(path))
    article, index = classify(Document(ARTICLE_EN), params), classify(Document(INDEX_EN), params)
    assert article.label == "content" and index.label == "index"
    assert article.threshold == 0.4
    assert article.probability > 0.5 > index.probability
    assert load_model(str(path)).index_probability({}) == 0.5  # a missing feature moves nothing
    path.write_text(json.dumps({"kind": "trees"}))
    load_model.cache_clear()
    with pytest.raises(ValueError):
        load_model(str(path))


def test_url_shape_features():
    from scrapy_contentex.core.pagetype import url_features

    story = url_features("https://example.com/2024/03/08/city-council-approves-river-park.html")
    section = url_features("https://example.com/category/world/")
    assert story["url_date"] == 1.0 and story["url_slug"] >= 3 and story["url_file"] == 1.0
    assert section["url_list_word"] == 1.0 and section["url_slug"] == 0.0
    assert url_features("https://example.com/")["url_root"] == 1.0
    assert url_features(None) == dict.fromkeys(url_features(None), 0.0)
    assert url_features("http://[bad")["url_depth"] == 0.0


def test_page_url_falls_back_to_canonical():
    from scrapy_contentex.core.pagetype import page_url

    html = '<link rel="canonical" href="https://example.com/a/b-c-d">'
    assert page_url(None, html) == "https://example.com/a/b-c-d"
    assert page_url("https://x.org/", html) == "https://x.org/"
    assert page_url(None, "<p>no url</p>") is None


def test_listing_features_count_prices_tiles_and_links_to_content():
    from scrapy_contentex.core.pagetype import content_link

    tiles = "".join(
        f'<div class="tile"><a href="/p/red-wool-hat-{i}"><img src="{i}.jpg"></a><span>$1{i}.00</span></div>'
        for i in range(12)
    )
    page = classify(Document(f"<html><body>{NAV_EN}{tiles}</body></html>"))
    assert page.features["log_prices"] > 2.5  # 12 prices
    assert page.features["log_empty_links"] > 2.5  # 12 image tiles: links without text
    assert page.features["empty_link_share"] > 0.5
    assert page.features["content_link_share"] > 0.5
    assert content_link("/2024/03/city-park") and content_link("/item/1234567")
    assert not content_link("/world/") and not content_link("/about-us")
    assert classify(Document(INDEX_ZH)).features["pagination"] == 1.0
    assert classify(Document(ARTICLE_EN)).features["pagination"] == 0.0


def test_declared_type():
    assert declared_type('<meta property="og:type" content="article">') == 1
    assert declared_type("<META name='og:type' content='website' />") == -1
    assert declared_type('<script type="application/ld+json">{"@type": "NewsArticle"}</script>') == 1
    ld_list = '{"@type":"ItemList","itemListElement":[{"@type":"NewsArticle"}]}'
    assert declared_type(ld_list) == -1
    assert declared_type("<p>nothing declared</p>") == 0


def test_one_product_in_json_ld_outranks_a_website_og_type():
    og = '<meta property="og:type" content="website">'
    product = '<script type="application/ld+json">{"@type": "Product", "name": "Kettle"}</script>'
    assert declared_type(og + product) == 1
    assert declared_type(og + product + product) == -1  # several products: a list page
    ld_list = '<script type="application/ld+json">{"@type": "ItemList", "x": {"@type": "Product"}}</script>'
    assert declared_type(og + ld_list) == -1


def test_one_discussion_in_microdata_is_a_content_declaration():
    og = '<meta property="og:type" content="website">'
    qa = '<div itemscope itemtype="https://schema.org/QAPage"><div itemprop="mainEntity">Q</div></div>'
    assert declared_type(og + qa) == 1
    assert declared_type(qa) == 1
    thread = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    assert declared_type(og + thread * 3) == -1  # a list of threads
    # the Product type itself: category pages declare a ProductGroup for what they list
    assert declared_type('<div itemtype="https://schema.org/ProductGroup"></div>') == 0
    assert declared_type('<div itemtype="https://schema.org/Product"></div>') == 1


def test_one_question_with_its_answers_is_a_content_declaration():
    og = '<meta property="og:type" content="website">'
    question = '<div itemscope itemtype="https://schema.org/Question">Q</div>'
    answer = '<div itemscope itemtype="https://schema.org/Answer">A</div>'
    page = '<div itemscope itemtype="https://schema.org/QAPage">'
    assert declared_type(og + question + answer * 3) == 1
    assert declared_type(og + page + question + answer) == 1  # each subject type once
    assert declared_type(og + question * 5) == -1  # a list of questions


def test_declared_type_moves_the_score():
    og = '<meta property="og:type" content="article">'
    page = INDEX_EN.replace("<head>", "<head>" + og)
    assert classify(Document(page)).score < classify(Document(INDEX_EN)).score


def test_params_change_blocks():
    loose = classify(Document(INDEX_EN), PageTypeParams(min_links=2, max_distance=60))
    strict = classify(Document(INDEX_EN), PageTypeParams(min_links=12, max_distance=2))
    assert loose.lcr >= strict.lcr
    code = classify(Document(INDEX_EN), PageTypeParams(distance="code"))
    assert code.links == loose.links


def test_threshold_param():
    assert classify(Document(ARTICLE_EN), PageTypeParams(threshold=0.0)).label == "index"
    assert classify(Document(INDEX_EN), PageTypeParams(threshold=1.01)).label == "content"


def test_region_share_bounds():
    scan = find_link_blocks(INDEX_EN, 2, 20)
    assert 0.0 <= region_share(scan) <= 1.0
    assert region_share(scan) < region_share(find_link_blocks(ARTICLE_EN, 2, 20))
    # a lone link is not a block: its text stays in the (only) region
    assert region_share(find_link_blocks("<a href=1>x</a>", 2, 20)) == 1.0
    assert region_share(find_link_blocks("<p></p>", 2, 20)) == 0.0


def test_page_without_links_is_content():
    result = classify(Document("<html><body><p>" + "Plain text only. " * 30 + "</p></body></html>"))
    assert result.label == "content"
    assert result.links == 0 and result.blocks == []


def test_page_of_only_links_is_index():
    html = "".join(f'<a href="/{i}">link {i}</a>' for i in range(40))
    result = classify(Document(html))
    assert result.label == "index"
    assert result.lcr == 1.0


def test_api_classify_page():
    item = classify_page(INDEX_ZH)
    assert item.pageType == "index"
    assert item.contentProbability == round(1 - item.score, 4) < 0.5
    assert item.links > 30 and item.linkBlocks >= 1
    item = classify_page(ARTICLE_EN, url="https://example.com/a", min_links=3, max_distance=40)
    assert item.pageType == "content"
    assert item.url == "https://example.com/a"
    assert 0.0 <= item.linkCoverage <= 1.0 and 0.0 <= item.codeCoverage <= 1.0


def test_adversarial_meta_tags():
    assert declared_type("<meta " * 100_000) == 0


def test_batch_counts_equal_counting_each_link_and_gap_alone():
    # The scan counts all pieces of a page in one batch; on these pages every
    # link and every gap between two links is one piece, so each figure must
    # equal markup_text_distance of its own slice of the HTML.
    for html in (ARTICLE_EN, INDEX_EN, ARTICLE_ZH, INDEX_ZH):
        scan = find_link_blocks(html, 2, 20)
        assert scan.link_count > 5
        for i, (start, end) in enumerate(scan.links):
            assert scan.link_text[i] == markup_text_distance(html[start:end])
            if i + 1 < scan.link_count:
                gap = markup_text_distance(html[end : scan.links[i + 1][0]])
                assert scan.gap_text[i] == scan.gaps[i] == gap
        assert scan.text_units == scan.link_units + scan.lead_text + sum(scan.gap_text)


def test_microdata_content_types_count_as_declared_content():
    from scrapy_contentex.core.pagetype import declared_type

    page = '<html><body><article itemscope itemtype="https://schema.org/BlogPosting"><p>x</p></article></body></html>'
    assert declared_type(page) == 1
    # a microdata list in a sidebar does not make the page a list page
    sidebar = page.replace("</body>", '<ul itemscope itemtype="https://schema.org/ItemList"></ul></body>')
    assert declared_type(sidebar) == 1
    assert declared_type("<html><body><p>x</p></body></html>") == 0


def _scan(html: str):
    from scrapy_contentex.core.linkblocks import find_link_blocks

    return find_link_blocks(html, 2, 20, "text")


TEASER = (
    '<div><a href="/a/{i}">A headline about the town fair number {i}</a>'
    "<p>A short teaser of the story, two lines that invite the reader to click through.</p></div>"
)


def test_teaser_share_counts_link_headed_records_not_prose():
    from scrapy_contentex.core.pagetype import teaser_share

    teasers = "<html><body>" + "".join(TEASER.format(i=i) for i in range(2)) + "</body></html>"
    share = teaser_share(_scan(teasers))
    assert share > 0.9  # all the text sits in the two records
    prose = " ".join(["The council met on Monday and talked about roads."] * 12)
    article = f'<html><body><a href="/">Home news page of the town</a><p>{prose}</p></body></html>'
    assert teaser_share(_scan(article)) == 0.0  # the text after the link is prose, not a teaser


def test_no_prose_marks_pages_without_a_long_text_run():
    from scrapy_contentex.core.pagetype import scan_features

    teasers = "<html><body>" + "".join(TEASER.format(i=i) for i in range(3)) + "</body></html>"
    assert scan_features(_scan(teasers))["no_prose"] == 1.0
    prose = " ".join(["The council met on Monday and talked about roads."] * 12)
    assert scan_features(_scan(f"<html><body><p>{prose}</p></body></html>"))["no_prose"] == 0.0


def _content_link_reference(href: str) -> bool:
    """The rule written out step by step (the module matches it with one regex)."""
    import re

    path = href.split("?", 1)[0]
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if last.count("-") + last.count("_") >= 2 or re.search(r"\d{5}", last):
        return True
    return re.search(r"/(?:19|20)\d\d[/-]?(?:0?[1-9]|1[0-2])(?:[/-]|\b)", path) is not None


def test_content_link_matches_the_rule_on_random_targets():
    import random

    from scrapy_contentex.core.pagetype import content_link, content_link_count

    random.seed(7)
    pieces = ["a", "b", "-", "_", "/", "?", "0", "7", "/2014", "/1999", "/03", "/12", "/13", ".", "\n"]
    hrefs = ["".join(random.choices(pieces, k=random.randint(0, 12))) for _ in range(5000)]
    hrefs += ["/news/2024/03/", "/a/b-c-d//", "/item/123456?x=1", "/x?y=a-b-c", "", "/"]
    assert [content_link(h) for h in hrefs] == [_content_link_reference(h) for h in hrefs]
    assert content_link_count(hrefs) == sum(map(_content_link_reference, hrefs))
    assert content_link_count(["/a-b-c", "/about"]) == 1 and content_link_count([]) == 0


def test_declared_features_from_the_scan_match_the_whole_page_reading():
    from scrapy_contentex.core.linkblocks import find_link_blocks
    from scrapy_contentex.core.pagetype import declared_features

    og = '<html><head><meta property="og:type" content="website"></head><body>'
    product = '<script type="application/ld+json">{"@type": "Product", "name": "Kettle"}</script>'
    qa = '<div itemscope itemtype="https://schema.org/QAPage">Q</div>'
    for page in (og + product, og + product + product, og + qa, qa, "<p>nothing</p>",
                 og + '<script type="application/ld+json">{"@type": "ItemList"}</script>'):
        page += "</body></html>"
        from_scan = declared_features(page, find_link_blocks(page, 2, 20))
        assert from_scan == declared_features(page)
        assert from_scan["declared_content"] - from_scan["declared_index"] == declared_type(page)
    # with the scan, og:type is read in the head only (a tag in the body, as
    # some embedded widgets carry, is not the page's)
    body_og = '<html><body><div><meta property="og:type" content="article"></div></body></html>'
    assert declared_features(body_og)["og_article"] == 1.0
    assert declared_features(body_og, find_link_blocks(body_og, 2, 20))["og_article"] == 0.0


def test_seeded_group_folds_keep_domains_whole_and_repeat():
    from benchmarks.common import group_folds as common_group_folds
    from training.train_pagetype import group_folds

    groups = [f"site{i % 23}.example" for i in range(200)] + [f"solo{i}" for i in range(40)]
    assert group_folds(groups).tolist() == common_group_folds(groups, 5)
    first = group_folds(groups, 5, seed=3)
    assert first.tolist() == group_folds(groups, 5, seed=3).tolist()
    assert first.tolist() != group_folds(groups, 5, seed=4).tolist()
    for g in set(groups):  # a domain never spans two folds
        assert len({int(f) for f, h in zip(first, groups, strict=True) if h == g}) == 1
    sizes = np.bincount(first, minlength=5)
    assert sizes.min() > 0 and sizes.max() - sizes.min() <= 12  # balanced up to one site
