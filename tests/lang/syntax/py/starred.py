xs = [1, 2, 3, 4]
(a, *rest) = xs
print(a, rest)
(first, *mid, last) = xs
print(first, mid, last)
[*init, z] = (5, 6)
print(init, z)
(p, *q) = "a"
print(p, q)
for (h, *t) in [[1, 2, 3], [4]]:
    print(h, t)
b = [9]
print([*xs, *b, 3], (*b, 1), [*range(2), *"ab"])
d1 = {"a": 1, "k": 0}
d2 = {"b": 2}
print({**d1, "k": 2, **d2})
print({**d1, "a": 5})
def f(*args, **kw):
    return (args, kw)
args = (1, 2)
kw = {"x": 3}
print(f(*args, **kw), f(0, *args, y=1, **kw))
try:
    (u, v, *w) = [1]
except ValueError as e:
    print("ValueError", e)
try:
    {**[1]}
except TypeError as e:
    print("TypeError", e)
m = [0, 0]
(m[0], *m[1]) = [7, 8, 9]
print(m)
