// One-row bf16 linear layers for batch-1 decoding on x86 CPUs with AVX512-BF16: y = x W^T + b, where
// x holds a single row of K features and W is nn.Linear's (N, K) weight, read in place (no packed copy).
//
// Decoding one token reads every weight once, so these products are bound by memory bandwidth; the
// kernel streams 4 weight rows at a time per thread (4 independent streams), prefetching the same
// offsets of the next 4 rows, and splits the rows across torch's intra-op threads. It uses AVX512-BF16's
// dot-product instruction with fp32 accumulation, rounded to bf16 once at the end as F.linear does
// (that instruction treats denormal inputs and partial sums as zero; F.linear keeps them).
// fp32 has no kernel here: torch's GEMM on a transposed copy of the weight already streams as fast.
// Registered as the operator zoo::gemv(Tensor x, Tensor weight, Tensor? bias) -> Tensor.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <immintrin.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>

namespace {

// Weight rows streamed together by one thread. While it reads a block of kRows rows it prefetches the
// next block: one block ahead rather than a fixed distance, since a bf16 row of 768 features is only
// 1.5 KB (over gpt2's matrices in turn, +20% over prefetching 2 KB ahead).
constexpr int64_t kRows = 4;
constexpr int64_t kMinTaskBytes = 1 << 16;  // smallest share of the weight worth a thread

struct BF16 {
  using T = at::BFloat16;
  static constexpr int64_t kStep = 32;  // elements per 512-bit load
  static __m512 fma(__m512 acc, const T* w, const T* x, int64_t left) {
    __m512i wv, xv;
    if (left >= kStep) {
      wv = _mm512_loadu_si512(w);
      xv = _mm512_loadu_si512(x);
    } else {  // masked-off lanes load as 0 and add nothing
      __mmask32 m = (__mmask32)((1ull << left) - 1);
      wv = _mm512_maskz_loadu_epi16(m, w);
      xv = _mm512_maskz_loadu_epi16(m, x);
    }
    return _mm512_dpbf16_ps(acc, (__m512bh)wv, (__m512bh)xv);
  }
  static T store(float v) { return T(v); }  // round to nearest even, as F.linear's output
};

template <typename K>
void gemv_rows(const typename K::T* x, const typename K::T* w, const typename K::T* bias,
               typename K::T* y, int64_t row_begin, int64_t row_end, int64_t k_len) {
  using T = typename K::T;
  const std::uintptr_t block_bytes = static_cast<std::uintptr_t>(kRows * k_len) * sizeof(T);
  for (int64_t n = row_begin; n < row_end; n += kRows) {
    const int64_t rows = std::min(kRows, row_end - n);
    __m512 acc[kRows];
    for (int64_t r = 0; r < kRows; ++r) acc[r] = _mm512_setzero_ps();
    const T* base = w + n * k_len;
    for (int64_t k = 0; k < k_len; k += K::kStep) {
      const int64_t left = k_len - k;
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = base + r * k_len + k;
        // Next block's same offset; past the weight's end for the last block, which a prefetch never
        // faults on (the address is formed as an integer, so no out-of-range pointer is made).
        _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(row) + block_bytes),
                     _MM_HINT_T0);
        acc[r] = K::fma(acc[r], row, x + k, left);
      }
    }
    for (int64_t r = 0; r < rows; ++r) {
      float v = _mm512_reduce_add_ps(acc[r]);
      if (bias != nullptr) v += static_cast<float>(bias[n + r]);
      y[n + r] = K::store(v);
    }
  }
}

template <typename K>
void gemv_parallel(const at::Tensor& x, const at::Tensor& w, const c10::optional<at::Tensor>& bias,
                   at::Tensor& y) {
  using T = typename K::T;
  const int64_t n_len = w.size(0), k_len = w.size(1);
  const T* xp = x.data_ptr<T>();
  const T* wp = w.data_ptr<T>();
  const T* bp = bias.has_value() ? bias->data_ptr<T>() : nullptr;
  T* yp = y.data_ptr<T>();
  const int64_t blocks = (n_len + kRows - 1) / kRows;
  const int64_t block_bytes = kRows * k_len * static_cast<int64_t>(sizeof(T));
  const int64_t grain = std::max<int64_t>(1, kMinTaskBytes / std::max<int64_t>(block_bytes, 1));
  at::parallel_for(0, blocks, grain, [&](int64_t begin, int64_t end) {
    gemv_rows<K>(xp, wp, bp, yp, begin * kRows, std::min(end * kRows, n_len), k_len);
  });
}

at::Tensor gemv(const at::Tensor& x, const at::Tensor& weight, const c10::optional<at::Tensor>& bias) {
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous(), "zoo::gemv: weight must be a contiguous (N, K) "
              "matrix, got shape ", weight.sizes(), (weight.is_contiguous() ? "" : " (not contiguous)"));
  const int64_t n_len = weight.size(0), k_len = weight.size(1);
  int64_t rows = 1;  // the product of x's leading dims (not numel / K: K may be 0)
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.size(d);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && rows == 1 && x.is_contiguous(),
              "zoo::gemv: x must be one contiguous row of ", k_len, " features, got shape ", x.sizes());
  TORCH_CHECK(x.scalar_type() == weight.scalar_type(), "zoo::gemv: x is ", x.scalar_type(),
              " but weight is ", weight.scalar_type());
  TORCH_CHECK(x.scalar_type() == at::kBFloat16, "zoo::gemv: bfloat16 only, got ", x.scalar_type());
  if (bias.has_value()) {
    TORCH_CHECK(bias->dim() == 1 && bias->size(0) == n_len && bias->is_contiguous() &&
                bias->scalar_type() == x.scalar_type(),
                "zoo::gemv: bias must be a contiguous (", n_len, ",) vector of ", x.scalar_type(),
                ", got ", bias->scalar_type(), " ", bias->sizes());
  }
  auto out_shape = x.sizes().vec();
  out_shape.back() = n_len;
  at::Tensor y = at::empty(out_shape, x.options());
  gemv_parallel<BF16>(x, weight, bias, y);
  return y;
}

}  // namespace

TORCH_LIBRARY(zoo, m) { m.def("gemv(Tensor x, Tensor weight, Tensor? bias) -> Tensor"); }

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemv", &gemv); }
