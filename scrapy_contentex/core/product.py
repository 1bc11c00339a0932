"""Product records: structured data first, then the page's own layout.

Order of evidence, field by field:

1. JSON-LD ``Product`` (and its ``offers``) — the shop's own ground truth;
2. microdata / RDFa-lite items of the same types;
3. OpenGraph / catalog ``<meta>`` tags (``product:price:amount`` ...);
4. the page itself: the record area found by seed 000's characteristic
   weights and Viterbi walk (``records.py``) gives labelled pairs (Brand:,
   SKU:, 品牌：, ISBN-13: ...), and visible price / availability cues
   (elements marked as prices, struck-through old prices, stock phrases and
   add-to-cart buttons) fill what structured data left empty.

Availability is normalised to the two values the item schema uses:
``InStock`` for InStock, InStoreOnly, OnlineOnly, LimitedAvailability,
PreOrder, PreSale and BackOrder (the product can be ordered now) and
``OutOfStock`` for OutOfStock, SoldOut and Discontinued.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import compress
from typing import Any
from urllib.parse import urlsplit

from lxml import etree as lxml_etree
from lxml import html as lxml_html
from lxml.html import HtmlElement

from .declared import OFFER, PRODUCT, SOLD_WORK
from .description import described_section, meta_description, prose_after
from .document import Document, TaggedElements, body_of
from .gcpause import gc_paused
from .lang import CJK_RE, guess_language, normalize_space, token_count
from .metadata import markup_authors
from .price import (
    PageContext,
    context_from,
    currency_code,
    instalment,
    normalize_amount,
    parse_price,
    sign_fits,
)
from .records import (
    LeafTests,
    RecordParams,
    body_leaves,
    document_records,
    label_like,
    qualified_suffix,
    remember,
)
from .shop_words import (
    CART_ATTR_RE,
    CART_RE,
    CURRENT_PRICE_WORDS,
    IN_PHRASES,
    IN_STOCK_SCHEMA,
    LABEL_FIELDS,
    OUT_PHRASES,
    OUT_STOCK_SCHEMA,
    REGULAR_PRICE_WORDS,
    SALE_PRICE_WORDS,
    FoldedPattern,
    words_pattern,
)
from .structured import (
    document_objects,
    first_value,
    meta_tags,
    product_meta,
    types_of,
)
from .text.common import BLOCK_TAGS
from .title import extract_title

#: Objects a product record is read from: goods, and the creative works shops sell (a
#: product page of a book or an app declares only that). Names as written (``types_of``):
#: read in any case, two shops' "product" objects (5 pages of the products set) gave
#: identifiers their truth does not hold (mpn F1 0.316 -> 0.273, gtin 0.727 -> 0.615).
PRODUCT_TYPES = PRODUCT | SOLD_WORK
FIELDS = ("name", "price", "currency", "currencyRaw", "regularPrice", "availability", "sku",
          "mpn", "gtin", "brand", "description", "additionalProperties")

# "SKU MKI6IKW1N4", "Item #418295": an identifier label and its code in one text.
_ID_TEXT_RE = re.compile(
    r"^\s*(sku|asin|item\s*#|item\s+no\.?|art\.?-?\s?nr\.?|ean|upc|isbn(?:[- ]?1[03])?|mpn|gtin)"
    r"(?![^\W\d_])\s*[#:：]?\s*([A-Za-z0-9][\w./-]{2,40})\s*$",  # "Skullcandy" is no "SKU llcandy"
    re.I,
)
# What every _ID_TEXT_RE match starts with (a guard that needs no normalised text).
_ID_START_RE = re.compile(r"\s*(?:sku|asin|item|art|ean|upc|isbn|mpn|gtin)", re.I)
_REGULAR_LABELS = (*REGULAR_PRICE_WORDS, "de")  # "De R$ 99 por R$ 79": a record name only
# "regular" is left out: Shopify's themes mark the normal price "price-item--regular"
# and strike it (<s>) only when a sale price stands beside it.
class _ClassTest:
    """A lower-case pattern (a :class:`FoldedPattern`) tested on class and id values, verdicts remembered by value.

    The same class strings come back on every element of a tile grid and on
    every page of a site; the price, rail and stock scans test an element's
    ancestors for each of its text leaves.
    """

    def __init__(self, pattern: str) -> None:
        self._pattern = FoldedPattern(pattern)
        self._memo: dict[str, bool] = {}

    def search(self, text: str) -> bool:
        """Whether the pattern occurs in ``text`` (a bool, unlike ``re``'s ``search``)."""
        found = self._memo.get(text)
        if found is None:
            found = remember(self._memo, text, self._pattern.search(text) is not None)
        return found


_NOT_CURRENT_CLASS_RE = _ClassTest(r"old|was|list|strike|before|orig|compare|rrp|msrp|uvp|"
                                   r"cross|previous|crossed|saving|save|discount|per|unit")
# A price text introduced as the former / recommended price: "UVP 69,90 €", "原价 ¥168".
_REGULAR_WORD_RE = re.compile(r"^\s*" + words_pattern(REGULAR_PRICE_WORDS) + r"\b")
_PRICE_CLASS_RE = _ClassTest(r"price|preis|prix|precio|preco|prezzo|cena|jiage|amount")
# A price element (or the panel around it) named as the reduced price.
_SALE_CLASS_RE = _ClassTest(r"sale|special|promo|reduced|price-?now|now-?price")
_SALE_LABEL_RE = re.compile(words_pattern(SALE_PRICE_WORDS) + r"\s*[:：]?\s*[$¥￥€£]?\s*$")
# How far (in text leaves) a reduced price may follow the normal one it replaces.
_SALE_WINDOW = 12
_AMOUNT_RE = re.compile(r"\d")
# The text-only first tests of the page scans below, run once per distinct text.
_LEAF_TESTS = LeafTests()
# "by Jane Doe", "By: Jane Doe", "By (author) Jane Doe", "作者：刘慈欣"
_BYLINE_HEAD = (r"(?:(?:by|von|par|por|di|door|av)\b|作者)\s*[:：]?\s*"
                r"(?:\((?:author|editor|autor|auteur|autore|illustrator|translator)\)\s*)?")
_BYLINE_RE = re.compile(rf"^{_BYLINE_HEAD}([^\s(].{{1,79}})$", re.I)
# Labels that make a record a book's, so a "by X" line is its author (not a brand).
_BOOK_LABEL_RE = re.compile(r"isbn|publisher|出版|page count|pages|页数|頁數|binding|装帧|verlag|éditeur|editorial", re.I)
_BYLINE_START_RE = re.compile(r"\s*(?:by|von|par|por|di|door|av|作者)\b", re.I)
_BYLINE_ALONE_RE = re.compile(rf"^{_BYLINE_HEAD}$", re.I)
# "Jane Doe (Author)": the role after the name, in one text or in the next one
_ROLE_RE = re.compile(r"^(.{2,80}?)\s*\((?:author|autor|auteur|autore|editor)\)[\s,;]*$", re.I)
_ROLE_ALONE_RE = re.compile(r"^\s*\((?:author|autor|auteur|autore|editor)\)[\s,;]*$", re.I)

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _str(value: Any) -> str | None:
    """A clean string out of a JSON-LD/microdata value (dicts give their name/@id)."""
    if isinstance(value, list):
        value = next((v for v in value if v not in (None, "", {}, [])), None)
    if isinstance(value, dict):
        value = first_value(value, "name", "@value", "value", "@id")
        if isinstance(value, (dict, list)):
            return _str(value)
    if value is None or isinstance(value, bool):
        return None
    text = normalize_space(str(value))
    return text or None


def normalize_availability(value: Any) -> str | None:
    """InStock / OutOfStock from a schema.org URL, a code or a visible phrase."""
    text = _str(value)
    if not text:
        return None
    key = text.rsplit("/", 1)[-1].strip().lower().replace("_", " ").strip()
    compact = key.replace(" ", "")
    if compact in OUT_STOCK_SCHEMA or key in OUT_STOCK_SCHEMA:
        return "OutOfStock"
    if compact in IN_STOCK_SCHEMA or key in IN_STOCK_SCHEMA:
        return "InStock"
    return availability_from_text(text)


def availability_from_text(text: str) -> str | None:
    """Stock state from a short visible text, out-of-stock phrases first."""
    low = text.lower()
    if any(p in low for p in OUT_PHRASES):
        return "OutOfStock"
    if any(p in low for p in IN_PHRASES):
        return "InStock"
    return None


def _page_context(doc: Document, tree: HtmlElement, declared_lang: str | None,
                  meta: dict[str, str] | None = None) -> PageContext:
    """Language and domain country: what resolves "¥" and "kr".

    Guessing the language from the text costs a scan, so it is only done when
    the page shows a sign that needs it and declares no language.
    """
    if meta is None:
        meta = meta_tags(tree)
    lang = declared_lang or tree.get("lang") or meta.get("og:locale")
    if not lang and ("¥" in doc.html or "kr" in doc.html):
        lang = guess_language(normalize_space(body_of(tree).text_content()[:8000]))
    return context_from(doc.url, lang)


# ---------------------------------------------------------------------------
# structured data
# ---------------------------------------------------------------------------


def _offers_of(product: dict) -> list[dict]:
    offers = product.get("offers")
    if isinstance(offers, dict):
        offers = [offers]
    found: list[dict] = []
    for offer in offers or []:
        if not isinstance(offer, dict):
            continue
        found.append(offer)
        nested = offer.get("offers")
        if isinstance(nested, dict):
            found.append(nested)
        elif isinstance(nested, list):
            found.extend(o for o in nested if isinstance(o, dict))
    return found


def _offer_price(offer: dict) -> tuple[str | None, str | None]:
    price = first_value(offer, "price", "lowPrice", "highPrice")
    currency = _str(first_value(offer, "priceCurrency"))
    if price is None:
        spec = first_value(offer, "priceSpecification")
        specs = spec if isinstance(spec, list) else [spec]
        for s in specs:
            if isinstance(s, dict) and first_value(s, "price") is not None:
                price = first_value(s, "price")
                currency = currency or _str(first_value(s, "priceCurrency"))
                break
    return (_str(price) if price is not None else None), currency


def _structured_fields(objects: list[dict], ctx: PageContext) -> dict[str, Any]:
    """Fields from the first product-like object (and its offers) that has some."""
    products = [o for o in objects if types_of(o) & PRODUCT_TYPES]
    loose_offers = [o for o in objects if types_of(o) & OFFER]
    out: dict[str, Any] = {}
    # The richest product first: pages embed related products too.
    products.sort(key=lambda p: -(("offers" in p) * 2 + ("sku" in p) + ("name" in p)))
    for product in products[:1]:
        out["name"] = _str(first_value(product, "name"))
        out["description"] = _str(first_value(product, "description"))
        out["sku"] = _str(first_value(product, "sku", "productID"))
        out["mpn"] = _str(first_value(product, "mpn"))
        out["gtin"] = _str(first_value(product, "gtin13", "gtin", "gtin12", "gtin14", "gtin8",
                                       "isbn", "ean"))
        brand = first_value(product, "brand", "manufacturer")
        out["brand"] = _str(brand)
        offers = _offers_of(product)
        loose_offers = offers + loose_offers
    for offer in loose_offers:
        price, currency = _offer_price(offer)
        if price is not None and "price" not in out:
            parsed = parse_price(price, ctx, currency)
            if parsed.amount not in (None, "0"):  # "0" is a template placeholder
                out["price"] = parsed.amount
                out["currencyRaw"] = currency or parsed.currency_raw
                out["currency"] = currency_code(currency, ctx) if currency else parsed.currency
        # Offers per size/colour: the product is in stock when any offer is.
        avail = normalize_availability(first_value(offer, "availability"))
        if avail and out.get("availability") != "InStock":
            out["availability"] = avail
        for key, names in (("sku", ("sku",)), ("gtin", ("gtin13", "gtin", "gtin12", "gtin14"))):
            if not out.get(key):
                out[key] = _str(first_value(offer, *names))
        if "price" in out and out.get("availability") == "InStock":
            break
    out["gtin"] = valid_gtin(out.get("gtin"))
    return {k: v for k, v in out.items() if v}


def _meta_fields(meta: dict[str, str], ctx: PageContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if meta.get("price"):
        parsed = parse_price(meta["price"], ctx, meta.get("currency"))
        if parsed.amount is not None:
            out["price"] = parsed.amount
            out["currency"] = parsed.currency
            out["currencyRaw"] = meta.get("currency") or parsed.currency_raw
    if meta.get("availability"):
        out["availability"] = normalize_availability(meta["availability"])
    for key in ("brand", "sku", "gtin", "mpn"):
        if meta.get(key):
            out[key] = meta[key]
    out["gtin"] = valid_gtin(out.get("gtin"))
    return {k: v for k, v in out.items() if v}


# ---------------------------------------------------------------------------
# the page itself
# ---------------------------------------------------------------------------


# How much of an element's text _own_text collapses first: its 200 characters
# rarely need more, and a price class on a wrapper meant collapsing all of the
# wrapper's text (milliseconds on a page with a long one) to keep 200.
_OWN_TEXT_HEAD = 1000


def _own_text(el: HtmlElement) -> str:
    """The first 200 characters of ``el``'s text, runs of blanks collapsed and trimmed.

    Collapsing the start of a text gives the start of the collapsed whole (a
    run cut at the end still becomes one space, and trimming only takes the
    ends), so when the head collapses to 200 characters or more, those are
    the answer and the rest of the text is not read.
    """
    text = el.text_content()
    if len(text) > _OWN_TEXT_HEAD:
        head = normalize_space(text[:_OWN_TEXT_HEAD])
        if len(head) >= 200:
            return head[:200]
    return normalize_space(text)[:200]


def _is_struck(el: HtmlElement) -> bool:
    """Inside <del>/<s>/<strike> or styled line-through: an old price."""
    node: HtmlElement | None = el
    for _ in range(4):
        if node is None or not isinstance(node.tag, str):
            break
        if node.tag in ("del", "s", "strike") or "line-through" in (node.get("style") or ""):
            return True
        node = node.getparent()
    return False


def _class_id(el: HtmlElement) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}"


# Rails of other products shown beside or after this one: their prices and stock
# badges are theirs. Named so by class or id in every theme.
_RAIL_RE = _ClassTest(r"related|recommend|upsell|up-sell|cross-?sell|similar|also-?(?:bought|viewed|like)|"
                      r"recently|you-?may|frequently|bought-?together|suggest")
# Instalment plans and their widgets: an amount per month is not the price.
_INSTALMENT_CLASS_RE = _ClassTest(r"install?ment|cuota|parcel|monthly|financ|klarna|afterpay|affirm|"
                                  r"sezzle|zip-?pay|pay-?later|paylater")
_RAIL_DEPTH = 30
class _Rails:
    """Which elements of a page sit in a rail of other products.

    An element is in a rail when it or an ancestor (below ``<body>``) has a
    class or id naming one. Verdicts are remembered per element, so the
    neighbouring candidates of a page walk each ancestor chain about once.
    """

    def __init__(self) -> None:
        self.memo: dict = {}

    def holds(self, el: HtmlElement | None) -> bool:
        path = []
        node = el
        verdict = False
        for _ in range(_RAIL_DEPTH):
            if node is None or not isinstance(node.tag, str) or node.tag in ("body", "html"):
                break
            known = self.memo.get(node)
            if known is not None:
                verdict = known
                break
            path.append(node)
            classes, ident = node.get("class"), node.get("id")
            if (classes and _RAIL_RE.search(classes)) or (ident and _RAIL_RE.search(ident)):
                verdict = True
                break
            node = node.getparent()
        for visited in path:
            self.memo[visited] = verdict
        return verdict


def _neighbours(leaves: list, index: int) -> tuple[str, str]:
    """The short texts right before and after leaf ``index`` ("" when long or absent)."""
    before = leaves[index - 1] if index > 0 and len(leaves[index - 1]) <= 60 else ""
    after = leaves[index + 1] if index + 1 < len(leaves) and len(leaves[index + 1]) <= 60 else ""
    return before, after


def _instalment_at(leaves: list, index: int, el: HtmlElement | None = None) -> bool:
    """The price at leaf ``index`` is a part payment: by its words or its element's class."""
    node = el
    for _ in range(3):
        if node is None or not isinstance(node.tag, str):
            break
        if _INSTALMENT_CLASS_RE.search(_class_id(node)):
            return True
        node = node.getparent()
    before, after = _neighbours(leaves, index)
    return instalment(before, leaves[index], after)


def _price_element(leaf, marked: dict | None = None) -> HtmlElement | None:
    """The element marked as a price (or struck through) that holds a text leaf.

    Looks at the leaf's element and three ancestors: shops split prices into
    spans ("£", "450", ".00") inside one element whose class says "price".
    ``marked`` remembers each element's verdict: neighbouring leaves share
    their ancestors, so the class test runs once per element.
    """
    if marked is None:
        marked = {}
    node = leaf.getparent()
    if node is not None and leaf.is_tail:
        node = node.getparent()
    for _ in range(4):
        if node is None:
            return None
        verdict = marked.get(node)
        if verdict is None:
            tag = node.tag
            if not isinstance(tag, str) or tag == "body":
                verdict = 2  # stop here
            elif tag in ("del", "s", "strike") or _PRICE_CLASS_RE.search(_class_id(node)):
                verdict = 1  # the price element
            else:
                verdict = 0
            marked[node] = verdict
        if verdict == 2:
            return None
        if verdict == 1:
            return node
        node = node.getparent()
    return None


def _with_nearby_currency(el: HtmlElement, parsed, ctx: PageContext):
    """Borrow the currency sign from a short enclosing element ("<span>￥</span><span class=price>5999</span>")."""
    if parsed.amount is None or parsed.currency is not None:
        return parsed
    node = el.getparent()
    for _ in range(2):
        if node is None or not isinstance(node.tag, str):
            break
        text = _own_text(node)
        if len(text) > 40:
            break
        around = parse_price(text, ctx)
        if around.currency is not None and around.amount == parsed.amount:
            return around
        node = node.getparent()
    return parsed


# texts that may be a price or part of one: short, with a digit
_SHORT_AMOUNT = _LEAF_TESTS.register(lambda leaf: len(leaf) <= 60 and _AMOUNT_RE.search(leaf))


def _visible_prices(leaves: list, ctx: PageContext, rails: _Rails | None = None) -> tuple[Any, Any, int, int]:
    """Current and regular price from elements marked as prices, in document order.

    An element counts when its class/id/itemprop says "price" (in several
    languages) and its short text parses to an amount; struck-through or
    "old/was/list" ones give the regular price. The first current one wins:
    the product's own price comes before related products' prices; unless a
    cheaper one marked as reduced follows it closely, which makes the first
    the regular price. Starting from the short text leaves with digits keeps
    this a cheap scan. Returns (current, regular, index of the current, index
    where the product's current price block starts).
    """
    current = None
    current_el = None
    regular = None
    current_at = first_at = -1
    seen: set = set()
    marked: dict = {}
    rails = rails or _Rails()
    for index in _LEAF_TESTS.indices(leaves, _SHORT_AMOUNT):
        leaf = leaves[index]
        el = _price_element(leaf, marked)
        if el is None or rails.holds(el):
            continue
        owner = leaf.getparent() if leaf.is_text else leaf.getparent().getparent()
        # A leaf that is a whole price ("131 990 тг.") is read alone, so an
        # element holding old and new prices gives both; a leaf that is a
        # fragment ("450" between "£" and ".00") is read with its element.
        parsed = parse_price(leaf, ctx)
        if parsed.amount is None or parsed.currency is None:
            if el in seen:
                continue
            text = _own_text(el)
            if not text or len(text) > 60:
                continue
            parsed = _with_nearby_currency(el, parse_price(text, ctx), ctx)
            owner = el
        seen.add(el)
        if parsed.amount is None or parsed.amount == "0":
            continue
        old = (_is_struck(owner) or _is_struck(el) or bool(_NOT_CURRENT_CLASS_RE.search(_class_id(el)))
               or (owner is not el and bool(_NOT_CURRENT_CLASS_RE.search(_class_id(owner))))
               or bool(_REGULAR_WORD_RE.match(leaf.lower())))
        if old:
            regular = regular or parsed
        elif _instalment_at(leaves, index, owner):
            continue  # a part payment, not a price of the product
        elif current is None:
            current, current_at, first_at = parsed, index, index
        elif (regular is None and index - current_at <= _SALE_WINDOW and _cheaper(parsed, current)
              and _sale_marked(el, leaves, index) and not _sale_marked(current_el, leaves, current_at)):
            # "Price ¥299" then "促销价 ¥249": the first was the normal price
            regular, current, current_at = current, parsed, index
        if current_at == index:
            current_el = el
        if current is not None and regular is not None or len(seen) > 60:
            break
    return current, regular, current_at, first_at


def _cheaper(price, than) -> bool:
    """A lower amount in the same currency (or one of them without a currency)."""
    if price.currency and than.currency and price.currency != than.currency:
        return False
    try:
        return float(price.amount) < float(than.amount)
    except (TypeError, ValueError):
        return False


def _sale_marked(el: HtmlElement, leaves: list, index: int) -> bool:
    """The price element or the two around it named as a reduced price, or a label
    word for one right before its text ("促销价", "Sale price:")."""
    node: HtmlElement | None = el
    for _ in range(3):
        if node is None or not isinstance(node.tag, str) or node.tag == "body":
            break
        if _SALE_CLASS_RE.search(_class_id(node)):
            return True
        node = node.getparent()
    return any(_SALE_LABEL_RE.match(leaves[k].strip().lower()) for k in range(max(index - 2, 0), index))


_REGULAR_LABEL_RE = re.compile(words_pattern(REGULAR_PRICE_WORDS) + r"\s*[:：]?\s*[$¥￥€£]?\s*$")
_CURRENT_LABEL_RE = re.compile(words_pattern(CURRENT_PRICE_WORDS) + r"\s*[:：]?\s*[$¥￥€£]?\s*$")
_CURRENCY_ONLY_RE = re.compile(r"^\s*(?:[$¥￥€£₹₩]|元|円|원|NT\$|US\$|RMB)\s*$")


# both label patterns end in a word of these lists: its last character is a cheap first test
_LABEL_END_CHARS = frozenset(word[-1] for word in CURRENT_PRICE_WORDS + REGULAR_PRICE_WORDS)


# What str.rstrip() strips (every Unicode blank lies below U+3001), and the
# colons and currency signs that may close a price label.
_LABEL_TRAIL = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace()) + ":：$¥￥€£"


