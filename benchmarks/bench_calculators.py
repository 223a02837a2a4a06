"""Time one ``calculators.run`` call per calculator (goal: <= 1 ms on CPython).

Usage: python benchmarks/bench_calculators.py [calls]   (default 1000 calls each)
Standard library only; prints a small table and exits 0.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calculators import NAMES, run  # noqa: E402

# Representative inputs: the defaults plus a few heavier variants.
INPUTS = {
    "vram_fit": {"model": "llama-3.1-405b"},
    "training_memory": {"model": "llama-3.1-70b", "method": "full"},
    "scaling": {"model": "llama-3.1-70b", "parallelism": "tp", "gpus_per_node": 4, "nodes": 2},
    "decision": {"model": "llama-3.1-70b", "workload": "full_finetune"},
    "replicas": {"target_tokens_per_s": 3000},
    "throughput": {"model": "deepseek-v3", "precision": "int4"},
    "training_time": {"model": "llama-3.1-405b", "gpu": "h100-sxm", "gpus": 16384},
}


def bench(name: str, calls: int) -> tuple[float, float]:
    """(median, min) microseconds of one run() call."""
    inputs = INPUTS.get(name, {})
    assert run(name, inputs)["ok"]
    samples = []
    for _ in range(calls):
        start = time.perf_counter_ns()
        run(name, inputs)
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1e3, min(samples) / 1e3


def main(argv: list[str]) -> int:
    calls = int(argv[1]) if len(argv) > 1 else 1000
    print(f"Python {sys.version.split()[0]}, {calls} calls per calculator")
    print(f"{'calculator':<16} {'median us':>10} {'min us':>10}  goal <= 1000 us")
    for name in NAMES:
        median, best = bench(name, calls)
        flag = "ok" if median <= 1000 else "SLOW"
        print(f"{name:<16} {median:>10.1f} {best:>10.1f}  {flag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
