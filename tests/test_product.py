"""Product fields: structured data first, then the page (records area, price and stock cues)."""

import json
from decimal import Decimal

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.product import (
    FIELDS,
    extract_product_fields,
    normalize_availability,
)

EN_JSONLD = """<html lang="en"><head><title>Trail Runner | Example Outdoor</title>
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Product", "name": "Trail Runner",
 "sku": "TR-100", "mpn": "M-55", "gtin13": "4006381333931",
 "brand": {"@type": "Brand", "name": "Fleet"},
 "offers": [
   {"@type": "Offer", "price": "87.11", "priceCurrency": "USD",
    "availability": "http://schema.org/OutOfStock"},
   {"@type": "Offer", "price": "87.11", "priceCurrency": "USD",
    "availability": "https://schema.org/InStock"}
 ],}
</script></head><body><h1>Trail Runner</h1>
<div class="price"><del>$99.00</del> <span class="price-now">$87.11</span></div>
</body></html>"""

ZH_NO_JSONLD = """<html><head><meta charset="utf-8"><title>青瓷茶杯 - 示例商城</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/c">分类</a><a href="/cart">购物车</a></div>
<div class="goods">
  <h1>青瓷茶杯</h1>
  <div class="summary">
    <p class="price">售价：<span>¥128.00</span></p>
    <p>市场价：<s>¥168.00</s></p>
    <p>库存：<span>现货</span></p>
  </div>
  <ul class="params">
    <li>品牌：龙泉窑</li>
    <li>型号：QC-01</li>
    <li>材质：陶瓷</li>
    <li>容量：200ml</li>
    <li>商品编号：100012345</li>
  </ul>
  <button class="buy">加入购物车</button>
</div>
<div class="footer"><p>客服电话：400-000-0000</p></div>
</body></html>"""

ZH_SOLD_OUT = """<html><head><title>紫砂壶</title></head><body>
<h1>紫砂壶</h1><p class="goods-price">价格：99元</p><p class="stock">已售罄</p>
<ul><li>品牌：宜兴</li><li>重量：300g</li></ul></body></html>"""

EN_SPEC_TABLE = """<html><head><title>Oak Desk - Furniture Shop</title></head><body>
<h1>Oak Desk</h1>
<p class="product-price">Was <span class="old-price">£450.00</span> Now <span class="sale-price">£399.00</span></p>
<p>In stock</p>
<table class="specs">
 <tr><th>Brand</th><td>Woodline</td></tr>
 <tr><th>Dimensions</th><td>120 x 60 x 75 cm</td></tr>
 <tr><th>Material</th><td>Solid oak</td></tr>
 <tr><th>SKU</th><td>WD-7781</td></tr>
</table>
<dl><dt>Colour</dt><dd>Natural</dd><dt>Weight</dt><dd>32 kg</dd></dl>
</body></html>"""

MICRODATA = """<html><head><title>Lamp</title></head><body>
<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Desk Lamp</h1>
<span itemprop="brand">Lumo</span>
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
 <span itemprop="priceCurrency" content="EUR">€</span><span itemprop="price" content="19.90">19,90</span>
 <link itemprop="availability" href="http://schema.org/InStock"></div></div></body></html>"""

BOOK = """<html><head><title>The Quiet Harbour by Jane Roe (Paperback): Example Books</title></head>
<body><div class="top"><a>Books</a><a>Music</a></div>
<h2>The Quiet Harbour <span>(Paperback)</span></h2>
<div>by <a href="/a/1">Jane Roe</a>; <a href="/a/2">John Doe</a></div>
<ul class="details"><li><b>ISBN-13:</b> 9781234567897</li><li><b>Publisher:</b> Example Press</li>
<li><b>Date:</b> June 2010</li><li><b>Pages:</b> 320</li></ul></body></html>"""


def fields(html, url=None, **kw):
    return extract_product_fields(Document(html, url), **kw)


def test_exact_keys_and_json_serialisable():
    out = fields(EN_JSONLD)
    assert set(out) == set(FIELDS)
    assert "pageType" not in out
    json.dumps(out)


def test_json_ld_product_with_offers_and_shown_currency():
    out = fields(EN_JSONLD, "https://shop.example.com/p/1")
    assert out["name"] == "Trail Runner"
    assert out["price"] == "87.11"
    assert out["currency"] == "USD"
    assert out["currencyRaw"] == "$"  # what the page shows, not the ISO code
    assert out["regularPrice"] == "99"  # the struck-through price
    assert out["availability"] == "InStock"  # in stock when any offer is
    assert (out["sku"], out["mpn"], out["gtin"], out["brand"]) == (
        "TR-100", "M-55", "4006381333931", "Fleet")


def test_chinese_page_without_structured_data():
    out = fields(ZH_NO_JSONLD, "https://shop.example.cn/item/1")
    assert out["name"] == "青瓷茶杯"
    assert out["price"] == "128"
    assert out["currency"] == "CNY"
    assert out["currencyRaw"] == "¥"
    assert out["regularPrice"] == "168"
    assert out["availability"] == "InStock"
    assert out["brand"] == "龙泉窑"
    assert out["sku"] == "100012345"
    props = {p["name"]: p["value"] for p in out["additionalProperties"]}
    assert props["型号"] == "QC-01"
    assert props["材质"] == "陶瓷"
    assert "客服电话" not in props  # the footer is outside the record area


def test_chinese_sold_out_and_yuan_suffix():
    out = fields(ZH_SOLD_OUT)
    assert out["availability"] == "OutOfStock"
    assert (out["price"], out["currency"], out["currencyRaw"]) == ("99", "CNY", "元")
    assert out["brand"] == "宜兴"


