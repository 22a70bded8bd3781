(let (tuple a (tuple b c)) pair)
(+= x 1)
(= x 2)
(fn f (a b=2 *rest **kw)
  (return (+ a b)))
(fn g () (@ dec) (@ (call dec2 3)))
(if c
  (pass)
  (else
    (if d
      (break)
      (else
        (continue)))))
(while c)
(for (tuple x y) loader)
(try
  (raise (call ValueError "m"))
  (catch e
    (call print (. e kind))))
(import nn nn)
(import "util.amps" util)
(assert cond "message")
(class Net (. nn Module)
  (let size 3)
  (fn init (self n)
    (call (super init))
    (= (. self fc) (call (. nn Linear) n 10))))
