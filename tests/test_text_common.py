"""Shared tree helpers: noise removal and block-aware text."""

from scrapy_contentex.core.document import parse_html
from scrapy_contentex.core.text.common import block_text, iter_depth, strip_noise


def test_block_text_separates_blocks_and_keeps_inline_text():
    root = parse_html(
        "<html><body><div>intro<p>Hello <b>bold</b> world</p>tail<br>after"
        "<ul><li>one</li><li>two</li></ul></div></body></html>"
    )
    assert block_text(root.body) == "intro\nHello bold world\ntail\nafter\none\ntwo"


def test_strip_noise_removes_code_but_keeps_tails():
    root = parse_html("<html><body><p>a<script>var x=1;</script>b<style>p{}</style>c</p></body></html>")
    strip_noise(root)
    assert block_text(root.body) == "abc"


def test_iter_depth_is_document_order_without_recursion():
    root = parse_html("<html><body>" + "<div>" * 900 + "x" + "</div>" * 900 + "</body></html>")
    depths = [d for _, d in iter_depth(root)]
    assert depths[:3] == [0, 1, 2] and max(depths) == 901
