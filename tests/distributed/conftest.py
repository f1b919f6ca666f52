"""A real Dask cluster for the distributed tests: worker processes on this machine, per module."""

from __future__ import annotations

import pytest
from distributed import Client, LocalCluster


def start_cluster(n_workers: int = 2):
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, worker_dashboard_address=None,
                           silence_logs=40)
    return cluster, Client(cluster)


@pytest.fixture(scope="module")
def client():
    cluster, client = start_cluster()
    yield client
    client.close()
    cluster.close()
