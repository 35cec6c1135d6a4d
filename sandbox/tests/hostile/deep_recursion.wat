;; Calls itself forever. The interpreter's call-stack limit stops it long before fuel does.
(module
  (memory (export "memory") 1)
  (func $down (call $down))
  (func (export "_start") (call $down)))
