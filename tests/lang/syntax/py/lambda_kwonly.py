add = lambda x, y=2: x + y
print(add(1), add(1, 5), add(y=10, x=1))
print((lambda: 42)())
print(sorted(["ccc", "a", "bb"], key=lambda s: len(s)))
print(list(map(lambda v: v * v, [1, 2, 3])))
n = 10
f = lambda x, n=n: x + n
n = 20
print(f(1))
g = lambda *a, **kw: (a, kw)
print(g(1, 2, z=3))
print((lambda x: x if x > 0 else -x)(-3))
print((lambda x: lambda y: x * y)(3)(4))
def h(a, *, k=1, j):
    return (a, k, j)
print(h(1, j=2), h(1, k=5, j=0))
for call in [lambda: h(1, 2, j=3), lambda: h(1), lambda: h(j=1, a=2, q=3)]:
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
def m(*, a, b, c=1):
    return a + b + c
try:
    m()
except TypeError as e:
    print("TypeError", e)
def r(x, *rest, key):
    return (x, rest, key)
print(r(1, 2, 3, key=4))
