"""Structured data readers: JSON-LD (tolerant), microdata / RDFa lite, product meta tags."""

from scrapy_contentex.core.document import parse_html
from scrapy_contentex.core.structured import (
    first_value,
    json_ld_objects,
    meta_tags,
    microdata_items,
    product_meta,
    types_of,
)

BROKEN_LD = """<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Product",
 "name": "Trail Runner
 Shoe",
 "offers": {"@type": "Offer", "price": "87.11", "priceCurrency": "USD",},
}
</script></head><body></body></html>"""

GRAPH_LD = """<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "WebPage", "name": "page"},
  {"@type": ["Product"], "name": "茶杯", "sku": "CUP-1",
   "offers": [{"@type": "Offer", "price": 45, "priceCurrency": "CNY"}]}
]}</script></head><body></body></html>"""

MICRODATA = """<html><body>
<div itemscope itemtype="http://schema.org/Product">
  <h1 itemprop="name">Desk Lamp</h1>
  <span itemprop="brand" itemscope itemtype="https://schema.org/Brand">
    <span itemprop="name">Lumo</span></span>
  <div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
    <meta itemprop="priceCurrency" content="EUR">
    <span itemprop="price" content="19.90">19,90 €</span>
    <link itemprop="availability" href="http://schema.org/InStock">
  </div>
  <img itemprop="image" src="/lamp.jpg">
</div>
<div vocab="http://schema.org/" typeof="Product">
  <span property="name">Chair</span>
  <meta property="og:title" content="not an RDFa property">
</div>
</body></html>"""


def test_json_ld_tolerates_raw_newlines_and_trailing_commas():
    objects = json_ld_objects(parse_html(BROKEN_LD))
    product = next(o for o in objects if "Product" in types_of(o))
    assert product["name"].split() == ["Trail", "Runner", "Shoe"]
    assert product["offers"]["price"] == "87.11"


def test_json_ld_graph_is_flattened():
    objects = json_ld_objects(parse_html(GRAPH_LD))
    assert {"WebPage", "Product", "Offer"} <= set().union(*(types_of(o) for o in objects))
    product = next(o for o in objects if "Product" in types_of(o))
    assert first_value(product, "sku") == "CUP-1"


def test_microdata_nests_items_and_reads_values_by_tag():
    items = microdata_items(parse_html(MICRODATA))
    product = items[0]
    assert types_of(product) == {"Product"}
    assert first_value(product, "name") == "Desk Lamp"
    brand = first_value(product, "brand")
    assert first_value(brand, "name") == "Lumo"
    offer = first_value(product, "offers")
    assert first_value(offer, "price") == "19.90"  # content attribute wins over text
    assert first_value(offer, "availability") == "http://schema.org/InStock"
    assert first_value(product, "image") == "/lamp.jpg"


def test_rdfa_lite_properties_but_not_opengraph_names():
    items = microdata_items(parse_html(MICRODATA))
    chair = items[1]
    assert first_value(chair, "name") == "Chair"
    assert "og:title" not in chair


def test_microdata_absent_gives_empty_list():
    assert microdata_items(parse_html("<html><body><p>plain</p></body></html>")) == []


def test_product_meta_reads_opengraph_catalog_tags():
    tree = parse_html(
        '<html><head><meta property="og:type" content="product">'
        '<meta property="product:price:amount" content="1299.00">'
        '<meta property="product:price:currency" content="CNY">'
        '<meta property="product:brand" content="华为">'
        '<meta property="og:title" content="Phone">'
        "</head><body></body></html>"
    )
    found = product_meta(tree)
    assert found["price"] == "1299.00"
    assert found["currency"] == "CNY"
    assert found["brand"] == "华为"
    assert found["type"] == "product"
    assert meta_tags(tree)["og:title"] == "Phone"


def test_deep_microdata_does_not_recurse():
    html = ('<html><body><div itemscope itemtype="http://schema.org/Product">'
            + "<div>" * 1500 + '<span itemprop="name">Deep</span>' + "</div>" * 1500
            + "</div></body></html>")
    items = microdata_items(parse_html(html))
    assert items and first_value(items[0], "name") == "Deep"


def test_microdata_inside_a_page_level_item_and_props_outside_scopes():
    from scrapy_contentex.core.structured import microdata_items

    tree = parse_html(
        '<html><body itemscope itemtype="https://schema.org/WebPage">'
        '<span itemprop="name">Page</span><p itemprop="orphan-free">x</p>'
        '<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Kettle</h1>'
        '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">'
        '<meta itemprop="price" content="12.50"><b><i itemprop="priceCurrency">EUR</i></b></div>'
        '<span itemprop="sku">K-1</span></div></body></html>'
    )
    items = microdata_items(tree)
    assert [i["@type"] for i in items] == [["WebPage"], ["Product"]]
    page, product = items
    assert page["name"] == ["Page"]
    assert product["name"] == ["Kettle"] and product["sku"] == ["K-1"]
    assert product["offers"][0]["price"] == ["12.50"]
    assert product["offers"][0]["priceCurrency"] == ["EUR"]
    assert "sku" not in page  # a nested item's properties stay in that item


