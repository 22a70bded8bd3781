# Shared part of the PyTorch twins of mlp.amps and cnn.amps: the f32 and bf16-autocast training
# steps and the timing loop, printing the same JSON lines as the amps scripts.
import time, torch
from torch import nn


def run(bench, model, x, y, steps, warmup):
    torch.set_num_threads(2)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    # PyTorch 1.13 has no CPU GradScaler; the disabled CUDA one is the usual stand-in there.
    scaler = torch.amp.GradScaler("cpu") if hasattr(torch.amp, "GradScaler") else torch.cuda.amp.GradScaler(enabled=False)

    def step_f32():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

    def step_bf16():
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    for mode, step in [("f32", step_f32), ("bf16_autocast", step_bf16)]:
        for _ in range(warmup): step()
        t0 = time.perf_counter()
        for _ in range(steps): step()
        s = (time.perf_counter() - t0) / steps
        print(f'{{"bench": "{bench}", "case": "{mode}", "s_per_step": {s:.6f}}}')
