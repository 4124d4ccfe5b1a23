// Few-row linear layers on int4 weights for decoding on x86 CPUs: y = x (s (u - 8))^T + b, where x holds 1 to
// kMaxRows rows of K features in float32 or bfloat16; u are the weight's 4-bit values 0 .. 15, two a byte
// (backbones/quantized.py's int4 layout, read in place: input 2j of a row in byte j's low nibble, 2j + 1 in its
// high one); s is one float32 scale per output row and group of G inputs (G = 32, 64, 128 or 256: llama.cpp's
// Q4_0 is G = 32), and b an optional float32 bias.
//
// Half of int8's bytes a weight: each x row is quantised to int8 (quantize_rows: its own scale, as gemv_int8's
// dynamic modes) and split so that byte j of a weight row meets its two inputs, xlo[j] = x_q[2j] and
// xhi[j] = x_q[2j + 1]. A 32-bit lane takes the products of 4 bytes, 8 weights (vpdpbusd, or vpmaddubsw and
// vpmaddwd on AVX2, unsigned u by signed x_q: at most 4 x 15 x 127 a pair sum, no saturation); the lane's
// 8 x sum of x_q, made once per call, is taken off (sum (u - 8) x_q, exact in int32), and the lane is scaled
// by its group's s in float32 and accumulated. y = acc * x_scale + b. A step reads 64 weight bytes (AVX-512)
// or 32 (AVX2); the lanes of a step fall in 128 / G groups (G >= 128: one), whose scales are spread over the
// lanes by a permute. Modes: 1 AVX512-VNNI, 2 AVX2 (as zoo::gemv_int8's). Registered as
// zoo::gemv_int4(x, qweight, scales, bias, mode).
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
  int64_t r, k_len, n_len, group, kb_pad;  // kb_pad: the bytes of a split x row (K / 2, padded to 64)
  const uint8_t* w;  // (N, K / 2)
  const float* scales;  // (N, K / G)
  const float* bias;
  float* y;  // (R, N) float32; cast to x's dtype afterwards
  const int8_t* xlo;  // (R, kb_pad) x_q of the even inputs, zero past K / 2
  const int8_t* xhi;  // (R, kb_pad) of the odd ones
  const int32_t* xsum8;  // (R, kb_pad / 4) 8 x the sum of each lane's 8 x_q
  const float* x_scales;  // (R,)
};

using RowsFn = void (*)(const Args&, int64_t, int64_t);

namespace vnni_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vnni")

struct Mode {  // 64 bytes (128 weights) a step, 16 lanes
  static constexpr int64_t kBytes = 64;
  using I = __m512i;
  using F = __m512;
  static I lane_groups(int64_t group) {  // lane l's group within the step: 8 l / G
    alignas(64) int32_t index[16];
    for (int l = 0; l < 16; ++l) index[l] = static_cast<int32_t>(8 * l / group);
    return _mm512_load_si512(index);
  }
  static void load_w(const uint8_t* row, int64_t left, I& lo, I& hi) {
    const __mmask64 m = left == kBytes ? ~0ull : ((1ull << left) - 1);
    const __m512i w = _mm512_maskz_loadu_epi8(m, row), low4 = _mm512_set1_epi8(0x0F);
    lo = _mm512_and_si512(w, low4);
    hi = _mm512_and_si512(_mm512_srli_epi16(w, 4), low4);
  }
  static I load_x(const void* p) { return _mm512_loadu_si512(p); }  // padded to 64 bytes: a whole step is there
  static F scales(const float* s, int64_t count, I spread) {
    return _mm512_permutexvar_ps(spread, _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << count) - 1), s));
  }
  static F zero() { return _mm512_setzero_ps(); }
  static F madd(F acc, I lo, I hi, I xl, I xh, I xs, F s) {
    const __m512i dot = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_setzero_si512(), lo, xl), hi, xh);
    return _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(dot, xs)), s, acc);
  }
  static float reduce(F acc) { return _mm512_reduce_add_ps(acc); }
};

#include "gemv_int4_rows.inc"

#pragma GCC pop_options
}  // namespace vnni_avx512

namespace int8_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

struct Mode {  // 32 bytes (64 weights) a step, 8 lanes
  static constexpr int64_t kBytes = 32;
  using I = __m256i;
  using F = __m256;
  static I lane_groups(int64_t group) {
    alignas(32) int32_t index[8];
    for (int l = 0; l < 8; ++l) index[l] = static_cast<int32_t>(8 * l / group);
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(index));
  }
  static void load_w(const uint8_t* row, int64_t left, I& lo, I& hi) {
    alignas(32) uint8_t bytes[kBytes] = {};
    const uint8_t* p = row;
    if (left != kBytes) {
      std::memcpy(bytes, row, left);
      p = bytes;
    }
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), low4 = _mm256_set1_epi8(0x0F);
    lo = _mm256_and_si256(w, low4);
    hi = _mm256_and_si256(_mm256_srli_epi16(w, 4), low4);
  }
  static I load_x(const void* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static F scales(const float* s, int64_t count, I spread) {
    const __m256i take = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_permutevar8x32_ps(_mm256_maskload_ps(s, take), spread);
  }
  static F zero() { return _mm256_setzero_ps(); }
  static F madd(F acc, I lo, I hi, I xl, I xh, I xs, F s) {
    const __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(lo, xl), _mm256_maddubs_epi16(hi, xh));
    const __m256i dot = _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
    return _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(dot, xs)), s, acc);
  }
  static float reduce(F v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
  }
};

