// The systems of one measurement: where each element lives in each storage
// (strided column/row-major, interleaved), the generator of the test systems
// (the peers' recipe), and a host batch that keeps the pristine systems next
// to the working copy that a solver overwrites.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#include <oneapi/tbb/parallel_for.h>
#include <tdls/core/math.hpp>

namespace bench {

/// Addressing of A_s and B_s (n x nrhs) in one storage, after tdls.h:
/// strided systems back to back (lda = n, ldb = n column-major or nrhs
/// row-major), or interleaved in blocks of `block` systems.
struct Storage {
    int n = 0, nrhs = 1;
    std::int64_t count = 0;
    bool row_major = false;
    bool interleaved = false;
    std::int64_t block = 1;

    std::int64_t padded_count() const { return interleaved ? (count + block - 1) / block * block : count; }
    std::int64_t size_A() const { return padded_count() * n * n; }
    std::int64_t size_B() const { return padded_count() * n * nrhs; }
    std::int64_t size_ipiv() const { return padded_count() * n; }

    /// Where system s starts in a buffer whose systems have `elements` each.
    std::int64_t base(std::int64_t s, std::int64_t elements) const {
        return interleaved ? s / block * block * elements + s % block : s * elements;
    }
    std::int64_t step() const { return interleaved ? block : 1; } // between consecutive packed elements
    std::int64_t a_row_stride() const { return step() * (row_major ? n : 1); }
    std::int64_t a_col_stride() const { return step() * (row_major ? 1 : n); }
    std::int64_t a_offset(std::int64_t s) const { return base(s, std::int64_t(n) * n); }
    std::int64_t b_row_stride() const { return step() * (row_major ? nrhs : 1); }
    std::int64_t b_offset(std::int64_t s, int k) const {
        return base(s, std::int64_t(n) * nrhs) + step() * (row_major ? k : std::int64_t(k) * n);
    }
};

/// Systems of `n` unknowns whose A + B fill about `mib` MiB (at least one).
inline std::int64_t systems_for(int n, int nrhs, std::size_t element_size, double mib) {
    const double bytes = double(element_size) * (double(n) * n + double(n) * nrhs);
    return std::max<std::int64_t>(1, std::int64_t(mib * 1048576.0 / bytes));
}

/// Storage on 64-byte (cache line, AVX-512 vector) boundaries, as oneMKL's
/// documentation asks of its callers' arrays and HPC codes allocate them
/// (posix_memalign, mkl_malloc, Eigen's aligned allocator).
template <typename T>
struct LineAligned {
    using value_type = T;
    static constexpr std::size_t alignment = 64;
    LineAligned() = default;
    template <typename U>
    LineAligned(const LineAligned<U>&) noexcept {}
    T* allocate(std::size_t count) {
        if (count > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t(alignment)));
    }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t(alignment)); }
    template <typename U>
    bool operator==(const LineAligned<U>&) const noexcept {
        return true;
    }
};

/// `size` elements starting `offset` bytes past a 64-byte boundary
/// (tdls-bench --offset; 0 by default). A large std::vector or malloc
/// block starts 16 bytes past a page boundary with glibc: --offset 16 times
/// the solvers on such buffers, where every vector access of one working
/// in place straddles two lines. Every solver of a run gets the same.
template <typename T>
class Buffer {
  public:
    Buffer(std::size_t size, std::size_t offset_bytes)
        : offset_(offset_bytes / sizeof(T)), size_(size), storage_(size + offset_) {}
    T* data() noexcept { return storage_.data() + offset_; }
    const T* data() const noexcept { return storage_.data() + offset_; }
    std::size_t size() const noexcept { return size_; }
    T& operator[](std::size_t i) noexcept { return data()[i]; }

  private:
    std::size_t offset_, size_;
    std::vector<T, LineAligned<T>> storage_;
};

/// Pristine systems in one storage plus a working copy that solvers
/// overwrite (A by the factors, B by X), pivots and info.
template <typename T>
struct HostBatch {
    Storage storage;
    Buffer<T> A, B; // pristine, never written after generation
    Buffer<T> work_A, work_B;
    std::vector<std::int32_t> ipiv, info;

