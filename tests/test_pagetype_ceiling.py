"""The ceiling study's signals and fold logic (training/pagetype_ceiling.py)."""

import numpy as np

from training.pagetype_ceiling import (
    Outcome,
    _fold_run,
    hashed_bag,
    markup_tokens,
    newton_logistic,
    run_models,
    subsample_groups,
    url_words,
)


def test_markup_tokens_split_joints_and_fold_digits():
    html = '<div class="product-card  item"><span id=post_123>x</span><p class=\'a\'>y</p>'
    tokens = markup_tokens(html)
    assert tokens[:4] == ["product-card", "~product", "~card", "item"]
    assert "post_0" in tokens and "~post" in tokens and "~0" in tokens
    assert tokens[-1] == "a"
    # an attribute that only ends in "class" is not a class
    assert markup_tokens('<div data-class="x">') == []


def test_url_words_read_path_and_query_not_host():
    assert url_words("https://shop.example.com/category/chairs-2024/?page=3") == [
        "category", "chairs", "0", "page", "0"]
    assert url_words(None) == []


def test_hashed_bag_is_stable_and_normalised():
    a = hashed_bag(["x", "y", "y"], 64)
    b = hashed_bag(["y", "x", "y"], 64)
    assert np.array_equal(a, b)
    assert abs(float(np.sqrt((a ** 2).sum())) - 1.0) < 1e-12
    assert np.count_nonzero(a) == 2
    assert not hashed_bag([], 8).any()


def test_subsample_keeps_whole_domains_inside_the_training_part():
    groups = [f"d{i // 3}" for i in range(60)]  # 20 domains of 3 pages
    train = np.array([i < 45 for i in range(60)])
    half = subsample_groups(groups, train, 0.5, None)
    assert not half[~train].any()
    kept = {g for g, k in zip(groups, half, strict=True) if k}
    assert all(half[i] for i, g in enumerate(groups) if g in kept)
    assert 21 <= half.sum() <= 27
    assert np.array_equal(half, subsample_groups(groups, train, 0.5, None))
    assert subsample_groups(groups, train, 1.0, 3) is train


def _toy(n=240, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    x = np.column_stack([y + rng.normal(0, 0.3, n), rng.normal(0, 1, n)])
    return x, y, [f"site{i // 4}" for i in range(n)]


def test_fold_run_never_scores_a_page_it_trained_on():
    x, y, groups = _toy()
    test = np.array([g in {"site0", "site1", "site2"} for g in groups])
    seen = []

    def spy(xt, yt, g, seed):
        seen.append({tuple(r) for r in xt})
        return newton_logistic(xt, yt, g, seed)

    oof, prob = _fold_run([spy], x, y, groups, ~test, test, None)
    assert len(oof) == (~test).sum() and len(prob) == test.sum()
    held = {tuple(r) for r in x[test]}
    assert all(not (s & held) for s in seen)


def test_run_models_separates_a_learnable_toy_and_blends():
    x, y, groups = _toy()
    out = run_models({"a": ([newton_logistic], x), "b": ([newton_logistic], x[:, :1])}, {"ab": ("a", "b")},
                     y, groups, log=lambda _: None)
    assert set(out) == {"a", "b", "ab"}
    for outs in out.values():
        assert len(outs) == 5 and all(isinstance(o, Outcome) for o in outs)
        acc = np.mean([(o.pred[y].mean() + (~o.pred[~y]).mean()) / 2 for o in outs])
        assert acc > 0.8
    # the noise column alone cannot do what the signal does
    noise = run_models({"n": ([newton_logistic], x[:, 1:])}, {}, y, groups, log=lambda _: None)["n"]
    assert np.mean([(o.pred[y].mean() + (~o.pred[~y]).mean()) / 2 for o in noise]) < 0.7


def test_fold_run_grid_keeps_the_setting_with_the_better_inner_auc():
    x, y, groups = _toy()
    test = np.array([g in {"site0", "site1", "site2", "site3"} for g in groups])

    def column(k):
        def learner(xt, yt, g, seed):
            fitted = newton_logistic(xt[:, k:k + 1], yt, g, seed)
            return lambda z: fitted(z[:, k:k + 1])
        return learner

    signal = _fold_run([column(0)], x, y, groups, ~test, test, None)
    for grid in ([column(1), column(0)], [column(0), column(1)]):
        oof, prob = _fold_run(grid, x, y, groups, ~test, test, None)
        assert np.array_equal(oof, signal[0]) and np.array_equal(prob, signal[1])


def test_roc_auc_counts_ties_half_and_orders_scores():
    from training.train_pagetype import roc_auc

    y = np.array([True, False, True, False])
    assert roc_auc(y, np.array([0.9, 0.1, 0.8, 0.2])) == 1.0
    assert roc_auc(y, np.array([0.1, 0.9, 0.2, 0.8])) == 0.0
    # one positive ties one negative (half), the other outscores both negatives
    assert roc_auc(y, np.array([0.5, 0.5, 0.9, 0.1])) == 0.875
