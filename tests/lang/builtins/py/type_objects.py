# Twin of ../type_objects.amps: Python 3.11 with PyTorch 1.13 prints the expected lines.
import sys
import torch
from torch import zeros, float32, device, Generator, no_grad, iinfo, int32
def g(v):
    return v
def show(v):
    T = type(v)
    print(T, T.__name__, T.__qualname__, T.__module__)
for v in [None, True, 1, 1.0, "a", [], (), {}, range(3), slice(1, 2)]:
    show(v)
for v in [g, print, [].append, int, type, sys]:
    show(v)
for v in [zeros(2), float32, device("cpu"), Generator(), iinfo(int32), no_grad()]:
    show(v)
for v in [(x for x in [1]), iter([]), iter(range(3)), map(g, []), filter(g, []), enumerate([]), zip()]:
    show(v)
for v in [staticmethod(g), classmethod(g), property(g)]:
    show(v)
print(type(object()), type(set()), type(object()).__name__, type(set()).__qualname__, type(object) is type, type(set) is type)
print(int, str(float), f"{bool}", repr(type(None)), [list, dict], (tuple,))
print(type(int), type(type), type(type(5)), type(zeros(1)).__name__)
print(torch.dtype, isinstance(float32, torch.dtype), type(torch.int64) is torch.dtype, torch.device,
      isinstance(torch.device("cpu"), torch.device), torch.Tensor)
