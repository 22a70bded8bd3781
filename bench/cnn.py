# PyTorch twin of cnn.amps.
import sys, time, torch
from torch import nn
torch.set_num_threads(2)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 10
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(128, 1, 28, 28)
y = torch.randint(0, 10, (128,))
scaler = torch.amp.GradScaler("cpu") if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler") else torch.cuda.amp.GradScaler(enabled=False)
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
    for _ in range(2): step()
    t0 = time.perf_counter()
    for _ in range(steps): step()
    s = (time.perf_counter() - t0) / steps
    print(f'{{"bench": "cnn", "case": "{mode}", "s_per_step": {s:.6f}}}')
