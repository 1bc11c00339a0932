"""Hostile and broken input: the public calls return an item or raise a ContentexError.

Each input kind here was fed to ``extract_article``, ``extract_product`` and
``classify_page`` by a fuzz run (dataset pages truncated or with bytes
flipped, plus the hand-made kinds below); these are small hand-written
stand-ins for every kind, so a change that makes one of them crash, recurse
or hang fails here.
"""

from __future__ import annotations

import time

import pytest

from scrapy_contentex import classify_page, extract_article, extract_product
from scrapy_contentex.core.document import (
    MAX_ATTRIBUTES,
    cap_attributes,
    decode_html,
    holds_nothing,
    looks_binary,
    looks_like_html,
    parse_html,
)
from scrapy_contentex.core.errors import ContentexError, EmptyDocumentError
from scrapy_contentex.core.price import parse_price
from scrapy_contentex.items import Article, PageType, Product

CALLS = [(extract_article, Article), (extract_product, Product), (classify_page, PageType)]
BODY = "<p>Hello world, this is a page with a sentence of plain words in it.</p>"


def outcome(call, data):
    """The call's item, or the ContentexError it raised (anything else propagates)."""
    try:
        return call(data)
    except ContentexError as exc:
        return exc


def jsonld(payload: str) -> bytes:
    return (f'<html><head><script type="application/ld+json">{payload}</script></head>'
            f"<body>{BODY}</body></html>").encode()


INPUTS = {
    "empty bytes": b"",
    "empty str": "",
    "whitespace": b"  \n\t \r\n ",
    "only a comment": b"<!-- nothing else -->",
    "only a doctype": b"<!DOCTYPE html>",
    "NUL bytes": b"\x00" * 100,
    "control bytes": bytes(range(1, 32)) * 4,
    "lone surrogate": "<p>\ud800 text</p>",
    "NUL in str": "<p>a\x00b</p>",
    "truncated tag": b"<html><body><p>Some words<a hre",
    "nested 10^4 div": ("<html><body>" + "<div>" * 10_000 + "deep text" + "</div>" * 10_000).encode(),
    "nested 10^5 unclosed span": "<body>" + "<span>" * 100_000 + "deep text",
    "charset utf-16 declared, utf-8 sent": f'<meta charset="utf-16"><body>{BODY}</body>'.encode(),
    "charset utf-32 declared, utf-8 sent": f'<meta charset="utf-32"><body>{BODY}</body>'.encode(),
    "charset unknown name": f'<meta charset="x-no-such"><body>{BODY}</body>'.encode(),
    "charset in http-equiv, codec not text": (
        f'<meta http-equiv="Content-Type" content="text/html; charset=rot13"><body>{BODY}</body>').encode(),
    "utf-16 with BOM": f'<meta charset="utf-16"><body>{BODY}</body>'.encode("utf-16"),
    "xml declaration utf-16 on utf-8": f'<?xml version="1.0" encoding="utf-16"?><html><body>{BODY}</body></html>'.encode(),
    "xml declaration bogus, str": f'<?xml version="1.0" encoding="bogus"?><html><body>{BODY}</body></html>',
    "xml declaration only": b'<?xml version="1.0" encoding="utf-8"?>',
    "json-ld invalid": jsonld('{"@type": "Product", '),
    "json-ld list of strings": jsonld('["a", "b", "c"]'),
    "json-ld nested 10^4": jsonld("[" * 10_000 + "]" * 10_000),
    "json-ld objects nested 10^4": jsonld('{"a":' * 10_000 + "1" + "}" * 10_000),
    "json-ld price 1e308": jsonld('{"@type":"Product","name":"x","offers":{"price":"1e308"}}'),
    "json-ld price overflows a float": jsonld('{"@type":"Product","name":"x","offers":{"price":1e309}}'),
    "json-ld price NaN": jsonld('{"@type":"Product","name":"x","offers":{"price":NaN}}'),
    "json-ld price 5000 digits": jsonld('{"@type":"Product","offers":{"price":' + "9" * 5000 + "}}"),
    "json-ld odd types": jsonld('{"@type":["Product",1,null],"name":["a",{"b":1}],"offers":["x",1,null]}'),
    "json-ld date 9999-99-99": jsonld('{"@type":"NewsArticle","headline":"h","datePublished":"9999-99-99"}'),
    "meta date 9999-99-99": b'<meta property="article:published_time" content="9999-99-99"><h1>H</h1><p>text</p>',
    "text date 0000-00-00": b"<h1>H</h1><p>Posted 0000-00-00 99:99, 31/02/2020</p>",
    "text price 1e308": b"<h1>Lamp</h1><div class='price'>$1e308</div><button>Add to cart</button>",
    "microdata offers nested 5000": (
        b'<div itemscope itemtype="http://schema.org/Product">'
        + b'<div itemscope itemprop="offers">' * 5000 + b'<span itemprop="price">1</span>'),
}


