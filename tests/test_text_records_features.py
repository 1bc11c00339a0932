"""Repeated records as line features: the cards of a grid, the items of a menu."""

import numpy as np
import pytest

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import combined
from scrapy_contentex.core.text.block_features import (
    CONTEXT_NAMES,
    FEATURE_NAMES,
    RECORD_NAMES,
    page_lines,
    record_context,
)
from scrapy_contentex.core.text.region import PageBlocks

TEASER = ("A long teaser of this story that tells the reader, in a full sentence with commas, "
          "what the article number {k} is about and why it matters today.")
CARD = ("<div class='card card-{k}'><h3><a href='/s/{k}'>Story title {k}</a></h3>"
        "<p class='teaser'>" + TEASER + "</p><span class='price'>$1{k}</span></div>")
GRID_PAGE = (
    "<html><head><title>Stories</title></head><body>"
    "<nav><ul>" + "".join(f"<li><a href='/{k}'>Menu {k}</a></li>" for k in range(5)) + "</ul></nav>"
    "<main><h1>Stories</h1><p>One intro line for this list of stories, with a comma.</p>"
    "<div class='grid'>" + "".join(CARD.format(k=k) for k in range(6)) + "</div></main>"
    "<footer><p>Copyright</p></footer></body></html>"
)


def _lines(html):
    doc = Document(html)
    prm = combined.Params()
    return page_lines(PageBlocks(doc.tree, prm.region), prm)


def test_lines_of_a_card_grid_read_their_record():
    lines = _lines(GRID_PAGE)
    col = FEATURE_NAMES.index
    f = lines.features
    title, teaser, price = (lines.texts.index(t) for t in ("Story title 2", TEASER.format(k=2), "$12"))
    # The six cards (digits dropped from "card-2") are one group of records.
    assert f[title, col("rec_log_count")] == pytest.approx(np.log(6))
    assert lines.records[title] == lines.records[teaser] == lines.records[price] >= 0
    # Title, teaser and price: three lines a record, in that order.
    assert f[title, col("rec_lines")] == 3.0
    assert [f[k, col("rec_line_index")] for k in (title, teaser, price)] == [0.0, 1.0, 2.0]
    # The title is a link, the teaser is not: the grid is partly link text.
    assert 0.0 < f[title, col("rec_link_share")] < 0.5
    # The grid holds most of the page; its teasers are prose.
    assert f[title, col("rec_token_share")] > 0.6
    assert f[title, col("rec_prose_share")] > 0.5
    # The menu is another group: five items of one line, all link.
    menu = lines.texts.index("Menu 1")
    assert lines.records[menu] not in (-1, lines.records[title])
    assert f[menu, col("rec_link_share")] == 1.0 and f[menu, col("rec_lines")] == 1.0
    # Lines outside records: -1, and the page's share of tokens in records.
    intro = lines.texts.index("One intro line for this list of stories, with a comma.")
    assert lines.records[intro] == -1 and f[intro, col("rec_levels")] == -1.0
    assert 0.6 < f[intro, col("page_record_share")] < 1.0
    # All the page's prose is in the grid: none beside it for the grid's lines.
    assert f[title, col("prose_elsewhere")] == pytest.approx(0.0, abs=1e-6)
    assert f[intro, col("prose_elsewhere")] > 0.5
    assert np.isfinite(f[:, [col(n) for n in RECORD_NAMES]]).all()


def test_a_page_without_repeated_siblings_has_no_records():
    lines = _lines("<html><body><h1>Title</h1><p>" + TEASER.format(k=1) + "</p><p>Short.</p></body></html>")
    assert (lines.records == -1).all()
    col = FEATURE_NAMES.index
    assert (lines.features[:, col("rec_log_count")] == -1.0).all()
    assert (lines.features[:, col("page_record_share")] == 0.0).all()


def test_the_context_reads_the_first_stage_on_the_whole_record_group():
    lines = _lines(GRID_PAGE)
    m = len(lines.texts)
    titles = [lines.texts.index(f"Story title {k}") for k in range(6)]
    p = np.full(m, 0.2)
    p[titles] = 0.9
    ctx = lines.context(p)
    assert ctx.shape == (m, len(CONTEXT_NAMES))
    col = CONTEXT_NAMES.index
    price = lines.texts.index("$13")
    # A third of the grid's lines are kept; its mean is weighted by tokens.
    assert ctx[price, col("record_kept_share")] == pytest.approx(1 / 3)
    assert 0.2 < ctx[price, col("p_record")] < 0.9
    menu = lines.texts.index("Menu 1")
    assert ctx[menu, col("p_record")] == pytest.approx(0.2) and ctx[menu, col("record_kept_share")] == 0.0
    outside = lines.records < 0
    assert (ctx[outside, col("p_record")] == -1.0).all()
    assert (record_context(None, p, np.ones(m)) == -1.0).all()
