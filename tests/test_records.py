"""Seed 000 records: characteristic container, WVC weights (Formula 3), Viterbi walk, pairs."""

import math

from scrapy_contentex.core.document import parse_html
from scrapy_contentex.core.records import (
    ATTRIBUTE_NAMES,
    CharacteristicContainer,
    RecordParams,
    compute_wvc,
    extract_records,
    pairs_from,
    text_leaves,
    viterbi_area,
)

# A small page: a navigation block, a record list and a footer line.
SMALL = """<html><body>
<div id="nav"><a>Home</a><a>Books</a><a>Price list</a></div>
<div id="main">
  <h1>The Example Book</h1>
  <ul id="specs">
    <li>Author: Jane Roe</li>
    <li>Publisher: Example Press</li>
    <li>ISBN: 9781234567897</li>
  </ul>
</div>
<div id="foot"><p>Contact: help@example.com</p></div>
</body></html>"""


def _by_id(tree, id_):
    return tree.xpath(f'//*[@id="{id_}"]')[0]


def test_dictionary_covers_english_and_chinese_names():
    for name in ("brand", "品牌", "price", "价格", "model", "型号", "weight", "重量", "size", "尺寸",
                 "color", "颜色", "material", "材质", "isbn", "publisher", "出版社", "author", "作者",
                 "pages", "页数", "publication date", "出版时间", "dimensions", "format", "language"):
        assert name in ATTRIBUTE_NAMES


def test_container_characteristics_and_delimiters():
    box = CharacteristicContainer(["Vintage"])
    assert box.characteristics("Publisher: Example Press") == [0, box.index["publisher"]]
    assert box.characteristics("出版社：人民文学出版社") == [0, box.index["出版社"]]
    assert box.characteristics("Brand") == [box.index["brand"]]  # label without delimiter
    assert box.characteristics("We talked about the price of tea today") == []
    assert box.label_of("Vintage: 1998") == "vintage"  # extra attributes extend the dictionary
    assert box.is_attribute("Author:")


def test_wvc_formula_three_on_a_small_tree():
    tree = parse_html(SMALL)
    body = tree.find("body")
    box = CharacteristicContainer()
    leaves = text_leaves(body)
    weights = compute_wvc(body, box, leaves)
    n_all = len(leaves)
    assert weights.leaves == n_all == 8
    specs = _by_id(tree, "specs")
    # three leaves with a delimiter, and one each for author / publisher / isbn
    assert weights.counts[specs] == {0: 3, box.index["author"]: 1, box.index["publisher"]: 1,
                                     box.index["isbn"]: 1}
    expected = 3 * math.log(n_all / 3) + 3 * (1 * math.log(n_all / 1))
    assert math.isclose(weights.wvc[specs], expected)
    # bottom-up: body sums every child, the footer's "Contact:" delimiter included
    assert weights.counts[body][0] == 4
    assert _by_id(tree, "nav") not in weights.wvc  # "Price list" is a link text, not a label


def test_viterbi_walks_down_to_the_record_list():
    tree = parse_html(SMALL)
    body = tree.find("body")
    weights = compute_wvc(body, CharacteristicContainer())
    area, path = viterbi_area(body, weights, keep=0.6)
    assert area is _by_id(tree, "specs")
    assert [el.get("id") for el in path] == [None, "main", "specs"]


def test_viterbi_stops_where_weight_splits():
    # Two equal record blocks: the walk must stop at their common parent.
    html = """<html><body><div id="both">
      <ul><li>Brand: A</li><li>Model: B</li></ul>
      <ul><li>Color: C</li><li>Weight: D</li></ul>
    </div></body></html>"""
    tree = parse_html(html)
    body = tree.find("body")
    area, _ = viterbi_area(body, compute_wvc(body, CharacteristicContainer()), keep=0.6)
    assert area is _by_id(tree, "both")