def _label_end(low: str) -> str:
    """The last character before trailing blanks, colons and currency signs ("价格：$" -> "格")."""
    return low.rstrip(_LABEL_TRAIL)[-1:]


def _price_label(leaf: str) -> bool:
    """A short text that is a current or regular price label ("售價", "Our price:")."""
    if len(leaf) > 14 or len(leaf.strip()) < 1:
        return False
    low = leaf.lower().strip()
    # both patterns end in a label word followed only by blanks, a colon
    # and a currency sign: its last character is a cheap first test
    if _label_end(low) not in _LABEL_END_CHARS:
        return False
    return bool(_REGULAR_LABEL_RE.search(low) or _CURRENT_LABEL_RE.search(low))


_PRICE_LABEL = _LEAF_TESTS.register(_price_label)


def _label_prices(leaves: list, ctx: PageContext, limit: int = 3000, rails: _Rails | None = None):
    """Prices announced by a label text ("售價", "最低價$", "Our price:") and the amounts after it.

    For shops whose price elements carry no telling class. The value is the
    first of the next few texts that is an amount with a currency, in the
    text itself or in the label or the text right after it ("2320", "元").
    Returns (current, regular, index of the current label).
    """
    current = regular = None
    current_at = -1
    rails = rails or _Rails()
    for index in _LEAF_TESTS.indices(leaves, _PRICE_LABEL, limit):
        leaf = leaves[index]
        is_regular = bool(_REGULAR_LABEL_RE.search(leaf.lower().strip()))
        if (regular if is_regular else current) is not None or rails.holds(leaf.getparent()):
            continue
        symbol = re.search(r"[$¥￥€£]", leaf)
        for offset in range(1, 5):
            if index + offset >= len(leaves):
                break
            value = leaves[index + offset]
            if len(value) > 40:
                break
            if not _AMOUNT_RE.search(value):
                continue
            after = leaves[index + offset + 1] if index + offset + 1 < len(leaves) else ""
            text = value
            if symbol is not None and not re.search(r"[$¥￥€£元]", value):
                text = symbol.group(0) + value.strip()
            elif _CURRENCY_ONLY_RE.match(after):
                text = value.strip() + after.strip()
            parsed = parse_price(text, ctx)
            if parsed.amount and parsed.amount != "0" and parsed.currency:
                if _instalment_at(leaves, index + offset):
                    break  # "Monthly: $15": the label announces a part payment
                if is_regular:
                    regular = parsed
                else:
                    current, current_at = parsed, index
                break
        if current is not None and regular is not None:
            break
    return current, regular, current_at


