(try
  (call f)
  (except KeyError e
    (call g e))
  (except (tuple ValueError (. errors Bad)) _)
  (catch _
    (raise))
  (else
    (call h))
  (finally
    (call k)))
(try
  (call f)
  (catch _))
(raise (call ConfigError "m") (from e))
(raise X (from none))
(class Stop Exception)
