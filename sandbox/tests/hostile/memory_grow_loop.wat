;; Grows its memory one page (64 KiB) at a time until growing fails, then keeps trying: a
;; memory bomb that ignores `memory.grow` returning -1. The memory cap stops it at the first
;; page over the cap.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (loop $more
      (drop (memory.grow (i32.const 1)))
      (br $more))))
