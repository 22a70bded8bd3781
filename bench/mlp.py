# PyTorch twin of mlp.amps.
import sys, torch
from torch import nn
from twin import run
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
run("mlp", model, torch.randn(256, 784), torch.randint(0, 10, (256,)), int(sys.argv[1]) if len(sys.argv) > 1 else 20, 3)