# A text that is a price and nothing else: a sign or code, an amount, maybe a sign after.
_PRICE_ONLY_RE = re.compile(r"^\s*[^\d\s]{0,4}\s?\d[\d.,\s]{0,14}\s?[^\d\s]{0,4}\s*$")


def _price_after_heading(leaves: list, heading: HtmlElement | None, ctx: PageContext,
                         before: int = 3000, limit: int = 60, rails: _Rails | None = None):
    """The first text after the page's <h1> (``heading``) that is only a price, and its index.

    Shop themes that mark nothing ("<h1>Name</h1> ... <h2>$87.11</h2>") still
    print the product's price soon after its name, before any related-product
    tile; texts in links, struck or tagged old are skipped. Only texts before
    index ``before`` (the first marked price) are read: a later one would lose.
    """
    before = min(before, len(leaves), 3000)
    start = _heading_leaf(leaves, heading, before) if heading is not None else None
    if start is None:
        return None, -1
    rails = rails or _Rails()
    for index in range(start + 1, min(before, start + 1 + limit)):
        leaf = leaves[index]
        if len(leaf) > 24 or not _AMOUNT_RE.search(leaf) or not _PRICE_ONLY_RE.match(leaf):
            continue
        parsed = parse_price(leaf, ctx)
        if parsed.amount is None or parsed.amount == "0" or parsed.currency is None:
            continue
        owner = leaf.getparent() if leaf.is_text else leaf.getparent().getparent()
        if owner is None or _in_link(owner) or _is_struck(owner) or _REGULAR_WORD_RE.match(leaf.lower()):
            continue
        if rails.holds(owner) or _instalment_at(leaves, index, owner):
            continue
        if _REGULAR_LABEL_RE.search(leaves[index - 1].lower().strip()):
            continue  # "建議售價 $3200", "List price: $99": the former price
        return parsed, index
    return None, -1


