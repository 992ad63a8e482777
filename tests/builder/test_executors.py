"""Executors give the same results, in task order, and hand every finished result to on_done
before a failure is raised."""

import sys
import threading

import pytest

from indicifeval.builder.executors import (
    EXECUTORS,
    ExecutorError,
    ProcessExecutor,
    RayExecutor,
    create_executor,
)
from indicifeval.core.errors import IndicIFEvalError, InputError
from tests.builder.executor_tasks import die_on_two, fail_last, slow_square

TASKS = list(range(20))
EXPECTED = [{"x": x, "square": x * x} for x in TASKS]


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray", reason="needs Ray: pip install 'indicifeval[ray]', as .ci/run does")
    ray.init(num_cpus=2, object_store_memory=200 * 1024 * 1024, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    yield ray
    ray.shutdown()


@pytest.fixture(params=EXECUTORS)
def executor(request):
    if request.param == "ray":
        request.getfixturevalue("local_ray")
    with create_executor(request.param, workers=2) as ex:
        yield ex


def test_same_results_in_task_order(executor):
    seen = []
    results = executor.map(slow_square, TASKS, lambda i, r: seen.append((i, r)))
    assert results == EXPECTED
    assert sorted(i for i, _ in seen) == TASKS  # every index exactly once
    assert all(r == results[i] for i, r in seen)


def test_failure_names_the_task_after_delivering_the_finished(executor):
    seen = []
    with pytest.raises(ExecutorError, match=r"^task 8 of 8 failed: ValueError: bad shard 7$") as info:  # from 1
        executor.map(fail_last, range(8), lambda i, r: seen.append((i, r)))
    assert isinstance(info.value, IndicIFEvalError)
    assert sorted(seen) == [(i, i * 10) for i in range(7)]


def test_no_on_done_and_no_tasks(executor):
    assert executor.map(slow_square, []) == []
    assert executor.map(slow_square, [3]) == [{"x": 3, "square": 9}]


def test_a_killed_worker_is_an_executor_error():
    outcome = {}

    def run():
        try:
            ProcessExecutor(workers=2).map(die_on_two, range(4), lambda i, r: outcome.setdefault("done", []).append(i))
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the pool hung after a worker died"
    error = outcome.get("error")
    assert isinstance(error, ExecutorError), repr(error)
    assert "\n" not in str(error)
    assert str(error).startswith("a worker process died abruptly (killed, or out of memory?); ")
    assert "3" in str(error).split("did not finish: ")[1].split(", ")  # the task that killed it (counted from 1)
    assert 2 not in outcome.get("done", [])


def test_one_worker_runs_in_process():
    assert ProcessExecutor(workers=1).map(slow_square, [1, 2]) == [{"x": 1, "square": 1}, {"x": 2, "square": 4}]
    with pytest.raises(InputError, match="at least 1"):
        ProcessExecutor(workers=0)


def test_missing_ray_is_an_input_error_with_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(InputError, match=r"^the ray executor needs Ray: pip install 'indicifeval\[ray\]'$"):
        create_executor("ray")


def test_ray_left_running_when_it_was_started_by_someone_else(local_ray):
    with create_executor("ray") as ex:
        assert isinstance(ex, RayExecutor) and ex.name == "ray"
        assert ex.shares_files  # one node, this machine: its workers write their parts themselves
    assert local_ray.is_initialized()


def test_local_workers_share_this_file_system():
    assert create_executor("serial").shares_files and create_executor("processes", workers=2).shares_files


def test_unknown_executor():
    with pytest.raises(InputError, match="unknown executor 'dask': choose one of serial, processes, ray"):
        create_executor("dask")
    with pytest.raises(InputError, match="Ray address"):
        create_executor("processes", ray_address="ray://head:10001")
