"""Executors: map a pure function over tasks (one per corpus shard) in this process, in a pool
of processes, or on a Ray cluster.

Why: the Ground pipeline's stages are pure functions of a shard whose partial results merge
associatively, so the only thing that differs between a laptop and a cluster is who makes the
calls. The stage code stays the same and so do the results: every executor hands each result
to ``on_done`` in the calling process as it arrives (to write its part file atomically and to
advance a progress bar) and returns the results in task order. A failing task becomes one
ExecutorError, raised after the results already finished were delivered, so nothing done is lost
and a resumed run redoes only the rest.

With ``processes`` and ``ray``, fn and the tasks are pickled: fn must be a top-level function of
an importable module (no lambda, closure or function defined in ``__main__`` of an interactive
session) and the tasks plain data. On a Ray cluster every node needs indicifeval and fn's module.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from indicifeval.core.errors import IndicIFEvalError, InputError, first_line

T = TypeVar("T")
R = TypeVar("R")
E = TypeVar("E", bound="_Base")

EXECUTORS = ("serial", "processes", "ray")
LOCAL_RAY_OBJECT_STORE = 200 * 1024 * 1024  # bytes; a local Ray would otherwise take 30% of memory


class ExecutorError(IndicIFEvalError):
    """A task failed or a worker died; the tasks that had finished were delivered first."""


class Executor(Protocol):
    name: str
    shares_files: bool  # whether the workers see this machine's files (then they write their own parts)

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[int, R], None] | None = None,
            keep: bool = True) -> list[R]:
        """Run fn on every task; call on_done(index, result) in the calling process as each task
        finishes (any order; used to write each part file atomically and to advance a progress
        bar); return the results in task order. An exception in a task is raised in the caller as
        ExecutorError(f"task {index + 1} of {n} failed: {type}: {message}") after the tasks already finished
        have been delivered to on_done (so nothing done is lost). With ``keep=False`` a result is
        only handed to on_done and not kept (the list holds None): memory stays flat however many
        tasks there are."""
        ...

    def shutdown(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: object) -> None: ...


def _failed(index: int, n: int, exc: BaseException) -> ExecutorError:
    """The one-line error for a failed task (exc is the task's own exception, unwrapped). Tasks
    are counted from 1, as the lines of the file the task's error names are: "task 1 of 8
    failed: InputError: corpus.jsonl, line 1" is the first task and the first line."""
    message, name = first_line(exc), type(exc).__name__
    return ExecutorError(f"task {index + 1} of {n} failed: {name}" + (f": {message}" if message != name else ""))


def _in_order(results: dict[int, R], n: int, failure: tuple[int, BaseException] | None) -> list[R]:
    if failure is None:
        return [results[i] for i in range(n)]
    index, exc = failure
    if isinstance(exc, BrokenProcessPool):  # which task killed its worker is not known
        lost = [i for i in range(n) if i not in results]
        shown = ", ".join(str(i + 1) for i in lost[:10]) + (", ..." if len(lost) > 10 else "")  # counted from 1
        raise ExecutorError(f"a worker process died abruptly (killed, or out of memory?); {len(lost)} of {n} tasks "
                            f"did not finish: {shown}") from exc
    raise _failed(index, n, exc) from exc


class _Base:
    name = ""
    shares_files = True

    def shutdown(self) -> None:
        """Release what the executor holds: nothing, except a Ray that this executor started."""

    def __enter__(self: E) -> E:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class SerialExecutor(_Base):
    """One task after another, in this process (tests, debugging, one small shard)."""

    name = "serial"

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[int, R], None] | None = None,
            keep: bool = True) -> list[R]:
        results: list[R] = []
        for i, task in enumerate(tasks):
            try:
                result = fn(task)
            except Exception as exc:
                raise _failed(i, len(tasks), exc) from exc
            if on_done is not None:
                on_done(i, result)
            results.append(result if keep else None)  # type: ignore[arg-type]
        return results