_FIRST_TEXT = lxml_etree.XPath("descendant::text()[normalize-space()][1]")


def _product_heading(tagged: TaggedElements, meta: dict[str, str]) -> HtmlElement | None:
    """The page's <h1> that names the product: the first whose text opens in the title.

    Shops head some pages with a banner <h1> ("COVID-19 policies") before the
    product's; the title names the product. Without a match, the first <h1>.
    """
    title = " ".join(t.lower() for t in (tagged.title(), meta.get("og:title")) if t)
    first = None
    for count, el in enumerate(tagged.tags("h1", in_body=True)):
        if count >= 5:
            break
        first = first if first is not None else el
        text = normalize_space(el.text_content()[:200]).lower()
        if len(text) >= 3 and text[:12] in title:
            return el
    return first


def _heading_leaf(leaves: list, heading: HtmlElement, before: int) -> int | None:
    """Index of the first text leaf of ``heading``, if it comes before ``before``.

    The heading's first text is looked up by value (a C-level search of the
    list); the same text elsewhere earlier (a breadcrumb) is skipped by
    checking that the leaf sits in the heading.
    """
    found = _FIRST_TEXT(heading)
    if not found:
        return None
    text = found[0]
    at = 0
    while True:
        try:
            at = leaves.index(text, at, before)
        except ValueError:
            return None
        owner = leaves[at].getparent()
        if owner is not None and leaves[at].is_tail:
            owner = owner.getparent()
        if _within(owner, ("h1",), 2):
            return at
        at += 1


def _label_price(props: list[dict[str, str]], labels: tuple[str, ...], ctx: PageContext):
    for prop in props:
        if prop["name"].lower() in labels or any(prop["name"].lower().endswith(" " + lab)
                                                  for lab in labels if len(lab) > 3):
            parsed = parse_price(prop["value"], ctx)
            if parsed.amount is not None:
                return parsed
    return None




_HIDDEN_CLASS_RE = _ClassTest(r"(?:^|[\s_-])(?:hidden|hide|d-none|invisible|is-hidden)(?:$|[\s_-])")


def _within(el: HtmlElement | None, tags: tuple[str, ...], levels: int) -> bool:
    """The element has one of ``tags``, or an ancestor within ``levels`` levels has."""
    node = el
    for _ in range(levels + 1):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag in tags:
            return True
        node = node.getparent()
    return False


def _in_link(el: HtmlElement) -> bool:
    """The element is a link, an option, or sits in one within two levels."""
    return _within(el, ("a", "option"), 2)


def _hidden(el: HtmlElement) -> bool:
    """Hidden by the page (templates shops keep for the other stock state)."""
    node: HtmlElement | None = el
    for _ in range(6):
        if node is None or not isinstance(node.tag, str):
            return False
        style = (node.get("style") or "").replace(" ", "").lower()
        if ("display:none" in style or "visibility:hidden" in style
                or node.get("hidden") is not None or node.get("aria-hidden") == "true"
                or _HIDDEN_CLASS_RE.search(node.get("class") or "")):
            return True
        node = node.getparent()
    return False