@pytest.mark.parametrize("call, item_class", CALLS, ids=lambda c: getattr(c, "__name__", ""))
@pytest.mark.parametrize("data", list(INPUTS.values()), ids=list(INPUTS))
def test_bad_input_gives_an_item_or_a_contentex_error(call, item_class, data):
    result = outcome(call, data)
    assert isinstance(result, item_class | ContentexError)


@pytest.mark.parametrize("data", [b"", "", b"   \n", b"<!-- c -->", b"\x00" * 100])
def test_nothing_to_extract_is_a_contentex_error(data):
    with pytest.raises(ContentexError):
        extract_article(data)
    with pytest.raises(ContentexError):
        extract_product(data)
    with pytest.raises(ContentexError):
        classify_page(data)


NOTHING = {
    "comment": "<!-- nothing else -->",
    "doctype": b"<!DOCTYPE html>",
    "doctype and comments": b"  <!-- a --> <!DOCTYPE html>\n<!-- b -->\r\n",
    "unclosed comment": "<!-- the rest <p>is a comment</p>",
    "comment closed by --!>": "<!--a--!>",
    "xml declaration": '<?xml version="1.0" encoding="utf-8"?>\n',
    "processing instruction": "<?php echo 1 ?>",
    "end tags only": "</div></body></html>",
    "control characters": "\x01\x02 <!-- -->",
    "a str's byte order mark": "\ufeff <!-- x -->",
}


@pytest.mark.parametrize("call", [extract_article, extract_product, classify_page])
@pytest.mark.parametrize("data", list(NOTHING.values()), ids=list(NOTHING))
def test_a_page_of_nothing_is_an_empty_document_for_all_three_calls(call, data):
    """No text and no start tag: each call raises EmptyDocumentError (classify_page said "index")."""
    with pytest.raises(EmptyDocumentError):
        call(data)


SOMETHING = {
    "empty html element": "<html></html>",
    "unclosed html tag": "<html lang=en",
    "text after a comment": "<!-- a -->x",
    "comment closed at once": "<!-->text",
    "comment closed by --!>": "<!-- a --!> <p>text</p>",
    "a lone <": "<",
    "text after a str's byte order mark": "\ufeffx",
}


@pytest.mark.parametrize("call, item_class", CALLS, ids=lambda c: getattr(c, "__name__", ""))
@pytest.mark.parametrize("data", list(SOMETHING.values()), ids=list(SOMETHING))
def test_a_page_with_a_start_tag_or_text_gives_an_item_from_all_three_calls(call, item_class, data):
    assert isinstance(call(data), item_class)


def test_text_after_comments_is_read():
    assert extract_article("<!-- a --!> <p>Hello there</p>").articleBody == "Hello there"
    assert holds_nothing("<!DOCTYPE html><!-- x --></p>") and not holds_nothing("<!DOCTYPE html><p>")


@pytest.mark.parametrize("call", [extract_article, extract_product, classify_page])
@pytest.mark.parametrize("data", [None, 42, ["<p>x</p>"]])
def test_wrong_argument_type_is_a_type_error(call, data):
    with pytest.raises(TypeError):
        call(data)


def test_text_below_deep_nesting_is_kept():
    assert "deep text" in extract_article(INPUTS["nested 10^4 div"]).articleBody
    assert "deep text" in extract_article(INPUTS["nested 10^5 unclosed span"]).articleBody


def test_wrong_declared_charset_still_reads_the_text():
    for name in ("charset utf-16 declared, utf-8 sent", "charset unknown name",
                 "xml declaration utf-16 on utf-8", "xml declaration bogus, str"):
        assert "Hello world" in extract_article(INPUTS[name]).articleBody, name


