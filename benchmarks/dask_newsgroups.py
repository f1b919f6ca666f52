"""20 Newsgroups through the Dask path beside the in-memory path: the same matrix, the same clusters.

Three comparisons on the 18,846 posts, k = 20, NMF-NCW (the command line's
default on Dask), on a LocalCluster of worker processes:

1. the matrix: DaskVectorizer on 8 partitions against DocumentVectorizer;
2. the same start: the in-memory NNDSVDA start handed to both solvers (HALS,
   the default; and MU, the paper's), factors and labels compared;
3. each path on its own: NMFClustering against DaskNMFClustering with the same
   parameters and seed (the Dask path computing its start on the cluster).

    nice -n 19 python benchmarks/dask_newsgroups.py
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np


def _compare(name, got_U, got_V, ref_U, ref_V, extra=None) -> dict:
    labels_got, labels_ref = np.argmax(got_V, axis=1), np.argmax(ref_V, axis=1)
    out = {"what": name,
           "identical_labels": bool(np.array_equal(labels_got, labels_ref)),
           "labels_differing": int((labels_got != labels_ref).sum()),
           "max_rel_diff_U": float(np.abs(got_U - ref_U).max() / np.abs(ref_U).max()),
           "max_rel_diff_V": float(np.abs(got_V - ref_V).max() / np.abs(ref_V).max())}
    out.update(extra or {})
    print(json.dumps(out), file=sys.stderr)
    return out


def main() -> int:
    import dask.bag as db
    from distributed import Client, LocalCluster

    from docnmf.cluster.nmf import NMFClustering
    from docnmf.corpus import load_dataset
    from docnmf.distributed import (DaskNMFClustering, DaskVectorizer, RowPartitions,
                                    fit_nmf_hals_dask, fit_nmf_mu_dask)
    from docnmf.factor.hals import fit_nmf_hals_batched
    from docnmf.factor.init import make_starts
    from docnmf.factor.nmf import fit_nmf_mu_batched
    from docnmf.text.vectorize import DocumentVectorizer
    from docnmf.text.weighting import ncw_weights

    k, seed = 20, 0
    corpus = load_dataset("20newsgroups")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    results = []
    try:
        t0 = time.perf_counter()
        X = DocumentVectorizer().fit_transform(corpus.texts)
        t_mem = time.perf_counter() - t0
        t0 = time.perf_counter()
        vec = DaskVectorizer(client=client)
        Xd = vec.fit_transform(db.from_sequence(corpus.texts, npartitions=8))
        t_dask = time.perf_counter() - t0
        got = Xd.compute()
        results.append({"what": "matrix", "shape": list(X.shape), "nnz": int(X.nnz),
                        "same_nnz": got.nnz == X.nnz,
                        "max_abs_diff": float(abs(got - X).max()),
                        "vectorize_s_in_memory": t_mem, "vectorize_s_dask": t_dask})
        print(json.dumps(results[-1]), file=sys.stderr)

        # 2. the same start in both solvers (NCW: the in-memory start on D^-1/2 X)
        w = np.sqrt(ncw_weights(X))
        Xw = X.multiply(w[:, None]).tocsr()
        rng = np.random.default_rng(seed)
        [start] = make_starts(Xw, k, "nndsvda", [rng])
        parts = RowPartitions.from_array(Xd, client)
        o = parts.offsets
        V0 = client.scatter([start[1][None, a:b] for a, b in zip(o[:-1], o[1:])], hash=False)
        weights = client.scatter([w[a:b] for a, b in zip(o[:-1], o[1:])], hash=False)
        t0 = time.perf_counter()
        [ref] = fit_nmf_hals_batched(X, [start], row_weights=w, max_iter=500, tol=1e-5)
        t_ref = time.perf_counter() - t0
        t0 = time.perf_counter()
        [res] = fit_nmf_hals_dask(parts, [start[0]], V0, row_weights=weights, max_iter=500,
                                  tol=1e-5)
        t_res = time.perf_counter() - t0
        results.append(_compare("HALS, NCW, the same NNDSVDA start", res.U, res.V.compute(),
                                ref.U, ref.V, {"n_iter": [res.n_iter, ref.n_iter],
                                               "fit_s_dask": t_res, "fit_s_in_memory": t_ref}))
        partsw = RowPartitions.from_array(Xw, client)
        o = partsw.offsets
        V0 = client.scatter([start[1][None, a:b] for a, b in zip(o[:-1], o[1:])], hash=False)
        t0 = time.perf_counter()
        [ref] = fit_nmf_mu_batched(Xw, [start], max_iter=200, tol=1e-5)
        t_ref = time.perf_counter() - t0
        t0 = time.perf_counter()
        [res] = fit_nmf_mu_dask(partsw, [start[0]], V0, max_iter=200, tol=1e-5)
        t_res = time.perf_counter() - t0
        results.append(_compare("MU, NCW, the same NNDSVDA start", res.U, res.V.compute(),
                                ref.U, ref.V, {"n_iter": [res.n_iter, ref.n_iter],
                                               "fit_s_dask": t_res, "fit_s_in_memory": t_ref}))

        # 3. each path from its own start (the Dask one computes its NNDSVDA on the cluster)
        memory = NMFClustering(k, weighting="ncw", random_state=seed).fit(X)
        dist = DaskNMFClustering(k, weighting="ncw", random_state=seed, client=client).fit(Xd)
        results.append(_compare("NMFClustering vs DaskNMFClustering, NCW, default parameters",
                                dist.components_.T, dist.embedding_.compute(),
                                memory.components_.T, memory.embedding_,
                                {"n_iter": [dist.n_iter_, memory.n_iter_]}))
    finally:
        client.close()
        cluster.close()
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
