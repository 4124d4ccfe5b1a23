// Attention of many query rows in fp32 on x86 CPUs with AVX2 + FMA and no AVX-512 (an encoder's or a prompt's
// attention): out = softmax(q k^T * scale) v, q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh) with Hkv dividing H, no
// mask or causal (query i sees keys j <= i + Tk - Tq), fp32 in and out.
//
// torch 2.10's CPU flash kernel pays per-call and per-block costs that dominate from 17 to a few hundred keys;
// there this takes 0.5-0.7x its time. On long sequences both run near the FMA units' rate (Whisper base's encoder,
// 8 heads x 1500 x 1500 x 64 on a 2-core Zen 3: level; docs/notes/2026-12-08-f32-attention.md). Both products run
// as register tiles of FMAs:
// - keys are first repacked per (batch, kv head) into blocks of 8, feature d of the block's 8 keys one vector (zero
//   keys pad the last block); values are read where they are (rows of Dh contiguous floats);
// - a task is kTileRows query rows of one head: their scores over every key they see (4 rows x 24 keys of
//   accumulators, one FMA a key block a row per feature), the exact softmax of each row (max, exp, sum; no running
//   rescale), then the probabilities times the values (4 rows x 16 features of accumulators), divided by the
//   row's sum.
// exp is Cephes' polynomial (relative error below 2e-7), so results equal torch's up to rounding. Memory: the
// packed keys (the size of k), and per thread kTileRows rows of scores (4 bytes a key a row), so it grows with Tk,
// never Tq x Tk. Registered as zoo::f32_attention(Tensor q, Tensor k, Tensor v, float scale, bool causal) -> Tensor.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <immintrin.h>
#include <torch/library.h>

#include "attention_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

constexpr int64_t kTileRows = 32;   // query rows per task: its micro-tiles share each chunk of keys and values
constexpr int64_t kMicroRows = 4;   // rows a micro-kernel holds: 4 x 3 accumulators + 3 loads + a broadcast
constexpr int64_t kKeyBlock = 8;    // keys per vector of scores
constexpr int64_t kKeyChunk = 3;    // key blocks of scores per pass over the tile's rows (24 keys: 6 KiB at Dh 64)
constexpr int64_t kValueChunk = 48;  // keys of values per pass over the tile's rows (12 KiB at Dh 64)
constexpr int64_t kMaxHeadDim = 256;

#pragma GCC push_options
#pragma GCC target("avx2,fma")

#include "cephes_exp.inc"  // cephes_exp, compiled for this target

inline __m256 exp8(__m256 x) { return cephes_exp(x); }

#include "avx2_reduce.inc"  // sum8, max8

// Scores of R rows (q: R rows of dh floats, contiguous) over key blocks [first, last) (kp: block b's feature d at
// kp[(b * dh + d) * 8]), times scale, into s (row r at s + r * ld). Three key blocks at a time: 3R accumulators,
// one broadcast of a query feature feeding three FMAs.
template <int R>
void scores_tile(const float* q, const float* kp, int64_t first, int64_t last, int64_t dh, float scale, float* s,
                 int64_t ld) {
  const __m256 sc = _mm256_set1_ps(scale);
  int64_t b = first;
  for (; b + 3 <= last; b += 3) {
    __m256 acc[R][3];
    for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = acc[r][2] = _mm256_setzero_ps();
    const float* k0 = kp + b * dh * kKeyBlock;
    const float* k1 = k0 + dh * kKeyBlock;
    const float* k2 = k1 + dh * kKeyBlock;
    for (int64_t d = 0; d < dh; ++d) {
      const __m256 a0 = _mm256_loadu_ps(k0 + d * kKeyBlock), a1 = _mm256_loadu_ps(k1 + d * kKeyBlock),
                   a2 = _mm256_loadu_ps(k2 + d * kKeyBlock);
      for (int r = 0; r < R; ++r) {
        const __m256 x = _mm256_broadcast_ss(q + r * dh + d);
        acc[r][0] = _mm256_fmadd_ps(x, a0, acc[r][0]);
        acc[r][1] = _mm256_fmadd_ps(x, a1, acc[r][1]);
        acc[r][2] = _mm256_fmadd_ps(x, a2, acc[r][2]);
      }
    }
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < 3; ++c) _mm256_storeu_ps(s + r * ld + (b + c) * kKeyBlock, _mm256_mul_ps(acc[r][c], sc));
  }
  for (; b < last; ++b) {
    __m256 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();
    const float* k0 = kp + b * dh * kKeyBlock;
    for (int64_t d = 0; d < dh; ++d) {
      const __m256 a0 = _mm256_loadu_ps(k0 + d * kKeyBlock);
      for (int r = 0; r < R; ++r) acc[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(q + r * dh + d), a0, acc[r]);
    }
    for (int r = 0; r < R; ++r) _mm256_storeu_ps(s + r * ld + b * kKeyBlock, _mm256_mul_ps(acc[r], sc));
  }
}

