"""The words shops write: stock statements, add-to-cart labels, field labels, price labels.

One place for the vocabulary the product extractor and the kind guess both
read, so a language added here counts in both. Everything is lower case and
matched against lower-cased text (``re.I`` on big alternations is slow).
"""

from __future__ import annotations

import re


class FoldedPattern:
    """A case-insensitive pattern written in lower case, searched fast.

    ``re.I`` on an alternation of words makes the regex engine try every
    word at every position (about 50 µs on a long class attribute, the
    bulk of the rail and price-element tests on some pages); a
    case-sensitive twin on the lower-cased text skips most positions. For
    ASCII text the two find the same matches; other text goes to the
    ``re.I`` pattern, whose Unicode case folding ("ſ" for "s") stays exact.
    """

    def __init__(self, pattern: str) -> None:
        if pattern != pattern.lower():
            raise ValueError("write the pattern in lower case")
        self.pattern = pattern
        self._lower = re.compile(pattern)
        self._folded = re.compile(pattern, re.I)

    def search(self, text: str) -> re.Match | None:
        if text.isascii():
            return self._lower.search(text.lower())
        return self._folded.search(text)

# schema.org ItemAvailability, all nine values, and the codes shops write
IN_STOCK_SCHEMA = {"instock", "instoreonly", "onlineonly", "limitedavailability", "preorder",
                   "presale", "backorder", "madetoorder", "in stock", "available"}
OUT_STOCK_SCHEMA = {"outofstock", "soldout", "discontinued", "reserved", "out of stock",
                    "unavailable", "oos", "out_of_stock"}

# Visible stock phrases. Out-of-stock phrases are checked first: "not available"
# contains "available".
OUT_PHRASES = (
    "out of stock", "sold out", "currently unavailable", "not available", "unavailable",
    "no longer available", "temporarily out of stock", "无货", "缺货", "已售罄", "售罄", "已下架",
    "暂时缺货", "到货通知", "nicht verfügbar", "nicht lieferbar", "ausverkauft",
    "derzeit nicht", "rupture de stock", "épuisé", "indisponible", "agotado",
    "sin stock", "no disponible", "esgotado", "indisponível", "esaurito",
    "non disponibile", "niedostępny", "brak w magazynie", "nedostupné", "vypredané",
    "nema na zalihi", "rasprodano", "stoc epuizat", "нет в наличии", "품절", "在庫切れ",
    "売り切れ", "品切れ",
    # negated in-stock phrases come before their positive part ("nicht auf lager")
    "not in stock", "temporarily unavailable", "nicht auf lager", "niet op voorraad", "uitverkocht",
    "není skladem", "vyprodáno", "nie je na sklade", "nie je skladom", "brak towaru",
    "fora de estoque", "sem estoque", "no hay stock", "slutsåld", "slut i lager", "ikke på lager",
    "ikke på lager", "udsolgt", "utsolgt", "loppuunmyyty", "ei varastossa", "ei saatavilla",
    "tükendi", "stokta yok", "elfogyott", "nincs raktáron", "εξαντλήθηκε", "μη διαθέσιμο",
    "немає в наявності", "нет на складе", "hết hàng", "สินค้าหมด", "stok habis", "tidak tersedia",
    "غير متوفر", "نفذت الكمية", "אזל מהמלאי", "已售完", "售完", "缺貨", "無貨", "暫時缺貨", "補貨中",
    "재고 없음", "일시품절", "在庫なし", "完売",
)
IN_PHRASES = (
    "in stock", "available now", "available to ship", "ships today", "有货", "现货",
    "库存充足", "auf lager", "lieferbar", "sofort verfügbar", "en stock", "disponible",
    "en existencia", "em estoque", "disponível", "disponibile", "dostępny", "na stanie",
    "skladom", "na zalihi", "raspoloživo", "în stoc", "в наличии", "在庫あり",
    "op voorraad", "på lager", "varastossa", "saatavilla", "raktáron", "skladem",
    "left in stock", "na sklade", "i lager", "stokta var", "stokta", "còn hàng", "tersedia",
    "متوفر", "במלאי", "διαθέσιμο", "в наявності", "有貨", "現貨", "재고 있음", "재고있음", "在庫有り",
)
# Add-to-cart labels, matched in lower-cased text. Phrases that name the cart
# as a destination ("in den Warenkorb"), never the cart link alone ("Warenkorb
# (0)" heads every shop page); one-word verbs ("Comprar", "Купить") only as a
# whole label, since they also name menu sections.
_CART_PHRASES = (
    r"add[\s-]*to[\s-]*(?:cart|bag|basket|trolley)|buy[\s-]*(?:it\s+)?now|"
    r"加入购物车|立即购买|加入購物車|立即購買|直接購買|放入購物車|我要購買|我要购买|"
    r"in den warenkorb|zum warenkorb hinzufügen|ajouter au panier|"
    r"añadir al carrito|agregar al carrito|añadir a la cesta|añadir a la bolsa|agregar a la bolsa|"
    r"adicionar ao carrinho|adicionar à sacola|adicionar ao cesto|aggiungi al carrello|"
    r"toevoegen aan (?:mijn )?winkel(?:wagen|mand)|in (?:de |mijn )?winkel(?:wagen|mand)|"
    r"lägg i varukorg|læg i (?:indkøbs)?kurv|legg i handle(?:kurv|vogn)|lisää ostoskoriin|"
    r"do košík|v košík|vložit do košíku|pridať do košíka|do koszyka|u košaric|kosárba|"
    r"adaugă în coș|adauga in cos|sepete ekle|в корзину|в кошик|στο καλάθι|"
    r"thêm vào giỏ|cho vào giỏ|tambah ke keranjang|masukkan (?:ke )?keranjang|"
    r"أضف إلى السلة|أضف للسلة|اضف الى السلة|הוסף לסל|הוספה לסל|"
    r"カートに入れる|カートに追加|今すぐ買う|今すぐ購入|장바구니 담기|장바구니에 담기|바로 구매|바로구매|구매하기"
)
_CART_VERBS = (
    r"comprar(?: ahora| ya)?|köp(?: nu)?|osta(?: nyt)?|купить|kaufen|jetzt kaufen|acheter|"
    r"acquista(?: ora)?|kopen|nu kopen|kup(?: teraz)?|koupit|kúpiť|kupi(?: odmah| sada)?|naruči|"
    r"naroči(?: zdaj)?|cumpără|satın al|hemen al|"
    r"mua ngay|beli sekarang|购买|購買|購入|구매|شراء|קנה עכשיו"
)
CART_RE = re.compile(rf"{_CART_PHRASES}|^\s*(?:{_CART_VERBS})\s*[!.]?\s*$")

