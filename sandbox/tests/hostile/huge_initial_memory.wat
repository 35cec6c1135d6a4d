;; Asks for 2 000 pages (125 MiB) before running a single instruction: refused when the
;; instance is created, over the default cap of 64 MiB.
(module
  (memory (export "memory") 2000)
  (func (export "_start")))
