"""The cases of gen_goldens.py: golden name -> (doc line, setup statements, expressions)."""

STR_SEARCH = [
    '"banana".find("an", 2)', '"banana".find("an", 2, 4)', '"banana".find("an", -3)', '"banana".rfind("an")',
    '"banana".rfind("an", 0, 3)', '"banana".find("", 6)', '"banana".find("", 7)', '"banana".index("na")',
    '"banana".rindex("na")', '"banana".index("x")', '"banana".rindex("a", 0, 1)', '"banana".find(5)',
    '"banana".count("a")', '"banana".count("a", 2)', '"banana".count("a", 2, -1)', '"banana".count("")',
    '"banana".count("", 6)', '"banana".count("", 7)', '"aaaa".count("aa")', '"ünïcödé".find("ö")', '"ünïcödé".count("é")',
    '"train.amps".startswith(("x", "tr"))', '"train.amps".endswith((".py", ".amps"))', '"train.amps".startswith("ain", 2)',
    '"train.amps".endswith("tr", 0, 2)', '"train.amps".startswith("", 10)', '"train.amps".startswith("", 11)',
    '"abc".startswith(1)', '"abc".endswith(("a", 1))', '"abc".find("b", "x")',
    '"banana".replace("a", "o", 2)', '"banana".replace("", "-")', '"banana".replace("", "-", 3)', '"aaa".replace("a", "aa")',
    '"model.layer1.weight".removeprefix("model.")', '"model.layer1.weight".removesuffix(".weight")',
    '"abc".removeprefix("x")', '"abc".removesuffix(5)', '"é" in "café"', '"x" not in "café"',
    'sorted(["b", "C", "a"], key=str.lower)', 'list(map(str.strip, [" a ", "b "]))', 'str.join("-", ["x", "y"])',
    'str.upper(5)', 'str.upper()', 'list.count([1, 1], 1)', 'dict.get({"a": 1}, "a")', 'tuple.index((1, 2), 2)',
    '"ab" * 3', '3 * "ab"', '"ab" * -1', '"abc" < "abd"', '"B" < "a"', '"abc" >= "ab"',
]
STR_CASE = [
    '"hello world".title()', '"they\'re bill\'s friends".title()', '"hELLO wORLD".capitalize()', '"Hello World".swapcase()',
    '"ÉCOLE Straße".lower()', '"école straße".upper()', '"Straße".casefold()', '"élan vital".title()',
    '"ABC".isupper()', '"AbC".isupper()', '"ABC1".isupper()', '"123".isupper()', '"abc".islower()', '"".islower()',
    '"Hello World".istitle()', '"Hello world".istitle()', '"HeLLo".istitle()', '"".istitle()',
    '"abc".isalpha()', '"ab1".isalpha()', '"é".isalpha()', '"".isalpha()', '"ab1".isalnum()', '"ab 1".isalnum()',
    '"123".isdigit()', '"123".isdecimal()', '"123".isnumeric()', '"12.5".isnumeric()', '"".isdigit()',
    '" \\t\\n".isspace()', '"".isspace()', '" a".isspace()', '"abc".isascii()', '"é".isascii()', '"".isascii()',
    '"ab c".isprintable()', '"a\\tb".isprintable()', '"".isprintable()', '"lr_0".isidentifier()', '"0lr".isidentifier()',
    '"a-b".isidentifier()', '"_".isidentifier()', '"été".isidentifier()',
    '"42".ljust(6, "*")', '"42".rjust(6)', '"42".center(7, "-")', '"42".center(6, "-")', '"abc".center(6)',
    '"abc".center(2)', '"é".center(5, "·")', '"42".zfill(5)', '"-42".zfill(5)', '"+4".zfill(4)', '"abc".zfill(2)',
    '"a".ljust(3, "ab")', '"a".ljust(3, 5)', '"a\\tb\\tc".expandtabs()', '"ab\\tc".expandtabs(4)', '"a\\tb".expandtabs(0)',
    '"abc".upper(1)',
]
STR_SPLIT = [
    '"  a b\\t\\nc  ".split()', '"  a b  c  ".split(none, 1)', '"  a b  c  ".rsplit(none, 1)', '"a,b,c".split(",", 1)',
    '"a,b,c".rsplit(",", 1)', '"a,b,c".split(sep=",", maxsplit=0)', '"a,,b".split(",")', '"".split()', '"".split(",")',
    '"a\u00a0b\u3000c".split()', '"a::b::c".rsplit("::")', '"abc".split("")', '"abc".split(1)', '"a b".rsplit(maxsplit=0)',
    '"k=v=w".partition("=")', '"k=v=w".rpartition("=")', '"kvw".partition("=")', '"kvw".rpartition("=")',
    '"a".partition("")', '"a".partition(1)',
    '"l1\\nl2\\r\\nl3\\rl4".splitlines()', '"l1\\nl2\\r\\n".splitlines(true)', '"".splitlines()', '"\\n".splitlines()',
    '("a" + chr(11) + "b" + chr(28) + "c" + chr(133) + "d").splitlines()', '"  xx  ".strip()', '"xxhixx".strip("x")', '"<<hi>>".lstrip("<")', '"<<hi>>".rstrip("<>")',
    '"\u00a0 hi \\t".strip()', '"abc".strip(none)', '"abc".strip(1)', '"-".join(["a", "b"])', '"".join([])',
    '", ".join(("x", "y"))', '"-".join(["a", 1])', '"-".join("abc")',
]
STR_FORMAT = [
    '"{} + {} = {}".format(1, 2, 3)', '"{1}{0}{1}".format("a", "b")', '"{name}: {v:.3f}".format(name="loss", v=0.12345)',
    '"{0[1]} {0[-1]}".format({1: "one", "-1": "neg"})', '"{d[key]}".format(d={"key": 7})', '"{0[2]}".format([5, 6, 7])',
    '"{0!r} {0!s} {0!a}".format("é")', '"{!r:>6}|".format("a")', '"{{literal}} {}".format(1)', '"{:>{w}}|".format("ab", w=5)',
    '"{:{fill}^{w}}".format(3, fill="*", w=7)', '"{:,}".format(1234567)', '"{:08.3f}".format(3.14159)', '"{:e}".format(12345.678)',
    '"{:x} {:o} {:b}".format(255, 8, 5)', '"{:+d}".format(5)', '"{:.1%}".format(0.256)', '"{:<5}|{:^5}|{:>5}".format(1, 2, 3)',
    '"{0.shape[1]} {0.ndim}".format(t)', '"{}".format([1, "a"])', '"{}".format(none)', '"{}".format(true)',
    '"{".format()', '"}".format()', '"{0".format(1)', '"{:".format(1)', '"{0!x}".format(1)', '"{0!rr}".format(1)',
    '"{0!}".format(1)', '"{}{0}".format(1)', '"{0}{}".format(1)', '"{1}".format(1)', '"{}{}".format(1)', '"{a}".format()',
    '"{0.}".format(1)', '"{0[}".format([1])', '"{0[0]x}".format([1])', '"{0[]}".format([1])', '"{0[0]}".format({"a": 3})',
    '"{0:{1:{2}}}".format(1, 2, 3)', '"{0:{1:d}}".format(5, 3)', '"{0.nope}".format(1)',
    '"{a}-{b}".format_map({"a": 1, "b": 2})', '"{a[0]}".format_map({"a": [9]})', '"{}".format_map({})',
    '"{0}".format_map({0: 1})', '"{a}".format_map({})', '"{a}".format_map(5)',
]
LIST_TUPLE = [
    '[1, 2, 3, 2].index(2, 2)', '[1, 2, 3, 2].index(2, -1)', '[1, 2, 3].index(2, 0, 1)', '[1, 2, 3].index(9)',
    '[1, 2].index(1, "a")', '(1, 2, 3, 2).index(2, 2)', '(1, 2).index(3)', '(1, 2, 2).count(2)', '("a", "b").index("b")',
    '[].append()', '[].append(1, 2)', '[].count()', '(1,).count(1, 2)', '[].remove()', '[].extend()', '[].pop()', '[1].pop(5)', '[1].remove(2)', '[3, 1].sort(none)',
]
LIST_SETUP = [
    "let pairs = [(1, 'b'), (0, 'a'), (1, 'a'), (0, 'b')]",
    "let xs = pairs.copy()",
    ("xs.sort(key=fn(p) { return p[0] }, reverse=true)", "xs.sort(key=lambda p: p[0], reverse=True)"),
    "let ys = [3, 1, 2]",
    "ys.insert(-10, 0)",
    "ys.insert(10, 9)",
]
LIST_CASES = ['xs', 'ys', '[1, 2] + [3]', '[0] * 3', '2 in [1, 2]', '[1, 2] < [1, 3]', '(1, 2) == (1, 2)'] + LIST_TUPLE
DICT_SETUP = [
    "let d = {'a': 1, 'b': 2}",
    "d.update([('c', 3)], e=5)",
    "let e = d | {'a': 10, 'z': 0}",
    "let f = {'q': 1}",
    "f |= [('r', 2)]",
    "let last = d.popitem()",
]
DICT_CASES = [
    'd', 'e', 'f', 'last', 'dict.fromkeys(["x", "y"])', 'dict.fromkeys("ab", 0)', 'dict.fromkeys([[1]])', '{}.popitem()',
    'd.update(5)', 'd.update([1])', 'd.update([(1, 2, 3)])', 'd.update({}, {})', 'd.pop("zz")',
    'd.get("zz", "dflt")', 'd.setdefault("s")', 'd', '{"a": 1}.keys(1)', '"a" in d', 'len(d.items())',
]

