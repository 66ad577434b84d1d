// The GPU batch drivers (kernels/gpu/register_driver.hpp, warp_driver.hpp,
// block_driver.hpp) run on CPU threads: one thread per lane of each block,
// from a persistent group per block size (support/thread_group.hpp; a thread
// per lane per block made runs 20 s, now 12; the warp case under ASan 23 s,
// now 5), the solver's deduced CPU barrier for the register and warp kernels'
// groups and a std::barrier (with warp shuffles emulated through memory) for
// the block kernels' whole-block groups, the block's shared memory a zeroed
// buffer, blocks and launches from the plan's grid. Everything the plugins'
// kernels do except the launch itself: lane -> group and rank, workspace
// carving, the three batch forms through the accessor, LAPACK-format results,
// B untouched for singular systems, grids of several launches.
//
// Oracle: the library's CPU backend on an identical copy of each batch
// (TDLS_CPU_KERNEL=gpu_reference, set by ctest: the cooperative solver in a
// group of one, whose operations are the same as a group of many, with the
// GPU kernels' fused multiply-adds), compared bitwise in every buffer,
// padding included. A negative control shows that the unfused scalar kernel
// would not match: the fused arithmetic is in effect.
#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include <tdls/tdls.h>

#include "common/scalar_type.hpp"
#include "cpu/solve_range.hpp"
#include "device_sets.hpp"
#include "gpu/block_driver.hpp"
#include "gpu/once_per_device.hpp"
#include "gpu/pivot_search.hpp"
#include "gpu/register_driver.hpp"
#include "gpu/warp_driver.hpp"
#include "support/matrices.hpp"
#include "support/thread_group.hpp"

namespace {

using tdls::kernels::BatchForm;
using tdls::kernels::Operation;
using tdls::kernels::gpu::GpuLaunch;
using tdls::runtime::DeviceProperties;
namespace rt = tdls::runtime;
namespace devices = tdls_test::devices;

/// One batch in host memory, in any of the three forms, with padding.
template <typename T>
struct Batch {
    int n = 0;
    int nrhs = 0;
    std::int64_t batch = 0;
    BatchForm form = BatchForm::Strided;
    bool row_major = false;
    std::int64_t lda = 0, ldb = 0, strideA = 0, strideB = 0, strideIpiv = 0, block = 1;
    std::vector<T> A, B;
    std::vector<std::int32_t> ipiv, info;

    Batch(int n_, int nrhs_, std::int64_t batch_, BatchForm form_, bool row_major_, std::uint32_t seed)
        : n(n_), nrhs(nrhs_), batch(batch_), form(form_), row_major(row_major_) {
        const int b_rows = row_major ? std::max(nrhs, 1) : n; // the order of B's leading dimension
        if (form == BatchForm::Interleaved) {
            block = 5;
            const std::int64_t padded = (batch + block - 1) / block * block;
            A.resize(std::size_t(padded * n * n));
            B.resize(std::size_t(padded * n * std::max(nrhs, 1)));
            ipiv.resize(std::size_t(padded * n));
        } else {
            lda = n + 2;
            ldb = b_rows + 1;
            strideA = lda * n + 3;
            strideB = ldb * (row_major ? n : std::max(nrhs, 1)) + 1;
            strideIpiv = n + 1;
            A.resize(std::size_t(strideA * batch));
            B.resize(std::size_t(strideB * batch));
            ipiv.resize(std::size_t(strideIpiv * batch));
        }
        info.assign(std::size_t(batch), -9);
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> uniform(-1, 1);
        for (T& a : A) a = tdls_test::draw<T>(uniform, random); // complex: both parts
        for (T& b : B) b = tdls_test::draw<T>(uniform, random);
        std::fill(ipiv.begin(), ipiv.end(), -3);
        // Every fifth system is singular: a zero column (of the stored matrix) at a varying place.
        const tdls::kernels::BatchOperands ops = operands();
        for (std::int64_t s = 0; s < batch; s += 5) {
            const tdls::kernels::SystemView<T> v = tdls::kernels::view_of<T>(ops, s);
            const int c = int(s % n);
            for (int r = 0; r < n; ++r) v.A[r * v.a_row + c * v.a_col] = T(0);
        }
    }

    /// The operands as the C ABI hands them to a driver; pointer arrays list
    /// the systems in reverse order of memory.
    tdls::kernels::BatchOperands operands() {
        tdls::kernels::BatchOperands o;
        o.form = form;
        o.row_major = row_major;
        o.n = n;
        o.nrhs = nrhs;
        o.batch = batch;
        o.block = block;
        o.info = info.data();
        if (form == BatchForm::Pointers) {
            A_ptrs.clear(), B_ptrs.clear(), ipiv_ptrs.clear();
            for (std::int64_t s = 0; s < batch; ++s) {
                const std::int64_t m = batch - 1 - s;
                A_ptrs.push_back(A.data() + m * strideA);
                B_ptrs.push_back(B.data() + m * strideB);
                ipiv_ptrs.push_back(ipiv.data() + m * strideIpiv);
            }
            o.A_array = A_ptrs.data();
            o.B_array = B_ptrs.data();
            o.ipiv_array = ipiv_ptrs.data();
            o.lda = lda;
            o.ldb = ldb;
            return o;
        }
        o.A = A.data();
        o.B = B.data();
        o.ipiv = ipiv.data();
        o.lda = lda;
        o.ldb = ldb;
        o.strideA = strideA;
        o.strideB = strideB;
        o.strideIpiv = strideIpiv;
        return o;
    }

