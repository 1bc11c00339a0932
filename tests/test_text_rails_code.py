"""Post-processing of the learned line decision: teaser rails and whole code blocks."""

from __future__ import annotations

import numpy as np

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import combined
from scrapy_contentex.core.text.block_features import page_lines
from scrapy_contentex.core.text.code import code_blocks
from scrapy_contentex.core.text.rails import teaser_rails
from scrapy_contentex.core.text.region import PageBlocks


def _page(prose_lines: int, rail_at: int, items: int = 5, item_links: float = 1.0):
    """Arrays of a page: prose lines (template 0, 40 tokens) with a rail (template 1) inserted."""
    tokens = [40.0] * prose_lines
    share = [0.0] * prose_lines
    templates = [0] * prose_lines
    tokens[rail_at:rail_at] = [6.0] * items
    share[rail_at:rail_at] = [item_links] * items
    templates[rail_at:rail_at] = [1] * items
    n = len(tokens)
    return np.ones(n, bool), np.asarray(templates), np.asarray(tokens), np.asarray(share)


def test_a_rail_after_or_before_the_prose_is_cut():
    for at in (10, 0):
        keep, templates, tokens, share = _page(10, at)
        cut = teaser_rails(keep, templates, tokens, share, 300)
        assert cut.tolist() == (templates == 1).tolist()


def test_a_rail_is_kept_inside_the_prose_on_thin_pages_when_heavy_or_off():
    keep, templates, tokens, share = _page(10, 5)  # between paragraphs: a list in the story
    assert not teaser_rails(keep, templates, tokens, share, 300).any()
    keep, templates, tokens, share = _page(5, 5)  # 200 tokens of prose: not an article
    assert not teaser_rails(keep, templates, tokens, share, 300).any()
    keep, templates, tokens, share = _page(10, 10, items=40)  # 240 tokens of links vs 400 of prose
    assert not teaser_rails(keep, templates, tokens, share, 300).any()
    keep, templates, tokens, share = _page(10, 10, item_links=0.2)  # not links: a list of facts
    assert not teaser_rails(keep, templates, tokens, share, 300).any()
    keep, templates, tokens, share = _page(10, 10)
    assert not teaser_rails(keep, templates, tokens, share, 0).any()
    keep[-2:] = False  # three kept items are not a rail
    assert not teaser_rails(keep, templates, tokens, share, 300).any()


def test_on_an_article_a_short_prose_or_a_heavy_rail_is_enough():
    """With ``is_article`` true, ``article_tokens`` of prose cut rails whatever they weigh."""
    calls = []

    def article(prose):
        calls.append(prose.tolist())
        return True

    short = _page(2, 2, items=20)  # 80 tokens of prose, 120 of links after it
    assert not teaser_rails(*short, 300).any()
    assert not teaser_rails(*short, 300, 100, article).any()  # 80 < 100
    assert not calls
    assert teaser_rails(*short, 300, 50, article).tolist() == (short[1] == 1).tolist()
    assert calls == [[0, 1]]  # it is asked about the prose lines
    heavy = _page(10, 10, items=100)  # 600 tokens of links vs 400 of prose
    assert not teaser_rails(*heavy, 300).any()
    assert teaser_rails(*heavy, 300, 50, article).tolist() == (heavy[1] == 1).tolist()
    assert not teaser_rails(*heavy, 300, 50, lambda prose: False).any()
    assert not teaser_rails(*heavy, 300, 0, article).any()  # off


_GUIDE = """<html><body><div class="doc">
<p>Install the client first, then create a configuration file in your home directory.</p>
<pre>pip install client
client init --home ~/.client
client check</pre>
<p>The check command prints the version and the path of the configuration it read.</p>
</div><div class="sidebar"><pre>unrelated
snippet</pre></div></body></html>"""


def test_a_code_block_is_kept_whole():
    prm = combined.Params()
    pb = PageBlocks(Document(_GUIDE).tree, prm.region)
    lines = page_lines(pb, prm)
    prose = np.asarray([t.startswith(("Install", "The check")) for t in lines.texts])
    code = np.asarray([t.startswith(("pip", "client")) for t in lines.texts])
    assert code.sum() == 3
    # Between the kept paragraphs: kept whole; the sidebar's snippet is outside them.
    assert code_blocks(pb, lines.owners, prose).tolist() == code.tolist()
    # One kept line of a block keeps the block.
    first_code = int(np.argmax(code))
    only_one = np.zeros(len(lines.texts), bool)
    only_one[first_code] = True
    assert code_blocks(pb, lines.owners, only_one).tolist() == code.tolist()
    assert not code_blocks(pb, lines.owners, np.zeros(len(lines.texts), bool)).any()
