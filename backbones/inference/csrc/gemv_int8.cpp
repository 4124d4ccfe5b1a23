// Few-row linear layers on int8 weights for decoding on x86 CPUs: y = (x q^T) * scale + b, where x holds 1 to
// kMaxRows rows of K features in float32 or bfloat16, q is an (N, K) int8 weight with one float32 scale per
// output row (backbones/quantized.py's int8 layout, read in place) and b an optional float32 bias.
//
// Decoding reads every weight once per token, so the product is bound by reading q: one byte a weight, half
// of bf16's. Every weight row is read once for all input rows, kRows rows streamed together, the next block
// prefetched while one is read, the rows split across torch's intra-op threads. Two ways to multiply:
// - mode 0, weight-only: each int8 weight widened to float32 and multiplied into float32 accumulators
//   (AVX512F 16 lanes, else AVX2 + FMA 8 lanes). x as it is (bf16 widened exactly): the result is x
//   (q * s)^T up to summation order.
// - modes 1 and 2, dynamic int8 activations: each x row quantised to int8 with its own scale (max |x| / 127,
//   round to nearest even), integer dot products (exact in int32), then y = sum * x_scale * s + b: the
//   result is (x_q * x_scale) (q * s)^T up to float rounding of that product. Mode 1 with AVX512-VNNI
//   (vpdpbusd: 64 products a instruction), mode 2 with AVX2 (vpmaddubsw + vpmaddwd). Both multiply |q|
//   (unsigned) by x_q with q's sign, so no pair sum saturates: |q| <= 127, |x_q| <= 127, 2 * 127 * 127 < 2^15.
// Each kernel is compiled for its own instruction set (target pragmas); gemv_int8() checks at run time that
// the CPU has the set a mode needs. Registered as zoo::gemv_int8(x, qweight, scales, bias, mode).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <immintrin.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

#include "int_weights.inc"

// What every mode's kernel gets: its share [row_begin, row_end) of the weight rows.
struct Args {
  int64_t r, k_len, n_len;
  const int8_t* w;
  const float* scales;
  const float* bias;
  float* y;  // (R, N) float32; cast to x's dtype afterwards
  const float* xf;  // mode 0: (R, K) float32
  const int8_t* xq;  // modes 1, 2: (R, K_pad) int8, zero past K
  const float* x_scales;  // modes 1, 2: (R,)
};


inline void finish(const Args& a, int64_t n, int r, float sum, float x_scale) {
  const float b = a.bias != nullptr ? a.bias[n] : 0.0f;
  a.y[r * a.n_len + n] = sum * x_scale * a.scales[n] + b;
}

// A step of up to 64 weight bytes, zeros past `left` (the tail of a row), for the loads that cannot mask.
inline void copy_tail(const int8_t* row, int64_t left, int8_t* out, int64_t size) {
  std::memset(out, 0, size);
  std::memcpy(out, row, left);
}

namespace f32_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl")

struct Mode {  // weight-only: int8 widened to float, fp32 FMA, 16 lanes
  static constexpr int64_t kStep = 16;
  using X = __m512;
  using W = __m512;
  using Acc = __m512;
  static __mmask16 mask(int64_t left) { return left == kStep ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1); }
  static X load_x(const Args& a, int r, int64_t k, int64_t left) {
    return _mm512_maskz_loadu_ps(mask(left), a.xf + r * a.k_len + k);
  }
  static W load_w(const int8_t* row, int64_t left) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mask(left), row)));
  }
  static Acc zero() { return _mm512_setzero_ps(); }
  static Acc madd(Acc acc, W w, X x) { return _mm512_fmadd_ps(w, x, acc); }
  static float reduce(Acc acc) { return _mm512_reduce_add_ps(acc); }
  static float x_scale(const Args&, int) { return 1.0f; }
};

#include "gemv_int8_rows.inc"

#pragma GCC pop_options
}  // namespace f32_avx512

namespace f32_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

struct Mode {  // weight-only: int8 widened to float, fp32 FMA, 8 lanes
  static constexpr int64_t kStep = 8;
  using X = __m256;
  using W = __m256;
  using Acc = __m256;
  static X load_x(const Args& a, int r, int64_t k, int64_t left) {
    const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(left)),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_maskload_ps(a.xf + r * a.k_len + k, lanes);  // lanes past `left` load as 0, never fault
  }
  static W load_w(const int8_t* row, int64_t left) {
    int8_t bytes[kStep];
    if (left == kStep) std::memcpy(bytes, row, kStep); else copy_tail(row, left, bytes, kStep);
    int64_t word;
    std::memcpy(&word, bytes, kStep);
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_cvtsi64_si128(word)));
  }
  static Acc zero() { return _mm256_setzero_ps(); }
  static Acc madd(Acc acc, W w, X x) { return _mm256_fmadd_ps(w, x, acc); }
  static float reduce(Acc v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
  }
  static float x_scale(const Args&, int) { return 1.0f; }
};

#include "gemv_int8_rows.inc"

#pragma GCC pop_options
}  // namespace f32_avx2

namespace vnni_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vnni")

