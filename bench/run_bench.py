#!/usr/bin/python3
"""Runs every benchmark for amps and for its PyTorch twin in one run, interleaved (A B A B ...),
takes medians of the repeats and prints amps/PyTorch ratios against the targets; writes
bench/results.json. Run through `make bench` (it installs python3-torch and OpenBLAS first)."""
import argparse, datetime, json, os, platform, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = {  # ratio name -> (target, how it is computed)
    "dispatch": (0.2, "amps us/op / PyTorch us/op, worst case"),
    "mlp_bf16": (0.6, "amps / PyTorch seconds per MLP step under bf16 autocast"),
    "cnn_bf16": (0.5, "amps / PyTorch seconds per CNN step under bf16 autocast"),
    "mlp_bf16_vs_f32": (0.4, "amps bf16 step / amps f32 step (MLP)"),
    "mm_vs_onednn": (1.1, "amps mm time / raw oneDNN primitive time, worst N >= 512"),
}


def env():
    e = dict(os.environ, OMP_NUM_THREADS="2")
    e.pop("OPENBLAS_CORETYPE", None)  # let OpenBLAS pick its best (AVX-512) kernels
    return e


def run_lines(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env(), cwd=os.path.dirname(HERE))
    if out.returncode != 0:
        sys.exit(f"benchmark failed: {' '.join(cmd)}\n{out.stdout}\n{out.stderr}")
    return [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]


def collect(samples, lines, side, key):
    for l in lines:
        samples.setdefault((l["bench"], l["case"], side), []).append(l[key])


def interleaved(amps, name, key, repeats, arg):
    samples = {}
    for _ in range(repeats):
        collect(samples, run_lines([amps, f"bench/{name}.amps", arg]), "amps", key)
        collect(samples, run_lines([sys.executable, f"bench/{name}.py", arg]), "torch", key)
    return {k: statistics.median(v) for k, v in samples.items()}


def mm_pairs(amps, raw, repeats):
    samples = {}
    for _ in range(repeats):
        collect(samples, run_lines([amps, "bench/mm.amps"]), "amps", "gflops")  # sampled like dnnl_mm_raw
        for l in run_lines([raw]):
            if l.get("gflops"):
                samples.setdefault(("mm", f"{'f32' if l['dtype'] == 'f32' else 'bf16'}_{l['n']}", "onednn"), []).append(l["gflops"])
    return {k: statistics.median(v) for k, v in samples.items()}


def machine():
    flags = open("/proc/cpuinfo").read()
    model = next((l.split(":", 1)[1].strip() for l in flags.splitlines() if l.startswith("model name")), "?")
    import torch
    return {"cpu": model, "cores": os.cpu_count(), "avx512": " avx512f " in flags, "amx_bf16": " amx_bf16 " in flags,
            "torch": torch.__version__, "python": platform.python_version(),
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def ratios(m):
    r = {}
    disp = [m[("dispatch", c, "amps")] / m[("dispatch", c, "torch")] for (b, c, s) in m if b == "dispatch" and s == "amps"]
    if disp: r["dispatch"] = max(disp)
    for b in ("mlp", "cnn"):
        if (b, "bf16_autocast", "amps") in m:
            r[f"{b}_bf16"] = m[(b, "bf16_autocast", "amps")] / m[(b, "bf16_autocast", "torch")]
    if ("mlp", "f32", "amps") in m:
        r["mlp_bf16_vs_f32"] = m[("mlp", "bf16_autocast", "amps")] / m[("mlp", "f32", "amps")]
    mm = [m[("mm", c, "onednn")] / m[("mm", c, "amps")] for (b, c, s) in m if b == "mm" and s == "onednn" and ("mm", c, "amps") in m]
    if mm: r["mm_vs_onednn"] = max(mm)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    amps = os.path.join(a.build, "amps")
    raw = os.path.join(a.build, "bench", "dnnl_mm_raw")
    m = {}
    m.update(interleaved(amps, "dispatch", "us_per_op", a.repeats, "20000"))
    m.update(interleaved(amps, "mlp", "s_per_step", a.repeats, "10"))
    m.update(interleaved(amps, "cnn", "s_per_step", a.repeats, "5"))
    m.update(mm_pairs(amps, raw, a.repeats))
    r = ratios(m)
    print(f"{'ratio':<18} {'measured':>9} {'target':>7}  status")
    for name, (target, what) in TARGETS.items():
        v = r.get(name)
        status = "n/a" if v is None else ("met" if v <= target else "MISSED")
        print(f"{name:<18} {('%.3f' % v) if v is not None else '-':>9} {target:>7}  {status}  ({what})")
    print("\nraw medians:")
    for (b, c, s), v in sorted(m.items()):
        print(f"  {b:<9} {c:<20} {s:<7} {v:.6g}")
    out = {"machine": machine(), "ratios": r, "targets": {k: v[0] for k, v in TARGETS.items()},
           "medians": [{"bench": b, "case": c, "side": s, "value": v} for (b, c, s), v in sorted(m.items())]}
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(out, f, indent=2)
    print(f"\nwrote {os.path.join(HERE, 'results.json')}")


if __name__ == "__main__":
    main()
