// Attention of many query rows in bf16 on x86 CPUs with AVX512-BF16 (an encoder's or a prompt's attention):
// out = softmax(q k^T * scale) v, q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh) with Hkv dividing H, no mask
// or causal (query i sees keys j <= i + Tk - Tq), bf16 in and out, products summed in fp32.
//
// torch 2.10's CPU flash kernel runs bf16 at about its fp32 speed on a CPU without AMX (whisper_tiny's
// encoder, 6 heads x 1500 x 1500 x 64: 24 ms a layer in bf16, 23 ms in fp32, on a 2-core Zen 4), and its
// math path is slower still. This kernel computes both products with the AVX512-BF16 dot-product
// instruction (two bf16 products summed into each fp32 lane), the rate of a bf16 matrix multiply:
// - keys and values are first repacked per (batch, kv head) into the instruction's pair layout: keys in
//   blocks of 16, each feature pair of 16 keys one vector; values as pairs of consecutive keys, each 16
//   features of a pair one vector;
// - a task is kTileRows query rows of one head: their scores over every key it sees (fp32, scaled), the
//   exact softmax of each row (max, exp, sum; no running rescale), exp(s - max) rounded to bf16 as torch's
//   flash kernel rounds it for its second product, then those times the values, divided by the row's sum
//   (fp32) and rounded to bf16 once.
// Memory: the packed copies of k and v, and per thread kTileRows rows of scores and probabilities (6 bytes
// a key a row), so it grows with Tk, never Tq x Tk. Like every AVX512-BF16 dot product it treats denormal inputs as zero.
// Registered as zoo::bf16_attention(Tensor q, Tensor k, Tensor v, float scale, bool causal) -> Tensor, and as
// zoo::bf16_attention_lse (the same, and each row's log-sum-exp: the forward of a training step).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <immintrin.h>
#include <torch/library.h>

#include "attention_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace {

constexpr int64_t kTileRows = 8;   // query rows per task (scores: 8 rows x 32 keys of accumulators)
constexpr int64_t kKeyBlock = 16;  // keys per vector of scores
constexpr int64_t kMaxHeadDim = 256;

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512bf16")

#include "cephes_exp.inc"  // cephes_exp, compiled for this target

inline __m512 exp16(__m512 x) { return cephes_exp(x); }

// Two consecutive bf16 (one 32-bit pair) in every lane: the operand the dot product pairs with a vector.
inline __m512bh pair(const std::uint16_t* p) {
  std::int32_t bits;
  std::memcpy(&bits, p, sizeof(bits));
  return (__m512bh)_mm512_set1_epi32(bits);
}

inline __m512bh load_bh(const std::uint16_t* p) { return (__m512bh)_mm512_loadu_si512(p); }

inline void store_bf16(std::uint16_t* out, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), (__m256i)_mm512_cvtneps_pbh(v));
}

// Scores of R query rows (q: R rows of dh bf16, contiguous) over `blocks` blocks of 16 packed keys, times
// scale, into s (row r at s + r * ld). Two key blocks at a time: 2R accumulators.
template <int R>
void scores_tile(const std::uint16_t* q, const std::uint16_t* kp, int64_t blocks, int64_t dh, float scale,
                 float* s, int64_t ld) {
  const int64_t pairs = dh / 2, block_elems = pairs * 32;
  const __m512 sc = _mm512_set1_ps(scale);
  int64_t blk = 0;
  for (; blk + 2 <= blocks; blk += 2) {
    __m512 acc[R][2];
    for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    const std::uint16_t* k0 = kp + blk * block_elems;
    const std::uint16_t* k1 = k0 + block_elems;
    for (int64_t p = 0; p < pairs; ++p) {
      const __m512bh a0 = load_bh(k0 + p * 32), a1 = load_bh(k1 + p * 32);
      for (int r = 0; r < R; ++r) {
        const __m512bh b = pair(q + r * dh + 2 * p);
        acc[r][0] = _mm512_dpbf16_ps(acc[r][0], a0, b);
        acc[r][1] = _mm512_dpbf16_ps(acc[r][1], a1, b);
      }
    }
    for (int r = 0; r < R; ++r) {
      _mm512_storeu_ps(s + r * ld + blk * kKeyBlock, _mm512_mul_ps(acc[r][0], sc));
      _mm512_storeu_ps(s + r * ld + (blk + 1) * kKeyBlock, _mm512_mul_ps(acc[r][1], sc));
    }
  }
  if (blk < blocks) {
    __m512 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
    const std::uint16_t* k0 = kp + blk * block_elems;
    for (int64_t p = 0; p < pairs; ++p) {
      const __m512bh a0 = load_bh(k0 + p * 32);
      for (int r = 0; r < R; ++r) acc[r] = _mm512_dpbf16_ps(acc[r], a0, pair(q + r * dh + 2 * p));
    }
    for (int r = 0; r < R; ++r) _mm512_storeu_ps(s + r * ld + blk * kKeyBlock, _mm512_mul_ps(acc[r], sc));
  }
}

