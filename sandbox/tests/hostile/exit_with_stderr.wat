;; Prints an error on stderr and exits with status 3, the way a tool rejects its input.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "no such city: Atlantis\n")
  (data (i32.const 0) "\10\00\00\00\17\00\00\00")
  (func (export "_start")
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
    (call $proc_exit (i32.const 3))
    ;; proc_exit never returns; if it did, this would trap instead of exiting with 3.
    unreachable))
