"""python -m tdls.bench: tdls.solve against numpy.linalg.solve (and
torch.linalg.solve when PyTorch is installed) on stacks of small systems,
one run, same operands, each answer checked against NumPy's.

    python -m tdls.bench                       # n = 2..64, float64 and float32, 1 and 2 threads
    python -m tdls.bench --orders 2,3,4 --types float64 --threads 1 --csv out.csv

Rates are systems per second, the best of --repeats timed calls, each call
solving a whole stack (about --megabytes of matrices, at least 1000
systems). numpy.linalg.solve runs one LAPACK gesv per system on one thread
(its own loop; no threads option), so the ratios at 2 threads compare tdls's
two threads to NumPy's one, which is what a NumPy user gets.
"""
import argparse
import os
import platform
import sys
import time

import numpy as np

import tdls

DEFAULT_ORDERS = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64]


def _best_time(function, repeats, minimum_seconds=0.05):
    best = float("inf")
    for _ in range(repeats):
        calls, start = 0, time.perf_counter()
        while True:
            function()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= minimum_seconds:
                break
        best = min(best, elapsed / calls)
    return best


def _machine():
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo") as info:
            text = info.read()
        flags = "AVX-512" if " avx512f" in text else ("AVX2" if " avx2" in text else "no AVX2")
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs, {flags}; Python {platform.python_version()}, " \
           f"NumPy {np.__version__}, tdls {tdls.__version__}"


def _torch():
    """PyTorch, when installed (a peer on one thread), else None."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def run(orders, types, thread_counts, repeats, megabytes, out=sys.stdout, csv=None):
    rng = np.random.default_rng(20261203)
    torch = _torch()
    header = ["type", "n", "systems", "numpy [sys/s]"]
    if torch is not None:
        header.append("torch [sys/s]")
    for t in thread_counts:
        header += [f"tdls {t}T [sys/s]", f"{t}T / numpy"]
    rows = []
    print(f"# tdls.bench: {_machine()}", file=out)
    print("| " + " | ".join(header) + " |", file=out)
    print("|" + "---|" * len(header), file=out)
    for dtype in types:
        for n in orders:
            batch = max(1000, int(megabytes * 2**20 / (n * n * np.dtype(dtype).itemsize)))
            a = rng.standard_normal((batch, n, n)).astype(dtype)
            b = rng.standard_normal((batch, n, 1)).astype(dtype)
            reference = np.linalg.solve(a, b)
            numpy_time = _best_time(lambda: np.linalg.solve(a, b), repeats)
            row = [np.dtype(dtype).name, n, batch, batch / numpy_time]
            if torch is not None:
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                row.append(batch / _best_time(lambda: torch.linalg.solve(ta, tb), repeats))
            for t in thread_counts:
                x = tdls.solve(a, b, threads=t)
                tolerance = 1e-3 if dtype == np.float32 else 1e-8
                scale = np.maximum(np.abs(reference), 1.0)
                bad = np.abs(x - reference) > tolerance * scale * n
                if np.mean(bad) > 1e-3:  # a few ill-conditioned draws may differ; a broken solve differs everywhere
                    raise SystemExit(f"tdls.bench: tdls.solve disagrees with numpy.linalg.solve at n = {n}, {dtype}")
                rate = batch / _best_time(lambda: tdls.solve(a, b, threads=t), repeats)
                row += [rate, rate / row[3]]
            rows.append(row)
            cells = [str(c) if isinstance(c, (int, str)) else (f"{c:.2f}" if c < 100 else f"{c:.3g}") for c in row]
            print("| " + " | ".join(cells) + " |", file=out, flush=True)
    if csv:
        with open(csv, "w") as f:
            f.write(",".join(header) + "\n")
            for row in rows:
                f.write(",".join(str(c) for c in row) + "\n")
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tdls.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", default=",".join(map(str, DEFAULT_ORDERS)), help="comma-separated n")
    parser.add_argument("--types", default="float64,float32", help="float64,float32")
    parser.add_argument("--threads", default="1,2", help="tdls thread counts, comma-separated")
    parser.add_argument("--repeats", type=int, default=5, help="timed repetitions (best kept)")
    parser.add_argument("--megabytes", type=float, default=16.0, help="matrix bytes per stack")
    parser.add_argument("--csv", help="also write the table as CSV")
    args = parser.parse_args(argv)
    try:
        orders = [int(v) for v in args.orders.split(",")]
        types = [np.dtype(v).type for v in args.types.split(",")]
        thread_counts = [int(v) for v in args.threads.split(",")]
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    if any(n < 1 or n > tdls.MAX_ORDER for n in orders) or any(t < 0 for t in thread_counts):
        parser.error(f"orders must be in 1..{tdls.MAX_ORDER} and threads >= 0")
    if any(t not in (np.float32, np.float64) for t in types):
        parser.error("types: float32, float64")
    run(orders, types, thread_counts, args.repeats, args.megabytes, csv=args.csv)


if __name__ == "__main__":
    main()
