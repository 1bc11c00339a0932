"""Distributed crawl speed: one worker vs several on one Redis, side by side.

    python benchmarks/distributed_speed.py                 # 1 and 3 workers, 50 ms per response
    python benchmarks/distributed_speed.py --workers 1 2 3 --delay 0.05 --concurrency 2
    python benchmarks/distributed_speed.py --crawl-only    # the shared crawl without extraction

Crawls the generated test site of tests/distributed_helpers.py (no dataset
pages; the ``redis`` and ``test`` extras give scrapy-redis and a
redis-server binary) served on 127.0.0.1 with a fixed delay per response,
once per worker count, each time on an empty Redis. Pages per second are
counted by the server, from its first to its last response; it answers
nothing until every worker has opened its spider, so process start-up and
the idle wait before workers close are not in the figure (the wall time
column has them). Exits non-zero only on errors, such as a lost or
duplicated item, not on the figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from distributed_helpers import SlowSite, make_site, start_worker  # noqa: E402

from scrapy_contentex.distributed.local import LocalRedis  # noqa: E402


def worker_responses(log: Path) -> int:
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("WORKER-STATS "):
            return json.loads(line.split(" ", 1)[1]).get("response_received_count", 0)
    raise RuntimeError(f"worker did not finish cleanly, see {log}")


def cpu_of_children() -> float:
    """CPU seconds (user + system) of the finished worker processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wait_until_running(logs: list[Path], procs: list) -> None:
    """Until each worker has opened its spider (it logs whether it starts the crawl)."""
    marks = ("This worker starts the crawl", "Crawl already started by another worker")
    deadline = time.monotonic() + 120
    while not all(log.exists() and any(m in log.read_text(errors="replace") for m in marks)
                  for log in logs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise RuntimeError(f"workers did not start, see {logs}")
        time.sleep(0.05)


def run(workers: int, redis_url: str, pages: dict, content: set, args, tmp: Path) -> dict:
    import redis

    server = redis.Redis.from_url(redis_url)
    server.flushall()
    logs = [tmp / f"w{workers}-{n}.log" for n in range(workers)]
    settings = {"CONCURRENT_REQUESTS": args.concurrency, "LOG_LEVEL": "INFO"}
    if args.crawl_only:
        settings["CONTENTEX_ENABLED"] = False
    # The site answers nothing until every worker runs: the figure is the crawl's
    # pace, not how long Python takes to start a few processes on a busy machine.
    with SlowSite(pages, delay=args.delay, hold_after=0) as site:
        cpu_before = cpu_of_children()
        started = time.perf_counter()
        procs = [start_worker(redis_url, site.url + "/", "bench", log, settings) for log in logs]
        wait_until_running(logs, procs)
        site.gate.set()
        codes = [p.wait(timeout=600) for p in procs]
        wall = time.perf_counter() - started
        cpu = cpu_of_children() - cpu_before
    if any(codes):
        raise RuntimeError(f"worker exit codes {codes}, logs in {tmp}")
    urls = [json.loads(raw)["url"][len(site.url):] for raw in server.lrange("bench:items", 0, -1)]
    if not args.crawl_only and (set(urls) != content or len(urls) != len(content)):
        raise RuntimeError(f"{workers} workers: {len(urls)} items, {len(set(urls))} pages, "
                           f"expected {len(content)}")
    return {"workers": workers, "served": len(site.served), "items": len(urls),
            "rate": site.pages_per_second(), "wall": wall, "cpu": cpu,
            "split": [worker_responses(log) for log in logs]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per response")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="CONCURRENT_REQUESTS of each worker")
    parser.add_argument("--crawl-only", action="store_true",
                        help="CONTENTEX_ENABLED=False: no extraction, only the shared crawl")
    args = parser.parse_args(argv)
    pages, content = make_site(articles=args.articles)
    rows = []
    with LocalRedis() as redis_url, tempfile.TemporaryDirectory() as tmp:
        for workers in args.workers:
            rows.append(run(workers, redis_url, pages, content, args, Path(tmp)))
    base = rows[0]["rate"]
    print(f"site: {len(pages)} pages ({len(content)} articles), {args.delay * 1000:.0f} ms per "
          f"response, CONCURRENT_REQUESTS={args.concurrency} per worker"
          + (", extraction off (CONTENTEX_ENABLED=False)" if args.crawl_only else ""))
    ratio_head = f"vs {rows[0]['workers']}"
    print(f"{'workers':>7} {'pages served':>12} {'items':>6} {'pages/s':>8} "
          f"{ratio_head:>6} {'wall s':>7} {'CPU s':>6}  responses per worker")
    for r in rows:
        print(f"{r['workers']:>7} {r['served']:>12} {r['items']:>6} {r['rate']:>8.1f} "
              f"{r['rate'] / base:>5.2f}x {r['wall']:>7.1f} {r['cpu']:>6.1f}  {r['split']}")
    print("pages/s: counted by the server from its first to its last response (it answers "
          "once every worker runs); wall s and CPU s (all workers) include start-up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
