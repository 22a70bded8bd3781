# PyTorch twin of mlp.amps.
import sys, time, torch
from torch import nn
torch.set_num_threads(2)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(256, 784)
y = torch.randint(0, 10, (256,))
scaler = torch.cuda.amp.GradScaler(enabled=False) if not hasattr(torch, "amp") or not hasattr(torch.amp, "GradScaler") else torch.amp.GradScaler("cpu")
def step_f32():
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
def step_bf16():
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
for mode, step in [("f32", step_f32), ("bf16_autocast", step_bf16)]:
    for _ in range(3): step()
    t0 = time.perf_counter()
    for _ in range(steps): step()
    s = (time.perf_counter() - t0) / steps
    print(f'{{"bench": "mlp", "case": "{mode}", "s_per_step": {s:.6f}}}')
