"""The tree-chooser experiment's helpers (training/headline_trees.py): page features and scoring."""

import numpy as np

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import candidates, features
from training.headline_trees import is_right, matrix, page_features
from training.train_headline import Page

PAGE = """<html><head><title>Basil indoors | Green Thumb</title>
<meta property="og:type" content="article">
<script type="application/ld+json">{"@type": ["NewsArticle"], "headline": "Basil indoors"}</script></head>
<body><h1>Basil indoors</h1><h1>Green Thumb</h1><h2>Light</h2>
<p>Basil wants six hours of light a day and <a href="/sun">a warm window</a>.</p></body></html>"""


def test_page_features_read_headings_links_and_declared_type():
    values = page_features(Document(PAGE))
    assert values["page_h1s"] == 2.0 and values["page_h2s"] == 1.0
    assert values["page_ld_article"] == 1.0 and values["page_og_article"] == 1.0
    assert values["page_og_website"] == 0.0
    assert 0.0 < values["page_links_per_word"] < 0.2


def test_matrix_rows_and_the_chosen_candidate():
    doc = Document(PAGE)
    cands = candidates(doc)
    rows = features(doc, cands)
    labels = [c.text == "Basil indoors" for c in cands]
    page = Page("example.org", cands, rows, labels, page_features(doc))
    x, y, groups = matrix([page], tuple(rows[0]))
    assert x.shape == (len(cands), len(rows[0]) + len(page.page) + 1)
    assert groups == [len(cands)] and y.tolist() == [float(v) for v in labels]
    right = labels.index(True)
    scores = np.zeros(len(cands))
    scores[right] = 1.0
    assert is_right(page, scores)
    scores[right] = -1.0
    assert not is_right(page, scores)
