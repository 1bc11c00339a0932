"""What the add-on's hooks cost the crawl's main thread per page, without Scrapy's engine.

    python -m benchmarks.crawl_hooks [--pages 1000] [--rounds 3] [--requests 25]

Why: ``benchmarks.crawl_speed`` times whole crawls, whose main-thread CPU
moves by a tenth from run to run on a shared machine, more than the changes
being measured. Here the pages of the same generated site (built in memory,
no server, no network) go through the add-on's own hooks the way a crawl
sends them, in this process's asyncio loop: the worker middleware's
``process_response`` (at most 16 at a time, like CONCURRENT_REQUESTS; the
page's work runs in a real worker process), the spider middleware's
``process_spider_input`` and async ``process_spider_output`` over the
``--requests`` requests a CrawlSpider page yields, the pipeline's
``process_item``, and the JSON-lines export of the item. The figure is CPU
time of this (the main) thread per page, the worker's excluded, best of
``--rounds``; the "plain items" row runs the same loop with no add-on,
exporting a ``{"url": ...}`` dict per page, so the difference is what the
add-on adds. With ``--calls``, each hook's own CPU per call is listed too
(the timing wrappers add a little to the totals). The worker's CPU and
context switches per page are listed each round. ``--pipe-writes`` only
times writes of 16 bytes to 80 KB to a pipe (see ``pipe_writes``).

Works against any checkout of the package (it only uses the components'
public hooks), so two branches can be compared with PYTHONPATH.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import os
import sys
import time
from typing import Any

from scrapy import Request
from scrapy.exporters import JsonLinesItemExporter
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from benchmarks.crawl_speed import PER_LIST, Site

CONCURRENCY = 16


def site_pages(site: Site) -> list[tuple[str, bytes]]:
    """Every page of the site a crawl reaches: home, section/category lists, content, footer."""
    paths = ["/"]
    for kind, groups in (("news", site.sections), ("shop", site.categories)):
        letter = "s" if kind == "news" else "c"
        for group in range(groups):
            pages = -(-len(site._members(kind, group)) // PER_LIST)
            paths += [f"/{kind}/{letter}{group}-{page}.html" for page in range(max(pages, 1))]
    paths += sorted(site.content_paths())
    paths += [f"/info/{name}" for name in ("about", "contact", "privacy", "terms", "careers",
                                            "advertise", "help", "sitemap")]  # footer links
    return [(path, body) for path in paths if (body := site.render(path)) is not None]


def responses(pages: list[tuple[str, bytes]]) -> list[HtmlResponse]:
    base = "http://127.0.0.1:8000"
    return [HtmlResponse(url=base + path, body=body, request=Request(base + path),
                         headers={"Content-Type": "text/html; charset=utf-8"})
            for path, body in pages]


def links(pages: list[HtmlResponse], count: int) -> dict[str, list[Request]]:
    """What a CrawlSpider yields for each page: its links as requests (built
    before the timing: link extraction is the spider's, with or without the add-on)."""
    return {r.url: [Request(f"{r.url}?link={n}") for n in range(count)] for r in pages}


async def _requests(requests: list[Request]) -> Any:
    for request in requests:
        yield request


class Timer:
    """Per-call CPU time of this thread, of the wrapped methods (``--calls``)."""

    def __init__(self) -> None:
        self.totals: dict[str, list[int]] = {}

    def wrap(self, owner: Any, name: str, label: str) -> None:
        function = getattr(owner, name)
        record = self.totals.setdefault(label, [0, 0])
        clock = time.thread_time_ns

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return function(*args, **kwargs)
            finally:
                record[0] += clock() - started
                record[1] += 1

        setattr(owner, name, timed)


def time_hooks(timer: Timer) -> None:
    """Wrap the hooks' classes (once: every later instance is timed)."""
    from scrapy_contentex import middlewares, pipelines, pool

    for owner, name in ((middlewares.ContentexSpiderMiddleware, "process_spider_input"),
                        (middlewares.ContentexSpiderMiddleware, "process_spider_output_async"),
                        (pipelines.ContentexPipeline, "process_item"),
                        (JsonLinesItemExporter, "export_item"),
                        (pool.LoopPool, "submit"), (pool.LoopPool, "_readable")):
        timer.wrap(owner, name, f"{owner.__name__}.{name}")


def process_figures(pid: int) -> tuple[float, int, int]:
    """CPU seconds of a process (all its threads) and its voluntary and involuntary
    context switches, from /proc (zeros where it is missing)."""
    cpu, voluntary, involuntary = 0.0, 0, 0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/status", encoding="ascii") as fh:
                for line in fh:
                    if line.startswith("voluntary_ctxt_switches"):
                        voluntary += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches"):
                        involuntary += int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return cpu, voluntary, involuntary


def pool_figures(workers: Any) -> tuple[float, int, int]:
    """``process_figures`` summed over the worker middleware's pool."""
    sums = [0.0, 0, 0]
    for worker in getattr(workers.pool, "_workers", ()):
        if worker is not None:
            for i, value in enumerate(process_figures(worker.proc.pid)):
                sums[i] += value
    return sums[0], sums[1], sums[2]


async def run_addon(pages: list[HtmlResponse], requests: dict[str, list[Request]],
                    worker_figures: list | None = None) -> float:
    from scrapy_contentex.middlewares import ContentexSpiderMiddleware, ContentexWorkerMiddleware
    from scrapy_contentex.pipelines import ContentexPipeline

    crawler = get_crawler(settings_dict={"CONTENTEX_WORKERS": 1})
    workers = build_from_crawler(ContentexWorkerMiddleware, crawler)
    spider_mw = build_from_crawler(ContentexSpiderMiddleware, crawler)
    pipeline = build_from_crawler(ContentexPipeline, crawler)
    exporter = JsonLinesItemExporter(io.BytesIO())
    workers.spider_opened()
    await _worker_ready(workers, pages[0])
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(response: HtmlResponse) -> None:
        async with gate:
            response = await workers.process_response(response.request, response)
        spider_mw.process_spider_input(response)
        async for out in spider_mw.process_spider_output_async(
                response, _requests(requests[response.url])):
            if not isinstance(out, Request):
                exporter.export_item(pipeline.process_item(out))

    before = pool_figures(workers)
    started = time.thread_time()
    await asyncio.gather(*(one(r) for r in pages))
    elapsed = time.thread_time() - started
    if worker_figures is not None:
        worker_figures.append([a - b for a, b in zip(pool_figures(workers), before, strict=True)])
    workers.spider_closed()
    return elapsed


async def _worker_ready(workers: Any, response: HtmlResponse) -> None:
    """One page first, untimed: the worker has started and loaded its models."""
    copy = response.replace()
    await workers.process_response(copy.request, copy)


async def run_items(pages: list[HtmlResponse], requests: dict[str, list[Request]]) -> float:
    """The same loop with no add-on: a {"url"} item per page, exported."""
    exporter = JsonLinesItemExporter(io.BytesIO())
    gate = asyncio.Semaphore(CONCURRENCY)

    async def passthrough(result: Any) -> Any:  # where the add-on's layer would be
        async for out in result:
            yield out

    async def one(response: HtmlResponse) -> None:
        async with gate:
            await asyncio.sleep(0)
        async for out in passthrough(_requests(requests[response.url])):
            assert isinstance(out, Request)
        exporter.export_item({"url": response.url})

    started = time.thread_time()
    await asyncio.gather(*(one(r) for r in pages))
    return time.thread_time() - started


def pipe_writes(sizes: tuple[int, ...] = (16, 3500, 20000, 50000, 80000), count: int = 3000) -> None:
    """CPU of this thread per write of ``size`` bytes to a pipe that another
    process drains, with a yield after each write (like a loop turn), best of 3.

    Why: a shared-memory hand-off of page bodies would still write a small
    header to wake the worker; if a small write costs about what a page
    body's does, the copy is not what costs."""
    import subprocess

    print(f"\n{'bytes per write':>15} {'us CPU per write':>17}")
    for size in sizes:
        proc = subprocess.Popen([sys.executable, "-c",
                                 "import os\nwhile os.read(0, 1 << 20): pass"],
                                stdin=subprocess.PIPE)
        fd, data, best = proc.stdin.fileno(), b"x" * size, float("inf")
        time.sleep(0.3)
        for _ in range(3):
            started = time.thread_time()
            for _ in range(count):
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                time.sleep(0)
            best = min(best, (time.thread_time() - started) / count)
        proc.stdin.close()
        proc.wait()
        print(f"{size:>15} {best * 1e6:>17.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000, help="content pages of the site")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=25,
                        help="requests the spider yields per page")
    parser.add_argument("--calls", action="store_true", help="also time each hook per call")
    parser.add_argument("--pipe-writes", action="store_true",
                        help="only time writes of several sizes to a pipe (see pipe_writes)")
    args = parser.parse_args(argv)
    if args.pipe_writes:
        pipe_writes()
        return 0
    import scrapy_contentex

    pages = responses(site_pages(Site(args.pages)))
    requests = links(pages, args.requests)
    best: dict[str, float] = {}
    timer = Timer() if args.calls else None
    if timer is not None:
        time_hooks(timer)
    worker_figures: list[list[float]] = []
    for _ in range(args.rounds):
        best["plain items"] = min(best.get("plain items", 1e9),
                                  asyncio.run(run_items(pages, requests)))
        best["add-on"] = min(best.get("add-on", 1e9),
                             asyncio.run(run_addon(pages, requests, worker_figures)))
    print(f"package: {scrapy_contentex.__file__}; {len(pages)} pages, {args.requests} requests "
          f"each, best of {args.rounds}; main-thread CPU (the worker's excluded)")
    print(f"{'loop':12} {'CPU s':>7} {'us/page':>8}")
    for name, seconds in best.items():
        print(f"{name:12} {seconds:7.3f} {seconds / len(pages) * 1e6:8.1f}")
    print(f"the add-on adds {(best['add-on'] - best['plain items']) / len(pages) * 1e6:.1f} us "
          "per page")
    print("the worker, per page, each round (CPU us; voluntary / involuntary context "
          "switches: its wake-ups and preemptions): " + "; ".join(
              f"{cpu / len(pages) * 1e6:.0f} us, {vol / len(pages):.2f} / {invol / len(pages):.2f}"
              for cpu, vol, invol in worker_figures))
    if timer is not None:
        print(f"\n{'hook (all rounds)':42} {'calls':>7} {'us/call':>8}")
        for label, (ns, calls) in timer.totals.items():
            if calls:
                print(f"{label:42} {calls:7} {ns / calls / 1000:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
