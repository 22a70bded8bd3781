# Twin of tests/lang/stdlib/re_errors.amps (Python 3.11): its output, True/False/None lowercased, is the golden's.
import re
bad = ["(abc", "abc)", "*a", "a**", "a{2}*", "[abc", "[z-a]", r"[\d-z]", "(?<x)", "(?P<1a>x)", "(?P<a>x)(?P<a>y)",
       "(?P=b)", r"\q", "a\\", r"\x4", r"(a)\2", r"(a\1)", "(?Px)", "a(?i)b", "(?z)", "x{3,2}", "a|*", "^*", r"\8",
       "(?#unclosed", "(a(b)", "[]", "ab\n(c", r"\777", "(?P<n", r"[\A]", "(?P=a",
       r"\p{L}", "(?|a)", "(?R)", "(?1)", "(*ACCEPT)", r"\K", "(?P>n)", "(?'n'a)", "(?<n>a)", r"\k<n>", "(?U)a",
       "(?(1)a|b|c)", "(a)(?(2)x)", "(?(2)x)(a)(b)"]
for pat in bad:
    try:
        re.compile(pat)
        print("compiled", repr(pat))
    except re.error as e:
        print(type(e).__name__, e, "|", e.msg, e.pos, e.lineno, e.colno, e.pattern == pat)
templates = [r"\3", r"\g<x>", r"\g<2", r"\g", r"\q", "a\\", r"\g<1a>", r"\g<>", r"\g<9>"]
for t in templates:
    try:
        print(re.sub(r"(a)(b)", t, "ab"))
    except re.error as e:
        print("error", e)
    except IndexError as e:
        print("IndexError", e)
m = re.match(r"(a)(?P<n>b)", "ab")
for g in [3, "x", -1]:
    try:
        m.group(g)
    except IndexError as e:
        print("IndexError", e)
try:
    m.start(5)
except IndexError as e:
    print("IndexError", e)
for f in [lambda: re.search("a", 5), lambda: re.compile(5), lambda: re.compile(re.compile("a"), re.I),
          lambda: re.findall("a", None)]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    re.compile("(")
except Exception as e:
    print(isinstance(e, re.error), isinstance(e, Exception), e.args)
print(re.split("a", "bab", maxsplit=-1), re.sub("a", "b", "aa", count=-1), re.compile(r"(?u)\w").flags, re.compile(r"(?a)\w").flags)
