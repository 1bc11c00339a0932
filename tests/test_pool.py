"""The worker pool: same items as in-process, crashes and timeouts keep the item, bounded.

Workers are real child processes; the fault hook (CONTENTEX_WORKER_TEST_FAULT,
read when a pool starts) makes a worker die or hang on a page that holds
``pool.FAULT_MARKER``, so the recovery paths run for real.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from conftest import (
    ARTICLE_EN,
    INDEX_EN,
    PRODUCT_EN,
    ROOT,
    html_response,
    make_crawler,
    make_middleware,
    run_middleware,
)
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import build_from_crawler

from scrapy_contentex.items import Article, Page, Product
from scrapy_contentex.middlewares import (
    META_PAGE_TYPE,
    TASKS_PER_WORKER,
    ContentexWorkerMiddleware,
    _Inbox,
)
from scrapy_contentex.pipelines import ContentexPipeline
from scrapy_contentex.pool import (
    _SPARES,
    FAULT_ENV,
    FAULT_MARKER,
    WARM_ENV,
    WARM_IDLE,
    LoopPool,
    WorkerCrashed,
    WorkerPool,
    WorkerTimeout,
    _frame,
    _FrameReader,
    _serve,
    prestart,
)
from scrapy_contentex.settings import ContentexSettings
from scrapy_contentex.work import (
    WorkSettings,
    from_wire,
    process_page,
    process_page_wire,
    to_wire,
    warm_up_steps,
)

RUNNER = ROOT / "example_project" / "run.py"
FAULTY = ARTICLE_EN.replace("<footer>", f"<!-- {FAULT_MARKER.decode()} --><footer>")


def task(html: str, url: str = "http://example.com/a.html") -> tuple:
    return (html.encode("utf-8"), url, None, "auto", WorkSettings())


def test_pool_result_equals_in_process_result():
    with WorkerPool(1, timeout=30) as pool:
        futures = [pool.submit(*task(html)) for html in (ARTICLE_EN, PRODUCT_EN, INDEX_EN)]
        remote = [f.result(timeout=60) for f in futures]
    local = [process_page(*task(html)) for html in (ARTICLE_EN, PRODUCT_EN, INDEX_EN)]
    assert [r.label for r in remote] == [r.label for r in local] == ["content", "content", "index"]
    assert [r.item for r in remote] == [r.item for r in local]
    assert isinstance(remote[0].item, Article) and isinstance(remote[1].item, Product)
    assert remote[0].item.headline == "Ferry Timetable Changes for Winter"
    assert all(r.doc is None for r in remote)  # no tree crosses the process boundary


def _untimed(result):
    result.classify_ms = result.extract_ms = 0.0
    return result


@pytest.mark.parametrize("body", [ARTICLE_EN, PRODUCT_EN, INDEX_EN, "   ", FAULTY.replace(
    "<body>", "<body><table>" * 2)])
def test_wire_tuple_rebuilds_the_same_result(body):
    """What the crawl's workers answer (plain values, pickled) gives back the
    PageResult of the in-process work: same label, page type, item class and fields."""
    local = _untimed(process_page(*task(body)))
    wired = process_page_wire(*task(body))
    assert all(isinstance(v, (str, int, float, bool, tuple, type(None))) for v in wired)
    rebuilt = _untimed(from_wire(pickle.loads(pickle.dumps(wired))))
    assert rebuilt == local
    assert type(rebuilt.item) is type(local.item) and type(rebuilt.page_type) is type(local.page_type)
    assert to_wire(rebuilt) == to_wire(local)


def test_settings_cross_the_wire_as_a_tuple():
    from scrapy_contentex.work import settings_from_wire, settings_to_wire

    custom = WorkSettings(pagetype_params=(("threshold", 0.7),), record_pages=False,
                          text_params=(("keep", [1, 2]),))  # a list: not hashable
    for settings in (WorkSettings(), custom):
        wired = settings_to_wire(settings)
        assert settings_from_wire(pickle.loads(pickle.dumps(wired))) == settings
    html = ARTICLE_EN.encode()
    assert _untimed(from_wire(process_page_wire(html, None, None, "auto", settings_to_wire(
        WorkSettings())))) == _untimed(process_page(html, None, None, "auto", WorkSettings()))


def test_failed_extraction_crosses_the_wire_with_its_reason():
    from scrapy_contentex.work import PageResult, failed_item

    failed = PageResult(label="content", error="ValueError",
                        item=failed_item("product", "http://e.com/p", ValueError("bad")))
    rebuilt = from_wire(to_wire(failed))
    assert rebuilt == failed and isinstance(rebuilt.item, Product)
    assert rebuilt.item.contentexError == "ValueError: bad"


def test_warm_and_cold_workers_give_the_same_results():
    """A worker warms up on made-up pages while idle; its answers do not change."""
    results = {}
    for warm in (True, False):
        with WorkerPool(1, timeout=30, warm=warm) as pool:
            assert pool.warm is warm
            results[warm] = [pool.submit(*task(html)).result(timeout=60)
                             for html in (ARTICLE_EN, PRODUCT_EN, INDEX_EN)]
    assert [r.item for r in results[True]] == [r.item for r in results[False]]
    assert [r.label for r in results[True]] == ["content", "content", "index"]


def test_warm_up_steps_classify_then_extract_an_article_and_a_product():
    page_type, article, product = (step() for step in warm_up_steps())
    assert page_type.label == "content" and page_type.item is None and page_type.page_type
    assert isinstance(article.item, Article) and article.item.articleBody and not article.error
    assert isinstance(product.item, Product) and product.item.price == "45" and not product.error


def test_a_worker_takes_its_first_warm_up_step_at_once_and_the_others_after_a_task():
    """The page-type step runs before any task; the extractors' steps wait for
    the first task (a worker started ahead of its crawl must not be busy
    warming when the first page comes), then run while no task comes."""
    ran: list[str] = []
    steps = [lambda: ran.append("page type"), lambda: ran.append("article"),
             lambda: ran.append("product")]
    task_r, task_w = os.pipe()
    answer_r, answer_w = os.pipe()
    tasks = _FrameReader(task_r)
    os.set_blocking(task_r, False)
    os.set_blocking(answer_w, False)
    serving = threading.Thread(target=_serve, args=(tasks, answer_w, len, steps))
    serving.start()
    answers = _FrameReader(answer_r)
    try:
        assert pickle.loads(_next_answer(answers))[0] == "ready"
        time.sleep(3 * WARM_IDLE)
        assert ran == ["page type"]  # idle, but no task yet
        os.write(task_w, _frame(pickle.dumps((b"abcd",))))
        assert pickle.loads(_next_answer(answers)) == ("ok", 4)
        deadline = time.monotonic() + 10
        while len(ran) < 3 and time.monotonic() < deadline:
            time.sleep(WARM_IDLE)
        assert ran == ["page type", "article", "product"]
    finally:
        os.close(task_w)
        serving.join(timeout=10)
        for fd in (task_r, answer_r, answer_w):
            os.close(fd)
    assert not serving.is_alive()


def _next_answer(answers: _FrameReader) -> bytes:
    while (frame := answers.next_frame()) is None:
        assert answers.read_chunk(), "the worker loop closed its answers"
    return frame


def test_warm_up_is_off_when_the_environment_says_so(monkeypatch):
    monkeypatch.setenv(WARM_ENV, "0")
    with WorkerPool(1, timeout=30) as pool:
        assert pool.warm is False
        assert pool.submit(*task(ARTICLE_EN)).result(timeout=60).label == "content"


def test_crashed_worker_fails_its_task_only_and_is_replaced():
    with WorkerPool(1, timeout=30, fault="crash") as pool:
        before = pool.submit(*task(ARTICLE_EN))
        crashed = pool.submit(*task(FAULTY))
        after = pool.submit(*task(PRODUCT_EN))
        assert before.result(timeout=60).label == "content"
        with pytest.raises(WorkerCrashed, match="exit code 70"):
            crashed.result(timeout=60)
        assert after.result(timeout=60).item.name == "Walnut Desk Organiser"
        assert pool.restarts == 1


def test_stuck_worker_is_killed_at_the_timeout_and_replaced():
    with WorkerPool(1, timeout=2.5, fault="hang") as pool:
        stuck = pool.submit(*task(FAULTY))
        after = pool.submit(*task(ARTICLE_EN))
        with pytest.raises(WorkerTimeout, match="2.5 s"):
            stuck.result(timeout=60)
        assert after.result(timeout=60).item.headline == "Ferry Timetable Changes for Winter"
        assert pool.restarts == 1


def test_tasks_written_ahead_after_a_crash_run_on_the_next_worker():
    """A window of tasks sits in the worker's pipe: the crash fails its own task
    only, and the tasks behind it run on the fresh worker, in order."""
    with WorkerPool(1, timeout=30, fault="crash", window=4) as pool:
        futures = [pool.submit(*task(html)) for html in
                   (ARTICLE_EN, FAULTY, PRODUCT_EN, INDEX_EN, ARTICLE_EN)]
        with pytest.raises(WorkerCrashed):
            futures[1].result(timeout=60)
        labels = [f.result(timeout=60).label for f in futures[2:]]
        assert labels == [process_page(*task(html)).label
                          for html in (PRODUCT_EN, INDEX_EN, ARTICLE_EN)]
        assert futures[0].result(timeout=60).item.headline == \
            "Ferry Timetable Changes for Winter"
        assert pool.restarts == 1


def test_big_tasks_and_big_answers_do_not_block_the_pipes():
    """Tasks and answers far beyond a pipe's 64 KiB, written ahead by a parent
    thread that blocks on a full pipe: the worker takes tasks in while its
    answer waits for room, so neither side can wait on the other forever."""
    big = [bytes([i]) * (3 << 20) for i in range(4)]
    with WorkerPool(1, timeout=60, function="builtins:bytes", window=3) as pool:
        futures = [pool.submit(b) for b in big]
        assert [f.result(timeout=60) for f in futures] == big


def test_big_tasks_and_big_answers_through_the_loop_driver():
    big = [bytes([i]) * (3 << 20) for i in range(4)]

    async def run() -> list:
        with LoopPool(1, timeout=60, function="builtins:bytes", window=3) as pool:
            return list(await asyncio.gather(*(pool.submit(b) for b in big)))

    assert asyncio.run(run()) == big


def test_a_pool_takes_the_workers_started_ahead_for_its_function():
    prestart(1, "builtins:len")
    spare = _SPARES[("builtins:len", None, True)][0]
    with WorkerPool(1, timeout=30, function="builtins:len") as pool:
        assert pool.submit(b"abc").result(timeout=30) == 3
        assert pool._workers[0].proc is spare
    assert not _SPARES[("builtins:len", None, True)]
    assert spare.poll() is not None  # stopped with its pool


def test_output_written_below_python_does_not_reach_the_answers():
    """A task whose function writes to fd 1 through a child process (as a C
    library could): the bytes go to stderr, the answers stay whole."""
    with WorkerPool(1, timeout=30, function="os:system") as pool:
        assert pool.submit("echo not-a-frame").result(timeout=30) == 0
        assert pool.submit("true").result(timeout=30) == 0
        assert pool.restarts == 0


def test_window_must_be_positive():
    with pytest.raises(ValueError, match="window"):
        WorkerPool(1, window=0)


def test_inbox_settles_answers_from_a_thread_in_batches(monkeypatch):
    """Every awaiting coroutine gets its own outcome; answers that arrive
    together wake the loop once, not once each."""
    import threading
    from concurrent.futures import Future

    drains = []
    original = _Inbox._drain
    monkeypatch.setattr(_Inbox, "_drain", lambda self: (drains.append(1), original(self)))

    async def main():
        inbox = _Inbox(asyncio.get_running_loop())
        futures = [Future() for _ in range(50)]
        waiters = [inbox.watch(f) for f in futures]

        def settle():
            for i, f in enumerate(futures[:48]):
                f.set_result(i)
            futures[48].set_exception(ValueError("boom"))
            futures[49].cancel()

        thread = threading.Thread(target=settle)
        thread.start()
        thread.join()  # all answers are in before the loop runs again
        results = await asyncio.gather(*waiters, return_exceptions=True)
        return results

    results = asyncio.run(main())
    assert results[:48] == list(range(48))
    assert isinstance(results[48], ValueError) and str(results[48]) == "boom"
    assert isinstance(results[49], asyncio.CancelledError)
    assert len(drains) == 1


# -- the event-loop driver -------------------------------------------------------

def _in_loop(check, **pool_args):
    """Run ``check(pool)`` (a coroutine function) on a LoopPool in a fresh asyncio loop."""
    async def main():
        with LoopPool(1, **pool_args) as pool:
            return await asyncio.wait_for(check(pool), 60)

    return asyncio.run(main())


def test_loop_pool_gives_the_thread_pool_results_without_a_thread():
    import threading

    async def check(pool):
        before = set(threading.enumerate())
        results = await asyncio.gather(*(pool.submit(*task(h))
                                         for h in (ARTICLE_EN, PRODUCT_EN, INDEX_EN)))
        # The loop drives the pipes itself: no thread was started for them. (A
        # count would also move when a thread of an earlier test ends meanwhile.)
        assert set(threading.enumerate()) - before == set()
        return results

    remote = _in_loop(check, timeout=30)
    local = [process_page(*task(html)) for html in (ARTICLE_EN, PRODUCT_EN, INDEX_EN)]
    assert [r.label for r in remote] == ["content", "content", "index"]
    assert [r.item for r in remote] == [r.item for r in local]


def test_loop_pool_crash_fails_its_task_only_and_the_tasks_behind_it_run():
    async def check(pool):
        futures = [pool.submit(*task(h)) for h in
                   (ARTICLE_EN, FAULTY, PRODUCT_EN, INDEX_EN, ARTICLE_EN)]
        outcomes = await asyncio.gather(*futures, return_exceptions=True)
        return outcomes, pool.restarts

    outcomes, restarts = _in_loop(check, timeout=30, fault="crash", window=4)
    assert isinstance(outcomes[1], WorkerCrashed) and "exit code 70" in str(outcomes[1])
    assert outcomes[0].item.headline == "Ferry Timetable Changes for Winter"
    assert [o.label for o in outcomes[2:]] == ["content", "index", "content"]
    assert outcomes[2].item.name == "Walnut Desk Organiser"
    assert restarts == 1


def test_loop_pool_kills_a_stuck_worker_at_the_timeout():
    async def check(pool):
        stuck, after = pool.submit(*task(FAULTY)), pool.submit(*task(ARTICLE_EN))
        with pytest.raises(WorkerTimeout, match="2.5 s"):
            await stuck
        return (await after), pool.restarts

    after, restarts = _in_loop(check, timeout=2.5, fault="hang")
    assert after.item.headline == "Ferry Timetable Changes for Winter"
    assert restarts == 1


def test_loop_pool_big_tasks_and_answers_pass_the_pipes_without_blocking_the_loop():
    """3 MiB tasks and answers, written ahead: the pipes take 64 KiB at a time,
    the rest waits for the loop's writer callback while the loop keeps running."""
    big = [bytes([i]) * (3 << 20) for i in range(4)]

    async def check(pool):
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        beat = asyncio.ensure_future(ticker())
        results = await asyncio.gather(*(pool.submit(b) for b in big))
        beat.cancel()
        return results, ticks

    results, ticks = _in_loop(check, timeout=60, function="builtins:bytes", window=3)
    assert results == big
    assert ticks > 4  # the loop ran other work while the pages crossed the pipes