def test_spec_table_dl_and_was_price():
    out = fields(EN_SPEC_TABLE, "https://shop.example.co.uk/desk")
    assert (out["price"], out["currency"], out["currencyRaw"]) == ("399", "GBP", "£")
    assert out["regularPrice"] == "450"
    assert out["availability"] == "InStock"
    assert out["brand"] == "Woodline"
    assert out["sku"] == "WD-7781"
    props = {p["name"]: p["value"] for p in out["additionalProperties"]}
    assert props["Dimensions"] == "120 x 60 x 75 cm"
    assert props["Colour"] == "Natural"
    assert props["Weight"] == "32 kg"


def test_microdata_product():
    out = fields(MICRODATA)
    assert (out["name"], out["price"], out["currency"], out["brand"]) == (
        "Desk Lamp", "19.90", "EUR", "Lumo")
    assert out["availability"] == "InStock"


def test_book_name_byline_and_records():
    out = fields(BOOK)
    assert out["name"] == "The Quiet Harbour"  # the qualifier the title does not repeat is cut
    props = {p["name"]: p["value"] for p in out["additionalProperties"]}
    assert props["ISBN-13"] == "9781234567897"
    assert props["Publisher"] == "Example Press"
    assert props["Date"] == "June 2010"
    assert props["author"] == "Jane Roe; John Doe"
    assert out["gtin"] == "9781234567897"


def test_extra_attributes_extend_the_dictionary():
    html = """<html><body><h1>Tea</h1><div class="x"><p>Harvest: spring 2024</p>
    <p>Terroir: Wuyi</p></div></body></html>"""
    out = fields(html, extra_attributes=["Harvest", "Terroir"])
    names = [p["name"] for p in out["additionalProperties"]]
    assert "Harvest" in names and "Terroir" in names


def test_availability_normalisation_decisions():
    assert normalize_availability("http://schema.org/InStock") == "InStock"
    assert normalize_availability("https://schema.org/LimitedAvailability") == "InStock"
    assert normalize_availability("PreOrder") == "InStock"
    assert normalize_availability("http://schema.org/SoldOut") == "OutOfStock"
    assert normalize_availability("Discontinued") == "OutOfStock"
    assert normalize_availability("out of stock") == "OutOfStock"
    assert normalize_availability("Auf Lager") == "InStock"
    assert normalize_availability("Nicht verfügbar") == "OutOfStock"
    assert normalize_availability("En stock") == "InStock"
    assert normalize_availability("Rupture de stock") == "OutOfStock"
    assert normalize_availability("Agotado") == "OutOfStock"
    assert normalize_availability("缺货") == "OutOfStock"
    assert normalize_availability("有货") == "InStock"
    assert normalize_availability("https://schema.org/MadeToOrder") == "InStock"
    assert normalize_availability("https://schema.org/Reserved") == "OutOfStock"
    assert normalize_availability("whatever") is None


def test_add_to_cart_button_is_in_stock_evidence():
    html = """<html><body><h1>Mug</h1><p>A fine mug.</p>
    <form action="/cart/add"><button type="submit">Add to cart</button></form></body></html>"""
    assert fields(html)["availability"] == "InStock"


def test_hidden_stock_template_is_ignored():
    html = """<html><body><h1>Mug</h1><span class="price">$5.00</span>
    <p style="display: none">Out of stock</p><p>In stock</p></body></html>"""
    assert fields(html)["availability"] == "InStock"


def test_empty_page_gives_empty_fields():
    out = fields("<html><body><p>nothing here</p></body></html>")
    assert out["price"] is None and out["availability"] is None
    assert out["additionalProperties"] == []


def test_label_announced_price_without_price_classes():
    html = """<html><head><title>牛排 - 示例</title></head><body><h1>牛排</h1>
    <div class="deal"><span>建議售價</span><span>$3200</span><span>元</span>
    <span>一次付清特價</span><span>72</span><span>折</span><span>2320</span><span>元</span></div>
    <div class="related"><div class="sale">$209</div></div></body></html>"""
    out = fields(html, "https://shop.example.tw/p/1")
    assert out["price"] == "2320"
    assert out["currency"] == "TWD"  # "$" on a .tw domain
    assert out["regularPrice"] == "3200"


def test_old_and_new_price_in_one_element():
    html = """<html><body><h1>Fridge</h1>
    <div class="product-price"><s>144 990 тг.</s> <span>131 990 тг.</span></div></body></html>"""
    out = fields(html)
    assert (out["price"], out["regularPrice"], out["currency"]) == ("131990", "144990", "KZT")


def test_identifier_labels_outside_the_record_area():
    html = """<html><body><h1>Teddy bear</h1>
    <div class="top">Item number: <span>133588510845</span></div>
    <table class="specs"><tr><th>Colour</th><td>Brown</td></tr><tr><th>Height</th><td>30 cm</td></tr>
    <tr><th>Material</th><td>Plush</td></tr></table></body></html>"""
    out = fields(html)
    assert out["sku"] == "133588510845"


def test_yen_on_a_japanese_page():
    html = """<html lang="ja"><body><h1>急須</h1><p class="price">¥3,980</p>
    <p>在庫あり</p></body></html>"""
    out = fields(html, "https://shop.example.jp/item/9")
    assert (out["price"], out["currency"], out["currencyRaw"]) == ("3980", "JPY", "¥")
    assert out["availability"] == "InStock"