    std::vector<void*> A_ptrs, B_ptrs;
    std::vector<std::int32_t*> ipiv_ptrs;
};

using tdls::kernels::dtype_of;

/// The operation through the library's CPU backend.
template <typename T>
tdls_status_t run_cpu(Batch<T>& b, Operation op) {
    static tdls_handle_t cpu = [] {
        tdls_handle_t h = nullptr;
        tdls_create(&h, TDLS_BACKEND_CPU, 0);
        return h;
    }();
    const tdls_layout_t layout = b.row_major ? TDLS_ROW_MAJOR : TDLS_COL_MAJOR;
    const tdls::kernels::BatchOperands o = b.operands();
    const tdls_dtype_t t = dtype_of<T>;
    if (op == Operation::Solve) { // every form; A const, no pivots
        switch (b.form) {
        case BatchForm::Interleaved:
            return tdls_batched_solve_interleaved(cpu, t, layout, b.n, b.nrhs, o.A, o.B, o.info, b.batch, b.block);
        case BatchForm::Pointers:
            return tdls_batched_solve_ptr(cpu, t, layout, b.n, b.nrhs, o.A_array, b.lda, o.B_array, b.ldb, o.info,
                                          b.batch);
        case BatchForm::Strided:
            return tdls_batched_solve(cpu, t, layout, b.n, b.nrhs, o.A, b.lda, b.strideA, o.B, b.ldb, b.strideB,
                                      o.info, b.batch);
        }
    }
    switch (b.form) {
    case BatchForm::Interleaved:
        if (op == Operation::Gesv)
            return tdls_batched_gesv_interleaved(cpu, t, layout, b.n, b.nrhs, o.A, o.ipiv, o.B, o.info, b.batch,
                                                 b.block);
        break;
    case BatchForm::Pointers: {
        if (op == Operation::Gesv)
            return tdls_batched_gesv_ptr(cpu, t, layout, b.n, b.nrhs, o.A_array, b.lda, o.ipiv_array, o.B_array,
                                         b.ldb, o.info, b.batch);
        if (op == Operation::Getrf)
            return tdls_batched_getrf_ptr(cpu, t, layout, b.n, o.A_array, b.lda, o.ipiv_array, o.info, b.batch);
        const std::vector<const void*> A_array(o.A_array, o.A_array + b.batch);
        const std::vector<const std::int32_t*> ipiv_array(o.ipiv_array, o.ipiv_array + b.batch);
        return tdls_batched_getrs_ptr(cpu, t, layout, b.n, b.nrhs, A_array.data(), b.lda, ipiv_array.data(),
                                      o.B_array, b.ldb, b.batch);
    }
    case BatchForm::Strided:
        if (op == Operation::Gesv)
            return tdls_batched_gesv(cpu, t, layout, b.n, b.nrhs, o.A, b.lda, b.strideA, o.ipiv, b.strideIpiv, o.B,
                                     b.ldb, b.strideB, o.info, b.batch);
        if (op == Operation::Getrf)
            return tdls_batched_getrf(cpu, t, layout, b.n, o.A, b.lda, b.strideA, o.ipiv, b.strideIpiv, o.info,
                                      b.batch);
        return tdls_batched_getrs(cpu, t, layout, b.n, b.nrhs, o.A, b.lda, b.strideA, o.ipiv, b.strideIpiv, o.B,
                                  b.ldb, b.strideB, b.batch);
    }
    return TDLS_ERROR_NOT_SUPPORTED; // getrf/getrs have no interleaved form
}

/// Shared memory of one block: zeroed, 16-byte aligned.
struct SharedMemory {
    explicit SharedMemory(std::int64_t bytes) : storage(std::size_t(bytes / 16 + 1)) {}
    unsigned char* data() { return reinterpret_cast<unsigned char*>(storage.data()); }
    struct alignas(16) Chunk {
        unsigned char bytes[16];
    };
    std::vector<Chunk> storage;
};

/// Every block of every launch of the grid, one thread per lane.
template <typename Lane>
void emulate(GpuLaunch launch, const rt::Grid& grid, int block_threads, std::int64_t shared_bytes, Lane lane) {
    for (std::int64_t l = 0; l < grid.launches; ++l) {
        launch.first_system = l * grid.systems_per_launch;
        for (std::int64_t b = 0; b < grid.blocks_x * grid.blocks_y; ++b) {
            SharedMemory shared(shared_bytes);
            lane(launch, b, block_threads, shared.data());
        }
    }
}

// T is the host type of the batch; the drivers run in its device type, as the
// plugins' kernels do (ComplexPair for std::complex).
template <typename T, int N, int R, bool RowMajor>
void run_register(const GpuLaunch& launch, const rt::Grid& grid) {
    using D = tdls::kernels::device_scalar_t<T>;
    emulate(launch, grid, launch.plan.block_size, launch.plan.shared_memory_bytes,
            [](const GpuLaunch& l, std::int64_t block, int threads, unsigned char* shared) {
                tdls_test::group_of(threads).run([&](int t) {
                    tdls::kernels::gpu::RegisterDriver<D, N, R, RowMajor>::run(l, block, t, shared);
                });
            });
}

/// The block kernels' lanes on CPU threads (kernels/gpu/pivot_search.hpp's
/// Lanes): the block barrier a std::barrier, a warp shuffle an exchange
/// through memory and one block barrier (every thread of the block shuffles
/// at once in the solver). Two exchange buffers, used in turn: a thread
/// writes buffer k again only after the next shuffle's barrier, which every
/// thread reaches after reading buffer k. Warp: the device's warp size.
template <int Warp>
struct EmulatedLanes {
    static constexpr int warp = Warp;
    std::barrier<>* block;
    std::vector<double>* exchange; // 2 x threads slots: floats and ints travel exactly as doubles
    int tx;
    int threads;
    int turn = 0;

