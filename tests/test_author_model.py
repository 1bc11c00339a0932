"""The learned author choice: candidates, features, "no author", the shipped model and its training."""

import json

from scrapy_contentex.core.author_model import (
    PageContext,
    choose,
    features,
    load_model,
    merge,
)
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.metadata import extract_metadata, page_author_candidates
from scrapy_contentex.core.pagetype_model import LogisticModel

ARTICLE = """<html><head><title>{title}</title>{head}</head>
<body><h1>{title}</h1>{byline}<p>Basil wants light, warmth and a pot that drains.
Water it when the top of the soil is dry, and pinch the tips so it grows bushy.</p>{tail}</body></html>"""
LD = ('<script type="application/ld+json">{"@type": "Article", "headline": "%s",'
      ' "datePublished": "2025-03-02", "author": {"@type": "Person", "name": "%s"}}</script>')


def _context(text: str = "", span=None, facts=None) -> PageContext:
    return PageContext(text, span, None, lambda name: False, lambda name: (True, False, False), facts or {})


def _model(weights: dict[str, float], margin: float = 0.0) -> LogisticModel:
    from training.train_authors import feature_names

    names = feature_names()
    return LogisticModel(names, (0.0,) * len(names), (1.0,) * len(names),
                         tuple(weights.get(n, 0.0) for n in names), 0.0, 0.5, {"none_margin": margin})


def test_lists_that_start_with_one_person_merge_and_keep_the_rules_list():
    cands = merge([("ld", ["Ann Lee", "Bo Chen"], False), ("byline", ["ann lee"], False),
                   ("classes", ["Site Team"], True), ("rule", ["Ann Lee"], False)])
    assert [c.names for c in cands] == [["Ann Lee"], ["Site Team"]]
    assert cands[0].sources == {"ld", "byline", "rule"} and not cands[0].organisation
    assert cands[1].organisation


def test_features_place_a_name_against_the_headline_and_the_no_author_row_holds_the_page():
    text = "Grow basil\nBy Ann Lee\nBasil wants light. Ann Lee grows it."
    cands = merge([("byline", ["Ann Lee"], False), ("rule", ["Ann Lee"], False), ("classes", ["Bo Chen"], False)])
    first, second, none = features(cands, _context(text, (0, 10), {"dated": 1.0}))
    assert first["from_rule"] == 1 and first["printed"] == 1 and first["near_headline"] == 1
    assert first["printed_count"] > 0 and first["no_author"] == 0 and first["none_dated"] == 0
    assert second["printed"] == 0 and second["near_headline"] == 0
    assert none["no_author"] == 1 and none["none_dated"] == 1 and none["none_rule_printed"] == 1
    assert none["from_rule"] == 0 and none["none_rule_names"] == first["names"]


def test_no_author_is_chosen_only_when_it_beats_the_best_name_by_the_margin():
    cands = merge([("classes", ["Bo Chen"], False), ("rule", ["Bo Chen"], False), ("dateline", ["Ann Lee"], False)])
    rows = features(cands, _context())
    assert choose(cands, rows, _model({})).names == ["Bo Chen"]  # a tie goes to the rule's answer
    assert choose(cands, rows, _model({"from_dateline": 2.0})).names == ["Ann Lee"]
    assert choose(cands, rows, _model({"no_author": 2.0})) is None
    assert choose(cands, rows, _model({"no_author": 2.0}, margin=3.0)).names == ["Bo Chen"]
    assert choose([], features([], _context()), _model({"no_author": -5.0})) is None


def test_candidates_of_a_page_are_the_sources_the_rule_read():
    html = ARTICLE.format(title="How to grow basil indoors", head=LD % ("How to grow basil indoors", "Ann Lee"),
                          byline="<p>By Ann Lee</p>", tail="")
    cands, context = page_author_candidates(Document(html))
    assert [c.names for c in cands] == [["Ann Lee"]]
    # The rule stopped at JSON-LD, whose name the page prints: the byline scan was never needed.
    assert cands[0].sources == {"ld", "rule"}
    assert context.facts == {"dated": 1.0, "ld_article": 1.0, "og_article": 0.0, "headline_printed": 1.0}
    assert extract_metadata(Document(html))["authors"] == ["Ann Lee"]


def test_shipped_model_matches_the_features():
    from training.train_authors import feature_names

    model = load_model()
    assert model.features == feature_names()
    assert model.meta["script"] == "training/train_authors.py"
    assert model.meta["none_margin"] in model.meta["margins_tried"]


def _pages():
    from training.train_authors import Page

    pages = []
    for n in range(16):
        if n % 2:  # a shop page: its review list's class names a reviewer, the truth names no author
            html = ARTICLE.format(title=f"Oak chess set {n}", head="", byline="",
                                  tail='<div class="review"><span class="author">Bo Chen</span> Lovely.</div>')
            gold = None
        else:
            html = ARTICLE.format(title=f"Grow basil {n}", head=LD % (f"Grow basil {n}", "Ann Lee"),
                                  byline="<p>By Ann Lee</p>", tail="")
            gold = "Ann Lee"
        cands, context = page_author_candidates(Document(html))
        labels = [bool(gold) and c.names == [gold] for c in cands] + [gold is None]
        pages.append(Page(f"site{n}.example", cands, features(cands, context), labels))
    return pages


def test_training_is_deterministic_byte_for_byte_and_learns_no_author():
    from training.choice import model_json
    from training.train_authors import cv_picks, feature_names, train

    pages = _pages()
    assert all(p.cands for p in pages)  # the review's author is a candidate on the shop pages
    first, second = model_json(train(pages, feature_names())), model_json(train(pages, feature_names()))
    assert first == second
    model = LogisticModel.from_json(json.loads(first))
    for page in pages:
        pick = choose(page.cands, page.rows, model)
        assert (pick is None) == page.labels[-1]
    picks, _ = cv_picks(pages, feature_names(), folds=4)
    assert picks == cv_picks(pages, feature_names(), folds=4)[0]
    assert all(page.labels[pick] for page, pick in zip(pages, picks, strict=True))
