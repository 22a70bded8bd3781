# Twin of tests/lang/stdlib/re_edges.amps (Python 3.11): its output, True/False/None lowercased, is the golden's.
import re
print(re.search(r"(a)(b*)", "a").lastindex, re.search(r"((a)b)", "ab").lastindex, re.search(r"((ab))", "ab").lastindex,
      re.search(r"(a)|(b)", "b").lastindex, re.search(r"(?P<o>(?P<i>x))", "x").lastgroup, re.search(r"(a(b)?)+", "aba").lastindex)
c = re.compile(r"^a")
print(c.search("ba", 1), re.compile(r"a$").search("ab", 0, 1), re.compile(r"\bb").search("ab", 1), re.compile(r"a\b").search("ab", 0, 1))
print(re.compile("a").search("aaa", 5), re.compile("a").search("aaa", -3), re.compile("a").search("aaa", 2, 1), re.compile("a").findall("aaaa", 1, -1))
print(re.compile(r"\w").findall("abcdef", 2, 100), [m.span() for m in re.compile(r"x*").finditer("axxb", 1, 3)])
print(re.match("(?i)straße", "STRASSE"), re.match("(?i)ſ", "S"), re.match("(?i)K", chr(0x212a)), re.findall("(?i)[a-c]", "ABCabcd"))
print(re.split("", "abc"), re.split(r"\b", "ab cd"), re.sub(r"(\b)", "|", "ab cd"), re.sub("", "-", "abc"), re.split("(x)?y", "1y2xy3"))
print(re.sub(r"\w+", r"<\g<0>>", "hi there"), re.sub(r"(\w)(\w)", r"\2\1", "abcde"), re.sub(r"(?P<a>x)", r"\g<a>\g<a>", "axb"))
print(re.match(r"""(?P<q>['"]).*?(?P=q)""", "'it' x"), re.findall(r"(\()?\d+(?(1)\))", "(1) 2 (3"), re.findall(r"(?P<p><)?\w+(?(p)>)", "<a> b <c"))
print(re.findall(r"(?x) [# ]+ x", "# x, ##x"), re.findall(r"(?x)a\ b", "a b"), re.compile("a\n b  # c", re.X).findall("ab"))
print(re.findall(r"\w+", "日本語 text, числа 42"), re.findall(r"\W+", "a, b"), re.findall(r"\S+", "x\ty"), re.findall(r"\D+", "a1b"))
print(re.search(r"(?<=-)\w+", "ab-cd"), re.search(r"(?<!-)\b\w+", "-ab cd"), re.search(r"\w+(?!\d)", "ab1"))
try:
    re.compile(r"(?<=a+)b")
except re.error as e:
    print("error", e, e.pos)
for f in [re.A | re.U, re.L]:
    try:
        re.compile("a", f)
    except ValueError as e:
        print("ValueError", e)
m = re.match(r"(\w+) (\w+)", "hello world")
print(m.group(True), m.regs, m.expand(r"\2\n\1"), m.span(0), m.start(2), m.group(0, 2))
it = re.finditer(r"\d", "a1b2")
print(next(it), next(it).group(), list(it))
print(re.sub("(a)", lambda m: m.group(1).upper() + str(m.start()), "banana"), re.subn(r"(?i)B", "", "BbAb"))
long = "word " * 20000
print(len(re.findall(r"\w+", long)), len(re.split(r"\s+", long)), len(re.sub(r"o", "0", long)), re.search(r"(d) $", long).span())
print(re.fullmatch(r"a|ab", "ab"), re.fullmatch(r"(?:a|ab)(c|bcd)", "abcd"), re.match(r"a|ab", "ab"), re.search("$", "ab\n"))
print(re.findall(r"$", "a\n"), re.findall(r"(?m)$", "a\nb\n"), re.split(r"(?m)^", "a\nb"), re.findall(r"\Z", "a\n"))
print(re.escape(""), re.findall(re.escape("1+1=2?"), "1+1=2? yes"), re.purge(), re.compile("x").pattern)
print(re.search(r"é+", "café éé").span(), re.sub(r"\s+", " ", "  mixed\t\n whitespace  ").strip(), re.findall(r"[^\s,]+", "a, b,c"))
print(re.match(r"(?i)[à-ÿ]+", "ÀÉÎ"), re.match(r"(?a)\w+", "abé"), re.compile(r"\d+").sub("#", "٣4"), re.compile(r"\d+", re.A).sub("#", "٣4"))
every = "".join([chr(i) for i in range(0x3001)])
print([ord(c) for c in re.findall(r"\s", every)] == [ord(c) for c in every if c.isspace()], len(re.findall(r"[\s]", every)), len(re.findall(r"\s", every, re.A)))
print(re.compile("(" * 300 + ")" * 300).groups, re.search(r"(?(2)x)(a)(b)", "xab"))
