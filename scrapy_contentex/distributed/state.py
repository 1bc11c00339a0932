"""The shared crawl state in Redis: leased queue, seeding, items exactly once.

Everything that several workers must agree on is one atomic Redis step here
(a Lua script or a MULTI block), so no interleaving of workers, and no worker
dying between two commands, can lose or duplicate work. No Scrapy import:
the scheduler and the worker extension are thin glue over this class.

Keys, for a spider named ``NAME`` (the first three are scrapy-redis's):

- ``NAME:requests``        sorted set, the shared queue (score = -priority)
- ``NAME:dupefilter``      set of request fingerprints already scheduled
- ``NAME:items``           list of items as JSON (``REDIS_ITEMS_KEY``)
- ``NAME:requests:leases`` sorted set, lease token -> deadline (Redis clock, ms)
- ``NAME:requests:leased`` hash, lease token -> the serialized request
- ``NAME:requests:lease-ids`` counter that makes lease tokens unique
- ``NAME:items:keys``      set of item keys (request fingerprints) already pushed
- ``NAME:crawl``           present while a crawl runs: the worker that seeded it
- ``NAME:stats``           hash of crawl-wide counts (every worker's stats summed)

A lease token is ``<id>:<score>``: the request's queue score travels in the
token, so a lease that returns to the queue keeps its priority.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# Deadlines use the Redis server clock (TIME) so workers on machines with
# skewed clocks agree on when a lease has expired.
_NOW_MS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# KEYS: queue, leases, leased, lease-ids; ARGV: lease ms.
_POP = _NOW_MS + """
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #head == 0 then return false end
redis.call('ZREM', KEYS[1], head[1])
local token = redis.call('INCR', KEYS[4]) .. ':' .. head[2]
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), token)
redis.call('HSET', KEYS[3], token, head[1])
return {token, head[1]}
"""

# KEYS: dupefilter, queue; ARGV: (mode, fingerprint, score, data) x n. Mode
# "filter": queue only if the fingerprint is new; "mark": record it and
# queue anyway (start requests); "always": queue (dont_filter). Returns how
# many were queued.
_ENQUEUE = """
local queued = 0
for i = 1, #ARGV, 4 do
  local mode = ARGV[i]
  local new = true
  if mode ~= 'always' then new = redis.call('SADD', KEYS[1], ARGV[i + 1]) == 1 end
  if new or mode ~= 'filter' then
    redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i + 3])
    queued = queued + 1
  end
end
return queued
"""

# KEYS: leases; ARGV: lease ms, tokens... Only leases still held are renewed
# (XX): one that already expired and went back to the queue stays there.
_RENEW = _NOW_MS + """
local deadline = now + tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[i])
end
return #ARGV - 1
"""

# KEYS: queue, leases, leased; ARGV: tokens to return, or none for "every
# expired lease". Returns how many requests went back to the queue.
_RETURN = _NOW_MS + """
local tokens = ARGV
if #tokens == 0 then
  tokens = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
end
local returned = 0
for _, token in ipairs(tokens) do
  local data = redis.call('HGET', KEYS[3], token)
  if data then
    redis.call('ZADD', KEYS[1], tonumber(string.match(token, ':(.*)$')), data)
    redis.call('HDEL', KEYS[3], token)
    returned = returned + 1
  end
  redis.call('ZREM', KEYS[2], token)
end
return returned
"""

# KEYS: item keys, items; ARGV: item key, item JSON. 1 if pushed, 0 if the
# item of that page was already there.
_PUSH_ITEM = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  return 1
end
return 0
"""

# KEYS: queue, leases, then the keys to delete. Deletes them only if the
# crawl is really over: nothing queued and no lease held by anyone.
_FINISH = """
if redis.call('ZCARD', KEYS[1]) > 0 or redis.call('ZCARD', KEYS[2]) > 0 then
  return 0
end
for i = 3, #KEYS do redis.call('DEL', KEYS[i]) end
return 1
"""


@dataclass(frozen=True)
class Keys:
    """Redis key names of one spider's crawl."""

    queue: str
    dupefilter: str
    items: str
    stats: str
    crawl: str

    @property
    def leases(self) -> str:
        return f"{self.queue}:leases"

    @property
    def leased(self) -> str:
        return f"{self.queue}:leased"

    @property
    def lease_ids(self) -> str:
        return f"{self.queue}:lease-ids"

    @property
    def item_keys(self) -> str:
        return f"{self.items}:keys"

    def crawl_state(self) -> list[str]:
        """Keys that make up a crawl in progress (the items list is not one)."""
        return [self.queue, self.leases, self.leased, self.lease_ids, self.dupefilter,
                self.item_keys, self.crawl]