def test_loop_pool_restarts_after_max_tasks_and_fails_unpicklable_tasks_alone():
    async def check(pool):
        with pytest.raises((AttributeError, TypeError, pickle.PicklingError)):
            await pool.submit(lambda: None)
        pids = set()
        for n in range(5):
            assert await pool.submit(n) == str(n)
            pids.add(pool._workers[0].proc.pid if pool._workers[0] else None)
        return pids

    pids = _in_loop(check, timeout=30, function="builtins:str", max_tasks=2)
    assert len(pids - {None}) >= 2  # a new worker after every 2 tasks


def test_loop_pool_shutdown_finishes_written_tasks_and_cancels_the_rest():
    async def main():
        pool = LoopPool(1, timeout=30, function="builtins:str", window=2)
        while not pool._workers[0].ready:  # tasks are written once the worker is ready
            await asyncio.sleep(0.01)
        futures = [pool.submit(n) for n in range(4)]
        pool.shutdown()
        return futures

    futures = asyncio.run(main())
    assert [f.result() for f in futures[:2]] == ["0", "1"]
    assert all(f.cancelled() for f in futures[2:])


def test_worker_middleware_drives_the_pool_from_a_running_loop_only():
    workers, *_ = components({"CONTENTEX_WORKERS": 1})

    async def opened():
        workers.spider_opened()
        try:
            return type(workers.pool)
        finally:
            workers.spider_closed()

    assert asyncio.run(opened()) is LoopPool
    workers.spider_opened()  # no running loop: the thread driver
    try:
        assert type(workers.pool) is WorkerPool
    finally:
        workers.spider_closed()


