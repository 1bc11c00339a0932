"""The learned default text extractor: its tree runtime, its model file, and small pages."""

import json

import numpy as np
import pytest
from test_text_default import (
    CHINESE_PAGE,
    CHINESE_PARAGRAPHS,
    ENGLISH_ARTICLE,
    FORUM_PAGE,
    PARAGRAPHS,
    POSTS,
)

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import combined, comments, extract_text, learned
from scrapy_contentex.core.text.block_features import (
    CONTEXT_NAMES,
    FEATURE_NAMES,
    _max_table,
    _range_max,
    page_lines,
)
from scrapy_contentex.core.text.learned import load_line_model
from scrapy_contentex.core.text.region import PageBlocks
from scrapy_contentex.core.trees import TreeEnsemble, read_model


def _payload(trees, features=("a", "b")):
    return {"kind": "gbdt-binary", "features": list(features), "trees": trees, "threshold": 0.5}


def test_trees_sum_leaf_values_through_a_sigmoid():
    # Tree 1: a <= 1 ? (b <= 5 ? 1.0 : 2.0) : -1.0 ; tree 2: a stump of 0.5.
    tree1 = {"feature": [0, 1], "threshold": [1.0, 5.0], "left": [1, -1], "right": [-3, -2],
             "value": [1.0, 2.0, -1.0]}
    stump = {"feature": [], "threshold": [], "left": [], "right": [], "value": [0.5]}
    model = TreeEnsemble(_payload([tree1, stump]))
    X = np.array([[0.0, 0.0], [0.0, 9.0], [3.0, 0.0], [1.0, 5.0]])
    raw = np.array([1.0, 2.0, -1.0, 1.0]) + 0.5
    assert np.allclose(model.predict(X), 1 / (1 + np.exp(-raw)))
    assert model.predict(np.zeros((0, 2))).shape == (0,)


def test_model_errors_are_clear(tmp_path):
    with pytest.raises(ValueError, match="expects 2 features, got 3"):
        TreeEnsemble(_payload([])).predict(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="not a tree model"):
        TreeEnsemble({"kind": "linear"})
    with pytest.raises(FileNotFoundError, match="nowhere.json"):
        read_model(str(tmp_path / "nowhere.json"))


def test_shipped_model_reads_the_features_the_code_computes():
    model = load_line_model("blocks")
    assert model.first.features == list(FEATURE_NAMES)
    assert model.second.features == [*FEATURE_NAMES, *CONTEXT_NAMES]
    assert 0 < model.first.depth <= 8 and len(model.first.roots) >= 10


def test_default_is_the_learned_model_and_rules_stay_selectable():
    doc = Document(ENGLISH_ARTICLE)
    assert extract_text(doc) == learned.extract(doc)
    assert extract_text(doc, "rules") == combined.extract(doc)


def test_learned_default_on_an_english_article():
    text = learned.extract(Document(ENGLISH_ARTICLE))
    for para in PARAGRAPHS:
        assert para in text
    for noise in ("Share on Facebook", "Bridge repairs delayed", "Ten things to do", "Copyright", "Privacy"):
        assert noise not in text


def test_learned_default_on_chinese_and_forum_pages():
    chinese = learned.extract(Document(CHINESE_PAGE.encode("gb18030")))
    for para in CHINESE_PARAGRAPHS:
        assert para in chinese
    for noise in ("首页", "分享到", "热点新闻", "版权所有"):
        assert noise not in chinese
    forum = learned.extract(Document(FORUM_PAGE))
    for post in POSTS:
        assert post in forum
    assert "Powered by ExampleBoard" not in forum


def _constant_model(tmp_path, value: float) -> str:
    stump = {"feature": [], "threshold": [], "left": [], "right": [], "value": [value]}
    path = tmp_path / f"const{value}.json"
    path.write_text(json.dumps(_payload([stump], FEATURE_NAMES)))
    return str(path)