    void barrier() const { block->arrive_and_wait(); }
    template <typename V>
    V shuffle_down(V value, int delta) {
        double* const slots = exchange->data() + std::size_t(turn) * std::size_t(threads);
        turn ^= 1;
        slots[tx] = double(value);
        barrier();
        const int source = tx + delta;
        const bool exists = tx % Warp + delta < Warp && source < threads;
        return exists ? V(slots[source]) : value;
    }
};

template <typename T, bool RowMajor, int Warp>
void run_block_warps(const GpuLaunch& launch, const rt::Grid& grid) {
    using D = tdls::kernels::device_scalar_t<T>;
    emulate(launch, grid, launch.block_plan.threads, launch.block_plan.shared_memory_bytes,
            [](const GpuLaunch& l, std::int64_t block, int threads, unsigned char* shared) {
                std::barrier<> barrier(threads);
                std::vector<double> exchange(2 * std::size_t(threads), 0.0);
                tdls_test::group_of(threads).run([&](int t) {
                    tdls::kernels::gpu::BlockGroupBarrier<Warp, EmulatedLanes<Warp>> sync{
                        EmulatedLanes<Warp>{&barrier, &exchange, t, threads}};
                    if (l.block_plan.rows_per_thread == 1)
                        tdls::kernels::gpu::BlockDriver<D, 1, RowMajor>::run(l, block, t, shared, sync);
                    else
                        tdls::kernels::gpu::BlockDriver<D, 2, RowMajor>::run(l, block, t, shared, sync);
                });
            });
}

/// The block driver as the plugin built for `device` runs it: warps of 32
/// lanes (CUDA) or wavefronts of 64 (HIP on CDNA).
template <typename T, bool RowMajor>
void run_block(const GpuLaunch& launch, const rt::Grid& grid, const DeviceProperties& device) {
    if (device.warp_size == 64)
        run_block_warps<T, RowMajor, 64>(launch, grid);
    else
        run_block_warps<T, RowMajor, 32>(launch, grid);
}

template <typename T, bool RowMajor, int R>
void run_warp_rows(const GpuLaunch& launch, const rt::Grid& grid) {
    using D = tdls::kernels::device_scalar_t<T>;
    emulate(launch, grid, launch.warp_plan.groups.block_size, launch.warp_plan.groups.shared_memory_bytes,
            [](const GpuLaunch& l, std::int64_t block, int threads, unsigned char* shared) {
                tdls_test::group_of(threads).run(
                    [&](int t) { tdls::kernels::gpu::WarpDriver<D, R, RowMajor>::run(l, block, t, shared); });
            });
}

/// The warp kernel of the plan's rows per lane, as the plugin's launch_warp picks it.
template <typename T, bool RowMajor>
void run_warp(const GpuLaunch& launch, const rt::Grid& grid) {
    if (launch.warp_plan.groups.rows_per_thread == 1)
        run_warp_rows<T, RowMajor, 1>(launch, grid);
    else
        run_warp_rows<T, RowMajor, 2>(launch, grid);
}

template <typename T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// How a case ran: the drivers' batch against the CPU backend's.
template <typename T>
int mismatches(const Batch<T>& gpu, const Batch<T>& cpu) {
    return int(!same_bits(gpu.A, cpu.A)) + int(!same_bits(gpu.B, cpu.B)) + int(!same_bits(gpu.ipiv, cpu.ipiv)) +
           int(!same_bits(gpu.info, cpu.info));
}

constexpr Operation operations[] = {Operation::Gesv, Operation::Getrf, Operation::Getrs, Operation::Solve};

/// Whether the C ABI has the operation in the batch form (getrf and getrs:
/// strided and pointer arrays, no interleaved form).
bool has_form(Operation op, BatchForm form) {
    return op == Operation::Gesv || op == Operation::Solve || form != BatchForm::Interleaved;
}

/// Runs every form, operation and nrhs of one order through `run` and the CPU
/// backend; returns the cases compared.
template <typename T, typename Run>
int sweep(int n, bool row_major, std::int64_t batch, const Run& run) {
    int cases = 0;
    for (BatchForm form : {BatchForm::Strided, BatchForm::Pointers, BatchForm::Interleaved}) {
        for (Operation op : operations) {
            if (!has_form(op, form)) continue;
            for (int nrhs : {0, 1, 3}) {
                if (op == Operation::Getrf && nrhs != 0) continue;
                if (op == Operation::Getrs && nrhs == 0) continue;
                INFO("n " << n << ", row-major " << row_major << ", form " << int(form) << ", operation "
                          << int(op) << ", nrhs " << nrhs);
                const std::uint32_t seed = std::uint32_t(1000 * n + 10 * cases + row_major);
                Batch<T> gpu(n, nrhs, batch, form, row_major, seed), cpu(n, nrhs, batch, form, row_major, seed);
                if (op == Operation::Getrs) { // factors and pivots from the CPU backend, in both
                    REQUIRE(run_cpu(gpu, Operation::Getrf) == TDLS_SUCCESS);
                    REQUIRE(run_cpu(cpu, Operation::Getrf) == TDLS_SUCCESS);
                }
                REQUIRE(run_cpu(cpu, op) == TDLS_SUCCESS);
                tdls::kernels::BatchCall call;
                call.operation = op;
                call.operands = gpu.operands();
                if (op == Operation::Getrs) call.operands.info = nullptr;
                if (op == Operation::Solve) call.operands.ipiv = nullptr, call.operands.ipiv_array = nullptr;
                run(call);
                CHECK(mismatches(gpu, cpu) == 0);
                if (op == Operation::Solve) { // A and the pivots' memory as they were, on both sides
                    const Batch<T> pristine(n, nrhs, batch, form, row_major, seed);
                    CHECK(same_bits(gpu.A, pristine.A));
                    CHECK(same_bits(gpu.ipiv, pristine.ipiv));
                    CHECK(same_bits(cpu.A, pristine.A));
                }
                ++cases;
            }
        }
    }
    return cases;
}

template <typename T, int N, int R, bool RowMajor>
int register_cases(const DeviceProperties& device, std::int64_t batch) {
    const rt::Plan plan = rt::make_plan(N, dtype_of<T>, RowMajor ? TDLS_ROW_MAJOR : TDLS_COL_MAJOR, device);
    REQUIRE(plan.supported);
    REQUIRE(plan.rows_per_thread == R); // the instance is the one the plan picks
    return sweep<T>(N, RowMajor, batch, [&](const tdls::kernels::BatchCall& call) {
        GpuLaunch launch{};
        launch.call = call;
        launch.plan = plan;
        run_register<T, N, R, RowMajor>(launch, rt::make_grid(plan, call.operands.batch, device));
    });
}

template <typename T, bool RowMajor>
int block_cases(int n, const DeviceProperties& device, std::int64_t batch, rt::MatrixPlace place) {
    return sweep<T>(n, RowMajor, batch, [&](const tdls::kernels::BatchCall& call) {
        // As the plugin plans it: a solve never runs in place (its A is read-only).
        const bool packed = call.operation != Operation::Solve &&
                            (call.operands.form == BatchForm::Interleaved || call.operands.lda == n);
        GpuLaunch launch{};
        launch.call = call;
        launch.block_plan = rt::make_block_plan(n, dtype_of<T>, device, packed);
        const DeviceProperties* runs_on = &device;
        if (place == rt::MatrixPlace::InPlace && !packed) {
            // The matrix fits neither shared memory nor, unpacked, in place:
            // refused; run the case on a device where the copy fits instead.
            CHECK(!launch.block_plan.supported);
            runs_on = &devices::h200;
            launch.block_plan = rt::make_block_plan(n, dtype_of<T>, *runs_on, packed);
        } else {
            CHECK(launch.block_plan.matrix == place);
        }
        REQUIRE(launch.block_plan.supported);
        run_block<T, RowMajor>(launch, rt::make_block_grid(launch.block_plan, call.operands.batch, *runs_on),
                               *runs_on);
    });
}

template <typename T, bool RowMajor>
int warp_cases(int n, const DeviceProperties& device, std::int64_t batch, int expected_rows) {
    const rt::WarpPlan plan = rt::make_warp_plan(n, dtype_of<T>, device);
    REQUIRE(plan.supported);
    REQUIRE(plan.groups.rows_per_thread == expected_rows);
    return sweep<T>(n, RowMajor, batch, [&](const tdls::kernels::BatchCall& call) {
        GpuLaunch launch{};
        launch.call = call;
        launch.warp_plan = plan;
        run_warp<T, RowMajor>(launch, rt::make_grid(plan.groups, call.operands.batch, device));
    });
}

/// A device whose grids hold a single block: every block is its own launch.
DeviceProperties one_block_grids(DeviceProperties d) {
    d.max_grid_x = 1;
    d.max_grid_y = 1;
    return d;
}

} // namespace

