"""The ``contentex`` command: extract or classify saved pages or URLs, JSON lines out.

    contentex extract page.html other.html --kind auto
    contentex extract https://example.com/news/1.html
    curl -s URL | contentex extract - --url URL
    contentex classify saved/*.html

Each input gives one JSON line on stdout; an input that fails gives one line
on stderr naming it and the reason. The exit status is non-zero only when no
input at all could be processed, so a batch with a few broken files still
produces its output for the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any, BinaryIO

from itemadapter import ItemAdapter

from . import __version__
from .core.document import Document, looks_binary, looks_like_feed, looks_like_html
from .core.errors import ContentexError
from .settings import KINDS, text_algorithms

FETCH_TIMEOUT = 20.0
USER_AGENT = f"scrapy-contentex/{__version__} (+https://github.com/scrapy-contentex)"



class InputError(Exception):
    """An input that could not be read; the message is the reason shown to the user."""


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def fetch(url: str, timeout: float = FETCH_TIMEOUT) -> tuple[bytes, str | None, str]:
    """Plain GET with a timeout: body, Content-Type and final URL (after redirects)."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.read(), response.headers.get("Content-Type"), response.geturl()
    except urllib.error.HTTPError as exc:
        raise InputError(f"HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(f"cannot fetch: {reason}") from None


def read_source(source: str, stdin: BinaryIO | None = None) -> tuple[bytes, str | None, str | None]:
    """Bytes, content type and URL of one input: a file path, a URL or '-' (stdin)."""
    if source == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return stream.read(), None, None
    if is_url(source):
        return fetch(source)
    try:
        with open(source, "rb") as fh:
            return fh.read(), None, None
    except OSError as exc:
        raise InputError(exc.strerror or str(exc)) from None


def load(source: str, url: str | None, stdin: BinaryIO | None = None) -> Document:
    """Read and decode one input into a Document (decoded like Scrapy)."""
    data, content_type, fetched_url = read_source(source, stdin)
    if data.strip() and not looks_binary(data) and (
        looks_like_feed(data) or not looks_like_html(data)
    ):
        raise InputError("non_html: no HTML markup (JSON, XML feed or plain text?)")
    try:
        return Document(data, url=url or fetched_url, content_type=content_type)
    except ContentexError as exc:
        raise InputError(f"{exc.reason}: {exc}") from None


def run_one(command: str, doc: Document, args: argparse.Namespace) -> Any:
    """The item for one document."""
    from . import api

    if command == "classify":
        return api.classify_page(doc, doc.url)
    return api.extract(doc, doc.url, kind=args.kind, algorithm=args.algorithm)


def reader_gone(stdout: Any) -> int:
    """Stop quietly, like a Unix tool killed by SIGPIPE (exit status 141).

    stdout is pointed at /dev/null so the interpreter's last flush does not
    print a second BrokenPipeError.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):  # not a real file: nothing to flush
        pass
    return 128 + 13


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="contentex",
        description="Extract articles/products or classify pages (index or content) from "
        "saved HTML files or URLs. Prints one JSON object per input.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ext = sub.add_parser("extract", help="article or product fields of each page",
                         description="Extract an Article or a Product from each input.")
    ext.add_argument("sources", nargs="+", metavar="PATH_OR_URL",
                     help="HTML file, http(s) URL, or - for stdin")
    ext.add_argument("--kind", choices=KINDS, default="auto",
                     help="what to extract (default: auto, decided per page)")
    ext.add_argument("--algorithm", choices=text_algorithms(), default="default",
                     help="article text algorithm (default: default)")
    ext.add_argument("--url", default=None,
                     help="URL the input was saved from (resolves links, fills `url`)")

    cls = sub.add_parser("classify", help="index or content page, with the figures behind it",
                         description="Classify each input as an index or a content page. Each "
                         "line carries pageType, contentProbability (0..1, that the page is a "
                         "content page; the URL's shape counts, so pass --url for saved files) "
                         "and the link-block figures.")
    cls.add_argument("sources", nargs="+", metavar="PATH", help="HTML file, URL, or - for stdin")
    cls.add_argument("--url", default=None, help="URL the input was saved from")

    from .distributed import export  # light: no Scrapy or redis import until run

    export.add_arguments(sub.add_parser(
        "redis-items", help="items of a distributed crawl (Redis list) as JSON lines",
        description=export.DESCRIPTION))
    return parser


def main(argv: Sequence[str] | None = None, stdout=None, stderr=None, stdin=None) -> int:
    """Entry point of the ``contentex`` console script."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    if args.command == "redis-items":
        from .distributed import export

        return export.run(args, stdout, stderr)
    done = 0
    for source in args.sources:
        name = "<stdin>" if source == "-" else source
        try:
            doc = load(source, args.url, stdin)
            item = run_one(args.command, doc, args)
        except InputError as exc:
            print(f"contentex: {name}: {exc}", file=stderr)
            continue
        except Exception as exc:  # an extractor bug must not stop the batch
            print(f"contentex: {name}: {type(exc).__name__}: {exc}", file=stderr)
            continue
        line = json.dumps(ItemAdapter(item).asdict(), ensure_ascii=False, default=str)
        try:
            print(line, file=stdout, flush=True)
        except BrokenPipeError:  # `contentex extract ... | head`: the reader is gone
            return reader_gone(stdout)
        done += 1
    return 0 if done else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
