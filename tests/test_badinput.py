"""Bad input reaches the crawl all the time: every case is a counted skip, never a traceback."""

from __future__ import annotations

import logging

import pytest
from conftest import (
    ARTICLE_EN,
    ARTICLE_ZH,
    html_response,
    make_middleware,
    make_pipeline,
    run_middleware,
)
from scrapy.http import HtmlResponse, JsonResponse, Response, TextResponse, XmlResponse

from scrapy_contentex.items import Article, Page
from scrapy_contentex.middlewares import publish_stats

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02" + b"\x00" * 64
PDF = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + b"\x00\x01" * 32
RSS = (b'<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>News</title>'
       b"<item><title>One</title><link>http://e.com/1</link></item></channel></rss>")
JSON = b'{"items": [{"title": "<b>not a page</b>"}], "count": 1}'


def skipped(crawler, reason):
    publish_stats(crawler)  # counts reach the stats in batches (StatsBuffer)
    return crawler.stats.get_value(f"contentex/skipped/{reason}")


@pytest.mark.parametrize("body, cls, content_type", [
    (PNG, Response, "image/png"),
    (PDF, Response, "application/pdf"),
    (JSON, JsonResponse, "application/json"),
    (JSON, TextResponse, "text/plain"),
    (RSS, XmlResponse, "application/rss+xml"),
    (RSS, HtmlResponse, "text/html"),  # a feed served with the wrong type
    (PNG, HtmlResponse, "text/html"),  # an image served as HTML
])
def test_non_html_is_skipped(body, cls, content_type, caplog):
    mw, crawler = make_middleware()
    response = html_response(body, headers={"Content-Type": content_type}, cls=cls)
    with caplog.at_level(logging.DEBUG):
        out = run_middleware(mw, response, [{"own": 1}])
    assert out == [{"own": 1}]  # the spider's output is untouched, nothing added
    assert skipped(crawler, "non_html") == 1
    assert response.meta["contentex_skipped"] == "non_html"
    assert "Traceback" not in caplog.text


def test_skip_reason_logged_once(caplog):
    mw, crawler = make_middleware()
    with caplog.at_level(logging.INFO):
        for _ in range(5):
            run_middleware(mw, html_response(PNG, cls=Response))
    assert skipped(crawler, "non_html") == 5
    assert caplog.text.count("skipping") == 1


@pytest.mark.parametrize("body", [b"", b"   \n\t  ", b"<html><body>  </body></html>"])
def test_empty_bodies(body):
    mw, crawler = make_middleware()
    out = run_middleware(mw, html_response(body))
    assert not any(isinstance(o, Page) for o in out)
    assert skipped(crawler, "empty") == 1


def test_oversize_page_is_skipped():
    mw, crawler = make_middleware({"CONTENTEX_MAX_PAGE_SIZE": 1000})
    out = run_middleware(mw, html_response(ARTICLE_EN * 3))
    assert out == []
    assert skipped(crawler, "too_large") == 1


def test_size_limit_zero_means_unlimited(force_page_type):
    force_page_type("content")
    mw, crawler = make_middleware({"CONTENTEX_MAX_PAGE_SIZE": 0})
    out = run_middleware(mw, html_response(ARTICLE_EN * 3))
    assert len(out) == 1


@pytest.mark.parametrize("status", [404, 500, 301])
def test_non_2xx_that_reach_us_are_skipped(status):
    # With handle_httpstatus_all HttpErrorMiddleware lets them through.
    mw, crawler = make_middleware()
    response = html_response(ARTICLE_EN, status=status, meta={"handle_httpstatus_all": True})
    assert run_middleware(mw, response) == []
    assert skipped(crawler, "not_2xx") == 1


def test_undecodable_bytes_do_not_raise():
    junk = bytes(range(0x80, 0x100)) * 40  # no NUL, no markup, invalid in UTF-8
    mw, crawler = make_middleware()
    out = run_middleware(mw, html_response(b"<html><body><p>" + junk + b"</p></body></html>"))
    # decoded with a best guess (never a crash): either a page or a counted skip
    assert len(out) <= 1
    publish_stats(crawler)
    assert crawler.stats.get_value("contentex/pages/content") or crawler.stats.get_value(
        "contentex/pages/index") or any(k.startswith("contentex/skipped/")
                                        for k in crawler.stats.get_stats())


TRADITIONAL = "臺北市立圖書館延長開放時間，讀者可以在晚上十點前借閱書籍。"
JAPANESE = "図書館は夜十時まで開館し、利用者は本を借りることができます。"
KOREAN = "도서관은 밤 열 시까지 문을 열고 이용자는 책을 빌릴 수 있습니다."
SIMPLIFIED = "图书馆延长开放时间，读者可以在晚上十点前借阅书籍。"


def page_in(text: str, charset: str, lang: str) -> str:
    return (f'<html lang="{lang}"><head><meta charset="{charset}"><title>{text[:6]}</title>'
            f"</head><body><h1>{text[:6]}</h1><p>{text}</p><p>{text}</p></body></html>")


