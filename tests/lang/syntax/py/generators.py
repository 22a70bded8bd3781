xs = [1, 2, 3, 4]
print(sum(x * x for x in xs))
print(any(x > 3 for x in xs), all(x > 1 for x in xs))
total = sum(x for x in xs if x % 2 == 0)
print(total)
g = (x * 10 for x in xs)
print(type(g))
print(next(g), next(g))
print(list(g))
print(list(g))
print(max(len(w) for w in ["a", "abc", "ab"]))
print(tuple((i, i * i) for i in range(3)))
print(dict((k, len(k)) for k in ["ab", "c"]))
print(", ".join(str(v) for v in [1.5, 2]))
x = "outer"
print(list(x for x in "ab"), x)
calls = []
def src():
    calls.append("src")
    return [1, 2]
g2 = (v + 1 for v in src())
print(calls)
print(sorted((-v for v in [3, 1, 2])))
def lazy(n):
    calls.append(n)
    return n
g3 = (lazy(i) for i in range(3))
print(next(g3), calls)
print(sum((a * b for (a, b) in zip([1, 2], [3, 4]))))
def outer():
    k = 3
    return list(i * k for i in range(3))
print(outer())
try:
    next(x for x in [])
except StopIteration:
    print("StopIteration")