def test_pairs_from_tables_dl_siblings_and_lines():
    html = """<html><body><div id="r">
      <table><tr><th>重量</th><td>1.2 kg</td></tr><tr><td>Color</td><td>Red</td></tr></table>
      <dl><dt>Material</dt><dd>Oak</dd><dt>Size</dt><dd>120 x 60 cm</dd></dl>
      <p><span class="label">Publisher</span><span>Example Press</span></p>
      <ul><li><b>ISBN-13:</b> 978-1-23-456789-7</li><li>品牌：华为</li>
      <li>Note: this sentence is long enough that it should not be a name.</li>
      <li>This is a sentence. It ends: here</li><li>Empty:</li></ul>
    </div></body></html>"""
    tree = parse_html(html)
    area = _by_id(tree, "r")
    pairs = {p["name"]: p["value"] for p in pairs_from(area, CharacteristicContainer())}
    assert pairs["重量"] == "1.2 kg"
    assert pairs["Color"] == "Red"
    assert pairs["Material"] == "Oak"
    assert pairs["Size"] == "120 x 60 cm"
    assert pairs["Publisher"] == "Example Press"
    assert pairs["ISBN-13"] == "9781234567897"  # identifiers lose print hyphens
    assert pairs["品牌"] == "华为"
    assert "Empty" not in pairs
    assert not any(name.startswith("This is a sentence") for name in pairs)


def test_extract_records_reads_the_area_and_extra_attributes():
    html = """<html><body>
      <div class="menu"><a>Shop</a><a>Help</a></div>
      <div class="product"><h1>Tea Cup</h1>
        <div class="specs"><p>Glaze: celadon</p><p>Kiln: Longquan</p><p>Capacity: 200 ml</p></div>
      </div></body></html>"""
    result = extract_records(parse_html(html), RecordParams(extra_attributes=["Glaze", "Kiln"]))
    names = [p["name"] for p in result.properties]
    assert names == ["Glaze", "Kiln", "Capacity"]
    assert result.area.get("class") == "specs"


def test_records_on_deep_pages_do_not_recurse():
    html = "<html><body>" + "<div>" * 1500 + "<p>Brand: Deep</p><p>Model: X1</p>" + \
        "</div>" * 1500 + "</body></html>"
    result = extract_records(parse_html(html))
    assert {"name": "Brand", "value": "Deep"} in result.properties


def test_abbreviated_labels_are_names_but_sentences_are_not():
    html = """<html><body><ul id="r"><li>Pub. Date: 08/02/2010</li><li>No. of pages: 320</li>
    <li>Great value and fast. Buy it now: today</li></ul></body></html>"""
    tree = parse_html(html)
    pairs = {p["name"]: p["value"] for p in pairs_from(_by_id(tree, "r"), CharacteristicContainer())}
    assert pairs["Pub. Date"] == "08/02/2010"
    assert pairs["No. of pages"] == "320"
    assert not any(name.startswith("Great value") for name in pairs)


def test_label_with_several_linked_values_keeps_the_whole_line():
    html = """<html><body><ul id="r">
      <li><b>Authors:</b> <a href="/a">Glenn Beck</a>; <a href="/b">Kevin Balfe</a></li>
      <li><span>Publisher</span> <span>Threshold Editions</span></li>
      <li>SKU: <span>X1</span> | Brand: <span>Acme</span></li></ul></body></html>"""
    tree = parse_html(html)
    pairs = {p["name"]: p["value"] for p in pairs_from(_by_id(tree, "r"), CharacteristicContainer())}
    assert pairs["Authors"] == "Glenn Beck; Kevin Balfe"
    assert pairs["Publisher"] == "Threshold Editions"
    assert pairs["SKU"] == "X1"  # two pairs on one line stay two pairs
    assert pairs["Brand"] == "Acme"


