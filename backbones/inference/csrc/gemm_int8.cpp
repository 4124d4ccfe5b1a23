// Many-row linear layers on int8 weights for x86 CPUs without VNNI (AVX2 + FMA): the encoders' and prefills'
// products, which zoo::gemv_int8 (a few rows, each weight row streamed once) serves poorly and torch's int8 GEMM
// (torch._int_mm) serves slowly where oneDNN has no VNNI or AMX to run it on (8-27x float32's time).
//
// Numerics are those of QuantizedLinear's torch._int_mm path (backbones/quantized.py), so a layer gives the same
// result on every CPU: each x row is quantised to the 253 steps between its least and greatest value, about a
// centre that is a whole number of steps (x = c + d x_q, x_q in [-127, 127]; 0 stays a level), integer dot
// products are exact in int32, and y = d (x_q q^T) s + c (sum_k q) s + b in float32, s the weight's row scales.
//
// How it multiplies: x_q is kept as int16, and the weight is packed a panel of 24 output columns at a time into
// pairs of inputs widened to int16 ([K/2][24 columns][2]), its integer row sums taken on the way. The micro-kernel
// holds 4 rows x 24 columns of int32 sums in twelve registers; each step broadcasts two inputs of a row (one
// 32-bit lane pattern) and multiplies them by 8 columns' two weights with vpmaddwd, 16 products and their pair
// sums an instruction (no saturation: 2 x 127 x 127 < 2^31). Without VNNI that is as many products an instruction
// as vpmaddubsw's path gives (it needs vpmaddwd after it to widen, and the sign trick to stay clear of int16
// saturation), twice an FMA's 8. Each thread packs a group of its panels that fits L2 with a block of x, then runs
// every block of rows over them. Registered as zoo::gemm_int8(x, qweight, scales, bias).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <immintrin.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

#include "int_weights.inc"

constexpr int64_t kTileRows = 4;  // rows a micro-kernel holds: 4 x 3 accumulators + a broadcast + a product
constexpr int64_t kPanelCols = 24;  // output columns a panel holds: 3 blocks of 8 int32 lanes
constexpr int64_t kBlockRows = 64;  // rows run over a group of panels before the next block
constexpr int64_t kGroupBytes = 1 << 18;  // a group of packed panels, with a block of x, stays in a 512 KiB L2

#pragma GCC push_options
#pragma GCC target("avx2,fma")

// What makes one panel's integer sums outputs, zero past its last column: the weight's scales s, its integer row
// sums times s (the centre's term), the bias. Made once a panel, read by every tile of rows.
struct Columns {
  alignas(32) float scales[kPanelCols];
  alignas(32) float sums[kPanelCols];
  alignas(32) float bias[kPanelCols];
  int64_t count;  // <= kPanelCols
};

// v[i] = eight 32-bit lanes of row i -> v[j] = lane j of the eight rows.
inline void transpose_8x8(__m256i v[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(v[i], v[i + 1]);  // lanes 0, 1 | 4, 5 of rows i, i + 1, interleaved
    t[i + 1] = _mm256_unpackhi_epi32(v[i], v[i + 1]);  // lanes 2, 3 | 6, 7
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);  // lane 0 | 4 of rows i .. i + 3
    u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);  // lane 1 | 5
    u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);  // lane 2 | 6
    u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);  // lane 3 | 7
  }
  for (int j = 0; j < 4; ++j) {
    v[j] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
    v[j + 4] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
  }
}

