;; xoshiro256** steps and the rejection part of Marsaglia's polar method, with native 64-bit
;; integers (the JavaScript generator emulates them on 32-bit halves, about 10x slower per step).
;; Source of src/random/xoshiroPolarWasm.ts (built by scripts/build-wasm.mjs; do not edit that file).
;;
;; Memory (one 64 KiB page, owned by the loader in src/random/xoshiroPolarKernel.ts):
;;   bytes  0..31  the state words s0..s3 (little-endian i64), read and written back;
;;   bytes 32..35  the low 32 bits of the last 64-bit output (Xoshiro256's `lo`);
;;   bytes 64..    `pairs` accepted triples (u, v, q) as f64: u, v uniform on [-1, 1) from two
;;                 successive outputs, q = u u + v v with 0 < q < 1 (other pairs are rejected and
;;                 drawn again, as in Xoshiro256.fillNormal).
;; The caller forms f = sqrt(-2 ln q / q) and the normals u f, v f in JavaScript (Math.log), so the
;; values are those of the JavaScript loop bit for bit: every operation here is exact integer
;; arithmetic or the same IEEE double operations in the same order.
(module
  (memory (export "memory") 1)
  (func (export "polar") (param $pairs i32)
    (local $s0 i64) (local $s1 i64) (local $s2 i64) (local $s3 i64) (local $t i64) (local $r i64)
    (local $h i32) (local $p i32) (local $end i32)
    (local $u f64) (local $v f64) (local $w f64) (local $q f64)
    (local.set $s0 (i64.load (i32.const 0)))
    (local.set $s1 (i64.load (i32.const 8)))
    (local.set $s2 (i64.load (i32.const 16)))
    (local.set $s3 (i64.load (i32.const 24)))
    (local.set $p (i32.const 64))
    (local.set $end (i32.add (i32.const 64) (i32.mul (local.get $pairs) (i32.const 24))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (loop $draw
          (local.set $h (i32.const 0))
          (loop $two
            ;; result = rotl(s1 * 5, 7) * 9
            (local.set $r (i64.mul (i64.rotl (i64.mul (local.get $s1) (i64.const 5)) (i64.const 7)) (i64.const 9)))
            ;; t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
            (local.set $t (i64.shl (local.get $s1) (i64.const 17)))
            (local.set $s2 (i64.xor (local.get $s2) (local.get $s0)))
            (local.set $s3 (i64.xor (local.get $s3) (local.get $s1)))
            (local.set $s1 (i64.xor (local.get $s1) (local.get $s2)))
            (local.set $s0 (i64.xor (local.get $s0) (local.get $s3)))
            (local.set $s2 (i64.xor (local.get $s2) (local.get $t)))
            (local.set $s3 (i64.rotl (local.get $s3) (i64.const 45)))
            ;; the uniform (top 53 bits) times 2^-53, mapped to [-1, 1) as 2 x - 1
            (local.set $w
              (f64.sub
                (f64.mul (f64.const 2)
                  (f64.mul (f64.convert_i64_u (i64.shr_u (local.get $r) (i64.const 11)))
                           (f64.const 0x1p-53)))
                (f64.const 1)))
            (if (i32.eqz (local.get $h))
              (then (local.set $u (local.get $w)))
              (else (local.set $v (local.get $w))))
            (local.set $h (i32.add (local.get $h) (i32.const 1)))
            (br_if $two (i32.lt_u (local.get $h) (i32.const 2))))
          (local.set $q (f64.add (f64.mul (local.get $u) (local.get $u)) (f64.mul (local.get $v) (local.get $v))))
          (br_if $draw (i32.or (f64.ge (local.get $q) (f64.const 1)) (f64.eq (local.get $q) (f64.const 0)))))
        (f64.store (local.get $p) (local.get $u))
        (f64.store offset=8 (local.get $p) (local.get $v))
        (f64.store offset=16 (local.get $p) (local.get $q))
        (local.set $p (i32.add (local.get $p) (i32.const 24)))
        (br $pair)))
    (i64.store (i32.const 0) (local.get $s0))
    (i64.store (i32.const 8) (local.get $s1))
    (i64.store (i32.const 16) (local.get $s2))
    (i64.store (i32.const 24) (local.get $s3))
    (i32.store (i32.const 32) (i32.wrap_i64 (local.get $r)))))
