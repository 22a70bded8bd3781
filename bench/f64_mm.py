# PyTorch twin of f64_mm.amps: the same float64 cases, inputs and sampling, OMP_NUM_THREADS threads (default 2);
# same JSON lines.
import os, sys, time, torch

samples = int(sys.argv[1]) if len(sys.argv) > 1 else 15
torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))  # as amps: OMP_NUM_THREADS, else 2
f64 = torch.float64
def w(n, k, phase): return (torch.arange(n * k, dtype=f64) * 0.37 + phase).sin().reshape(n, k)
a97, b97, a256, b256, a512 = w(97, 51, 0.1), w(51, 204, 0.2), w(256, 256, 0.3), w(256, 256, 0.4), w(512, 512, 0.5)
ba, bb = w(64 * 32, 32, 0.6).reshape(64, 32, 32), w(64 * 32, 32, 0.7).reshape(64, 32, 32)
m1k, v1k = w(1024, 1024, 0.8), w(1, 1024, 0.9)[0]
x, lw, lb = w(128, 512, 1.0), w(256, 512, 1.1), w(1, 256, 1.2)[0]
cases = [
    ("mm_97x51x204", lambda: torch.mm(a97, b97)),
    ("mm_256", lambda: torch.mm(a256, b256)),
    ("mm_256_at", lambda: torch.mm(a256.t(), b256)),
    ("mm_512", lambda: torch.mm(a512, a512)),
    ("bmm_64x32", lambda: torch.bmm(ba, bb)),
    ("mv_1024", lambda: torch.mv(m1k, v1k)),
    ("dot_1024", lambda: torch.dot(v1k, v1k)),
    ("linear_128x512x256", lambda: torch.nn.functional.linear(x, lw, lb)),
]
for name, f in cases:
    f()
    t0 = time.perf_counter(); f(); one = max(time.perf_counter() - t0, 1e-7)
    calls = max(1, int(0.005 / one))
    times = []
    for _ in range(samples):
        t1 = time.perf_counter()
        for _ in range(calls): f()
        times.append((time.perf_counter() - t1) / calls)
    print(f'{{"bench": "f64_mm", "case": "{name}", "us": {sorted(times)[len(times) // 2] * 1e6:.1f}}}')
