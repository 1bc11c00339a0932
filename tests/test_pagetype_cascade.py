"""The cascade measurement's second-stage signals and its fold logic (training/pagetype_cascade.py)."""

import numpy as np

from scrapy_contentex.core.linkblocks import find_link_blocks
from training.pagetype_cascade import BAND_FEATURES, band_features, cascade, dom_features

NAV = "".join(f'<li><a href="/s{i}">Section{i}</a></li>' for i in range(10))
CARDS = "".join(
    f'<div class="card"><a href="/p/{i}"><img src="p{i}.jpg"><span>Oak chair model {i}</span>'
    f"<span>$1{i}0.00</span></a></div>"
    for i in range(8)
)
GRID = f"<html><body><ul>{NAV}</ul><div class=grid>{CARDS}</div></body></html>"
PROSE = " ".join(f"Sentence number {i} of a long article tells its reader a little more." for i in range(40))
ARTICLE = (
    f"<html><body><ul>{NAV}</ul><h1>One story</h1><p>{PROSE}</p>"
    '<p>See <a href="/about">our notes</a> for more.</p></body></html>'
)


def signals(html: str) -> dict[str, float]:
    return band_features(find_link_blocks(html, 2, 20, "text"))


def test_grid_of_priced_cards_reads_as_repeated_records():
    f = signals(GRID)
    assert set(f) == set(BAND_FEATURES)
    # 8 cards of one markup: each is one title link holding an image, a name and a price
    assert f["repeat_link_share"] >= 7 / 18
    assert f["card_link_share"] >= 7 / 18
    assert f["log_priced_links"] == np.log1p(8)
    assert f["pager_word"] == 0.0


def test_article_has_no_repeated_records_or_prices():
    f = signals(ARTICLE)
    assert f["repeat_link_share"] == 0.0
    assert f["card_link_share"] == 0.0
    assert f["log_priced_links"] == 0.0
    assert f["repeat_text_share"] == 0.0


def test_pager_word_in_a_short_link():
    assert signals(GRID.replace("</body>", '<a href="?page=2">Next</a></body>'))["pager_word"] == 1.0
    # the same word inside a long link text is not a pager
    long_link = '<a href="/x">Next steps for the city council budget</a>'
    assert signals(ARTICLE.replace("</body>", long_link + "</body>"))["pager_word"] == 0.0


def test_dom_groups_on_a_grid_and_an_article():
    grid, article = dom_features(GRID), dom_features(ARTICLE)
    assert grid["dom_price_items"] == np.log1p(8)
    assert grid["dom_group_share"] > 0.5
    assert article["dom_price_items"] == 0.0
    assert dom_features("") == dict.fromkeys(grid, 0.0)  # no tree: zeros, no error


def test_cascade_second_stage_decides_band_pages_only():
    rng = np.random.default_rng(0)
    n = 600
    y = rng.random(n) < 0.3
    x1 = (y + rng.normal(0, 0.8, n))[:, None]  # stage 1: a noisy signal
    x2 = (y + rng.normal(0, 0.05, n))[:, None]  # stage 2: nearly exact
    groups = [f"d{i % 60}" for i in range(n)]
    train = np.array([i % 60 >= 12 for i in range(n)])
    test = ~train

    def bal(pred):
        return (pred[y[test]].mean() + (~pred[~y[test]]).mean()) / 2

    only1, band0 = cascade(x1, x2, y, groups, train, test, 0.0, None, "stack")
    assert not band0.any() or band0.sum() < 3  # width 0: (almost) no page in the band
    both, band = cascade(x1, x2, y, groups, train, test, 10.0, None, "stack")
    assert band.all()  # every page in a band 10 logits wide
    assert bal(only1) < 0.9 < 0.97 <= bal(both)
    # a narrow band: pages outside it keep the first stage's decision
    mid, band1 = cascade(x1, x2, y, groups, train, test, 1.0, None, "stack")
    assert 0 < band1.sum() < test.sum()
    assert (mid[~band1] == only1[~band1]).all()