TEST_CASE("register kernels on CPU threads match the fused CPU reference bitwise", "[gpu]") {
    int cases = 0;
    // H200: n = 8 double, one row per thread, 4 groups per warp, 32 systems per block.
    cases += register_cases<double, 8, 1, false>(devices::h200, 45);
    cases += register_cases<double, 8, 1, true>(one_block_grids(devices::h200), 45);
    // n = 11 float: two rows per thread, 5 groups of 6 per warp.
    cases += register_cases<float, 11, 2, false>(devices::h200, 50);
    cases += register_cases<float, 11, 2, true>(devices::h200, 50);
    // MI250X: wavefront 64, n = 6, 10 groups per wavefront.
    cases += register_cases<double, 6, 1, true>(devices::mi250x_gcd, 90);
    // Per order and layout: gesv 3 (nrhs 0, 1, 3) in each of the 3 forms, getrf 1 and getrs 2 in the
    // strided and pointer forms, solve 3 in each form.
    REQUIRE(cases == 5 * 24);
}

TEST_CASE("complex register kernels on CPU threads match the fused CPU reference bitwise", "[gpu][complex]") {
    // The kernels' ComplexPair against the CPU backend's std::complex: the
    // same products and quotients (tdls::product, tdls::quotient).
    using tdls::complex_double;
    using tdls::complex_float;
    int cases = 0;
    // H200: n = 8 complex double, one row per thread, 4 groups per warp.
    cases += register_cases<complex_double, 8, 1, false>(devices::h200, 45);
    // n = 11 complex float, row-major, on a wavefront of 64.
    cases += register_cases<complex_float, 11, 1, true>(devices::mi250x_gcd, 50);
    REQUIRE(cases == 2 * 24);
}

