"""What the add-on costs a crawl: a generated news + shop site, bare CrawlSpider vs add-on.

    nice python -m benchmarks.crawl_speed [--pages 1000] [--rounds 2] [--workers N ...]
    nice python -m benchmarks.crawl_speed --pages 10000 --rounds 1 --memory   # memory run

The site is generated here (no dataset page, nothing on disk) and served on
127.0.0.1 by this process: ``--pages`` content pages (3 in 5 news articles,
a quarter of them in Chinese, 2 in 5 shop products, half of those with
JSON-LD), reached through paginated section and category pages of 20 links,
with menus, related links and footers like real sites. Each page is built
from its number with a seeded RNG, so every run serves the same site.

Each round crawls it with the same CrawlSpider (one LinkExtractor rule, no
callback), in fresh processes, one configuration after the other: bare (no
add-on); "plain items", the same spider with a callback that yields a
``{"url": ...}`` dict for every page (no add-on: what Scrapy's item path and
the feed cost a crawl that has items at all, which the bare crawl has not);
then with ``ADDONS = {"scrapy_contentex.Addon": 500}`` for each
``--workers`` value (``CONTENTEX_WORKERS``; ``default`` = the add-on's
default, one per CPU minus one; ``default:cold`` = the same workers without
their warm-up, which loads the models while the first pages download).
Figures:

- pages/s: responses / wall seconds of the crawl (``CrawlerProcess.start``,
  worker start and stop included); the ratio to the bare crawl of the same
  round, best round, is the headline; the ratio to the plain-items crawl
  of the same round is what the add-on's own work costs;
- CPU seconds of the crawl process and its workers, of the crawl process
  alone, and of its main thread (the reactor's; the rest of the crawl
  process's CPU is its other threads: Scrapy's DNS threads, and the pool's
  when it runs one, on a reactor other than asyncio's);
- where the main thread's wall time went, during the crawl (Linux only,
  else 0): "waited", seconds it was runnable but had no CPU (another
  process or thread held its core; from /proc/thread-self/schedstat);
  "idle", seconds it had nothing to do (wall minus its CPU minus waited:
  waiting for the network or the workers); "preempted", its involuntary
  context switches;
- items: every content page must give its item (the URLs are checked, not
  only the count); the items of other pages (section and category pages
  the page type passes on as content) are counted in the items column;
- setup s: the time ``CrawlerProcess.crawl`` took to build the crawl
  (before the timed part; the add-on starts its workers there), and
  home page s, when the first response got through the downloader
  middlewares (with the add-on, once a worker classified it);
- peak RSS: sampled every 0.1 s, of the crawl process, of its workers
  together, and of both together.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scrapy_contentex.pool import WARM_ENV, rss_kb

ROOT = Path(__file__).resolve().parent.parent
PER_LIST = 20

WORDS = ("harbour council winter ferry river bridge market school garden library station "
         "museum festival weather road budget hospital railway village island mountain "
         "coast farmers workers opening closing plan report survey season visitors record "
         "local city county committee project residents street park centre service").split()
ZH = "市政府今年计划改造老城区的道路和公园居民反映交通拥堵问题明显工作人员表示将增加公交线路" \
     "并延长运营时间图书馆博物馆体育中心同步开放志愿者参与社区服务活动天气转冷注意保暖"
NOUNS = "Kettle Lamp Chair Backpack Jacket Mug Blender Tent Watch Speaker Desk Pillow".split()
ADJ = "Walnut Steel Trail Classic Compact Quiet Solar Linen Ceramic Nordic Urban Alpine".split()


def sentence(rng: random.Random, lo: int = 8, hi: int = 18) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


def zh_sentence(rng: random.Random) -> str:
    start = rng.randrange(len(ZH) - 30)
    return ZH[start:start + rng.randint(15, 30)] + "。"


class Site:
    """The generated site: URL path -> page bytes, computed on demand."""

    def __init__(self, pages: int) -> None:
        self.articles = pages * 3 // 5
        self.products = pages - self.articles
        self.sections = 4
        self.categories = 4

    def content_paths(self) -> set[str]:
        return ({f"/news/a{n}.html" for n in range(self.articles)}
                | {f"/shop/p{n}.html" for n in range(self.products)})

    # -- shared chrome -----------------------------------------------------

    def _menu(self) -> str:
        news = "".join(f'<li><a href="/news/s{k}-0.html">Section {k}</a></li>'
                       for k in range(self.sections))
        shop = "".join(f'<li><a href="/shop/c{k}-0.html">Category {k}</a></li>'
                       for k in range(self.categories))
        return f'<header><a href="/">Home</a><ul class="menu">{news}{shop}</ul></header>'

    @staticmethod
    def _footer() -> str:
        links = "".join(f'<a href="/info/{name}">{name.title()}</a> '
                        for name in ("about", "contact", "privacy", "terms", "careers",
                                     "advertise", "help", "sitemap"))
        return f'<footer><p>{links}</p><p>&copy; 2025 Example Media. All rights reserved.</p></footer>'

    def _page(self, title: str, body: str, lang: str = "en", head: str = "") -> bytes:
        return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
                f"<title>{title}</title>{head}</head><body>{self._menu()}{body}"
                f"{self._footer()}</body></html>").encode()

    # -- pages -------------------------------------------------------------

    def render(self, path: str) -> bytes | None:
        try:
            if path in ("/", "/index.html"):
                return self._page("Example Media", "<h1>Welcome</h1>")
            if path.startswith("/news/s"):
                section, page = path[7:-5].split("-")
                return self._list("news", int(section), int(page))
            if path.startswith("/shop/c"):
                category, page = path[7:-5].split("-")
                return self._list("shop", int(category), int(page))
            if path.startswith("/news/a"):
                return self._article(int(path[7:-5]))
            if path.startswith("/shop/p"):
                return self._product(int(path[7:-5]))
            if path.startswith("/info/"):
                return self._page(path[6:].title(), f"<h1>{path[6:].title()}</h1>"
                                  "<p>Example Media, 1 Quay Street.</p>")
        except ValueError:
            return None
        return None

    def _members(self, kind: str, group: int) -> list[int]:
        total, groups = ((self.articles, self.sections) if kind == "news"
                         else (self.products, self.categories))
        return list(range(group, total, groups))

    def _list(self, kind: str, group: int, page: int) -> bytes | None:
        members = self._members(kind, group)
        chunk = members[page * PER_LIST:(page + 1) * PER_LIST]
        if not chunk and page:
            return None
        rng = random.Random(f"{kind}{group}-{page}")
        if kind == "news":
            tiles = "".join(f'<li><a href="/news/a{n}.html">{sentence(rng, 4, 8)}</a>'
                            f"<span>{rng.randint(1, 28)} May</span></li>" for n in chunk)
        else:
            tiles = "".join(f'<li class="tile"><a href="/shop/p{n}.html">{self._name(n)}</a>'
                            f'<span class="price">£{self._price(n)}</span></li>' for n in chunk)
        more = (f'<a class="next" href="/{kind}/{"s" if kind == "news" else "c"}{group}-'
                f'{page + 1}.html">Next page</a>'
                if (page + 1) * PER_LIST < len(members) else "")
        return self._page(f"{kind.title()} {group}, page {page + 1}",
                          f"<h1>{kind.title()} {group}</h1><ul>{tiles}</ul>{more}")

    def _article(self, n: int) -> bytes | None:
        if n >= self.articles:
            return None
        rng = random.Random(f"a{n}")
        chinese = n % 4 == 3
        if chinese:
            headline = zh_sentence(rng)[:-1]
            paras = "".join("<p>" + "".join(zh_sentence(rng) for _ in range(rng.randint(3, 6)))
                            + "</p>" for _ in range(rng.randint(4, 9)))
            byline = f'<div class="info">2025年{rng.randint(1, 12)}月{rng.randint(1, 28)}日 记者 王明</div>'
        else:
            headline = sentence(rng, 5, 9)[:-1].title()
            paras = "".join("<p>" + " ".join(sentence(rng) for _ in range(rng.randint(3, 6)))
                            + "</p>" for _ in range(rng.randint(4, 9)))
            byline = f'<p class="byline">By Ann Reed, {rng.randint(1, 28)} May 2025</p>'
        related = "".join(f'<li><a href="/news/a{rng.randrange(self.articles)}.html">'
                          f"{sentence(rng, 4, 7)}</a></li>" for _ in range(6))
        body = (f'<article><h1>{headline}</h1>{byline}{paras}</article>'
                f'<aside><h3>Most read</h3><ul>{related}</ul></aside>')
        return self._page(headline, body, lang="zh-CN" if chinese else "en")

    @staticmethod
    def _name(n: int) -> str:
        return f"{ADJ[n % len(ADJ)]} {NOUNS[(n // len(ADJ)) % len(NOUNS)]} {n}"

    @staticmethod
    def _price(n: int) -> str:
        return f"{5 + (n * 37) % 400}.{(n * 13) % 100:02d}"

    def _product(self, n: int) -> bytes | None:
        if n >= self.products:
            return None
        rng = random.Random(f"p{n}")
        name, price = self._name(n), self._price(n)
        head = ""
        if n % 2 == 0:
            head = ('<script type="application/ld+json">' + json.dumps({
                "@context": "https://schema.org", "@type": "Product", "name": name,
                "sku": f"SK-{n:05d}", "offers": {"@type": "Offer", "price": price,
                                                 "priceCurrency": "GBP",
                                                 "availability": "https://schema.org/InStock"}})
                    + "</script>")
        specs = "".join(f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in (
            ("Brand", "Oak & Pine"), ("SKU", f"SK-{n:05d}"), ("Weight", f"{rng.randint(1, 9)} kg"),
            ("Colour", rng.choice(("Black", "Grey", "Green", "Blue"))),
            ("Material", rng.choice(("Steel", "Walnut", "Cotton", "Ceramic")))))
        related = "".join(f'<li class="tile"><a href="/shop/p{m}.html">{self._name(m)}</a>'
                          f'<span class="price">£{self._price(m)}</span></li>'
                          for m in (rng.randrange(self.products) for _ in range(6)))
        body = (f'<div class="product"><h1>{name}</h1><div class="price">£{price}</div>'
                f'<span class="stock">In stock</span><p class="desc">'
                f'{" ".join(sentence(rng) for _ in range(4))}</p>'
                f'<table class="specs">{specs}</table><button>Add to basket</button></div>'
                f'<div class="related"><h3>You may also like</h3><ul>{related}</ul></div>')
        return self._page(f"{name} | Oak & Pine shop", body, head=head)


def serve(site: Site) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            body = site.render(self.path.split("?", 1)[0])
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):  # noqa: A002
            pass

    class Server(ThreadingHTTPServer):
        # socketserver's listen backlog is 5. A crawl that sends 16 requests at
        # once (the add-on's first page holds the reactor while the models
        # load, then the queued requests all go out) overflowed it, and the
        # dropped connections waited for the kernel's SYN retry a second
        # later: the first item came at 1.2-1.3 s instead of 0.3 s. Web
        # servers listen with backlogs of 128 and more (nginx: 511).
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# -- the crawl (child process) ------------------------------------------------

def child(base: str, workers: str, out: str) -> None:
    """One crawl in this fresh process; prints a JSON line."""
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor
    from scrapy.spiders import CrawlSpider, Rule

    class SiteSpider(CrawlSpider):
        name = "site"
        start_urls = [base + "/"]
        rules = (Rule(LinkExtractor(), callback="page_item" if workers == "items" else None,
                      follow=True),)

        def page_item(self, response):
            yield {"url": response.url}

    settings = {"LOG_LEVEL": "ERROR", "ROBOTSTXT_OBEY": False, "TELNETCONSOLE_ENABLED": False,
                "FEEDS": {out: {"format": "jsonlines"}}}
    if workers not in ("bare", "items"):
        settings["ADDONS"] = {"scrapy_contentex.Addon": 500}
        workers, _, cold = workers.partition(":")
        if cold:  # "N:cold": workers that load their models on their first pages
            os.environ[WARM_ENV] = "0"
        if workers != "default":
            settings["CONTENTEX_WORKERS"] = int(workers)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(SiteSpider)
    urls: list[str] = []
    first: list[float] = []

    def scraped(item, **kwargs) -> None:  # a named function: signals hold weak references
        if not urls:
            first.append(time.perf_counter())
        urls.append(item["url"] if isinstance(item, dict) else item.url)

    crawler.signals.connect(scraped, signal=signals.item_scraped)
    received: list[float] = []

    def response_received(**kwargs) -> None:
        if not received:
            received.append(time.perf_counter())

    crawler.signals.connect(response_received, signal=signals.response_received)
    crawl_started = time.perf_counter()
    process.crawl(crawler)
    crawl_called = time.perf_counter() - crawl_started
    sched_before = main_thread_sched()
    started = time.perf_counter()
    cpu_started = time.thread_time()
    process.start()
    elapsed = time.perf_counter() - started
    cpu_crawl = time.thread_time() - cpu_started
    sched = [after - before for after, before in zip(main_thread_sched(), sched_before, strict=True)]
    stats = crawler.stats.get_stats()
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"cpu_self": own.ru_utime + own.ru_stime, "cpu_main": time.thread_time(), "responses": stats.get("response_received_count", 0), "elapsed": elapsed,
                      "main_waited": sched[0], "main_idle": elapsed - cpu_crawl - sched[0],
                      "main_preempted": sched[1], "crawl_called": crawl_called,
                      "home_at": received[0] - started if received else None,
                      "first_item": first[0] - started if first else None, "urls": urls, "workers": stats.get("contentex/workers/processes", 0),
                      "failed": {k: v for k, v in stats.items()
                                 if k.startswith("contentex/failed/")}}))


def main_thread_sched() -> tuple[float, int]:
    """This thread's time spent runnable but waiting for a CPU (seconds) and
    its involuntary context switches so far; (0, 0) where Linux's schedstat
    and RUSAGE_THREAD are missing.

    Why: a crawl's wall time is its main thread's CPU, plus the time it
    wanted a CPU and had none (descheduled: another process took its core),
    plus the time it had nothing to do (waiting for the network or the
    workers). The three call for different fixes.
    """
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as fh:
            waited = int(fh.read().split()[1]) / 1e9
        return waited, resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw
    except (OSError, AttributeError, IndexError, ValueError):
        return 0.0, 0


def _children(pid: int) -> list[int]:
    """Child processes of every thread of ``pid`` (the pool starts workers from threads)."""
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as fh:
                found.extend(int(p) for p in fh.read().split())
    except OSError:
        pass
    return found


def run_crawl(base: str, workers: str) -> dict:
    """A crawl in a child process, its peak memory sampled from /proc meanwhile."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        server_before = resource.getrusage(resource.RUSAGE_SELF)
        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.crawl_speed", "--child", base,
                                 workers, str(Path(tmp) / "items.jsonl")], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peak = {"crawl": 0, "workers": 0, "total": 0}
        output: list[tuple[str, str]] = []
        reader = threading.Thread(target=lambda: output.append(proc.communicate()))
        reader.start()
        while proc.poll() is None:
            crawl = rss_kb(proc.pid)
            helpers = sum(rss_kb(c) for c in _children(proc.pid))
            peak = {**peak, "crawl": max(peak["crawl"], crawl),
                    "workers": max(peak["workers"], helpers),
                    "total": max(peak["total"], crawl + helpers)}
            time.sleep(0.1)
        reader.join()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        server_after = resource.getrusage(resource.RUSAGE_SELF)
    stdout, stderr = output[0]
    if proc.returncode != 0:
        raise RuntimeError(f"crawl failed ({workers}):\n{stderr[-3000:]}")
    run = json.loads(stdout.strip().splitlines()[-1])
    run["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # This process serves the site (and samples memory) meanwhile, on the same cores.
    run["server_cpu"] = ((server_after.ru_utime - server_before.ru_utime)
                         + (server_after.ru_stime - server_before.ru_stime))
    run["peak"] = peak
    return run


def config_name(config: str) -> str:
    return "plain items" if config == "items" else f"WORKERS={config}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000, help="content pages of the site")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each configuration")
    parser.add_argument("--workers", nargs="+", default=["default", "0"],
                        help="CONTENTEX_WORKERS values to run with the add-on ('default' = "
                        "the add-on's default; 'N:cold' = N workers without their warm-up)")
    parser.add_argument("--memory", action="store_true",
                        help="memory run: only the add-on with default workers (no bare crawl)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0

    site = Site(args.pages)
    expected = site.content_paths()
    configs = (["default"] if args.memory else ["bare", "items", *args.workers])
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    runs: dict[str, list[dict]] = {c: [] for c in configs}
    try:
        for _ in range(args.rounds):
            for config in configs:
                runs[config].append(run_crawl(base, config))
    finally:
        server.shutdown()
        server.server_close()

    cpus = os.cpu_count()
    print(f"generated site: {len(expected)} content pages ({site.articles} articles, "
          f"{site.products} products) + section/category pages; {args.rounds} round(s); "
          f"{cpus} CPUs; CONCURRENT_REQUESTS=16")
    header = (f"{'crawl':32} {'responses':>9} {'items':>6} {'every content page':>18} {'pages/s':>8} "
              f"{'x bare':>7} {'CPU s':>7} {'of which crawl':>14} {'main thread':>11} {'waited':>6} {'idle':>5} {'preempted':>9} {'server CPU s':>12} {'peak RSS MB: crawl':>19} {'workers':>8} "
              f"{'together':>9} {'setup s':>7} {'home page s':>11} {'1st item s':>10}")
    print(header)
    best: dict[str, float] = {}
    best_items: dict[str, float] = {}
    for config in configs:
        label = {"bare": "CrawlSpider, no add-on",
                 "items": "CrawlSpider, plain items"}.get(config, f"+ add-on, WORKERS={config}")
        for i, run in enumerate(runs[config]):
            rate = run["responses"] / run["elapsed"]
            bare = runs["bare"][i] if "bare" in runs else None
            ratio = rate / (bare["responses"] / bare["elapsed"]) if bare else None
            got = {u.split("/", 3)[3] for u in run["urls"]}
            missing = {p.lstrip("/") for p in expected} - got
            if config in ("bare", "items"):
                complete_txt = "-"
            else:
                complete_txt = "yes" if not missing else f"NO ({len(missing)} missing)"
            first_txt = "-" if run["first_item"] is None else f"{run['first_item']:.2f}"
            if config != "bare" and ratio is not None:
                best[config] = max(best.get(config, 0.0), ratio)
            if config not in ("bare", "items") and "items" in runs:
                plain = runs["items"][i]
                best_items[config] = max(best_items.get(config, 0.0),
                                         rate / (plain["responses"] / plain["elapsed"]))
            print(f"{label[:32]:32} {run['responses']:>9} {len(run['urls']):>6} "
                  f"{complete_txt:>18} {rate:>8.1f} "
                  f"{(f'{ratio:.2f}x' if ratio else '-'):>7} {run['cpu']:>7.2f} {run['cpu_self']:>14.2f} {run['cpu_main']:>11.2f} "
                  f"{run['main_waited']:>6.2f} {run['main_idle']:>5.2f} {run['main_preempted']:>9} "
                  f"{run['server_cpu']:>12.2f} "
                  f"{run['peak']['crawl'] / 1024:>19.0f} {run['peak']['workers'] / 1024:>8.0f} "
                  f"{run['peak']['total'] / 1024:>9.0f} {run['crawl_called']:>7.2f} "
                  f"{run['home_at'] or 0:>11.2f} {first_txt:>10}")
            if run["failed"]:
                print(f"{'':32} failures: {run['failed']}")
    for config, ratio in best.items():
        print(f"best ratio of pages/s to the bare crawl of the same round, {config_name(config)}: "
              f"{ratio:.2f}x" + ("" if config == "items" else " (target >= 0.9x)"))
    for config, ratio in best_items.items():
        print(f"best ratio of pages/s to the plain-items crawl of the same round, WORKERS={config}: "
              f"{ratio:.2f}x (the add-on's own work)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