def test_stock_word_in_another_products_link_does_not_count():
    html = """<html><body><h1>Lamp</h1><span class="price">€20,00</span>
    <a href="/other"><span>Sold out</span></a><p>Available now</p></body></html>"""
    assert fields(html)["availability"] == "InStock"


def test_name_found_inside_a_decorated_title():
    html = """<html><head><title>Shop.com: The Quiet Harbour: A Novel (9780316125581): Jane Roe: Books
    </title></head><body><h1>The Quiet Harbour: A Novel [Hardcover]</h1>
    <ul><li><b>ISBN-13:</b> 978-0316125581</li><li><b>Publisher:</b> Little, Brown (2010)</li></ul>
    </body></html>"""
    out = fields(html)
    assert out["name"] == "The Quiet Harbour: A Novel"
    assert out["gtin"] == "9780316125581"


JD_LIKE = """<html><head><meta charset="utf-8"><title>【茶杯】青瓷茶杯 200ml【价格 评测】-示例商城</title></head>
<body><div class="sku-name">青瓷茶杯 200ml</div>
<div class="summary-price"><span class="p-price"><span>￥</span><span class="price">128.00</span></span></div>
<div id="store-prompt"><strong>有货</strong></div><a class="btn-lg">加入购物车</a>
<ul class="p-parameter-list"><li>商品名称：青瓷茶杯</li><li>商品编号：100012345</li><li>商品产地：浙江</li></ul>
<ul class="p-parameter-list"><li>品牌： <a>龙泉窑</a></li></ul></body></html>"""


def test_currency_sign_in_a_sibling_span_and_goods_name_label():
    out = fields(JD_LIKE, "https://item.example.com/100012345.html")
    assert (out["price"], out["currency"], out["currencyRaw"]) == ("128", "CNY", "￥")
    assert out["name"] == "青瓷茶杯"  # the seed's "goods name" attribute
    assert out["brand"] == "龙泉窑"
    assert out["sku"] == "100012345"
    assert out["availability"] == "InStock"


def test_german_shop_recommended_price_and_labels():
    html = """<html lang="de"><head><title>Kaffeemühle Classic | Beispiel-Shop</title></head><body>
    <h1>Kaffeemühle Classic</h1>
    <div class="preis"><span>UVP 69,90 €</span> <strong>49,90 €</strong></div>
    <span class="lieferstatus">Auf Lager</span>
    <div class="details"><p>Marke: Mahlwerk</p><p>Artikelnummer: 778812</p><p>EAN: 4006381333931</p></div>
    </body></html>"""
    out = fields(html, "https://shop.example.de/p/1")
    assert (out["price"], out["regularPrice"], out["currency"]) == ("49.90", "69.90", "EUR")
    assert out["availability"] == "InStock"
    assert (out["brand"], out["sku"], out["gtin"]) == ("Mahlwerk", "778812", "4006381333931")


def test_sku_from_an_url_id_the_page_shows():
    html = """<html><body><h1>Deal</h1><span class="price">₩12,000</span>
    <span class="tag">딜번호 : 4548094738</span><span>2024</span></body></html>"""
    out = fields(html, "http://shop.example.kr/deal/4548094738")
    assert out["sku"] == "4548094738"
    # an id in the URL that the page never shows is not taken
    assert fields("<html><body><h1>X</h1></body></html>", "http://shop.example.kr/deal/99887766")["sku"] is None


def test_bracketed_label_and_value():
    html = """<html><body><h1>爐具</h1><table><tr><td>〈商品編號：M14876706〉</td></tr></table></body></html>"""
    assert fields(html)["sku"] == "M14876706"


def test_stock_scan_finds_what_a_search_per_text_finds():
    import re

    from scrapy_contentex.core.document import parse_html
    from scrapy_contentex.core.product import _stock_matches
    from scrapy_contentex.core.records import text_leaves
    from scrapy_contentex.core.shop_words import IN_PHRASES, OUT_PHRASES

    # the reference: one alternation of every phrase, out-of-stock ones first
    full = re.compile("|".join(re.escape(p) for p in OUT_PHRASES + IN_PHRASES))

    tree = parse_html(
        "<html><body><p>Menu</p><p>Currently unavailable</p><p>In stock now, in stock later</p>"
        "<p>This item is not available</p><p>缺货</p><p>" + "long text " * 20 + "out of stock</p>"
        "<p>现货</p><p>No longer available in stock</p><p>Temporarily out of stock</p>"
        # repeated texts (searched once) keep their places, each leaf its own
        "<p>Sold out</p><p>Menu</p><p>SOLD OUT</p><p>Currently unavailable</p></body></html>"
    )
    leaves = text_leaves(tree.find("body"))
    expected = []
    for leaf in leaves:
        match = full.search(leaf.lower()) if len(leaf) <= 80 else None
        if match:
            expected.append((str(leaf), match.group(0), match.start()))
    got = [(str(leaf), phrase) for leaf, phrase in _stock_matches(leaves)]
    assert got == [(t, g) for t, g, _ in expected]
    assert [g for _, g in got] == ["currently unavailable", "in stock", "not available", "缺货", "现货",
                                   "no longer available", "temporarily out of stock", "sold out", "sold out",
                                   "currently unavailable"]
    assert [str(leaf) for leaf, _ in got][-3:] == ["Sold out", "SOLD OUT", "Currently unavailable"]


