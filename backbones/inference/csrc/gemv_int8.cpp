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
#include <cstring>
#include <vector>

namespace {

constexpr int64_t kMinTaskBytes = 1 << 16;  // smallest share of the weight worth a thread
constexpr int64_t kMaxRows = 8;
constexpr int64_t kRows = 4;  // weight rows streamed together (and a thread's unit of work)

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

// Prefetch the byte `ahead` past p; the address is formed as an integer (past the weight's end near its last
// rows, which a prefetch never faults on), so no out-of-range pointer is made.
inline void prefetch(const int8_t* p, int64_t ahead) {
  _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(p) + ahead), _MM_HINT_T0);
}

inline void finish(const Args& a, int64_t n, int r, float sum, float x_scale) {
  const float b = a.bias != nullptr ? a.bias[n] : 0.0f;
  a.y[r * a.n_len + n] = sum * x_scale * a.scales[n] + b;
}

namespace f32_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl")

template <int R>
void rows(const Args& a, int64_t row_begin, int64_t row_end) {
  const int64_t k_full = a.k_len - a.k_len % 16;
  for (int64_t n = row_begin; n < row_end; n += kRows) {
    const int64_t m = std::min(kRows, row_end - n);
    __m512 acc[kRows][R];
    for (int64_t i = 0; i < kRows; ++i)
      for (int r = 0; r < R; ++r) acc[i][r] = _mm512_setzero_ps();
    const int8_t* base = a.w + n * a.k_len;
    for (int64_t k = 0; k < a.k_len; k += 16) {
      const __mmask16 mask = k < k_full ? (__mmask16)0xFFFF : (__mmask16)((1u << (a.k_len - k)) - 1);
      __m512 xv[R];
      for (int r = 0; r < R; ++r) xv[r] = _mm512_maskz_loadu_ps(mask, a.xf + r * a.k_len + k);
      for (int64_t i = 0; i < m; ++i) {
        const int8_t* row = base + i * a.k_len + k;
        if (k % 64 == 0) prefetch(row, kRows * a.k_len);
        const __m512 wv = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mask, row)));
        for (int r = 0; r < R; ++r) acc[i][r] = _mm512_fmadd_ps(wv, xv[r], acc[i][r]);
      }
    }
    for (int64_t i = 0; i < m; ++i)
      for (int r = 0; r < R; ++r) finish(a, n + i, r, _mm512_reduce_add_ps(acc[i][r]), 1.0f);
  }
}

#pragma GCC pop_options
}  // namespace f32_avx512

namespace f32_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

template <int R>
void rows(const Args& a, int64_t row_begin, int64_t row_end) {
  const int64_t k_full = a.k_len - a.k_len % 8;
  for (int64_t n = row_begin; n < row_end; n += kRows) {
    const int64_t m = std::min(kRows, row_end - n);
    __m256 acc[kRows][R];
    for (int64_t i = 0; i < kRows; ++i)
      for (int r = 0; r < R; ++r) acc[i][r] = _mm256_setzero_ps();
    const int8_t* base = a.w + n * a.k_len;
    for (int64_t k = 0; k < k_full; k += 8) {
      for (int64_t i = 0; i < m; ++i) {
        const int8_t* row = base + i * a.k_len + k;
        if (k % 64 == 0) prefetch(row, kRows * a.k_len);
        int64_t bytes;
        std::memcpy(&bytes, row, 8);
        const __m256 wv = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_cvtsi64_si128(bytes)));
        for (int r = 0; r < R; ++r) acc[i][r] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(a.xf + r * a.k_len + k), acc[i][r]);
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      const int8_t* row = base + i * a.k_len;
      for (int r = 0; r < R; ++r) {
        float sum = hsum(acc[i][r]);
        for (int64_t k = k_full; k < a.k_len; ++k) sum += static_cast<float>(row[k]) * a.xf[r * a.k_len + k];
        finish(a, n + i, r, sum, 1.0f);
      }
    }
  }
}

#pragma GCC pop_options
}  // namespace f32_avx2

namespace vnni_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vnni")

