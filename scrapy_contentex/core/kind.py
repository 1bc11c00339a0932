"""Article or product: what kind of content page this is.

Evidence, strongest first:

1. structured data the publisher wrote: JSON-LD / microdata types (Product,
   Offer vs Article, NewsArticle, BlogPosting, DiscussionForumPosting ...) and
   ``og:type`` ("product" vs "article");
2. the page itself: product meta tags (``product:price:amount``), an
   add-to-cart control, a shown price (price-marked element, price label or a
   text that is only a price), a stock statement, identifier labels (SKU:,
   ISBN:, 品牌：) and a record area (seed 000's WVC + Viterbi walk) holding
   several dictionary-labelled pairs, against the amount of prose (long,
   punctuated paragraphs).

Each signal adds to a score, and "product" needs a score above 1 *and* at
least two kinds of evidence. Pages default to "article": most content pages
on the web are articles, and a wrong "product" guess on an article loses its
body, which is the costlier mistake.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from .declared import (
    ANSWER,
    ARTICLE,
    BLOG,
    COMMENT,
    OFFER,
    OG_ARTICLE,
    OG_PRODUCT,
    POSTING,
    PRODUCT,
    THREAD,
    og_type,
    page_types,
)
from .document import Document, body_of
from .lang import has_punct, normalize_space, token_count
from .records import body_leaves
from .shop_words import CART_ATTR_RE, CART_RE, CURRENT_PRICE_WORDS, LABEL_FIELDS, words_pattern

#: Types of a shop page: goods and offers. Not the creative works shops sell too
#: (books, software): review and documentation pages declare those.
PRODUCT_TYPES = PRODUCT | OFFER
#: Types of everything read as text: articles and posts, threads and Q&As with their
#: answers and comments (a product page declares none of them), a blog.
ARTICLE_TYPES = ARTICLE | POSTING | THREAD | ANSWER | COMMENT | BLOG

_PRICE_TEXT_RE = re.compile(
    r"(?:[$€£¥₹₽₩￥]|US\$|RMB|CHF|EUR|USD|zł|Kč|kr|Lei|Kn|тг|руб|元|円|원)\s?\d[\d.,\s]{0,12}|"
    r"\d[\d.,\s]{0,12}\s?(?:[$€£¥₹₽₩]|元|円|원|zł|Kč|kr|Lei|Kn|тг|руб|CHF|EUR)",
    re.I,
)
_PRICE_CLASS_RE = re.compile(r"price|preis|prix|precio|prezzo|cena", re.I)


def _structured_vote(doc: Document) -> int:
    """+1 product, -1 article, 0 unknown, from types the page declares."""
    types, og = page_types(doc, microdata=True), og_type(doc)
    product = bool(types & PRODUCT_TYPES) or OG_PRODUCT in og
    article = bool(types & ARTICLE_TYPES) or og in OG_ARTICLE
    if product and not article:
        return 1
    if article and not product:
        return -1
    return 0


_INLINE = frozenset(("br", "a", "b", "strong", "em", "i", "span", "font"))


def _prose_tokens(body: HtmlElement) -> int:
    """Tokens in long, punctuated paragraphs: the mass of an article.

    A paragraph is an element's own text plus its inline children; elements
    with hundreds of children are containers, not paragraphs, and only their
    first children are read, so the cost stays linear on any page.
    """
    total = 0
    for count, el in enumerate(body.iter("p", "div", "td", "article", "section", "li")):
        if total > 600 or count > 20_000:
            break  # past the largest threshold the exact amount no longer matters
        parts = [el.text or ""]
        for index, child in enumerate(el):
            if index > 200:
                break
            if isinstance(child.tag, str) and child.tag in _INLINE and child.tag != "br":
                parts.append(child.text_content()[:2000])
            if child.tail:
                parts.append(child.tail)
        text = " ".join(parts)
        if len(text) < 40:
            continue
        n = token_count(text)
        if n >= 25 and has_punct(text, 3):
            total += n
    return total


# Identifier and brand labels ("SKU:", "Marka:", "品牌："): the product extractor's
# field labels, plus model and specification words and ISBN's spellings.
_ID_LABEL_WORDS = tuple(word for words in LABEL_FIELDS.values() for word in words) + (
    "model", "型号", "型號", "规格", "規格", "isbn 10", "isbn 13", "isbn-10", "isbn10",
)
_ID_LABEL_RE = re.compile(r"^[\s〈《【(\[]*" + words_pattern(_ID_LABEL_WORDS) + r"\s*(?:[:：#]|$)")


_PRICE_LABEL_RE = re.compile(
    r"^\s*" + words_pattern(CURRENT_PRICE_WORDS) + r"\s*[:：]?\s*[$¥￥€£]?\s*[\d.,]*\s*$"
)  # matched against lower-cased text (re.I on big alternations is slow)



def _text_signals(leaves: list) -> tuple[bool, int, bool, bool, bool]:
    """Short-text evidence of a shop page, from one pass over the text leaves.

    A stock statement ("In stock", "缺货"), the number of identifier labels
    (SKU:, ISBN:, 品牌：), a price label ("售價", "Price:"), a cart label in
    any element ("我要購買" on a div) and a text that is only a price
    ("$2,320", "99元") — the last three for shops whose controls and price
    elements carry no telling class.
    """
    from .product import _stock_matches

    # one scan for stock phrases (the phrase must be most of its text)
    stock = any(len(phrase) >= 0.45 * len(leaf.strip())
                for leaf, phrase in _stock_matches(leaves, 60))
    price_label = False
    short_cart = False
    short_price = False
    identifiers = 0
    for leaf in leaves:
        if len(leaf) > 60:
            continue
        low = leaf.lower()
        if not short_cart and len(leaf) < 30:
            short_cart = bool(CART_RE.search(low))
        if not short_price and len(leaf) < 24:
            short_price = bool(_SHORT_PRICE_RE.match(leaf))
        if _ID_LABEL_RE.match(low):
            identifiers += 1
        if not price_label and len(leaf) < 30 and _PRICE_LABEL_RE.match(low):
            price_label = True
    return stock, identifiers, price_label, short_cart, short_price


_SHORT_PRICE_RE = re.compile(
    r"^\s*(?:(?:NT|US|HK|C|A|R)?[$€£¥₹₽₩￥]|RMB|CHF|EUR|USD)\s?\d[\d.,]{0,12}\s*$|"
    r"^\s*\d[\d.,\s]{0,12}\s?(?:[€£¥₹₽₩]|元|円|원|zł|Kč|kr|Lei|Kn|тг|руб|CHF|EUR)\.?\s*$",
    re.I,
)


def _record_area_labels(doc: Document) -> int:
    """Dictionary-labelled pairs in the seed 000 record area (WVC + Viterbi walk).

    Spec lists (Brand:, 重量：, ISBN ...) make a record area; articles have at
    most a byline and a date there.
    """
    from .records import container_for, document_records

    container = container_for()
    result = document_records(doc)  # shared with the product extractor
    return sum(1 for p in result.properties if container.label_of(p["name"]) is not None)


# Elements whose class or id names a price (compiled once: ``el.xpath(str)``
# compiles its expression on every call).
_PRICE_ELEMENTS = etree.XPath(".//*[contains(@class, 'price') or contains(@class, 'Price')"
                              " or contains(@id, 'price') or @itemprop='price']")


def _page_evidence(doc: Document) -> tuple[float, int]:
    """:func:`product_evidence` without the record area (the costly walk), which
    can only add +1 and one kind to what this returns."""
    score, kinds, body = _shop_evidence(doc)
    if body is not None:
        score -= _prose_penalty(body)
    return score, kinds


def _prose_penalty(body: HtmlElement) -> float:
    """What the prose of a page takes off its shop score (0, 0.75 or 1.5)."""
    prose = _prose_tokens(body)
    if prose > 600:
        return 1.5
    if prose > 250:
        return 0.75
    return 0.0


def _shop_evidence(doc: Document) -> tuple[float, int, HtmlElement | None]:
    """Score and kinds of shop evidence before the prose penalty, and the body
    the penalty is read from (None: the page has no body, and no penalty)."""
    tree = doc.tree
    score = 0.0
    kinds = 0
    vote = _structured_vote(doc)
    score += 3.0 * vote
    kinds += 2 if vote > 0 else 0
    meta = doc.meta
    if any(k.startswith(("product:price", "og:price")) for k in meta):
        score += 2.0
        kinds += 2
    body = body_of(tree)
    if body is tree:
        return score, kinds, None
    cart = 0
    prices = 0
    for count, el in enumerate(body.iter("button", "input", "a", "form")):
        if count > 5000:
            break
        label = el.get("value") if el.tag == "input" else normalize_space(el.text_content()[:200])
        attrs = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('name') or ''} {el.get('action') or ''}"
        if (label and len(label) < 40 and CART_RE.search(label.lower())) or CART_ATTR_RE.search(attrs):
            cart += 1
            break
    for el in _PRICE_ELEMENTS(body):
        text = normalize_space(el.text_content()[:200])[:60]
        if _PRICE_TEXT_RE.search(text):
            prices += 1
            break
    stock, identifiers, price_label, short_cart, short_price = _text_signals(body_leaves(doc))
    if cart or short_cart:
        score += 1.25
        kinds += 1
    if prices or price_label or short_price:
        score += 1.0
        kinds += 1
    if stock:
        score += 1.0
        kinds += 1
    if identifiers:
        score += 1.0 if identifiers < 3 else 1.5
        kinds += 1
    return score, kinds, body


def product_evidence(doc: Document) -> tuple[float, int]:
    """(score, number of distinct kinds of shop evidence) of a page.

    Score: structured types +-3, product meta price +2, add-to-cart +1.25,
    a shown price +1, a stock statement +1, identifier labels +1/+1.5, a
    record area with at least four dictionary labels +1, minus a prose
    penalty (articles are long punctuated paragraphs; product descriptions
    and reviews are shorter, so the penalty is bounded).
    """
    score, kinds = _page_evidence(doc)
    if _record_area_labels(doc) >= 4:
        score += 1.0
        kinds += 1
    return score, kinds


def guess_kind(doc: Document) -> str:
    """"product" when shop signals outweigh prose and at least two kinds agree, else "article".

    One signal alone (a "Buy now" banner on a forum, a price in a news story)
    is not enough: a wrong "product" guess loses an article's body.
    """
    score, kinds, body = _shop_evidence(doc)
    # The prose penalty (0 to 1.5) and the record area (+1 and one kind at
    # most) are read only when they can change the answer: most articles
    # show no shop evidence at all, and a declared product stays one.
    if body is not None and _undecided(score, kinds, low=score - 1.5, high=score + 1.0):
        score -= _prose_penalty(body)
    if (not _is_product(score, kinds) and _is_product(score + 1.0, kinds + 1)
            and _record_area_labels(doc) >= 4):
        score, kinds = score + 1.0, kinds + 1
    return "product" if _is_product(score, kinds) else "article"


def _undecided(score: float, kinds: int, low: float, high: float) -> bool:
    """Whether the answer for ``kinds`` kinds differs somewhere between the
    scores ``low`` and ``high`` (the record area may add a kind at the top)."""
    product_at_low = _is_product(low, kinds)
    product_at_high = _is_product(score, kinds) or _is_product(high, kinds + 1)
    return product_at_low != product_at_high


def _is_product(score: float, kinds: int) -> bool:
    return score > 1.0 and kinds >= 2


def record_page(doc: Document, min_labels: int = 4, max_repeats: int = 2) -> bool:
    """A product's own page, whatever its links: a record area of at least
    ``min_labels`` dictionary labels, each shown about once, and shop
    evidence that says product.

    Shop pages carry menus, filters and related-product rails, so by their
    link blocks alone (seed 004) many read as index pages; the record area
    (seed 000) is what a list of products does not have: one item's
    attribute/value pairs. A list whose tiles carry "Brand: / Price:" lines
    repeats each label once per tile: the median label count over the area
    must stay at most ``max_repeats``.
    """
    if _record_area_labels(doc) < min_labels:
        return False
    from .records import container_for, document_records

    container = container_for()
    counts = sorted(n for k, n in document_records(doc).counts.items() if 0 < k < container.label_cell)
    if not counts or counts[len(counts) // 2] > max_repeats:
        return False
    return guess_kind(doc) == "product"