// One row's softmax numerators: p[j] = bf16(exp(s[j] - max)) for j < valid, 0 for valid <= j < width (width
// even); returns the fp32 sum of the exps, and the max in *row_max.
float softmax_row(const float* s, int64_t valid, int64_t width, std::uint16_t* p, float* row_max) {
  __m512 m = _mm512_set1_ps(-INFINITY);
  int64_t j = 0;
  for (; j + 16 <= valid; j += 16) m = _mm512_max_ps(m, _mm512_loadu_ps(s + j));
  const __mmask16 tail = static_cast<__mmask16>((1u << (valid - j)) - 1);
  if (j < valid) m = _mm512_mask_max_ps(m, tail, m, _mm512_maskz_loadu_ps(tail, s + j));
  *row_max = _mm512_reduce_max_ps(m);
  const __m512 top = _mm512_set1_ps(*row_max);
  __m512 total = _mm512_setzero_ps();
  for (j = 0; j + 16 <= valid; j += 16) {
    const __m512 e = exp16(_mm512_sub_ps(_mm512_loadu_ps(s + j), top));
    total = _mm512_add_ps(total, e);
    store_bf16(p + j, e);
  }
  if (j < valid) {
    const __m512 e = _mm512_maskz_mov_ps(tail, exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, s + j), top)));
    total = _mm512_add_ps(total, e);
    std::uint16_t last[16];
    store_bf16(last, e);
    std::memcpy(p + j, last, (valid - j) * sizeof(std::uint16_t));
    j = valid;
  }
  std::fill(p + j, p + width, std::uint16_t{0});
  return _mm512_reduce_add_ps(total);
}

// out rows (R of them, row r at out + r * ld_out) = (p rows times the packed values over `pairs` key pairs)
// / sums, features [d0, d0 + 16 * NV) of dh, rounded to bf16.
template <int R, int NV>
void values_tile(const std::uint16_t* p, int64_t ld_p, const std::uint16_t* vp, int64_t pairs, int64_t dh,
                 int64_t d0, const float* sums, std::uint16_t* out, int64_t ld_out) {
  __m512 acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_setzero_ps();
  for (int64_t j = 0; j < pairs; ++j) {
    __m512bh v[NV];
    for (int c = 0; c < NV; ++c) v[c] = load_bh(vp + (j * dh + d0 + 16 * c) * 2);
    for (int r = 0; r < R; ++r) {
      const __m512bh b = pair(p + r * ld_p + 2 * j);
      for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_dpbf16_ps(acc[r][c], v[c], b);
    }
  }
  for (int r = 0; r < R; ++r) {
    const __m512 inv = _mm512_set1_ps(1.0f / sums[r]);
    for (int c = 0; c < NV; ++c) store_bf16(out + r * ld_out + d0 + 16 * c, _mm512_mul_ps(acc[r][c], inv));
  }
}

#pragma GCC pop_options