class CrawlState:
    """Atomic operations on one spider's shared crawl.

    ``server`` is a redis-py client with bytes responses (scrapy-redis's
    default); request data stays the serializer's bytes.
    """

    def __init__(self, server: Any, keys: Keys, lease_seconds: float) -> None:
        self.server = server
        self.keys = keys
        self.lease_ms = max(1, int(lease_seconds * 1000))
        self._enqueue = server.register_script(_ENQUEUE)
        self._pop = server.register_script(_POP)
        self._renew = server.register_script(_RENEW)
        self._return = server.register_script(_RETURN)
        self._push_item = server.register_script(_PUSH_ITEM)
        self._finish = server.register_script(_FINISH)

    # -- the queue -------------------------------------------------------

    def push(self, data: bytes, priority: int) -> None:
        """Queue one serialized request (scrapy-redis's score: -priority)."""
        self.server.zadd(self.keys.queue, {data: -priority})

    def enqueue(self, entries: list[tuple[str, str, bytes, int]]) -> int:
        """Queue many requests in one round trip: (mode, fingerprint, data, priority).

        Modes: "filter" (skip a fingerprint already seen), "mark" (record the
        fingerprint, queue anyway), "always". Returns how many were queued.
        """
        args: list[Any] = []
        for mode, fingerprint, data, priority in entries:
            args += [mode, fingerprint, -priority, data]
        if not args:
            return 0
        return int(self._enqueue(keys=[self.keys.dupefilter, self.keys.queue], args=args))

    def pop(self) -> tuple[str, bytes] | None:
        """Take the first request under a lease: (token, data), or None if the queue is empty."""
        got = self._pop(keys=[self.keys.queue, self.keys.leases, self.keys.leased,
                              self.keys.lease_ids], args=[self.lease_ms])
        if not got:
            return None
        token, data = got
        return _text(token), data

    def ack(self, tokens: Iterable[str]) -> None:
        """The work of these leases is done: forget them."""
        tokens = list(tokens)
        if tokens:
            pipe = self.server.pipeline(transaction=True)
            pipe.zrem(self.keys.leases, *tokens)
            pipe.hdel(self.keys.leased, *tokens)
            pipe.execute()

    def renew(self, tokens: Iterable[str]) -> None:
        """Push back the deadline of leases this worker still holds."""
        tokens = list(tokens)
        if tokens:
            self._renew(keys=[self.keys.leases], args=[self.lease_ms, *tokens])

    def give_back(self, tokens: Iterable[str]) -> int:
        """Return these leased requests to the queue now (a worker stopping early)."""
        tokens = list(tokens)
        if not tokens:
            return 0
        return int(self._return(keys=self._return_keys(), args=tokens))

    def requeue_expired(self) -> int:
        """Return every expired lease (its worker died or hung) to the queue."""
        return int(self._return(keys=self._return_keys(), args=[]))

    def _return_keys(self) -> list[str]:
        return [self.keys.queue, self.keys.leases, self.keys.leased]

    def queued(self) -> int:
        return int(self.server.zcard(self.keys.queue))

    def outstanding(self) -> tuple[int, int]:
        """(requests queued, leases held) in one round trip."""
        pipe = self.server.pipeline(transaction=False)
        pipe.zcard(self.keys.queue)
        pipe.zcard(self.keys.leases)
        queued, leased = pipe.execute()
        return int(queued), int(leased)

    # -- crawl life ------------------------------------------------------

    def claim_seeding(self, worker: str) -> bool:
        """True for the one worker that queues the start requests of this crawl."""
        return bool(self.server.set(self.keys.crawl, worker, nx=True))

    def reset_stats(self) -> None:
        self.server.delete(self.keys.stats)

    def finish(self, keep_seen: bool) -> bool:
        """End the crawl if nothing is queued or leased; True if it was ended here.

        ``keep_seen`` (SCHEDULER_PERSIST) keeps the duplicate filter and the
        pushed item keys, so the next crawl only fetches what is new.
        """
        drop = [self.keys.leased, self.keys.lease_ids, self.keys.crawl]
        if not keep_seen:
            drop += [self.keys.dupefilter, self.keys.item_keys]
        return bool(self._finish(keys=[self.keys.queue, self.keys.leases, *drop]))

    def flush(self) -> None:
        """Forget the crawl in progress (SCHEDULER_FLUSH_ON_START); items stay."""
        self.server.delete(*self.keys.crawl_state())

    # -- items and stats -------------------------------------------------

    def push_item(self, key: str, data: str) -> bool:
        """Append an item unless one with this key was pushed before; True if appended."""
        return bool(self._push_item(keys=[self.keys.item_keys, self.keys.items],
                                    args=[key, data]))

    def add_stats(self, deltas: Mapping[str, int | float]) -> None:
        """Add this worker's stat increments to the crawl-wide counts."""
        if not deltas:
            return
        pipe = self.server.pipeline(transaction=False)
        for name, delta in deltas.items():
            if isinstance(delta, int):
                pipe.hincrby(self.keys.stats, name, delta)
            else:
                pipe.hincrbyfloat(self.keys.stats, name, delta)
        pipe.execute()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
