"""``contentex redis-items``: the items of a distributed crawl as a JSON-lines file.

    contentex redis-items --url redis://host:6379/0 --spider NAME -o items.jsonl

Reads the Redis list ``NAME:items`` (or ``--key``) in batches and writes
each entry as one line. With ``--delete``, the entries written are then
removed from the list (items pushed meanwhile stay), so repeated exports
never write an item twice. Needs only the redis client, not Scrapy.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

BATCH = 1000
DESCRIPTION = ("Write the items of a distributed crawl (the Redis list NAME:items) to a "
               "JSON-lines file.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", required=True, help="Redis URL, as REDIS_URL of the workers")
    parser.add_argument("--spider", default=None, help="spider name: reads the list NAME:items")
    parser.add_argument("--key", default=None, help="list key (default NAME:items)")
    parser.add_argument("-o", "--output", default="-", help="JSON-lines file (default: stdout)")
    parser.add_argument("--delete", action="store_true",
                        help="remove the exported entries from the list afterwards")


def write_items(server: Any, key: str, out: TextIO, delete: bool = False) -> int:
    """Write the entries present now as lines; return how many."""
    total = server.llen(key)
    for start in range(0, total, BATCH):
        for raw in server.lrange(key, start, min(start + BATCH, total) - 1):
            out.write(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
            out.write("\n")
    out.flush()
    if delete and total:
        server.ltrim(key, total, -1)
    return total


def run(args: argparse.Namespace, stdout: TextIO | None = None,
        stderr: TextIO | None = None) -> int:
    """The ``redis-items`` subcommand; exit status 0 on success."""
    import redis

    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if not (args.key or args.spider):
        print("contentex redis-items: give --spider NAME (or --key)", file=stderr)
        return 2
    key = args.key or f"{args.spider}:items"
    try:
        server = redis.Redis.from_url(args.url, socket_connect_timeout=10)
        if args.output == "-":
            count = write_items(server, key, stdout, args.delete)
        else:
            with open(args.output, "w", encoding="utf-8") as out:
                count = write_items(server, key, out, args.delete)
    except redis.RedisError as exc:
        print(f"contentex redis-items: cannot read {key} at {args.url}: {exc}", file=stderr)
        return 1
    except OSError as exc:
        print(f"contentex redis-items: {args.output}: {exc.strerror or exc}", file=stderr)
        return 1
    print(f"contentex redis-items: {count} items from {key}"
          + (f" written to {args.output}" if args.output != "-" else ""), file=stderr)
    return 0