def test_the_model_decides_which_lines_are_kept(tmp_path):
    doc = Document(ENGLISH_ARTICLE)
    everything = learned.extract(doc, model=_constant_model(tmp_path, 10.0))
    assert "Ten things to do this weekend in town" in everything  # a sidebar line, kept by the model
    assert learned.extract(doc, model=_constant_model(tmp_path, 0.0), threshold=0.4) == everything
    # A model that keeps no line leaves the rules' region (a thin page keeps its paragraph).
    nothing = learned.extract(doc, model=_constant_model(tmp_path, -10.0))
    assert nothing == learned.extract(doc, model=_constant_model(tmp_path, 0.0), threshold=0.51)
    assert PARAGRAPHS[0] in nothing and "Ten things to do" not in nothing
    assert learned.extract(Document("<html><body><nav><a href='/'>Home</a></nav></body></html>"),
                           model=_constant_model(tmp_path, -10.0)) == ""


def test_feature_rows_follow_the_visible_lines():
    doc = Document(ENGLISH_ARTICLE)
    pb = PageBlocks(doc.tree, combined.Params().region)
    lines = page_lines(pb, combined.Params())
    assert lines.features.shape == (len(lines.texts), len(FEATURE_NAMES))
    assert PARAGRAPHS[0] in lines.texts and "Home" in lines.texts
    col = FEATURE_NAMES.index
    row = lines.texts.index(PARAGRAPHS[0])
    assert lines.features[row, col("rule_kept")] == 1.0
    assert lines.features[lines.texts.index("Home"), col("in_nav")] == 1.0
    assert np.isfinite(lines.features).all()


def test_range_maxima_match_a_scan():
    rng = np.random.default_rng(3)
    for m in (1, 2, 5, 8, 33):
        values = rng.random(m)
        lo = rng.integers(0, m + 1, 40)
        hi = np.minimum(m, lo + rng.integers(0, m + 1, 40))
        expected = [values[a:b].max() if b > a else -1.0 for a, b in zip(lo, hi, strict=True)]
        assert np.allclose(_range_max(_max_table(values), lo, hi), expected)


def test_context_reads_the_template_and_the_sections_of_a_line():
    doc = Document(FORUM_PAGE)
    pb = PageBlocks(doc.tree, combined.Params().region)
    lines = page_lines(pb, combined.Params())
    m = len(lines.texts)
    post = lines.texts.index(POSTS[1])
    p = np.full(m, 0.1)
    p[post] = 0.9
    ctx = lines.context(p)
    assert ctx.shape == (m, len(CONTEXT_NAMES)) and np.isfinite(ctx).all()
    col = CONTEXT_NAMES.index
    same = lines.templates == lines.templates[post]
    # One strong post among its template's lines: kept share and best line.
    assert ctx[post, col("template_kept_share")] == pytest.approx(1 / same.sum())
    assert (ctx[same, col("template_max")] == 0.9).all()
    assert ctx[post, col("p_up1_max")] == 0.9 and ctx[post, col("p_vs_page_max")] == 1.0
    # The buttons under the strong post see it in their section; those
    # under another post do not.
    buttons = [k for k, text in enumerate(lines.texts) if text == "Reply Quote"]
    assert [ctx[k, col("p_up1_max")] for k in buttons] == [0.1, 0.9, 0.1, 0.1]
    # A post holds a link list (its buttons), the message itself is prose.
    assert 0.0 < ctx[post, col("up1_link_lists")] < 0.5
    assert ctx[post, col("tokens_vs_median")] > 1.0
    # The page's kept share: the strong post's tokens over the page's.
    tok = lines.features[:, FEATURE_NAMES.index("line_tokens")] + 1.0
    assert ctx[0, col("page_kept_share")] == pytest.approx(tok[post] / tok.sum())


