// Few-row linear layers on integer weights with one scale per group of inputs, for decoding on x86 CPUs:
// y = x (s w)^T + b, where x holds 1 to kMaxRows rows of K features in float32 or bfloat16, s is one float32 scale
// per output row and group of G inputs (G = 32, 64, 128 or 256; llama.cpp's Q4_0 and Q8_0 are G = 32) and b an
// optional float32 bias. The weights (backbones/quantized.py's layouts, read in place) are either
// - int4: values u = 0 .. 15, w = u - 8, two a byte: input 2j of a row in byte j's low nibble, 2j + 1 in its
//   high one (a quarter of bf16's bytes); or
// - int8: w = -127 .. 127, a byte each.
//
// Each x row is quantised to int8 (quantize_rows: its own scale, as gemv_int8's dynamic modes). A 32-bit lane
// sums the integer products of 4 weight bytes (vpdpbusd, or vpmaddubsw and vpmaddwd on AVX2, unsigned by
// signed, no pair sum saturating), is scaled by its group's s in float32 and accumulated; y = acc * x_scale + b.
// - int4: x_q is split once per call so that byte j of a weight row meets its two inputs, xlo[j] = x_q[2j] and
//   xhi[j] = x_q[2j + 1]; the lane multiplies u (unsigned) and takes off its 8 x sum of x_q (made once per
//   call): sum (u - 8) x_q, exact in int32.
// - int8: |w| times x_q with w's sign (as gemv_int8's modes 1 and 2).
// A step reads 64 weight bytes (AVX-512) or 32 (AVX2); its lanes fall in one or more groups, whose scales are
// spread over the lanes by a permute. Modes: 1 AVX512-VNNI, 2 AVX2. Registered as
// zoo::gemv_grouped(x, qweight, scales, bias, mode): qweight uint8 (N, K / 2) is int4, int8 (N, K) is int8.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <immintrin.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace {

#include "int_weights.inc"

struct Args {
  int64_t r, k_len, n_len, group;
  const uint8_t* w;  // (N, K / kPerByte)
  const float* scales;  // (N, K / G)
  const float* bias;
  float* y;  // (R, N) float32; cast to x's dtype afterwards
  int64_t k_pad;  // x_q's row length, and the split halves' (kb_pad) for int4
  const int8_t* xq;  // int8: (R, k_pad) x_q, zero past K
  const int8_t* xlo;  // int4: (R, kb_pad) x_q of the even inputs, zero past K / 2
  const int8_t* xhi;  // int4: (R, kb_pad) of the odd ones
  const int32_t* xsum8;  // int4: (R, kb_pad / 4) 8 x the sum of each lane's 8 x_q
  int64_t kb_pad;
  const float* x_scales;  // (R,)
};

using RowsFn = void (*)(const Args&, int64_t, int64_t);

namespace vnni_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vnni")

using I = __m512i;
using F = __m512;

struct Lanes {  // 64 bytes a step, 16 lanes
  static constexpr int64_t kBytes = 64;
  using F = vnni_avx512::F;
  static I lane_groups(int64_t group, int64_t lane_inputs) {  // lane l's group within the step
    alignas(64) int32_t index[16];
    for (int l = 0; l < 16; ++l) index[l] = static_cast<int32_t>(lane_inputs * l / group);
    return _mm512_load_si512(index);
  }
  static __m512i load(const uint8_t* row, int64_t left) {
    return _mm512_maskz_loadu_epi8(left == kBytes ? ~0ull : ((1ull << left) - 1), row);
  }
  static F scales(const float* s, int64_t count, I spread) {
    return _mm512_permutexvar_ps(spread, _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << count) - 1), s));
  }
  static F zero() { return _mm512_setzero_ps(); }
  static F scaled(F acc, I dot, F s) { return _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), s, acc); }
  static float reduce(F acc) { return _mm512_reduce_add_ps(acc); }
};

struct Int4 : Lanes {
  static constexpr int64_t kPerByte = 2, kLaneInputs = 8;
  struct W { I lo, hi; };
  struct X { I lo, hi, sum8; };
  static I lane_groups(int64_t group) { return Lanes::lane_groups(group, kLaneInputs); }
  static W load_w(const uint8_t* row, int64_t left) {
    const I w = load(row, left), low4 = _mm512_set1_epi8(0x0F);
    return {_mm512_and_si512(w, low4), _mm512_and_si512(_mm512_srli_epi16(w, 4), low4)};
  }
  static X load_x(const Args& a, int r, int64_t kb) {  // padded to 64 bytes: a whole step is there
    return {_mm512_loadu_si512(a.xlo + r * a.kb_pad + kb), _mm512_loadu_si512(a.xhi + r * a.kb_pad + kb),
            _mm512_loadu_si512(a.xsum8 + r * (a.kb_pad / 4) + kb / 4)};
  }
  static F madd(F acc, const W& w, const X& x, F s) {
    const I dot = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_setzero_si512(), w.lo, x.lo), w.hi, x.hi);
    return scaled(acc, _mm512_sub_epi32(dot, x.sum8), s);
  }
};