// Keys of one (batch, kv head) into blocks of 16: pair p of key i of block b at kp[((b * pairs + p) * 16 + i)
// * 2]; keys past tk are zero. A pair is copied as one 32-bit word.
void pack_keys(const std::uint16_t* k, int64_t step, int64_t tk, int64_t dh, std::uint16_t* kp) {
  const int64_t pairs = dh / 2, blocks = (tk + kKeyBlock - 1) / kKeyBlock;
  std::memset(kp, 0, blocks * kKeyBlock * dh * sizeof(std::uint16_t));
  for (int64_t j = 0; j < tk; ++j) {
    const int64_t b = j / kKeyBlock, i = j % kKeyBlock;
    for (int64_t p = 0; p < pairs; ++p) std::memcpy(kp + ((b * pairs + p) * kKeyBlock + i) * 2, k + j * step + 2 * p, 4);
  }
}

// Values of one (batch, kv head) as pairs of keys: feature d of keys 2j and 2j + 1 at vp[(j * dh + d) * 2]
// and the element after it; a missing last key is zero.
void pack_values(const std::uint16_t* v, int64_t step, int64_t tk, int64_t dh, std::uint16_t* vp) {
  for (int64_t j = 0; 2 * j < tk; ++j) {
    const std::uint16_t* a = v + 2 * j * step;
    const std::uint16_t* b = 2 * j + 1 < tk ? a + step : nullptr;
    std::uint16_t* o = vp + j * dh * 2;
    for (int64_t d = 0; d < dh; ++d) {
      o[2 * d] = a[d];
      o[2 * d + 1] = b != nullptr ? b[d] : std::uint16_t{0};
    }
  }
}