class ProcessExecutor(_Base):
    """A pool of `workers` spawned processes (default: one per CPU), new for every map; with one
    worker or one task it runs in this process. After a failure no new task starts; the ones
    running finish and are delivered."""

    name = "processes"

    def __init__(self, workers: int | None = None):
        if workers is not None and workers < 1:
            raise InputError(f"workers must be at least 1, not {workers}")
        self.workers = workers or os.cpu_count() or 1

    def __repr__(self) -> str:
        return f"ProcessExecutor(workers={self.workers})"

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[int, R], None] | None = None,
            keep: bool = True) -> list[R]:
        if self.workers == 1 or len(tasks) <= 1:
            return SerialExecutor().map(fn, tasks, on_done, keep)
        results: dict[int, R] = {}
        failure: tuple[int, BaseException] | None = None

        def deliver(future: Future[R], i: int) -> None:
            nonlocal failure
            if future.cancelled() or i in results:
                return
            exc = future.exception()
            if exc is not None:
                failure = failure or (i, exc)
                return
            result = future.result()
            results[i] = result if keep else None  # type: ignore[assignment]
            if on_done is not None:
                on_done(i, result)

        # A bounded window of tasks in flight: a finished task's result is handed on and dropped,
        # so memory does not grow with the number of tasks (a pool given every task at once keeps
        # every result its futures hold).
        workers = min(self.workers, len(tasks))
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        pending: dict[Future[R], int] = {}
        upcoming = iter(enumerate(tasks))
        try:
            for i, task in upcoming:
                pending[pool.submit(fn, task)] = i
                if len(pending) >= 2 * workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    deliver(future, pending.pop(future))
                if failure is not None:  # start nothing new; the running tasks finish and are kept
                    for future in pending:
                        future.cancel()
                    wait(pending)
                    for future, i in list(pending.items()):
                        deliver(future, i)
                    break
                for i, task in upcoming:
                    pending[pool.submit(fn, task)] = i
                    if len(pending) >= 2 * workers:
                        break
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return _in_order(results, len(tasks), failure)


class RayExecutor(_Base):
    """One Ray task per task, on the cluster at `address` (or RAY_ADDRESS), or on a local Ray
    with `num_cpus` CPUs and a capped object store. Connects (or starts Ray) when created and
    shuts Ray down only if it started it. After a failure the unfinished tasks are cancelled;
    the ones that still finish are delivered. Ray retries a task whose worker died (its default).
    ``shares_files`` when the cluster is this machine alone; on several nodes the workers cannot
    be assumed to see the driver's folders, so results travel back through the object store."""

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None):
        try:
            import ray
        except ImportError as exc:
            raise InputError("the ray executor needs Ray: pip install 'indicifeval[ray]'") from exc
        self._ray: Any = ray
        self.address = address
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = dict(address=address, ignore_reinit_error=True, include_dashboard=False,
                                           log_to_driver=False, logging_level=logging.ERROR)
            if address is None and not os.environ.get("RAY_ADDRESS"):
                options.update(num_cpus=num_cpus, object_store_memory=LOCAL_RAY_OBJECT_STORE)
            try:
                ray.init(**options)
            except Exception as exc:
                where = f"connect to Ray at {address}" if address else "start Ray"
                raise ExecutorError(f"cannot {where}: {first_line(exc)}") from exc
            self._started = True
        self.shares_files = _one_node_here(ray)

    def __repr__(self) -> str:
        return f"RayExecutor(address={self.address!r})"

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[int, R], None] | None = None,
            keep: bool = True) -> list[R]:
        ray = self._ray
        remote = ray.remote(fn)
        # a bounded window in flight, so finished results do not pile up in the object store
        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 2)))
        upcoming = iter(enumerate(tasks))
        index: dict[Any, int] = {}
        pending: list[Any] = []
        results: dict[int, R] = {}
        failure: tuple[int, BaseException] | None = None

        def refill() -> None:
            for i, task in upcoming:
                ref = remote.remote(task)
                index[ref] = i
                pending.append(ref)
                if len(pending) >= window:
                    return

        try:
            refill()
            while pending:
                ready, rest = ray.wait(pending, num_returns=1)
                pending[:] = rest
                for ref in ready:
                    try:
                        result = ray.get(ref)
                    except Exception as exc:  # RayTaskError wraps the task's own exception as .cause
                        if failure is None:
                            failure = (index[ref], getattr(exc, "cause", None) or exc)
                            for other in pending:
                                ray.cancel(other)
                        continue
                    results[index[ref]] = result if keep else None  # type: ignore[assignment]
                    if on_done is not None:
                        on_done(index[ref], result)
                    del result
                if failure is None:
                    refill()
        except BaseException:
            for other in pending:
                ray.cancel(other)
            raise
        return _in_order(results, len(tasks), failure)

    def shutdown(self) -> None:
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
        self._started = False


def _one_node_here(ray: Any) -> bool:
    """Whether the cluster is this machine alone (a local Ray, or one node at this address),
    so its workers can write into the build folder; a cluster of several nodes sends results
    back through its object store instead."""
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        return len(nodes) == 1 and nodes[0].get("NodeManagerAddress") == ray.util.get_node_ip_address()
    except Exception:  # an older or newer Ray without these: the safe way
        return False


def create_executor(name: str = "processes", workers: int | None = None, ray_address: str | None = None) -> Executor:
    """The executor called `name` (one of EXECUTORS); `workers` is the pool size for processes
    and the CPUs of a local Ray (a cluster has its own); `ray_address` is for ray only."""
    if name not in EXECUTORS:
        raise InputError(f"unknown executor {name!r}: choose one of {', '.join(EXECUTORS)}")
    if ray_address is not None and name != "ray":
        raise InputError(f"a Ray address is for the ray executor, not {name!r}")
    if name == "serial":
        return SerialExecutor()
    if name == "processes":
        return ProcessExecutor(workers)
    return RayExecutor(ray_address, workers)
