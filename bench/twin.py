# Shared part of the PyTorch twins of mlp.amps and cnn.amps (as train_steps.amps is of those): the f32 and
# autocast training steps (bfloat16 on the cpu, float16 on cuda when a GPU is there) and the timing loop,
# printing the same JSON lines as the amps scripts.
import time, torch
from torch import nn


def run(bench, model, x, y, steps, warmup):
    torch.set_num_threads(int(__import__("os").environ.get("OMP_NUM_THREADS", "2")))
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    model, x, y = model.to(dev), x.to(dev), y.to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    if dev == "cuda":
        scaler = torch.amp.GradScaler("cuda")
    else:  # PyTorch 1.13 has no CPU GradScaler; the disabled CUDA one is the usual stand-in there.
        scaler = torch.amp.GradScaler("cpu") if hasattr(torch.amp, "GradScaler") else torch.cuda.amp.GradScaler(enabled=False)
    lowp_dtype = torch.float16 if dev == "cuda" else torch.bfloat16

    def step_f32():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

    def step_lowp():
        opt.zero_grad()
        with torch.autocast(dev, dtype=lowp_dtype):
            loss = nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    def sync():
        if dev == "cuda": torch.cuda.synchronize()

    lowp = "f16_autocast" if dev == "cuda" else "bf16_autocast"
    for mode, step in [("f32", step_f32), (lowp, step_lowp)]:
        for _ in range(warmup): step()
        sync()
        t0 = time.perf_counter()
        for _ in range(steps): step()
        sync()
        s = (time.perf_counter() - t0) / steps
        print(f'{{"bench": "{bench}", "case": "{mode}", "device": "{dev}", "s_per_step": {s:.6f}}}')