def test_pool_size_must_be_positive():
    with pytest.raises(ValueError, match="pool size"):
        WorkerPool(0)


# -- through the middlewares and the pipeline ---------------------------------

def components(settings: dict):
    """Worker (downloader) middleware, spider middleware and pipeline of one crawler."""
    mw, crawler = make_middleware(settings)
    workers = build_from_crawler(ContentexWorkerMiddleware, crawler)
    pipeline = build_from_crawler(ContentexPipeline, crawler)
    return workers, mw, pipeline, crawler


async def _through(workers, mw, pipeline, responses):
    """Each response as a crawl moves it: downloader side (concurrently), spider side, pipeline."""
    async def one(response):
        response = await workers.process_response(response.request, response)
        return [pipeline.process_item(o) if isinstance(o, Page) else o
                for o in run_middleware(mw, response)]

    workers.spider_opened()
    try:
        return await asyncio.gather(*(one(r) for r in responses))
    finally:
        workers.spider_closed()


def test_pool_path_gives_the_in_process_items():
    workers, mw, pipeline, crawler = components({"CONTENTEX_WORKERS": 1})
    pages = [(ARTICLE_EN, "http://example.com/a.html"), (PRODUCT_EN, "http://example.com/p.html"),
             (INDEX_EN, "http://example.com/i.html")]
    responses = [html_response(h, url=u) for h, u in pages]
    pooled = asyncio.run(_through(workers, mw, pipeline, responses))
    local_mw, _ = make_middleware({"CONTENTEX_WORKERS": 0})
    local = [[pipeline.process_item(o) for o in run_middleware(local_mw, html_response(h, url=u))]
             for h, u in pages]
    assert pooled == local
    assert [type(out[0]) for out in pooled[:2]] == [Article, Product] and pooled[2] == []
    assert responses[0].meta[META_PAGE_TYPE] == "content"  # callbacks still read the label
    assert responses[2].meta[META_PAGE_TYPE] == "index"
    assert crawler.stats.get_value("contentex/workers/processes") == 1
    assert crawler.stats.get_value("contentex/pages/content") == 2
    assert workers.pool is None  # shut down at spider_closed


