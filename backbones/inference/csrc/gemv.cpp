// Few-row linear layers for decoding on x86 CPUs: y = x W^T + b, where x holds 1 to kMaxRows rows of K
// features (batch-1 decoding: one; a small batch: a few) and W is nn.Linear's (N, K) weight, read in place
// (no packed copy) and once for all rows.
//
// Decoding one token reads every weight once, so these products are bound by memory bandwidth; the
// kernels stream weight rows with software prefetching (how many at a time and how far ahead: each
// kernel's kRows and kAhead) and split the rows across torch's intra-op threads.
// - bf16 (AVX512-BF16): the dot-product instruction with fp32 accumulation, rounded to bf16 once at the
//   end as F.linear does (that instruction treats denormal inputs and partial sums as zero; F.linear
//   keeps them).
// - fp32 (AVX2 + FMA): fp32 fused multiply-adds. The weights of one decoder layer are a few hundred KB
//   to a few MB and, by the time a token reaches them, no longer in cache: torch's GEMV streams such a
//   cold matrix at 6-15 GB/s on a 2-core EPYC, this kernel at 15-25 GB/s.
// Each kernel is compiled for its own instruction set (the target pragmas below), so one build serves
// every x86-64 CPU; gemv() checks at run time that the CPU has the set a dtype needs.
// Registered as the operator zoo::gemv(Tensor x, Tensor weight, Tensor? bias) -> Tensor.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <immintrin.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr int64_t kMinTaskBytes = 1 << 16;  // smallest share of the weight worth a thread
constexpr int64_t kMaxRows = 8;             // input rows per call (gemv_rows_any's instantiations)
constexpr std::uintptr_t kLine = 64;        // bytes per cache line: one prefetch per line

namespace bf16_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512bf16")

struct BF16 {
  using T = at::BFloat16;
  using Acc = __m512;
  // 4 rows streamed together; while it reads a block of them a thread prefetches the next block: one block
  // ahead rather than a fixed distance, since a bf16 row of 768 features is only 1.5 KB (over gpt2's
  // matrices in turn, +20% over prefetching 2 KB ahead; a 2-core Sapphire Rapids).
  static constexpr int64_t kRows = 4;
  static constexpr std::uintptr_t kAhead = 0;
  static constexpr int64_t kStep = 32;  // elements per 512-bit load
  static Acc zero() { return _mm512_setzero_ps(); }
  static Acc fma(Acc acc, const T* w, const T* x) {
    return _mm512_dpbf16_ps(acc, (__m512bh)_mm512_loadu_si512(w), (__m512bh)_mm512_loadu_si512(x));
  }
  static Acc fma_tail(Acc acc, const T* w, const T* x, int64_t left) {
    const __mmask32 m = (__mmask32)((1ull << left) - 1);  // masked-off lanes load as 0 and add nothing
    const __m512i wv = _mm512_maskz_loadu_epi16(m, w), xv = _mm512_maskz_loadu_epi16(m, x);
    return _mm512_dpbf16_ps(acc, (__m512bh)wv, (__m512bh)xv);
  }
  static float reduce(Acc acc) { return _mm512_reduce_add_ps(acc); }
  static T store(float v) { return T(v); }  // round to nearest even, as F.linear's output
};

#include "gemv_rows.inc"  // gemv_rows<K>, compiled for this target

void rows(int64_t r, const at::BFloat16* x, const at::BFloat16* w, const at::BFloat16* bias, at::BFloat16* y,
          int64_t row_begin, int64_t row_end, int64_t k_len, int64_t n_len) {
  gemv_rows_any<BF16>(r, x, w, bias, y, row_begin, row_end, k_len, n_len);
}

#pragma GCC pop_options
}  // namespace bf16_avx512

namespace f32_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")

struct F32 {
  using T = float;
  using Acc = __m256;
  // One row at a time, prefetching 8 KB ahead: over whisper_tiny's decoder matrices and its 51865 x 384
  // head on a 2-core EPYC, 5-30% faster than 4 rows at a time (which the bf16 kernel streams).
  static constexpr int64_t kRows = 1;
  static constexpr std::uintptr_t kAhead = 8192;
  static constexpr int64_t kStep = 8;  // elements per 256-bit load
  static Acc zero() { return _mm256_setzero_ps(); }
  static Acc fma(Acc acc, const T* w, const T* x) {
    return _mm256_fmadd_ps(_mm256_loadu_ps(w), _mm256_loadu_ps(x), acc);
  }
  static Acc fma_tail(Acc acc, const T* w, const T* x, int64_t left) {
    // Lanes at or past `left` are masked off: they load as 0 (and never fault) and add nothing.
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(left)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_fmadd_ps(_mm256_maskload_ps(w, mask), _mm256_maskload_ps(x, mask), acc);
  }
  static float reduce(Acc acc) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
  }
  static T store(float v) { return v; }
};

