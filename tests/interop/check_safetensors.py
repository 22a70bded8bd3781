#!/usr/bin/env python3
"""Interop check: an amps checkpoint loads with the real `safetensors` + torch, values match.

Run by hand on a machine that has safetensors, torch and a built amps (not run by CI here):
    python3 tests/interop/check_safetensors.py [path/to/amps]
It writes a checkpoint with amps (every dtype, a nested structure), reads it with
safetensors.torch.load_file, checks names, dtypes, shapes and values (computed independently in
Python from the same formulas), checks the header layout, then writes a file with safetensors and
reads it back with amps. Exits 0 on success, 1 on a mismatch, and 0 with "SKIP" when the Python
packages or the amps binary are missing.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(0)


try:
    import torch
    from safetensors import safe_open
    from safetensors.torch import load_file, save_file
except ImportError as e:  # pragma: no cover - depends on the machine
    skip(f"needs torch and safetensors ({e})")

AMPS = sys.argv[1] if len(sys.argv) > 1 else shutil.which("amps") or os.path.join(os.path.dirname(__file__), "../../build/amps")
if not os.path.exists(AMPS):
    skip(f"no amps binary at {AMPS}")

# Values are exact in every dtype (small integers and halves), so both sides compute them exactly.
SCRIPT = """
let s = {"model": {"fc.weight": arange(12).reshape(3, 4).float() / 2.0,
                   "fc.bias": tensor([0.5, -1.5, 2.0, 3.25]).bfloat16(),
                   "emb": tensor([[1, -2], [3, 4]]).half(),
                   "w64": tensor([1.0, 2.5]).double(),
                   "ids": arange(5), "ids32": tensor([7, -8], dtype=int32),
                   "mask": tensor([true, false, true])},
         "optimizer": {"step": 3, "betas": (0.9, 0.999)}}
save(s, PATH)
"""

EXPECTED = {
    "model.fc.weight": (torch.arange(12).reshape(3, 4).float() / 2.0),
    "model.fc.bias": torch.tensor([0.5, -1.5, 2.0, 3.25]).bfloat16(),
    "model.emb": torch.tensor([[1, -2], [3, 4]]).half(),
    "model.w64": torch.tensor([1.0, 2.5]).double(),
    "model.ids": torch.arange(5),
    "model.ids32": torch.tensor([7, -8], dtype=torch.int32),
    "model.mask": torch.tensor([True, False, True]),
}


def run_amps(code):
    r = subprocess.run([AMPS, "-e", code], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(1)
    return r.stdout


def check_amps_file(path):
    run_amps(SCRIPT.replace("PATH", json.dumps(path)))
    got = load_file(path)
    assert set(got) == set(EXPECTED), f"names differ: {sorted(got)} vs {sorted(EXPECTED)}"
    for name, want in EXPECTED.items():
        t = got[name]
        assert t.dtype == want.dtype and t.shape == want.shape, f"{name}: {t.dtype}{tuple(t.shape)} vs {want.dtype}{tuple(want.shape)}"
        assert torch.equal(t, want), f"{name}: values differ\n{t}\n{want}"
    with safe_open(path, framework="pt") as f:
        meta = f.metadata()
    assert meta["format"] == "pt" and len(meta["amps.crc32"]) == 8, meta
    structure = json.loads(meta["amps.structure"])
    assert structure["__dict__"][1][0] == "optimizer", structure
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    assert n % 8 == 0, "header is not padded to 8 bytes"
    assert header["model.fc.bias"]["dtype"] == "BF16" and header["model.mask"]["dtype"] == "BOOL", header


def check_torch_file(path):
    save_file({k.replace("model.", ""): v for k, v in EXPECTED.items()}, path, metadata={"origin": "torch"})
    out = run_amps(f"let s = load({json.dumps(path)})\n"
                   "print(s['fc.weight'].sum().item(), s['fc.bias'].dtype, s['mask'].tolist(), s['ids32'].tolist())\n"
                   f"print(load_metadata({json.dumps(path)})['origin'])")
    assert out.split("\n")[:2] == ["33.0 bfloat16 [true, false, true] [7, -8]", "torch"], out


def main():
    with tempfile.TemporaryDirectory() as d:
        check_amps_file(os.path.join(d, "amps.safetensors"))
        check_torch_file(os.path.join(d, "torch.safetensors"))
    print("OK: amps checkpoints interoperate with safetensors", torch.__version__)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
