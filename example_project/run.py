"""Run the demo crawl offline: serve the bundled sites on 127.0.0.1, crawl, report.

    python example_project/run.py                     # the demo: feeds in example_project/output
    python example_project/run.py --compare-steering  # requests needed with and without steering
    python example_project/run.py --json --output DIR # machine-readable figures (tests, benchmarks)
    python example_project/run.py --workers 3         # the same crawl shared by 3 processes (Redis)

The HTTP server runs in a thread on a free port and stops when the crawl ends.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, nullcontext
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEMO_SITES = HERE / "demo_sites"
sys.path.insert(0, str(HERE))  # the `demo` Scrapy project
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # scrapy_contentex from the checkout when not installed

# Crawl steering used by --steer: links found on index pages first, none
# followed out of content pages.
STEERING = {"CONTENTEX_INDEX_PRIORITY_BOOST": 100, "CONTENTEX_CONTENT_FOLLOW_LIMIT": 0}


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files, no request log on stderr."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextmanager
def serve(directory: Path = DEMO_SITES):
    """Serve ``directory`` on 127.0.0.1 (free port) in a thread; yield the base URL."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def manifest() -> dict:
    """What the demo sites contain (written by demo_sites/generate.py)."""
    return json.loads((DEMO_SITES / "expected.json").read_text(encoding="utf-8"))


def crawl(base_url: str, output: Path, *, addon: bool = True, steer: bool = False,
          concurrency: int | None = None, loglevel: str = "INFO",
          start_paths: list[str] | None = None, overrides: dict[str, str] | None = None,
          redis_url: str | None = None) -> dict:
    """Run the demo spider once; return its stats and steering figures.

    With ``redis_url`` the spider is one worker of a crawl shared through
    Redis (scrapy_contentex.distributed.Addon).
    """
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "demo.settings")
    os.environ["CONTENTEX_DEMO_OUTPUT"] = str(output)
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.set("LOG_LEVEL", loglevel)
    if not addon:
        settings.set("ADDONS", {})
    if steer:
        settings.update(STEERING)
    if concurrency:
        settings.set("CONCURRENT_REQUESTS", concurrency)
    if redis_url:
        settings.set("ADDONS", {**settings.getdict("ADDONS"),
                                "scrapy_contentex.distributed.Addon": 600})
        settings.set("REDIS_URL", redis_url)
        settings.set("CONTENTEX_REDIS_IDLE_CLOSE", 1.0)
    for name, value in (overrides or {}).items():
        settings.set(name, value, priority="cmdline")

    expected = manifest()
    wanted = {e["path"] for e in expected["articles"] + expected["products"]}
    track: dict[str, Any] = {"items": 0, "seen": set(), "requests_until_all_items": None}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler("demo")

    def item_scraped(item: Any, **kwargs: Any) -> None:
        if type(item).__name__ in ("Article", "Product"):
            track["items"] += 1
            track["seen"].add(urlparse(item.url).path)
            if track["requests_until_all_items"] is None and track["seen"] >= wanted:
                track["requests_until_all_items"] = crawler.stats.get_value(
                    "downloader/request_count")

    crawler.signals.connect(item_scraped, signal=signals.item_scraped)
    start_urls = [base_url + path for path in (start_paths or expected["start_paths"])]
    started = time.perf_counter()
    process.crawl(crawler, start_urls=start_urls)
    process.start()
    if process.bootstrap_failed:
        raise SystemExit(1)
    elapsed = time.perf_counter() - started
    stats = {k: v for k, v in crawler.stats.get_stats().items()
             if isinstance(v, (int, float, str))}
    return {
        "stats": stats,
        "elapsed": elapsed,
        "responses": stats.get("response_received_count", 0),
        "requests": stats.get("downloader/request_count", 0),
        "items": track["items"],
        "expected_items": len(wanted),
        "expected_found": len(track["seen"] & wanted),
        "requests_until_all_items": track["requests_until_all_items"],
        "output": str(output),
    }


def print_report(result: dict) -> None:
    out = Path(result["output"])
    print()
    print("Feeds:")
    for name in ("articles.jsonl", "products.jsonl"):
        path = out / name
        lines = len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0
        print(f"  {path}  ({lines} items)")
    print("contentex stats:")
    for key, value in sorted(result["stats"].items()):
        if key.startswith("contentex/"):
            print(f"  {key:38} {value}")
    print(f"requests: {result['requests']}, items: {result['items']} "
          f"({result['expected_found']} of the {result['expected_items']} demo pages), "
          f"requests until all items scraped: {result['requests_until_all_items']}, "
          f"{result['elapsed']:.2f} s")


def compare_steering(output: Path) -> None:
    """Run the crawl without steering, with each setting alone and with both; compare."""
    boost, limit = STEERING.items()
    variants = [("without steering", {}), (f"{boost[0]}={boost[1]}", dict([boost])),
                (f"{limit[0]}={limit[1]}", dict([limit])), ("both", STEERING)]
    rows = []
    for i, (label, overrides) in enumerate(variants):
        cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--concurrency", "1",
               "--output", str(output / f"variant{i}")]
        for name, value in overrides.items():
            cmd += ["-s", f"{name}={value}"]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows.append((label, json.loads(done.stdout.strip().splitlines()[-1])))
    print(f"{'demo crawl, CONCURRENT_REQUESTS=1':46} {'requests':>9} {'until all items':>16} "
          f"{'not followed':>13} {'items':>6}")
    for label, r in rows:
        not_followed = r["stats"].get("contentex/requests/not_followed", 0)
        print(f"{label:46} {r['requests']:>9} {r['requests_until_all_items']!s:>16} "
              f"{not_followed:>13} {r['expected_found']:>3}/{r['expected_items']}")


