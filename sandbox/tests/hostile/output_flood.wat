;; Prints "flood!\n" to stdout forever. The output cap stops it, keeping output up to the cap.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; The text at 16, and one iovec {pointer 16, length 7} at 0.
  (data (i32.const 16) "flood!\n")
  (data (i32.const 0) "\10\00\00\00\07\00\00\00")
  (func (export "_start")
    (loop $again
      (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
      (br $again))))