// The weight's output columns [n0, n0 + cols) (cols <= kPanelCols) as a panel of int16: input pair p of column c
// at (p * kPanelCols + c) * 2, zeros past K and past the last column, so every tile runs whole steps. Eight
// columns by sixteen inputs at a time: widened, then transposed as 8 x 8 pairs; the ragged edges one by one. The
// panel's Columns from the weight's row scales, its integers' sums and the bias (or none).
void pack_panel(const int8_t* w, int64_t k_len, int64_t n0, int64_t cols, int64_t pairs, const float* scales,
                const float* bias, int16_t* out, Columns& columns) {
  std::memset(out, 0, pairs * kPanelCols * 2 * sizeof(int16_t));
  const int64_t k16 = k_len / 16 * 16, whole = cols / 8 * 8;
  for (int64_t c0 = 0; c0 < whole; c0 += 8) {
    const int8_t* rows = w + (n0 + c0) * k_len;
    for (int64_t k = 0; k < k16; k += 16) {
      __m256i v[8];
      for (int i = 0; i < 8; ++i)
        v[i] = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + i * k_len + k)));
      transpose_8x8(v);
      for (int j = 0; j < 8; ++j)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + ((k / 2 + j) * kPanelCols + c0) * 2), v[j]);
    }
  }
  for (int64_t c = 0; c < cols; ++c) {
    const int8_t* row = w + (n0 + c) * k_len;
    for (int64_t k = c < whole ? k16 : 0; k < k_len; ++k) out[((k / 2) * kPanelCols + c) * 2 + k % 2] = row[k];
    int32_t sum = 0;
    for (int64_t k = 0; k < k_len; ++k) sum += row[k];
    columns.scales[c] = scales[n0 + c];
    columns.sums[c] = static_cast<float>(sum) * scales[n0 + c];
    columns.bias[c] = bias != nullptr ? bias[n0 + c] : 0.0f;
  }
  for (int64_t c = cols; c < kPanelCols; ++c) columns.scales[c] = columns.sums[c] = columns.bias[c] = 0.0f;
  columns.count = cols;
}

inline __m256i broadcast_pair(const int16_t* p) {  // two inputs, repeated across the eight 32-bit lanes
  int32_t two;
  std::memcpy(&two, p, 4);
  return _mm256_set1_epi32(two);
}

// The micro-kernel: 4 rows of x (int16, `x_stride` apart) times one panel, integer sums over every pair of inputs
// into sums[4][24]. Twelve named accumulators rather than an array: GCC keeps these in registers, where it spilled
// an array's to the stack every step.
void tile(const int16_t* x, int64_t x_stride, const int16_t* panel, int64_t pairs, int32_t* sums) {
  __m256i a00 = _mm256_setzero_si256(), a01 = a00, a02 = a00, a10 = a00, a11 = a00, a12 = a00, a20 = a00, a21 = a00,
          a22 = a00, a30 = a00, a31 = a00, a32 = a00;
  const int16_t *x0 = x, *x1 = x + x_stride, *x2 = x1 + x_stride, *x3 = x2 + x_stride;
  for (int64_t p = 0; p < pairs; ++p) {
    const __m256i* w = reinterpret_cast<const __m256i*>(panel + p * kPanelCols * 2);
    const __m256i w0 = _mm256_loadu_si256(w), w1 = _mm256_loadu_si256(w + 1), w2 = _mm256_loadu_si256(w + 2);
#define ZOO_ROW(v, s0, s1, s2)                            \
    s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(v, w0)); \
    s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(v, w1)); \
    s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(v, w2));
    __m256i v = broadcast_pair(x0 + 2 * p);
    ZOO_ROW(v, a00, a01, a02)
    v = broadcast_pair(x1 + 2 * p);
    ZOO_ROW(v, a10, a11, a12)
    v = broadcast_pair(x2 + 2 * p);
    ZOO_ROW(v, a20, a21, a22)
    v = broadcast_pair(x3 + 2 * p);
    ZOO_ROW(v, a30, a31, a32)
#undef ZOO_ROW
  }
  const __m256i all[] = {a00, a01, a02, a10, a11, a12, a20, a21, a22, a30, a31, a32};
  for (int i = 0; i < 12; ++i) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums) + i, all[i]);
}