_STOCK_PHRASES = OUT_PHRASES + IN_PHRASES
# Letters of the scripts other than Latin that the phrases are written in
# (Greek, Cyrillic, Hebrew, Arabic, Thai, kana, Han, Hangul).
_NON_LATIN_RE = re.compile("[\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff\u0e00-\u0e7f"
                           "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# Searched shortest first: a phrase holding a shorter one ("temporarily out of
# stock", "out of stock") is not searched when the shorter one is absent.
_ORDERED_PHRASES = tuple(sorted(enumerate(_STOCK_PHRASES), key=lambda op: len(op[1])))
_LATIN_PHRASES = tuple((order, p) for order, p in _ORDERED_PHRASES if not _NON_LATIN_RE.search(p))
_SHORTER_PARTS = {p: tuple(q for q in _STOCK_PHRASES if q != p and q in p) for p in _STOCK_PHRASES}


def _stock_matches(leaves: list, max_len: int = 80):
    """(leaf, first stock phrase in it) for the short leaves that have one, in order.

    A text's phrase depends on the text alone, so each distinct lower-cased
    short text is searched once (menus, footers and vendor lists repeat
    theirs, up to thousands of times on one page). They are joined (by
    newlines, which no phrase holds, so no match spans two texts) and each
    phrase present is located with ``str.find``: a regex call per text, or
    an alternation compiled for each page's set of phrases, cost more. A
    text's phrase is the one ``re.search`` with the alternation would give:
    the leftmost, and at one position the first in ``_STOCK_PHRASES`` order.
    """
    short = [leaf for leaf in leaves if len(leaf) <= max_len]
    if not short:
        return
    lowered = [leaf.lower() for leaf in short]
    found = _first_phrases(list(dict.fromkeys(lowered)))
    for index in compress(range(len(lowered)), map(found.__contains__, lowered)):
        yield short[index], found[lowered[index]]


def _first_phrases(texts: list[str]) -> dict[str, str]:
    """The first stock phrase (as ``_stock_matches`` defines it) of each of ``texts`` that has one."""
    starts = []
    pos = 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    joined = "\n".join(texts)
    hits: list[tuple[int, int, str]] = []
    # a page without a letter of another script holds none of its phrases
    phrases = _ORDERED_PHRASES if _NON_LATIN_RE.search(joined) else _LATIN_PHRASES
    absent: set[str] = set()
    for order, phrase in phrases:
        if not absent.isdisjoint(_SHORTER_PARTS[phrase]):  # a part of it is absent
            absent.add(phrase)
            continue
        at = joined.find(phrase)
        if at < 0:
            absent.add(phrase)
        while at >= 0:
            hits.append((at, order, phrase))
            at = joined.find(phrase, at + 1)
    found: dict[str, str] = {}
    last = -1
    for at, _, phrase in sorted(hits):
        index = bisect_right(starts, at) - 1
        if index != last:
            last = index
            found[texts[index]] = phrase
    return found


# "(19 available)", "(3 left)": a count in brackets after a stock statement.
_COUNT_NOTE_RE = re.compile(r"[(（\[][^()（）\[\]]{0,30}\d[^()（）\[\]]{0,30}[)）\]]")


def _visible_availability(tagged: TaggedElements, leaves: list, rails: _Rails | None = None) -> str | None:
    """Stock phrases in short texts, then add-to-cart buttons as in-stock evidence.

    Only short texts count (a stock badge, not an FAQ paragraph mentioning
    stock); link texts are skipped (menus link to "Sale" or "In stock" filters).
    """
    rails = rails or _Rails()
    for leaf, phrase in _stock_matches(leaves):
        # The phrase must be most of the text: "Out of stock" is a statement,
        # "Image not available for this colour" is not about stock; a count in
        # brackets is part of the statement ("In stock (19 available)").
        if len(phrase) < 0.45 * len(_COUNT_NOTE_RE.sub("", leaf).strip()):
            continue
        parent = leaf.getparent()
        if parent is None:
            continue
        owner = parent if leaf.is_text else parent.getparent()
        # inside a link (another product's tile, a filter), hidden, or in a rail of
        # other products: not this product's state
        if owner is None or _in_link(owner) or _hidden(owner) or rails.holds(owner):
            continue
        return "OutOfStock" if availability_from_text(leaf) == "OutOfStock" else "InStock"
    # From the page's one walk for tags (two XPath unions walked the tree three times).
    found = tagged.tags("link", "button", "input", "form", in_body=True)
    for link in found:
        if link.tag == "link" and "schema.org" in (link.get("href") or ""):
            avail = normalize_availability(link.get("href"))
            if avail:
                return avail
    for el in found:
        if el.tag == "link" or (el.tag == "input" and el.get("type") not in ("submit", "button")):
            continue
        label = normalize_space(el.text_content() if el.tag != "input" else (el.get("value") or ""))
        attrs = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('name') or ''} {el.get('action') or ''}"
        if (label and len(label) < 40 and CART_RE.search(label.lower())) or CART_ATTR_RE.search(attrs):
            if el.get("disabled") is not None:
                return "OutOfStock"
            return "InStock"
    return None


def _build_label_index() -> dict[str, tuple[str, int]]:
    index: dict[str, tuple[str, int]] = {}
    for field_name, labels in LABEL_FIELDS.items():
        for rank, label in enumerate(labels):
            index.setdefault(label, (field_name, rank))
    return index


_LABEL_INDEX = _build_label_index()


@lru_cache(maxsize=8192)
def _label_field(name: str) -> tuple[str, int] | None:
    """(field, rank) of a label (lower rank = more specific), None if it names no field.

    Exact names match first; otherwise a known label of several letters
    starting or ending a short name counts ("eBay item number", "Numero
    oggetto eBay"), ranked after every exact match.
    """
    key = " ".join(name.lower().split())
    hit = _LABEL_INDEX.get(key)
    if hit is not None:
        return hit
    if " " not in key and CJK_RE.search(key):
        # "国际标准书号ISBN", "商品货号": qualifying characters, then a label
        suffix = qualified_suffix(key, _LABEL_INDEX)
        if suffix is None:
            return None
        field_name, rank = _LABEL_INDEX[suffix]
        return field_name, rank + 100
    words = key.split()
    if not 1 < len(words) <= 5:
        return None
    for size in (3, 2, 1):
        if size >= len(words):
            continue
        for part in (" ".join(words[-size:]), " ".join(words[:size])):
            hit = _LABEL_INDEX.get(part)
            if hit is not None and len(part) > 3:
                return hit[0], hit[1] + 100
    return None


def _from_props(props: list[dict[str, str]]) -> dict[str, str]:
    """sku / mpn / gtin / brand from labelled pairs, the most specific label winning."""
    out: dict[str, str] = {}
    for field_name in LABEL_FIELDS:
        best: tuple[int, str] | None = None
        for prop in props:
            hit = _label_field(prop["name"])
            if hit is None or hit[0] != field_name:
                continue
            rank = hit[1]
            if best is not None and rank >= best[0]:
                continue
            value = identifier_value(prop["value"]) or ""
            if value and field_name != "brand":
                value = value.split()[0] if value.split() else value
                value = value.strip("〈〉《》【】()（）[]<>,;.")
            value = identifier_value(value)
            if value is None:
                continue  # "SKU: Brand:": a label, not this field's value
            best = (rank, value)
        if best is not None:
            out[field_name] = best[1]
    return out


_WORD_SPLIT_RE = re.compile(r"[\s:：,;|#〈〉()（）]+")
_URL_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{4,30}[A-Za-z0-9]")
# Each candidate is looked for in every short text: a crafted URL of thousands
# of tokens would cost tokens x texts. Real product URLs hold a handful.
_MAX_URL_TOKENS = 16


def _labelled_code(pairs: list[dict[str, str]]) -> str | None:
    """The code a page shows under an sku label of its own ("SKU MKI6IKW1N4", "Cod produs: DR2401").

    Only a label of the sku list taken whole (not "item average") and a
    value that reads as a code (a digit in it) count: this is what replaces
    a declared sku the page never shows, usually a variant's.
    """
    for pair in pairs:
        hit = _label_field(pair["name"])
        if hit is None or hit[0] != "sku" or hit[1] >= 100:
            continue
        value = (pair["value"].split() or [""])[0].strip("〈〉《》【】()（）[]<>,;.")
        if _CODE_RE.fullmatch(value) and identifier_value(value):
            return value
    return None


def _in_url(code: str, url: str | None) -> bool:
    """The code is one of the URL's tokens (a product id the shop routes by)."""
    if not url or code not in url:
        return False
    parts = urlsplit(url)
    return code in _URL_TOKEN_RE.findall(parts.path + " " + parts.query)


