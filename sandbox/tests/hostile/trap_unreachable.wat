;; Executes `unreachable`, which is what a Rust panic compiles to with panic=abort.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    unreachable))
