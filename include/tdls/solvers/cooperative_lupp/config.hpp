// libtdls: configuration of the cooperative LU-pp solver.
#pragma once

#include <tdls/core/math.hpp>
#include <tdls/core/structural_real.hpp>

namespace tdls {

/// How the rows follow the pivot order.
enum class RowInterchange {
    /// Rows never move: each thread tracks the position of its rows in the
    /// pivoted order (MAGMA's rowid), and the pivot array records it.
    Logical,
    /// LAPACK's scheme: rows move between threads, so that the row at position
    /// k always lives in slot k / threads_per_system of thread
    /// k % threads_per_system. Same pivots, same operations, same order as
    /// Logical: the factored rows and the solutions are bitwise identical, only
    /// their places differ.
    Physical,
};

/// How the caller stores the matrix A of each system (upstream TDLS's name).
enum class MatrixLayout {
    /// A(r, c) at A[(r * N + c) * stride]. The solver factors S = A^T, the
    /// stored array read column-major (threads hold columns of A, so a group
    /// still reads consecutive addresses), and solves A x = b by the mirror
    /// solve U^T z = b, L^T w = z, x = P^T w.
    RowMajor,
    /// A(r, c) at A[(c * N + r) * stride]: S = A, P A = L U, L y = P b, U x = y.
    ColMajor,
};

/// The name libtdls used before it adopted upstream's; kept for its callers.
using Layout = MatrixLayout;

/// Configuration of CooperativeLUppSolverStatic and CooperativeLUppSolverDynamic,
/// passed as a template argument, typically with designated initializers:
///   tdls::CooperativeLUppConfig<double>{.rows_per_thread = 2,
///                                       .row_interchange = tdls::RowInterchange::Physical}
/// T is the scalar type of the systems; the real knobs (threshold, floor) are
/// of its real type, since a complex pivot is compared by its magnitude.
template <typename T>
struct CooperativeLUppConfig {
    using Real = real_type_t<T>;

    /// Rows of the stored matrix each thread holds. A system of order N takes
    /// ceil(N / rows_per_thread) threads; more rows per thread means smaller
    /// groups, so that several systems share a warp, and more registers.
    int rows_per_thread = 1;

    /// Logical (default) or physical row interchanges; see RowInterchange.
    RowInterchange row_interchange = RowInterchange::Logical;

    /// Threshold pivoting: the row in place is kept as pivot when its magnitude
    /// is at least this fraction of the column's largest one (and not below
    /// singular_floor), which saves row exchanges. 1 is LAPACK's partial
    /// pivoting: the first largest magnitude. The default, 0.1, is upstream
    /// TDLS's (growth bounded by 11 per column instead of 2). Must lie in
    /// (0, 1]. The C ABI passes its own documented default, 1, at run time.
    StructuralReal<Real> relative_pivot_threshold = Real(0.1);

    /// A column whose largest candidate magnitude is below this value is
    /// singular. The default, the smallest normal number, adds subnormal
    /// pivots (whose reciprocals overflow) to exact zeros. Must be > 0: a
    /// zero pivot is always singular.
    StructuralReal<Real> singular_floor = smallest_normal<T>();

    /// Expand the column loops of the static solver completely, at compile
    /// time. GPU code needs it to keep rows in registers; CPU code builds much
    /// faster, and usually runs as fast, without. The dynamic solver ignores
    /// it. The values computed do not depend on it.
    bool unroll_loops = true;

    /// Storage order of A; see MatrixLayout.
    MatrixLayout layout = MatrixLayout::RowMajor;

    /// Take the relative pivot threshold at run time, as the last argument of
    /// the driver's entry points, instead of relative_pivot_threshold. The
    /// runtime library needs it (tdls_set_pivot_threshold); the values computed
    /// for a threshold are those of the same compile-time threshold, at the
    /// cost of one comparison per column.
    bool runtime_pivot_threshold = false;

    /// libtdls extension: every update c - a * b of the elimination and the
    /// substitutions as fused multiply-adds (tdls::minus_product), one
    /// instruction and one rounding each instead of two. The GPU plugins'
    /// kernels set it (FMA is the GPUs' native operation); the CPU backend
    /// leaves it off except in its gpu_reference kernels, which reproduce the
    /// GPU's bits. Results differ from the unfused ones in the last bits.
    /// Not usable in constant expressions.
    bool fused_multiply_add = false;

    friend constexpr bool operator==(const CooperativeLUppConfig&, const CooperativeLUppConfig&) = default;
};

} // namespace tdls
