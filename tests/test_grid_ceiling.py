"""The grid ceiling study's grid finder, grid row and whole-grid decisions (training/grid_ceiling.py)."""

import numpy as np

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text.block_features import page_lines
from scrapy_contentex.core.text.combined import Params
from scrapy_contentex.core.text.region import page_blocks
from training.grid_ceiling import (
    GRID_NAMES,
    _grid_of,
    _slices,
    apply,
    gold_share,
    grid_features,
    largest_grid,
)

CARD = ('<div class="card card-{k}"><img src="p{k}.jpg"><h3><a href="/p/{k}">Garden chair model {k}</a></h3>'
        '<p>A folding chair of oiled teak for two seasons outdoors, number {k}.</p>'
        '<span class="price">$1{k}9.00</span></div>')
PAGE = ('<html><head><title>Chairs</title></head><body><nav><ul><li><a href="/">Home</a></li>'
        '<li><a href="/a">About</a></li></ul></nav><h1>Chairs</h1>'
        '<p>Our chairs are built by hand in a small workshop and shipped flat, with every screw they need.</p>'
        '<div class="grid">' + "".join(CARD.format(k=k) for k in range(5)) + '</div>'
        '<footer><p>Copyright 2024 Example shop</p></footer></body></html>')
ARTICLE = ('<html><body><article><h1>A story</h1>' + "".join(
    f"<p>Paragraph {k} of the story tells what happened on the day, with words enough to be prose.</p>"
    for k in range(8)) + '</article></body></html>')


def _lines(html: str):
    prm = Params()
    pb = page_blocks(Document(html).tree, prm.region)
    return pb, page_lines(pb, prm)


def test_largest_grid_finds_the_cards_not_the_menu_or_the_intro():
    pb, lines = _lines(PAGE)
    grid = _grid_of(pb, lines)
    assert grid is not None and grid.items == 5 and grid.tag == "div" and grid.images == 5
    inside = [t for t, on in zip(lines.texts, grid.lines, strict=True) if on]
    assert len(inside) == 15 and all("chair" in t.lower() or "$" in t for t in inside)
    assert not any("workshop" in t or "Home" in t for t in inside)
    # every card's three lines carry its own item number
    assert sorted(grid.item[grid.lines].tolist()) == [k for k in range(5) for _ in range(3)]


def test_paragraphs_of_an_article_are_no_grid():
    pb, lines = _lines(ARTICLE)
    tok = lines.features[:, 0]
    assert largest_grid(pb, lines.owners, tok, np.zeros(len(tok), bool)) is None
    assert largest_grid(pb, [], tok[:0], tok[:0] > 0) is None


def test_grid_row_reads_prices_images_teasers_and_the_model_view():
    pb, lines = _lines(PAGE)
    grid = _grid_of(pb, lines)
    p = np.where(grid.lines, 0.9, 0.1)
    row = dict(zip(GRID_NAMES, grid_features(grid, lines, p), strict=True))
    assert row["price_items"] == 1.0 and row["image_items"] == 1.0 and row["teaser_items"] == 1.0
    assert row["log_items"] == np.log(5) and row["lines_per_item"] == 3.0
    assert 0.5 < row["share"] < 1.0 and row["prose_outside"] > 0
    assert row["p_kept"] == 1.0 and row["p_kept_outside"] == 0.0


def test_apply_keeps_or_drops_a_page_grid_whole_and_gold_share():
    pb, lines = _lines(PAGE)
    grid = _grid_of(pb, lines)
    m = len(lines.texts)
    data = {"page": np.repeat([0, 1], m), "extra": [grid, grid]}
    keep = np.zeros(2 * m, bool)
    keep[m:] = True
    out = apply(keep, data, {0: True, 1: False})
    assert out[:m].tolist() == grid.lines.tolist()
    assert out[m:].tolist() == (~grid.lines).tolist()
    # drop_only leaves a kept grid to the line model
    assert not apply(keep, data, {0: True}, drop_only=True)[:m].any()
    assert [(s.start, s.stop) for s in _slices(data["page"])] == [(0, m), (m, 2 * m)]
    tok = np.ones(m)
    y = grid.lines.astype(float)
    assert gold_share(grid, y, tok) == 1.0 and gold_share(grid, 1 - y, tok) == 0.0