TEST_CASE("block kernels on CPU threads match the fused CPU reference bitwise", "[gpu]") {
    int cases = 0;
    // The matrix in shared memory: n = 40 double on an H200 (no register plan), n = 33 on MI250X.
    cases += block_cases<double, false>(40, devices::h200, 4, rt::MatrixPlace::Shared);
    cases += block_cases<float, true>(33, devices::mi250x_gcd, 3, rt::MatrixPlace::Shared);
    // In place, where the copy does not fit: a device with room for the workspace and the order only.
    DeviceProperties small = devices::h200;
    small.shared_memory_per_block = 2048;
    cases += block_cases<double, true>(24, one_block_grids(small), 3, rt::MatrixPlace::InPlace);
    // Two rows per thread, as past a kernel's bound: a device whose blocks hold 16 threads.
    DeviceProperties narrow = devices::h200;
    narrow.max_threads_per_block = 16;
    REQUIRE(rt::make_block_plan(27, TDLS_FLOAT64, narrow, false).rows_per_thread == 2);
    cases += block_cases<double, false>(27, narrow, 3, rt::MatrixPlace::Shared);
    REQUIRE(cases == 4 * 24);
}

TEST_CASE("complex block kernels on CPU threads match the fused CPU reference bitwise", "[gpu][complex]") {
    int cases = 0;
    cases += block_cases<tdls::complex_double, false>(40, devices::h200, 4, rt::MatrixPlace::Shared);
    DeviceProperties small = devices::h200;
    small.shared_memory_per_block = 2048;
    cases += block_cases<tdls::complex_float, true>(21, one_block_grids(small), 3, rt::MatrixPlace::InPlace);
    // Two rows per thread, the plan of complex double past 512, on a device whose blocks hold 16 threads
    // (n = 30: 15 threads, in place).
    DeviceProperties narrow = small;
    narrow.max_threads_per_block = 16;
    REQUIRE(rt::make_block_plan(30, TDLS_COMPLEX128, narrow, true).rows_per_thread == 2);
    cases += block_cases<tdls::complex_double, true>(30, one_block_grids(narrow), 3, rt::MatrixPlace::InPlace);
    REQUIRE(cases == 3 * 24);
}

