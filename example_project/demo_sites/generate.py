"""Write the static demo sites (news + shop) and the manifest the tests read.

Run once after editing articles.py / products.py:

    python example_project/demo_sites/generate.py

The pages are plain, well-formed HTML with the furniture real sites have
(navigation, ads, related links, comments, spec tables, footers), some
Chinese pages in GBK with a GBK meta charset, one UTF-8 page that declares
gb2312, and one RSS feed / JSON file linked from the sites (non-HTML that the
crawl must skip). Files are committed; the script only documents how.
"""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from articles import ARTICLES  # noqa: E402
from products import PRODUCTS  # noqa: E402

PER_PAGE = 3
SECTIONS = {"tech": "Technology", "science": "Science & Nature", "guonei": "国内新闻"}
CATEGORIES = {"kitchen": "Kitchen", "outdoor": "Outdoor", "chaju": "茶具 Tea ware"}

COMMENTS = {
    "en": [
        ("river_fox", "2025-03-03 11:02", "Good to see this covered at last."),
        ("m.patel", "3 hours ago", "I would like to know what it cost."),
        ("oldtimer42", "yesterday", "My grandfather said the same thing years ago."),
        ("june_b", "2025-02-15 19:40", "Thanks for the clear write-up."),
    ],
    "zh": [
        ("网友小王", "2025-03-01 12:30", "希望其他线路也能尽快跟上。"),
        ("老街坊", "昨天 18:05", "支持，这是好事。"),
        ("绿萝", "3小时前", "写得很清楚，点赞。"),
        ("过路人", "2024-12-01 09:12", "什么时候能推广到我们区？"),
    ],
}
ADS = {
    "en": "Sponsored: Switch your energy plan in five minutes and save",
    "zh": "广告：新用户注册即送优惠券，限时领取",
}


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def article_path(a: dict) -> str:
    return f"/news/{a['date'][:4]}/{a['slug']}.html"


def tag_path(tag: str) -> str:
    return f"/news/tag/{ALL_TAGS.index(tag) + 1}.html"


def section_path(section: str, page: int = 1) -> str:
    return f"/news/section/{section}-{page}.html"


def product_path(p: dict) -> str:
    return f"/shop/product/{p['slug']}.html"


def category_path(cat: str, page: int = 1) -> str:
    return f"/shop/category/{cat}-{page}.html"


ALL_TAGS: list[str] = sorted({t for a in ARTICLES for t in a["tags"]})