// Rows [0, rows) of a tile's integer sums made outputs: sum d s + c (sum_k q) s + b, each row's step d and centre c.
void finish_tile(const int32_t* sums, int64_t rows, const Columns& columns, const float* steps, const float* centres,
                 float* y, int64_t n_len) {
  for (int64_t c0 = 0; c0 < columns.count; c0 += 8) {
    const int64_t count = std::min<int64_t>(8, columns.count - c0);
    const __m256 s8 = _mm256_load_ps(columns.scales + c0), qs8 = _mm256_load_ps(columns.sums + c0),
                 b8 = _mm256_load_ps(columns.bias + c0);
    for (int64_t r = 0; r < rows; ++r) {
      const __m256i total = _mm256_load_si256(reinterpret_cast<const __m256i*>(sums + r * kPanelCols + c0));
      const __m256 scaled = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(total), _mm256_set1_ps(steps[r])), s8);
      const __m256 out = _mm256_add_ps(_mm256_add_ps(scaled, _mm256_mul_ps(_mm256_set1_ps(centres[r]), qs8)), b8);
      if (count == 8) {
        _mm256_storeu_ps(y + r * n_len + c0, out);
      } else {
        alignas(32) float lanes[8];
        _mm256_store_ps(lanes, out);
        std::memcpy(y + r * n_len + c0, lanes, count * 4);
      }
    }
  }
}

// x rows (R, K) quantised about their centres, as QuantizedLinear._int_mm does it (the same float operations in
// the same order, so the same integers): into out (R, stride) int16, zeros past K, and (step, centre) a row.
void quantize_centered(const float* x, int64_t r, int64_t k_len, int16_t* out, int64_t stride, float* steps,
                       float* centres) {
  const int64_t k8 = k_len / 8 * 8;
  for (int64_t i = 0; i < r; ++i) {
    const float* row = x + i * k_len;
    __m256 low8 = _mm256_set1_ps(row[0]), high8 = low8;
    for (int64_t k = 0; k < k8; k += 8) {
      const __m256 v = _mm256_loadu_ps(row + k);
      low8 = _mm256_min_ps(low8, v);
      high8 = _mm256_max_ps(high8, v);
    }
    alignas(32) float lows[8], highs[8];
    _mm256_store_ps(lows, low8);
    _mm256_store_ps(highs, high8);
    float low = row[0], high = row[0];
    for (int j = 0; j < 8; ++j) low = std::min(low, lows[j]), high = std::max(high, highs[j]);
    for (int64_t k = k8; k < k_len; ++k) low = std::min(low, row[k]), high = std::max(high, row[k]);
    float step = (high - low) / 253.0f;  // 2 x 127 - 1 steps: room for the centre's rounding within +-127
    if (!(step > 0.0f)) step = 1.0f;
    const float centre = std::nearbyint((high + low) / 2.0f / step) * step;
    steps[i] = step;
    centres[i] = centre;
    const __m256 step8 = _mm256_set1_ps(step), centre8 = _mm256_set1_ps(centre);
    const __m256 top = _mm256_set1_ps(127.0f), bottom = _mm256_set1_ps(-127.0f);
    int16_t* to = out + i * stride;
    for (int64_t k = 0; k < k8; k += 8) {
      __m256 q = _mm256_round_ps(_mm256_div_ps(_mm256_sub_ps(_mm256_loadu_ps(row + k), centre8), step8),
                                 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      q = _mm256_min_ps(_mm256_max_ps(q, bottom), top);
      const __m256i q32 = _mm256_cvtps_epi32(q);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + k),
                       _mm_packs_epi32(_mm256_castsi256_si128(q32), _mm256_extracti128_si256(q32, 1)));
    }
    for (int64_t k = k8; k < k_len; ++k)
      to[k] = static_cast<int16_t>(std::min(127.0f, std::max(-127.0f, std::nearbyint((row[k] - centre) / step))));
    std::fill(to + k_len, to + stride, 0);
  }
}

