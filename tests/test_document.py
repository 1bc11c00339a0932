"""Decoding and parsing: the bytes-to-tree step every extractor relies on."""

import pytest
from lxml import etree

from scrapy_contentex.core.document import (
    WALKED_TAGS,
    Document,
    TaggedElements,
    as_document,
    body_of,
    decode_html,
    detect_encoding,
    flatten_nesting,
    looks_binary,
    looks_like_html,
    parse_html,
)
from scrapy_contentex.core.errors import EmptyDocumentError, NotHtmlError

ZH = "这是一个中文测试页面，我们需要足够长的文字来检测编码是否正确。"


def page(body: bytes, head: bytes = b"") -> bytes:
    return b"<html><head>" + head + b"</head><body><p>" + body + b"</p></body></html>"


def test_gbk_with_meta_charset():
    assert ZH in decode_html(page(ZH.encode("gbk"), b'<meta charset="gbk">'))


def test_gb2312_declared_gb18030_chars_decode():
    # Pages declare gb2312 but use GBK/GB18030-only characters such as 镕.
    text = "朱镕基" + ZH
    assert text in decode_html(page(text.encode("gb18030"), b'<meta charset="gb2312">'))


def test_utf8_with_wrong_meta_charset():
    assert ZH in decode_html(page(ZH.encode("utf-8"), b'<meta charset="gbk">'))


@pytest.mark.parametrize(
    "text,encoding",
    [
        ("這是繁體中文的測試頁面內容，我們需要足夠長的文字來檢測編碼。", "big5"),
        ("これは日本語のテストページです。十分な長さのテキストが必要です。", "shift_jis"),
        ("이것은 한국어 테스트 페이지입니다. 충분한 길이의 텍스트가 필요합니다.", "euc-kr"),
        (ZH, "gbk"),
    ],
)
def test_undeclared_cjk_encodings_are_detected(text, encoding):
    assert text in decode_html(page(text.encode(encoding)))


def test_http_header_wins_when_it_decodes():
    data = page(ZH.encode("gbk"), b'<meta charset="utf-8">')
    assert detect_encoding(data, "text/html; charset=GBK") in ("gbk", "gb18030")
    assert ZH in decode_html(data, "text/html; charset=GBK")


def test_bom_is_honoured_and_removed():
    text = decode_html(b"\xef\xbb\xbf" + page("é".encode()))
    assert text.startswith("<html>") and "é" in text


def test_empty_and_binary_inputs_raise_clear_errors():
    with pytest.raises(EmptyDocumentError):
        decode_html(b"   \n")
    with pytest.raises(NotHtmlError):
        decode_html(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(NotHtmlError):
        decode_html(b"%PDF-1.7 ...")
    assert looks_binary(b"abc\x00def")
    assert not looks_binary(page(b"ok"))


def test_looks_like_html():
    assert looks_like_html(b"<!DOCTYPE html><html>")
    assert not looks_like_html(b'{"a": 1}')


def test_parse_broken_markup():
    root = parse_html("<div><p>one<p>two</b></i><table><td>cell")
    assert "one" in root.text_content() and "cell" in root.text_content()


def test_parse_xml_declaration_and_control_chars():
    root = parse_html('<?xml version="1.0" encoding="utf-8"?><html><body>a\x00b\x0cc</body></html>')
    assert root.text_content() == "abc"


@pytest.mark.parametrize("raw", [
    page(ZH.encode("utf-8")),
    b"\xef\xbb\xbf" + page(ZH.encode("utf-8")),  # a BOM
    b'  <?xml version="1.0" encoding="utf-8"?>' + page(ZH.encode("utf-8")),
    page(b"a\x01b\x0cc"),  # control characters libxml2 refuses
    page(ZH.encode("gbk"), b'<meta charset="gbk">'),
    b"\xef\xbb\xbf" + page(b"not \xff UTF-8"),  # a UTF-8 BOM on bytes that are not
    page(b"not \xff UTF-8", b'<meta charset="utf-8">'),
])
def test_bytes_parse_exactly_like_their_text(raw):
    from_bytes, from_text = Document(raw), Document(decode_html(raw))
    assert from_bytes.html == from_text.html
    assert from_bytes.markup == from_text.markup
    assert etree.tostring(from_bytes.tree) == etree.tostring(from_text.tree)


def test_utf8_bytes_are_parsed_as_they_came():
    raw = page(ZH.encode("utf-8"))
    assert Document(raw).markup is raw  # not decoded and encoded back: the same object
    assert Document(raw.decode("utf-8")).markup == raw


def test_deep_nesting_keeps_the_text():
    html = "<html><body><p>start</p>" + "<div>" * 50000 + "deep" + "</div>" * 50000 + "<p>end</p></body></html>"
    text = parse_html(html).text_content()
    assert "start" in text and "deep" in text and "end" in text


def test_flatten_nesting_only_touches_excess_levels():
    html = "<div><div><div>x</div></div></div>"
    assert flatten_nesting(html, max_depth=2) == "<div><div>x</div></div>"
    assert flatten_nesting(html, max_depth=10) == html


def test_document_parses_once_and_fresh_tree_is_private():
    doc = Document(page(b"hello"), url="http://example.test/")
    assert doc.tree is doc.tree
    fresh = doc.fresh_tree()
    fresh.body.clear()
    assert "hello" in doc.tree.text_content()
    assert as_document(doc) is doc
    assert as_document("<p>x</p>", url="u").url == "u"


def test_tagged_elements_match_separate_walks():
    html = ("<html><head><title>T</title><meta name='a' content='1'><link rel='x' href='/s'>"
            "<script>var a</script></head><body><h2>B</h2><h1>A</h1><form><input type='submit'>"
            "<button>Buy</button></form><link href='http://schema.org/InStock'>"
            "<svg><title>icon</title></svg></body></html>")
    doc = Document(html)
    tagged = doc.tagged
    tree, body = doc.tree, body_of(doc.tree)
    for tags in (("script",), ("meta",), ("h1", "h2", "h3"), ("link", "button", "input", "form")):
        assert tagged.tags(*tags) == list(tree.iter(*tags))
        assert tagged.tags(*tags, in_body=True) == list(body.iter(*tags))
    assert [el.get("href") for el in tagged.tags("link", in_body=True)] == ["http://schema.org/InStock"]
    assert tagged.title() == tree.findtext(".//title") == "T"
    assert doc._scripts_and_metas == (tagged.tags("script"), tagged.tags("meta"))
    with pytest.raises(ValueError):
        tagged.tags("table")


def test_tagged_title_is_empty_or_absent_like_findtext():
    for html in ("<html><head><title></title></head><body><p>x</p></body></html>",
                 "<html><body><p>x</p></body></html>"):
        tree = Document(html).tree
        assert Document(html).tagged.title() == tree.findtext(".//title")


def test_tagged_elements_after_the_body_are_not_taken_for_the_body():
    # a tree built by hand may hold elements after <body>: the body's own are walked apart
    tree = parse_html("<html><body><h1>In</h1></body></html>")
    after = etree.SubElement(tree, "h1")
    after.text = "After"
    tagged = TaggedElements(tree, body_of(tree), WALKED_TAGS)
    assert [el.text for el in tagged.tags("h1")] == ["In", "After"]
    assert [el.text for el in tagged.tags("h1", in_body=True)] == ["In"]
