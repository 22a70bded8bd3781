pairs = [("a", 1), ("b", 2)]
for k, v in pairs:
    print(k, v)
for i, (k, v) in enumerate(pairs):
    print(i, k, v)
d = {"x": 1, "y": 2}
print([k + str(v) for k, v in d.items()], {v: k for k, v in d.items()})
a, b = 1, 2
a, b = b, a
print(a, b)
t = 1, 2
one = (3,)
print(t, one)
first, *rest = [1, 2, 3]
print(first, rest)
def f():
    return 4, 5
x, y = f()
print(x, y)
for n, in [(7,), (8,)]:
    print(n)
try:
    p, q = [1, 2, 3]
except ValueError as e:
    print("ValueError", e)
