# PyTorch twin of lstm.amps.
import sys, torch
from torch import nn
from twin import run
torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(64, 128, num_layers=2)
        self.head = nn.Linear(128, 10)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[-1])


run("lstm", Classifier(), torch.randn(50, 32, 64), torch.randint(0, 10, (32,)), int(sys.argv[1]) if len(sys.argv) > 1 else 10, 2)