def test_spider_middleware_alone_works_in_process():
    mw, _ = make_middleware({"CONTENTEX_WORKERS": 1})
    out = run_middleware(mw, html_response(ARTICLE_EN))
    assert isinstance(out[0], Page) and "ninety minutes" in out[0].html


def test_worker_middleware_is_off_without_workers():
    crawler = make_crawler({"CONTENTEX_WORKERS": 0})
    with pytest.raises(NotConfigured, match="CONTENTEX_WORKERS"):
        build_from_crawler(ContentexWorkerMiddleware, crawler)


@pytest.mark.parametrize(("fault", "timeout", "reason"),
                         [("crash", 30.0, "worker_crash"), ("hang", 2.5, "worker_timeout")])
def test_worker_failure_keeps_the_item_and_the_pool_recovers(monkeypatch, fault, timeout, reason):
    monkeypatch.setenv(FAULT_ENV, fault)
    workers, mw, pipeline, crawler = components(
        {"CONTENTEX_WORKERS": 1, "CONTENTEX_WORKER_TIMEOUT": timeout})
    responses = [html_response(FAULTY, url="http://example.com/bad.html"),
                 html_response(ARTICLE_EN, url="http://example.com/good.html")]
    (bad,), (good,) = asyncio.run(_through(workers, mw, pipeline, responses))
    assert isinstance(bad, Article) and bad.url == "http://example.com/bad.html"
    assert bad.contentexError.startswith(f"{reason}: ")
    assert good.contentexError is None and good.headline == "Ferry Timetable Changes for Winter"
    assert crawler.stats.get_value(f"contentex/failed/{reason}") == 1
    assert crawler.stats.get_value("contentex/workers/restarts") == 1
    assert crawler.stats.get_value("contentex/items/article") == 2