struct Int8 : Lanes {
  static constexpr int64_t kPerByte = 1, kLaneInputs = 4;
  struct W { I magnitude; __mmask64 negative; };
  using X = I;
  static I lane_groups(int64_t group) { return Lanes::lane_groups(group, kLaneInputs); }
  static W load_w(const uint8_t* row, int64_t left) {
    const I w = load(row, left);
    return {_mm512_abs_epi8(w), _mm512_movepi8_mask(w)};
  }
  static X load_x(const Args& a, int r, int64_t kb) { return _mm512_loadu_si512(a.xq + r * a.k_pad + kb); }
  static F madd(F acc, const W& w, X x, F s) {
    const I signed_x = _mm512_mask_sub_epi8(x, w.negative, _mm512_setzero_si512(), x);
    return scaled(acc, _mm512_dpbusd_epi32(_mm512_setzero_si512(), w.magnitude, signed_x), s);
  }
};

#include "gemv_grouped_rows.inc"

#pragma GCC pop_options
}  // namespace vnni_avx512

namespace int8_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

using I = __m256i;
using F = __m256;

struct Lanes {  // 32 bytes a step, 8 lanes
  static constexpr int64_t kBytes = 32;
  using F = int8_avx2::F;
  static I lane_groups(int64_t group, int64_t lane_inputs) {
    alignas(32) int32_t index[8];
    for (int l = 0; l < 8; ++l) index[l] = static_cast<int32_t>(lane_inputs * l / group);
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(index));
  }
  static I load(const uint8_t* row, int64_t left) {
    if (left == kBytes) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
    alignas(32) uint8_t bytes[kBytes] = {};
    std::memcpy(bytes, row, left);
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes));
  }
  static F scales(const float* s, int64_t count, I spread) {
    const I take = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)),
                                      _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_permutevar8x32_ps(_mm256_maskload_ps(s, take), spread);
  }
  static F zero() { return _mm256_setzero_ps(); }
  static F scaled(F acc, I pairs, F s) {  // pairs: int16 sums of 2 products -> int32 lanes of 4
    return _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_madd_epi16(pairs, _mm256_set1_epi16(1))), s, acc);
  }
  static float reduce(F v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
  }
};

struct Int4 : Lanes {
  static constexpr int64_t kPerByte = 2, kLaneInputs = 8;
  struct W { I lo, hi; };
  struct X { I lo, hi, sum8; };
  static I lane_groups(int64_t group) { return Lanes::lane_groups(group, kLaneInputs); }
  static W load_w(const uint8_t* row, int64_t left) {
    const I w = load(row, left), low4 = _mm256_set1_epi8(0x0F);
    return {_mm256_and_si256(w, low4), _mm256_and_si256(_mm256_srli_epi16(w, 4), low4)};
  }
  static X load_x(const Args& a, int r, int64_t kb) {
    auto at = [](const void* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
    return {at(a.xlo + r * a.kb_pad + kb), at(a.xhi + r * a.kb_pad + kb), at(a.xsum8 + r * (a.kb_pad / 4) + kb / 4)};
  }
  static F madd(F acc, const W& w, const X& x, F s) {  // u <= 15, |x_q| <= 127: 4 products < 2^15
    const I pairs = _mm256_add_epi16(_mm256_maddubs_epi16(w.lo, x.lo), _mm256_maddubs_epi16(w.hi, x.hi));
    const I dot = _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
    return _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(dot, x.sum8)), s, acc);
  }
};

struct Int8 : Lanes {
  static constexpr int64_t kPerByte = 1, kLaneInputs = 4;
  using W = I;
  using X = I;
  static I lane_groups(int64_t group) { return Lanes::lane_groups(group, kLaneInputs); }
  static W load_w(const uint8_t* row, int64_t left) { return load(row, left); }
  static X load_x(const Args& a, int r, int64_t kb) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.xq + r * a.k_pad + kb));
  }
  static F madd(F acc, W w, X x, F s) {  // |w| x_q with w's sign: 2 x 127 x 127 < 2^15
    return scaled(acc, _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w)), s);
  }
};

#include "gemv_grouped_rows.inc"
#include "quantize_rows.inc"

#pragma GCC pop_options
}  // namespace int8_avx2