def test_camel_case_microdata_scope_is_still_read():
    # the cheap page-text guard before the microdata walk must not miss itemScope
    html = ("<html><body><div itemScope itemtype='https://schema.org/Product'>"
            "<h1 itemprop='name'>Trail Lamp</h1><span itemprop='sku'>TL-204</span>"
            "<div itemprop='offers' itemScope itemtype='https://schema.org/Offer'>"
            "<meta itemprop='price' content='19.50'><meta itemprop='priceCurrency' content='EUR'>"
            "</div></div></body></html>")
    out = extract_product_fields(Document(html, "https://shop.example/p/1"))
    assert (out["sku"], out["price"], out["currency"]) == ("TL-204", "19.50", "EUR")


def test_page_without_item_scope_skips_nothing_it_needs():
    html = ("<html><body><h1>台灯</h1><p>商品编号：TD-88</p>"
            "<span class='price'>¥128.00</span></body></html>")
    out = extract_product_fields(Document(html, "https://shop.example.cn/item/88"))
    assert out["sku"] == "TD-88" and out["price"] == "128"


def test_kind_guess_and_repeat_extraction_share_one_document_safely():
    # guess_kind and the extractor share leaves and records on the Document;
    # the shared list must not grow (the byline author is added to a copy)
    from scrapy_contentex.core.kind import guess_kind

    for html in (BOOK, ZH_NO_JSONLD):
        alone = extract_product_fields(Document(html, "https://shop.example/item/1"))
        doc = Document(html, "https://shop.example/item/1")
        guess_kind(doc)
        first = extract_product_fields(doc)
        second = extract_product_fields(doc)
        assert first == alone == second
    assert [p["name"] for p in second["additionalProperties"]].count("author") <= 1


def _author_of(page: str) -> str | None:
    props = extract_product_fields(Document(page, "http://shop.example/b/1"))["additionalProperties"]
    return next((p["value"] for p in props if p["name"] == "author"), None)


BOOK_DETAILS = ("<ul><li><b>Publisher:</b> Example Press (June 5, 2010)</li>"
                "<li><b>ISBN-13:</b> 978-1234567897</li><li><b>Pages:</b> 320</li></ul>")


def test_book_author_from_a_role_after_the_name():
    page = f"<html><body><h1>A Book</h1><a href='/x'>Jane Roe</a> (Author)<div>{BOOK_DETAILS}</div></body></html>"
    assert _author_of(page) == "Jane Roe"


def test_book_author_after_by_with_a_colon_or_a_role():
    page = f"<html><body><h1>A Book</h1><p>By: <a href='/a'>Jane Roe</a></p>{BOOK_DETAILS}</body></html>"
    assert _author_of(page) == "Jane Roe"
    page = f"<html><body><h1>A Book</h1><p>By (author) <a href='/a'>Jane Roe</a></p>{BOOK_DETAILS}</body></html>"
    assert _author_of(page) == "Jane Roe"


def test_book_author_from_an_element_marked_author():
    page = f"<html><body><h1>A Book</h1><h3 id='bookAuthor'>Jane Roe</h3>{BOOK_DETAILS}</body></html>"
    assert _author_of(page) == "Jane Roe"
    long_bio = "Jane Roe was born in a small town and wrote many books about the sea and ships. " * 3
    page = f"<html><body><h1>A Book</h1><div class='author-bio'>{long_bio}</div>{BOOK_DETAILS}</body></html>"
    assert _author_of(page) is None


def test_chinese_qualified_isbn_label_gives_the_gtin():
    page = ("<html><body><h1>示例图书</h1><ul><li>作者：张三</li><li>出版社：示例出版社</li>"
            "<li>国际标准书号ISBN：9787000000001</li></ul></body></html>")
    assert extract_product_fields(Document(page))["gtin"] == "9787000000001"


def _name_of(page: str) -> str | None:
    return extract_product_fields(Document(page))["name"]


def test_name_drops_a_format_the_title_does_not_repeat():
    page = ("<html><head><title>Shop.com: The Winter Garden (9780312364137): Jane Roe: Books</title></head>"
            "<body><h1>The Winter Garden <span>(Hardcover)</span></h1></body></html>")
    assert _name_of(page) == "The Winter Garden"


def test_name_keeps_a_hyphen_glued_to_the_model():
    page = ("<html><head><title>Acme Drill GSR 12V | Toolshop</title></head>"
            "<body><h1>Acme Drill GSR 12V-15</h1></body></html>")
    assert _name_of(page) == "Acme Drill GSR 12V-15"


def test_name_is_the_title_part_shown_alone_on_a_page_without_headings():
    page = ("<html><head><title>Example Store: A Quiet Heart</title></head><body>"
            "<table><tr><td><font size='4'><b>A Quiet Heart</b></font></td></tr></table>"
            "<p>Format: Paperback</p></body></html>")
    assert _name_of(page) == "A Quiet Heart"


def test_japanese_spec_table_fills_brand_mpn_and_gtin():
    page = ("<html lang='ja'><body><h1>イヤホン X1</h1><span class='price'>12,800円</span>"
            "<table><tr><th>メーカー</th><td>サンプル電機</td><th>型番</th><td>WX1-BK</td></tr>"
            "<tr><th>重量</th><td>5.2g</td><th>JANコード</th><td>4901234567894</td></tr></table></body></html>")
    out = extract_product_fields(Document(page, "https://shop.example.jp/p/1"))
    assert (out["brand"], out["mpn"], out["gtin"]) == ("サンプル電機", "WX1-BK", "4901234567894")
    assert (out["price"], out["currency"]) == ("12800", "JPY")