TEST_CASE("warp kernels on CPU threads match the fused CPU reference bitwise", "[gpu]") {
    int cases = 0;
    // H200, n = 40 double: two rows per lane, groups of 20, 8 systems per block; 11 systems: a short block.
    cases += warp_cases<double, false>(40, devices::h200, 11, 2);
    // n = 5 float, row-major: one row per lane, 6 groups per warp, 48 per block; 50 systems: two blocks.
    cases += warp_cases<float, true>(5, devices::h200, 50, 1);
    // MI250X, n = 70 double: a wavefront of 64, two rows per lane, one system per block (41 KiB of 64).
    cases += warp_cases<double, true>(70, devices::mi250x_gcd, 3, 2);
    // One block per launch: the launches' first systems.
    cases += warp_cases<double, false>(33, one_block_grids(devices::h200), 10, 2);
    REQUIRE(cases == 4 * 24);
}

TEST_CASE("complex warp kernels on CPU threads match the fused CPU reference bitwise", "[gpu][complex]") {
    int cases = 0;
    cases += warp_cases<tdls::complex_double, false>(33, devices::h200, 5, 2);
    cases += warp_cases<tdls::complex_float, true>(12, devices::h200, 7, 1);
    REQUIRE(cases == 2 * 24);
}

TEST_CASE("a NULL entry of a device pointer array leaves that system untouched, info -1", "[gpu]") {
    const rt::Plan plan = rt::make_plan(8, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::h200);
    Batch<double> gpu(8, 1, 40, BatchForm::Pointers, false, 7), cpu(8, 1, 40, BatchForm::Pointers, false, 7);
    const Batch<double> original = gpu;
    REQUIRE(run_cpu(cpu, Operation::Gesv) == TDLS_SUCCESS);
    GpuLaunch launch{};
    launch.call.operands = gpu.operands();
    launch.plan = plan;
    gpu.B_ptrs[3] = nullptr; // system 3: no B
    launch.call.operands.B_array = gpu.B_ptrs.data();
    run_register<double, 8, 1, false>(launch, rt::make_grid(plan, 40, devices::h200));
    CHECK(gpu.info[3] == -1);
    cpu.info[3] = -1;
    // System 3 is the 37th in memory (the pointers run backwards): restore its expected bytes.
    const std::int64_t m = 40 - 1 - 3;
    std::copy_n(original.A.begin() + m * gpu.strideA, gpu.strideA, cpu.A.begin() + m * gpu.strideA);
    std::copy_n(original.B.begin() + m * gpu.strideB, gpu.strideB, cpu.B.begin() + m * gpu.strideB);
    std::copy_n(original.ipiv.begin() + m * gpu.strideIpiv, gpu.strideIpiv, cpu.ipiv.begin() + m * gpu.strideIpiv);
    CHECK(mismatches(gpu, cpu) == 0);
}

TEST_CASE("getrs leaves a system with pivots outside 1..n untouched", "[gpu]") {
    for (bool block_kernel : {false, true}) {
        INFO("block kernel " << block_kernel);
        const int n = 8;
        Batch<double> gpu(n, 2, 12, BatchForm::Strided, false, 11), cpu(n, 2, 12, BatchForm::Strided, false, 11);
        REQUIRE(run_cpu(gpu, Operation::Getrf) == TDLS_SUCCESS);
        REQUIRE(run_cpu(cpu, Operation::Getrf) == TDLS_SUCCESS);
        const std::vector<double> B_before = gpu.B;
        REQUIRE(run_cpu(cpu, Operation::Getrs) == TDLS_SUCCESS);
        gpu.ipiv[std::size_t(5 * gpu.strideIpiv + 2)] = n + 1; // system 5, entry 2
        cpu.ipiv[std::size_t(5 * gpu.strideIpiv + 2)] = n + 1;
        std::copy_n(B_before.begin() + 5 * gpu.strideB, gpu.strideB, cpu.B.begin() + 5 * gpu.strideB);
        GpuLaunch launch{};
        launch.call.operation = Operation::Getrs;
        launch.call.operands = gpu.operands();
        launch.call.operands.info = nullptr;
        if (block_kernel) {
            launch.block_plan = rt::make_block_plan(n, TDLS_FLOAT64, devices::h200, false);
            run_block<double, false>(launch, rt::make_block_grid(launch.block_plan, 12, devices::h200), devices::h200);
        } else {
            launch.plan = rt::make_plan(n, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::h200);
            run_register<double, 8, 1, false>(launch, rt::make_grid(launch.plan, 12, devices::h200));
        }
        CHECK(mismatches(gpu, cpu) == 0);
    }
}