template <int R>
void rows(const Args& a, int64_t row_begin, int64_t row_end) {
  const int64_t k_pad = (a.k_len + 63) / 64 * 64;  // x_q's row stride: zeros past K
  const int64_t k_full = a.k_len - a.k_len % 64;
  const __m512i zero = _mm512_setzero_si512();
  for (int64_t n = row_begin; n < row_end; n += kRows) {
    const int64_t m = std::min(kRows, row_end - n);
    __m512i acc[kRows][R];
    for (int64_t i = 0; i < kRows; ++i)
      for (int r = 0; r < R; ++r) acc[i][r] = zero;
    const int8_t* base = a.w + n * a.k_len;
    for (int64_t k = 0; k < a.k_len; k += 64) {
      const __mmask64 mask = k < k_full ? ~0ull : ((1ull << (a.k_len - k)) - 1);
      __m512i xv[R];
      for (int r = 0; r < R; ++r) xv[r] = _mm512_loadu_si512(a.xq + r * k_pad + k);
      for (int64_t i = 0; i < m; ++i) {
        const int8_t* row = base + i * a.k_len + k;
        prefetch(row, kRows * a.k_len);
        const __m512i wv = _mm512_maskz_loadu_epi8(mask, row);
        const __m512i magnitude = _mm512_abs_epi8(wv);          // |q| as unsigned bytes
        const __mmask64 negative = _mm512_movepi8_mask(wv);     // q < 0
        for (int r = 0; r < R; ++r) {
          const __m512i signed_x = _mm512_mask_sub_epi8(xv[r], negative, zero, xv[r]);  // x_q with q's sign
          acc[i][r] = _mm512_dpbusd_epi32(acc[i][r], magnitude, signed_x);
        }
      }
    }
    for (int64_t i = 0; i < m; ++i)
      for (int r = 0; r < R; ++r)
        finish(a, n + i, r, static_cast<float>(_mm512_reduce_add_epi32(acc[i][r])), a.x_scales[r]);
  }
}

#pragma GCC pop_options
}  // namespace vnni_avx512

namespace int8_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

inline int32_t hsum(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

template <int R>
void rows(const Args& a, int64_t row_begin, int64_t row_end) {
  const int64_t k_pad = (a.k_len + 63) / 64 * 64;
  const int64_t k_full = a.k_len - a.k_len % 32;
  const __m256i ones = _mm256_set1_epi16(1);
  for (int64_t n = row_begin; n < row_end; n += kRows) {
    const int64_t m = std::min(kRows, row_end - n);
    __m256i acc[kRows][R];
    for (int64_t i = 0; i < kRows; ++i)
      for (int r = 0; r < R; ++r) acc[i][r] = _mm256_setzero_si256();
    const int8_t* base = a.w + n * a.k_len;
    for (int64_t k = 0; k < k_full; k += 32) {
      for (int64_t i = 0; i < m; ++i) {
        const int8_t* row = base + i * a.k_len + k;
        if (k % 64 == 0) prefetch(row, kRows * a.k_len);
        const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
        const __m256i magnitude = _mm256_sign_epi8(wv, wv);
        for (int r = 0; r < R; ++r) {
          const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.xq + r * k_pad + k));
          const __m256i pairs = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(xv, wv));  // int16, no saturation
          acc[i][r] = _mm256_add_epi32(acc[i][r], _mm256_madd_epi16(pairs, ones));
        }
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      const int8_t* row = base + i * a.k_len;
      for (int r = 0; r < R; ++r) {
        int32_t sum = hsum(acc[i][r]);
        for (int64_t k = k_full; k < a.k_len; ++k) sum += static_cast<int32_t>(row[k]) * a.xq[r * k_pad + k];
        finish(a, n + i, r, static_cast<float>(sum), a.x_scales[r]);
      }
    }
  }
}

// x rows (R, K) quantised to int8 into xq (R, K_pad, zero past K), each with its scale max |x| / 127 (1 for a
// row of zeros) in sc: q = x / scale rounded half to even, as torch.round(x / scale) does (an IEEE division, not
// a multiplication by the reciprocal, so the two agree bit for bit).
void quantize_rows(const float* x, int64_t r, int64_t k_len, int8_t* xq, float* sc) {
  const int64_t k_pad = (k_len + 63) / 64 * 64, k8 = k_len - k_len % 8;
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < r; ++i) {
    const float* row = x + i * k_len;
    __m256 top8 = _mm256_setzero_ps();
    for (int64_t k = 0; k < k8; k += 8) top8 = _mm256_max_ps(top8, _mm256_andnot_ps(sign, _mm256_loadu_ps(row + k)));
    float lanes[8];
    _mm256_storeu_ps(lanes, top8);
    float top = 0.0f;
    for (float v : lanes) top = std::max(top, v);
    for (int64_t k = k8; k < k_len; ++k) top = std::max(top, std::fabs(row[k]));
    const float scale = top > 0.0f ? top / 127.0f : 1.0f;
    sc[i] = scale;
    const __m256 scale8 = _mm256_set1_ps(scale);
    int8_t* out = xq + i * k_pad;
    for (int64_t k = 0; k < k8; k += 8) {
      const __m256 q = _mm256_round_ps(_mm256_div_ps(_mm256_loadu_ps(row + k), scale8),
                                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      const __m256i q32 = _mm256_cvtps_epi32(q);  // |q| <= 127: packing never saturates
      const __m128i q16 = _mm_packs_epi32(_mm256_castsi256_si128(q32), _mm256_extracti128_si256(q32, 1));
      const int64_t bytes = _mm_cvtsi128_si64(_mm_packs_epi16(q16, q16));
      std::memcpy(out + k, &bytes, 8);
    }
    for (int64_t k = k8; k < k_len; ++k) out[k] = static_cast<int8_t>(std::nearbyint(row[k] / scale));
    std::memset(out + k_len, 0, k_pad - k_len);
  }
}

