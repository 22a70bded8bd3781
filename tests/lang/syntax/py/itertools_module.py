import itertools
from itertools import count, chain, islice
print(list(islice(count(3), 4)), list(islice(count(0, 2.5), 3)), repr(count(5)), repr(count(1, 2)))
print(list(islice(itertools.cycle("ab"), 5)), list(itertools.cycle([])), list(itertools.repeat("x", 3)))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([3, 1, 4], max)), list(itertools.accumulate([1, 2], initial=10)), list(itertools.accumulate([], initial=7)))
print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3], []])), list(chain()))
print(list(itertools.compress("abcdef", [1, 0, 1, 0, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(itertools.filterfalse(None, [0, 1, "", "a"])), list(itertools.filterfalse(lambda x: x % 2, range(6))))
print(list(islice("abcdefg", 2)), list(islice("abcdefg", 2, 4)), list(islice("abcdefg", 2, None)), list(islice("abcdefg", 0, None, 3)), list(islice("ab", 5)))
it = iter(range(10))
print(list(islice(it, 1, 6, 2)), next(it))
print(list(itertools.starmap(lambda a, b: a ** b, [(2, 5), (3, 2)])), list(itertools.zip_longest("ab", [1, 2, 3], fillvalue="-")), list(itertools.zip_longest()))
print(list(itertools.pairwise("abcd")), list(itertools.pairwise([1])))
print(list(itertools.product("ab", range(2))), list(itertools.product([0, 1], repeat=2)), list(itertools.product()), list(itertools.product([], [1])))
print(list(itertools.combinations("abcd", 2)), list(itertools.combinations(range(3), 3)), list(itertools.combinations([1], 2)), list(itertools.combinations([1, 2], 0)))
print(list(itertools.combinations_with_replacement("abc", 2)))
print(list(itertools.permutations("abc", 2)), len(list(itertools.permutations(range(4)))), list(itertools.permutations([1, 2], 3)))
c = chain([1], [2])
print(iter(c) is c, type(c).__name__)
for bad in [lambda: list(islice([1], -1)), lambda: list(islice([1], 0, 1, 0)), lambda: list(itertools.combinations([1], -1)), lambda: list(chain(1)), lambda: list(itertools.product([1], repeat=-1))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