struct Mode {  // dynamic int8: |q| times x_q with q's sign, 64 products a vpdpbusd
  static constexpr int64_t kStep = 64;
  struct W {
    __m512i magnitude;  // |q| as unsigned bytes
    __mmask64 negative;  // q < 0
  };
  using X = __m512i;
  using Acc = __m512i;
  static X load_x(const Args& a, int r, int64_t k, int64_t) {  // x_q rows are zero-padded to 64
    return _mm512_loadu_si512(a.xq + r * ((a.k_len + 63) / 64 * 64) + k);
  }
  static W load_w(const int8_t* row, int64_t left) {
    const __mmask64 m = left == kStep ? ~0ull : ((1ull << left) - 1);
    const __m512i w = _mm512_maskz_loadu_epi8(m, row);
    return {_mm512_abs_epi8(w), _mm512_movepi8_mask(w)};
  }
  static Acc zero() { return _mm512_setzero_si512(); }
  static Acc madd(Acc acc, const W& w, X x) {
    const __m512i signed_x = _mm512_mask_sub_epi8(x, w.negative, _mm512_setzero_si512(), x);
    return _mm512_dpbusd_epi32(acc, w.magnitude, signed_x);
  }
  static float reduce(Acc acc) { return static_cast<float>(_mm512_reduce_add_epi32(acc)); }
  static float x_scale(const Args& a, int r) { return a.x_scales[r]; }
};

#include "gemv_int8_rows.inc"

#pragma GCC pop_options
}  // namespace vnni_avx512

namespace int8_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

struct Mode {  // dynamic int8: vpmaddubsw on |q| and x_q with q's sign (pairs <= 2 x 127 x 127: no saturation)
  static constexpr int64_t kStep = 32;
  using W = __m256i;
  using X = __m256i;
  using Acc = __m256i;
  static X load_x(const Args& a, int r, int64_t k, int64_t) {  // zero-padded to 64: a whole step is there
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.xq + r * ((a.k_len + 63) / 64 * 64) + k));
  }
  static W load_w(const int8_t* row, int64_t left) {
    if (left == kStep) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
    alignas(32) int8_t bytes[kStep];
    copy_tail(row, left, bytes, kStep);
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes));
  }
  static Acc zero() { return _mm256_setzero_si256(); }
  static Acc madd(Acc acc, W w, X x) {
    const __m256i pairs = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
  }
  static float reduce(Acc v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return static_cast<float>(_mm_cvtsi128_si32(s));
  }
  static float x_scale(const Args& a, int r) { return a.x_scales[r]; }
};

#include "gemv_int8_rows.inc"

#include "quantize_rows.inc"

#pragma GCC pop_options
}  // namespace int8_avx2

using RowsFn = void (*)(const Args&, int64_t, int64_t);

template <RowsFn F1, RowsFn F2, RowsFn F3, RowsFn F4, RowsFn F5, RowsFn F6, RowsFn F7, RowsFn F8>
RowsFn pick(int64_t r) {
  constexpr RowsFn table[] = {F1, F2, F3, F4, F5, F6, F7, F8};
  return table[r - 1];
}

#define ZOO_ROWS_TABLE(ns)                                                                            \
  pick<ns::rows<ns::Mode, 1>, ns::rows<ns::Mode, 2>, ns::rows<ns::Mode, 3>, ns::rows<ns::Mode, 4>, \
       ns::rows<ns::Mode, 5>, ns::rows<ns::Mode, 6>, ns::rows<ns::Mode, 7>, ns::rows<ns::Mode, 8>>

at::Tensor gemv_int8(const at::Tensor& x, const at::Tensor& qweight, const at::Tensor& scales,
                     const c10::optional<at::Tensor>& bias, int64_t mode) {
  check_int8_weight("zoo::gemv_int8", qweight, scales);
  const int64_t n_len = qweight.size(0), k_len = qweight.size(1);
  int64_t r = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) r *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && r >= 1 && r <= kMaxRows && x.is_contiguous(),
              "zoo::gemv_int8: x must be 1 to ", kMaxRows, " contiguous rows of ", k_len, " features, got shape ",
              x.sizes());
  check_x_bias_and_cpu("zoo::gemv_int8", x, bias, n_len);
  TORCH_CHECK(mode >= 0 && mode <= 2, "zoo::gemv_int8: mode is 0 (weight-only), 1 (AVX512-VNNI) or 2 (AVX2), got ",
              mode);
  // ZOO_CPU_ISA=avx2 (gemv.py ISA_VARIABLE, which checks its value) keeps mode 0 on its AVX2 loop too.
  const char* forced = std::getenv("ZOO_CPU_ISA");
  const bool avx512 = !(forced && *forced) && __builtin_cpu_supports("avx512f") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  TORCH_CHECK(mode != 1 || (avx512 && __builtin_cpu_supports("avx512vnni")),
              "zoo::gemv_int8: mode 1 needs AVX512-VNNI, which this CPU lacks");

  const at::Tensor xf = x.to(at::kFloat).contiguous();
  at::Tensor y = at::empty({r, n_len}, x.options().dtype(at::kFloat));
  // Reused across calls on this thread: decoding makes hundreds of these a token.
  thread_local std::vector<int8_t> xq;
  thread_local std::vector<float> x_scales;
  Args a{r, k_len, n_len, qweight.data_ptr<int8_t>(), scales.data_ptr<float>(),
         bias.has_value() ? bias->data_ptr<float>() : nullptr, y.data_ptr<float>(), xf.data_ptr<float>(),
         nullptr, nullptr};
  RowsFn fn;
  if (mode == 0) {
    fn = avx512 ? ZOO_ROWS_TABLE(f32_avx512)(r) : ZOO_ROWS_TABLE(f32_avx2)(r);
  } else {
    xq.resize(r * ((k_len + 63) / 64 * 64));
    x_scales.resize(r);
    int8_avx2::quantize_rows(xf.data_ptr<float>(), r, k_len, xq.data(), x_scales.data());
    a.xq = xq.data();
    a.x_scales = x_scales.data();
    fn = mode == 1 ? ZOO_ROWS_TABLE(vnni_avx512)(r) : ZOO_ROWS_TABLE(int8_avx2)(r);
  }
  return over_rows(fn, a, n_len, k_len, y, x);
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("gemv_int8(Tensor x, Tensor qweight, Tensor scales, Tensor? bias, int mode) -> Tensor");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv_int8", &gemv_int8); }