def _shown(code: str, leaves: list) -> bool:
    """The code is a word of some short text of the page (not only inside a longer token)."""
    for leaf in leaves:
        if len(leaf) <= 200 and code in leaf and code in _WORD_SPLIT_RE.split(leaf.strip()):
            return True
    return False


def _sku_from_url(url: str | None, leaves: list) -> str | None:
    """An identifier the URL carries and the page shows: the product's own id.

    Shops put the product id in the URL (/dp/B07..., /deal/4548094738,
    ?pid=260591); a token of the URL that has digits and is shown on the page
    as a whole text or a whole word of a short text is that id. Generic words
    and short numbers are not ids.
    """
    if not url:
        return None
    parts = urlsplit(url)
    tokens = _URL_TOKEN_RE.findall(parts.path + " " + parts.query)
    candidates = [t for t in tokens if sum(ch.isdigit() for ch in t) >= 4 and not t.isalpha()
                  and not (t.isdigit() and len(t) <= 4)][-_MAX_URL_TOKENS:]
    if not candidates:
        return None
    shown: set[str] = set()
    # a token shown as a word of a text is first of all a substring of it; the
    # short texts joined by newlines (no token holds one) tell which tokens
    # are on the page at all, in one search each
    short = [leaf for leaf in leaves if len(leaf) <= 60]
    joined = "\n".join(short)
    candidates_shown = [t for t in candidates if t in joined]
    if not candidates_shown:
        return None
    for leaf in short:
        if any(t in leaf for t in candidates_shown):
            shown.update(_WORD_SPLIT_RE.split(leaf.strip()))
    for token in reversed(candidates):  # the last path part is the most specific
        if token in shown:
            return token
    return None


# An identifier as printed: letters, digits and . / - _, with at least one digit.
_CODE_RE = re.compile(r"(?=[^\s]*\d)[A-Za-z0-9][\w./-]{2,40}")


def _may_hold_id(leaf: str) -> bool:
    """Cheap necessary conditions of an identifier text: most short texts (menu
    items, buttons) have no delimiter, no trailing -/# and do not start with an
    identifier word."""
    return len(leaf) <= 80 and bool(":" in leaf or "：" in leaf or leaf.rstrip().endswith(("-", "#"))
                                    or _ID_START_RE.match(leaf))


_MAY_HOLD_ID = _LEAF_TESTS.register(_may_hold_id)


def _identifier_pairs(leaves: list) -> list[dict[str, str]]:
    """Identifier labels anywhere on the page (item numbers sit outside spec tables).

    Reads "Label: value" texts, a "Label:" text followed by its value text,
    and "SKU 123" texts, keeping only labels of the sku/mpn/gtin/brand lists.
    """
    found: list[dict[str, str]] = []
    for i in _LEAF_TESTS.indices(leaves, _MAY_HOLD_ID):
        text = " ".join(leaves[i].split())
        match = _ID_TEXT_RE.match(text)
        if match:
            found.append({"name": match.group(1), "value": match.group(2)})
            continue
        label, _, value = text.partition(":") if ":" in text else text.partition("：")
        if not _ and text.endswith((" -", " #")):
            label, value = text[:-2], ""
        elif not _:
            # a bare identifier label, its code in the next text ("<strong>SKU</strong><div>TR-100</div>")
            hit = _label_field(text) if len(text) <= 30 else None
            if hit is None or hit[0] == "brand" or i + 1 >= len(leaves):
                continue
            code = " ".join(leaves[i + 1].split())
            if _CODE_RE.fullmatch(code):
                found.append({"name": text, "value": code})
            continue
        label = label.strip(" #-").lower()
        # the (remembered) label lookup first: it rejects most texts
        if not label or _label_field(label) is None or token_count(label) > 5:
            continue
        value = value.strip()
        if not value and i + 1 < len(leaves):
            value = " ".join(leaves[i + 1].split())
        if value and len(value) <= 80 and not label_like(value):
            found.append({"name": label, "value": value})
    return found


def _byline(leaves: list) -> str | None:
    """A short "by Author" line, for books and media pages.

    Handles the author inline ("by Jane Doe") and in a following element
    ("by <a>Jane Doe</a>").
    """
    for index, leaf in enumerate(leaves):
        if len(leaf) > 100:
            continue
        if not _BYLINE_START_RE.match(leaf):
            role = _role_byline(leaves, index) if "(" in leaf else None
            if role:
                return role
            continue
        line = normalize_space(leaf)
        match = _BYLINE_RE.match(line)
        if match and token_count(match.group(1)) <= 8:
            return match.group(1).strip()
        if not _BYLINE_ALONE_RE.match(line):
            continue
        el = leaf.getparent()
        following = (el[0] if len(el) else None) if leaf.is_text else el.getnext()
        names = _inline_run(following)
        if names and token_count(names) <= 30:
            return names
    return None


def _role_byline(leaves: list, index: int) -> str | None:
    """The name before an "(Author)" role: "Jane Doe (Author)" or "<a>Jane Doe</a> (Author)"."""
    line = normalize_space(leaves[index])
    match = _ROLE_RE.match(line)
    if match:
        name = match.group(1)
    elif _ROLE_ALONE_RE.match(line) and index > 0:
        name = normalize_space(leaves[index - 1])
    else:
        return None
    name = name.strip(" ,;:")
    return name if 0 < token_count(name) <= 8 and len(name) <= 80 else None


def _inline_run(el: HtmlElement | None, limit: int = 200) -> str:
    """Text of ``el`` and its following inline siblings (with tails): "A; B and C"."""
    parts: list[str] = []
    size = 0
    while el is not None and size < limit:
        if isinstance(el.tag, str):
            if el.tag in BLOCK_TAGS:
                break
            text = el.text_content()
            parts.append(text)
            size += len(text)
        if el.tail:
            if "\n" in el.tail.strip():
                break
            parts.append(el.tail)
            size += len(el.tail)
        el = el.getnext()
    return normalize_space("".join(parts)).strip(" ;,")


_QUALIFIER_START = ("(", "[", "-", "–", "|", ":", "/", "（", "【")
_QUALIFIER_OPEN = " " + "".join(_QUALIFIER_START)


# A class naming the product's brand ("productView-brand", "product__brand",
# "pdp-brand-name"); a bare "brand" class is also the site logo's ("navbar-brand").
_BRAND_CLASS_RE = re.compile(r"(?:product|item|pdp)[\w-]*brand|brand[\w-]*(?:name|link)(?![\w-]*(?:logo|nav))",
                             re.I)


def _marked_brand(heading: HtmlElement | None) -> str | None:
    """A short text in an element whose class or id names the product's brand.

    Looked for around the page's first <h1> only (its grandparent's subtree):
    shops print the brand beside the name, and walking the whole page cost
    more than the rest of the brand search.
    """
    if heading is None:
        return None
    around = heading.getparent()
    if around is not None and around.getparent() is not None and around.tag != "body":
        around = around.getparent()
    if around is None:
        return None
    for count, el in enumerate(around.iter()):
        if count > 400:
            break
        if not isinstance(el.tag, str):
            continue
        marks = f"{el.get('class') or ''} {el.get('id') or ''}"
        if "rand" not in marks or not _BRAND_CLASS_RE.search(marks):
            continue
        text = normalize_space(el.text_content()[:100])
        text = re.split(r"[:：]", text)[-1].strip() if (":" in text or "：" in text) else text
        if text and len(text) <= 40 and token_count(text) <= 5 and _HAS_LETTER_RE.search(text):
            return text
    return None


_TITLE_SEGMENT_RE = re.compile(r"\s+[|｜–—-]\s+|\s*[|｜]\s*")
_HAS_LETTER_RE = re.compile(r"[^\W\d_]")


