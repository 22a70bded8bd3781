# PyTorch twin of cnn.amps.
import sys, torch
from torch import nn
from twin import run
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
run("cnn", model, torch.randn(128, 1, 28, 28), torch.randint(0, 10, (128,)), int(sys.argv[1]) if len(sys.argv) > 1 else 10, 2)