FORMAT_SPECS = [
    '"[{:_}]".format(1234567)', '"[{:=+8.2f}]".format(-3.14159)', '"[{:08,}]".format(1)', '"[{:010_d}]".format(-1234)',
    '"[{:*=10}]".format(-5)', '"[{:#_x}]".format(2 ** 20)', '"[{:#o}]".format(8)', '"[{:#_b}]".format(37)', '"[{:c}]".format(233)',
    '"[{:n}]".format(1234)', '"[{:n}]".format(1.5)', '"[{:<6}]".format(true)', '"[{:.4}]".format(1234.5678)',
    '"[{:.3}]".format(2.0)', '"[{:.3}]".format(100.0)', '"[{:.2}]".format("héllo")', '"[{:é^7}]".format("ab")', '"[{:^7}]".format("é")',
    '"[{:10,.2f}]".format(1234567.891)', '"[{:>12.3e}]".format(-0.000123)', '"[{:.1%}]".format(0.123)', '"[{:+}]".format(0)',
    '"[{:d}]".format(3.0)', '"[{:s}]".format(7)', '"[{:+}]".format("a")', '"[{: }]".format("a")', '"[{:=5}]".format("a")',
    '"[{:#}]".format("a")', '"[{:,x}]".format(255)', '"[{:_n}]".format(5)', '"[{:,}]".format("a")', '"[{:.2d}]".format(5)',
    '"[{:.1s}]".format(true)', '"[{:#.3g}]".format(255)', '"[{:#g}]".format(1.5)', '"[{:06.2f}]".format(-float("nan"))',
    '"[{:+}]".format(float("inf"))',
]