// One row's softmax numerators in place: s[j] = exp(s[j] - max) for j < valid, 0 for valid <= j < width (the
// keys the tile's products run over); returns the sum of the exps.
float softmax_row(float* s, int64_t valid, int64_t width) {
  const int64_t whole = valid / 8 * 8;
  __m256 m = _mm256_set1_ps(-INFINITY);
  for (int64_t j = 0; j < whole; j += 8) m = _mm256_max_ps(m, _mm256_loadu_ps(s + j));
  float top = max8(m);
  for (int64_t j = whole; j < valid; ++j) top = std::max(top, s[j]);
  const __m256 top8 = _mm256_set1_ps(top);
  __m256 total = _mm256_setzero_ps();
  for (int64_t j = 0; j < whole; j += 8) {
    const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(s + j), top8));
    total = _mm256_add_ps(total, e);
    _mm256_storeu_ps(s + j, e);
  }
  float sum = sum8(total);
  if (whole < valid) {  // the last keys through one more vector, padded with -inf (exp gives 0 there)
    alignas(32) float last[8];
    for (int64_t j = 0; j < 8; ++j) last[j] = whole + j < valid ? s[whole + j] : -INFINITY;
    _mm256_store_ps(last, exp8(_mm256_sub_ps(_mm256_load_ps(last), top8)));
    for (int64_t j = whole; j < valid; ++j) sum += s[j] = last[j - whole];
  }
  std::fill(s + valid, s + std::max(valid, width), 0.0f);
  return sum;
}

// o rows (R of them, row r at o + r * dh) [d0, d0 + 8 NV) += p rows (ld_p apart) times the values of keys
// [first, last) (v: rows of dh floats, v_step apart), NV 1 or 2. Eight named accumulators (R = 4, NV = 2): an array
// of them GCC stored to the stack on every key.
template <int R, int NV>
void values_tile(const float* p, int64_t ld_p, const float* v, int64_t v_step, int64_t first, int64_t last,
                 int64_t dh, int64_t d0, float* o) {
  __m256 a0 = _mm256_setzero_ps(), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
  const float* p1 = p + (R > 1 ? ld_p : 0);
  const float* p2 = p + (R > 2 ? 2 * ld_p : 0);
  const float* p3 = p + (R > 3 ? 3 * ld_p : 0);
  for (int64_t j = first; j < last; ++j) {
    const __m256 lo = _mm256_loadu_ps(v + j * v_step + d0);
    const __m256 hi = NV == 2 ? _mm256_loadu_ps(v + j * v_step + d0 + 8) : lo;
#define ZOO_ROW(row, a, b)                              \
    {                                                   \
      const __m256 x = _mm256_broadcast_ss((row) + j); \
      a = _mm256_fmadd_ps(x, lo, a);                    \
      b = _mm256_fmadd_ps(x, hi, b);                    \
    }
    ZOO_ROW(p, a0, b0)
    if (R > 1) ZOO_ROW(p1, a1, b1)
    if (R > 2) ZOO_ROW(p2, a2, b2)
    if (R > 3) ZOO_ROW(p3, a3, b3)
#undef ZOO_ROW
  }
  const __m256 sums[4][2] = {{a0, b0}, {a1, b1}, {a2, b2}, {a3, b3}};
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) {
      float* to = o + r * dh + d0 + 8 * c;
      _mm256_storeu_ps(to, _mm256_add_ps(_mm256_loadu_ps(to), sums[r][c]));
    }
}

// Every feature of R rows over keys [first, last): 16 at a time, then the last 8.
template <int R>
void values_rows(const float* p, int64_t ld_p, const float* v, int64_t v_step, int64_t first, int64_t last,
                 int64_t dh, float* o) {
  int64_t d0 = 0;
  for (; d0 + 16 <= dh; d0 += 16) values_tile<R, 2>(p, ld_p, v, v_step, first, last, dh, d0, o);
  if (d0 < dh) values_tile<R, 1>(p, ld_p, v, v_step, first, last, dh, d0, o);
}

