"""What the plugin costs a crawl: pages/second of the demo crawl with and without the add-on.

    nice python benchmarks/crawl_speed.py [--copies 8] [--rounds 2]

The bundled demo sites (example_project/demo_sites) are served on 127.0.0.1
as ``--copies`` independent copies (links rewritten per copy), so one crawl
sees enough pages for the rate to mean something. Each round runs the same
CrawlSpider twice, in fresh processes, one after the other: once with
``ADDONS = {"scrapy_contentex.Addon": 500}`` and once without (no items).
Rates are responses / Scrapy's ``elapsed_time_seconds``, and responses per
CPU second of the crawl process (start-up included), which other load on a
shared machine disturbs much less; the ratios between the two crawls,
measured side by side, are the figures to read.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "example_project" / "demo_sites"
RUNNER_DIR = ROOT / "example_project"


class CopyHandler(BaseHTTPRequestHandler):
    """Serve demo_sites under /cK/...; absolute links in pages point into the same copy."""

    def do_GET(self) -> None:  # noqa: N802
        parts = self.path.split("/", 2)
        if len(parts) < 3 or not parts[1].startswith("c"):
            self.send_error(404)
            return
        prefix, rest = parts[1], parts[2].split("?", 1)[0]
        target = (DEMO / rest).resolve()
        if DEMO not in target.parents or not target.is_file():
            self.send_error(404)
            return
        body = target.read_bytes()
        ctype = {".html": "text/html", ".xml": "application/xml",
                 ".json": "application/json", ".css": "text/css"}.get(target.suffix,
                                                                      "application/octet-stream")
        if ctype == "text/html":  # ASCII-safe in UTF-8 and GBK alike
            body = body.replace(b'href="/', f'href="/{prefix}/'.encode())
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002
        pass


def child(mode: str, base_url: str, copies: int) -> None:
    """One crawl in this (fresh) process; prints a JSON line."""
    sys.path.insert(0, str(RUNNER_DIR))
    from run import crawl

    starts = [f"/c{k}{p}" for k in range(copies) for p in ("/news/index.html", "/shop/index.html")]
    with tempfile.TemporaryDirectory() as out:
        result = crawl(base_url, Path(out), addon=mode == "addon", loglevel="ERROR",
                       start_paths=starts)
    stats = result["stats"]
    print(json.dumps({"mode": mode, "responses": result["responses"],
                      "elapsed": stats.get("elapsed_time_seconds", result["elapsed"]),
                      "items": result["items"],
                      "extract_ms": stats.get("contentex/extract_time_ms", 0),
                      "classify_ms": stats.get("contentex/classify_time_ms", 0)}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=8, help="copies of the demo sites")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each configuration")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "BASE", "COPIES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0

    server = ThreadingHTTPServer(("127.0.0.1", 0), CopyHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    runs: dict[str, list[dict]] = {"plain": [], "addon": []}
    try:
        for _ in range(args.rounds):
            for mode in ("plain", "addon"):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run(
                    [sys.executable, __file__, "--child", mode, base, str(args.copies)],
                    capture_output=True, text=True, timeout=600, check=False)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode != 0:
                    print(done.stderr[-2000:], file=sys.stderr)
                    return 1
                run = json.loads(done.stdout.strip().splitlines()[-1])
                # CPU seconds of the crawl process (start-up included): robust to
                # other load on a shared machine, unlike wall-clock seconds.
                run["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                runs[mode].append(run)
    finally:
        server.shutdown()
        server.server_close()

    def rate(run: dict) -> float:
        return run["responses"] / run["elapsed"] if run["elapsed"] else 0.0

    print(f"demo crawl x{args.copies} copies, {args.rounds} rounds, CONCURRENT_REQUESTS=8")
    print(f"{'crawl':28} {'responses':>9} {'items':>6} {'seconds':>8} {'pages/s':>8} "
          f"{'CPU s':>6} {'pages/CPU s':>12} {'page type ms':>13} {'extract ms':>11}")
    best, cpu = {}, {}
    for mode, label in (("plain", "CrawlSpider, no add-on"), ("addon", "CrawlSpider + add-on")):
        for run in runs[mode]:
            print(f"{label:28} {run['responses']:>9} {run['items']:>6} {run['elapsed']:>8.2f} "
                  f"{rate(run):>8.1f} {run['cpu']:>6.2f} {run['responses'] / run['cpu']:>12.1f} "
                  f"{run['classify_ms']:>13.0f} {run['extract_ms']:>11.0f}")
        best[mode] = max(rate(r) for r in runs[mode])
        cpu[mode] = min(r["cpu"] for r in runs[mode])
    ratio = best["addon"] / best["plain"] if best["plain"] else 0.0
    print(f"best pages/s (wall clock): without {best['plain']:.1f}, with add-on "
          f"{best['addon']:.1f} -> {ratio:.2f}x")
    print(f"least CPU seconds per crawl: without {cpu['plain']:.2f}, with add-on "
          f"{cpu['addon']:.2f} -> the add-on costs {cpu['addon'] / cpu['plain']:.2f}x the CPU "
          f"({1000 * (cpu['addon'] - cpu['plain']) / runs['addon'][0]['responses']:.1f} ms "
          "per response)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
