// Attention of a few query rows over a long cache, for decoding on x86 CPUs with AVX2 + FMA, fp32 or bf16
// tensors (arithmetic in fp32 either way, as torch's kernels do for bf16):
// out = softmax(q k^T * scale) v, q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh) with Hkv dividing H, no mask.
//
// A decoding step asks for 1 (or, with beams folded into one query, a few) rows of attention over every
// cached key: a Whisper decoder's cross-attention reads its 1500 cached keys and values per layer per token.
// That is bound by reading k and v, which a step finds cold. torch's flash kernel reads them at about half
// the machine's bandwidth there (it tiles for long queries); this reads each head's keys once for all its
// query rows, then its values once, with software prefetching, one (batch, head) per task on torch's
// intra-op threads. Scores and the softmax stay in fp32, as torch's; exp is a polynomial (Cephes' expf,
// relative error below 2e-7), so results equal torch's up to rounding.
// Registered as zoo::decode_attention(Tensor q, Tensor k, Tensor v, float scale) -> Tensor.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <immintrin.h>
#include <torch/library.h>

#include "attention_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

constexpr int64_t kMaxQueries = 16;   // query rows per head this kernel takes (more: torch's kernels)
constexpr int64_t kMaxHeadDim = 256;
constexpr int64_t kAheadRows = 8;     // keys / values prefetched ahead of the one being read

#pragma GCC push_options
#pragma GCC target("avx2,fma")

#include "cephes_exp.inc"  // cephes_exp, compiled for this target

inline __m256 exp8(__m256 x) { return cephes_exp(x); }

#include "avx2_reduce.inc"  // sum8, max8

// Prefetch `elements` past `row`: formed as an integer, so an address past the tensor's end (the last rows)
// is never a pointer (a prefetch never faults on it).
template <typename T>
void prefetch(const T* row, int64_t elements) {
  _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(row) + elements * sizeof(T)),
               _MM_HINT_T0);
}

// 8 consecutive elements as fp32: floats as they are, bf16 (its bits in uint16_t) widened by a 16-bit shift.
inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
inline __m256 load8(const std::uint16_t* p) {
  const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}

constexpr int64_t kLineBytes = 64;

// One (batch, head): `tq` query rows q[t * dh] (fp32), keys / values k[j * k_step], v[j * v_step] (j < tk) of
// element type T, each row `dh` contiguous elements (dh a multiple of 8); fp32 out rows out[t * dh].
// scores: tq x tk scratch floats.
template <typename T>
void attend_head(const float* q, const T* k, int64_t k_step, const T* v, int64_t v_step,
                 float* out, int64_t tq, int64_t tk, int64_t dh, float scale, float* scores) {
  constexpr int64_t line = kLineBytes / sizeof(T);  // elements per cache line
  // Scores: every key read once for all query rows.
  for (int64_t j = 0; j < tk; ++j) {
    const T* key = k + j * k_step;
    for (int64_t c = 0; c < dh; c += line) prefetch(key, kAheadRows * k_step + c);
    for (int64_t t = 0; t < tq; ++t) {
      const float* query = q + t * dh;
      __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
      int64_t d = 0;
      for (; d + 16 <= dh; d += 16) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(query + d), load8(key + d), a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(query + d + 8), load8(key + d + 8), a1);
      }
      if (d < dh) a0 = _mm256_fmadd_ps(_mm256_loadu_ps(query + d), load8(key + d), a0);
      scores[t * tk + j] = sum8(_mm256_add_ps(a0, a1)) * scale;
    }
  }
  // Softmax of each row: exp(s - max) / sum, in place.
  for (int64_t t = 0; t < tq; ++t) {
    float* s = scores + t * tk;
    float top = -INFINITY;
    int64_t j = 0;
    __m256 m = _mm256_set1_ps(-INFINITY);
    for (; j + 8 <= tk; j += 8) m = _mm256_max_ps(m, _mm256_loadu_ps(s + j));
    top = max8(m);
    for (; j < tk; ++j) top = std::max(top, s[j]);
    const __m256 top8 = _mm256_set1_ps(top);
    __m256 total8 = _mm256_setzero_ps();
    for (j = 0; j + 8 <= tk; j += 8) {
      const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(s + j), top8));
      _mm256_storeu_ps(s + j, e);
      total8 = _mm256_add_ps(total8, e);
    }
    float total = sum8(total8);
    for (; j < tk; ++j) {
      s[j] = std::exp(s[j] - top);
      total += s[j];
    }
    const float inv = 1.0f / total;
    for (j = 0; j < tk; ++j) s[j] *= inv;
  }
  // Outputs: every value read once for all query rows, accumulated in the (L1-resident) output rows.
  std::fill(out, out + tq * dh, 0.0f);
  for (int64_t j = 0; j < tk; ++j) {
    const T* value = v + j * v_step;
    for (int64_t c = 0; c < dh; c += line) prefetch(value, kAheadRows * v_step + c);
    for (int64_t t = 0; t < tq; ++t) {
      const __m256 p = _mm256_set1_ps(scores[t * tk + j]);
      float* o = out + t * dh;
      for (int64_t d = 0; d < dh; d += 8) {
        _mm256_storeu_ps(o + d, _mm256_fmadd_ps(p, load8(value + d), _mm256_loadu_ps(o + d)));
      }
    }
  }
}