def test_text_leaves_skip_code_and_blank_texts_but_keep_tails():
    tree = parse_html(
        "<html><body><p>Brand: Acme</p><script>var a = 1;</script>after script"
        "<style>p{}</style><p>\u00a0</p><b>SKU</b> 123<option>Red</option></body></html>"
    )
    leaves = text_leaves(tree.find("body"))
    assert [str(leaf) for leaf in leaves] == ["Brand: Acme", "after script", "SKU", " 123"]
    tail = leaves[1]
    assert tail.is_tail and tail.getparent().tag == "script"
    assert leaves[0].is_text and leaves[0].getparent().tag == "p"
    assert leaves[3].is_tail and leaves[3].getparent().tag == "b"


def test_text_leaves_stop_at_the_limit():
    tree = parse_html("<html><body>" + "".join(f"<p>t{i}</p>" for i in range(50)) + "</body></html>")
    leaves = text_leaves(tree.find("body"), limit=10)
    assert [str(leaf) for leaf in leaves] == [f"t{i}" for i in range(10)]


def test_label_memo_keeps_plain_strings_and_same_answers():
    from scrapy_contentex.core.records import container_for

    box = container_for()
    assert box is container_for()  # shared: built once per attribute list
    tree = parse_html("<html><body><p>品牌：华为</p><p>Weight</p><p>Just a sentence here.</p></body></html>")
    leaves = text_leaves(tree.find("body"))
    first = [box.label_of(leaf) for leaf in leaves]
    again = [box.label_of(leaf) for leaf in leaves]
    assert first == again == ["品牌", "weight", None]
    # remembered keys are plain str: no smart string keeps a parsed tree alive
    assert all(type(key) is str for key in box._labels)


def test_text_leaves_of_a_long_flat_list_are_all_there_in_order():
    # one element with thousands of children: read in one pass (no per-node merging)
    rows = 12000
    tree = parse_html("<html><body><div>" + "<span>k:</span> v<br>" * rows + "</div></body></html>")
    leaves = text_leaves(tree.find("body"))
    assert len(leaves) == 2 * rows
    assert [str(x) for x in leaves[:4]] == ["k:", " v", "k:", " v"]
    assert leaves[1].is_tail and leaves[1].getparent().tag == "span"


def test_block_text_is_read_only_up_to_the_limit():
    from scrapy_contentex.core.records import _short_text

    tree = parse_html("<html><body><div id='s'>Brand: <b>Acme</b> Co</div>"
                      "<div id='b'>" + "<p>word word word</p>" * 100 + "</div></body></html>")
    small = _by_id(tree, "s")
    assert _short_text(small, 340) == small.text_content() == "Brand: Acme Co"
    assert _short_text(_by_id(tree, "b"), 340) is None


# A Chinese book page whose labels are padded to align ("开　本") or qualified
# without a space ("国际标准书号ISBN"), next to a price table's header row.
CHINESE_SPACED = """<html><body>
<div class="nav"><a href="/">首页</a><a href="/book">图书</a></div>
<h1>示例图书</h1>
<div class="info"><span>作者:<a href="/a">张三</a></span><span>出版社:<a href="/p">示例出版社</a></span></div>
<ul class="key"><li>开 本：16开</li><li>纸 张：胶版纸</li><li>国际标准书号ISBN：9787000000001</li></ul>
<table><tr><th>卖家</th><th>价格</th></tr><tr><td>一号店</td><td>¥23.00</td></tr></table>
</body></html>"""


def test_chinese_labels_padded_with_spaces_or_qualified_are_dictionary_names():
    container = CharacteristicContainer()
    assert container.label_of("开 本：16开") == "开本"
    assert container.label_of("国际标准书号ISBN：9787000000001") == "isbn"
    assert container.label_of("图书品牌") == "品牌"
    assert container.label_of("联系我们") is None


def test_chinese_pairs_keep_long_labels_and_drop_alignment_spaces():
    pairs = {p["name"]: p["value"] for p in extract_records(parse_html(CHINESE_SPACED)).properties}
    assert pairs["开本"] == "16开"
    assert pairs["国际标准书号ISBN"] == "9787000000001"
    assert "开 本" not in pairs