# Platform names of the button: add-to-cart (most), OpenCart's "button-cart", buy boxes.
CART_ATTR_RE = FoldedPattern(
    r"add[-_]?to[-_]?(?:cart|bag|basket)|addtocart|buy[-_]?now|buy[-_]?box|cart[-_]?add|"
    r"button[-_]cart|cart[-_]button"
)

# Label -> field for the record pairs (lower case, delimiter stripped).
LABEL_FIELDS: dict[str, tuple[str, ...]] = {
    "sku": ("sku", "asin", "item number", "item no", "item no.", "item #", "article number",
            "art.-nr.", "art.-nr", "art. nr.", "art-nr.", "art-nr", "artnr.", "artnr", "art.nr",
            "artikelnummer", "artikel-nr.", "bestellnummer", "produktnummer",
            "product code", "product id", "product number", "商品编号", "商品編號", "货号",
            "商品编码", "商品货号", "商品代码", "código", "código do produto", "id produto",
            "codice", "codice articolo", "numero oggetto", "numéro de l'objet", "kod produktu",
            "šifra", "kód", "cod produs", "код", "код товара", "артикул", "상품번호", "référence",
            "ref", "ref.", "item", "品番",
            # more languages: nl/sv/da/no, cs/sk, hu, fi, tr, vi, id, el, ar, he, es/pt, zh-TW, ja, ko
            "artikelnr.", "artikelnr", "art.nr.", "varenummer", "varenr.", "kód produktu",
            "cikkszám", "tuotenumero", "tuotekoodi", "ürün kodu", "stok kodu", "mã sản phẩm",
            "kode produk", "kode barang", "κωδικός", "κωδικός προϊόντος", "رمز المنتج", 'מק"ט',
            "מק״ט", "referencia", "referência", "réf.", "réf", "código de producto",
            "código del producto", "產品編號", "产品编号", "商品代號", "商品番号", "商品コード",
            "상품코드", "품번"),
    "mpn": ("mpn", "manufacturer part number", "part number", "model number",
            "item model number", "herstellernummer", "référence fabricant", "型番", "모델명",
            "mfr part number", "mfg part number", "part no", "part no.", "teilenummer",
            "numéro de pièce", "número de pieza", "codice produttore"),
    "gtin": ("gtin", "gtin13", "gtin-13", "ean", "ean13", "ean-13", "upc", "isbn-13", "isbn13",
             "isbn", "barcode", "条形码", "条码", "jan", "janコード", "jan code",
             "código de barras", "code-barres", "code barre", "strichcode", "штрихкод", "штрих-код",
             "바코드", "條碼", "條碼編號", "ean code", "ean kód", "ean-kód", "vonalkód", "viivakoodi",
             "stregkode", "strekkode", "streckkod", "barkod", "mã vạch", "رمز شريطي", "ברקוד"),
    # the brand's own names first, then the maker's (a lower rank wins)
    "brand": ("brand", "品牌", "marke", "marque", "marca", "brand name", "merk", "značka", "marka",
              "márka", "марка", "thương hiệu", "merek", "μάρκα", "marchio", "märke", "merkki",
              "mærke", "العلامة التجارية", "الماركة", "מותג", "牌子", "бренд", "브랜드", "ブランド",
              "manufacturer",
              "hersteller", "fabricant", "fabricante", "produttore", "producent", "výrobca",
              "výrobce", "proizvođač", "производитель", "gyártó", "valmistaja",
              "tillverkare", "produsent", "üretici", "nhà sản xuất", "produsen", "κατασκευαστής",
              "الشركة المصنعة", "יצרן", "制造商", "製造商", "生产商", "生產商", "厂商", "メーカー",
              "제조사"),
}


