;; Imports a function from the host's `env`, outside WASI: tao provides no such thing, and a
;; tool may not ask for it. Refused at registration.
(module
  (import "env" "anything" (func))
  (memory (export "memory") 1)
  (func (export "_start")))
