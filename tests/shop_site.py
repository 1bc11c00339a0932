"""A small book shop written for the tests, in the common spec layouts.

Product pages head a "Product Description" section with a paragraph under it
and list their facts in a ``<table>`` of th/td rows or a ``<dl>``, with names
that carry parentheses ("Price (excl. tax)"); a rail of related books with
their own prices follows. No structured data: everything comes from the page.
``write_site(directory)`` writes the pages; ``BOOKS`` says what each shows.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

_FIELDS = ("slug", "name", "price", "stock", "availability", "layout", "upc", "author", "description")
BOOKS = [dict(zip(_FIELDS, row, strict=True)) for row in (
    ("the-quiet-harbour_41", "The Quiet Harbour", "28.34", "In stock (19 available)", "InStock", "table",
     "a897fe39b1053632", "Mara Ellison",
     "A lighthouse keeper's daughter inherits a failing boatyard and must decide whether to sell it "
     "to the developers circling the bay or to rebuild the old wooden ketch her father never "
     "finished. A slow, warm novel about craft, grief and the small town that raised her."),
    ("counting-the-stars_7", "Counting the Stars", "13.99", "Out of stock", "OutOfStock", "dl",
     "6957f44c3847a760", "Theo Brandt",
     "An astronomer on a remote mountain observatory keeps a night log for a year. Each entry pairs "
     "one object in the sky with a memory from the valley below, until the two begin to tell a "
     "single story."),
    ("salt-and-iron_102", "Salt and Iron", "47.82", "In stock (3 available)", "InStock", "dl",
     "e00eb4fd7b871a48", "Ines Okafor",
     "The history of a coastal foundry town told through the ledgers, letters and court papers its "
     "workers left behind, from the first furnace to the strike that closed it."),
)]


def properties(book: dict) -> list[tuple[str, str]]:
    """The facts a book's page lists, as (name, value) shown."""
    return [("UPC", book["upc"]), ("Product Type", "Books"), ("Price (excl. tax)", f"£{book['price']}"),
            ("Price (incl. tax)", f"£{book['price']}"), ("Tax", "£0.00"),
            ("Availability", book["stock"]), ("Number of reviews", "0")]


def _facts(book: dict) -> str:
    rows = properties(book)
    if book["layout"] == "table":
        cells = "".join(f"<tr><th>{escape(n)}</th><td>{escape(v)}</td></tr>\n" for n, v in rows)
        return f'<table class="table table-striped">\n{cells}</table>'
    cells = "".join(f"<dt>{escape(n)}</dt><dd>{escape(v)}</dd>\n" for n, v in rows)
    return f'<dl class="product-info">\n{cells}</dl>'


def _related(book: dict) -> str:
    """A rail of the other books, each with its own price, after the product."""
    tiles = []
    for other in BOOKS:
        if other is book:
            continue
        tiles.append(f'<li class="product_pod"><h3><a href="/catalogue/{other["slug"]}/index.html">'
                     f'{escape(other["name"])}</a></h3>'
                     f'<p class="price_color">£{other["price"]}</p>'
                     f'<p class="instock availability">{escape(other["stock"])}</p>'
                     f'<button>Add to basket</button></li>')
    return ('<section class="related"><div class="page-header"><h2>Products you recently viewed</h2></div>'
            f'<ol class="row">{"".join(tiles)}</ol></section>')


def product_page(book: dict) -> str:
    return f"""<!DOCTYPE html>
<html lang="en-gb"><head><meta charset="utf-8">
<title>{escape(book["name"])} | Harbour Books</title>
<meta name="description" content="Harbour Books: every book, every harbour. Free delivery over £20.">
</head><body>
<header><a href="/index.html">Harbour Books</a> <a href="/basket/">Basket</a></header>
<ul class="breadcrumb"><li><a href="/index.html">Home</a></li><li><a href="/index.html">Books</a></li>
<li class="active">{escape(book["name"])}</li></ul>
<article class="product_page">
<div class="row"><div class="col-sm-6 product_main">
<h1>{escape(book["name"])}</h1>
<p class="price_color">£{book["price"]}</p>
<p class="availability">{escape(book["stock"])}</p>
<p class="author">by {escape(book["author"])}</p>
<form action="/basket/add/" method="post"><button type="submit">Add to basket</button></form>
</div></div>
<div id="product_description" class="sub-header"><h2>Product Description</h2></div>
<p>{escape(book["description"])}</p>
<div class="sub-header"><h2>Product Information</h2></div>
{_facts(book)}
</article>
{_related(book)}
<footer><p>Harbour Books &copy; 2024. All rights reserved.</p></footer>
</body></html>
"""


def index_page() -> str:
    tiles = "".join(f'<li><a href="/catalogue/{b["slug"]}/index.html">{escape(b["name"])}</a> '
                    f'<span class="price_color">£{b["price"]}</span></li>\n' for b in BOOKS)
    more = "".join(f'<li><a href="/category/shelf-{i}/index.html">Shelf {i}</a></li>' for i in range(1, 9))
    return f"""<!DOCTYPE html>
<html lang="en-gb"><head><meta charset="utf-8"><title>All products | Harbour Books</title></head>
<body><header><a href="/index.html">Harbour Books</a></header>
<ul class="nav">{more}</ul>
<h1>All products</h1><ol>{tiles}</ol></body></html>
"""


def write_site(directory: Path) -> None:
    """Write the shop's home page and one page per book under ``directory``."""
    (directory / "index.html").write_text(index_page(), encoding="utf-8")
    for book in BOOKS:
        page = directory / "catalogue" / book["slug"] / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(product_page(book), encoding="utf-8")