def test_gtin_needs_a_right_check_digit():
    from scrapy_contentex.core.product import valid_gtin

    assert valid_gtin("4006381333931") == "4006381333931"  # EAN-13
    assert valid_gtin("0 99482 46799 9") == "099482467999"  # UPC-A written with spaces
    assert valid_gtin("96385074") == "96385074"  # EAN-8
    assert valid_gtin("4006381333932") is None  # wrong check digit
    assert valid_gtin("0000000000000") is None  # placeholder
    assert valid_gtin("Size") is None
    assert valid_gtin("0-306-40615-2") == "9780306406157"  # ISBN-10 as its GTIN-13
    assert valid_gtin("0-306-40615-3") is None


def test_placeholder_gtin_in_structured_data_gives_way_to_the_page():
    ld = ('{"@context": "https://schema.org", "@type": "Product", "name": "Pen", "gtin13": "0000000000000",'
          ' "offers": {"@type": "Offer", "price": "2.50", "priceCurrency": "EUR"}}')
    page = (f"<html><head><script type='application/ld+json'>{ld}</script></head><body><h1>Pen</h1>"
            "<ul><li>EAN: 4006381333931</li><li>Colour: blue</li></ul></body></html>")
    assert extract_product_fields(Document(page))["gtin"] == "4006381333931"


def test_currency_raw_is_the_sign_shown_when_data_declares_a_dollar_currency():
    ld = ('{"@context": "https://schema.org", "@type": "Product", "name": "Concert ticket",'
          ' "offers": {"@type": "Offer", "price": "25000", "priceCurrency": "CLP"}}')
    page = (f"<html><head><script type='application/ld+json'>{ld}</script></head><body>"
            "<h1>Concert ticket</h1><span class='price'>$25.000</span></body></html>")
    out = extract_product_fields(Document(page, "https://tickets.example.cl/e/1"))
    assert (out["price"], out["currency"], out["currencyRaw"]) == ("25000", "CLP", "$")


def test_two_character_chinese_name_in_book_brackets():
    page = ("<html><head><title>《活着》(余华)【简介_书评_在线阅读】 - 示例图书</title></head><body>"
            "<h1>活着（2021版）</h1><ul><li>作者：余华</li><li>出版社：示例出版社</li>"
            "<li>ISBN：9787000000001</li></ul></body></html>")
    assert extract_product_fields(Document(page))["name"] == "活着"


def _titled(title: str, og_site: str = "") -> str:
    site = f'<meta property="og:site_name" content="{og_site}">' if og_site else ""
    return (f"<html><head><title>{title}</title>{site}</head><body><h1>Leather Look Shirt</h1>"
            '<span class="price">€29.99</span></body></html>')


def test_brand_is_the_words_the_title_puts_before_the_name():
    fields = extract_product_fields(Document(_titled("ONLY Leather Look Shirt | Example Fashion"),
                                             "https://shop.example.com/p/1"))
    assert fields["name"] == "Leather Look Shirt"
    assert fields["brand"] == "ONLY"


def test_a_site_name_before_the_name_is_no_brand():
    for title, site in (("Example.com: Leather Look Shirt", ""),
                        ("[Example Mall] Leather Look Shirt", ""),
                        ("Examplia Leather Look Shirt", "Examplia"),
                        ("Shopwise Leather Look Shirt", "")):
        url = "https://www.shopwise.example/p/1"
        assert extract_product_fields(Document(_titled(title, site), url))["brand"] is None, title


STOCK_TEXTS = [
    ("de", "Nicht auf Lager", "OutOfStock"), ("de", "Auf Lager", "InStock"),
    ("nl", "Niet op voorraad", "OutOfStock"), ("nl", "Op voorraad", "InStock"),
    ("cs", "Není skladem", "OutOfStock"), ("cs", "Skladem", "InStock"),
    ("sk", "Nie je na sklade", "OutOfStock"), ("sk", "Na sklade", "InStock"),
    ("da", "Ikke på lager", "OutOfStock"), ("sv", "Finns i lager", "InStock"),
    ("tr", "Stokta yok", "OutOfStock"), ("tr", "Stokta var", "InStock"),
    ("id", "Tidak tersedia", "OutOfStock"), ("id", "Tersedia", "InStock"),
    ("ar", "غير متوفر", "OutOfStock"), ("ar", "متوفر", "InStock"),
    ("el", "Μη διαθέσιμο", "OutOfStock"), ("uk", "Немає в наявності", "OutOfStock"),
    ("vi", "Hết hàng", "OutOfStock"), ("vi", "Còn hàng", "InStock"),
    ("he", "אזל מהמלאי", "OutOfStock"), ("th", "สินค้าหมด", "OutOfStock"),
    ("zh-TW", "已售完", "OutOfStock"), ("zh-TW", "有現貨", "InStock"),
    ("ko", "재고 없음", "OutOfStock"), ("ko", "재고 있음", "InStock"),
    ("en", "Only 3 left in stock", "InStock"), ("fi", "Loppuunmyyty", "OutOfStock"),
]


def test_stock_statements_in_many_languages_negations_first():
    for lang, text, want in STOCK_TEXTS:
        html = (f'<html lang="{lang}"><head><title>Widget</title></head><body><h1>Widget</h1>'
                f'<p class="stock">{text}</p></body></html>')
        assert extract_product_fields(Document(html))["availability"] == want, text