def _brand_before_name(name: str, title: str | None, meta: dict[str, str], url: str | None) -> str | None:
    """The words a title puts before the heading's name: "ONLY Leather Look Shirt" -> "ONLY".

    Fashion and retail shops head the page with the bare name and title it
    with the brand in front. A title segment must end with the whole name
    and hold at most four words before it. A site's own name in that place
    ("Amazon.com: ...", "[Shop] ...") is no brand: a prefix that ends with
    a colon, sits in brackets, or names the site (og:site_name, the host) is
    refused.
    """
    site = " ".join(filter(None, (meta.get("og:site_name"), urlsplit(url).hostname if url else None))).lower()
    low_name = name.lower()
    for ref in (title, meta.get("og:title"), meta.get("twitter:title")):
        for segment in _TITLE_SEGMENT_RE.split(normalize_space(ref or "")):
            at = segment.lower().find(low_name)
            if at <= 0 or at + len(low_name) != len(segment):
                continue
            raw = segment[:at].strip()
            prefix = raw.strip(" -–")
            if (not prefix or raw.endswith((":", "：")) or prefix[0] in "[【(（《〈「"
                    or len(prefix.split()) > 4 or not _HAS_LETTER_RE.search(prefix)):
                continue
            if prefix.lower() in site or any(word in site for word in prefix.lower().split() if len(word) > 3):
                continue
            return prefix
    return None


def _prefix_in(text: str, ref: str) -> int:
    """Length of the longest prefix of ``text`` found anywhere in ``ref`` (case-insensitive).

    "Occurs in ref" only gets rarer as the prefix grows, so a binary search
    over the length needs log(n) substring searches. The result is cut back
    to a word boundary when it ends inside a word (CJK has no spaces: kept).
    """
    low, ref_low = text.lower(), ref.lower()
    lo, hi = 0, len(low)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if low[:mid] in ref_low:
            lo = mid
        else:
            hi = mid - 1
    n = lo
    if 0 < n < len(text) and text[n - 1].isalnum() and text[n].isalnum() and ord(text[n - 1]) < 0x2E80:
        n = max(text.rfind(" ", 0, n), 0)
    return n


_NAME_LABELS = ("product name", "goods name", "item name", "商品名称", "商品名稱", "品名", "produktname",
                "nom du produit", "nombre del producto")


def _name_from_page(doc: Document, tree: HtmlElement, props: list[dict[str, str]] | None = None,
                    meta: dict[str, str] | None = None, leaves: list | None = None) -> str | None:
    """The product name shown as a heading, trimmed to the part the <title> agrees on.

    Shops decorate both: the <title> with the site name and sometimes an
    author or category, the heading with a format or variant in brackets
    ("Game Over (Paperback)"). The heading sharing the longest prefix with
    the <title>/og:title is the name; a bracketed or separated qualifier the
    title does not repeat at that place is cut. The title may carry the name
    anywhere ("Shop.com: Name (isbn): Author"). Without such a heading the
    title module's choice (seed 002) is used.
    """
    if meta is None:
        meta = meta_tags(tree)
    tagged = doc.tagged
    refs = [normalize_space(t) for t in (tagged.title(), meta.get("og:title")) if t]
    best: tuple[tuple[bool, int], str] | None = None
    for count, el in enumerate(tagged.tags("h1", "h2", "h3")):
        if count > 40:
            break
        text = _own_text(el)
        if not text or token_count(text) > 40:
            continue
        for ref in refs:
            n = _prefix_in(text, ref)
            # three characters at least; two Chinese characters are a name ("活着")
            if n < 3 and not (n == 2 and CJK_RE.fullmatch(text[0]) and CJK_RE.fullmatch(text[1])):
                continue
            # Names open the title or one of its segments ("Shop: Name | ..."); a
            # byline heading ("by Jane Roe") only matches inside a segment.
            before = ref[:ref.lower().find(text[:n].lower())].rstrip()
            rank = (not before or before[-1] in ":：|-–—»›/《【「", n)
            if best is None or rank > best[0]:
                # the shared prefix may end on the qualifier's opening: "Name (" of
                # "Name (Hardcover)" against "Name (978...)"
                head = text[:n].rstrip(_QUALIFIER_OPEN)
                rest = text[len(head):].strip()
                # a hyphen or slash glued to the word before is the name's own ("GSR 12V-15")
                glued = rest[:1] in ("-", "–", "/") and not text[len(head):len(head) + 1].isspace()
                cut = head.strip() if head.strip() and rest.startswith(_QUALIFIER_START) and not glued else text
                best = (rank, cut)
    if best is not None and token_count(best[1]) > 0:
        return best[1]
    if props:
        # the seed's "goods name" attribute: 商品名称：..., Product name: ...
        for prop in props:
            if prop["name"].lower() in _NAME_LABELS and token_count(prop["value"]) <= 40:
                return prop["value"]
    shown = _shown_title_part(refs[0], leaves) if refs and leaves else None
    return shown or extract_title(doc) or (refs[0] if refs else None)


_TITLE_PART_SPLIT_RE = re.compile(r"\s+[|\-–—»/]\s+|[:：|｜]\s*")
# Tags CJK shops put around a title's name: "【送料無料】Name", "Name【公式】".
_TITLE_TAG_RE = re.compile(r"^(?:\s*【[^【】]{1,20}】)+|(?:【[^【】]{1,20}】\s*)+$")


def _shown_title_part(title: str, leaves: list) -> str | None:
    """The one part of a "Shop: Name" title the page shows as a text of its own.

    Old-style shop pages set the name in bold or a font tag, no heading; the
    site's part of the title is usually not a text of the page. Two or more
    parts shown: undecided (None). Bracketed tags at a part's ends
    ("【送料無料】") are not the name's.
    """
    parts = [_TITLE_TAG_RE.sub("", p).strip() for p in _TITLE_PART_SPLIT_RE.split(title) if p and p.strip()]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return None
    wanted = {p.lower(): p for p in parts if token_count(p) > 0}
    found = {low for leaf in leaves[:3000] if len(leaf) <= 200
             and (low := " ".join(leaf.split()).lower()) in wanted}
    return wanted[found.pop()] if len(found) == 1 else None


# ---------------------------------------------------------------------------
# public
# ---------------------------------------------------------------------------


def _fill_prices(out: dict[str, Any], leaves: list, props: list[dict[str, str]],
                 ctx: PageContext, heading: HtmlElement | None = None, rails: _Rails | None = None) -> None:
    """Price, currency and regular price from the page when structured data left gaps.

    Also sets ``currencyRaw`` to the sign the page shows when structured data
    only gave an ISO code.
    """
    rails = rails or _Rails()
    current, regular, current_at, first_at = _visible_prices(leaves, ctx, rails)
    # With both prices marked on the page, a label-announced price only matters
    # when it comes first: the labels after the marked prices are not read.
    limit = min(first_at, 3000) if current is not None and regular is not None else 3000
    labelled, labelled_regular, labelled_at = _label_prices(leaves, ctx, limit, rails)
    # The product's own price comes first on the page: the earlier source wins.
    if labelled is not None and (current is None or labelled_at < first_at):
        current, current_at = labelled, labelled_at
        first_at = labelled_at
    if current is None or current_at >= 0:
        # a price printed right after the name, before the marked one (or with none marked)
        shown, shown_at = _price_after_heading(leaves, heading, ctx,
                                               len(leaves) if current is None else first_at, rails=rails)
        if shown is not None and (current is None or shown_at < first_at):
            current = shown
    regular = regular or labelled_regular or _label_price(props, _REGULAR_LABELS, ctx)
    current = current or _label_price(props, CURRENT_PRICE_WORDS, ctx)
    if not out["price"] and current is not None:
        out["price"], out["currency"], out["currencyRaw"] = (
            current.amount, current.currency, current.currency_raw)
    elif out["price"] and current is not None and current.currency:
        if not out["currency"]:
            out["currency"], out["currencyRaw"] = current.currency, current.currency_raw
        elif current.currency == currency_code(out["currency"], ctx) and current.currency_raw:
            out["currencyRaw"] = current.currency_raw
        elif current.amount == out["price"] and sign_fits(current.currency_raw,
                                                          currency_code(out["currency"], ctx)):
            # the same price shown with a sign shared by several currencies ("$" for CLP)
            out["currencyRaw"] = current.currency_raw
    if regular is not None and regular.amount != out["price"]:
        try:
            higher = float(regular.amount) > float(out["price"] or 0)
        except ValueError:
            higher = False
        if higher:
            out["regularPrice"] = regular.amount
    if not out["currencyRaw"] and out["currency"]:
        out["currencyRaw"] = out["currency"]
    if out["currency"] and len(out["currency"]) != 3:
        out["currency"] = currency_code(out["currency"], ctx)


