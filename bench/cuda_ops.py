"""Twin of bench/cuda_ops.amps in PyTorch: the GPT block's hot single ops at its sizes, microseconds per call
(20 calls then a synchronize, the median of 5 samples after a warm-up).
  python3 bench/cuda_ops.py [calls]"""
import json, sys, time
import torch
import torch.nn.functional as F

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20
dev = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)


def sync():
    if dev == "cuda":
        torch.cuda.synchronize()


def timeit(name, f):
    f()
    sync()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            f()
        sync()
        times.append((time.perf_counter() - t0) / calls)
    med = sorted(times)[2]
    print(json.dumps({"bench": "cuda_ops", "case": name, "device": dev, "us": round(med * 1e6, 2)}))


h = torch.randn(32, 256, 3072, device=dev).half()
h2 = torch.randn(32, 256, 3072, device=dev).half()
timeit("gelu_f16", lambda: F.gelu(h))
timeit("mul_scalar_f16", lambda: h * 0.125)
timeit("add_f16", lambda: h + h2)
timeit("to_f32", lambda: h.float())
att = torch.randn(32, 12, 256, 256, device=dev).half()
mask = torch.ones(256, 256, dtype=torch.bool, device=dev).triu(1)
timeit("masked_fill_f16", lambda: att.masked_fill(mask, -1e4))
timeit("softmax_f16", lambda: torch.softmax(att, dim=-1))
g = torch.randn(32, 256, 768, device=dev)
timeit("sum01_f32", lambda: g.sum(dim=(0, 1)))
timeit("sum01_f16", lambda: g.half().sum(dim=(0, 1)))
x = torch.randn(8192, 768, device=dev, requires_grad=True)
w = torch.ones(768, device=dev, requires_grad=True)
b = torch.zeros(768, device=dev, requires_grad=True)
timeit("layer_norm_fwd_f32", lambda: F.layer_norm(x, [768], w, b))
gy = torch.randn(8192, 768, device=dev)
timeit("layer_norm_fwd_bwd_f32", lambda: F.layer_norm(x, [768], w, b).backward(gy))
logits = torch.randn(8192, 8192, device=dev, requires_grad=True)
target = torch.randint(0, 8192, (8192,), device=dev)
timeit("cross_entropy_fwd_f32", lambda: F.cross_entropy(logits, target))
timeit("cross_entropy_fwd_bwd_f32", lambda: F.cross_entropy(logits, target).backward())
emb = torch.nn.Embedding(8192, 768).to(dev)
idx = torch.randint(0, 8192, (32, 256), device=dev)
ge = torch.randn(32, 256, 768, device=dev)
timeit("embedding_fwd_bwd_f32", lambda: emb(idx).backward(ge))