def test_spec_rows_labelled_in_other_languages_are_read():
    # div rows without delimiters are read once their names are dictionary names
    rows = {"tr": ("Marka", "Renk", "Beden", "Malzeme"), "vi": ("Thương hiệu", "Màu sắc", "Kích thước", "Chất liệu"),
            "pl": ("Marka", "Kolor", "Rozmiar", "Materiał"), "el": ("Μάρκα", "Χρώμα", "Μέγεθος", "Υλικό")}
    for lang, names in rows.items():
        specs = "".join(f'<div class="row"><span>{n}</span><span>v{i}</span></div>' for i, n in enumerate(names))
        html = (f'<html lang="{lang}"><head><title>Widget</title></head><body><nav><a href="/">Home</a>'
                f'<a href="/c">Shop</a></nav><h1>Widget</h1><div class="specs">{specs}</div>'
                '<footer><p>Hotline: 0850 000 00 00</p></footer></body></html>')
        fields = extract_product_fields(Document(html))
        assert [p["name"] for p in fields["additionalProperties"]] == list(names), lang
        assert fields["brand"] == "v0", lang


def test_price_announced_by_a_label_in_many_languages():
    cases = [("nl", "Prijs:", "€ 12,99", "12.99"), ("fi", "Hinta:", "12,99 €", "12.99"),
             ("tr", "Fiyat:", "1.299,90 TL", "1299.90"), ("vi", "Giá:", "1.290.000₫", "1290000"),
             ("id", "Harga:", "Rp 129.000", "129000"), ("el", "Τιμή:", "12,99 €", "12.99"),
             ("he", "מחיר:", "₪129.90", "129.90"), ("ko", "판매가", "29,900원", "29900")]
    for lang, label, shown, amount in cases:
        html = (f'<html lang="{lang}"><head><title>Widget</title></head><body><h1>Widget</h1>'
                f'<div><span>{label}</span><span>{shown}</span></div></body></html>')
        assert extract_product_fields(Document(html))["price"] == amount, label


RELATED_TILES = ('<section class="related">' + "".join(
    f'<div class="product-tile"><a href="/p/{i}">Other {i}</a><span class="price">$1{i}.00</span></div>'
    for i in range(4)) + "</section>")


def test_a_price_marked_regular_is_the_price_unless_struck():
    # Shopify themes: "price-item--regular" is the normal price; on sale it is struck (<s>)
    plain = ('<html><body><h1>Trail Runner</h1><div class="price"><span class="price-item '
             f'price-item--regular">$87.11</span></div>{RELATED_TILES}</body></html>')
    assert fields(plain)["price"] == "87.11"
    sale = plain.replace('<span class="price-item price-item--regular">$87.11</span>',
                         '<s class="price-item price-item--regular">$99.00</s>'
                         '<span class="price-item price-item--sale">$87.11</span>')
    out = fields(sale)
    assert (out["price"], out["regularPrice"]) == ("87.11", "99")


def test_an_unmarked_price_right_after_the_name_beats_related_tiles():
    # OpenCart's default theme prints the price in a bare <h2>
    html = ('<html><body><h1>Trail Runner</h1><ul><li>Brand: <a href="/b">Fleet</a></li></ul>'
            f'<ul><li><h2>$87.11</h2></li><li>Ex Tax: $72.00</li></ul>{RELATED_TILES}</body></html>')
    assert fields(html)["price"] == "87.11"


def test_bare_identifier_label_with_its_code_in_the_next_element():
    # Magento: <strong class="type">SKU</strong><div class="value">TR-100</div>
    html = ('<html><body><h1>Trail Runner</h1><div class="sku"><strong>SKU</strong>'
            '<div>TR-100</div></div></body></html>')
    assert fields(html)["sku"] == "TR-100"
    from scrapy_contentex.core.product import _identifier_pairs
    from scrapy_contentex.core.records import body_leaves

    doc = Document("<html><body><b>SKU</b><i>see the table</i><b>MPN</b><i>X-1</i></body></html>")
    assert _identifier_pairs(body_leaves(doc)) == [{"name": "MPN", "value": "X-1"}]  # a code has a digit


def test_brand_from_an_element_marked_as_the_products_brand_not_the_logo():
    html = ('<html><body><header><a class="navbar-brand" href="/">Example Shop</a></header>'
            '<h1>Trail Runner</h1><h2 class="productView-brand"><a href="/fleet"><span>Fleet</span></a></h2>'
            '<span class="price">$87.11</span></body></html>')
    assert fields(html)["brand"] == "Fleet"
    assert fields(html.replace("productView-brand", "productView-subtitle"))["brand"] is None


def test_the_products_heading_is_the_h1_the_title_names_not_a_banner():
    html = ('<html><head><title>Trail Runner | Example Shop</title></head><body>'
            '<h1>Holiday opening hours</h1><p><b>$5</b> off your first order</p>'
            '<div><h1>Trail Runner</h1><h2>$87.11</h2></div></body></html>')
    assert fields(html)["price"] == "87.11"


def test_a_crafted_url_costs_no_more_than_an_ordinary_one(best_of_three):
    """Every id-like token of the URL is looked for in the page's short texts: a
    URL of thousands of tokens must not multiply that work."""
    texts = "".join(f"<li>Item text {i}</li>" for i in range(2000))
    html = f"<html><body><h1>Lamp</h1><span class='price'>€12.00</span><ul>{texts}</ul></body></html>"
    crafted = "https://shop.example.com/p/" + "/".join(f"item{i:05d}x" for i in range(3000))
    ordinary = best_of_three(lambda: fields(html, "https://shop.example.com/p/item00001x"))
    assert best_of_three(lambda: fields(html, crafted)) < 10 * ordinary


