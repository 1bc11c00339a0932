"""A small pool of worker processes that run one function, with per-task timeouts.

Why not ``concurrent.futures.ProcessPoolExecutor``: it cannot stop one task
that runs too long, and one crashed worker breaks the whole executor (every
task in flight fails). Here each worker is a plain child process
(``python -c ...``: a fresh interpreter, never a fork of the crawl process,
whose reactor and threads must not be copied) driven by one thread of the
parent that sends it one task at a time over its stdin and reads the answer
from its stdout. A worker that dies fails only its own task
(:class:`WorkerCrashed`); one that runs past the timeout is killed and fails
its task (:class:`WorkerTimeout`); either way a fresh worker takes its place
for the next task.

Callers get :class:`concurrent.futures.Future` objects; the Scrapy glue wraps
them for asyncio or Twisted and bounds how many are in flight.

No Scrapy import: the workers import only ``scrapy_contentex.work``. A new
worker loads the models while it waits for its first tasks (``warm``: it
runs two made-up pages, a step at a time, and stops warming as soon as a
task arrives); jieba loads lazily, on the first Chinese page. Preloading jieba
would cost each worker about 0.75 s of CPU and 130 MB (measured: dictionary
plus part-of-speech tables) even on crawls where no page needs it, and save
nothing where one does (it loads once per worker either way).
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, BinaryIO

logger = logging.getLogger(__name__)

DEFAULT_FUNCTION = "scrapy_contentex.work:process_page"
# Test-only fault injection (read in the parent when the pool starts, passed to
# the workers explicitly): "crash" or "hang" on a task whose first argument
# contains FAULT_MARKER. Unset in normal use.
FAULT_ENV = "CONTENTEX_WORKER_TEST_FAULT"
FAULT_MARKER = b"contentex-test-fault"
# "0" turns the workers' warm-up off (for measuring what it brings; see
# benchmarks.crawl_speed). Unset in normal use: workers warm up.
WARM_ENV = "CONTENTEX_WORKER_WARM"
START_TIMEOUT = 120.0  # a worker that is not ready by then counts as crashed

_HEADER = struct.Struct("!Q")
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)


class WorkerError(Exception):
    """A task failed because of its worker, not because of the function."""

    reason = "worker_error"


class WorkerCrashed(WorkerError):
    reason = "worker_crash"


class WorkerTimeout(WorkerError):
    reason = "worker_timeout"


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """One worker per CPU, minus the one the crawl itself (the reactor) runs on.

    0 on a single CPU: there a worker only adds the copying, so the work
    stays in the crawl process.
    """
    return usable_cpus() - 1


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in KiB (0 where /proc is absent or it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# -- the worker side ---------------------------------------------------------

def _read_frame(stream: BinaryIO) -> bytes | None:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    return data if len(data) == size else None


def _write_frame(stream: BinaryIO, payload: bytes) -> None:
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


def _resolve(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _inject_fault(fault: str | None, args: tuple) -> None:
    if not fault or not args or not isinstance(args[0], (bytes, str)):
        return
    body = args[0] if isinstance(args[0], bytes) else args[0].encode("utf-8", "replace")
    if FAULT_MARKER not in body:
        return
    if fault == "crash":
        os._exit(70)
    if fault == "hang":
        time.sleep(3600)


# How long a worker waits for a task before it takes a warm-up step: the parent
# sends the first task only after reading "ready" (a pending task would
# otherwise find the worker in a step it began a moment before), and a crawl
# in full swing sends the next task well within this.
WARM_IDLE = 0.05


def _idle(fd: int, wait: float = WARM_IDLE) -> bool:
    """No task arrived on ``fd`` within ``wait`` seconds. The parent sends a task
    only after reading the previous answer, so nothing can sit unread in the
    stdin buffer: the pipe tells."""
    return not select.select([fd], [], [], wait)[0]


def _warm_up_steps(function: str) -> list[Callable[[], Any]]:
    """The default function's warm-up steps (``work.warm_up_steps``); none for another."""
    if function != DEFAULT_FUNCTION:
        return []
    from .work import warm_up_steps

    return warm_up_steps()