def test_one_huge_paragraph():
    page = b"<html><body><p>" + b"word " * 1_000_000 + b"</p></body></html>"  # 5 MB
    assert len(extract_article(page).articleBody) == len("word " * 1_000_000) - 1


def test_unusable_price_is_no_price():
    for name in ("json-ld price overflows a float", "json-ld price NaN"):
        product = extract_product(INPUTS[name])
        assert product.name == "x" and product.price is None, name


@pytest.mark.parametrize("call", [extract_article, extract_product, classify_page])
def test_unparseable_url_is_a_contentex_error(call):
    """``urlsplit`` rejects it; the product call used to raise its ValueError."""
    with pytest.raises(ContentexError) as caught:
        call(BODY, url="http://[::1")
    assert caught.value.reason == "bad_url"


@pytest.mark.parametrize("call", [extract_article, extract_product, classify_page])
def test_url_of_a_wrong_type_is_a_type_error(call):
    with pytest.raises(TypeError):
        call(BODY, url=123)


@pytest.mark.parametrize("href", ["http://[::1", "http://e.com:99999999/", "http://%zz", "javascript:x"])
@pytest.mark.parametrize("call, item_class", CALLS, ids=lambda c: getattr(c, "__name__", ""))
def test_bad_links_in_the_page_are_read_as_links(call, item_class, href):
    page = (f'<head><base href="{href}"><link rel="canonical" href="{href}"></head>'
            f'<body><nav><a href="{href}">one</a> <a href="/two">two</a></nav>{BODY}<img src="{href}"></body>')
    assert isinstance(call(page, url="https://example.com/a"), item_class)


@pytest.mark.parametrize("url", ["https://example.com:99999999/a", "not a url", "http://[::1]:80/x"])
def test_odd_but_parseable_urls_are_kept(url):
    assert extract_article(BODY, url=url).url == url


@pytest.mark.parametrize("text, amount", [
    ("1e308", None), ("1e3", None), ("1.5E+02", None), ("1,2e5", None), ("$1e308", None),
    ("1e-5", None), ("1e+21", None), ("NaN", None), ("inf", None), ("9" * 16, None),
    ("12e", "12"), ("1 each", "1"), ("2 ea", "2"), ("£3e", "3"), ("12.99e", "12.99"),
    ("999999999999999", "999999999999999"), ("1 299,90 €", "1299.90"),
    ("$30 (model 3e5)", "30"),
])
def test_price_in_exponent_notation_or_past_any_real_price_is_no_amount(text, amount):
    """price-parser reads the mantissa of "1e308" (amount 1): no amount is better than a wrong one."""
    assert parse_price(text).amount == amount


def test_price_with_no_usable_amount_keeps_its_currency():
    parsed = parse_price("€1e3")
    assert parsed.amount is None and parsed.currency == "EUR" and parsed.currency_raw == "€"


@pytest.mark.parametrize("where", ["json-ld text", "json-ld number", "itemprop", "meta", "page text"])
def test_product_price_in_exponent_notation_is_no_price(where):
    shown = "<h1>Lamp</h1><button>Add to cart</button>"
    pages = {
        "json-ld text": jsonld('{"@type":"Product","name":"Lamp","offers":{"price":"1e308","priceCurrency":"EUR"}}'),
        "json-ld number": jsonld('{"@type":"Product","name":"Lamp","offers":{"price":1e21,"priceCurrency":"EUR"}}'),
        "itemprop": ('<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Lamp</h1>'
                     '<span itemprop="price" content="1e5">1e5</span>'
                     '<meta itemprop="priceCurrency" content="USD"></div>'),
        "meta": ('<meta property="product:price:amount" content="1.5E+02">'
                 f'<meta property="product:price:currency" content="USD">{shown}'),
        "page text": f"{shown}<div class='price'>$1e308</div>",
    }
    product = extract_product(pages[where])
    assert product.name and product.price is None


def test_product_real_price_beside_an_exponent_one_is_read():
    page = ('<meta property="product:price:amount" content="1e5"><h1>Lamp</h1>'
            "<div class='price'>$19.99</div><button>Add to cart</button>")
    assert extract_product(page).price == "19.99"


