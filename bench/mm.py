# PyTorch twin of mm.amps: torch.mm GFLOP/s with the same sizes, dtypes and sampling (on cuda this is cuBLAS's
# own speed: PyTorch calls cuBLAS, without TF32 for float32 by default, as amps). Same arguments, same JSON lines.
import sys, time, torch

most = int(sys.argv[1]) if len(sys.argv) > 1 else 50
only_dt = sys.argv[2] if len(sys.argv) > 3 else ""
only_n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
torch.set_num_threads(2)
dev = "cuda" if torch.cuda.is_available() else "cpu"
dtypes = [torch.float32, torch.float16, torch.bfloat16] if dev == "cuda" else [torch.float32, torch.bfloat16]
sizes = [1024, 4096, 8192] if dev == "cuda" else [512, 1024, 2048]
calls = 10 if dev == "cuda" else 1
names = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}
for dt in dtypes:
    for n in sizes:
        name = names[dt]
        if (only_dt and only_dt != name) or (only_n and only_n != n):
            continue
        a, b = torch.randn(n, n).to(dt).to(dev), torch.randn(n, n).to(dt).to(dev)
        c = torch.mm(a, b)
        times, start = [], time.perf_counter()
        while len(times) < 5 or (len(times) < most and time.perf_counter() - start < 1.0):
            t0 = time.perf_counter()
            for _ in range(calls): c = torch.mm(a, b)
            if dev == "cuda": torch.cuda.synchronize()
            times.append((time.perf_counter() - t0) / calls)
        med = sorted(times)[len(times) // 2]
        print(f'{{"bench": "mm", "case": "{name}_{n}", "device": "{dev}", "gflops": {2.0 * n ** 3 / med / 1e9:.2f}}}')
