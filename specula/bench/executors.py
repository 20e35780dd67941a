"""Where the units of a campaign run: the local pool (default) or a Ray cluster (``specula[ray]``).

A campaign is a list of :class:`Job` — one (task, run) each, a module-level function and its
arguments, so it can be shipped to another process. An executor runs them and yields each
:class:`Done` as it completes; the caller (the driver) is the only writer of the results store.
A job that raises is that job's failure (``Done.error``), never the campaign's.

The Ray executor submits every job as a Ray task (retried by Ray when its worker dies: the retry
resumes the run directory the dead worker left). API keys reach the workers through Ray's runtime
environment (``env_vars``), never through a job's arguments, its results or a run directory.
"""

from __future__ import annotations

import os
import re
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol, Sequence

from specula.errors import ConfigError

__all__ = ["Job", "Done", "Progress", "Executor", "LocalExecutor", "RayExecutor", "make_executor",
           "worker_env", "EXECUTORS"]

EXECUTORS = ("local", "ray")
# what a worker needs from the driver's environment: provider keys and endpoints
_WORKER_ENV = re.compile(r".*(_API_KEY|_API_TOKEN|_AUTH_TOKEN|_BASE_URL|_API_BASE|_API_VERSION)$|^SPECULA_.*")


@dataclass(frozen=True)
class Job:
    """One unit of a campaign: ``fn(*args)`` (``fn`` a module-level function)."""

    key: tuple[Any, ...]  # (entry, task, run)
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Done:
    job: Job
    result: Any = None
    error: str | None = None
    seconds: float = 0.0


@dataclass
class Progress:
    """Counts of a campaign, sent to ``on_progress`` after every change."""

    queued: int = 0
    running: int = 0
    done: int = 0
    failed: int = 0
    cost_usd: float = 0.0
    executor: str = "local"

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Executor(Protocol):
    name: str

    def run(self, jobs: Sequence[Job], progress: Progress,
            on_progress: Callable[[Progress], None] | None = None) -> Iterator[Done]: ...


def run_job(job: Job) -> tuple[Any, str | None, float]:
    """Run one job: (result, error text or None, seconds). On Ray this is the task's name."""
    t0 = time.monotonic()
    try:
        return job.fn(*job.args), None, time.monotonic() - t0
    except Exception as exc:  # one job's failure is that job's result
        return None, f"{type(exc).__name__}: {exc}", time.monotonic() - t0


def _cost(result: Any) -> float:
    return float(getattr(result, "cost_usd", None) or 0.0)


@dataclass
class LocalExecutor:
    """Jobs in this process, ``jobs`` at a time (a pool of threads: a run mostly waits on the
    model; per-run events reach the caller's live view)."""

    jobs: int = 1
    name: str = "local"

    def run(self, jobs: Sequence[Job], progress: Progress,
            on_progress: Callable[[Progress], None] | None = None) -> Iterator[Done]:
        tell = on_progress or (lambda p: None)
        progress.queued = len(jobs)
        if self.jobs <= 1:
            for job in jobs:
                progress.queued -= 1
                progress.running = 1
                tell(progress)
                result, error, secs = run_job(job)
                progress.running = 0
                progress.failed += error is not None
                progress.done += error is None
                progress.cost_usd += _cost(result)
                tell(progress)
                yield Done(job, result, error, secs)
            return
        active: set[threading.Thread] = set()  # threads running a job right now
        lock = threading.Lock()

        def tracked(job: Job) -> tuple[Any, str | None, float]:
            me = threading.current_thread()
            with lock:
                active.add(me)
            try:
                return run_job(job)
            finally:
                with lock:
                    active.discard(me)

        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            try:
                yield from self._pool(pool, jobs, progress, tell, tracked)
            except BaseException:  # Ctrl-C (or the caller stopped): the running jobs stop too, at once
                pool.shutdown(wait=False, cancel_futures=True)
                from specula.deep import interrupt_thread

                with lock:
                    running = list(active)
                for t in running:
                    interrupt_thread(t)
                raise

    def _pool(self, pool: ThreadPoolExecutor, jobs: Sequence[Job], progress: Progress,
              tell: Callable[[Progress], None], tracked: Callable[[Job], Any]) -> Iterator[Done]:
        pending: dict[Future, Job] = {}
        queue = list(jobs)
        while queue or pending:
            while queue and len(pending) < self.jobs:
                job = queue.pop(0)
                pending[pool.submit(tracked, job)] = job
            progress.queued, progress.running = len(queue), len(pending)
            tell(progress)
            finished: set[Future] = set()
            while not finished:  # in slices: a Ctrl-C reaches this thread only between bytecodes
                finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in finished:
                job = pending.pop(f)
                result, error, secs = f.result()
                progress.failed += error is not None
                progress.done += error is None
                progress.cost_usd += _cost(result)
                progress.running = len(pending)
                tell(progress)
                yield Done(job, result, error, secs)


