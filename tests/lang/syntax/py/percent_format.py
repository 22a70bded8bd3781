import torch
n, l, name = 12, 0.123456, "resnet"
print("%d items, %.3f loss, %s" % (n, l, name))
print("%i|%5d|%-5d|%05d|%+d|% d|%.3d" % (7, 42, 42, 42, 42, 42, 5))
print("%f|%.2f|%10.3f|%-10.1f|%e|%.2E|%g|%G|%g" % (3.14159, 2.5, 1.0, 2.25, 12345.678, 0.000123, 1e-5, 1e20, 100000.0))
print("%s|%r|%10s|%-6s|%.2s|%x|%X|%#x|%o|%#o|%c|%c|%%" % ("a", "a", "right", "left", "trunc", 255, 255, 255, 8, 8, 65, "z"))
print("%(name)s has %(n)d layers" % {"name": "mlp", "n": 3})
print("%s" % [1, 2], "%s" % (None,), "%d" % True, "%d" % 3.9, "%d" % -3.9, "%s %s" % (True, 1.5))
print("%*d|%-*s|%.*f" % (5, 1, 4, "ab", 2, 3.14159))
print("no args" % (), "%s" % {"k": 1})
for fmt, args in [("%d %d", (1,)), ("%d", (1, 2)), ("%d", "x"), ("%x", 1.5), ("%(a)s", (1,)), ("%y", 1), ("%", 1), ("%(a)s", {"b": 1}), ("%c", "ab")]:
    try:
        print(fmt % args)
    except Exception as e:
        print(type(e).__name__, e)
print("%.3f %d %s|%5.1f%%" % (torch.tensor(0.5), torch.tensor(3), torch.tensor(0.5), 12.345))
loss, lr = 0.25, 0.001
print(f"{loss=}", f"{lr=:.2e}", f"{name=}", f"{loss = }", f"{n+1=}", f"{n == 12}", f"{[1, 2]=}")
print(f"{name!r}|{name!s:>8}|{name!r:<10}|{loss=!s}|{n != 12}|{[1]!r}")