@pytest.mark.parametrize("opening", ["<div role='dialog'>", "<div aria-modal='true' class='x'>", "<dialog open>"])
def test_lines_inside_a_dialog_are_marked(opening):
    closing = "</dialog>" if opening.startswith("<dialog") else "</div>"
    banner = f"{opening}<p>We use cookies to run this site; accept them or change your choices.</p>{closing}"
    doc = Document(ENGLISH_ARTICLE.replace("<body>", "<body>" + banner))
    lines = page_lines(PageBlocks(doc.tree, combined.Params().region), combined.Params())
    col = FEATURE_NAMES.index("in_dialog")
    notice = next(k for k, text in enumerate(lines.texts) if text.startswith("We use cookies"))
    assert lines.features[notice, col] == 1.0
    assert lines.features[lines.texts.index(PARAGRAPHS[0]), col] == 0.0


_COMMENTS = ("<div id='comments'><ol><li><div><div><div><p>Great post, I agree with every word "
             "of it and will share it with my friends.</p></div></div></div></li></ol></div>")


def _lines_of(page: str):
    doc = Document(page)
    pb = PageBlocks(doc.tree, combined.Params().region)
    return doc, pb, page_lines(pb, combined.Params())


def test_a_comment_section_after_the_prose_is_found():
    """Comment markup at any depth (not <body>'s class), and the prose before it."""
    page = ENGLISH_ARTICLE.replace("<body>", "<body class='comments-open'>").replace("</body>", _COMMENTS + "</body>")
    _, pb, lines = _lines_of(page)
    tok = lines.features[:, FEATURE_NAMES.index("line_tokens")]
    share = lines.features[:, FEATURE_NAMES.index("block_link_share")]
    inside, first, prose = comments.comment_section(pb, lines.owners, tok, share)
    comment = next(k for k, text in enumerate(lines.texts) if text.startswith("Great post"))
    assert inside.tolist() == [k == comment for k in range(len(lines.texts))]
    assert first == comment
    assert prose >= sum(len(p.split()) for p in PARAGRAPHS if len(p.split()) >= 10) - 5
    _, pb, plain = _lines_of(ENGLISH_ARTICLE)
    inside, first, prose = comments.comment_section(pb, plain.owners, tok[:0], share[:0])
    assert not inside.any() and first == len(plain.texts) and prose == 0.0


def test_the_comment_section_opens_at_its_first_comment_prose_not_at_a_comment_link():
    """A comment count above the article does not open the section: its header and posts do."""
    counter = "<h1>Council extends river walk</h1><div class='comments-link'><a href='#c'>3 Comments</a></div>"
    section = _COMMENTS.replace("<ol>", "<h3>3 Comments</h3><ol>")
    page = ENGLISH_ARTICLE.replace("<h1>Council extends river walk</h1>", counter).replace("</body>", section + "</body>")
    _, pb, lines = _lines_of(page)
    tok = lines.features[:, FEATURE_NAMES.index("line_tokens")]
    share = lines.features[:, FEATURE_NAMES.index("block_link_share")]
    header = lines.texts.index("3 Comments", lines.texts.index(PARAGRAPHS[5]))
    inside, first, prose = comments.comment_section(pb, lines.owners, tok, share)
    assert inside[lines.texts.index("3 Comments")] and first == header
    assert prose >= sum(len(p.split()) for p in PARAGRAPHS if len(p.split()) >= 10) - 5
    inside, first, prose = comments.comment_section(pb, lines.owners, tok, share, from_prose=False)
    assert first == lines.texts.index("3 Comments") and prose == 0.0


