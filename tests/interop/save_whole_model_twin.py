"""PyTorch 1.13 twin of tests/lang/stdlib/io_save_whole_model.amps, io_save_shared_objects.amps and io_save_refused.amps:
the observable behaviour of torch.save(obj, f) / torch.load(f) on whole models, shared tensors and objects, optimizers,
and what pickle refuses. Run: /usr/bin/python3 tests/interop/save_whole_model_twin.py (amps prints true/none where
Python prints True/None; values and structure match)."""
import os
import tempfile

import torch
from torch import nn, optim
from torch.nn import functional as F

D = tempfile.mkdtemp()
PATH = os.path.join(D, "m.pt")


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        print("Net.init", hidden)
        self.fc1 = nn.Linear(4, hidden)
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(hidden, 2)
        self.scale = 0.5
        self.name = "net"
        self.sizes = (4, hidden, 2)
        self.extra = {"dtype": torch.float16, "device": torch.device("cpu"), "nothing": None, "ids": [1, 2]}

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


def whole_model():
    torch.manual_seed(0)
    model = Net(8)
    torch.save(model, PATH)
    back = torch.load(PATH)
    print(type(back).__name__, isinstance(back, Net), isinstance(back, nn.Module), back is model)
    print(back)
    print(back.scale, back.name, back.sizes, back.extra, back.training)
    x = (torch.arange(12, dtype=torch.float32) * 0.7).sin().reshape(3, 4)
    print(torch.equal(back(x), model(x)), [n for n, p in back.named_parameters()])
    print([p.requires_grad and p.is_leaf for p in back.parameters()], back.fc1.weight.dtype)
    sd = back.state_dict()
    print(list(sd) == list(model.state_dict()), all(torch.equal(sd[k], v) for k, v in model.state_dict().items()))
    opt = optim.SGD(back.parameters(), lr=0.1)
    back(x).pow(2).sum().backward()
    print(list(back.fc1.weight.grad.shape), back.fc2.bias.grad is not None)
    before = back.fc2.weight.detach().clone()
    opt.step()
    print(torch.equal(before, back.fc2.weight), torch.equal(model.fc2.weight, before))
    back.eval()
    print(back.training, back.fc1.training)
    torch.save(back.to(torch.float64), PATH)
    again = torch.load(PATH)
    print(again.fc1.weight.dtype, again.training, torch.equal(again(x.double()), back(x.double())))
    return model, x


class Point:
    def __init__(self, x, y):
        print("Point.init")
        self.x, self.y = x, y

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


def plain_objects(model, x):
    pt = Point(3, 4)
    pt.me = pt
    torch.save({"point": pt, "model": model, "epoch": 3}, PATH)
    ck = torch.load(PATH)
    print(type(ck["point"]).__name__, ck["point"].norm(), ck["point"].me is ck["point"], ck["epoch"])
    print(torch.equal(ck["model"](x), model(x)))
    seq = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
    torch.save(seq, PATH)
    seq2 = torch.load(PATH)
    print(type(seq2).__name__, torch.equal(seq2(x), seq(x)))


class TiedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(10, 6)
        self.decoder = nn.Linear(6, 10)
        self.decoder.weight = self.encoder.weight
        self.blocks = [self.decoder, self.decoder]

    def forward(self, ids):
        return self.decoder(self.encoder(ids))


def shared():
    torch.manual_seed(0)
    lm = TiedLM()
    torch.save(lm, PATH)
    back = torch.load(PATH)
    print(back.decoder.weight is back.encoder.weight, back.blocks[0] is back.decoder, back.blocks[1] is back.blocks[0])
    print(len(list(back.parameters())), [n for n, p in back.named_parameters()])
    ids = torch.tensor([[1, 2, 3], [4, 5, 6]])
    print(torch.equal(back(ids), lm(ids)))
    opt = optim.Adam(back.parameters(), lr=0.01)
    back(ids).logsumexp(-1).sum().backward()
    opt.step()
    print(back.decoder.weight is back.encoder.weight, torch.equal(back.encoder.weight, lm.encoder.weight))
    model = nn.Linear(3, 2)
    sgd = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.ones(4, 3)).sum().backward()
    sgd.step()
    torch.save({"model": model, "optimizer": sgd}, PATH)
    ck = torch.load(PATH)
    m2, o2 = ck["model"], ck["optimizer"]
    print(type(o2).__name__, o2.param_groups[0]["params"][0] is m2.weight, o2.param_groups[0]["params"][1] is m2.bias)
    print(o2.param_groups[0]["lr"], o2.param_groups[0]["momentum"])
    for m, o in [(model, sgd), (m2, o2)]:
        o.zero_grad()
        m(torch.ones(4, 3)).sum().backward()
        o.step()
    print(torch.equal(m2.weight, model.weight), torch.equal(m2.bias, model.bias))
    t = torch.arange(3.0)
    torch.save({"a": t, "b": t, "c": t.clone()}, PATH)
    d = torch.load(PATH)
    print(d["a"] is d["b"], d["a"] is d["c"], torch.equal(d["a"], d["c"]))


def refused():
    global Net
    torch.save(Net(1), PATH)
    saved, Net = Net, None
    del globals()["Net"]
    try:
        torch.load(PATH)
    except AttributeError as e:
        print(type(e).__name__, str(e).split(" from ")[0] + ">")
    Net = saved

    def make_local():
        class Local:
            def __init__(self):
                self.v = 1
        return Local()
    for obj in (make_local(), lambda x: x):
        try:
            torch.save(obj, PATH)
        except Exception as e:
            print(type(e).__name__, str(e).split(" at 0x")[0])
    torch.save({"cls": nn.Linear, "f": twice, "op": torch.lstm_cell, "p": print}, PATH)
    refs = torch.load(PATH)
    print(refs["cls"] is nn.Linear, refs["f"] is twice, refs["op"] is torch.lstm_cell, refs["p"] is print, refs["f"](4))
    del globals()["twice"]
    try:
        torch.load(PATH)
    except AttributeError as e:
        print(type(e).__name__, str(e).split(" from ")[0] + ">")
    act = Act()
    torch.save({"relu": F.relu, "model": act}, PATH)
    back = torch.load(PATH)
    xa = torch.tensor([[-1.0, 2.0]])
    print(back["relu"](xa), torch.equal(back["model"](xa), act(xa)), torch.equal(back["model"].cb(xa), act(xa)))


class Act(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = F.relu
        self.l = nn.Linear(2, 2)
        self.cb = self.forward

    def forward(self, x):
        return self.act(self.l(x))


def twice(x):
    return x * 2


if __name__ == "__main__":
    m, inp = whole_model()
    plain_objects(m, inp)
    shared()
    refused()
