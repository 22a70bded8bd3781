#!/usr/bin/python3
"""The GPU comparison of issue 8, run on the machine with the GPU (docs/cuda.md): amps and its PyTorch twins
on the same GPU in one run, alternating (A B A B ...), medians of the repeats. Prints seconds per training
step of the MLP and the GPT-style block (float32 and float16 autocast) with amps / PyTorch ratios (target
<= 1.0 under autocast), and mm TFLOP/s of amps and of cuBLAS (torch.mm) per dtype and size; writes JSON.
Without a GPU every script falls back to the cpu, so the driver itself can be checked anywhere.
  python3 bench/gpu_bench.py --amps ".gpu/run.sh amps" [--repeats 3] [--json FILE]"""
import argparse, json, shlex, statistics, sys

from run_bench import collect, run_lines

# name -> arguments of both sides; GPU-sized (gpt_block: steps batch seq width heads layers vocab).
CASES = {
    "mlp": ["50"],
    "gpt_block": ["20", "32", "256", "768", "12", "2", "8192"],
    "mm": ["50"],
    "cuda_ops": ["20"],
}
KEYS = {"mlp": "s_per_step", "gpt_block": "s_per_step", "mm": "gflops", "cuda_ops": "us"}


def measure(amps, names, repeats, small):
    samples = {}
    for _ in range(repeats):
        for name in names:
            args = ["2"] if small else CASES[name]
            collect(samples, run_lines(amps + [f"bench/{name}.amps"] + args), "amps", KEYS[name])
            collect(samples, run_lines([sys.executable, f"bench/{name}.py"] + args), "torch", KEYS[name])
    return {k: statistics.median(v) for k, v in samples.items()}


def report(m):
    """Rows of (bench, case, amps, torch, ratio): ratio is amps time / PyTorch time for every bench."""
    rows = []
    for (bench, case, side) in sorted(m):
        if side != "amps" or (bench, case, "torch") not in m:
            continue
        a, t = m[(bench, case, "amps")], m[(bench, case, "torch")]
        rows.append((bench, case, a, t, t / a if bench == "mm" else a / t))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--amps", default="build/amps", help="command that runs amps (e.g. '.gpu/run.sh amps')")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", help=f"comma-separated subset of {','.join(CASES)}")
    ap.add_argument("--small", action="store_true", help="tiny arguments (checking the driver without a GPU)")
    ap.add_argument("--json", help="write the medians and ratios here")
    a = ap.parse_args()
    names = a.only.split(",") if a.only else list(CASES)
    m = measure(shlex.split(a.amps), names, a.repeats, a.small)
    rows = report(m)
    print(f"{'bench':10} {'case':16} {'amps':>12} {'PyTorch':>12} {'amps/PyTorch time':>18}")
    for bench, case, am, t, r in rows:
        unit, scale = {"mm": ("TFLOP/s", 1e-3), "cuda_ops": ("us", 1.0)}.get(bench, ("s/step", 1.0))
        print(f"{bench:10} {case:16} {am * scale:9.4f} {unit:>2} {t * scale:9.4f} {unit:>2} {r:10.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"medians": {"/".join(k): v for k, v in m.items()},
                       "ratios": {f"{b}/{c}": r for b, c, _, _, r in rows}}, f, indent=1)


if __name__ == "__main__":
    main()
