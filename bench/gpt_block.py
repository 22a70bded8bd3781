# PyTorch twin of gpt_block.amps: the same model, optimizer and steps (float32, and autocast: float16
# on cuda when a GPU is there, else bfloat16 on the cpu); same arguments, same JSON lines.
import json, math, sys, time, torch
from torch import nn

a = [int(v) for v in sys.argv[1:]]
steps, B, T, D, H, L, V = (a + [5, 8, 64, 256, 4, 2, 512][len(a):])[:7]
torch.manual_seed(0)
torch.set_num_threads(2)
dev = "cuda" if torch.cuda.is_available() else "cpu"
dtype = torch.float16 if dev == "cuda" else torch.bfloat16


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x, mask):
        b, t, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = torch.softmax(att.masked_fill(mask, -math.inf), dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.attn, self.ln2 = nn.LayerNorm(d), Attention(d, heads), nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, seq, d, heads, layers):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab)

    def forward(self, idx, mask):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.ln(x))


model = GPT(V, T, D, H, L).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
# PyTorch 1.13 has no CPU GradScaler; the disabled CUDA one is the usual stand-in there.
scaler = torch.cuda.amp.GradScaler(enabled=dev == "cuda")
idx, targets = torch.randint(0, V, (B, T), device=dev), torch.randint(0, V, (B, T), device=dev)
mask = torch.ones(T, T, dtype=torch.bool, device=dev).triu(1)


def step(lowp):
    opt.zero_grad(set_to_none=True)
    with torch.autocast(dev, dtype=dtype, enabled=lowp):
        loss = nn.functional.cross_entropy(model(idx, mask).view(B * T, V), targets.view(B * T))
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return loss


for name, lowp in [("f32", False), ("f16_autocast" if dev == "cuda" else "bf16_autocast", True)]:
    for _ in range(2):
        step(lowp)
    if dev == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        loss = step(lowp)
    last = loss.item()  # a host read: the timed steps have finished
    s = (time.perf_counter() - t0) / steps
    print(json.dumps({"bench": "gpt_block", "case": name, "device": dev, "s_per_step": round(s, 6), "loss": round(last, 4)}))