def test_a_cheaper_price_marked_as_reduced_after_the_normal_one_is_current():
    # the promotion price announced by its label after the plain one (Chinese shop panels)
    html = """<html lang="zh-CN"><body><h1>运动手环</h1>
    <dl><dt>价格</dt><dd><em>¥</em><span class="tm-price">299.00</span></dd></dl>
    <dl><dt>促销价</dt><dd><em>¥</em><span class="tm-price">249.00</span></dd></dl></body></html>"""
    out = fields(html)
    assert (out["price"], out["regularPrice"], out["currency"]) == ("249", "299", "CNY")
    # the reduced price named by its class after the normal one
    html = """<html lang="en"><body><h1>Bottle</h1><div class="price-regular price">$890</div>
    <div class="price-sale price">$690</div></body></html>"""
    out = fields(html)
    assert (out["price"], out["regularPrice"]) == ("690", "890")


def test_a_price_marked_as_reduced_does_not_replace_a_cheaper_or_distant_one():
    # a dearer "sale" price is another product's, not a reduction
    html = """<html><body><h1>Bottle</h1><span class="price">$19.00</span>
    <span class="sale-price">$25.00</span></body></html>"""
    assert fields(html)["price"] == "19"
    # a sale tile far below the product's own price is a related product's
    tiles = "".join(f"<p>Line {i} of the description.</p>" for i in range(20))
    html = f"""<html><body><h1>Bottle</h1><span class="price">$19.00</span>{tiles}
    <span class="sale-price">$9.00</span></body></html>"""
    assert fields(html)["price"] == "19"


def test_tags_in_brackets_around_the_title_name_are_not_the_name():
    html = """<html lang="ja"><head><title>【送料無料】ランニングシューズ : フリート公式ショップ</title></head>
    <body><span class="item_name"><b>ランニングシューズ</b></span><span class="price2">8,800円</span>
    </body></html>"""
    assert fields(html)["name"] == "ランニングシューズ"


# ---------------------------------------------------------------------------
# issue 15: description, labels as values, related rails, instalments, shown codes
# ---------------------------------------------------------------------------

SLOGAN = "Harbour Books: every book, every harbour. Free delivery over £20."


def _shop_page(main: str, head: str = "", title: str = "The Quiet Harbour | Harbour Books") -> str:
    return (f'<html lang="en"><head><title>{title}</title>'
            f'<meta name="description" content="{SLOGAN}">{head}</head><body>'
            '<div class="nav"><a href="/">Home</a><a href="/books">Books</a></div>'
            f'{main}<footer>Harbour Books 2024</footer></body></html>')


DESCRIBED = ("A lighthouse keeper's daughter inherits a failing boatyard and must decide whether "
             "to sell it or to rebuild the old wooden ketch her father never finished.")


def test_description_under_a_description_heading_not_the_slogan():
    page = _shop_page(f"""<h1>The Quiet Harbour</h1><p class="price_color">£28.34</p>
        <div id="product_description" class="sub-header"><h2>Product Description</h2></div>
        <p>{DESCRIBED}</p>
        <div class="sub-header"><h2>Product Information</h2></div>
        <table><tr><th>UPC</th><td>a897fe39b1053632</td></tr></table>""")
    out = fields(page)
    assert out["description"] == DESCRIBED  # the next section's heading ends it


def test_description_in_the_panel_a_tab_points_to():
    page = _shop_page(f"""<h1>The Quiet Harbour</h1><p class="price">£28.34</p>
        <ul class="tabs"><li><a href="#tab-description">Description</a></li>
        <li><a href="#tab-reviews">Reviews (0)</a></li></ul>
        <div id="tab-reviews"><p>There are no reviews yet.</p></div>
        <div id="tab-description"><h2>Description</h2><p>{DESCRIBED}</p></div>""")
    assert fields(page)["description"] == DESCRIBED


def test_structured_description_first():
    head = ('<script type="application/ld+json">{"@type": "Product", "name": "The Quiet Harbour", '
            '"description": "<p>From the <b>shop</b> data.</p>"}</script>')
    page = _shop_page(f"<h1>The Quiet Harbour</h1><h2>Description</h2><p>{DESCRIBED}</p>", head)
    assert fields(page)["description"] == "From the shop data."


def test_meta_description_only_when_it_names_the_product():
    bare = _shop_page('<h1>The Quiet Harbour</h1><p class="price">£28.34</p>')
    assert fields(bare)["description"] is None  # the slogan does not describe the book
    named = bare.replace(SLOGAN, "The Quiet Harbour, a novel of boats and grief, in paperback.")
    assert fields(named)["description"] == "The Quiet Harbour, a novel of boats and grief, in paperback."


def test_description_from_the_prose_after_the_heading():
    page = _shop_page(f"""<h1>The Quiet Harbour</h1><p class="price">£28.34</p>
        <p><a href="/x">Share</a></p><div class="copy"><p>{DESCRIBED} It is a slow, warm novel about craft,
        grief and the small town that raised her.</p></div>""")
    assert fields(page)["description"].startswith("A lighthouse keeper's daughter")