def test_itemprop_outside_any_scope_is_ignored():
    from scrapy_contentex.core.structured import microdata_items

    tree = parse_html('<html><body><span itemprop="name">Loose</span></body></html>')
    assert microdata_items(tree) == []


def test_item_scope_check():
    from scrapy_contentex.core.structured import may_hold_items

    assert may_hold_items(b'<div itemscope itemtype="https://schema.org/Product">')
    assert may_hold_items(b'<div itemScope>')  # React spells it so
    assert may_hold_items(b'<div ITEMSCOPE>')
    assert may_hold_items(b'<div vocab="https://schema.org/" typeof="Product">')
    assert may_hold_items(b'<div vocab="https://schema.org/" typeOf = "Product">')
    assert not may_hold_items(b'<div class="product"><p>plain</p></div>')
    # the JavaScript operator is no attribute, however often it appears
    js = b'<script>if (typeof x === "undefined") { y = typeof(z) }</script><p>typeof</p>'
    assert not may_hold_items(js)
    assert may_hold_items(js + b'<div typeof="Product">')


def test_item_scope_check_answers_as_a_search_in_the_lower_cased_bytes():
    """Case-blind at any position, across the cuts between the pieces searched, nothing else."""
    import random
    import re

    from scrapy_contentex.core import structured
    from scrapy_contentex.core.structured import may_hold_items

    def lowered(markup: bytes) -> bool:
        low = markup.lower()
        return b"itemscope" in low or any(re.match(rb"\s*=", low[m.end():])
                                           for m in re.finditer(b"typeof", low))

    assert not may_hold_items(b"") and not may_hold_items(b"item") and may_hold_items(b"ItEmScOpE")
    assert not may_hold_items(b"ITEMSCOP") and may_hold_items(b"TYPEOF=") and not may_hold_items(b"typeof")
    # bytes that fold onto a letter or onto "=" without being one: "@" (0x40) and 0x1d
    assert not may_hold_items(b"@TEMSCOPE") and not may_hold_items(b"typeof\x1d")
    cut = structured._PIECE
    for word in (b"itemScope", b"typeOf =", b"typeof\n="):
        for shift in range(len(word) + 2):
            markup = b"x" * (cut - shift) + word + b"x" * 3
            assert may_hold_items(markup), (word, shift)
            assert not may_hold_items(markup.replace(word[:4], b"xxxx")), (word, shift)
    rnd = random.Random(7)
    pieces = [b"itemscope", b"ItemScope", b"ITEMSCOPE", b"itemscop", b"typeof", b"TypeOf", b"typeo",
              b"=", b" ", b"\t", b"\n", b"\x1d", b"@", b"\xc3\xa9", b"<div ", b">", b"x"]
    for _ in range(3000):
        markup = b"".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 6)))
        assert may_hold_items(markup) == lowered(markup), markup


def test_document_markup_is_what_the_parser_read():
    from scrapy_contentex.core.document import Document

    doc = Document("<html><body><p>caf\u00e9\x01</p></body></html>")
    assert doc.markup == "<html><body><p>caf\u00e9</p></body></html>".encode()
    assert doc.tree.findtext(".//p") == "caf\u00e9"


def test_document_objects_are_read_once_and_hold_both_syntaxes():
    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.structured import document_objects

    doc = Document('<html><head><script type="application/ld+json">{"@type": "Product", "name": "A"}'
                   '</script></head><body><div itemscope itemtype="https://schema.org/Offer">'
                   '<span itemprop="price">5</span></div></body></html>')
    objects = document_objects(doc)
    assert [sorted(o["@type"]) if isinstance(o["@type"], list) else o["@type"] for o in objects] == [
        "Product", ["Offer"]]
    assert document_objects(doc) is objects


def test_json_ld_nested_deeper_than_the_decoder_goes_is_skipped_not_a_crash():
    """Python's JSON decoder recurses: 5,000 levels of nesting raised RecursionError
    out of both extractors. The block is ignored; the page is still read."""
    from scrapy_contentex import extract_article, extract_product

    deep = '{"a":' * 5000 + "1" + "}" * 5000
    html = (f'<html><head><title>Lamp</title><script type="application/ld+json">{deep}</script>'
            '<script type="application/ld+json">{"@type": "Product", "name": "Lamp"}</script></head>'
            '<body><h1>Lamp</h1><span class="price">€12.00</span><p>A small desk lamp with a warm light, '
            'made of brass and glass, for reading at night.</p></body></html>')
    assert [o["name"] for o in json_ld_objects(parse_html(html))] == ["Lamp"]
    item = extract_product(html)
    assert (item.name, item.price) == ("Lamp", "12")
    assert "desk lamp" in extract_article(html).articleBody