GOLDENS = {
    "format_specs": ("Python's format-spec mini-language through str.format (the f-string formatter): grouping, '=', "
                     "zero padding, #, c, n, precision without a type, errors.", [], FORMAT_SPECS),
    "str_search": ("str searching and testing: find/rfind/index/rindex/count with start/end, startswith/endswith "
                   "with tuples, replace(count), removeprefix/removesuffix, in, *, comparisons.", [], STR_SEARCH),
    "str_case_classes": ("str case mapping, character classes and padding (ljust rjust center zfill expandtabs).", [],
                         STR_CASE),
    "str_split_family": ("str split/rsplit (whitespace rules, maxsplit), partition, splitlines, strip(chars), join.",
                         [], STR_SPLIT),
    "str_format": ("str.format and format_map: numbering, keywords, fields, conversions, nested specs, errors.",
                   [("let t = zeros(2, 3)", "import torch; t = torch.zeros(2, 3)")], STR_FORMAT),
    "list_tuple_errors": ("list/tuple index(x, start, end), stable sort(key, reverse), insert clamping, errors.",
                          LIST_SETUP, LIST_CASES),
    "dict_more": ("dict update(pairs, **kw), |, |=, popitem, fromkeys, errors.", DICT_SETUP, DICT_CASES),
}
