pairs = [("a", 1), ("b", 0), ("c", 3)]
print({k: v for (k, v) in pairs if v})
print({k: v * 2 for (k, v) in pairs})
words = ["apple", "bob", "avocado"]
print({w[0]: w for w in words})
k = "outer"
print({k: 1 for k in "xy"}, k)
xs = [1, 4, 7, 10]
s = {x % 3 for x in xs}
print(type(s).__name__, len(s), 1 in s, 2 in s)
print(sorted({x % 4 for x in xs}))
print(sorted({1, 2, 2, 3}), len({"a", "a"}))
print({i: {j: i * j for j in range(2)} for i in range(2)})
try:
    {[1]: 2 for x in [1]}
except TypeError as e:
    print("TypeError", e)
order = []
def key(x):
    order.append("k")
    return x
def val(x):
    order.append("v")
    return x
{key(1): val(2) for _ in [0]}
print(order)
