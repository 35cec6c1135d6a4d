;; Imports `sock_accept` (accepting network connections). Refused at registration.
(module
  (import "wasi_snapshot_preview1" "sock_accept"
    (func (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")))