def head(title: str, charset: str, extra: str = "") -> str:
    if charset.lower() in ("gbk", "gb2312"):
        meta = f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">'
    else:
        meta = f'<meta charset="{charset}">'
    return (f"<head>\n{meta}\n<title>{esc(title)}</title>\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<link rel="stylesheet" href="/static/site.css">\n{extra}</head>\n')


def news_header(lang: str) -> str:
    items = [('/news/index.html', "Home")] + [(section_path(s), n) for s, n in SECTIONS.items()]
    links = "".join(f'<li><a href="{u}">{esc(n)}</a></li>' for u, n in items)
    return (
        '<header class="site-header">\n<div class="logo"><a href="/news/index.html">'
        "The Riverside Courier</a></div>\n"
        f'<nav class="main-nav"><ul>{links}</ul></nav>\n'
        '<form class="search" action="/search"><input name="q" placeholder="Search">'
        "<button>Go</button></form>\n</header>\n"
        f'<div class="ad ad-banner"><a href="https://ads.example.net/c?n=1">{esc(ADS[lang])}</a>'
        "</div>\n"
    )


def popular_box() -> str:
    items = "".join(
        f'<li><a href="{article_path(a)}">{esc(a["headline"])}</a></li>' for a in ARTICLES[:5]
    )
    return f'<aside class="popular"><h3>Most read</h3><ol>{items}</ol></aside>\n'


def news_footer() -> str:
    return (
        '<footer class="site-footer">\n<ul class="footer-links"><li><a href="#">About us</a></li>'
        '<li><a href="#">Contact</a></li><li><a href="#">Privacy policy</a></li>'
        '<li><a href="/news/feed.xml">RSS</a></li></ul>\n'
        "<p>Copyright &copy; 2025 The Riverside Courier. All rights reserved. "
        "Reproduction without permission is prohibited.</p>\n</footer>\n"
    )


def write(path: str, text: str, encoding: str = "utf-8") -> None:
    target = HERE / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(text.encode(encoding, errors="xmlcharrefreplace"))


def article_page(i: int, a: dict) -> str:
    lang = a["lang"]
    encoding = a.get("encoding", "utf-8")
    charset = a.get("meta_charset", encoding)
    section = a["section"]
    extra = f'<meta name="description" content="{esc(a["paragraphs"][0][:120])}">\n'
    if i % 2 == 0:
        extra += (f'<meta property="og:title" content="{esc(a["headline"])}">\n'
                  f'<meta property="article:published_time" content="{a["date"]}T08:00:00Z">\n')
    related = [ARTICLES[(i + k) % len(ARTICLES)] for k in (1, 2, 3)]
    related_html = "".join(
        f'<li><a href="{article_path(r)}">{esc(r["headline"])}</a></li>' for r in related
    )
    tags = " ".join(f'<a href="{tag_path(t)}">{esc(t)}</a>' for t in a["tags"])
    comments = [COMMENTS[lang][(i + k) % 4] for k in (0, 1)]
    comments_html = "".join(
        f'<div class="comment"><span class="user">{esc(u)}</span> '
        f'<span class="time">{esc(t)}</span><p>{esc(c)}</p>'
        '<a href="#" class="reply">Reply</a></div>\n'
        for u, t, c in comments
    )
    body = "\n".join(f"<p>{esc(p)}</p>" for p in a["paragraphs"])
    crumbs = (f'<div class="breadcrumb"><a href="/news/index.html">Home</a> &rsaquo; '
              f'<a href="{section_path(section)}">{esc(SECTIONS[section])}</a></div>\n')
    return (
        f'<!DOCTYPE html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}">\n'
        + head(f"{a['headline']} - The Riverside Courier", charset, extra)
        + "<body>\n" + news_header(lang) + crumbs
        + '<div class="layout">\n<main>\n<article class="story">\n'
        f'<h1 class="headline">{esc(a["headline"])}</h1>\n'
        f'<div class="byline">{esc(a["byline"])}</div>\n'
        '<div class="share"><a href="#">Share</a> <a href="#">Tweet</a> '
        '<a href="#">Email</a></div>\n'
        f'<div class="story-body">\n{body}\n</div>\n'
        f'<div class="tags">Tags: {tags}</div>\n</article>\n'
        '<div class="ad ad-inline"><a href="https://ads.example.net/c?n=2">'
        f"{esc(ADS[lang])}</a></div>\n"
        f'<aside class="related"><h3>Related stories</h3><ul>{related_html}</ul></aside>\n'
        f'<section class="comments"><h3>Comments ({len(comments)})</h3>\n{comments_html}'
        "</section>\n</main>\n" + popular_box() + "</div>\n" + news_footer()
        + "</body>\n</html>\n"
    )


def teaser(a: dict) -> str:
    return (
        f'<div class="teaser"><h2><a href="{article_path(a)}">{esc(a["headline"])}</a></h2>'
        f'<span class="date">{a["date"]}</span><p>{esc(a["paragraphs"][0][:90])}...</p>'
        f'<a class="more" href="{article_path(a)}">Read more</a></div>\n'
    )


def list_page(title: str, teasers: list[str], pager: str, lang: str = "en") -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n' + head(f"{title} - The Riverside Courier", "utf-8")
        + "<body>\n" + news_header(lang[:2]) + f'<div class="layout">\n<main>\n<h1>{esc(title)}</h1>\n'
        + "".join(teasers) + pager + "</main>\n" + popular_box() + "</div>\n" + news_footer()
        + "</body>\n</html>\n"
    )


def pager_html(path_of, page: int, pages: int) -> str:
    if pages <= 1:
        return ""
    parts = []
    if page > 1:
        parts.append(f'<a href="{path_of(page - 1)}">&laquo; Previous</a>')
    parts += [f'<a href="{path_of(n)}">{n}</a>' for n in range(1, pages + 1) if n != page]
    if page < pages:
        parts.append(f'<a href="{path_of(page + 1)}">Next &raquo;</a>')
    return '<div class="pagination">' + " ".join(parts) + "</div>\n"


