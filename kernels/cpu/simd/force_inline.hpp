// libtdls: the tile kernels' forced inlining, and the builds that drop it.
#pragma once

/// Marks a tile move or solve that must be inlined where a kernel calls it:
/// left to GCC's judgement, the range kernels of static orders called the
/// moves out of line, their W vectors went through memory and the orders'
/// constant bounds were lost (float order 7 ran 0.74x, double order 3
/// 0.77x on the model-207 Xeon host). Sanitized builds (the asan, tsan and
/// fuzz stages) keep a plain `inline`: they run for their checks, not for
/// speed, and the transposes forced into every caller at -O1 with
/// instrumentation made test_simd_tile_64 compile 3.7x slower (87 s against
/// 24 s; docs/ci.md, stop 48). UBSan alone defines no macro: its builds keep
/// the forced inlining.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TDLS_SIMD_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TDLS_SIMD_SANITIZED 1
#endif

#if defined(TDLS_SIMD_SANITIZED)
#define TDLS_SIMD_FORCE_INLINE inline
#define TDLS_SIMD_FORCE_INLINE_LAMBDA
#else
#define TDLS_SIMD_FORCE_INLINE [[gnu::always_inline]] inline
/// The same for a lambda, after its parameter list.
#define TDLS_SIMD_FORCE_INLINE_LAMBDA __attribute__((always_inline))
#endif
