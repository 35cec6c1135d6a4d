;; Hands `fd_write` an iovec that points past the end of its memory. The call must answer
;; EFAULT (21) instead of crashing the host; the tool exits with that number as its status.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  ;; iovec {pointer 65530, length 100}: 94 of the 100 bytes are past the 64 KiB page.
  (data (i32.const 0) "\fa\ff\00\00\64\00\00\00")
  (func (export "_start")
    (call $proc_exit
      (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