def build_news() -> list[str]:
    index_pages = ["/news/index.html"]
    write("/news/index.html", list_page("Latest news", [teaser(a) for a in ARTICLES[:6]],
                                        '<p><a href="/news/missing-page.html">Archive</a></p>\n'))
    for section in SECTIONS:
        items = [a for a in ARTICLES if a["section"] == section]
        pages = (len(items) + PER_PAGE - 1) // PER_PAGE
        for page in range(1, pages + 1):
            chunk = items[(page - 1) * PER_PAGE: page * PER_PAGE]
            path = section_path(section, page)
            pager = pager_html(lambda n, s=section: section_path(s, n), page, pages)
            lang = "zh-CN" if section == "guonei" else "en"
            write(path, list_page(SECTIONS[section], [teaser(a) for a in chunk], pager, lang))
            index_pages.append(path)
    cloud = '<div class="tag-cloud">' + " ".join(
        f'<a href="{tag_path(t)}">{esc(t)}</a>' for t in ALL_TAGS) + "</div>\n"
    for tag in ALL_TAGS:
        items = [teaser(a) for a in ARTICLES if tag in a["tags"]]
        write(tag_path(tag), list_page(f"Tag: {tag}", items, cloud))
        index_pages.append(tag_path(tag))
    for i, a in enumerate(ARTICLES):
        write(article_path(a), article_page(i, a), a.get("encoding", "utf-8"))
    items = "".join(
        f"<item><title>{esc(a['headline'])}</title><link>{article_path(a)}</link></item>"
        for a in ARTICLES)
    write("/news/feed.xml", '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0">'
          f"<channel><title>The Riverside Courier</title>{items}</channel></rss>\n")
    return index_pages


def shop_header(lang: str) -> str:
    cats = "".join(f'<li><a href="{category_path(c)}">{esc(n)}</a></li>'
                   for c, n in CATEGORIES.items())
    cart = "购物车" if lang == "zh" else "Cart"
    return (
        '<header class="shop-header"><div class="logo"><a href="/shop/index.html">'
        "Fieldhouse Goods</a></div>\n"
        f'<nav class="categories"><ul><li><a href="/shop/index.html">Home</a></li>{cats}</ul></nav>\n'
        f'<div class="account"><a href="#">Sign in</a> | <a href="#">{cart} (0)</a></div>\n'
        "</header>\n"
    )


def shop_footer() -> str:
    return (
        '<footer class="shop-footer"><ul><li><a href="#">Shipping</a></li>'
        '<li><a href="#">Returns</a></li><li><a href="/shop/api/stock.json">Stock API</a></li>'
        "</ul><p>&copy; 2025 Fieldhouse Goods Ltd. All rights reserved.</p></footer>\n"
    )


def jsonld(p: dict) -> str:
    data = {
        "@context": "https://schema.org", "@type": "Product", "name": p["name"],
        "sku": p["sku"], "brand": {"@type": "Brand", "name": p["brand"]},
        "description": p["description"],
        "offers": {"@type": "Offer", "price": p["price"], "priceCurrency": p["currency"],
                   "availability": f"https://schema.org/{p['availability']}"},
    }
    return ('<script type="application/ld+json">'
            + json.dumps(data, ensure_ascii=False) + "</script>\n")


def product_page(i: int, p: dict) -> str:
    zh = p["lang"] == "zh"
    encoding = p.get("encoding", "utf-8")
    labels = ({"stock": ("有货", "缺货"), "sku": "商品编号", "brand": "品牌", "buy": "加入购物车",
               "specs": "规格参数", "desc": "商品详情", "reviews": "用户评价", "related": "相关商品"}
              if zh else
              {"stock": ("In stock", "Out of stock"), "sku": "SKU", "brand": "Brand",
               "buy": "Add to cart", "specs": "Specifications", "desc": "Description",
               "reviews": "Customer reviews", "related": "You may also like"})
    stock = labels["stock"][0 if p["availability"] == "InStock" else 1]
    specs = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in p["specs"])
    related = [PRODUCTS[(i + k) % len(PRODUCTS)] for k in (1, 2, 3)]
    related_html = "".join(f'<li><a href="{product_path(r)}">{esc(r["name"])}</a> '
                           f'<span class="price">{esc(r["price_text"])}</span></li>'
                           for r in related)
    reviews = (["很好用，包装也很仔细。", "物流快，和描述一致。"] if zh
               else ["Exactly as described, well packed.", "Good value, would buy again."])
    reviews_html = "".join(f'<div class="review"><span class="stars">★★★★☆</span><p>{esc(r)}</p></div>'
                           for r in reviews)
    extra = jsonld(p) if p["jsonld"] else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{"zh-CN" if zh else "en"}">\n'
        + head(f"{p['name']} | Fieldhouse Goods", encoding, extra) + "<body>\n"
        + shop_header(p["lang"])
        + f'<div class="breadcrumb"><a href="/shop/index.html">Home</a> &rsaquo; '
        f'<a href="{category_path(p["category"])}">{esc(CATEGORIES[p["category"]])}</a></div>\n'
        '<div class="product">\n<div class="gallery"><img src="/static/placeholder.png" '
        f'alt="{esc(p["name"])}"></div>\n<div class="summary">\n'
        f'<h1 class="product-title">{esc(p["name"])}</h1>\n'
        f'<div class="price">{esc(p["price_text"])}</div>\n'
        f'<div class="stock">{esc(stock)}</div>\n'
        f'<div class="meta">{labels["sku"]}: <span class="sku">{esc(p["sku"])}</span> | '
        f'{labels["brand"]}: <span class="brand">{esc(p["brand"])}</span></div>\n'
        f'<form action="#" class="buy"><input type="number" value="1"><button>{labels["buy"]}'
        "</button></form>\n</div>\n</div>\n"
        f'<section class="description"><h2>{labels["desc"]}</h2><p>{esc(p["description"])}</p>'
        "</section>\n"
        f'<section class="specs"><h2>{labels["specs"]}</h2><table class="spec-table">{specs}'
        "</table></section>\n"
        f'<section class="reviews"><h2>{labels["reviews"]}</h2>{reviews_html}</section>\n'
        f'<aside class="related"><h3>{labels["related"]}</h3><ul>{related_html}</ul></aside>\n'
        + shop_footer() + "</body>\n</html>\n"
    )