def test_reader_comments_are_cut_from_articles_but_not_from_declared_threads(tmp_path):
    page = ENGLISH_ARTICLE.replace("</body>", _COMMENTS + "</body>")
    keep_all = _constant_model(tmp_path, 10.0)
    assert "Great post" in learned.extract(Document(page), model=keep_all, comment_prose_tokens=0)
    on = {"model": keep_all, "comment_prose_tokens": 50}
    text = learned.extract(Document(page), **on)
    assert "Great post" not in text and PARAGRAPHS[0] in text
    assert "Great post" in learned.extract(Document(page), model=keep_all, comment_prose_tokens=10_000,
                                           comment_article_tokens=0, comment_markup_tokens=0)
    # Less prose than the bar is enough in article markup ("story"), not in a thread's ("topic").
    short = {"model": keep_all, "comment_prose_tokens": 10_000, "comment_article_tokens": 50}
    assert "Great post" not in learned.extract(Document(page), **short)
    topic = page.replace('<div class="story">', '<div class="story topic-main">')
    assert "Great post" in learned.extract(Document(topic), **short)
    assert "Great post" in learned.extract(Document(page.replace('class="story"', 'class="main"')), **short)
    thread = page.replace("</head>", '<script type="application/ld+json">'
                          '{"@context": "https://schema.org", "@type": "DiscussionForumPosting"}</script></head>')
    assert "Great post" in learned.extract(Document(thread), **on)
    qa = page.replace("</head>", '<meta property="og:type" content="forum"></head>')
    assert "Great post" in learned.extract(Document(qa), **on)


def test_a_declared_article_is_enough_for_a_short_post(tmp_path):
    """JSON-LD Article/BlogPosting or og:type article stands for article markup; a thread's type does not."""
    page = ENGLISH_ARTICLE.replace("</body>", _COMMENTS + "</body>").replace('class="story"', 'class="main"')
    keep_all = _constant_model(tmp_path, 10.0)
    short = {"model": keep_all, "comment_prose_tokens": 10_000, "comment_article_tokens": 50}
    assert "Great post" in learned.extract(Document(page), **short)
    for head in ('<meta property="og:type" content="article">',
                 '<script type="application/ld+json">{"@type": ["BlogPosting"]}</script>',
                 '<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, '
                 '{"@type": "NewsArticle"}]}</script>'):
        declared = Document(page.replace("</head>", head + "</head>"))
        assert comments.declares_article(declared)
        assert "Great post" not in learned.extract(declared, **short)
        assert "Great post" in learned.extract(declared, **short, comment_declared_article=False)
    for head in ('<meta property="og:type" content="website">',
                 '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'):
        assert not comments.declares_article(Document(page.replace("</head>", head + "</head>")))


def test_a_few_lines_of_prose_in_article_markup_are_a_short_post(tmp_path):
    """A 40-token post in "entry" markup loses its comments at the markup bar, below the
    declared-article bar; a thread's opening post ("topic"), or a page that only declares
    an article, keeps them."""
    post = ("<div class='entry-content'><p>We walked the new river path on Sunday morning and "
            "counted the herons. The council says the last stretch opens in May, with lights "
            "and two more benches near the old mill.</p></div>")
    page = f"<html><head></head><body><h1>River walk</h1>{post}{_COMMENTS}</body></html>"
    keep_all = _constant_model(tmp_path, 10.0)
    bars = {"model": keep_all, "comment_prose_tokens": 300, "comment_article_tokens": 100}
    assert "Great post" not in learned.extract(Document(page), **bars, comment_markup_tokens=30)
    assert "counted the herons" in learned.extract(Document(page), **bars, comment_markup_tokens=30)
    assert "Great post" in learned.extract(Document(page), **bars, comment_markup_tokens=0)
    assert "Great post" in learned.extract(Document(page), **bars, comment_markup_tokens=60)
    topic = page.replace("entry-content", "topic-content")
    assert "Great post" in learned.extract(Document(topic), **bars, comment_markup_tokens=30)
    declared = page.replace("entry-content", "main").replace(
        "<head>", '<head><meta property="og:type" content="article">')
    assert "Great post" in learned.extract(Document(declared), **bars, comment_markup_tokens=30)


def test_a_thread_whose_replies_alone_are_named_keeps_them(tmp_path):
    """The opening post is built like the replies (one line template): a thread, not an article."""
    post = ("<div class='message'><p>{}</p></div>")
    opening = post.format(" ".join(PARAGRAPHS))
    replies = "".join(post.format(f"Reply {k}: I tried this too and it worked on my machine as well, thanks.")
                      for k in range(3))
    page = f"<html><body>{opening}<div class='replies'>{replies}</div></body></html>"
    keep_all = _constant_model(tmp_path, 10.0)
    on = {"model": keep_all, "comment_prose_tokens": 50}
    assert "Reply 2" in learned.extract(Document(page), **on)
    article = page.replace(opening, f"<div class='story'><p>{' '.join(PARAGRAPHS)}</p></div>", 1)
    assert "Reply 2" not in learned.extract(Document(article), **on)


