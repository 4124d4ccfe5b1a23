// The layout every zoo attention operator takes, checked once for all of them: q (B, H, Tq, Dh), k and v
// (B, Hkv, Tk, Dh) with Hkv dividing H, each with its head dimension contiguous. `op` names the operator in
// the error.
#pragma once

#include <ATen/ATen.h>

inline void check_attention_shapes(const char* op, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, op, ": q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh) "
              "expected, got q ", q.sizes(), ", k ", k.sizes(), ", v ", v.sizes());
  const int64_t b = q.size(0), h = q.size(1), dh = q.size(3), hkv = k.size(1);
  TORCH_CHECK(k.sizes() == v.sizes() && k.size(0) == b && k.size(3) == dh && hkv > 0 && h % hkv == 0, op,
              ": k and v must be (", b, ", Hkv, Tk, ", dh, ") with Hkv dividing ", h, ", got k ", k.sizes(), ", v ",
              v.sizes());
  TORCH_CHECK(q.stride(3) == 1 && k.stride(3) == 1 && v.stride(3) == 1, op,
              ": the head dimension must be contiguous in q, k and v");
}
