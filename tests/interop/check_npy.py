#!/usr/bin/env python3
"""Interop check: NumPy's .npy / .npz files and numpy.loadtxt against amps' data readers and writers.

Run by hand with a built amps (numpy needed):
    python3 tests/interop/check_npy.py [path/to/amps]
NumPy writes arrays of every dtype amps reads (little- and big-endian, C and Fortran order, 0-d, empty,
odd shapes; .npz stored and compressed); amps loads each and saves it again with save_npy / save_npz;
NumPy loads amps' files and compares them bit for bit (and C-order little-endian .npy files byte for byte
with np.save's). Random CSV tables go through data.loadtxt and np.loadtxt(dtype=float32). Exits 0 on
success, 1 on a mismatch, 0 with "SKIP" when numpy or amps is missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: needs numpy ({e})")
    sys.exit(0)

AMPS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../build/amps")
if not os.path.exists(AMPS):
    print(f"SKIP: no amps binary at {AMPS}")
    sys.exit(0)

rng = np.random.default_rng(0)
DTYPES = ["<f8", "<f4", "<f2", "<i8", "<i4", "|b1", ">f8", ">f4", ">f2", ">i8", ">i4", "|u1", "|i1", "<i2", ">i2"]
SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4), (1, 1, 7), (4, 1, 2, 3)]


def sample(dt, shape):
    if dt.endswith("b1"):
        return rng.random(shape) > 0.5
    if "f" in dt:
        return (rng.standard_normal(shape) * 100).astype(dt)
    return rng.integers(-2**31, 2**31 - 1, size=shape).astype(dt)


def main():
    d = tempfile.mkdtemp(prefix="amps_npy_")
    cases, lines = [], ["import data"]
    for i, dt in enumerate(DTYPES):
        for j, shape in enumerate(SHAPES):
            for order in "CF":
                a = sample(dt, shape)
                a = np.asfortranarray(a) if order == "F" else np.ascontiguousarray(a)
                src, out = f"{d}/in_{i}_{j}_{order}.npy", f"{d}/out_{i}_{j}_{order}.npy"
                np.save(src, a)
                cases.append((a, src, out))
                lines.append(f'data.save_npy("{out}", data.load_npy("{src}"))')
    arrays = {f"a{i}": sample(dt, SHAPES[i % len(SHAPES)]) for i, dt in enumerate(DTYPES)}
    np.savez(f"{d}/s.npz", **arrays)
    np.savez_compressed(f"{d}/c.npz", *arrays.values())
    for name in ["s", "c"]:
        lines.append(f'let {name} = data.load_npz("{d}/{name}.npz")')
        lines.append(f'data.save_npz("{d}/{name}_out.npz", **{name})')
    table = rng.standard_normal((37, 5)) * 10.0 ** rng.integers(-5, 5, size=(37, 5))
    np.savetxt(f"{d}/t.csv", table, delimiter=",", fmt="%.17g", header="a,b,c,d,e")
    lines.append(f'data.save_npy("{d}/t_out.npy", data.loadtxt("{d}/t.csv", delimiter=","))')
    script = f"{d}/run.amps"
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([AMPS, script], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        return 1
    bad = 0
    for a, src, out in cases:
        b = np.load(out)
        native = a.astype(a.dtype.newbyteorder("=")) if a.dtype.byteorder == ">" else a
        if b.dtype != native.dtype or b.shape != a.shape or native.tobytes(order="C") != b.tobytes(order="C"):
            print(f"MISMATCH {src}: {a.dtype} {a.shape} -> {b.dtype} {b.shape}")
            bad += 1
        if a.dtype.byteorder != ">" and a.flags.c_contiguous and open(src, "rb").read() != open(out, "rb").read():
            print(f"BYTES DIFFER from np.save: {src}")
            bad += 1
    for name, keys in [("s", list(arrays)), ("c", [f"arr_{i}" for i in range(len(arrays))])]:
        z = np.load(f"{d}/{name}_out.npz")
        if list(z.keys()) != keys:
            print(f"KEYS {name}: {list(z.keys())}")
            bad += 1
        for k, a in zip(keys, arrays.values()):
            if z[k].tobytes() != a.astype(a.dtype.newbyteorder("=")).tobytes():
                print(f"MISMATCH {name}.npz[{k}]")
                bad += 1
    t = np.load(f"{d}/t_out.npy")
    if t.tobytes() != np.loadtxt(f"{d}/t.csv", delimiter=",", dtype=np.float32).tobytes():
        print("MISMATCH loadtxt")
        bad += 1
    shutil.rmtree(d)
    print(f"{len(cases)} .npy cases, 2 .npz archives, 1 table: {'OK' if not bad else f'{bad} mismatches'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