def _plain(text: str | None) -> str | None:
    """Descriptions in JSON-LD often carry HTML: keep the text."""
    if not text or "<" not in text:
        return text
    try:
        return lxml_html.fromstring(text).text_content()
    except (ValueError, lxml_etree.ParserError):
        return text


def _page_description(tree: HtmlElement, title: str | None, leaves: list, heading: HtmlElement | None,
                      name: str | None, meta: dict[str, str], url: str | None) -> str | None:
    """The description a page shows when its structured data gives none.

    The text under a description heading or tab first; then a meta
    description that names the product (a site's slogan does not); then the
    first paragraph of prose after the product's heading.
    """
    title = title or meta.get("og:title")
    text = described_section(tree, leaves) or meta_description(meta, name, title, url)
    if text is None and heading is not None:
        start = _heading_leaf(leaves, heading, len(leaves))
        text = prose_after(leaves, start) if start is not None else None
    return text


def _check_digit(body: str) -> int:
    """GS1 check digit of the digits before it: weights 3, 1, 3 ... from the right."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return (10 - total % 10) % 10


def valid_gtin(value: Any) -> str | None:
    """A GTIN-8/12/13/14 whose check digit is right, as digits; None otherwise.

    Pages fill the field with placeholders ("0000000000000") and template
    leftovers ("Size"): the check digit catches them. A valid ISBN-10 is
    turned into its GTIN-13 (978 prefix), which is what it is as a barcode.
    """
    code = re.sub(r"[\s-]", "", str(value or "")).upper()
    if len(code) == 10 and code[:9].isdigit() and (code[9].isdigit() or code[9] == "X"):
        isbn_check = (11 - sum((10 - i) * int(d) for i, d in enumerate(code[:9])) % 11) % 11
        if (code[9] == "X" and isbn_check == 10) or (code[9].isdigit() and int(code[9]) == isbn_check):
            body = "978" + code[:9]
            return body + str(_check_digit(body))
        return None
    if not code.isdigit() or len(code) not in (8, 12, 13, 14) or not code.strip("0"):
        return None
    return code if _check_digit(code[:-1]) == int(code[-1]) else None


# Placeholders a template prints where an identifier or brand is missing.
_PLACEHOLDERS = frozenset("n/a na n.a. none null undefined nil unknown tbd tba - -- — ― / 0".split())


def identifier_value(value: str | None) -> str | None:
    """``value`` unless it is a label, a delimiter or a placeholder ("SKU:", "Model #", "N/A")."""
    if not value:
        return None
    text = " ".join(value.split())
    low = text.lower()
    if label_like(text) or low in _PLACEHOLDERS or low.rstrip(".") in _LABEL_INDEX:
        return None
    return text


def _finish(out: dict[str, Any]) -> dict[str, Any]:
    """Normalise strings, the price and a brand written as "label: brand"; no label is a value."""
    for key in LABEL_FIELDS:
        out[key] = identifier_value(out[key]) if isinstance(out[key], str) else out[key]
    if out["brand"] and (":" in out["brand"] or "：" in out["brand"]):
        # "See more from the brand: Acme" -> "Acme"
        out["brand"] = re.split(r"[:：]", out["brand"])[-1].strip() or out["brand"]
    if out["price"]:
        out["price"] = normalize_amount(out["price"]) or out["price"]
    out["description"] = _plain(out["description"])
    for key in FIELDS:
        value = out[key]
        if isinstance(value, str):
            out[key] = normalize_space(value) or None
    return out


def extract_product_fields(doc: Document, extra_attributes: list[str] | None = None) -> dict:
    """Every Product field (see items.Product) except url/pageType, JSON-serialisable.

    ``extra_attributes`` extends the records method's attribute dictionary
    (the ``CONTENTEX_RECORD_ATTRIBUTES`` setting). The cyclic garbage
    collector is paused meanwhile (``gcpause``): the call makes no cycles.
    """
    with gc_paused():
        return _product_fields(doc, extra_attributes)


def _product_fields(doc: Document, extra_attributes: list[str] | None) -> dict:
    """:func:`extract_product_fields`, with the collector already paused."""
    tree = doc.tree
    tagged = doc.tagged  # one walk for the tags the scans below read (scripts and metas too)
    objects = document_objects(doc)  # shared with the kind guess: read, never change
    meta = doc.meta  # shared too
    declared_lang = next((_str(o.get("inLanguage")) for o in objects if o.get("inLanguage")), None)
    ctx = _page_context(doc, tree, declared_lang, meta)

    out: dict[str, Any] = dict.fromkeys(FIELDS)
    structured = _structured_fields(objects, ctx)
    meta_fields = _meta_fields(product_meta(tree, meta), ctx)
    for source in (structured, meta_fields):
        for key, value in source.items():
            if out.get(key) is None and value:
                out[key] = value

    leaves = body_leaves(doc)  # shared with the kind guess
    params = RecordParams(extra_attributes=list(extra_attributes or []))
    props = list(document_records(doc, params).properties)  # a copy: an author may be added
    out["additionalProperties"] = props
    # Identifier pairs fill gaps, and replace a declared sku that the page never
    # shows (a variant's code) or that is only the URL's number: otherwise the
    # scan cannot change anything.
    unshown = bool(out.get("sku")) and (not _shown(str(out["sku"]), leaves) or _in_url(str(out["sku"]), doc.url))
    missing = unshown or any(not out.get(k) for k in LABEL_FIELDS)
    pairs = props + (_identifier_pairs(leaves) if missing else [])
    for key, value in _from_props(pairs).items():
        if key == "gtin":
            value = valid_gtin(value)
        if not out.get(key):
            out[key] = value
    if unshown:
        out["sku"] = _labelled_code(pairs) or out["sku"]
    if not out["sku"]:
        out["sku"] = _sku_from_url(doc.url, leaves)
    heading = _product_heading(tagged, meta)
    rails = _Rails()  # rails of other products: their prices and stock are not this one's
    _fill_prices(out, leaves, props, ctx, heading, rails)

    if not out["availability"]:
        out["availability"] = _visible_availability(tagged, leaves, rails)
    if not out["availability"] and out["price"]:
        # A shop shows a price for what it sells; sold-out pages say so, and
        # that was looked for above. Price without any stock word: in stock.
        out["availability"] = "InStock"
    if not out["name"]:
        out["name"] = _name_from_page(doc, tree, props, meta, leaves)
    if not out["brand"]:
        out["brand"] = _marked_brand(heading)
    if not out["brand"] and out["name"]:
        out["brand"] = _brand_before_name(out["name"], tagged.title(), meta, doc.url)
    if not out["description"]:
        out["description"] = _page_description(tree, tagged.title(), leaves, heading, out["name"], meta,
                                               doc.url)
    bookish = any(_BOOK_LABEL_RE.search(p["name"]) for p in props) or any(
        "Book" in types_of(o) for o in objects)
    if bookish and not any(p["name"].lower() in ("author", "作者", "authors") for p in props):
        author = _byline(leaves) or next(iter(markup_authors(tree)), None)
        if author:
            props.append({"name": "author", "value": author})
    return _finish(out)
