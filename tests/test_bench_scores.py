"""The WCXB word scores and the loss listing of the line-model CV."""

import pytest

from benchmarks.common import word_f1, word_scores
from benchmarks.text_cv import Scores, page_figures
from training.train_blocks import _print_losses


def test_word_scores_split_the_f1_into_its_sides():
    # Kept too much: every gold word found, half the output is extra.
    assert word_scores("a b c d", "a b") == (0.5, 1.0, pytest.approx(2 / 3))
    # Kept too little: all output is right, half the gold is missing.
    assert word_scores("A b", "a b c d") == (1.0, 0.5, pytest.approx(2 / 3))
    assert word_f1("a b c d", "a b") == pytest.approx(2 / 3)
    # Empty gold: 1 only when nothing is extracted; no overlap scores 0.
    assert word_scores("", "") == (1.0, 1.0, 1.0)
    assert word_scores("menu", "") == (0.0, 0.0, 0.0) == word_scores("x", "y") == word_scores("", "y")


def test_losses_are_listed_worst_first_with_their_side(capsys):
    data = {"names": ["wcxb-dev/a", "wcxb-dev/b", "wcxb-dev/c"], "groups": ["a.com", "b.com", "c.com"]}
    pages = [(0, "listing", "t1 t2 menu menu", "t1 t2"), (1, "listing", "t1 t2", "t1 t2"),
             (2, "collection", "t1", "t1 t2 t3 t4")]
    _print_losses(data, pages, 2)
    out = capsys.readouterr().out
    assert "listing     2      0.750      1.000   0.833" in out
    assert "collection  1      1.000      0.250   0.400" in out
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("wcxb-dev/")]
    assert listed == ["wcxb-dev/c", "wcxb-dev/a"]


def test_page_figures_use_the_sets_metric():
    # WCXB's word bags on the second batch: half the output is extra.
    assert page_figures("dragnet", "a b c d", "a b") == {
        "precision": 0.5, "recall": 1.0, "f1": pytest.approx(2 / 3), "words": 4}
    # 4-token shingles on the first sets: the first of the two output shingles is in the gold.
    assert page_figures("articles-en", "one two three four five", "one two three four") == {
        "precision": 0.5, "recall": 1.0, "f1": pytest.approx(2 / 3), "words": 5}
    # Each CJK character is a token: 今天天气很好 holds three 4-character shingles.
    assert page_figures("articles-zh", "今天天气很好", "今天天气很好")["f1"] == 1.0
    assert page_figures("forums", "", "some gold text here") == {
        "precision": 0.0, "recall": 0.0, "f1": 0.0, "words": 0}


def test_scores_count_the_figures_they_return():
    scores = Scores()
    assert scores.add(["dragnet"], "dragnet", "a b c d", "a b")["recall"] == 1.0
    scores.add(["articles-en"], "articles-en", "one two three four five", "one two three four")
    assert scores.figure("dragnet") == pytest.approx(2 / 3)
    assert scores.figure("articles-en") == pytest.approx(2 / 3)  # F1 of mean precision 0.5 and recall 1
