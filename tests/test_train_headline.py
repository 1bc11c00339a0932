"""The headline chooser's training (training/train_headline.py) and the placement experiment's features."""

import numpy as np

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import candidates, choose, features
from training.headline_features import extra_features
from training.train_headline import Page, picked_right, train

PAGE = """<html><head><title>Seven ways to grow basil indoors | Green Thumb Weekly</title>
<meta property="og:site_name" content="Green Thumb Weekly"></head>
<body><header><h1><a href="/">Green Thumb Weekly</a></h1></header>
<article><h1 class="entry-title">Seven ways to grow basil indoors</h1>
<p>Basil wants six hours of light a day; a south window gives it that in summer and a lamp in winter.</p>
</article></body></html>"""


def test_train_gives_a_model_the_chooser_reads():
    doc = Document(PAGE, url="https://greenthumbweekly.example/basil")
    cands = candidates(doc)
    rows = features(doc, cands)
    labels = [c.text == "Seven ways to grow basil indoors" for c in cands]
    pages = [Page("greenthumbweekly.example", cands, rows, labels)] * 3
    model = train(pages, tuple(rows[0]))
    pick = choose(cands, rows, model)
    assert pick == "Seven ways to grow basil indoors" and picked_right(pages[0], pick)
    assert not picked_right(pages[0], "Green Thumb Weekly")


def test_extra_features_tell_the_banner_from_the_article_heading():
    doc = Document(PAGE, url="https://greenthumbweekly.example/basil")
    cands = candidates(doc)
    values = {c.text: v for c, v in zip(cands, extra_features(doc, cands), strict=True)}
    banner, headline = values["Green Thumb Weekly"], values["Seven ways to grow basil indoors"]
    assert banner["in_chrome"] == 1.0 and banner["in_link"] == 1.0 and banner["in_content"] == 0.0
    assert headline["in_content"] == 1.0 and headline["opens_content"] == 1.0 and headline["title_mark"] == 1.0
    assert headline["own_line"] == 1.0 and headline["under_longest"] > np.log1p(80)  # the body's line
    title_whole = values["Seven ways to grow basil indoors | Green Thumb Weekly"]
    assert title_whole["adds_after"] > 0.0 and headline["cut_after"] > 0.0
