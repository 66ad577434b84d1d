// libtdls: the per-thread memory of the CPU driver: the solver's workspace,
// the pivot bookkeeping, and a packed copy of a matrix whose leading dimension
// exceeds its order. On the stack for a compile-time order, on the heap (once
// per range of systems) otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>

namespace tdls::kernels::cpu {

/// Workspace of one thread solving a system of order n alone, physical interchanges.
constexpr int workspace_elements(int n) noexcept {
    return detail::coop::workspace_elements<true>(n, 1);
}

template <typename T, int StaticN>
class SystemScratch;

template <typename T, int StaticN>
requires(StaticN > 0) class SystemScratch<T, StaticN> {
  public:
    explicit SystemScratch(int) noexcept {}
    T* work() noexcept { return work_.data(); }
    int* order() noexcept { return ints_.data(); }
    int* position_of() noexcept { return ints_.data() + StaticN; }
    int* row_at() noexcept { return ints_.data() + 2 * StaticN; }
    T* packed_matrix() noexcept { return packed_.data(); }

  private:
    std::array<T, workspace_elements(StaticN)> work_{};
    std::array<int, 3 * StaticN> ints_{};
    std::array<T, StaticN * StaticN> packed_{};
};

template <typename T>
class SystemScratch<T, 0> {
  public:
    explicit SystemScratch(int n)
        : n_(n), work_(std::size_t(workspace_elements(n))), ints_(3 * std::size_t(n)) {}
    T* work() noexcept { return work_.data(); }
    int* order() noexcept { return ints_.data(); }
    int* position_of() noexcept { return ints_.data() + n_; }
    int* row_at() noexcept { return ints_.data() + 2 * n_; }
    /// Allocated at first use: most calls have lda == n and never need it.
    T* packed_matrix() {
        if (!packed_) packed_ = std::make_unique<T[]>(std::size_t(n_) * std::size_t(n_));
        return packed_.get();
    }

  private:
    int n_;
    std::vector<T> work_;
    std::vector<int> ints_;
    std::unique_ptr<T[]> packed_;
};

} // namespace tdls::kernels::cpu