// out, and (with_lse) each row's log-sum-exp of its scaled scores, (B, H, Tq) fp32: what torch's CPU flash
// backward reads (attention_kernel.py trains through it).
std::tuple<at::Tensor, at::Tensor> attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                             double scale, bool causal, bool with_lse) {
  check_attention_shapes("zoo::bf16_attention", q, k, v);
  TORCH_CHECK(q.scalar_type() == at::kBFloat16 && k.scalar_type() == at::kBFloat16 &&
              v.scalar_type() == at::kBFloat16, "zoo::bf16_attention: q, k and v must all be bfloat16, got q ",
              q.scalar_type(), ", k ", k.scalar_type(), ", v ", v.scalar_type());
  TORCH_CHECK(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
              __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16"),
              "zoo::bf16_attention needs a CPU with AVX512-BF16; this one has none");
  const int64_t b = q.size(0), h = q.size(1), tq = q.size(2), dh = q.size(3);
  const int64_t hkv = k.size(1), tk = k.size(2);
  TORCH_CHECK(tq >= 1 && tk >= 1 && dh % 32 == 0 && dh <= kMaxHeadDim && (!causal || tq <= tk),
              "zoo::bf16_attention takes at least one query row and key, a head width that is a multiple of 32 "
              "up to ", kMaxHeadDim, ", and (causal) no more queries than keys; got q ", q.sizes(), ", k ",
              k.sizes());
  const int64_t blocks = (tk + kKeyBlock - 1) / kKeyBlock, padded = blocks * kKeyBlock;
  const int64_t packed = padded * dh;  // elements per (batch, kv head), keys and values alike
  // Torch tensors rather than vectors, so torch's allocator and profiler count them (the benchmark's peak).
  // Every element read is written by the packing (pack_values writes up to the last key pair).
  at::Tensor kp_tensor = at::empty({b * hkv * packed}, q.options()), vp_tensor = at::empty_like(kp_tensor);
  auto* kp = static_cast<std::uint16_t*>(kp_tensor.data_ptr());
  auto* vp = static_cast<std::uint16_t*>(vp_tensor.data_ptr());
  const auto* kdata = static_cast<const std::uint16_t*>(k.const_data_ptr());
  const auto* vdata = static_cast<const std::uint16_t*>(v.const_data_ptr());
  at::parallel_for(0, b * hkv, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t bi = i / hkv, hi = i % hkv;
      pack_keys(kdata + bi * k.stride(0) + hi * k.stride(1), k.stride(2), tk, dh, kp + i * packed);
      pack_values(vdata + bi * v.stride(0) + hi * v.stride(1), v.stride(2), tk, dh, vp + i * packed);
    }
  });
  at::Tensor out = at::empty({b, h, tq, dh}, q.options());
  at::Tensor lse = at::empty({with_lse ? b : 0, h, tq}, q.options().dtype(at::kFloat));
  float* lse_data = with_lse ? lse.data_ptr<float>() : nullptr;
  const auto* qdata = static_cast<const std::uint16_t*>(q.const_data_ptr());
  auto* odata = static_cast<std::uint16_t*>(out.data_ptr());
  const int64_t tiles = (tq + kTileRows - 1) / kTileRows, group = h / hkv, offset = tk - tq;
  const float sc = static_cast<float>(scale);
  at::parallel_for(0, b * h * tiles, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> s(kTileRows * padded), sums(kTileRows), maxes(kTileRows);
    std::vector<std::uint16_t> p(kTileRows * padded), qt(kTileRows * dh), ot(kTileRows * dh);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t bh = task / tiles, t0 = (task % tiles) * kTileRows, bi = bh / h, hi = bh % h;
      const int64_t rows = std::min(kTileRows, tq - t0);
      const std::uint16_t* qrow = qdata + bi * q.stride(0) + hi * q.stride(1) + t0 * q.stride(2);
      std::fill(qt.begin(), qt.end(), std::uint16_t{0});  // missing rows of the last tile: zeros, not stored
      for (int64_t r = 0; r < rows; ++r) std::memcpy(qt.data() + r * dh, qrow + r * q.stride(2), dh * 2);
      // Keys each row sees: all, or (causal) up to its own position + offset.
      const int64_t seen = causal ? std::min(tk, t0 + rows + offset) : tk;
      const int64_t width = (seen + 1) / 2 * 2;  // probabilities written up to a whole pair
      const int64_t kv = bi * hkv + hi / group;
      scores_tile<kTileRows>(qt.data(), kp + kv * packed, (seen + kKeyBlock - 1) / kKeyBlock, dh, sc,
                             s.data(), padded);
      for (int64_t r = 0; r < kTileRows; ++r) {
        const int64_t valid = r < rows ? (causal ? std::min(tk, t0 + r + offset + 1) : tk) : 1;
        sums[r] = softmax_row(s.data() + r * padded, valid, width, p.data() + r * padded, &maxes[r]);
      }
      const std::uint16_t* values = vp + kv * packed;
      for (int64_t d0 = 0; d0 < dh; d0 += 32) {
        values_tile<kTileRows, 2>(p.data(), padded, values, width / 2, dh, d0, sums.data(), ot.data(), dh);
      }
      std::uint16_t* orow = odata + (bh * tq + t0) * dh;
      std::memcpy(orow, ot.data(), rows * dh * sizeof(std::uint16_t));
      if (lse_data != nullptr) {
        for (int64_t r = 0; r < rows; ++r) lse_data[bh * tq + t0 + r] = maxes[r] + std::log(sums[r]);
      }
    }
  });
  return {out, lse};
}

at::Tensor bf16_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale,
                          bool causal) {
  return std::get<0>(attention(q, k, v, scale, causal, false));
}

std::tuple<at::Tensor, at::Tensor> bf16_attention_lse(const at::Tensor& q, const at::Tensor& k,
                                                      const at::Tensor& v, double scale, bool causal) {
  return attention(q, k, v, scale, causal, true);
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("bf16_attention(Tensor q, Tensor k, Tensor v, float scale, bool causal) -> Tensor");
  m.def("bf16_attention_lse(Tensor q, Tensor k, Tensor v, float scale, bool causal) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) {
  m.impl("bf16_attention", &bf16_attention);
  m.impl("bf16_attention_lse", &bf16_attention_lse);
}