    /// offset: bytes past a 64-byte boundary where A, B and their working
    /// copies start (Buffer).
    HostBatch(const Storage& s, std::size_t offset)
        : storage(s), A(std::size_t(s.size_A()), offset), B(std::size_t(s.size_B()), offset),
          work_A(A.size(), offset), work_B(B.size(), offset), ipiv(std::size_t(s.size_ipiv())),
          info(std::size_t(s.count)) {}

    /// The fresh copy every timed sample starts from (made outside the timing).
    void reset() {
        copy_parallel(work_A, A);
        copy_parallel(work_B, B);
        std::fill(info.begin(), info.end(), -1);
    }

  private:
    static void copy_parallel(Buffer<T>& to, const Buffer<T>& from) {
        const std::size_t chunk = 1 << 18;
        oneapi::tbb::parallel_for(std::size_t(0), (from.size() + chunk - 1) / chunk, [&](std::size_t c) {
            const std::size_t begin = c * chunk, end = std::min(from.size(), begin + chunk);
            std::memcpy(to.data() + begin, from.data() + begin, (end - begin) * sizeof(T));
        });
    }
};

/// An element whose real part is `real`; a complex one draws its imaginary
/// part uniform in [-1, 1] next (the real types draw exactly as before).
template <typename T, typename Rng>
T entry(double real, std::uniform_real_distribution<double>& uniform, Rng& rng) {
    if constexpr (tdls::is_complex_scalar_v<T>) {
        using R = tdls::real_type_t<T>;
        return T(R(real), R(uniform(rng)));
    } else {
        return T(real);
    }
}

/// The peers' recipe (../shared/peers): entries uniform in [-1, 1], +-n added
/// on the diagonal (strictly diagonally dominant, well conditioned), then the
/// rows shuffled so that partial pivoting really swaps; B uniform in [-1, 1].
/// Complex systems get an imaginary part uniform in [-1, 1] everywhere: the
/// diagonal's magnitude (at least n - 1) still exceeds every other entry's
/// (at most 2), so partial pivoting picks it back.
/// System s depends on s only (its own seeded generator), so every storage
/// and every thread count sees the very same systems. shuffle false keeps
/// the dominant diagonal in place (for a solver that does not pivot); the
/// generator draws the same numbers either way.
template <typename T>
void generate(HostBatch<T>& batch, std::uint64_t seed = 42, bool shuffle = true) {
    const Storage& st = batch.storage;
    const int n = st.n;
    oneapi::tbb::parallel_for(std::int64_t(0), st.count, std::int64_t(4096), [&](std::int64_t first) {
        std::vector<int> order(std::size_t(n), 0);
        for (std::int64_t s = first; s < std::min(st.count, first + 4096); ++s) {
            std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + std::uint64_t(s));
            std::uniform_real_distribution<double> uniform(-1.0, 1.0);
            for (int i = 0; i < n; ++i) order[std::size_t(i)] = i;
            std::shuffle(order.begin(), order.end(), rng);
            if (!shuffle)
                for (int i = 0; i < n; ++i) order[std::size_t(i)] = i;
            T* A = batch.A.data() + st.a_offset(s);
            for (int r = 0; r < n; ++r)
                for (int c = 0; c < n; ++c) {
                    const double diagonal = r == c ? (uniform(rng) < 0 ? -n : n) : 0.0;
                    A[order[std::size_t(r)] * st.a_row_stride() + c * st.a_col_stride()] =
                        entry<T>(uniform(rng) + diagonal, uniform, rng);
                }
            for (int k = 0; k < st.nrhs; ++k) {
                T* B = batch.B.data() + st.b_offset(s, k);
                for (int i = 0; i < n; ++i) B[i * st.b_row_stride()] = entry<T>(uniform(rng), uniform, rng);
            }
        }
    });
}

} // namespace bench
