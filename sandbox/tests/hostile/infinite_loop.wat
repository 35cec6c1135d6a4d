;; Loops forever: `br` back to the top of the loop, with no way out. Fuel ends it.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (loop $forever
      (br $forever))))