TEST_CASE("negative control: the solve's checks see a factor write-back and a missing solution", "[gpu]") {
    // The register driver run as gesv where the CPU backend ran solve: A and
    // ipiv are written, which the comparisons of the solve cases must see.
    const rt::Plan plan = rt::make_plan(8, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::h200);
    Batch<double> gpu(8, 1, 12, BatchForm::Strided, false, 6), cpu(8, 1, 12, BatchForm::Strided, false, 6);
    const Batch<double> pristine(8, 1, 12, BatchForm::Strided, false, 6);
    REQUIRE(run_cpu(cpu, Operation::Solve) == TDLS_SUCCESS);
    GpuLaunch launch{};
    launch.call.operation = Operation::Gesv;
    launch.call.operands = gpu.operands();
    launch.plan = plan;
    run_register<double, 8, 1, false>(launch, rt::make_grid(plan, 12, devices::h200));
    CHECK_FALSE(same_bits(gpu.A, pristine.A));
    CHECK_FALSE(same_bits(gpu.ipiv, pristine.ipiv));
    CHECK(same_bits(gpu.B, cpu.B)); // the solution itself is gesv's
    CHECK(mismatches(gpu, cpu) == 2);
    // And a solve that solved nothing (B as it was) differs from the CPU's X.
    Batch<double> idle(8, 1, 12, BatchForm::Strided, false, 6);
    CHECK_FALSE(same_bits(idle.B, cpu.B));
}

TEST_CASE("negative control: the complex comparison sees imaginary parts", "[gpu][complex]") {
    // The drivers solve the conjugate system (every imaginary part negated,
    // real parts equal): a kernel that mishandled imaginary parts would look
    // like this, and the comparison must see it in A and B.
    using Z = tdls::complex_double;
    const rt::Plan plan = rt::make_plan(8, TDLS_COMPLEX128, TDLS_COL_MAJOR, devices::h200);
    Batch<Z> gpu(8, 1, 12, BatchForm::Strided, false, 8), cpu(8, 1, 12, BatchForm::Strided, false, 8);
    REQUIRE(run_cpu(cpu, Operation::Gesv) == TDLS_SUCCESS);
    for (Z& a : gpu.A) a = std::conj(a);
    for (Z& b : gpu.B) b = std::conj(b);
    GpuLaunch launch{};
    launch.call.operands = gpu.operands();
    launch.plan = plan;
    run_register<Z, 8, 1, false>(launch, rt::make_grid(plan, 12, devices::h200));
    CHECK_FALSE(same_bits(gpu.A, cpu.A));
    CHECK_FALSE(same_bits(gpu.B, cpu.B));
    CHECK(same_bits(gpu.info, cpu.info)); // the same singular systems
    // Conjugated back, the solution is the CPU's: only the imaginary parts' signs differed.
    for (Z& b : gpu.B) b = std::conj(b);
    CHECK(same_bits(gpu.B, cpu.B));
}

TEST_CASE("the block kernels' pivot search finds the scan's winner: largest, first among equals", "[gpu]") {
    // Every thread of an emulated block offers a candidate (magnitudes from a
    // set of 3, so that ties abound; some threads none); the warp shuffles and
    // the per-warp slots must give every thread the winner of a scan in thread
    // order, for full and short last warps, warps of 32 and 64.
    std::mt19937 random(5);
    int cases = 0, ties_decided_by_position = 0;
    for (const int warp : {32, 64})
        for (const int threads : {1, 5, 32, 33, 64, 65, 100, 130, 256}) {
            const std::size_t size = static_cast<std::size_t>(threads);
            std::vector<double> m(size);
            std::vector<int> p(size);
            for (int t = 0; t < threads; ++t) {
                m[std::size_t(t)] = double(random() % 3);
                // Positions unique, not in thread order (rows of several slots per thread in the solver).
                p[std::size_t(t)] = random() % 7 == 0 ? -1 : int((t * 37 + 11) % 1031);
            }
            double best = -1;
            int best_position = -1, first_thread = -1, equals = 0;
            for (int t = 0; t < threads; ++t)
                if (tdls::detail::coop::outranks(m[std::size_t(t)], p[std::size_t(t)], best, best_position)) {
                    best = m[std::size_t(t)], best_position = p[std::size_t(t)], first_thread = t;
                }
            for (int t = 0; t < threads; ++t) equals += p[std::size_t(t)] >= 0 && m[std::size_t(t)] == best;
            ties_decided_by_position += equals > 1 && first_thread >= 0;
            std::barrier<> barrier(threads);
            std::vector<double> exchange(2 * size), slot_m(size, -7), slot_p(size, -7);
            std::vector<int> got_position(size);
            std::vector<double> got_m(size);
            tdls_test::group_of(threads).run([&](int t) {
                const auto choose = [&](auto lanes_policy) {
                    tdls::kernels::gpu::BlockGroupBarrier<decltype(lanes_policy)::warp, decltype(lanes_policy)>
                        sync{lanes_policy};
                    const auto w = sync.reduce_candidates(t, threads, m[std::size_t(t)], p[std::size_t(t)],
                                                          slot_m.data(), slot_p.data());
                    got_position[std::size_t(t)] = w.position;
                    got_m[std::size_t(t)] = w.largest;
                };
                if (warp == 64)
                    choose(EmulatedLanes<64>{&barrier, &exchange, t, threads});
                else
                    choose(EmulatedLanes<32>{&barrier, &exchange, t, threads});
            });
            INFO("warp " << warp << ", threads " << threads);
            for (int t = 0; t < threads; ++t) {
                CHECK(got_position[std::size_t(t)] == best_position);
                CHECK(got_m[std::size_t(t)] == best);
            }
            ++cases;
        }
    REQUIRE(cases == 2 * 9);
    CHECK(ties_decided_by_position >= 12); // the cases test the tie rule, not only the maximum
}