// x_q rows (R, k_pad) -> xlo, xhi (R, kb_pad) and xsum8 (R, kb_pad / 4), zero past K / 2: int4's split.
void split_rows(const int8_t* xq, int64_t r, int64_t k_len, int64_t k_pad, int64_t kb_pad, int8_t* xlo,
                int8_t* xhi, int32_t* xsum8) {
  const int64_t kb_len = k_len / 2;
  for (int64_t i = 0; i < r; ++i) {
    const int8_t* row = xq + i * k_pad;
    int8_t* lo = xlo + i * kb_pad;
    int8_t* hi = xhi + i * kb_pad;
    for (int64_t j = 0; j < kb_len; ++j) {
      lo[j] = row[2 * j];
      hi[j] = row[2 * j + 1];
    }
    std::memset(lo + kb_len, 0, kb_pad - kb_len);
    std::memset(hi + kb_len, 0, kb_pad - kb_len);
    for (int64_t l = 0; l < kb_pad / 4; ++l) {
      int32_t sum = 0;
      for (int64_t b = 4 * l; b < 4 * l + 4; ++b) sum += lo[b] + hi[b];
      xsum8[i * (kb_pad / 4) + l] = 8 * sum;
    }
  }
}

at::Tensor gemv_grouped(const at::Tensor& x, const at::Tensor& qweight, const at::Tensor& scales,
                        const c10::optional<at::Tensor>& bias, int64_t mode) {
  const bool int4 = qweight.scalar_type() == at::kByte;
  TORCH_CHECK(qweight.dim() == 2 && qweight.is_contiguous() && (int4 || qweight.scalar_type() == at::kChar),
              "zoo::gemv_grouped: qweight must be a contiguous (N, K / 2) uint8 (int4) or (N, K) int8 matrix, got ",
              qweight.scalar_type(), " ", qweight.sizes());
  const int64_t n_len = qweight.size(0), k_len = (int4 ? 2 : 1) * qweight.size(1);
  TORCH_CHECK(scales.dim() == 2 && scales.size(0) == n_len && scales.size(1) >= 1 && k_len % scales.size(1) == 0 &&
              scales.is_contiguous() && scales.scalar_type() == at::kFloat,
              "zoo::gemv_grouped: scales must be a contiguous float32 (", n_len, ", K / G) matrix, got ",
              scales.scalar_type(), " ", scales.sizes());
  const int64_t group = k_len / scales.size(1);
  TORCH_CHECK(group == 32 || group == 64 || group == 128 || group == 256,
              "zoo::gemv_grouped: groups of 32, 64, 128 or 256 inputs, got ", group);
  int64_t r = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) r *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && r >= 1 && r <= kMaxRows && x.is_contiguous(),
              "zoo::gemv_grouped: x must be 1 to ", kMaxRows, " contiguous rows of ", k_len, " features, got shape ",
              x.sizes());
  check_x_bias_and_cpu("zoo::gemv_grouped", x, bias, n_len);
  TORCH_CHECK(mode == 1 || mode == 2, "zoo::gemv_grouped: mode is 1 (AVX512-VNNI) or 2 (AVX2), got ", mode);
  TORCH_CHECK(mode != 1 || (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni")),
              "zoo::gemv_grouped: mode 1 needs AVX512-VNNI, which this CPU lacks");

  const at::Tensor xf = x.to(at::kFloat).contiguous();
  at::Tensor y = at::empty({r, n_len}, x.options().dtype(at::kFloat));
  const int64_t k_pad = (k_len + 63) / 64 * 64, kb_pad = int4 ? (k_len / 2 + 63) / 64 * 64 : 0;
  thread_local std::vector<int8_t> xq, xlo, xhi;  // reused across calls on this thread
  thread_local std::vector<int32_t> xsum8;
  thread_local std::vector<float> x_scales;
  xq.resize(r * k_pad);
  x_scales.resize(r);
  int8_avx2::quantize_rows(xf.data_ptr<float>(), r, k_len, xq.data(), x_scales.data());
  if (int4) {
    xlo.resize(r * kb_pad);
    xhi.resize(r * kb_pad);
    xsum8.resize(r * kb_pad / 4);
    split_rows(xq.data(), r, k_len, k_pad, kb_pad, xlo.data(), xhi.data(), xsum8.data());
  }
  const Args a{r, k_len, n_len, group, static_cast<const uint8_t*>(qweight.data_ptr()), scales.data_ptr<float>(),
               bias.has_value() ? bias->data_ptr<float>() : nullptr, y.data_ptr<float>(), k_pad, xq.data(),
               xlo.data(), xhi.data(), xsum8.data(), kb_pad, x_scales.data()};
  const auto all = std::make_integer_sequence<int, kMaxRows>{};
  RowsFn fn;
  if (mode == 1) {
    fn = int4 ? vnni_avx512::pick<vnni_avx512::Int4>(r, all) : vnni_avx512::pick<vnni_avx512::Int8>(r, all);
  } else {
    fn = int4 ? int8_avx2::pick<int8_avx2::Int4>(r, all) : int8_avx2::pick<int8_avx2::Int8>(r, all);
  }
  return over_rows(fn, a, n_len, qweight.size(1), y, x);
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("gemv_grouped(Tensor x, Tensor qweight, Tensor scales, Tensor? bias, int mode) -> Tensor");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv_grouped", &gemv_grouped); }