def test_tasks_in_flight_stay_bounded():
    workers, mw, pipeline, crawler = components({"CONTENTEX_WORKERS": 1})
    responses = [html_response(ARTICLE_EN, url=f"http://example.com/{i}.html") for i in range(12)]
    outputs = asyncio.run(_through(workers, mw, pipeline, responses))
    assert len(outputs) == 12 and all(isinstance(out[0], Article) for out in outputs)
    # 12 responses waited at once; at most TASKS_PER_WORKER per worker were handed to the pool.
    assert TASKS_PER_WORKER < 12
    assert crawler.stats.get_value("contentex/workers/peak_in_flight") == TASKS_PER_WORKER


@pytest.mark.parametrize(("name", "value", "message"), [
    ("CONTENTEX_WORKERS", -1, "CONTENTEX_WORKERS must be >= 0"),
    ("CONTENTEX_WORKERS", "two", "CONTENTEX_WORKERS must be an integer"),
    ("CONTENTEX_WORKER_TIMEOUT", 0, "CONTENTEX_WORKER_TIMEOUT must be > 0"),
    ("CONTENTEX_WORKER_TIMEOUT", "soon", "CONTENTEX_WORKER_TIMEOUT must be a number"),
])
def test_worker_settings_are_validated(name, value, message):
    with pytest.raises(ValueError, match=message):
        ContentexSettings.from_settings({name: value})