TEST_CASE("negative control: the drivers' fused updates are not the unfused CPU kernel's", "[gpu]") {
    // The same batch through the block driver (fused multiply-adds) and the
    // scalar family's unfused kernel: the last bits differ somewhere, so the
    // bitwise agreement above is the fused reference's, not a coincidence.
    const int n = 40;
    Batch<double> gpu(n, 1, 4, BatchForm::Strided, false, 77), unfused(n, 1, 4, BatchForm::Strided, false, 77);
    tdls::kernels::BatchCall call;
    call.operation = Operation::Gesv;
    call.operands = unfused.operands();
    tdls::kernels::cpu::solve_range<double, 0, false, false>(call, 0, unfused.batch);
    call.operands = gpu.operands();
    GpuLaunch launch{};
    launch.call = call;
    launch.block_plan = rt::make_block_plan(n, TDLS_FLOAT64, devices::h200, false);
    REQUIRE(launch.block_plan.supported);
    run_block<double, false>(launch, rt::make_block_grid(launch.block_plan, 4, devices::h200), devices::h200);
    CHECK(same_bits(gpu.info, unfused.info)); // same pivots and verdicts: only roundings differ
    CHECK(same_bits(gpu.ipiv, unfused.ipiv));
    CHECK_FALSE(same_bits(gpu.A, unfused.A));
    CHECK_FALSE(same_bits(gpu.B, unfused.B));
    // And the fused reference run the same way agrees.
    Batch<double> fused(n, 1, 4, BatchForm::Strided, false, 77);
    call.operands = fused.operands();
    tdls::kernels::cpu::solve_range<double, 0, false, true>(call, 0, fused.batch);
    CHECK(mismatches(gpu, fused) == 0);
}

TEST_CASE("negative control: a grid one system short is caught", "[gpu]") {
    const rt::Plan plan = rt::make_plan(8, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::h200);
    Batch<double> gpu(8, 1, 40, BatchForm::Strided, false, 5), cpu(8, 1, 40, BatchForm::Strided, false, 5);
    REQUIRE(run_cpu(cpu, Operation::Gesv) == TDLS_SUCCESS);
    GpuLaunch launch{};
    launch.call.operands = gpu.operands();
    launch.plan = plan;
    const rt::Grid grid = rt::make_grid(plan, 40, devices::h200);
    launch.first_system = 1; // ignored: emulate() sets each launch's first system...
    launch.call.operands.batch = 39; // ...but a batch one short leaves the last system out
    run_register<double, 8, 1, false>(launch, grid);
    CHECK(mismatches(gpu, cpu) > 0);
    CHECK(gpu.info[39] == -9); // never written
}

// The launchers' shared-memory limit policy (kernels/gpu/once_per_device.hpp):
// the step runs once per device however many threads race for it, a failed
// step is retried by the next call, and devices are independent.
TEST_CASE("the shared-memory limit is raised once per device, by one of the racing threads", "[gpu]") {
    tdls::kernels::gpu::OncePerDevice once;
    std::atomic<int> steps_device_0{0}, steps_device_3{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 100; ++i) {
                std::atomic<int>& steps = t % 2 == 0 ? steps_device_0 : steps_device_3;
                const bool done = once.ensure(t % 2 == 0 ? 0 : 3, [&] {
                    steps.fetch_add(1);
                    return true;
                });
                if (!done) steps.fetch_add(1000); // never: the step succeeds
            }
        });
    for (std::thread& t : threads) t.join();
    CHECK(steps_device_0.load() == 1);
    CHECK(steps_device_3.load() == 1);
    CHECK(once.done(0));
    CHECK(once.done(3));
    CHECK_FALSE(once.done(1)); // control: a device no call touched
}

TEST_CASE("a failed shared-memory step is not remembered; untracked devices step every call", "[gpu]") {
    tdls::kernels::gpu::OncePerDevice once;
    int attempts = 0;
    const auto failing = [&] {
        ++attempts;
        return false;
    };
    CHECK_FALSE(once.ensure(2, failing));
    CHECK_FALSE(once.ensure(2, failing));
    CHECK(attempts == 2);
    CHECK_FALSE(once.done(2));
    const auto succeeding = [&] {
        ++attempts;
        return true;
    };
    CHECK(once.ensure(2, succeeding));
    CHECK(once.ensure(2, succeeding));
    CHECK(attempts == 3);
    const int untracked = tdls::kernels::gpu::OncePerDevice::tracked_devices;
    CHECK(once.ensure(untracked, succeeding));
    CHECK(once.ensure(untracked, succeeding));
    CHECK(attempts == 5);
    CHECK_FALSE(once.done(untracked));
}