// f(std::integral_constant<int, R>{}) for R = rows (1 to kMicroRows): a micro-kernel's row count as a template
// argument, for the last tile of rows too.
template <typename F>
void with_rows(int64_t rows, F&& f) {
  switch (rows) {
    case 4: return f(std::integral_constant<int, 4>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 2: return f(std::integral_constant<int, 2>{});
    default: return f(std::integral_constant<int, 1>{});
  }
}

// Keys of one (batch, kv head), `step` floats apart, into blocks of 8: feature d of key i of block b at
// kp[(b * dh + d) * 8 + i]; keys past tk are zero.
void pack_keys(const float* k, int64_t step, int64_t tk, int64_t dh, float* kp) {
  const int64_t blocks = (tk + kKeyBlock - 1) / kKeyBlock;
  std::memset(kp, 0, blocks * kKeyBlock * dh * sizeof(float));
  for (int64_t j = 0; j < tk; ++j) {
    float* block = kp + (j / kKeyBlock) * dh * kKeyBlock + j % kKeyBlock;
    for (int64_t d = 0; d < dh; ++d) block[d * kKeyBlock] = k[j * step + d];
  }
}

#pragma GCC pop_options

at::Tensor f32_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale, bool causal) {
  check_attention_shapes("zoo::f32_attention", q, k, v);
  TORCH_CHECK(q.scalar_type() == at::kFloat && k.scalar_type() == at::kFloat && v.scalar_type() == at::kFloat,
              "zoo::f32_attention: q, k and v must all be float32, got q ", q.scalar_type(), ", k ", k.scalar_type(),
              ", v ", v.scalar_type());
  TORCH_CHECK(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
              "zoo::f32_attention needs a CPU with AVX2 and FMA; this one lacks them");
  const int64_t b = q.size(0), h = q.size(1), tq = q.size(2), dh = q.size(3);
  const int64_t hkv = k.size(1), tk = k.size(2);
  TORCH_CHECK(tq >= 1 && tk >= 1 && dh % 8 == 0 && dh <= kMaxHeadDim && (!causal || tq <= tk),
              "zoo::f32_attention takes at least one query row and key, a head width that is a multiple of 8 up "
              "to ", kMaxHeadDim, ", and (causal) no more queries than keys; got q ", q.sizes(), ", k ", k.sizes());
  const int64_t blocks = (tk + kKeyBlock - 1) / kKeyBlock, padded = blocks * kKeyBlock;
  // Torch tensors rather than vectors, so torch's allocator and profiler count them.
  at::Tensor kp_tensor = at::empty({b * hkv, padded * dh}, q.options());
  float* kp = kp_tensor.data_ptr<float>();
  const float* kdata = k.const_data_ptr<float>();
  at::parallel_for(0, b * hkv, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      pack_keys(kdata + (i / hkv) * k.stride(0) + (i % hkv) * k.stride(1), k.stride(2), tk, dh, kp + i * padded * dh);
  });
  at::Tensor out = at::empty({b, h, tq, dh}, q.options());
  const float* qdata = q.const_data_ptr<float>();
  const float* vdata = v.const_data_ptr<float>();  // read in place: rows of Dh floats, v.stride(2) apart
  float* odata = out.data_ptr<float>();
  const int64_t tiles = (tq + kTileRows - 1) / kTileRows, group = h / hkv, offset = tk - tq;
  const float sc = static_cast<float>(scale);
  at::parallel_for(0, b * h * tiles, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> s(kTileRows * padded), sums(kTileRows), qt(kTileRows * dh), o(kTileRows * dh);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t bh = task / tiles, t0 = (task % tiles) * kTileRows, bi = bh / h, hi = bh % h;
      const int64_t rows = std::min(kTileRows, tq - t0), kv = bi * hkv + hi / group;
      const float* qrow = qdata + bi * q.stride(0) + hi * q.stride(1) + t0 * q.stride(2);
      for (int64_t r = 0; r < rows; ++r) std::memcpy(qt.data() + r * dh, qrow + r * q.stride(2), dh * sizeof(float));
      // Keys the tile's rows see: all, or (causal) up to the last row's position + offset.
      const int64_t seen = causal ? std::min(tk, t0 + rows + offset) : tk;
      const int64_t blocks_seen = (seen + kKeyBlock - 1) / kKeyBlock;
      // A few key blocks at a time for every row of the tile: each block is read from memory once a tile and
      // then from L1 for its other rows.
      for (int64_t first = 0; first < blocks_seen; first += kKeyChunk) {
        const int64_t last = std::min(blocks_seen, first + kKeyChunk);
        for (int64_t r0 = 0; r0 < rows; r0 += kMicroRows)
          with_rows(std::min(kMicroRows, rows - r0), [&](auto r) {
            scores_tile<decltype(r)::value>(qt.data() + r0 * dh, kp + kv * padded * dh, first, last, dh, sc,
                                            s.data() + r0 * padded, padded);
          });
      }
      for (int64_t r = 0; r < rows; ++r)
        sums[r] = softmax_row(s.data() + r * padded, causal ? std::min(tk, t0 + r + offset + 1) : tk, seen);
      std::fill(o.begin(), o.end(), 0.0f);
      const float* vhead = vdata + bi * v.stride(0) + (hi / group) * v.stride(1);
      for (int64_t first = 0; first < seen; first += kValueChunk) {  // values alike, kValueChunk keys at a time
        const int64_t last = std::min(seen, first + kValueChunk);
        for (int64_t r0 = 0; r0 < rows; r0 += kMicroRows)
          with_rows(std::min(kMicroRows, rows - r0), [&](auto r) {
            values_rows<decltype(r)::value>(s.data() + r0 * padded, padded, vhead, v.stride(2), first, last, dh,
                                            o.data() + r0 * dh);
          });
      }
      float* orow = odata + (bh * tq + t0) * dh;
      for (int64_t r = 0; r < rows; ++r) {
        const float inv = 1.0f / sums[r];
        for (int64_t d = 0; d < dh; ++d) orow[r * dh + d] = o[r * dh + d] * inv;
      }
    }
  });
  return out;
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) {
  m.def("f32_attention(Tensor q, Tensor k, Tensor v, float scale, bool causal) -> Tensor");
}

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("f32_attention", &f32_attention); }