def worker_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment variables a worker needs (provider keys and base URLs, SPECULA_*)."""
    env = dict(os.environ) if environ is None else environ
    return {k: v for k, v in env.items() if _WORKER_ENV.match(k) and v}


@dataclass
class RayExecutor:
    """Jobs as Ray tasks on a cluster: ``address`` is ``auto`` (a cluster started with ``ray
    start`` on this machine), ``ray://HOST:PORT`` (Ray Client, e.g. a KubeRay head), or None (a
    private local cluster). ``max_retries``: how often Ray reruns a job whose worker died."""

    address: str | None = "auto"
    max_retries: int = 3
    num_cpus: float = 1.0
    init_options: dict[str, Any] = field(default_factory=dict)
    name: str = "ray"

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError:
            raise ConfigError("the Ray executor needs the extra: pip install 'specula[ray]'",
                              field="--executor") from None
        if not ray.is_initialized():
            env = {"env_vars": worker_env()}
            try:
                ray.init(address=self.address, runtime_env=env, log_to_driver=False,
                         **self.init_options)
            except ConnectionError as exc:
                raise ConfigError(f"cannot reach the Ray cluster at {self.address}: {exc}",
                                  field="--address") from None
        return ray

    def run(self, jobs: Sequence[Job], progress: Progress,
            on_progress: Callable[[Progress], None] | None = None) -> Iterator[Done]:
        ray = self._ray()
        tell = on_progress or (lambda p: None)
        remote = ray.remote(run_job).options(max_retries=self.max_retries, num_cpus=self.num_cpus)
        refs = {remote.remote(job): job for job in jobs}
        slots = max(1, int(ray.cluster_resources().get("CPU", 1) // max(self.num_cpus, 0.01)))
        pending = list(refs)
        while pending:
            progress.running = min(len(pending), slots)
            progress.queued = len(pending) - progress.running
            tell(progress)
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                job = refs[ref]
                try:
                    result, error, secs = ray.get(ref)
                except Exception as exc:  # the task failed for good (retries used up, cluster gone)
                    result, error, secs = None, f"{type(exc).__name__}: {exc}", 0.0
                progress.failed += error is not None
                progress.done += error is None
                progress.cost_usd += _cost(result)
                yield Done(job, result, error, secs)
        progress.running = progress.queued = 0
        tell(progress)


def make_executor(kind: str = "local", *, jobs: int = 1, address: str | None = None) -> Executor:
    """``local`` (``jobs`` at a time) or ``ray`` (``address``: auto, ray://HOST:PORT, or None for
    a private local cluster)."""
    if kind == "local":
        if address:
            raise ConfigError("--address needs --executor ray", field="--address")
        return LocalExecutor(jobs=jobs)
    if kind == "ray":
        return RayExecutor(address=address or "auto")
    raise ConfigError(f"unknown executor {kind!r}; use one of {', '.join(EXECUTORS)}", field="--executor")
