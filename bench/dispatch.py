# PyTorch twin of dispatch.amps: the same loop, the same cases, the same JSON lines.
import sys, time, torch
torch.set_num_threads(2)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
def bench(name, a, b):
    c = a + b
    for _ in range(200): c = a + b
    t0 = time.perf_counter()
    for _ in range(n): c = a + b
    us = (time.perf_counter() - t0) / n * 1e6
    print(f'{{"bench": "dispatch", "case": "{name}", "us_per_op": {us:.4f}}}')
bench("add_1", torch.ones(1), torch.ones(1))
bench("add_64x64", torch.ones(64, 64), torch.ones(64, 64))
bench("add_1_autograd", torch.ones(1, requires_grad=True), torch.ones(1))
bench("add_64x64_autograd", torch.ones(64, 64, requires_grad=True), torch.ones(64, 64))
