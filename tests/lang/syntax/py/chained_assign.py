class Box:
    pass
b = Box()
xs = [0, 0, 0]
a = c = 5
print(a, c)
h0 = c0 = [1, 2]
h0.append(3)
print(c0, h0 is c0)
b.x = xs[1] = a = 7
print(b.x, xs, a)
i = 0
i = xs[i] = 2
print(i, xs)
(p, q) = r = (1, 2)
print(p, q, r)
