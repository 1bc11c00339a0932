"""The one vocabulary of declared page kinds (core/declared.py) and its readers."""

from scrapy_contentex.core.declared import (
    ANSWER,
    ARTICLE,
    COMMENT,
    NEWS_ARTICLE,
    PRODUCT,
    QUESTION,
    THREAD,
    WEB_PAGE,
    object_types,
    og_type,
    page_types,
)
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.kind import _structured_vote
from scrapy_contentex.core.text.comments import declares_article, declares_discussion
from scrapy_contentex.core.title import HEADLINE_TYPES


def _page(head: str = "", body: str = "<p>Text.</p>") -> Document:
    return Document(f"<html><head>{head}</head><body>{body}</body></html>")


def _ld(data: str) -> str:
    return f'<script type="application/ld+json">{data}</script>'


def test_families_hold_schema_org_subtypes():
    assert {"ReportageNewsArticle", "AskPublicNewsArticle", "NewsArticle"} <= NEWS_ARTICLE <= ARTICLE
    assert {"BlogPosting", "LiveBlogPosting", "TechArticle", "Report"} <= ARTICLE
    assert "DiscussionForumPosting" in THREAD and "DiscussionForumPosting" not in ARTICLE
    assert {"ProductGroup", "Car"} <= PRODUCT and "Offer" not in PRODUCT
    # families that different readers combine differently stay apart
    assert not (ANSWER | COMMENT) & THREAD and QUESTION <= THREAD and not WEB_PAGE & ARTICLE


def test_object_types_drop_prefixes_and_write_family_names_in_schema_org_case():
    assert object_types({"@type": ["https://schema.org/newsArticle", "schema:Webpage", "article", "hentry"]}) == {
        "NewsArticle", "WebPage", "Article", "hentry"}
    assert object_types({"@type": None}) == frozenset()
    assert object_types({"@type": [3, ""]}) == frozenset()


def test_page_types_read_graphs_lists_and_microdata_on_request():
    doc = _page(_ld('{"@graph": [{"@type": ["BlogPosting", "Thing"]}, {"@type": "Person"}]}'),
                '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Lamp</span></div>')
    assert page_types(doc) == {"BlogPosting", "Thing", "Person"}
    assert page_types(doc, microdata=True) == {"BlogPosting", "Thing", "Person", "Product"}
    assert page_types(doc) is page_types(doc)  # read once per Document


def test_og_type_is_stripped_and_case_folded():
    assert og_type(_page('<meta property="og:type" content=" Article ">')) == "article"
    assert og_type(_page()) == ""


def test_callers_compose_the_families_they_mean():
    thread = _page(_ld('{"@type": "DiscussionForumPosting", "headline": "Help"}'))
    article = _page(_ld('{"@type": "https://schema.org/ReportageNewsArticle", "headline": "Story"}'))
    faq_answers = _page(_ld('{"@type": "Answer"}'))
    comments_only = _page(_ld('{"@type": "Comment"}'))
    # the comment rule: one article, not a thread
    assert declares_article(article) and not declares_article(thread)
    assert declares_discussion(thread) and declares_discussion(faq_answers)
    assert not declares_discussion(comments_only) and not declares_discussion(article)
    # the headline reader accepts a thread's headline and a WebPage's name
    assert {"DiscussionForumPosting", "WebPage", "ReportageNewsArticle"} <= HEADLINE_TYPES
    assert not HEADLINE_TYPES & (ANSWER | COMMENT)
    # the kind guess: a thread is read as text, an offer is a shop's
    assert _structured_vote(thread) == -1
    assert _structured_vote(_page(_ld('{"@type": "Offer", "price": "3"}'))) == 1
    assert _structured_vote(_page('<meta property="og:type" content="product.item">')) == 1