#pragma GCC pop_options

inline float to_float(float x) { return x; }
inline float to_float(std::uint16_t bits) { return static_cast<float>(c10::BFloat16(bits, c10::BFloat16::from_bits())); }

// Every (batch, head) of one dtype: T is float, or uint16_t holding bf16 bits. The query rows are read into
// fp32 first (tq x dh, small); bf16 outputs are accumulated in fp32 and rounded once (to nearest even).
template <typename T>
void attend_all(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, at::Tensor& out, float scale) {
  const int64_t b = q.size(0), h = q.size(1), tq = q.size(2), dh = q.size(3), tk = k.size(2);
  const int64_t group = h / k.size(1);
  const auto* kp = static_cast<const T*>(k.const_data_ptr());
  const auto* vp = static_cast<const T*>(v.const_data_ptr());
  const auto* qp = static_cast<const T*>(q.const_data_ptr());
  auto* op = static_cast<T*>(out.data_ptr());
  at::parallel_for(0, b * h, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> scores(tq * tk), query(tq * dh), result(tq * dh);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t bi = task / h, hi = task % h, kv = hi / group;
      const T* qrow = qp + bi * q.stride(0) + hi * q.stride(1);
      for (int64_t t = 0; t < tq; ++t)
        for (int64_t d = 0; d < dh; ++d) query[t * dh + d] = to_float(qrow[t * q.stride(2) + d]);
      T* o = op + (bi * h + hi) * tq * dh;
      float* acc = std::is_same_v<T, float> ? reinterpret_cast<float*>(o) : result.data();
      attend_head(query.data(), kp + bi * k.stride(0) + kv * k.stride(1), k.stride(2),
                  vp + bi * v.stride(0) + kv * v.stride(1), v.stride(2), acc, tq, tk, dh, scale, scores.data());
      if constexpr (!std::is_same_v<T, float>) {
        for (int64_t i = 0; i < tq * dh; ++i) o[i] = c10::BFloat16(acc[i]).x;
      }
    }
  });
}

at::Tensor decode_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale) {
  check_attention_shapes("zoo::decode_attention", q, k, v);
  const bool bf16 = q.scalar_type() == at::kBFloat16;
  TORCH_CHECK((q.scalar_type() == at::kFloat || bf16) && k.scalar_type() == q.scalar_type() &&
              v.scalar_type() == q.scalar_type(),
              "zoo::decode_attention: q, k and v all float32 or all bfloat16, got q ", q.scalar_type(), ", k ",
              k.scalar_type(), ", v ", v.scalar_type());
  TORCH_CHECK(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
              "zoo::decode_attention needs a CPU with AVX2 and FMA; this one lacks them");
  const int64_t b = q.size(0), h = q.size(1), tq = q.size(2), dh = q.size(3);
  const int64_t hkv = k.size(1), tk = k.size(2);
  TORCH_CHECK(tq >= 1 && tq <= kMaxQueries && tk >= 1 && dh % 8 == 0 && dh <= kMaxHeadDim,
              "zoo::decode_attention takes 1 to ", kMaxQueries, " query rows, at least one key and a head width "
              "that is a multiple of 8 up to ", kMaxHeadDim, "; got q ", q.sizes(), ", k ", k.sizes());
  at::Tensor out = at::empty({b, h, tq, dh}, q.options());
  if (bf16) {
    attend_all<std::uint16_t>(q, k, v, out, static_cast<float>(scale));
  } else {
    attend_all<float>(q, k, v, out, static_cast<float>(scale));
  }
  return out;
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) { m.def("decode_attention(Tensor q, Tensor k, Tensor v, float scale) -> Tensor"); }

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("decode_attention", &decode_attention); }
