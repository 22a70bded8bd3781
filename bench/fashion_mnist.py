# PyTorch twin of the main job, examples/fashion_mnist_amp.amps: the same CNN, data, optimizer,
# schedule, batches and epochs; prints one JSON line per epoch (test accuracy, seconds since
# training started, after the evaluation) and a final line with the seconds to 91%.
#   python3 bench/fashion_mnist.py [--epochs N] [--steps N] [--test-limit N]
import argparse, gzip, json, time
import numpy as np, torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=3)
ap.add_argument("--steps", type=int, default=0)  # steps per epoch; 0 = the whole training set
ap.add_argument("--test-limit", type=int, default=0)
a = ap.parse_args()
torch.set_num_threads(2)
torch.manual_seed(0)

# PyTorch 1.13's CPU bf16 autocast runs reference loops (~20x slower than f32) unless the CPU
# has bf16 products, so the twin runs f32 there and says so.
flags = open("/proc/cpuinfo").read().split()
CASE = "bf16_autocast" if "avx512_bf16" in flags or "amx_bf16" in flags else "f32"


def idx(name):  # Debian's dataset-fashion-mnist IDX files
    with gzip.open(f"/usr/share/datasets/fashion-mnist/{name}.gz") as f:
        raw = f.read()
    ndim = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * ndim).reshape(dims)


def images(name):  # as amps' data.fashion_mnist: bytes / 255, standardised with 0.2860 / 0.3530
    x = torch.from_numpy(idx(name).astype(np.float32) / np.float32(255))
    return ((x - 0.2860) / 0.3530).unsqueeze(1)


xtr, ytr = images("train-images-idx3-ubyte"), torch.from_numpy(idx("train-labels-idx1-ubyte").astype(np.int64))
xte, yte = images("t10k-images-idx3-ubyte"), torch.from_numpy(idx("t10k-labels-idx1-ubyte").astype(np.int64))
if a.test_limit > 0: xte, yte = xte[:a.test_limit], yte[:a.test_limit]
train = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(xtr, ytr), batch_size=128, shuffle=True,
                                    generator=torch.Generator().manual_seed(0))
steps = len(train) if a.steps == 0 else min(a.steps, len(train))

model = nn.Sequential(
    nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps * a.epochs)
# PyTorch 1.13 has no CPU GradScaler; the disabled CUDA one is the usual stand-in there (see twin.py).
scaler = torch.amp.GradScaler("cpu") if hasattr(torch.amp, "GradScaler") else torch.cuda.amp.GradScaler(enabled=False)


def accuracy():  # f32, no autograd, batches of 1000: as common.accuracy in the amps example
    model.eval()
    with torch.no_grad():
        correct = sum((model(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item() for i in range(0, len(xte), 1000))
    model.train()
    return correct / len(xte)


start, to_91 = time.perf_counter(), None
for epoch in range(a.epochs):
    for step, (x, y) in enumerate(train):
        if step == steps: break
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=CASE != "f32"):
            loss = nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        sched.step()
    acc, s = accuracy(), time.perf_counter() - start
    if to_91 is None and acc >= 0.91: to_91 = s
    print(json.dumps({"bench": "main_job", "case": CASE, "epoch": epoch + 1, "accuracy": round(acc, 4), "seconds": round(s, 2)}), flush=True)
print(json.dumps({"bench": "main_job", "case": CASE, "seconds_to_91": None if to_91 is None else round(to_91, 2)}))