def worker_main(function: str = DEFAULT_FUNCTION, fault: str | None = None,
                warm: bool = False) -> None:
    """Loop of one worker process: frames of pickled args in, pickled results out.

    stdout carries the frames only, so anything a library prints goes to stderr.
    Ends when the parent closes stdin. With ``warm``, the worker loads its
    models on made-up pages when no task came for ``WARM_IDLE`` seconds (a
    step at a time, checking again before each): a crawl fetches its first content pages
    through index pages, and the worker would otherwise load them on the
    first article or product.
    """
    # Ctrl-C in the terminal reaches the whole process group: the crawl then
    # stops gracefully and still needs its workers; it ends them by closing stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    stdin = sys.stdin.buffer
    func = _resolve(function)
    _write_frame(out, pickle.dumps(("ready", os.getpid())))
    steps = _warm_up_steps(function) if warm else []
    while True:
        while steps and _idle(stdin.fileno()):
            try:
                steps.pop(0)()
            except Exception as exc:  # a warm-up failure costs only the warm-up
                print(f"contentex worker: warm-up step failed: {exc!r}", file=sys.stderr)
        if (frame := _read_frame(stdin)) is None:
            break
        args = pickle.loads(frame)
        _inject_fault(fault, args)
        try:
            answer = ("ok", func(*args))
        except Exception as exc:  # the function's own error: reported, worker lives on
            answer = ("error", f"{type(exc).__name__}: {exc}")
        _write_frame(out, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


# -- the parent side ---------------------------------------------------------

class _Worker:
    """One child process and the pipe ends the parent holds."""

    def __init__(self, function: str, fault: str | None, warm: bool = False) -> None:
        env = dict(os.environ)
        # Import the same scrapy_contentex as the parent, wherever it lives.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
        code = ("from scrapy_contentex.pool import worker_main; "
                f"worker_main({function!r}, {fault!r}, {warm!r})")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env=env, bufsize=0)
        self.fd = self.proc.stdout.fileno()
        self.tasks = 0

    def read(self, deadline: float | None) -> bytes | None:
        """One frame, or None on EOF; raises TimeoutError past the deadline."""
        header = self._read_exact(_HEADER.size, deadline)
        if header is None:
            return None
        return self._read_exact(_HEADER.unpack(header)[0], deadline)

    def _read_exact(self, size: int, deadline: float | None) -> bytes | None:
        chunks: list[bytes] = []
        while size:
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([self.fd], [], [], remaining)[0]:
                    raise TimeoutError
            chunk = os.read(self.fd, min(size, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def send(self, payload: bytes) -> None:
        self.proc.stdin.write(_HEADER.pack(len(payload)) + payload)
        self.proc.stdin.flush()

    def rss_kb(self) -> int:
        return rss_kb(self.proc.pid)

    def stop(self, kill: bool = False) -> int | None:
        """Close the pipes and end the process; returns its exit code."""
        if kill:
            self.proc.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


class WorkerPool:
    """``size`` worker processes running ``function(*args)`` for submitted tasks.

    ``submit`` never blocks; bound the tasks in flight in the caller (the
    middleware waits on a semaphore of ``max_in_flight``). ``timeout`` is per
    task, in seconds (None = no limit). ``max_tasks`` restarts a worker after
    that many tasks (0 = never), which caps memory that a long crawl could
    otherwise fragment. ``warm`` (default: on, unless the environment sets
    ``CONTENTEX_WORKER_WARM=0``) lets each new worker load the models while
    it has no task.
    """

    def __init__(self, size: int, timeout: float | None = None,
                 function: str = DEFAULT_FUNCTION, max_tasks: int = 0,
                 fault: str | None = None, warm: bool | None = None) -> None:
        if size < 1:
            raise ValueError(f"pool size must be >= 1, not {size}")
        self.size = size
        self.timeout = timeout
        self.function = function
        self.max_tasks = max_tasks
        self.fault = fault if fault is not None else os.environ.get(FAULT_ENV) or None
        self.warm = warm if warm is not None else os.environ.get(WARM_ENV) != "0"
        self.restarts = 0
        self.peak_rss_kb = 0
        self._tasks: queue.SimpleQueue[tuple[Future, tuple] | None] = queue.SimpleQueue()
        self._workers: list[_Worker | None] = [None] * size
        self._lock = threading.Lock()
        self._closed = False
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True,
                                          name=f"contentex-pool-{i}") for i in range(size)]
        for thread in self._threads:
            thread.start()

    def submit(self, *args: Any) -> Future:
        """Queue ``function(*args)``; the future holds its result or a WorkerError."""
        if self._closed:
            raise RuntimeError("pool is shut down")
        future: Future = Future()
        self._tasks.put((future, args))
        return future

    def rss_kb(self) -> int:
        """Current resident memory of all workers, KiB."""
        with self._lock:
            workers = [w for w in self._workers if w is not None]
        return sum(w.rss_kb() for w in workers)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the threads and the workers; tasks still queued are cancelled."""
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._tasks.put(None)
        if wait:
            for thread in self._threads:
                thread.join(timeout=(self.timeout or 30) + 10)
        while True:  # whatever no thread picked up
            try:
                entry = self._tasks.get_nowait()
            except queue.Empty:
                break
            if entry is not None:
                entry[0].cancel()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    # -- one thread per worker ---------------------------------------------

    def _start(self, slot: int) -> _Worker:
        worker = _Worker(self.function, self.fault, self.warm)
        frame = None
        try:
            frame = worker.read(time.monotonic() + START_TIMEOUT)
        except TimeoutError:
            pass
        if frame is None:
            code = worker.stop(kill=True)
            raise WorkerCrashed(f"worker did not start (exit code {code})")
        with self._lock:
            self._workers[slot] = worker
        return worker

    def _retire(self, slot: int, kill: bool) -> int | None:
        with self._lock:
            worker, self._workers[slot] = self._workers[slot], None
        if worker is None:
            return None
        self._note_rss(worker)
        return worker.stop(kill=kill)

    def _note_rss(self, worker: _Worker) -> None:
        self.peak_rss_kb = max(self.peak_rss_kb, worker.rss_kb())

    def _run(self, slot: int) -> None:
        try:
            self._start(slot)  # ready before the first task: start-up is not task time
        except (WorkerError, OSError) as exc:  # retried at the first task
            logger.warning("contentex: worker did not start: %s", exc)
        while (entry := self._tasks.get()) is not None:
            future, args = entry
            if not future.set_running_or_notify_cancel():
                continue
            try:
                self._one(slot, future, args)
            except Exception as exc:  # e.g. arguments that do not pickle: this task only
                if not future.done():
                    future.set_exception(exc)
        self._retire(slot, kill=False)

    def _one(self, slot: int, future: Future, args: tuple) -> None:
        """Run one task on this slot's worker; settle its future whatever happens."""
        try:
            worker = self._workers[slot] or self._start(slot)
            worker.send(pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL))
            deadline = time.monotonic() + self.timeout if self.timeout else None
            frame = worker.read(deadline)
        except TimeoutError:
            self._retire(slot, kill=True)
            self.restarts += 1
            future.set_exception(WorkerTimeout(f"worker ran past {self.timeout:g} s; killed"))
            return
        except WorkerError as exc:
            future.set_exception(exc)
            return
        except OSError:  # broken pipe: the worker died before reading the task
            frame = None
        if frame is None:
            code = self._retire(slot, kill=True)
            self.restarts += 1
            future.set_exception(WorkerCrashed(f"worker died (exit code {code})"))
            return
        status, value = pickle.loads(frame)
        worker.tasks += 1
        if worker.tasks % 100 == 0:
            self._note_rss(worker)
        if self.max_tasks and worker.tasks >= self.max_tasks:
            self._retire(slot, kill=False)
        if status == "ok":
            future.set_result(value)
        else:
            future.set_exception(RuntimeError(value))
