m = [[1, 2], [], [3, 4, 5]]
print([x for row in m for x in row])
print([x for row in m if row for x in row if x % 2])
print([(i, j) for i in range(3) for j in range(i)])
print({(i, j): i * j for i in range(2) for j in range(2)})
print(sorted({x for row in m for x in row if x > 2}))
print([x for x in range(10) if x % 2 if x > 4])
g = (x * y for x in [1, 2] for y in [10, 100])
print(next(g), list(g))
groups = [{"params": [1, 2]}, {"params": [3]}]
print(sum(p for g in groups for p in g["params"]))