def test_header_row_is_not_a_pair():
    page = """<html><body><table>
    <tr><th>Seller</th><th>Price</th></tr><tr><td>Books Ltd</td><td>12.00</td></tr></table>
    <ul><li>Publisher: Example Press</li><li>ISBN: 9781234567897</li></ul></body></html>"""
    tree = parse_html(page)
    pairs = {p["name"]: p["value"] for p in pairs_from(tree.find("body"), CharacteristicContainer())}
    assert "Seller" not in pairs and "Price" not in pairs  # column names, not name/value
    assert pairs["Publisher"] == "Example Press"


def _pairs_of(page: str) -> dict[str, str]:
    return {p["name"]: p["value"] for p in extract_records(parse_html(page)).properties}


def test_div_rows_of_a_spec_list_are_read_whole_once_two_rows_open_with_a_dictionary_name():
    rows = "".join(f"<div class='r'><div class='n'>{n}</div><div class='v'>{v}</div></div>"
                   for n, v in (("Brand", "Outdoor Co"), ("Weight", "290 g"), ("Drop", "8 mm"),
                                ("Article number", "TR3-4410")))
    page = f"<html><body><nav><a>Home</a><a>Shoes</a></nav><h1>Trail Runner</h1><div>{rows}</div></body></html>"
    pairs = _pairs_of(page)
    assert pairs["Drop"] == "8 mm" and pairs["Article number"] == "TR3-4410" and pairs["Brand"] == "Outdoor Co"


def test_two_column_rows_without_dictionary_names_are_not_pairs():
    rows = "".join(f"<li><a href='/{i}'>Story {i}</a><span>{i} comments</span></li>" for i in range(5))
    page = f"<html><body><ul>{rows}</ul><p>Weight: 2 kg</p></body></html>"
    assert "Story 1" not in _pairs_of(page)


def test_table_rows_with_two_pairs_each():
    page = ("<html><body><table><tr><th>メーカー</th><td>サンプル電機</td><th>型番</th><td>WX1-BK</td></tr>"
            "<tr><th>重量</th><td>5.2g</td><th>JANコード</th><td>4901234567894</td></tr></table></body></html>")
    assert _pairs_of(page) == {"メーカー": "サンプル電機", "型番": "WX1-BK", "重量": "5.2g",
                               "JANコード": "4901234567894"}


def test_a_question_is_not_a_label():
    page = "<html><body><ul><li>Brand: Acme</li><li>Weight: 2 kg</li></ul><p>Questions? Call us: 0800 123</p></body></html>"
    assert "Questions? Call us" not in _pairs_of(page)


def test_colons_of_urls_and_clock_times_are_no_delimiters():
    box = CharacteristicContainer()
    assert box.characteristics("https://example.com/privacy") == []
    assert box.characteristics("10:30") == []
    assert box.characteristics("Opening hours: 10:30") == [0]
    assert box.characteristics("：") == [0]  # a delimiter in its own element, after its label's


# Related-product tiles repeat one label each; the product's own record names it once.
TILES = """<html><body>
<div id="tiles">{}</div>
<table id="spec"><tr><td>Colour</td><td>Red</td></tr><tr><td>Weight</td><td>2 kg</td></tr></table>
</body></html>""".format("".join(
    f"<div><a>Item {i}</a><p>Price:</p><p>{i}.99</p><p>Rating:</p><p>4</p><p>Size:</p><p>M</p></div>"
    for i in range(6)))


def test_labels_repeated_by_a_list_do_not_weigh_and_the_record_wins():
    tree = parse_html(TILES)
    result = extract_records(tree)
    assert result.area is _by_id(tree, "spec")
    assert result.properties == [{"name": "Colour", "value": "Red"}, {"name": "Weight", "value": "2 kg"}]
    # the seed's plain weights (no repeat limit) take the tile list
    plain = extract_records(parse_html(TILES), RecordParams(max_repeat=None))
    assert plain.area.get("id") == "tiles"


