# Twin of ../type_identity_idioms.amps: Python 3.11 with PyTorch 1.13 prints the expected lines (p() prints True,
# False and None as amps' true, false and none).
from torch import zeros, float32, int64, device, Tensor
def p(*a):
    print(*["none" if v is None else str(v).lower() if isinstance(v, bool) else v for v in a])
S = set
p(S, type(S) is type, isinstance({1}, S), type({1}) is set, isinstance([1], S))
class A: pass
class B(A): pass
x = 5
p(type(x) == int, type(x) is int, type(True) is int, type(True) in (int, float), type(1.5) in (int, float))
p(type("a") == "str", type(x) != float, type([]) is list, type(None) is type(None), type(x) is not float)
d = {int: "i", str: "s", float: "f"}
p(d[type(3)], d[type("q")], type(2.5) in d, bool in d, hash(int) == hash(int))
s = {int, str, int}
p(len(s), int in s, bool in s)
p(type(5)("7"), type("a")(12), type([])((1, 2)), type(1.5)(3), type(None)(), type(True)(0))
p(isinstance(3, type(4)), isinstance(True, type(4)), isinstance(4, type(True)), isinstance("a", (type(1), type(""))))
p(issubclass(bool, int), issubclass(int, bool), issubclass(int, object), issubclass(B, A), issubclass(B, int), issubclass(bool, (str, int)))
p(isinstance(int, type), isinstance(A, type), isinstance(5, type), isinstance(int, object), isinstance(Tensor, type))
p((5).__class__, "a".__class__.__name__, None.__class__, B().__class__.__name__, zeros(1).__class__, int.__class__)
p(type(B()) is B, type(B) is type, type(A()) == A, type(B()) == A)
p(f"{type(B()).__name__}(n=1)", f"{type(zeros(1)).__name__}")
t = zeros(2)
p(type(t) is Tensor, type(t)([1, 2]), type(float32) is type(int64), type(device("cpu")) == device)
try:
    int("q")
except Exception as e:
    p(type(e), type(e).__name__, e.__class__ is ValueError, isinstance(e, type(e)), type(e) is KeyError)
def err(f):
    try:
        f()
    except TypeError as e:
        print("TypeError", e)
err(lambda: type(print)())
err(lambda: type(float32)())
err(lambda: type(None)(1))
err(lambda: issubclass(5, int))