#include "gemv_rows.inc"  // gemv_rows<K>, compiled for this target

void rows(int64_t r, const float* x, const float* w, const float* bias, float* y, int64_t row_begin,
          int64_t row_end, int64_t k_len, int64_t n_len) {
  gemv_rows_any<F32>(r, x, w, bias, y, row_begin, row_end, k_len, n_len);
}

#pragma GCC pop_options
}  // namespace f32_avx2


template <typename T, typename Rows>
void gemv_parallel(const at::Tensor& x, const at::Tensor& w, const c10::optional<at::Tensor>& bias,
                   at::Tensor& y, int64_t r, Rows rows) {
  const int64_t n_len = w.size(0), k_len = w.size(1);
  const T* xp = x.data_ptr<T>();
  const T* wp = w.data_ptr<T>();
  const T* bp = bias.has_value() ? bias->data_ptr<T>() : nullptr;
  T* yp = y.data_ptr<T>();
  constexpr int64_t kTaskRows = 4;  // rows per unit of work: a multiple of every kernel's kRows
  const int64_t blocks = (n_len + kTaskRows - 1) / kTaskRows;
  const int64_t block_bytes = kTaskRows * k_len * static_cast<int64_t>(sizeof(T));
  const int64_t grain = std::max<int64_t>(1, kMinTaskBytes / std::max<int64_t>(block_bytes, 1));
  at::parallel_for(0, blocks, grain, [&](int64_t begin, int64_t end) {
    rows(r, xp, wp, bp, yp, begin * kTaskRows, std::min(end * kTaskRows, n_len), k_len, n_len);
  });
}

at::Tensor gemv(const at::Tensor& x, const at::Tensor& weight, const c10::optional<at::Tensor>& bias) {
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous(), "zoo::gemv: weight must be a contiguous (N, K) "
              "matrix, got shape ", weight.sizes(), (weight.is_contiguous() ? "" : " (not contiguous)"));
  const int64_t n_len = weight.size(0), k_len = weight.size(1);
  int64_t rows = 1;  // the product of x's leading dims (not numel / K: K may be 0)
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && rows >= 1 && rows <= kMaxRows && x.is_contiguous(),
              "zoo::gemv: x must be 1 to ", kMaxRows, " contiguous rows of ", k_len, " features, got shape ",
              x.sizes());
  TORCH_CHECK(x.scalar_type() == weight.scalar_type(), "zoo::gemv: x is ", x.scalar_type(),
              " but weight is ", weight.scalar_type());
  const bool bf16 = x.scalar_type() == at::kBFloat16;
  TORCH_CHECK(bf16 || x.scalar_type() == at::kFloat, "zoo::gemv: bfloat16 or float32 only, got ",
              x.scalar_type());
  if (bf16) {
    TORCH_CHECK(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16"),
                "zoo::gemv: bfloat16 needs a CPU with AVX512-BF16; this one has none");
  } else {
    TORCH_CHECK(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
                "zoo::gemv: float32 needs a CPU with AVX2 and FMA; this one lacks them");
  }
  if (bias.has_value()) {
    TORCH_CHECK(bias->dim() == 1 && bias->size(0) == n_len && bias->is_contiguous() &&
                bias->scalar_type() == x.scalar_type(),
                "zoo::gemv: bias must be a contiguous (", n_len, ",) vector of ", x.scalar_type(),
                ", got ", bias->scalar_type(), " ", bias->sizes());
  }
  auto out_shape = x.sizes().vec();
  out_shape.back() = n_len;
  at::Tensor y = at::empty(out_shape, x.options());
  if (bf16) {
    gemv_parallel<at::BFloat16>(x, weight, bias, y, rows, bf16_avx512::rows);
  } else {
    gemv_parallel<float>(x, weight, bias, y, rows, f32_avx2::rows);
  }
  return y;
}

}  // namespace

TORCH_LIBRARY(zoo, m) { m.def("gemv(Tensor x, Tensor weight, Tensor? bias) -> Tensor"); }

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv", &gemv); }