def shop_list_page(title: str, cards: list[str], pager: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n' + head(f"{title} | Fieldhouse Goods", "utf-8")
        + "<body>\n" + shop_header("en") + f"<h1>{esc(title)}</h1>\n"
        + '<div class="grid">' + "".join(cards) + "</div>\n" + pager + shop_footer()
        + "</body>\n</html>\n"
    )


def card(p: dict) -> str:
    return (f'<div class="card"><a href="{product_path(p)}"><img src="/static/placeholder.png" '
            f'alt=""></a><h3><a href="{product_path(p)}">{esc(p["name"])}</a></h3>'
            f'<span class="price">{esc(p["price_text"])}</span></div>')


def build_shop() -> list[str]:
    index_pages = ["/shop/index.html"]
    write("/shop/index.html", shop_list_page("Featured products",
                                             [card(p) for p in PRODUCTS[::2]], ""))
    for cat in CATEGORIES:
        items = [p for p in PRODUCTS if p["category"] == cat]
        pages = (len(items) + PER_PAGE - 1) // PER_PAGE
        for page in range(1, pages + 1):
            chunk = items[(page - 1) * PER_PAGE: page * PER_PAGE]
            pager = pager_html(lambda n, c=cat: category_path(c, n), page, pages)
            write(category_path(cat, page),
                  shop_list_page(CATEGORIES[cat], [card(p) for p in chunk], pager))
            index_pages.append(category_path(cat, page))
    for i, p in enumerate(PRODUCTS):
        write(product_path(p), product_page(i, p), p.get("encoding", "utf-8"))
    write("/shop/api/stock.json", json.dumps({p["sku"]: p["availability"] for p in PRODUCTS}))
    return index_pages


def main() -> None:
    index_pages = build_news() + build_shop()
    write("/static/site.css", "body{font-family:sans-serif;max-width:60em;margin:auto}\n")
    manifest = {
        "start_paths": ["/news/index.html", "/shop/index.html"],
        "index_pages": index_pages,
        "articles": [
            {"path": article_path(a), "headline": a["headline"], "lang": a["lang"],
             "author": a["author"], "datePublished": a["date"],
             "excerpt": a["paragraphs"][1][:40], "encoding": a.get("encoding", "utf-8")}
            for a in ARTICLES
        ],
        "products": [
            {"path": product_path(p), "name": p["name"], "price": p["price"],
             "currency": p["currency"], "availability": p["availability"], "sku": p["sku"],
             "brand": p["brand"], "properties": [list(s) for s in p["specs"]],
             "encoding": p.get("encoding", "utf-8")}
            for p in PRODUCTS
        ],
        "non_html": ["/news/feed.xml", "/shop/api/stock.json"],
    }
    write("/expected.json", json.dumps(manifest, ensure_ascii=False, indent=1))
    print(f"wrote {len(ARTICLES)} articles, {len(PRODUCTS)} products, "
          f"{len(index_pages)} index pages under {HERE}")


if __name__ == "__main__":
    main()