def test_clock_times_and_code_are_not_split_into_pairs():
    html = """<html><body><div id="spec">
    <p>Brand: Acme</p><p>Weight: 2 kg</p><p>Colour: Red</p>
    <p>Ends 25 Nov, 2020 12:11:55 GMT</p><p>{"modules": ["a", "b"]}</p>
    <p>if ((typeof x === "undefined")) y = 1; z: 2</p>
    </div></body></html>"""
    names = [p["name"] for p in extract_records(parse_html(html)).properties]
    assert names == ["Brand", "Weight", "Colour"]


def test_values_are_one_line():
    html = """<html><body><table>
    <tr><td>Price</td><td>12,44 €


    </td></tr><tr><td>Condition</td><td>Used
      <br>An item that has been used.</td></tr></table></body></html>"""
    props = extract_records(parse_html(html)).properties
    assert props == [{"name": "Price", "value": "12,44 €"},
                     {"name": "Condition", "value": "Used An item that has been used."}]


def test_names_keep_their_brackets_and_lose_only_delimiters():
    from scrapy_contentex.core.records import clean_name

    assert clean_name(" Price (excl. tax): ") == "Price (excl. tax)"
    assert clean_name("• Size (EU) -") == "Size (EU)"
    assert clean_name("Package(s)") == "Package(s)"
    assert clean_name("〈商品編號：") == "商品編號"  # an opening bracket the value closes
    assert clean_name("【品牌】") == "品牌"  # one pair wrapping the whole label
    assert clean_name("Weight)") == "Weight"  # a bracket opened before the label


def test_dl_and_table_names_with_parentheses_come_out_whole():
    html = """<html><body><h1>A Book</h1>
    <table><tr><th>Price (excl. tax)</th><td>£28.34</td></tr><tr><th>Tax</th><td>£0.00</td></tr></table>
    <dl><dt>Dimensions (W x H)</dt><dd>12 x 20 cm</dd><dt>Weight (g):</dt><dd>310</dd></dl>
    </body></html>"""
    props = {p["name"]: p["value"] for p in extract_records(parse_html(html)).properties}
    assert props["Price (excl. tax)"] == "£28.34"
    assert props["Dimensions (W x H)"] == "12 x 20 cm"
    assert props["Weight (g)"] == "310"
    assert not any(name.count("(") != name.count(")") for name in props)


def test_a_label_or_a_delimiter_is_never_a_value():
    from scrapy_contentex.core.records import label_like

    html = """<html><body><table>
    <tr><td>SKU</td><td>SKU:</td></tr><tr><td>Brand</td><td>:</td></tr><tr><td>Model</td><td>-</td></tr>
    <tr><td>Colour</td><td>Blue</td></tr></table></body></html>"""
    props = {p["name"]: p["value"] for p in extract_records(parse_html(html)).properties}
    assert props == {"Colour": "Blue"}
    assert label_like("SKU:") and label_like("Model #") and label_like(" - ") and label_like("")
    assert not label_like("LP-2044") and not label_like("In stock (3 left)")


def test_subtree_leaves_equal_collecting_them_again():
    """Cut from the page's list, every element's leaves are what a fresh collection gives,
    with repeated texts, tails, scripts, blanks and nbsp-only texts around."""
    from scrapy_contentex.core.document import body_of, parse_html
    from scrapy_contentex.core.records import subtree_leaves, text_leaves

    html = ("<html><body><div>Brand<b>Acme</b> tail <script>var x = 1;</script></div>"
            "<ul><li>Brand</li><li>\u00a0</li><li><span>Acme</span>Brand</li></ul>"
            "<div><p> </p><p><script>s()</script></p></div><p>Brand</p> end</body></html>")
    body = body_of(parse_html(html))
    leaves = text_leaves(body)
    for el in body.iter():
        want = [(str(t), t.getparent(), t.is_tail) for t in text_leaves(el)]
        got = [(str(t), t.getparent(), t.is_tail) for t in subtree_leaves(el, body, leaves)]
        assert got == want, el.tag


