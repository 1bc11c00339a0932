"""The contentex command: files, stdin, URLs; JSON lines out; errors name the input."""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import ARTICLE_EN, ARTICLE_ZH, INDEX_EN, PRODUCT_EN, ROOT

from scrapy_contentex.cli import main
from scrapy_contentex.core.document import looks_like_feed


def run(argv, stdin: bytes | None = None):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.BytesIO(stdin) if stdin else None)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return code, lines, err.getvalue()


@pytest.fixture
def pages(tmp_path):
    (tmp_path / "article.html").write_text(ARTICLE_EN, encoding="utf-8")
    (tmp_path / "zh.html").write_bytes(ARTICLE_ZH.format(charset="gbk").encode("gbk"))
    (tmp_path / "product.html").write_text(PRODUCT_EN, encoding="utf-8")
    (tmp_path / "index.html").write_text(INDEX_EN, encoding="utf-8")
    (tmp_path / "data.json").write_text('{"a": 1}', encoding="utf-8")
    return tmp_path


def test_extract_files_one_json_line_each(pages):
    code, lines, err = run(["extract", str(pages / "article.html"), str(pages / "zh.html"),
                            "--kind", "article", "--url", "http://example.com/a"])
    assert code == 0 and err == ""
    assert [line["headline"] for line in lines] == ["Ferry Timetable Changes for Winter",
                                                    "江边步道全线贯通"]
    assert lines[0]["url"] == "http://example.com/a"
    assert "ninety minutes" in lines[0]["articleBody"]


def test_extract_product_auto(pages):
    code, (line,), _ = run(["extract", str(pages / "product.html")])
    assert code == 0
    assert line["name"] == "Walnut Desk Organiser" and line["currency"] == "GBP"


def test_stdin(pages):
    code, (line,), _ = run(["extract", "-", "--kind", "article"], stdin=ARTICLE_EN.encode())
    assert code == 0 and line["headline"] == "Ferry Timetable Changes for Winter"


def test_classify(pages):
    code, lines, _ = run(["classify", str(pages / "index.html"), str(pages / "article.html")])
    if code == 1:  # page-type engine not available in this checkout
        pytest.importorskip("scrapy_contentex.core.pagetype")
    assert [line["pageType"] for line in lines] == ["index", "content"]
    assert {"linkCoverage", "codeCoverage", "linkBlocks"} <= set(lines[0])
    index, content = (line["contentProbability"] for line in lines)
    assert 0.0 <= index < 0.5 < content <= 1.0


def test_errors_name_the_input_and_batch_continues(pages):
    missing = str(pages / "missing.html")
    code, lines, err = run(["extract", missing, str(pages / "data.json"),
                            str(pages / "article.html"), "--kind", "article"])
    assert code == 0 and len(lines) == 1
    assert f"contentex: {missing}: No such file or directory" in err
    assert "data.json: non_html" in err


def test_non_zero_only_when_nothing_processed(pages):
    code, lines, err = run(["extract", str(pages / "missing.html")])
    assert code == 1 and lines == [] and "missing.html" in err


def test_empty_input(pages):
    empty = pages / "empty.html"
    empty.write_bytes(b"")
    code, _, err = run(["extract", str(empty)])
    assert code == 1 and "empty" in err


def test_extractor_exception_is_reported_not_raised(pages, monkeypatch):
    monkeypatch.setattr("scrapy_contentex.api.extract", lambda *a, **k: 1 / 0)
    code, _, err = run(["extract", str(pages / "article.html")])
    assert code == 1 and "ZeroDivisionError" in err


def test_bad_option_is_a_usage_error():
    with pytest.raises(SystemExit) as exc:
        run(["extract", "x.html", "--kind", "recipe"])
    assert exc.value.code == 2


@pytest.fixture
def server(pages):
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(pages))
    handler.log_message = lambda *a: None
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_urls_are_fetched(server):
    code, lines, err = run(["extract", f"{server}/article.html", f"{server}/nothere.html",
                            "--kind", "article"])
    assert code == 0
    assert lines[0]["url"] == f"{server}/article.html"
    assert lines[0]["headline"] == "Ferry Timetable Changes for Winter"
    assert "nothere.html: HTTP 404" in err


def test_feed_detection():
    assert looks_like_feed(b'<?xml version="1.0"?>\n<rss><channel><title>x</title></channel></rss>')
    assert looks_like_feed(b'<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>')
    assert not looks_like_feed(b"<!DOCTYPE html><html><head><title>x</title></head></html>")


def test_console_entry_point_help():
    done = subprocess.run([sys.executable, "-m", "scrapy_contentex", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "extract" in done.stdout and "classify" in done.stdout


def test_closed_pipe_ends_quietly(pages):
    """`contentex extract ... | head -1`: no traceback, the SIGPIPE status."""
    args = [str(pages / "article.html")] * 200
    proc = subprocess.Popen([sys.executable, "-m", "scrapy_contentex", "extract", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader leaves after one line, like head -1
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert first.startswith(b"{")
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