@pytest.mark.parametrize("text, charset, lang", [
    (SIMPLIFIED, "gbk", "zh"),
    (SIMPLIFIED, "gb2312", "zh"),
    (SIMPLIFIED, "gb18030", "zh"),
    (TRADITIONAL, "big5", "zh-TW"),
    (JAPANESE, "shift_jis", "ja"),
    (KOREAN, "euc-kr", "ko"),
])
def test_declared_legacy_encodings_decode_correctly(force_page_type, text, charset, lang):
    force_page_type("content")
    mw, _ = make_middleware()
    body = page_in(text, charset, lang).encode(charset)
    (page,) = run_middleware(mw, html_response(body, headers={"Content-Type": "text/html"}))
    assert text in page.html


@pytest.mark.parametrize("text, encoding", [
    (SIMPLIFIED, "gbk"), (TRADITIONAL, "big5"), (JAPANESE, "shift_jis"), (KOREAN, "euc-kr"),
])
def test_charset_from_http_header(force_page_type, text, encoding):
    force_page_type("content")
    mw, _ = make_middleware()
    body = page_in(text, "", "x").replace('<meta charset="">', "").encode(encoding)
    response = html_response(body, headers={"Content-Type": f"text/html; charset={encoding}"})
    (page,) = run_middleware(mw, response)
    assert text in page.html


@pytest.mark.parametrize("declared", ["gbk", "iso-8859-1", "shift_jis"])
def test_utf8_page_with_wrong_meta_charset(force_page_type, declared):
    force_page_type("content")
    mw, _ = make_middleware()
    body = page_in(SIMPLIFIED, declared, "zh").encode("utf-8")
    (page,) = run_middleware(mw, html_response(body))
    assert SIMPLIFIED in page.html


def test_gbk_page_end_to_end_through_pipeline(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware({"CONTENTEX_KIND": "article"})
    pipeline, _ = make_pipeline()
    body = ARTICLE_ZH.format(charset="gbk").encode("gbk")
    (page,) = run_middleware(mw, html_response(body))
    article = pipeline.process_item(page)
    assert isinstance(article, Article)
    assert article.headline == "江边步道全线贯通"
    assert "湿地公园" in article.articleBody


@pytest.mark.parametrize("markup", [
    "<html><body><div><p>Unclosed paragraph about the river festival and its boats"
    "<p>Second one<div><span>deep</body>",
    "</div></div><p>Stray closing tags before text about the harbour.</p></span>",
    "<p>Attributes gone wrong <a href='x>link</a> and <b <i>mixed</b></i> tags</p>",
    "<html><head><title>t</title><body><table><tr><td>cell<td>cell 2</table>text after</html>",
])
def test_broken_markup_still_gives_an_item(force_page_type, markup):
    force_page_type("content")
    mw, _ = make_middleware()
    pipeline, crawler = make_pipeline()
    (page,) = run_middleware(mw, html_response(markup))
    item = pipeline.process_item(page)
    assert item.url == "http://example.com/page.html"
    assert item.pageType == "content"


def test_deep_nesting_does_not_crash(force_page_type):
    force_page_type("content")
    mw, _ = make_middleware({"CONTENTEX_KIND": "article"})
    pipeline, _ = make_pipeline()
    deep = "<div>" * 20000 + "<p>Text at the bottom of a very deep page.</p>" + "</div>" * 20000
    (page,) = run_middleware(mw, html_response(f"<html><body>{deep}</body></html>"))
    item = pipeline.process_item(page)
    assert isinstance(item, Article)


def test_exception_inside_extraction_keeps_item_and_counts(monkeypatch, force_page_type):
    force_page_type("content")

    def explode(*args, **kwargs):
        raise ValueError("cannot parse date")

    monkeypatch.setattr("scrapy_contentex.api.extract_article", explode)
    mw, _ = make_middleware({"CONTENTEX_KIND": "article"})
    pipeline, crawler = make_pipeline()
    (page,) = run_middleware(mw, html_response(ARTICLE_EN))
    item = pipeline.process_item(page)
    assert isinstance(item, Article)
    assert item.contentexError == "ValueError: cannot parse date"
    publish_stats(crawler)
    assert crawler.stats.get_value("contentex/failed/ValueError") == 1


def test_exception_inside_decoding_is_a_skip(monkeypatch):
    def broken(*args, **kwargs):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")

    monkeypatch.setattr("scrapy_contentex.work.Document", broken)
    mw, crawler = make_middleware()
    assert run_middleware(mw, html_response(ARTICLE_EN)) == []
    assert skipped(crawler, "decode") == 1


def test_response_without_request(force_page_type):
    force_page_type("content")
    mw, crawler = make_middleware()
    response = HtmlResponse(url="http://example.com/x", body=ARTICLE_EN.encode())
    (page,) = run_middleware(mw, response)
    assert page.url == "http://example.com/x"
    mw2, crawler2 = make_middleware()
    assert run_middleware(mw2, HtmlResponse(url="http://example.com/y", body=b"")) == []
    assert skipped(crawler2, "empty") == 1