def test_empty_and_deep_pages():
    assert learned.extract(Document("<html><body><div></div></body></html>")) == ""
    deep = "<div>" * 30_000 + "<p>" + "Deep text, with commas, and a full stop. " * 20 + "</p>" + "</div>" * 30_000
    assert "Deep text" in learned.extract(Document(f"<html><body>{deep}</body></html>"))


DISCOURSE_LIKE = """<html><head><title>Fan noise after update - Help - Example Community</title>
<script>window.app = {};</script></head><body>
<section id="main"></section>
<noscript><header><a href="/">Example Community</a></header><div id="main-outlet">
<h1><a href="/t/fan-noise/77">Fan noise after update</a></h1>
""" + "".join(
    f"<div class='topic-body crawler-post'><div class='crawler-post-meta'><span class='creator'>"
    f"<a href='/u/u{i}'>user{i}</a></span> <time>May {i + 1}, 2024</time></div>"
    f"<div class='post'><p>{text}</p></div></div>"
    for i, text in enumerate(POSTS)
) + """</div><footer><p>Powered by Example, best viewed with JavaScript enabled</p></footer></noscript>
</body></html>"""


def test_a_page_shown_only_in_noscript_is_read_from_there():
    text = learned.extract(Document(DISCOURSE_LIKE))
    for post in POSTS:
        assert post in text
    page = ENGLISH_ARTICLE.replace("<body>", "<body><noscript><p>Please enable JavaScript to see "
                                   "the comments, the video and the poll.</p></noscript>")
    ordinary = learned.extract(Document(page))
    assert PARAGRAPHS[0] in ordinary and "enable JavaScript" not in ordinary


def test_a_noscript_copy_that_outweighs_the_shown_text_is_read():
    # The script shell shows a header and a notice of some 40 words; the
    # crawler copy of the thread in <noscript> holds several times more.
    notice = ("<div class='banner'><p>" + "We use cookies and similar tools to run this community, "
              "to remember your settings and to measure how the pages are used by our visitors. "
              "You can change your choices at any time in the settings of your account page.</p></div>")
    page = DISCOURSE_LIKE.replace('<section id="main"></section>', notice)
    text = learned.extract(Document(page))
    for post in POSTS:
        assert post in text
    shell = page.replace("<noscript>", "<noscript><!--").replace("</noscript>", "--></noscript>")
    assert POSTS[0] not in learned.extract(Document(shell))


def test_repeated_lines_are_kept_once_unless_quoted():
    lines = ["Blue Mug", "A mug.", "Blue Mug", "Quoted reply text here.", "Quoted reply text here."]
    assert combined.drop_repeats(lines, set()) == ["Blue Mug", "A mug.", "Quoted reply text here."]
    assert combined.drop_repeats(lines, {"Quoted reply text here."}) == [
        "Blue Mug", "A mug.", "Quoted reply text here.", "Quoted reply text here."]


def test_the_default_keeps_a_card_title_once_and_a_quoted_post_twice():
    post = "I think the new release fixed the memory leak we saw in version two of the parser."
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    html = (f"<html><head><title>Thread</title></head><body><article><h1>Thread</h1>{body}"
            f"<div class='post'><p>{post}</p></div><div class='post'><blockquote>{post}</blockquote>"
            f"<p>Agreed, and the speed-up in the tokenizer is welcome as well for big files.</p></div>"
            f"<p>{PARAGRAPHS[0]}</p></article></body></html>")
    text = learned.extract(Document(html))
    assert text.count(PARAGRAPHS[0]) == 1
    assert text.count(post) == 2
