// tdls-tile-bench: the SIMD CPU kernel's factorization alone (tile_lu.hpp's
// factor), on tiles that stay in L1/L2, with no data movement to or from a
// batch. tdls-bench times whole calls against peers; this isolates the part
// that the kernel's design choices change (exchanges, updates, pivot search),
// so that a variant can be compared with the one it replaces on a noisy
// machine: each order is timed `--reps` times and the best is kept.
//
// Built with this tree's AVX2 flags (x86-64 only); the library picks its ISA
// at run time, this tool always runs the AVX2 code.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cpu/simd/tile_lu.hpp"

namespace {

namespace simd = tdls::kernels::cpu::simd::TDLS_SIMD_ISA;

struct Options {
    std::vector<int> orders{2, 4, 8, 16, 24, 32, 48, 64};
    int reps = 20;
    int tiles = 16;
};

/// Best time per system of factoring `tiles` tiles of order n, each from a
/// fresh copy of the same random systems (the copy is not timed).
template <typename T, int StaticN>
double factor_ns(int n, const Options& o) {
    constexpr int W = TDLS_SIMD_BYTES / int(sizeof(T));
    using Tile = simd::Tile<T, W, StaticN>;
    using Index = typename simd::Lanes<T, W>::Index;
    const std::size_t tile_elements = std::size_t(Tile::leading(n)) * n * W;
    std::vector<T> pristine(tile_elements * o.tiles, T(0)), work(pristine.size());
    std::mt19937_64 random(std::uint64_t(n) * 7919 + sizeof(T));
    std::uniform_real_distribution<T> uniform(-1, 1);
    for (int t = 0; t < o.tiles; ++t) {
        const Tile tile(n, pristine.data() + t * tile_elements, nullptr, nullptr);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                for (int l = 0; l < W; ++l) tile.at(i, j)[l] = uniform(random);
    }
    std::vector<Index> pivots(std::size_t(n) * W);
    std::vector<std::uint64_t> swaps(n);
    double best = 1e30;
    std::int64_t singular = 0;
    for (int rep = 0; rep < o.reps; ++rep) {
        std::memcpy(work.data(), pristine.data(), work.size() * sizeof(T));
        const auto start = std::chrono::steady_clock::now();
        for (int t = 0; t < o.tiles; ++t) {
            const Tile tile(n, work.data() + t * tile_elements, pivots.data(), swaps.data());
            const auto info = simd::factor(tile, T(1));
            for (int l = 0; l < W; ++l) singular += info[l] != 0;
        }
        const auto stop = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(stop - start).count());
    }
    if (singular) std::fprintf(stderr, "note: %lld singular factorizations\n", static_cast<long long>(singular));
    return best / (double(o.tiles) * W) * 1e9;
}

/// The kernel the library runs for n: a static order up to 16, else the
/// dynamic one.
template <typename T, int N = 1>
double dispatch(int n, const Options& o) {
    if constexpr (N <= 16) {
        if (n == N) return factor_ns<T, N>(n, o);
        return dispatch<T, N + 1>(n, o);
    } else {
        return factor_ns<T, 0>(n, o);
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int a = 1; a < argc; ++a) {
        const std::string key = argv[a];
        if (key == "--help") {
            std::printf("usage: %s [--sizes 2,4,...] (1..256) [--reps R] [--tiles T]\n"
                        "Times the AVX2 SIMD kernel's factorization alone, best of R passes over T tiles.\n",
                        argv[0]);
            return 0;
        }
        if (key != "--sizes" && key != "--reps" && key != "--tiles") bench::cli::bad("unknown option '" + key + "'");
        if (a + 1 >= argc) bench::cli::bad(key + " needs a value");
        const std::string value = argv[++a];
        if (key == "--sizes")
            o.orders = bench::cli::parse_integers(key, value, 1, tdls::kernels::cpu::simd::max_order);
        else if (key == "--reps")
            o.reps = int(bench::cli::parse_integer(key, value, 1, 1000000));
        else
            o.tiles = int(bench::cli::parse_integer(key, value, 1, 1 << 20));
    }
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        std::fprintf(stderr, "this machine has no AVX2 + FMA: nothing to time\n");
        return 77;
    }
    std::printf("| n | double ns/system | float ns/system |\n|---|---|---|\n");
    for (const int n : o.orders)
        std::printf("| %d | %.1f | %.1f |\n", n, dispatch<double>(n, o), dispatch<float>(n, o));
    return 0;
}