# Words that announce a price (lower case): the current one, and a former or
# recommended one. Label texts, record names and the kind guess all read these.
CURRENT_PRICE_WORDS = (
    "price", "our price", "sale price", "online price", "now", "preis", "prix", "precio", "preço",
    "prezzo", "cena", "цена", "ціна", "prijs", "pris", "hinta", "ár", "fiyat", "giá", "harga",
    "τιμή", "السعر", "מחיר", "preț", "pret",
    "售價", "價格", "特價", "優惠價", "促銷價", "現價", "最低價", "團購價", "網路價", "售价", "价格",
    "特价", "优惠价", "促销价", "现价", "最低价", "团购价", "가격", "판매가", "価格", "販売価格",
)
REGULAR_PRICE_WORDS = (
    "was", "list price", "regular price", "retail price", "original price", "old price", "rrp", "msrp",
    "uvp", "statt",
    "prix conseillé", "antes", "normalpris", "ordinarie pris", "oude prijs", "normaalhinta",
    "eredeti ár", "eski fiyat", "giá gốc", "harga normal", "αρχική τιμή", "السعر الأصلي",
    "מחיר מקורי", "старая цена", "стара ціна", "preț vechi",
    "建議售價", "建议售价", "原價", "原价", "市場價", "市场价", "定價", "定价", "參考價", "参考价",
    "專櫃價", "专柜价", "정가",
)
# Words that mark a reduced price shown beside the normal one ("Price ¥299 /
# 促销价 ¥249", "Regular $890 / Sale $690"): then the reduced one is current.
SALE_PRICE_WORDS = (
    "sale", "sale price", "special price", "offer price", "promo price", "deal price", "now",
    "sonderpreis", "aktionspreis", "angebotspreis", "prix promo", "prix soldé", "precio oferta",
    "precio rebajado", "oferta", "prezzo scontato", "prezzo promozionale", "promocja", "akce",
    "акционная цена", "цена со скидкой", "indirimli fiyat", "giá khuyến mãi", "harga promo",
    "促銷價", "促销价", "特價", "特价", "優惠價", "优惠价", "活動價", "活动价", "折後價", "折后价",
    "到手價", "到手价", "秒殺價", "秒杀价", "團購價", "团购价", "セール価格", "特別価格", "割引価格",
    "特価", "할인가", "세일가", "특가",
)


def words_pattern(words: tuple[str, ...]) -> str:
    """An alternation of literal words, longest first (a regex tries them in order)."""
    return "(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"

# Headings and tabs that introduce a product's description, lower case, matched
# as the whole text of the heading (a trailing colon or count aside).
DESCRIPTION_HEADINGS = (
    "description", "product description", "item description", "descriptions", "full description",
    "product info", "overview", "product overview", "synopsis", "book description",
    "商品描述", "商品详情", "产品描述", "产品介绍", "商品介绍", "产品详情", "商品說明", "商品描述",
    "商品詳情", "產品介紹", "產品描述", "商品介紹", "内容简介", "內容簡介",
    "beschreibung", "produktbeschreibung", "artikelbeschreibung", "description du produit",
    "descriptif", "descripción", "descripción del producto", "descrição", "descrição do produto",
    "descrizione", "descrizione del prodotto", "beschrijving", "productbeschrijving",
    "productomschrijving", "omschrijving", "opis", "opis produktu", "popis", "popis produktu",
    "leírás", "termékleírás", "açıklama", "ürün açıklaması", "описание", "описание товара",
    "опис", "beskrivning", "produktbeskrivning", "beskrivelse", "produktbeskrivelse", "kuvaus",
    "tuotekuvaus", "περιγραφή", "mô tả", "mô tả sản phẩm", "deskripsi", "deskripsi produk",
    "الوصف", "وصف المنتج", "תיאור", "תיאור המוצר", "商品説明", "説明", "商品の説明",
    "상품설명", "상품 설명", "제품 설명", "상품정보",
)
