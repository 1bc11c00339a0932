"""Keywords (jieba for Chinese, words elsewhere), Formula 4 TF-IDF, SimHash and Hamming."""

import logging
import math

from scrapy_contentex.core.keywords import (
    feature_hash,
    hamming,
    idf,
    keywords,
    local_tfidf,
    simhash,
    words,
)

ZH = "国家统计局今天发布了最新的经济数据，经济增长超过市场预期。"
ZH_SIMILAR = "国家统计局发布最新经济数据：经济增长超过市场预期"
ZH_OTHER = "昨晚的足球比赛在上海体育场举行，球迷们热情高涨，主队三比一获胜。"
EN = "The central bank raised interest rates again, and the bank said inflation was easing."
EN_OTHER = "A new recipe for apple pie with cinnamon, butter and a crisp golden crust."


def test_jieba_segments_chinese_into_words_and_drops_particles():
    found = words(ZH)
    assert "国家统计局" in found
    assert "经济" in found and "数据" in found
    # particles and single characters are not keywords
    assert "的" not in found and "了" not in found
    assert all(len(w) >= 2 for w in found)


def test_words_lowercase_latin_and_drop_stopwords_and_digits():
    found = words("The Bank of England said 2024 rates were HIGH, the bank said.")
    assert found == ["bank", "england", "rates", "high", "bank"]


def test_mixed_text_keeps_order_of_runs():
    assert words("苹果公司 Apple 发布新款手机") == ["苹果公司", "apple", "发布", "新款手机"]


def test_jieba_logging_is_silenced():
    words(ZH)
    assert logging.getLogger("jieba").level >= logging.WARNING


def test_keywords_are_weighted_by_tf_idf_heaviest_first():
    found = keywords(ZH, top_k=5)
    assert len(found) == 5
    weights = [w for _, w in found]
    assert weights == sorted(weights, reverse=True)
    names = [k for k, _ in found]
    assert "经济" in names  # the repeated word ranks among the top
    # a common word has a lower IDF than a rare one in jieba's table
    assert idf("发布") < idf("国家统计局")


def test_english_keywords_count_repeats():
    found = dict(keywords(EN, top_k=None))
    assert found["bank"] > found["inflation"] > 0
    assert "the" not in found and "and" not in found
    assert keywords("") == []


def test_local_tfidf_is_formula_4():
    paragraphs = [["a1", "b1"], ["a1", "a1"], ["c1"]]
    weights = local_tfidf(paragraphs, constant=1.0)
    # a1: in 2 of 3 paragraphs; b1, c1: in 1 of 3
    assert math.isclose(weights[0]["a1"], 1 * (math.log(3 / 2) + 1))
    assert math.isclose(weights[0]["b1"], 1 * (math.log(3) + 1))
    assert math.isclose(weights[1]["a1"], 2 * (math.log(3 / 2) + 1))
    assert math.isclose(weights[2]["c1"], math.log(3) + 1)


def test_feature_hash_is_stable_and_sized():
    assert feature_hash("经济", 64) == feature_hash("经济", 64)
    assert feature_hash("经济", 64) != feature_hash("数据", 64)
    assert 0 <= feature_hash("word", 16) < 1 << 16


def test_simhash_identical_texts_have_distance_zero():
    a = simhash(keywords(ZH))
    assert hamming(a, simhash(keywords(ZH))) == 0
    assert hamming(simhash(keywords(EN)), simhash(keywords(EN))) == 0


def test_simhash_similar_texts_are_closer_than_different_ones():
    base = simhash(keywords(ZH))
    near = hamming(base, simhash(keywords(ZH_SIMILAR)))
    far = hamming(base, simhash(keywords(ZH_OTHER)))
    assert near < far
    assert far > 10
    assert hamming(simhash(keywords(EN)), simhash(keywords(EN_OTHER))) > 10


def test_simhash_follows_the_heaviest_feature():
    # one dominant feature fixes every bit to its own hash
    assert simhash({"x1": 100.0, "y1": 1.0}, bits=64) == feature_hash("x1", 64)
    assert simhash({}) == 0


def test_hamming_counts_differing_bits():
    assert hamming(0b1011, 0b1011) == 0
    assert hamming(0b1011, 0b0010) == 2
    assert hamming(0, (1 << 64) - 1) == 64
