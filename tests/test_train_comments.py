"""training/train_comments.py: the comment section's signals, its label and the fit (no datasets needed)."""

import numpy as np
from test_text_default import ENGLISH_ARTICLE, PARAGRAPHS

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.text import combined
from scrapy_contentex.core.text.block_features import page_lines
from scrapy_contentex.core.text.region import PageBlocks
from training import train_comments as tc

_REPLY = ("<li class='comment'><div class='comment-meta'>Ann wrote 3 days ago</div>"
          "<div class='comment-body'><p>Great post, I agree with every word of it and will share it "
          "with my friends.</p></div></li>")
_COMMENTS = f"<div id='comments'><ol>{_REPLY * 3}</ol></div>"


def _candidate(page: str):
    doc = Document(page)
    pb = PageBlocks(doc.tree, combined.Params().region)
    lines = page_lines(pb, combined.Params())
    return lines, tc.comment_candidate(doc, pb, lines)


def test_an_article_with_reader_comments_gives_its_section_and_signals():
    page = ENGLISH_ARTICLE.replace('<div class="story">', '<div class="story entry-content">')
    lines, found = _candidate(page.replace("</body>", _COMMENTS + "</body>"))
    section, features = found
    assert set(features) == set(tc.COMMENT_FEATURES)
    kept = [text for text, k in zip(lines.texts, section, strict=True) if k]
    assert kept and all(t.startswith(("Great post", "Ann wrote")) for t in kept)
    assert features["article_markup"] == 1.0 and features["thread_markup"] == 0.0
    assert features["header_share"] == 0.5  # one "wrote ... ago" header per two lines
    assert features["records_log"] >= np.log1p(3)
    assert features["template_share"] == 0.0 and 0.5 < features["prose_share"] < 1.0
    assert _candidate(ENGLISH_ARTICLE)[1] is None  # no comment markup: no section


def test_a_thread_whose_opening_post_is_built_like_its_replies_says_so():
    post = "<div class='post'><div class='post-body'><p>{}</p></div></div>"
    opening = "".join(post.format(p) for p in PARAGRAPHS[:2])
    replies = "".join(post.format(p) for p in PARAGRAPHS[2:5])
    page = (f"<html><body><div class='topic'>{opening}<div class='replies'>{replies}</div></div>"
            "</body></html>")
    _, found = _candidate(page)
    _, features = found
    assert features["template_share"] == 1.0 and features["thread_markup"] == 1.0


def test_the_label_is_whether_the_gold_keeps_most_of_the_section():
    texts = ["great post i agree", "thanks for sharing this"]
    both = np.array([True, True])
    assert tc.gold_drops(texts, both, "The article. Great post, I agree! Thanks for sharing this.") is False
    assert tc.gold_drops(texts, both, "The article alone, thanks.") is True
    assert tc.gold_drops(texts, np.array([False, False]), "anything") is None
    assert tc.gold_drops(["很好的文章"], np.array([True]), "很好") is True  # 2 of 5 characters


def test_the_fit_is_deterministic_and_learns_the_separating_signal():
    rng = np.random.default_rng(0)
    rows = []
    for k in range(60):
        x = rng.normal(size=len(tc.COMMENT_FEATURES))
        rows.append(tc.Candidate("wcxb-dev", f"g{k % 10}", x, bool(x[0] > 0), False))
    rows.append(tc.Candidate("forums", "g0", np.zeros(len(tc.COMMENT_FEATURES)), None, True))
    folds = [int(c.group[1:]) % tc.FOLDS for c in rows]
    prob = tc.out_of_fold(rows, folds)
    right = [(p >= 0.5) == c.drops for p, c in zip(prob, rows, strict=True) if c.drops is not None]
    assert sum(right) >= 50
    first, second = tc.model(rows), tc.model(rows)
    assert first == second and first.weights[0] == max(first.weights)
    assert first.meta["pages"] == 60
    table = tc.agreement_table(rows, prob)
    assert table[-1][:3] == ["all", 61, 60] and table[-1][5] == sum(right) / 60