#pragma GCC pop_options
}  // namespace int8_avx2

using RowsFn = void (*)(const Args&, int64_t, int64_t);

template <RowsFn F1, RowsFn F2, RowsFn F3, RowsFn F4, RowsFn F5, RowsFn F6, RowsFn F7, RowsFn F8>
RowsFn pick(int64_t r) {
  constexpr RowsFn table[] = {F1, F2, F3, F4, F5, F6, F7, F8};
  return table[r - 1];
}

#define ZOO_ROWS_TABLE(ns) \
  pick<ns::rows<1>, ns::rows<2>, ns::rows<3>, ns::rows<4>, ns::rows<5>, ns::rows<6>, ns::rows<7>, ns::rows<8>>

at::Tensor gemv_int8(const at::Tensor& x, const at::Tensor& qweight, const at::Tensor& scales,
                     const c10::optional<at::Tensor>& bias, int64_t mode) {
  TORCH_CHECK(qweight.dim() == 2 && qweight.is_contiguous() && qweight.scalar_type() == at::kChar,
              "zoo::gemv_int8: qweight must be a contiguous (N, K) int8 matrix, got ", qweight.scalar_type(), " ",
              qweight.sizes());
  const int64_t n_len = qweight.size(0), k_len = qweight.size(1);
  TORCH_CHECK(scales.dim() == 1 && scales.size(0) == n_len && scales.is_contiguous() &&
              scales.scalar_type() == at::kFloat, "zoo::gemv_int8: scales must be a contiguous float32 (", n_len,
              ",) vector, got ", scales.scalar_type(), " ", scales.sizes());
  int64_t r = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) r *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && r >= 1 && r <= kMaxRows && x.is_contiguous(),
              "zoo::gemv_int8: x must be 1 to ", kMaxRows, " contiguous rows of ", k_len, " features, got shape ",
              x.sizes());
  TORCH_CHECK(x.scalar_type() == at::kFloat || x.scalar_type() == at::kBFloat16,
              "zoo::gemv_int8: x must be float32 or bfloat16, got ", x.scalar_type());
  if (bias.has_value())
    TORCH_CHECK(bias->dim() == 1 && bias->size(0) == n_len && bias->is_contiguous() &&
                bias->scalar_type() == at::kFloat, "zoo::gemv_int8: bias must be a contiguous float32 (", n_len,
                ",) vector, got ", bias->scalar_type(), " ", bias->sizes());
  TORCH_CHECK(mode >= 0 && mode <= 2, "zoo::gemv_int8: mode is 0 (weight-only), 1 (AVX512-VNNI) or 2 (AVX2), got ",
              mode);
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl");
  TORCH_CHECK(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
              "zoo::gemv_int8 needs a CPU with AVX2 and FMA; this one lacks them");
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
  const int64_t blocks = (n_len + kRows - 1) / kRows;
  const int64_t grain = std::max<int64_t>(1, kMinTaskBytes / std::max<int64_t>(kRows * k_len, 1));
  at::parallel_for(0, blocks, grain, [&](int64_t begin, int64_t end) {
    fn(a, begin * kRows, std::min(end * kRows, n_len));
  });
  auto shape = x.sizes().vec();
  shape.back() = n_len;
  return y.view(shape).to(x.scalar_type());
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("gemv_int8(Tensor x, Tensor qweight, Tensor scales, Tensor? bias, int mode) -> Tensor");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv_int8", &gemv_int8); }