#pragma GCC pop_options

at::Tensor gemm_int8(const at::Tensor& x, const at::Tensor& qweight, const at::Tensor& scales,
                     const c10::optional<at::Tensor>& bias) {
  check_int8_weight("zoo::gemm_int8", qweight, scales);
  const int64_t n_len = qweight.size(0), k_len = qweight.size(1);
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == k_len && x.is_contiguous(),
              "zoo::gemm_int8: x must be contiguous rows of ", k_len, " features, got shape ", x.sizes());
  check_x_bias_and_cpu("zoo::gemm_int8", x, bias, n_len);
  const int64_t r_len = x.numel() / std::max<int64_t>(k_len, 1);
  auto shape = x.sizes().vec();
  shape.back() = n_len;
  if (r_len == 0 || n_len == 0) return at::zeros(shape, x.options());

  const at::Tensor xf = x.to(at::kFloat).contiguous();
  const int64_t k_pad = (k_len + 15) / 16 * 16, pairs = k_pad / 2;
  const int64_t r_pad = (r_len + kTileRows - 1) / kTileRows * kTileRows;  // zero rows: every tile runs 4 rows
  std::vector<float> steps(r_len), centres(r_len);
  std::vector<int16_t> x16(r_pad * k_pad, 0);
  at::parallel_for(0, r_len, kBlockRows, [&](int64_t begin, int64_t end) {
    quantize_centered(xf.data_ptr<float>() + begin * k_len, end - begin, k_len, x16.data() + begin * k_pad, k_pad,
                      steps.data() + begin, centres.data() + begin);
  });

  at::Tensor y = at::empty({r_len, n_len}, x.options().dtype(at::kFloat));
  const int64_t panels = (n_len + kPanelCols - 1) / kPanelCols, panel_size = pairs * kPanelCols * 2;
  const int64_t group = std::max<int64_t>(1, kGroupBytes / (panel_size * 2));  // panels packed together
  const int8_t* w = qweight.data_ptr<int8_t>();
  const float* w_scales = scales.data_ptr<float>();
  const float* b = bias.has_value() ? bias->data_ptr<float>() : nullptr;
  float* out = y.data_ptr<float>();
  at::parallel_for(0, panels, 1, [&](int64_t first, int64_t last) {
    const int64_t held = std::min(group, last - first);
    std::vector<int16_t> packed(held * panel_size);
    std::vector<Columns> columns(held);
    alignas(32) int32_t sums[kTileRows * kPanelCols];
    for (int64_t g = first; g < last; g += group) {
      const int64_t g_end = std::min(last, g + group);
      for (int64_t p = g; p < g_end; ++p)
        pack_panel(w, k_len, p * kPanelCols, std::min(kPanelCols, n_len - p * kPanelCols), pairs, w_scales, b,
                   packed.data() + (p - g) * panel_size, columns[p - g]);
      for (int64_t r0 = 0; r0 < r_len; r0 += kBlockRows) {
        const int64_t r_end = std::min(r_len, r0 + kBlockRows);
        for (int64_t p = g; p < g_end; ++p) {
          const int64_t n0 = p * kPanelCols;
          for (int64_t r = r0; r < r_end; r += kTileRows) {
            tile(x16.data() + r * k_pad, k_pad, packed.data() + (p - g) * panel_size, pairs, sums);
            finish_tile(sums, std::min(kTileRows, r_end - r), columns[p - g], steps.data() + r, centres.data() + r,
                        out + r * n_len + n0, n_len);
          }
        }
      }
    }
  });
  return y.view(shape).to(x.scalar_type());
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(zoo, m) { m.def("gemm_int8(Tensor x, Tensor qweight, Tensor scales, Tensor? bias) -> Tensor"); }

TORCH_LIBRARY_IMPL(zoo, CPU, m) { m.impl("gemm_int8", &gemm_int8); }
