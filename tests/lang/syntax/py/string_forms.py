# Python's string literal forms: triple quotes of both kinds (spanning lines, quotes inside), raw strings, adjacent
# literals concatenated (also across lines in brackets and with f-strings), docstrings in functions and classes.
def area(w, h):
    """The area of a w by h rectangle.

    Docstrings are string statements: evaluated and dropped."""
    return w * h

class Box(object):
    '''A box: its docstring is the first thing in the body.'''
    def __init__(self, n):
        self.n = n
    def size(self):
        r"""Raw docstring with \t and \n kept."""
        return self.n

text = """first line
  "quoted" and 'single' inside
last line"""
print(text)
print(len(text), text.count("\n"))
print('''a 'b' "c" ''' + 'd')
print("""x""" + """""")
print(r"C:\new\table", len(r"\n"), r'it\'s', R"\d+")
print("one " 'two ' "three")
lr = 0.01
print("lr " f"{lr:.3f}" ' steps ' f'{10}')
msg = ('| epoch {:3d} | '
       'loss {:5.2f}').format(3, 1.23456)
print(msg)
print(f"""{lr}
{lr * 2}""")
print(rf"{lr}\n", fr'{lr}\t')
print("line one \
continues")
print(area(2, 3), Box(4).size())
print(f"{'a' 'b'}")
print("tab\tend", """esc\\""")
