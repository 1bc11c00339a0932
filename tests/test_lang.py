"""The counting rules the seeds share: CJK characters, words, punctuation."""

from scrapy_contentex.core.lang import (
    clean_lines,
    guess_language,
    has_punct,
    is_punct,
    punct_count,
    token_count,
    tokens,
)


def test_tokens_follow_the_metric():
    assert tokens("Hello, world 你好 2024年") == ["Hello", "world", "你", "好", "2024", "年"]
    assert tokens("日本語のテキスト") == list("日本語のテキスト")


def test_token_count_counts_cjk_chars_and_words():
    assert token_count("中文 text here") == 4


def test_punctuation_ascii_and_fullwidth():
    assert all(is_punct(ch) for ch in "，。；：！？、“”（）《》.,;:!?")
    assert not is_punct("a") and not is_punct("中")
    assert punct_count("你好，世界！Hello, world.") == 4


def test_clean_lines():
    assert clean_lines("  a \u00a0 b \n\n\t c\u3000 \n") == "a b\nc"


def test_guess_language_by_script():
    assert guess_language("这是一段中文文字，用来测试。") == "zh"
    assert guess_language("これは日本語の文章です。") == "ja"
    assert guess_language("이것은 한국어 문장입니다") == "ko"
    assert guess_language("Это русский текст") == "ru"
    assert guess_language("The cat sat on the mat and the dog too.") == "en"
    assert guess_language("   ") is None


def test_has_punct_agrees_with_the_count():
    for text in ("你好，世界！Hello, world.", "no marks at all", "", "a.b", "。。。"):
        for n in range(0, 6):
            assert has_punct(text, n) == (punct_count(text) >= n)


def test_punct_counts_agree_with_is_punct_on_every_character_class():
    # Marks of every kind (ASCII, CJK, full-width, connector "_", astral),
    # symbols that are not marks ($ + ©), and letters, digits and blanks.
    sample = "a_b, c.d; 你好，世界。（）《》「」$+© 12\u3000ok!?\U0001f600\U00011047 ‿"
    expected = sum(1 for ch in sample if is_punct(ch))
    assert punct_count(sample) == expected == 16
    assert has_punct(sample, expected)
    assert not has_punct(sample, expected + 1)
    assert not has_punct("plain words 123 $ + ©", 1)


def test_guess_language_counts_only_letters_against_the_script():
    # Digits and punctuation are no letters: two ideographs among them are Chinese...
    assert guess_language("中文 0123456789, 0123456789; 0123456789!") == "zh"
    # ...but among 26 ASCII letters they are too few, and no English word is there.
    assert guess_language("中文 abcdefghijklmnopqrstuvwxyz") is None


def test_clean_lines_is_the_per_line_clean_up():
    """One regex pass over the kept lines gives what normalising each line gave:
    line separators other than \\n (\\r, \\v, \\f, \\x1c, \\u2028...) split lines
    before the blanks are collapsed, and lines left blank are dropped."""
    import random

    from scrapy_contentex.core.lang import normalize_space

    def per_line(text: str) -> str:
        lines = (normalize_space(line) for line in text.splitlines() if line and not line.isspace())
        return "\n".join(line for line in lines if line)

    rng = random.Random(13)
    alphabet = " \t\r\n\f\v\u00a0\u3000\u200b\x1c\x85\u2028\u2003ab中"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert clean_lines(text) == per_line(text), repr(text)
