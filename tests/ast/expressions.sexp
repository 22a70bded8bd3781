(if c a b)
(or a (and b (not c)))
(compare 1 < x <= 3 != y)
(compare a in b)
(compare a not in b)
(compare a is none)
(compare a is not none)
(- (+ (neg (** x 2)) (@ (% (// (* y z) 2) 3) w)) 1)
(. (index (call f x (kw k v) (* xs) (** kw)) 0 (slice 1 3 _) (slice _ _ _) (slice _ _ 2) (neg 1) ...) attr)
(listcomp (* x 2) x xs (compare x > 0))
(dict ("lr" 0.1) (1 (tuple 1)) ("t" (tuple)) ("l" (list 1 2.5)))
(fstr "loss " loss:".3f" " at " step)
(fn <lambda> (x)
  (return x))
"esc\n\t\"\\"
true
false
none
0.0001
16
