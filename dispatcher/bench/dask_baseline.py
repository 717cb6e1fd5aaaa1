"""The peer baseline of the session benchmark (docs/task-farms.md, "Benchmark"): N trivial tasks
through Dask distributed on this machine, 2 worker processes of one thread each (as the session's
2 workers), measured as the session is: from the first submit to the last result, once both
workers have run a task. Prints `name: value` lines. Argument: the task count (default 100000)."""
import sys
import time

from dask.distributed import Client, LocalCluster


def identity(x):
    return x


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        t0 = time.perf_counter()
        client.wait_for_workers(2)
        client.gather(client.map(identity, range(2000), pure=False))  # warm-up, not measured
        started = time.perf_counter()
        results = client.gather(client.map(identity, range(n), pure=False))
        seconds = time.perf_counter() - started
        if len(results) != n or results[-1] != n - 1:
            raise SystemExit("dask returned %d results" % len(results))
    print("dask_version: %s" % __import__("distributed").__version__)
    print("dask_start_seconds: %.3f" % (started - t0))
    print("dask_seconds: %.3f" % seconds)
    print("dask_tasks_per_s: %.0f" % (n / seconds))
    print("dask_overhead_us_per_task: %.2f" % (seconds * 1e6 / n))


if __name__ == "__main__":
    main()
