"""Article or product: what kind of content page this is.

Evidence, strongest first:

1. structured data the publisher wrote: JSON-LD / microdata types (Product,
   Offer vs Article, NewsArticle, BlogPosting, DiscussionForumPosting ...) and
   ``og:type`` ("product" vs "article");
2. the page itself: a shown price near an add-to-cart control, product meta
   tags (``product:price:amount``), a record area (labelled attribute pairs
   weighted by seed 000's WVC) against the amount of prose (long, punctuated
   paragraphs).

Each signal adds to a score; positive means product. Pages default to
"article": most content pages on the web are articles, and a wrong "product"
guess on an article loses its body, which is the costlier mistake.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from .document import Document
from .lang import normalize_space, punct_count, token_count
from .structured import json_ld_objects, meta_tags, microdata_items, types_of

PRODUCT_TYPES = frozenset(
    "Product ProductGroup ProductModel IndividualProduct SomeProducts Offer AggregateOffer "
    "Vehicle Car".split()
)
ARTICLE_TYPES = frozenset(
    "Article NewsArticle BlogPosting Blog ReportageNewsArticle AnalysisNewsArticle "
    "OpinionNewsArticle ScholarlyArticle TechArticle LiveBlogPosting DiscussionForumPosting "
    "SocialMediaPosting QAPage Question Answer Comment Report".split()
)
_CART_RE = re.compile(
    r"add[\s-]*to[\s-]*(cart|bag|basket|trolley)|buy[\s-]*(it\s+)?now|加入购物车|立即购买|"
    r"warenkorb|ajouter au panier|al carrito|ao carrinho|al carrello|do koszyka|košík|"
    r"košaric|в корзину|장바구니|カートに入れる|winkelwagen|varukorg|în coș|kosárba|"
    r"add[-_]?to[-_]?cart|addtocart|buy[-_]?box",
    re.I,
)
_PRICE_TEXT_RE = re.compile(
    r"(?:[$€£¥₹₽₩￥]|US\$|RMB|CHF|EUR|USD|zł|Kč|kr|Lei|Kn|тг|руб|元|円|원)\s?\d[\d.,\s]{0,12}|"
    r"\d[\d.,\s]{0,12}\s?(?:[$€£¥₹₽₩]|元|円|원|zł|Kč|kr|Lei|Kn|тг|руб|CHF|EUR)",
    re.I,
)
_PRICE_CLASS_RE = re.compile(r"price|preis|prix|precio|prezzo|cena", re.I)


def _structured_vote(tree: HtmlElement) -> int:
    """+1 product, -1 article, 0 unknown, from types the page declares."""
    types: set[str] = set()
    for obj in json_ld_objects(tree):
        types |= types_of(obj)
    for item in microdata_items(tree):
        types |= types_of(item)
    og_type = (meta_tags(tree).get("og:type") or "").lower()
    product = bool(types & PRODUCT_TYPES) or "product" in og_type
    article = bool(types & ARTICLE_TYPES) or og_type in ("article", "blog", "news")
    if product and not article:
        return 1
    if article and not product:
        return -1
    return 0


def _prose_tokens(body: HtmlElement) -> int:
    """Tokens in long, punctuated paragraphs: the mass of an article."""
    total = 0
    for el in body.iter("p", "div", "td", "article", "section", "li"):
        text = normalize_space(el.text or "")
        for child in el:
            if isinstance(child.tag, str) and child.tag in ("br", "a", "b", "strong", "em", "i",
                                                           "span", "font"):
                text += " " + normalize_space(child.text_content() if child.tag != "br" else "")
            if child.tail:
                text += " " + normalize_space(child.tail)
        n = token_count(text)
        if n >= 25 and punct_count(text) >= 3:
            total += n
    return total


def product_score(doc: Document) -> float:
    """Positive for product pages, negative for articles (a sum of signal votes)."""
    tree = doc.tree
    score = 0.0
    vote = _structured_vote(tree)
    score += 3.0 * vote
    meta = meta_tags(tree)
    if any(k.startswith(("product:price", "og:price")) for k in meta):
        score += 2.0
    body = tree.find(".//body")
    if body is None:
        return score
    cart = 0
    prices = 0
    for el in body.iter():
        if not isinstance(el.tag, str) or el.tag in ("script", "style"):
            continue
        if el.tag in ("button", "input", "a", "form"):
            label = el.get("value") if el.tag == "input" else normalize_space(el.text_content())[:60]
            attrs = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('name') or ''} {el.get('action') or ''}"
            if (label and len(label) < 40 and _CART_RE.search(label)) or _CART_RE.search(attrs):
                cart += 1
        marks = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}"
        if _PRICE_CLASS_RE.search(marks):
            text = normalize_space(el.text_content())[:60]
            if _PRICE_TEXT_RE.search(text):
                prices += 1
    if cart:
        score += 1.5
    if prices:
        score += 1.0
    prose = _prose_tokens(body)
    if prose > 600:
        score -= 2.0
    elif prose > 250:
        score -= 1.0
    elif prose < 80:
        score += 0.5
    return score


def guess_kind(doc: Document) -> str:
    """"product" when product signals outweigh article ones, else "article"."""
    return "product" if product_score(doc) > 1.0 else "article"