def crawl_distributed(workers: int, output: Path, redis_url: str | None,
                      extra_args: list[str]) -> int:
    """Serve the demo sites, run ``workers`` worker processes on one Redis crawl, report.

    Each worker writes its own feeds in ``output/worker-N``; the shared result
    is the Redis list ``demo:items`` (exactly one item per page), written to
    ``output/redis-items.jsonl``, and the workers' feeds merged into
    ``output/articles.jsonl`` and ``output/products.jsonl``.
    """
    import redis

    from scrapy_contentex.distributed.export import write_items
    from scrapy_contentex.distributed.local import LocalRedis

    try:
        local = None if redis_url else LocalRedis()
    except FileNotFoundError as exc:
        print(f"run.py: {exc} (or pass --redis-url)", file=sys.stderr)
        return 2
    url = redis_url or local.start()
    try:
        with serve() as base_url:
            procs = []
            for n in range(workers):
                cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--base-url",
                       base_url, "--redis-url", url, "--output", str(output / f"worker-{n}"),
                       *extra_args]
                procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True))
            results = []
            for proc in procs:
                out, _ = proc.communicate()
                if proc.returncode:
                    print(f"worker {proc.pid} failed (exit {proc.returncode})", file=sys.stderr)
                    return 1
                results.append(json.loads(out.strip().splitlines()[-1]))
        with (output / "redis-items.jsonl").open("w", encoding="utf-8") as fh:
            in_redis = write_items(redis.Redis.from_url(url), "demo:items", fh)
    finally:
        if local is not None:
            local.stop()
    print(f"{'worker':8} {'responses':>9} {'items':>6}")
    for n, r in enumerate(results):
        print(f"{n:<8} {r['responses']:>9} {r['items']:>6}")
    wanted = {e["path"] for e in manifest()["articles"] + manifest()["products"]}
    print("Feeds (the workers' feeds merged, one line per page):")
    for name in ("articles.jsonl", "products.jsonl"):
        lines = merge_feeds([output / f"worker-{n}" / name for n in range(workers)],
                            output / name)
        print(f"  {output / name}  ({lines} items)")
    found = {urlparse(json.loads(line)["url"]).path
             for line in (output / "redis-items.jsonl").read_text(encoding="utf-8").splitlines()}
    print(f"Redis list demo:items: {in_redis} items ({len(found & wanted)} of the "
          f"{len(wanted)} demo pages) -> {output / 'redis-items.jsonl'}")
    return 0


def merge_feeds(parts: list[Path], target: Path) -> int:
    """Concatenate the workers' JSON-lines feeds, one line per URL; return the count."""
    seen: set[str] = set()
    with target.open("w", encoding="utf-8") as out:
        for part in parts:
            if not part.exists():
                continue
            for line in part.read_text(encoding="utf-8").splitlines():
                url = json.loads(line).get("url")
                if url not in seen:
                    seen.add(url)
                    out.write(line + "\n")
    return len(seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=HERE / "output",
                        help="directory for articles.jsonl and products.jsonl")
    parser.add_argument("--steer", action="store_true", help=f"enable crawl steering {STEERING}")
    parser.add_argument("--no-addon", action="store_true", help="crawl without the add-on")
    parser.add_argument("--concurrency", type=int, default=None, help="CONCURRENT_REQUESTS")
    parser.add_argument("--json", action="store_true", help="print one JSON line of figures")
    parser.add_argument("--loglevel", default=None,
                        help="Scrapy LOG_LEVEL (default INFO, WARNING with --json)")
    parser.add_argument("--set", "-s", action="append", default=[], metavar="NAME=VALUE",
                        help="override a Scrapy setting, like `scrapy crawl -s`")
    parser.add_argument("--compare-steering", action="store_true",
                        help="run with and without steering and compare the requests needed")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="run the crawl distributed over N worker processes sharing a "
                             "Redis (a local redis-server is started unless --redis-url)")
    parser.add_argument("--redis-url", default=None,
                        help="Redis of a distributed crawl (with --workers, or for one worker)")
    parser.add_argument("--base-url", default=None, help=argparse.SUPPRESS)  # worker processes
    args = parser.parse_args(argv)
    if args.compare_steering:
        compare_steering(args.output)
        return 0
    if args.workers:
        passed = [f"--set={item}" for item in args.set]
        if args.steer:
            passed.append("--steer")
        if args.concurrency:
            passed.append(f"--concurrency={args.concurrency}")
        return crawl_distributed(args.workers, args.output, args.redis_url, passed)
    overrides = dict(item.split("=", 1) for item in args.set if "=" in item)
    with serve() if args.base_url is None else nullcontext(args.base_url) as base_url:
        result = crawl(base_url, args.output, addon=not args.no_addon, steer=args.steer,
                       concurrency=args.concurrency, overrides=overrides,
                       loglevel=args.loglevel or ("WARNING" if args.json else "INFO"),
                       redis_url=args.redis_url)
    if args.json:
        print(json.dumps(result))
    else:
        print_report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
