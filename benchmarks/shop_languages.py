"""Product reading in many languages and shop-platform templates, on pages this script writes.

    python -m benchmarks.shop_languages [--verbose]

The datasets hold one page per shop and few languages; the shops a crawl
meets write their labels, stock statements, cart buttons and prices in
dozens. Each case below is one fact written the way shops in that language
write it, inside the same small page; the table counts the cases the product
extractor reads right. These pages are ours (no dataset content), so the
script runs anywhere, and it says nothing about real pages' layouts: the
dataset benchmarks do that. The platform rows put the default product
markup of seven shop systems (as their themes print it) between a menu,
related-product tiles and a footer.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from benchmarks.common import print_table
from scrapy_contentex import extract_product

URL = "https://shop.example.com/p/1"

BRAND_LABELS = (
    "Brand", "Marca", "Marque", "Marke", "Merk", "Značka", "Marka", "Márka", "Бренд", "Марка",
    "Thương hiệu", "Merek", "Μάρκα", "Marchio", "Märke", "Merkki", "Mærke", "品牌", "ブランド", "브랜드",
    "العلامة التجارية", "מותג", "Hersteller", "Fabricant", "Fabricante", "Producent", "Výrobce",
    "Производитель", "Gyártó", "Valmistaja", "制造商", "メーカー", "제조사",
)
SKU_LABELS = (
    "SKU", "Artikelnummer", "Référence", "Referencia", "Código", "Codice articolo", "Kod produktu",
    "Kód produktu", "Artikelnr.", "Артикул", "Cikkszám", "Tuotenumero", "Varenummer", "Ürün kodu",
    "Mã sản phẩm", "Kode produk", "商品编号", "品番", "상품번호", "رمز المنتج", 'מק"ט',
)
GTIN_LABELS = (
    "EAN", "GTIN", "UPC", "EAN-13", "Barcode", "Código de barras", "Strichcode", "Штрихкод", "JAN",
    "条形码", "바코드",
)
STOCK_TEXTS = (
    ("en", "Out of stock", "OutOfStock"), ("en", "Only 3 left in stock", "InStock"),
    ("de", "Nicht auf Lager", "OutOfStock"), ("de", "Auf Lager", "InStock"),
    ("nl", "Uitverkocht", "OutOfStock"), ("nl", "Niet op voorraad", "OutOfStock"),
    ("cs", "Vyprodáno", "OutOfStock"), ("cs", "Není skladem", "OutOfStock"),
    ("sk", "Na sklade", "InStock"), ("sk", "Nie je na sklade", "OutOfStock"),
    ("zh-TW", "已售完", "OutOfStock"), ("zh-TW", "補貨中", "OutOfStock"), ("zh-TW", "有現貨", "InStock"),
    ("ko", "재고 있음", "InStock"), ("ko", "품절", "OutOfStock"), ("ja", "在庫切れ", "OutOfStock"),
    ("sv", "I lager", "InStock"), ("sv", "Slutsåld", "OutOfStock"), ("da", "Udsolgt", "OutOfStock"),
    ("da", "Ikke på lager", "OutOfStock"), ("no", "Utsolgt", "OutOfStock"),
    ("fi", "Loppuunmyyty", "OutOfStock"), ("tr", "Stokta var", "InStock"), ("tr", "Tükendi", "OutOfStock"),
    ("tr", "Stokta yok", "OutOfStock"), ("hu", "Elfogyott", "OutOfStock"), ("el", "Εξαντλήθηκε", "OutOfStock"),
    ("el", "Μη διαθέσιμο", "OutOfStock"), ("uk", "Немає в наявності", "OutOfStock"),
    ("vi", "Hết hàng", "OutOfStock"), ("vi", "Còn hàng", "InStock"), ("th", "สินค้าหมด", "OutOfStock"),
    ("id", "Stok habis", "OutOfStock"), ("id", "Tersedia", "InStock"), ("id", "Tidak tersedia", "OutOfStock"),
    ("ar", "غير متوفر", "OutOfStock"), ("ar", "متوفر", "InStock"), ("he", "אזל מהמלאי", "OutOfStock"),
)
CART_LABELS = (
    "Add to basket", "In den Warenkorb", "Ajouter au panier", "Añadir a la cesta", "Comprar",
    "Aggiungi al carrello", "Toevoegen aan winkelwagen", "In winkelmand", "Lägg i varukorgen",
    "Læg i kurv", "Legg i handlekurv", "Lisää ostoskoriin", "Vložit do košíku", "Dodaj do koszyka",
    "Kosárba", "Adaugă în coș", "Sepete ekle", "В корзину", "Купить", "Додати в кошик",
    "Προσθήκη στο καλάθι", "Thêm vào giỏ hàng", "Mua ngay", "Tambah ke keranjang", "Beli sekarang",
    "أضف إلى السلة", "הוסף לסל", "加入购物车", "立即购买", "カートに入れる", "今すぐ買う", "장바구니 담기",
    "바로 구매", "Adicionar ao carrinho", "Köp", "Osta", "Kupi", "Naroči",
)
NOT_CART = ("Warenkorb (0)", "Košarica", "장바구니", "Winkelwagen", "Wie kaufen?", "Cómo comprar online")
PRICE_LABELS = (
    ("en", "Price:", "$12.99", "12.99"), ("de", "Preis:", "12,99 €", "12.99"), ("nl", "Prijs:", "€ 12,99", "12.99"),
    ("sv", "Pris:", "129 kr", "129"), ("fi", "Hinta:", "12,99 €", "12.99"), ("cs", "Cena:", "299 Kč", "299"),
    ("hu", "Ár:", "12 990 Ft", "12990"), ("tr", "Fiyat:", "1.299,90 TL", "1299.90"),
    ("vi", "Giá:", "1.290.000₫", "1290000"), ("id", "Harga:", "Rp 129.000", "129000"),
    ("el", "Τιμή:", "12,99 €", "12.99"), ("ar", "السعر:", "129 ر.س", "129"), ("he", "מחיר:", "₪129.90", "129.90"),
    ("uk", "Ціна:", "1 299 грн", "1299"), ("ro", "Preț:", "129,99 lei", "129.99"), ("zh", "价格：", "¥99", "99"),
    ("ja", "価格：", "1,980円", "1980"), ("ko", "판매가", "29,900원", "29900"),
)
CURRENCIES = (
    ("pl", "1 299,00 zł", "PLN"), ("cs", "2 490 Kč", "CZK"), ("de-CH", "CHF 129.90", "CHF"), ("hi", "₹1,299", "INR"),
    ("pt-BR", "R$ 1.299,90", "BRL"), ("ja", "1,980円", "JPY"), ("ko", "29,900원", "KRW"), ("ru", "1 290 ₽", "RUB"),
    ("tr", "1.299,90 TL", "TRY"), ("vi", "1.290.000₫", "VND"), ("th", "฿1,290", "THB"), ("id", "Rp 129.000", "IDR"),
    ("he", "₪129.90", "ILS"), ("es-MX", "$1,299.00 MXN", "MXN"), ("es-MX", "$1,299.00", "MXN"), ("sv", "1 299 kr", "SEK"),
    ("da", "1.299,00 kr.", "DKK"), ("uk", "1 299 грн", "UAH"), ("ro", "129,99 lei", "RON"), ("hu", "12 990 Ft", "HUF"),
    ("en-ZA", "R 1,299.00", "ZAR"), ("ar-SA", "129 ر.س", "SAR"), ("ar-EG", "129 EGP", "EGP"), ("zh-TW", "NT$1,290", "TWD"),
    ("zh-TW", "$1,290", "TWD"), ("en-AU", "A$129", "AUD"), ("en", "$12.99", "USD"),
)
SPEC_ROWS = (
    ("en", ("Brand", "Colour", "Size", "Material")), ("tr", ("Marka", "Renk", "Beden", "Malzeme")),
    ("vi", ("Thương hiệu", "Màu sắc", "Kích thước", "Chất liệu")), ("pl", ("Marka", "Kolor", "Rozmiar", "Materiał")),
    ("el", ("Μάρκα", "Χρώμα", "Μέγεθος", "Υλικό")), ("nl", ("Merk", "Kleur", "Maat", "Materiaal")),
    ("fi", ("Merkki", "Väri", "Koko", "Materiaali")), ("id", ("Merek", "Warna", "Ukuran", "Bahan")),
)
# (language, cart label, stock text, price, spec rows, a sentence of news prose)
KIND_PAGES = (
    ("vi", "Thêm vào giỏ hàng", "Còn hàng", "1.290.000₫", ("Thương hiệu", "Màu sắc", "Kích thước"),
     "Cuộc họp lần này có nhiều người tham gia đến từ nhiều quốc gia, và đã thảo luận về kinh tế. "),
    ("tr", "Sepete ekle", "Stokta var", "1.299,90 TL", ("Marka", "Renk", "Beden"),
     "Toplantıya birçok ülkeden çok sayıda katılımcı katıldı ve bölgenin ekonomisi tartışıldı. "),
    ("pl", "Dodaj do koszyka", "Dostępny", "129,99 zł", ("Marka", "Kolor", "Rozmiar"),
     "W spotkaniu wzięło udział wielu uczestników z różnych krajów, rozmawiano o gospodarce. "),
    ("ar", "أضف إلى السلة", "متوفر", "129 ر.س", ("العلامة التجارية", "اللون", "المقاس"),
     "حضر الاجتماع عدد كبير من المشاركين من دول عديدة، وتمت مناقشة اقتصاد المنطقة. "),
    ("el", "Προσθήκη στο καλάθι", "Διαθέσιμο", "12,99 €", ("Μάρκα", "Χρώμα", "Μέγεθος"),
     "Στη συνάντηση συμμετείχαν πολλοί από διάφορες χώρες και συζητήθηκε η οικονομία. "),
    ("id", "Tambah ke keranjang", "Tersedia", "Rp 129.000", ("Merek", "Warna", "Ukuran"),
     "Pertemuan ini dihadiri banyak peserta dari berbagai negara dan membahas ekonomi kawasan. "),
    ("nl", "In winkelwagen", "Op voorraad", "€ 12,99", ("Merk", "Kleur", "Maat"),
     "Aan de bijeenkomst namen veel deelnemers uit verschillende landen deel, over de economie. "),
    ("sv", "Lägg i varukorgen", "I lager", "129 kr", ("Märke", "Färg", "Storlek"),
     "Mötet samlade många deltagare från flera länder och diskuterade regionens ekonomi. "),
)


# The product block of seven shop systems' default themes, written from their
# public theme markup; each sells the same shoe. Around it: menu, tiles, footer.
_PLATFORM_NAV = ('<header><nav><ul>' + "".join(f'<li><a href="/c/{i}">Category {i}</a></li>' for i in range(12))
                 + '</ul></nav><div class="cart"><a href="/cart">Cart (0)</a></div></header>')
_PLATFORM_FOOT = ('<footer><ul><li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul>'
                  '<p>Customer service: Mon-Fri 9:00-17:00</p><p>© 2024 Example Shop</p></footer>')
_PLATFORM_TILES = ('<section class="related"><h2>Related products</h2>' + "".join(
    f'<div class="product-tile"><a href="/p/{i}">Other item {i}</a><span class="price">$1{i}.00</span></div>'
    for i in range(6)) + '</section>')
PLATFORM_BLOCKS = {
    "woocommerce": (
        '<div class="product"><h1 class="product_title entry-title">Trail Runner</h1>'
        '<p class="price"><span class="woocommerce-Price-amount amount"><bdi>'
        '<span class="woocommerce-Price-currencySymbol">$</span>87.11</bdi></span></p>'
        '<p class="stock in-stock">12 in stock</p><form class="cart">'
        '<button type="submit" name="add-to-cart" class="single_add_to_cart_button button alt">Add to cart</button>'
        '</form><div class="product_meta">'
        '<span class="sku_wrapper">SKU: <span class="sku">TR-100</span></span>'
        '<span class="posted_in">Category: <a href="/c/shoes">Shoes</a></span></div>'
        '<div class="woocommerce-tabs">'
        '<table class="woocommerce-product-attributes shop_attributes">'
        '<tr class="woocommerce-product-attributes-item">'
        '<th class="woocommerce-product-attributes-item__label">Weight</th>'
        '<td class="woocommerce-product-attributes-item__value">0.8 kg</td></tr><tr>'
        '<th>Color</th><td><p>Blue, Red</p></td></tr><tr><th>Size</th><td><p>40, 41, 42</p></td>'
        '</tr></table></div></div>'
    ),
    "magento": (
        '<div class="product-info-main"><h1 class="page-title">'
        '<span class="base">Trail Runner</span></h1><div class="product-info-price">'
        '<span class="price-wrapper"><span class="price">$87.11</span></span></div>'
        '<div class="product-info-stock-sku"><div class="stock available"><span>In stock</span>'
        '</div><div class="product attribute sku"><strong class="type">SKU</strong>'
        '<div class="value">TR-100</div></div></div>'
        '<button id="product-addtocart-button" class="action primary tocart">Add to Cart</button>'
        '</div><div class="additional-attributes-wrapper table-wrapper">'
        '<table class="data table additional-attributes" id="product-attribute-specs-table">'
        '<tbody><tr><th class="col label" scope="row">Brand</th><td class="col data">Fleet</td>'
        '</tr><tr><th class="col label">Material</th><td class="col data">Mesh</td></tr><tr>'
        '<th class="col label">Color</th><td class="col data">Blue</td></tr></tbody></table>'
        '</div>'
    ),
    "prestashop": (
        '<div class="product-container"><h1 class="h1">Trail Runner</h1>'
        '<div class="product-prices"><div class="current-price">'
        '<span class="price">87,11 €</span></div></div><div class="product-add-to-cart">'
        '<button class="btn btn-primary add-to-cart">Ajouter au panier</button>'
        '<span id="product-availability">En stock</span></div><section class="product-features">'
        '<p class="h6">Fiche technique</p><dl class="data-sheet">'
        '<dt class="name">Composition</dt><dd class="value">Coton</dd>'
        '<dt class="name">Couleur</dt><dd class="value">Bleu</dd><dt class="name">Taille</dt>'
        '<dd class="value">M</dd></dl></section><div class="product-reference">'
        '<label class="label">Référence </label><span>TR-100</span></div></div>'
    ),
    "opencart": (
        '<div id="product-product"><h1>Trail Runner</h1><ul class="list-unstyled">'
        '<li>Brand: <a href="/b/fleet">Fleet</a></li><li>Product Code: TR-100</li>'
        '<li>Availability: In Stock</li></ul><ul class="list-unstyled"><li><h2>$87.11</h2></li>'
        '<li>Ex Tax: $72.00</li></ul>'
        '<button type="button" id="button-cart" class="btn btn-primary">Add to Cart</button>'
        '<div class="tab-pane" id="tab-specification"><table class="table table-bordered"><thead>'
        '<tr><td colspan="2"><strong>Specs</strong></td></tr></thead><tbody><tr><td>Weight</td>'
        '<td>0.8 kg</td></tr><tr><td>Material</td><td>Mesh</td></tr></tbody></table></div></div>'
    ),
    "shopify": (
        '<div class="product__info-wrapper">'
        '<p class="product__text caption-with-letter-spacing">Fleet</p><h1>Trail Runner</h1>'
        '<div class="price"><span class="price-item price-item--regular">$87.11</span></div>'
        '<form action="/cart/add">'
        '<button type="submit" name="add" class="product-form__submit">Add to cart</button>'
        '</form><div class="product__description rte"><ul><li>'
        '<strong>Material:</strong> Mesh upper</li><li><strong>Weight:</strong> 0.8 kg</li><li>'
        '<strong>Drop:</strong> 8 mm</li></ul></div></div>'
    ),
    "bigcommerce": (
        '<section class="productView-details"><h1 class="productView-title">Trail Runner</h1>'
        '<h2 class="productView-brand"><a href="/fleet/"><span>Fleet</span></a></h2>'
        '<div class="productView-price"><span class="price price--withoutTax">$87.11</span></div>'
        '<dl class="productView-info"><dt class="productView-info-name">SKU:</dt>'
        '<dd class="productView-info-value">TR-100</dd>'
        '<dt class="productView-info-name">Weight:</dt>'
        '<dd class="productView-info-value">0.80 KGS</dd>'
        '<dt class="productView-info-name">Shipping:</dt>'
        '<dd class="productView-info-value">Calculated at Checkout</dd></dl>'
        '<input id="form-action-addToCart" type="submit" class="button button--primary" value="Add to Cart">'
        '</section>'
    ),
    "shopware": (
        '<div class="product-detail"><h1 class="product-detail-name">Trail Runner</h1>'
        '<div class="product-detail-price-container"><p class="product-detail-price">87,11 €*</p>'
        '</div><div class="product-detail-delivery-information">'
        '<p class="delivery-information delivery-available">Sofort verfügbar</p></div>'
        '<button class="btn btn-primary btn-buy">In den Warenkorb</button>'
        '<div class="product-detail-ordernumber-container">'
        '<span class="product-detail-ordernumber-label">Produktnummer:</span>'
        '<span class="product-detail-ordernumber">TR-100</span></div>'
        '<div class="product-detail-properties">'
        '<table class="table product-detail-properties-table"><tr class="properties-row">'
        '<th class="properties-label">Material:</th><td class="properties-value">'
        '<span>Mesh</span></td></tr><tr class="properties-row">'
        '<th class="properties-label">Farbe:</th><td class="properties-value"><span>Blau</span>'
        '</td></tr></table></div></div>'
    ),
}
# What each system's block shows (brand and sku only where its theme prints them).
PLATFORM_FACTS = {
    "woocommerce": {"sku": "TR-100"}, "magento": {"sku": "TR-100", "brand": "Fleet"},
    "prestashop": {"sku": "TR-100"}, "opencart": {"sku": "TR-100", "brand": "Fleet"},
    "shopify": {}, "bigcommerce": {"sku": "TR-100", "brand": "Fleet"}, "shopware": {"sku": "TR-100"},
}


def _page(lang: str, body: str) -> str:
    return (f'<html lang="{lang}"><head><title>Widget</title></head><body>'
            f'<nav><a href="/">Home</a> <a href="/c">Shop</a></nav><h1>Widget</h1>{body}'
            "<footer><p>Hotline: 0850 000 00 00</p></footer></body></html>")


def _table(label: str, value: str) -> str:
    rows = (("Colour", "Red"), ("Weight", "2 kg"), (label, value), ("Size", "M"))
    return '<span class="price">€9.99</span><table>' + "".join(
        f"<tr><td>{n}</td><td>{v}</td></tr>" for n, v in rows) + "</table>"


def cases() -> dict[str, list[tuple[str, Callable[[], bool]]]]:
    """Check name -> [(case label, check)]; a check runs the extractor on one page."""
    def field_is(html: str, field: str, want) -> Callable[[], bool]:
        return lambda: getattr(extract_product(html, URL), field) == want

    def kind_is_product(label: str) -> Callable[[], bool]:
        from scrapy_contentex.core.document import Document
        from scrapy_contentex.core.kind import guess_kind
        html = _page("en", f'<span class="price-new">49,90 €</span><a href="#buy" class="btn">{label}</a>')
        return lambda: guess_kind(Document(html, URL)) == "product"

    def rows_read(lang: str, names: tuple[str, ...]) -> Callable[[], bool]:
        specs = "".join(f'<div class="row"><span>{n}</span><span>v{i}</span></div>' for i, n in enumerate(names))
        html = _page(lang, f'<div class="specs">{specs}</div>')

        def check() -> bool:
            item = extract_product(html, URL)
            return [p["name"] for p in item.additionalProperties] == list(names) and item.brand == "v0"
        return check

    def kind_is(html: str, want: str) -> Callable[[], bool]:
        from scrapy_contentex.core.document import Document
        from scrapy_contentex.core.kind import guess_kind
        return lambda: guess_kind(Document(html, URL)) == want

    def shop_page(lang: str, cart: str, stock: str, price: str, names: tuple[str, ...]) -> str:
        rows = "".join(f"<tr><td>{n}</td><td>v{i}</td></tr>" for i, n in enumerate(names))
        return _page(lang, f'<span class="price">{price}</span><p>{stock}</p><button>{cart}</button>'
                           f"<table>{rows}</table>")

    def news_page(lang: str, prose: str) -> str:
        return _page(lang, "".join(f"<p>{prose * 4}</p>" for _ in range(5)))

    def platform_cases() -> list[tuple[str, Callable[[], bool]]]:
        out = []
        for system, block in PLATFORM_BLOCKS.items():
            html = (f"<html><head><title>Trail Runner | Example Shop</title></head><body>{_PLATFORM_NAV}"
                    f"<main>{block}</main>{_PLATFORM_TILES}{_PLATFORM_FOOT}</body></html>")
            facts = {"name": "Trail Runner", "price": "87.11", "availability": "InStock",
                     **PLATFORM_FACTS[system]}
            out += [(f"{system} {key}", field_is(html, key, value)) for key, value in facts.items()]
        return out

    return {
        "shop-system templates": platform_cases(),
        "kind guess: shop and news pages": [
            (f"{lang} shop", kind_is(shop_page(lang, cart, stock, price, names), "product"))
            for lang, cart, stock, price, names, _ in KIND_PAGES
        ] + [(f"{lang} news", kind_is(news_page(lang, prose), "article"))
             for lang, _, _, _, _, prose in KIND_PAGES],
        "brand labels": [(lab, field_is(_page("en", _table(lab, "Acme")), "brand", "Acme")) for lab in BRAND_LABELS],
        "sku labels": [(lab, field_is(_page("en", _table(lab, "AB-1234")), "sku", "AB-1234")) for lab in SKU_LABELS],
        "gtin labels": [(lab, field_is(_page("en", _table(lab, "4006381333931")), "gtin", "4006381333931"))
                        for lab in GTIN_LABELS],
        "stock statements": [(f"{lang} {text}", field_is(_page(lang, f'<p class="stock">{text}</p>'),
                                                        "availability", want))
                             for lang, text, want in STOCK_TEXTS],
        "cart labels (kind guess)": [(lab, kind_is_product(lab)) for lab in CART_LABELS]
        + [(f"not: {text}", lambda text=text: not kind_is_product(text)()) for text in NOT_CART],
        "label-announced prices": [
            (f"{lang} {lab}", field_is(_page(lang, f"<div><span>{lab}</span><span>{shown}</span></div>"),
                                       "price", want))
            for lang, lab, shown, want in PRICE_LABELS],
        "currencies": [
            (f"{lang} {shown}", field_is(_page(lang, f'<span class="price">{shown}</span>'), "currency", want))
            for lang, shown, want in CURRENCIES],
        "div spec rows, no delimiters": [(lang, rows_read(lang, names)) for lang, names in SPEC_ROWS],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list the cases read wrong")
    args = parser.parse_args(argv)
    rows = []
    total = right_total = 0
    for name, checks in cases().items():
        wrong = [label for label, check in checks if not check()]
        right = len(checks) - len(wrong)
        rows.append([name, len(checks), right, right / len(checks)])
        total += len(checks)
        right_total += right
        if args.verbose and wrong:
            print(f"{name}: wrong: {', '.join(wrong)}")
    rows.append(["all", total, right_total, right_total / total])
    print_table(["check", "cases", "right", "share"], rows,
                title="Product facts written as shops in many languages write them (synthetic pages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