def test_leaf_tests_indices_match_a_plain_filter():
    """The remembered bits give, per test, the indices a plain filter of the texts gives."""
    from scrapy_contentex.core.records import LeafTests

    tests = LeafTests()
    calls = []

    def has_colon(text):
        calls.append(text)
        return ":" in text

    colon = tests.register(has_colon)
    digit = tests.register(lambda text: any(ch.isdigit() for ch in text))
    leaves = ["Price: 5", "Brand", "Size: M", "42", "Brand", "Price: 5", "no"]
    assert tests.indices(leaves, colon) == [0, 2, 5]
    assert tests.indices(leaves, digit) == [0, 3, 5]
    assert tests.indices(leaves, colon, stop=3) == [0, 2]
    assert tests.indices(leaves, digit, stop=0) == []
    assert tests.indices(leaves, colon | digit) == [0, 2, 3, 5]
    # each distinct text was tested once, however many scans and repeats
    assert sorted(calls) == sorted(set(leaves))


def test_leaf_tests_memo_stays_bounded(monkeypatch):
    from scrapy_contentex.core import records

    monkeypatch.setattr(records, "_MEMO_SIZE", 10)
    tests = records.LeafTests()
    short = tests.register(lambda text: len(text) < 3)
    leaves = [str(n) for n in range(1000)]
    assert tests.indices(leaves, short) == list(range(100))
    assert len(tests._memo) <= 10


def test_shared_leaves_keep_each_tests_bits():
    """On a page's shared leaves the bits are read once per LeafTests, and never mixed up."""
    from scrapy_contentex.core.records import LeafTests, SharedLeaves

    first, second = LeafTests(), LeafTests()
    colon = first.register(lambda text: ":" in text)
    short = second.register(lambda text: len(text) <= 2)
    leaves = SharedLeaves(["a: b", "ab", "abc", "x:"])
    assert first.indices(leaves, colon) == [0, 3]
    assert second.indices(leaves, short) == [1, 3]
    assert first.flags(leaves) is first.flags(leaves)  # kept with the list
    assert first.indices(leaves, colon, stop=2) == [0]
    assert first.indices(leaves[1:], colon) == [2]  # a slice is a plain list
    assert len(leaves.bits) == 2


def test_leaf_tests_learn_a_page_as_each_text_alone():
    """Learning a page's new texts test by test gives every text the bits its own
    tests give it, repeats and texts known from an earlier page included."""
    from scrapy_contentex.core.records import LeafTests

    tests = LeafTests()
    checks = [lambda t: ":" in t, lambda t: len(t) <= 3, lambda t: t[:1].isdigit()]
    bits = [tests.register(check) for check in checks]
    first = ["Brand: Acme", "ab", "12 items", "ab", "x"]
    second = ["x", "9:30", "Colour", "ab", "long text without any"]
    for page in (first, second):
        want = [sum(bit for bit, check in zip(bits, checks, strict=True) if check(text)) for text in page]
        assert tests.flags(page) == want


def test_characteristics_of_texts_without_a_colon_match_the_label_lookup():
    """The shape test that now runs first gives the same label as label_of alone."""
    container = CharacteristicContainer()
    for text in ("Brand", "Item model number", "品牌", "开 本", "Read more", "Add to cart",
                 "Weight", "Price", "a" * 48, "x" * 49, "Packed weight",
                 "Supercalifragilisticexpialidociousness weight"):  # 45 characters
        label = container.label_of(text) if len(text) <= 48 else None
        want = [container.index[label]] if label is not None else []
        assert container.characteristics(text) == want, text
