"""A generated news site served slowly, and worker processes for the distributed tests.

The site is made here (no third-party pages): SECTIONS index pages, each
listing ARTICLES_PER_SECTION article pages with a few paragraphs of
generated prose. The HTTP server waits ``delay`` seconds per response so
several workers have work to share, and records what it served.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORKER = HERE / "distributed_worker.py"

WORDS = (
    "river harbour council winter ferry market school library bridge station museum "
    "festival garden village island coast valley mountain farmer teacher engineer "
    "builder sailor doctor baker student visitor resident mayor committee project "
    "budget plan report survey season week morning evening repair opening closing "
    "record decision change increase decline storm rain snow wind sunshine harvest"
).split()
VERBS = "said announced reported confirmed expected agreed planned opened closed reviewed".split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(9, 16))]
    words.insert(rng.randint(2, len(words) - 2), rng.choice(VERBS))
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def article_path(i: int) -> str:
    return f"/news/{i:04d}.html"


def section_path(s: int) -> str:
    return f"/section/{s}.html"


def _nav(sections: int) -> str:
    links = " ".join(f'<a href="{section_path(s)}">Section {s}</a>' for s in range(sections))
    return f'<nav><a href="/">Home</a> {links}</nav>'


def article_page(i: int, total: int, sections: int) -> str:
    rng = random.Random(i)
    title = " ".join(rng.choice(WORDS) for _ in range(6)).title()
    paragraphs = "\n".join(
        "<p>" + " ".join(sentence(rng) for _ in range(rng.randint(4, 7))) + "</p>"
        for _ in range(rng.randint(4, 6)))
    related = " ".join(f'<li><a href="{article_path((i + k) % total)}">Related story {k}</a></li>'
                       for k in (1, 7, 31))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} - '
            f'Valley Courier</title></head><body>{_nav(sections)}<article><h1>{title}</h1>'
            f'<p class="byline">By Staff Writer, {1 + i % 28} March 2025</p>{paragraphs}'
            f'</article><aside><ul>{related}</ul></aside>'
            f'<footer>&copy; 2025 Valley Courier</footer></body></html>')


def section_page(s: int, articles: list[int], sections: int) -> str:
    items = "".join(f'<li><a href="{article_path(i)}">Story {i}: {WORDS[i % len(WORDS)]} '
                    f'{WORDS[(i * 7) % len(WORDS)]}</a></li>' for i in articles)
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Section {s}</title>'
            f'</head><body>{_nav(sections)}<h1>Section {s}</h1><ul>{items}</ul></body></html>')


def make_site(articles: int = 300, per_section: int = 20) -> tuple[dict[str, bytes], set[str]]:
    """Pages by path, and the paths of the content (article) pages."""
    sections = -(-articles // per_section)
    pages: dict[str, bytes] = {}
    for s in range(sections):
        members = list(range(s * per_section, min(articles, (s + 1) * per_section)))
        pages[section_path(s)] = section_page(s, members, sections).encode()
    latest = list(range(0, articles, max(1, articles // 20)))[:20]
    pages["/"] = section_page(-1, latest, sections).encode()
    content = set()
    for i in range(articles):
        pages[article_path(i)] = article_page(i, articles, sections).encode()
        content.add(article_path(i))
    return pages, content


class _Handler(BaseHTTPRequestHandler):
    site: SlowSite

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        site = self.site
        if site.hold_after is not None and len(site.served) >= site.hold_after:
            site.gate.wait(timeout=60)
        time.sleep(site.delay)
        body = site.pages.get(self.path.split("?")[0])
        with site.lock:
            site.served.append((self.path, time.monotonic()))
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class SlowSite:
    """The pages on 127.0.0.1 (free port), each response after ``delay`` seconds.

    With ``hold_after=N``, responses after the N-th wait until ``gate`` is set.
    """

    def __init__(self, pages: dict[str, bytes], delay: float, hold_after: int | None = None):
        self.pages = pages
        self.delay = delay
        self.hold_after = hold_after
        self.gate = threading.Event()
        self.served: list[tuple[str, float]] = []
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"site": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> SlowSite:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def pages_per_second(self) -> float:
        """Responses per second between the first and the last one served."""
        times = sorted(t for _, t in self.served)
        if len(times) < 2 or times[-1] == times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])


def start_worker(redis_url: str, start_url: str, name: str, log: Path,
                 settings: dict[str, Any] | None = None) -> subprocess.Popen:
    """One worker process (tests/distributed_worker.py).

    Its output goes to ``log``, the warnings raised during its crawl to
    ``log`` + ``.warnings.json`` (written when it ends normally).
    """
    cmd = [sys.executable, str(WORKER), "--redis-url", redis_url, "--start-url", start_url,
           "--name", name, "--record-warnings", f"{log}.warnings.json"]
    for key, value in (settings or {}).items():
        cmd += ["-s", f"{key}={value}"]
    out = open(log, "wb")  # noqa: SIM115 - closed by the OS when the process ends
    return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)


@contextmanager
def terminating(processes: list[subprocess.Popen]):
    """Kill whatever worker is still running when the test ends, pass or fail."""
    try:
        yield processes
    finally:
        for proc in processes:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
