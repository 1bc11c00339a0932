"""Article or product."""

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.kind import guess_kind, product_evidence

PROSE_EN = " ".join(
    ["The council met on Tuesday evening, and after a long debate, it voted to keep the library open."]
    * 12
)
PROSE_ZH = "市议会周二晚上召开会议，经过长时间的讨论，决定继续开放图书馆。" * 20

ARTICLE_LD = f"""<html><head><script type="application/ld+json">
{{"@type": "NewsArticle", "headline": "Library stays open"}}</script></head>
<body><h1>Library stays open</h1><p>{PROSE_EN}</p><p>{PROSE_EN}</p></body></html>"""

PRODUCT_LD = """<html><head><script type="application/ld+json">
{"@type": "Product", "name": "Mug", "offers": {"@type": "Offer", "price": "5"}}</script></head>
<body><h1>Mug</h1><span class="price">$5.00</span></body></html>"""

ZH_ARTICLE = f"""<html><head><title>图书馆继续开放</title></head><body><h1>图书馆继续开放</h1>
<p>{PROSE_ZH}</p><p>{PROSE_ZH}</p><div class="ad"><a href="/shop">立即购买</a></div></body></html>"""

ZH_SHOP = """<html><head><title>青瓷茶杯</title></head><body><h1>青瓷茶杯</h1>
<p class="price">售价：¥128.00</p><p>库存：有货</p>
<ul><li>品牌：龙泉窑</li><li>型号：QC-01</li><li>材质：陶瓷</li></ul>
<button>加入购物车</button></body></html>"""

FORUM = f"""<html><head><script type="application/ld+json">
{{"@type": "DiscussionForumPosting", "headline": "Help"}}</script></head><body>
<div class="post"><p>{PROSE_EN}</p></div><div class="reply"><p>{PROSE_EN}</p></div>
<a class="banner" href="/pro">Buy now</a></body></html>"""


def kind(html):
    return guess_kind(Document(html, None))


def test_structured_types_decide():
    assert kind(ARTICLE_LD) == "article"
    assert kind(PRODUCT_LD) == "product"
    assert kind(FORUM) == "article"


def test_opengraph_product_type():
    html = """<html><head><meta property="og:type" content="product"></head>
    <body><h1>Mug</h1><span class="price">€5,00</span></body></html>"""
    assert kind(html) == "product"


def test_chinese_shop_without_structured_data():
    assert kind(ZH_SHOP) == "product"
    score, kinds = product_evidence(Document(ZH_SHOP))
    assert score > 1 and kinds >= 3


def test_chinese_article_with_a_buy_banner_stays_article():
    assert kind(ZH_ARTICLE) == "article"


def test_one_signal_is_not_enough():
    html = f"<html><body><h1>News</h1><p>{PROSE_EN}</p><button>Add to cart</button></body></html>"
    assert kind(html) == "article"


def test_empty_page_defaults_to_article():
    assert kind("<html><body></body></html>") == "article"


def test_record_area_counts_as_shop_evidence():
    html = """<html><body><h1>Oak Desk</h1><p>Our price: £399</p>
    <ul><li>Brand: Woodline</li><li>Material: Oak</li><li>Weight: 32 kg</li>
    <li>Dimensions: 120 x 60 cm</li><li>Color: Natural</li></ul></body></html>"""
    assert kind(html) == "product"


def test_book_page_without_a_price_is_a_product_by_its_record():
    page = ("<html><head><title>Wildlife of Britain | Book Depot</title></head><body>"
            "<nav><a href='/'>Home</a><a href='/cat'>Categories</a></nav><main><h1>Wildlife of Britain</h1>"
            "<p>By <a href='/a/g'>George Monbiot</a></p><dl><dt>Format</dt><dd>Hardback | 320 pages</dd>"
            "<dt>Publication date</dt><dd>01 Jun 2012</dd><dt>Publisher</dt><dd>Dorling Kindersley</dd>"
            "<dt>ISBN13</dt><dd>9781405390583</dd></dl></main></body></html>")
    assert guess_kind(Document(page)) == "product"


def test_record_page_is_one_product_not_a_list_of_labelled_tiles():
    from scrapy_contentex.core.kind import record_page

    menu = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(40))
    tiles = "".join(
        f"<div class='tile'><a href='/p/{i}'>Kettle model {i}</a><ul><li>Brand: Campco</li>"
        f"<li>Color: Red</li><li>Size: {i} L</li><li>Price: ${i}.99</li></ul><button>Add to cart</button></div>"
        for i in range(24))
    listing = f"<html><body><nav><ul>{menu}</ul></nav><h1>Kettles</h1>{tiles}</body></html>"
    detail = (f"<html><body><nav><ul>{menu}</ul></nav><h1>Trail Kettle</h1><p class='price'>$39.99</p>"
              "<button class='add-to-cart'>Add to cart</button><ul><li>Brand: Campco</li>"
              "<li>Material: Titanium</li><li>Weight: 180 g</li><li>Capacity: 1.2 L</li></ul></body></html>")
    assert not record_page(Document(listing))
    assert record_page(Document(detail))


def test_opencart_button_cart_is_an_add_to_cart_button():
    # OpenCart names its button "button-cart" and labels it in the shop's language
    page = ('<html><body><h1>Potapljaška maska</h1><span class="price-new">49,90 €</span>'
            '<button type="button" id="button-cart" class="btn">V redu</button></body></html>')
    assert guess_kind(Document(page)) == "product"
    assert guess_kind(Document(page.replace("button-cart", "button-search"))) == "article"


def test_cart_buttons_in_many_languages_but_not_the_cart_link():
    from scrapy_contentex.core.shop_words import CART_RE as _CART_RE

    for label in ("Add to basket", "In den Warenkorb", "Añadir a la cesta", "Toevoegen aan winkelwagen",
                  "Lägg i varukorgen", "Læg i kurv", "Lisää ostoskoriin", "Vložit do košíku",
                  "Dodaj do koszyka", "Sepete ekle", "Додати в кошик", "Προσθήκη στο καλάθι",
                  "Thêm vào giỏ hàng", "Tambah ke keranjang", "أضف إلى السلة", "הוסף לסל",
                  "今すぐ買う", "장바구니 담기", "Comprar", "Купить", "Kupi", "Naroči"):
        assert _CART_RE.search(label.lower()), label
    # the cart link every shop page heads with, and menu texts that name buying
    for text in ("Warenkorb (0)", "Košarica", "장바구니", "Winkelwagen", "Wie kaufen?",
                 "Cómo comprar online"):
        assert not _CART_RE.search(text.lower()), text
