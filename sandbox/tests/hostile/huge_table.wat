;; Declares a table of ten million function references: host memory the memory cap does not
;; see. Refused when the instance is created, like a huge memory.
(module
  (table 10000000 funcref)
  (memory (export "memory") 1)
  (func (export "_start")))
