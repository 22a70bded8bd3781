from __future__ import print_function, division
from math import sqrt, pi as PI
from math import (floor,
                  ceil,)
import math
print(sqrt(16.0), round(PI, 4), floor(2.5), ceil(2.5), sqrt is math.sqrt)
def f():
    from math import e
    return round(e, 3)
print(f())
try:
    from math import nope
except ImportError as err:
    print("ImportError", err)