def test_worker_settings_defaults(monkeypatch):
    monkeypatch.setattr("scrapy_contentex.pool.usable_cpus", lambda: 4)
    config = ContentexSettings.from_settings({})
    assert config.workers == 3 and config.worker_timeout > 0
    monkeypatch.setattr("scrapy_contentex.pool.usable_cpus", lambda: 1)
    assert ContentexSettings.from_settings({}).workers == 0  # one CPU: in-process
    assert ContentexSettings.from_settings({"CONTENTEX_WORKERS": "0"}).workers == 0


# -- a real crawl --------------------------------------------------------------

EPOLL = "TWISTED_REACTOR=twisted.internet.epollreactor.EPollReactor"


def _crawl(output: Path, *settings: str) -> subprocess.Popen:
    args = [a for setting in settings for a in ("-s", setting)]
    return subprocess.Popen(
        [sys.executable, str(RUNNER), "--json", "--output", str(output), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _feed(path: Path) -> dict[str, dict]:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {urlparse(item.pop("url")).path: item for item in items}


def test_demo_crawl_pool_and_in_process_give_the_same_items(tmp_path):
    """In-process, 2 workers on the asyncio reactor, 1 worker on a non-asyncio reactor."""
    runs = {"local": ("CONTENTEX_WORKERS=0",), "pool": ("CONTENTEX_WORKERS=2",),
            "twisted": ("CONTENTEX_WORKERS=1", EPOLL)}
    procs = {name: _crawl(tmp_path / name, *settings) for name, settings in runs.items()}
    results = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr[-3000:]
        assert "Traceback" not in stderr
        results[name] = json.loads(stdout.strip().splitlines()[-1])
    assert results["pool"]["stats"]["contentex/workers/processes"] == 2
    assert results["twisted"]["stats"]["contentex/workers/processes"] == 1
    assert "contentex/workers/processes" not in results["local"]["stats"]
    assert results["local"]["expected_found"] == results["local"]["expected_items"]
    for name in ("articles.jsonl", "products.jsonl"):
        local = _feed(tmp_path / "local" / name)
        assert local
        assert _feed(tmp_path / "pool" / name) == local
        assert _feed(tmp_path / "twisted" / name) == local


def test_ctrl_c_leaves_workers_running():
    """SIGINT reaches the whole process group; the crawl's graceful stop still needs them."""
    with WorkerPool(1, timeout=30) as pool:
        assert pool.submit(*task(ARTICLE_EN)).result(timeout=60).label == "content"
        os.kill(pool._workers[0].proc.pid, signal.SIGINT)
        assert pool.submit(*task(PRODUCT_EN)).result(timeout=60).label == "content"
        assert pool.restarts == 0


def test_a_task_that_cannot_be_sent_fails_alone():
    with WorkerPool(1, timeout=30) as pool:
        with pytest.raises((AttributeError, TypeError, pickle.PicklingError)):
            pool.submit(lambda: None).result(timeout=60)  # a lambda does not pickle
        assert pool.submit(*task(ARTICLE_EN)).result(timeout=60).label == "content"


def test_workers_import_no_scrapy():
    """Workers are light: the work and the pool modules never import Scrapy or Twisted."""
    code = ("import sys, scrapy_contentex.pool, scrapy_contentex.work; "
            "print(sorted(m for m in ('scrapy', 'twisted') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