PAGE = "<html><head><title>T</title></head><body><p>Hello world 你好, a sentence of words.</p></body></html>"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "utf-32"])
def test_utf16_and_utf32_pages_without_a_bom_decode(encoding):
    data = ("\n " + PAGE).encode(encoding)
    assert not looks_binary(data) and looks_like_html(data)
    assert decode_html(data) == "\n " + PAGE
    assert "Hello world 你好" in extract_article(data).articleBody
    assert classify_page(data).pageType in ("index", "content")
    assert extract_product(data).name == "T"


def test_utf16_header_without_byte_order_follows_the_bytes():
    assert decode_html(PAGE.encode("utf-16-be"), "text/html; charset=utf-16") == PAGE


def test_bom_beats_the_header_as_in_scrapy():
    assert decode_html(PAGE.encode("utf-8-sig"), "text/html; charset=iso-8859-1") == PAGE


@pytest.mark.parametrize("data", [b"\x00" * 100, b"A\x00\x00\x00\xff\xfe\xfd", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_nul_bytes_that_are_not_wide_text_stay_binary(data):
    assert looks_binary(data)


def many_attributes(count: int, attribute=lambda i: f"a{i}=1", sep: str = " ") -> str:
    return f"<html><body><p>Before it.</p><div {sep.join(map(attribute, range(count)))}>Text after it.</div></body></html>"


@pytest.mark.parametrize("call, item_class", CALLS, ids=lambda c: getattr(c, "__name__", ""))
def test_a_tag_with_10_5_attributes_parses_at_once(call, item_class):
    """libxml2 took minutes over it (a duplicate check per attribute against the earlier ones)."""
    page = many_attributes(100_000).encode()
    started = time.process_time()
    assert isinstance(call(page), item_class)
    assert time.process_time() - started < 5  # (minutes without the cap, 0.03 s with it)


@pytest.mark.parametrize("attribute, sep", [
    (lambda i: f"a{i}", " "), (lambda i: f'a{i}="1"', ""), (lambda i: f"A{i}='x y'", "\n"),
])
def test_a_tag_is_cut_to_max_attributes_and_the_page_after_it_is_kept(attribute, sep):
    tree = parse_html(many_attributes(20_000, attribute, sep))
    div = tree.find(".//div")
    assert len(div.attrib) == MAX_ATTRIBUTES and div.text == "Text after it."
    assert "Before it." in extract_article(many_attributes(20_000, attribute, sep)).articleBody


LONG_BUT_FEW = {
    # long tags of real pages: one long value, a few attributes
    "data URI": f'<p>a</p><img alt="x" src="data:image/png;base64,{"QUJD" * 20_000}"><p>b</p>',
    "SVG path": f'<svg><path fill="red" d="{"M 1 2 L 3 4 " * 10_000}"/></svg>',
    # long text or script with no ">" (in a script, "<" and a letter is no tag)
    "long paragraph": f'<p>{"word " * 20_000}</p>',
    "script": f'<script>if (a <b) {{ {"x = y; " * 10_000} }}</script>',
    # a tag with many attributes, but under LONG_TAG bytes
    "1500 attributes": many_attributes(MAX_ATTRIBUTES + 500),
}


@pytest.mark.parametrize("page", list(LONG_BUT_FEW.values()), ids=list(LONG_BUT_FEW))
def test_pages_without_a_hoard_of_attributes_are_parsed_as_they_are(page):
    data = page.encode()
    assert cap_attributes(data) is data


def test_crawl_reads_a_utf16_page_and_skips_a_page_of_nothing_as_empty():
    """The same decisions in a crawl: the middleware's skip check and the per-page work."""
    from scrapy.http import HtmlResponse

    from scrapy_contentex.middlewares import skip_reason
    from scrapy_contentex.work import WorkSettings, process_page

    page = f"<html><head><title>T</title></head><body><h1>T</h1>{BODY * 20}</body></html>"
    body = page.encode("utf-16-be")
    response = HtmlResponse("https://example.com/a", body=body,
                            headers={"Content-Type": "text/html; charset=utf-16"})
    assert skip_reason(response, 0) is None
    result = process_page(body, response.url, "text/html; charset=utf-16", "article", WorkSettings())
    assert result.skip is None and result.label in ("index", "content")
    nothing = process_page(b"<!DOCTYPE html><!-- -->", response.url, "text/html", "article", WorkSettings())
    assert nothing.skip == "empty" and nothing.label is None