def test_no_label_is_ever_a_value():
    cases = [
        '<div><span>SKU:</span> <span>SKU:</span></div><div>Brand:</div><div>Category:</div>',
        '<ul><li>SKU:</li><li>Brand:</li><li>Category:</li><li>Tags:</li></ul>',
        '<table><tr><td>SKU</td><td>SKU:</td></tr><tr><td>Brand</td><td>:</td></tr></table>',
        '<dl><dt>SKU:</dt><dd></dd><dt>Model:</dt><dd>-</dd><dt>Brand</dt><dd>Brand:</dd></dl>',
        '<p>Item #</p><p>SKU:</p><p>Model #</p>',
        '<div class="product_meta"><span>SKU: <span class="sku">N/A</span></span></div>',
    ]
    for case in cases:
        out = fields(f'<html><body><h1>Lamp</h1><p class="price">$20</p>{case}</body></html>')
        assert (out["sku"], out["mpn"], out["brand"], out["gtin"]) == (None, None, None, None), case
    out = fields('<html><body><h1>Lamp</h1><p class="price">$20</p><p>SKU:</p><p>LP-2044</p>'
                 '<p>Brand: Lumo</p></body></html>')
    assert (out["sku"], out["brand"]) == ("LP-2044", "Lumo")
    # a brand whose name starts with an identifier word is no identifier
    out = fields('<html><body><h1>Headphones</h1><p class="price">$20</p><span>Skullcandy</span></body></html>')
    assert out["sku"] is None


def test_a_related_rail_before_the_product_does_not_give_its_price_or_stock():
    page = """<html><body><div class="recently-viewed"><h3>Recently viewed</h3>
      <div class="tile"><span class="price">£9.99</span><span>Out of stock</span></div></div>
      <h1>Oak Desk</h1><p>In stock (3 available)</p><p class="price">£399.00</p>
      <section class="related-products"><div class="price">£12.00</div></section></body></html>"""
    out = fields(page)
    assert (out["price"], out["availability"]) == ("399", "InStock")


def test_an_instalment_is_not_the_price():
    page = """<html><body><h1>Sofa</h1>
      <div class="installments"><span class="price">12x de R$ 24,90</span></div>
      <p class="price-box"><span class="price">R$ 299,90</span></p></body></html>"""
    assert Decimal(fields(page, "https://loja.example.com.br/sofa")["price"]) == Decimal("299.90")
    monthly = """<html><body><h1>Phone</h1><p><span class="price">$48.75</span><span>/mo</span></p>
      <p><span class="price">$1,170.00</span></p></body></html>"""
    assert Decimal(fields(monthly)["price"]) == Decimal("1170")


def test_a_declared_sku_the_page_never_shows_gives_way_to_the_shown_code():
    head = ('<script type="application/ld+json">{"@type": "Product", "name": "Retro Console", '
            '"sku": "MKI6IKW1N4-1", "offers": {"price": "24.99", "priceCurrency": "USD"}}</script>')
    page = (f'<html><head>{head}</head><body><h1>Retro Console</h1>'
            '<p class="price">$24.99</p><p class="product-sku">SKU MKI6IKW1N4</p></body></html>')
    assert fields(page)["sku"] == "MKI6IKW1N4"
    shown = page.replace("SKU MKI6IKW1N4", "SKU MKI6IKW1N4-1")
    assert fields(shown)["sku"] == "MKI6IKW1N4-1"  # shown: the declared one stands
    # a declared sku that is only the URL's number gives way to the code shown under a label
    by_url = page.replace("MKI6IKW1N4-1", "4811823").replace("SKU MKI6IKW1N4", "Item # TR-100 <span>4811823</span>")
    assert fields(by_url, "https://shop.example.com/p/4811823")["sku"] == "TR-100"


def test_folded_pattern_finds_what_re_i_finds():
    """The lower-case twin gives re.I's matches on ASCII text and defers to re.I on the rest."""
    import re

    import pytest

    from scrapy_contentex.core.shop_words import FoldedPattern

    pattern = r"related|cross-?sell|also-?(?:bought|viewed)|(?:^|[\s_-])hidden(?:$|[\s_-])"
    folded, reference = FoldedPattern(pattern), re.compile(pattern, re.I)
    for text in ("product RELATED-items", "Cross-Sell", "crosssell", "AlsoViewed", "is-Hidden x",
                 "unhidden", "plain", "", "rel\u017eated", "Cro\u017fs-sell", "\u017fimilar HIDDEN"):
        want, got = reference.search(text), folded.search(text)
        assert (got and got.span()) == (want and want.span()), text
    with pytest.raises(ValueError):
        FoldedPattern("Related")


def test_every_description_heading_is_found_standing_alone():
    """The heading scan's first-letter lookahead lets every heading name through,
    with the blanks, bullets and counts around it, and skips texts that only hold one."""
    from scrapy_contentex.core.description import _HEADINGS, _heading_leaves

    for name in sorted(_HEADINGS) + ["about this item"]:
        leaves = ["Home", f" • {name.title()} (3):", f"{name} and more words", "End"]
        assert [(leaf, label) for leaf, label in _heading_leaves(leaves)] == [(leaves[1], name)], name


def test_own_text_of_a_long_element_is_the_start_of_its_collapsed_text():
    """Only the head of a long text is collapsed when it gives 200 characters; same answer as the whole."""
    import random

    from scrapy_contentex.core.document import parse_html
    from scrapy_contentex.core.lang import normalize_space
    from scrapy_contentex.core.product import _own_text

    rnd = random.Random(5)
    pieces = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "price", "99,90", "€", "字"]
    for size in (0, 150, 999, 1000, 1001, 1300, 5000):
        for _ in range(30):
            words = []
            while sum(map(len, words)) < size:
                words.append(rnd.choice(pieces))
            # mostly blanks up front, so the head alone can fall short of 200 characters
            text = " " * rnd.choice((0, 900, 990)) + "".join(words)
            el = parse_html(f"<html><body><div class='price'>{text}</div></body></html>").find(".//div")
            assert _own_text(el) == normalize_space(el.text_content())[:200]