#include "gemv_int4_rows.inc"
#include "quantize_rows.inc"

#pragma GCC pop_options
}  // namespace int8_avx2

// x_q rows (R, K_pad) -> xlo, xhi (R, kb_pad) and xsum8 (R, kb_pad / 4), zero past K / 2.
void split_rows(const int8_t* xq, int64_t r, int64_t k_len, int64_t kb_pad, int8_t* xlo, int8_t* xhi,
                int32_t* xsum8) {
  const int64_t k_pad = (k_len + 63) / 64 * 64, kb_len = k_len / 2;
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

at::Tensor gemv_int4(const at::Tensor& x, const at::Tensor& qweight, const at::Tensor& scales,
                     const c10::optional<at::Tensor>& bias, int64_t mode) {
  TORCH_CHECK(qweight.dim() == 2 && qweight.is_contiguous() && qweight.scalar_type() == at::kByte,
              "zoo::gemv_int4: qweight must be a contiguous (N, K / 2) uint8 matrix, got ", qweight.scalar_type(),
              " ", qweight.sizes());
  const int64_t n_len = qweight.size(0), k_len = 2 * qweight.size(1);
  TORCH_CHECK(scales.dim() == 2 && scales.size(0) == n_len && scales.size(1) >= 1 && k_len % scales.size(1) == 0 &&
              scales.is_contiguous() && scales.scalar_type() == at::kFloat,
              "zoo::gemv_int4: scales must be a contiguous float32 (", n_len, ", K / G) matrix, got ",
              scales.scalar_type(), " ", scales.sizes());
  const int64_t group = k_len / scales.size(1);
  TORCH_CHECK(group == 32 || group == 64 || group == 128 || group == 256,
              "zoo::gemv_int4: groups of 32, 64, 128 or 256 inputs, got ", group);
  int64_t r = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) r *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && r >= 1 && r <= kMaxRows && x.is_contiguous(),
              "zoo::gemv_int4: x must be 1 to ", kMaxRows, " contiguous rows of ", k_len, " features, got shape ",
              x.sizes());
  TORCH_CHECK(x.scalar_type() == at::kFloat || x.scalar_type() == at::kBFloat16,
              "zoo::gemv_int4: x must be float32 or bfloat16, got ", x.scalar_type());
  if (bias.has_value())
    TORCH_CHECK(bias->dim() == 1 && bias->size(0) == n_len && bias->is_contiguous() &&
                bias->scalar_type() == at::kFloat, "zoo::gemv_int4: bias must be a contiguous float32 (", n_len,
                ",) vector, got ", bias->scalar_type(), " ", bias->sizes());
  TORCH_CHECK(mode == 1 || mode == 2, "zoo::gemv_int4: mode is 1 (AVX512-VNNI) or 2 (AVX2), got ", mode);
  TORCH_CHECK(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
              "zoo::gemv_int4 needs a CPU with AVX2 and FMA; this one lacks them");
  TORCH_CHECK(mode != 1 || (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni")),
              "zoo::gemv_int4: mode 1 needs AVX512-VNNI, which this CPU lacks");

  const at::Tensor xf = x.to(at::kFloat).contiguous();
  at::Tensor y = at::empty({r, n_len}, x.options().dtype(at::kFloat));
  const int64_t k_pad = (k_len + 63) / 64 * 64, kb_pad = (k_len / 2 + 63) / 64 * 64;
  thread_local std::vector<int8_t> xq, xlo, xhi;  // reused across calls on this thread
  thread_local std::vector<int32_t> xsum8;
  thread_local std::vector<float> x_scales;
  xq.resize(r * k_pad);
  xlo.resize(r * kb_pad);
  xhi.resize(r * kb_pad);
  xsum8.resize(r * kb_pad / 4);
  x_scales.resize(r);
  int8_avx2::quantize_rows(xf.data_ptr<float>(), r, k_len, xq.data(), x_scales.data());
  split_rows(xq.data(), r, k_len, kb_pad, xlo.data(), xhi.data(), xsum8.data());
  const Args a{r, k_len, n_len, group, kb_pad, qweight.data_ptr<uint8_t>(), scales.data_ptr<float>(),
               bias.has_value() ? bias->data_ptr<float>() : nullptr, y.data_ptr<float>(), xlo.data(), xhi.data(),
               xsum8.data(), x_scales.data()};
  const auto all = std::make_integer_sequence<int, kMaxRows>{};
  const RowsFn fn = mode == 1 ? vnni_avx512::pick(r, all) : int8_avx2::pick(r, all);
  const int64_t blocks = (n_len + kRows - 1) / kRows;
  const int64_t grain = std::max<int64_t>(1, kMinTaskBytes / std::max<int64_t>(kRows * k_len / 2, 1));
  at::parallel_for(0, blocks, grain, [&](int64_t begin, int64_t end) {
    fn(a, begin * kRows, std::min(end * kRows, n_len));
  });
  auto shape = x.sizes().vec();
  shape.back() = n_len;
  return y.view(shape).to(x.scalar_type());
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("gemv_int4(Tensor x, Tensor qweight, Tensor scales, Tensor? bias, int mode) -> Tensor");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv_int4", &gemv_int4); }
