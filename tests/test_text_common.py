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


def test_body_block_text_matches_the_walk():
    # The stylesheet and the Python walk write the same text: blocks, <br>,
    # skipped subtrees with their tails, cells, no <body>, the character limit.
    from scrapy_contentex.core.document import SKIP_TEXT_TAGS, Document
    from scrapy_contentex.core.text.common import body_block_text

    pages = [
        "<html><head><title>T</title></head><body><h1>Head</h1><p>One <b>bold</b> two<br>three</p>"
        "<script>var x;</script>tail<div>a<select><option>o</option></select>b</div>"
        "<table><tr><td>c1</td><td>c2</td></tr></table><ul><li>x</li><li>y</li></ul>"
        "<svg><text>icon</text></svg>after svg<template><p>t</p></template></body></html>",
        "<html><head><title>only a title</title></head></html>",
        "plain text, no markup",
        "<p>" + "word " * 500 + "</p>" * 3,
    ]
    for html in pages:
        tree = Document(html).tree
        body = tree.find("body")
        walk = block_text(body if body is not None else tree, skip=SKIP_TEXT_TAGS, limit=1000)
        assert body_block_text(tree, SKIP_TEXT_TAGS, 1000) == walk
    text = body_block_text(Document(pages[0]).tree, SKIP_TEXT_TAGS, 10_000)
    assert text == "Head\nOne bold two\nthree\ntail\nab\nc1\nc2\nx\ny\nafter svg"


def test_body_block_text_reads_trees_too_deep_for_the_stylesheet():
    # libxslt stops at a few thousand levels; such a tree is read by the walk.
    from lxml import etree

    from scrapy_contentex.core.document import SKIP_TEXT_TAGS
    from scrapy_contentex.core.text.common import body_block_text

    root = parse_html("<html><body><p>top</p></body></html>")
    el = root.find("body")
    for _ in range(5000):
        el = etree.SubElement(el, "div")
        el.text = "w"
    assert body_block_text(root, SKIP_TEXT_TAGS, 100_000) == "top\n" + "\n".join(["w"] * 5000)
