#!/usr/bin/python3
"""Writes an amps script that calls every script-visible op of runtime/ops.def (as a function, as a method of
its first argument, or as a member of module linalg) with odd arguments drawn from small pools (empty, 0-dim,
strided, expanded, half, integer (int64 .. uint8) and bool tensors; negative, zero and huge ints; NaN/inf; empty and wrong-length lists; bad strings), plus odd tensor
indexing, each call in try/catch. The script must finish and print `done N`: an op that crashes the process
(a signal) instead of raising an amps error fails the test that runs it (tests/CMakeLists.txt).
  op_calls.py OPS_DEF SEED CALLS_PER_OP"""
import random, re, sys

T = ['randn(3)', 'randn(2, 3)', 'zeros(0)', 'randn(2, 0, 3)', 'tensor(1.5)', 'randn(4, 5, 6)', 'randn(1, 1, 1, 1)',
     'arange(6)', 'ones(2, 3, dtype=bool)', 'randn(2, 3).half()', 'randn(3, 2).t()', 'randn(3).expand(4, 3)',
     'randn(2, 3, 4, 5)', 'tensor([float("nan"), float("inf"), -1.0])', 'randint(0, 3, (4,))', 'randn(1, 3, 8, 8)',
     'randn(5, 5)', 'tensor([[1, 2], [3, 4]])', 'randn(2, 1, 3).bfloat16()', 'tensor([-1, 0, 100])', 'randn(2, 3).double()',
     'tensor([0, 200, 255], dtype=uint8)', 'tensor([[-128, 5], [127, 0]], dtype=int8)', 'arange(6, dtype=int16).reshape(2, 3)']
I = ['0', '1', '-1', '2', '-5', '100', '3']
F = ['0.0', '1.0', '-1.0', 'float("nan")', 'float("inf")', '0.5', '1e30']
L = ['[]', '[0]', '[-1]', '[2, 2]', '[1000000]', '[3, -1]', '[1, 2, 3]', '[0, 0]', '[-7]']
POOLS = {'int': I, 'float': F + I, 'Scalar': F + I, 'bool': ['true', 'false'],
         'str': ['"mean"', '"sum"', '"none"', '"bogus"', '"floor"', '"tanh"'],
         'ScalarType': ['float32', 'int64', 'bool', 'float16', 'float64', 'uint8', 'int8', 'int16'], 'Device': ['cpu', 'xla']}
KEYS = ['0', '-1', '5', '-9', '[0, 1]', '[[0]]', 'tensor([0, 2])', 'tensor([true, false])', 'ones(3, dtype=bool)',
        '(0, 0)', '(none, 0)', '(0, 1, 2, 3, 4)', '1:', ':-1', '::2', '0:0', '5:1', 'tensor(1)',
        'tensor([1, 0, 1], dtype=uint8)']


def parse_ops(path):
    """(name, [(type, arg name, has default, keyword-only)], is method, is function) per script-visible op."""
    ops = []
    for m in re.finditer(r'^AMPS_OP\((\w+),\s*"([^"]*)",\s*([^,]*),', open(path).read(), re.M):
        schema, flags = m.group(2), m.group(3)
        if 'internal' in flags:
            continue
        call = schema.split('->')[0].strip()
        args, kwonly = [], False
        for p in [x.strip() for x in call[call.index('(') + 1:call.rindex(')')].split(',') if x.strip()]:
            if p == '*':
                kwonly = True
                continue
            ty, _, rest = p.rpartition(' ')
            args.append((ty, rest.split('=')[0], '=' in rest, kwonly))
        ops.append((call[:call.index('(')], args, 'method' in flags, 'fn' in flags))
    return ops


def pool(ty):
    base, optional = ty.rstrip('?'), ty.endswith('?')
    if base.startswith('Tensor') and '[]' in base:
        p = ['[' + ', '.join(random.sample(T, k)) + ']' for k in (0, 1, 2, 3)]
    elif base.startswith('Tensor'):
        p = T
    elif base.startswith('int['):
        p = L + I
    else:
        p = POOLS.get(base, ['none'])
    return p + (['none'] if optional else [])


def calls(ops, per_op):
    for name, args, method, fn in ops:
        pos = [a for a in args if not a[3]]
        for _ in range(per_op):
            kws = [f'{a[1]}={random.choice(pool(a[0]))}' for a in args if a[3] and a[1] != 'out' and random.random() < 0.3]
            need = sum(1 for a in pos if not a[2])
            n = random.randint(max(0, need - (random.random() < 0.1)), len(pos))
            vals = [random.choice(pool(a[0])) for a in pos[:n]]
            if name.startswith('linalg_') and not fn and not method:  # module linalg (torch.linalg)
                yield f'linalg.{name[len("linalg_"):]}({", ".join(vals + kws)})'
            elif fn and (not method or not vals or random.random() < 0.5):
                yield f'{name}({", ".join(vals + kws)})'
            elif method and vals:
                yield f'({vals[0]}).{name}({", ".join(vals[1:] + kws)})'
    for _ in range(per_op * 4):
        t, k = random.choice(T), random.choice(KEYS)
        yield f'({t})[{k}]'
        yield f'if true {{ let x = ({t}).clone()\n  x[{k}] = {random.choice(F + T[:4])} }}'


def main():
    ops_def, seed, per_op = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    random.seed(seed)
    print('import linalg')
    print('let n = 0')
    for c in calls(parse_ops(ops_def), per_op):
        print(f'try {{ {c} }} catch e {{ n += 1 }}')
    print('print("done", n)')


if __name__ == '__main__':
    main()
