// Which CPU kernels the library runs (src/registry.cpp): the widest
// instruction set this machine executes, lowered by TDLS_CPU_KERNEL. The
// expectation is computed here on its own from the CPU's feature flags; ctest
// runs this binary once per value of the variable (the choice is made once per
// process), so that the C-ABI suites run under each value test what they say.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tdls/generated/instances.hpp>

#include "common/scalar_type.hpp"
#include "cpu/processor.hpp"
#include "cpu/simd/isa.hpp"
#include "registry.hpp"

namespace {

using tdls::runtime::CpuFamily;

int rank_of(const std::string& name) {
    if (name == "scalar") return 0;
    if (name == "generic") return 1;
    if (name == "avx2") return 2;
    if (name == "avx512") return 3;
    return -1;
}

std::string widest_here() {
#if defined(__x86_64__)
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
        return "avx512";
    if (avx2) return "avx2";
#endif
    return "generic";
}

std::string expected_family() {
    const std::string widest = widest_here();
    const char* requested = std::getenv("TDLS_CPU_KERNEL");
    if (requested != nullptr && std::string(requested) == "gpu_reference") return requested; // by name only
    if (requested == nullptr || rank_of(requested) < 0) return widest;
    return rank_of(requested) < rank_of(widest) ? requested : widest;
}

/// Whether /proc/cpuinfo names an AMD processor of family 25 (19h): read
/// here apart from the library's CPUID, for the complex rule below.
bool amd_family_19h() {
    std::FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (f == nullptr) return false;
    char line[256];
    bool amd = false, family_25 = false;
    while (std::fgets(line, sizeof line, f) != nullptr && !(amd && family_25)) {
        const std::string text = line;
        if (text.rfind("vendor_id", 0) == 0) amd = text.find("AuthenticAMD") != std::string::npos;
        if (text.rfind("cpu family", 0) == 0) family_25 = text.find(": 25") != std::string::npos;
    }
    std::fclose(f);
    return amd && family_25;
}

} // namespace

TEST_CASE("complex calls on a processor that splits 512-bit vectors take AVX2", "[registry][complex]") {
    using tdls::runtime::family_for;
    using tdls::runtime::FamilyChoice;
    const FamilyChoice zen4{CpuFamily::SimdAvx512, false, true, true};
    CHECK(family_for(TDLS_COMPLEX64, zen4) == CpuFamily::SimdAvx2);
    CHECK(family_for(TDLS_COMPLEX128, zen4) == CpuFamily::SimdAvx2);
    CHECK(family_for(tdls_dtype_t(7), zen4) == CpuFamily::SimdAvx512); // no type: unchanged
    // Real types, a request, full-width 512-bit units, no AVX2 build, another widest family: unchanged.
    CHECK(family_for(TDLS_FLOAT64, zen4) == CpuFamily::SimdAvx512);
    CHECK(family_for(TDLS_FLOAT32, zen4) == CpuFamily::SimdAvx512);
    CHECK(family_for(TDLS_COMPLEX64, {CpuFamily::SimdAvx512, true, true, true}) == CpuFamily::SimdAvx512);
    CHECK(family_for(TDLS_COMPLEX64, {CpuFamily::SimdAvx512, false, false, true}) == CpuFamily::SimdAvx512);
    CHECK(family_for(TDLS_COMPLEX64, {CpuFamily::SimdAvx512, false, true, false}) == CpuFamily::SimdAvx512);
    CHECK(family_for(TDLS_COMPLEX64, {CpuFamily::SimdGeneric, false, true, true}) == CpuFamily::SimdGeneric);

    // This process: the rule applied to what the test sees of the machine.
    const bool requested =
        std::getenv("TDLS_CPU_KERNEL") != nullptr && rank_of(std::getenv("TDLS_CPU_KERNEL")) >= 0;
    const bool zen4_here = amd_family_19h() && widest_here() == "avx512";
    CHECK(tdls::runtime::splits_512_bit_vectors() == zen4_here);
    const std::string expected =
        zen4_here && !requested && expected_family() == "avx512" ? "avx2" : expected_family();
    INFO("widest here " << widest_here() << ", AMD family 19h " << amd_family_19h());
    CHECK(std::string(tdls::runtime::name(tdls::runtime::cpu_family(TDLS_COMPLEX64))) == expected);
    CHECK(std::string(tdls::runtime::name(tdls::runtime::cpu_family(TDLS_FLOAT64))) == expected_family());
}

TEST_CASE("the CPU kernel family follows the machine and TDLS_CPU_KERNEL", "[registry]") {
    const std::string expected = expected_family();
    const char* requested = std::getenv("TDLS_CPU_KERNEL");
    INFO("TDLS_CPU_KERNEL=" << (requested ? requested : "(unset)") << ", widest here " << widest_here());
    const CpuFamily family = tdls::runtime::cpu_family();
    REQUIRE(std::string(tdls::runtime::name(family)) == expected);
    // Negative control: no other family's name matches.
    int others = 0;
    for (const char* other : {"scalar", "generic", "avx2", "avx512", "gpu_reference"})
        if (expected != other) {
            CHECK(std::string(tdls::runtime::name(family)) != other);
            ++others;
        }
    REQUIRE(others == 4);
}

TEST_CASE("the CPU kernels of each family tile their systems by the family's lanes", "[registry]") {
    int checked = 0;
    const struct {
        CpuFamily family;
        int double_lanes;
    } families[] = {{CpuFamily::Scalar, 1},
                    {CpuFamily::SimdGeneric, 2},
                    {CpuFamily::SimdAvx2, 4},
                    {CpuFamily::SimdAvx512, 8}};
    for (const auto& f : families) {
        for (const bool row_major : {false, true}) {
            for (const int n : {1, 2, 16, 17, 64, 65, tdls::runtime::blocked_from_order(TDLS_FLOAT64) - 1}) {
                const auto d = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, n, f.family);
                const auto s = tdls::runtime::cpu_kernel(TDLS_FLOAT32, row_major, n, f.family);
                REQUIRE(d.run != nullptr);
                REQUIRE(s.run != nullptr);
                CHECK(d.lanes == f.double_lanes);
                CHECK(s.lanes == (f.double_lanes == 1 ? 1 : 2 * f.double_lanes));
                CHECK(d.side_by_side == 1); // a tile's systems are its lanes
                ++checked;
            }
            // From blocked_from_order(dtype) on, real systems one per thread
            // (the family's blocked kernel, or the scalar family's
            // cooperative one), taken a cache line's worth at a time when
            // side by side; complex ones keep the dynamic tile up to max_order.
            const bool zen4 = tdls::kernels::cpu::amd_family_19h();
            CHECK(
                tdls::runtime::blocked_from_order(TDLS_FLOAT64) ==
                (zen4 ? tdls::kernels::cpu::simd::max_order + 1 : tdls::kernels::cpu::simd::blocked_from(8)));
            CHECK(
                tdls::runtime::blocked_from_order(TDLS_FLOAT32) ==
                (zen4 ? tdls::kernels::cpu::simd::max_order + 1 : tdls::kernels::cpu::simd::blocked_from(4)));
            // Complex systems have no blocked kernel: the tiles up to max_order.
            CHECK(tdls::runtime::blocked_from_order(TDLS_COMPLEX128) ==
                  tdls::kernels::cpu::simd::max_order + 1);
            CHECK(tdls::runtime::blocked_from_order(TDLS_COMPLEX64) ==
                  tdls::kernels::cpu::simd::max_order + 1);
            const auto complex_tile = tdls::runtime::cpu_kernel(TDLS_COMPLEX128, row_major, 65, f.family);
            for (const int n :
                 {tdls::kernels::cpu::simd::blocked_from(8), tdls::kernels::cpu::simd::blocked_from(4),
                  tdls::kernels::cpu::simd::max_order}) {
                INFO(tdls::runtime::name(f.family) << ", n = " << n);
                const bool blocked_d = n >= tdls::runtime::blocked_from_order(TDLS_FLOAT64);
                const bool blocked_s = n >= tdls::runtime::blocked_from_order(TDLS_FLOAT32);
                const bool simd = f.double_lanes > 1; // the scalar family has no blocked kernel
                const auto d = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, n, f.family);
                const auto s = tdls::runtime::cpu_kernel(TDLS_FLOAT32, row_major, n, f.family);
                const auto z = tdls::runtime::cpu_kernel(TDLS_COMPLEX128, row_major, n, f.family);
                CHECK(d.lanes == (blocked_d ? 1 : f.double_lanes));
                CHECK(s.lanes == (blocked_s || !simd ? 1 : 2 * f.double_lanes));
                CHECK(d.side_by_side == (blocked_d && simd ? 8 : 1));
                CHECK(s.side_by_side == (blocked_s && simd ? 16 : 1));
                CHECK(z.run == complex_tile.run);
                CHECK(z.lanes == complex_tile.lanes);
                ++checked;
            }
            // Past the SIMD kernels' largest order: the one-system-per-thread solver.
            const auto big = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major,
                                                       tdls::kernels::cpu::simd::max_order + 1, f.family);
            REQUIRE(big.run != nullptr);
            CHECK(big.lanes == 1);
            CHECK(tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, TDLS_MAX_ORDER + 1, f.family).run ==
                  nullptr);
            ++checked;
        }
    }
    REQUIRE(checked == 4 * 2 * 11);
}

using namespace tdls::scalar_names; // the type names of the generated lists

namespace {

/// An instance of the generated list, with the kernel it names.
struct Listed {
    tdls_dtype_t dtype;
    bool row_major;
    int order;
    tdls::kernels::cpu::RangeKernel kernel;
};

#define TDLS_TEST_LISTED(ISA, T, N, ROW_MAJOR)                                                               \
    Listed{tdls::kernels::dtype_of<T>, ROW_MAJOR, N,                                                         \
           &tdls::kernels::cpu::simd::ISA::solve_range<T, N, ROW_MAJOR>},
#define TDLS_TEST_GENERIC(T, N, ROW_MAJOR) TDLS_TEST_LISTED(generic, T, N, ROW_MAJOR)
#define TDLS_TEST_AVX2(T, N, ROW_MAJOR) TDLS_TEST_LISTED(avx2, T, N, ROW_MAJOR)
#define TDLS_TEST_AVX512(T, N, ROW_MAJOR) TDLS_TEST_LISTED(avx512, T, N, ROW_MAJOR)
const std::vector<Listed> listed_generic = {TDLS_SIMD_GENERIC_INSTANCES(TDLS_TEST_GENERIC)};
const std::vector<Listed> listed_avx2 = {TDLS_SIMD_AVX2_INSTANCES(TDLS_TEST_AVX2)};
const std::vector<Listed> listed_avx512 = {TDLS_SIMD_AVX512_INSTANCES(TDLS_TEST_AVX512)};
#undef TDLS_TEST_AVX512
#undef TDLS_TEST_AVX2
#undef TDLS_TEST_GENERIC
#undef TDLS_TEST_LISTED

} // namespace

TEST_CASE("the registry serves exactly the SIMD instances the build compiled", "[registry][instances]") {
    INFO("instance profile " << TDLS_INSTANCE_PROFILE_NAME);
    const struct {
        CpuFamily family;
        const std::vector<Listed>& listed;
    } families[] = {{CpuFamily::SimdGeneric, listed_generic},
                    {CpuFamily::SimdAvx2, listed_avx2},
                    {CpuFamily::SimdAvx512, listed_avx512}};
    int built = 0, static_hits = 0, dynamic_hits = 0, blocked_hits = 0;
    for (const auto& f : families) {
        if (f.listed.empty()) continue; // an instruction set this build left out
        ++built;
        int static_listed = 0;
        for (const Listed& l : f.listed) static_listed += l.order > 0;
        int static_served = 0;
        // Complex is listed at order 0 only (complex_lu.hpp): its dynamic kernel serves every order.
        for (const tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128})
            for (const bool row_major : {false, true}) {
                tdls::kernels::cpu::RangeKernel dynamic = nullptr;
                for (const Listed& l : f.listed)
                    if (l.dtype == dtype && l.row_major == row_major && l.order == 0) dynamic = l.kernel;
                REQUIRE(dynamic != nullptr); // every build has the dynamic kernel of each type and layout
                for (int n = 1; n <= tdls::kernels::cpu::simd::max_order; ++n) {
                    tdls::kernels::cpu::RangeKernel expected = dynamic;
                    for (const Listed& l : f.listed)
                        if (l.dtype == dtype && l.row_major == row_major && l.order == n) expected = l.kernel;
                    INFO(tdls::runtime::name(f.family)
                         << ", dtype " << int(dtype) << ", row_major " << row_major << ", n = " << n);
                    const auto served = tdls::runtime::cpu_kernel(dtype, row_major, n, f.family);
                    if (n >= tdls::runtime::blocked_from_order(dtype)) {
                        // The blocked kernel, one system per thread (the test above).
                        CHECK(served.run != expected);
                        CHECK(served.lanes == 1);
                        ++blocked_hits;
                        continue;
                    }
                    CHECK(served.run == expected);
                    if (expected == dynamic) {
                        ++dynamic_hits;
                    } else {
                        ++static_served;
                        ++static_hits;
                    }
                }
            }
        // Every listed static order was reached through the registry.
        CHECK(static_served == static_listed);
    }
    // The generic family is built everywhere, and every profile has static
    // SIMD orders and leaves some orders to the dynamic kernel.
    REQUIRE(built >= 1);
    REQUIRE(!listed_generic.empty());
    CHECK(static_hits > 0);
    CHECK(dynamic_hits > 0);
    // Real orders blocked_from(8)..max_order in double and blocked_from(4).. in float, per built family and
    // layout.
    if (!tdls::kernels::cpu::amd_family_19h())
        CHECK(blocked_hits ==
              built * 2 *
                  (2 * tdls::kernels::cpu::simd::max_order + 2 - tdls::kernels::cpu::simd::blocked_from(8) -
                   tdls::kernels::cpu::simd::blocked_from(4)));
}

TEST_CASE("the gpu_reference family serves the fused one-system-per-thread solver at every order",
          "[registry]") {
    // The GPU kernels' arithmetic (fused multiply-adds), never the scalar
    // family's unfused kernel, and at every order: it has no blocked kernel.
    int checked = 0;
    for (const bool row_major : {false, true})
        for (const int n : {1, 7, 64, tdls::kernels::cpu::simd::max_order + 1, TDLS_MAX_ORDER}) {
            INFO("row_major " << row_major << ", n = " << n);
            const auto d = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, n, CpuFamily::GpuReference);
            const auto z = tdls::runtime::cpu_kernel(TDLS_COMPLEX128, row_major, n, CpuFamily::GpuReference);
            const auto fused = row_major ? &tdls::kernels::cpu::solve_range<double, 0, true, true>
                                         : &tdls::kernels::cpu::solve_range<double, 0, false, true>;
            const auto fused_z = row_major ? &tdls::kernels::cpu::solve_range<complex_double, 0, true, true>
                                           : &tdls::kernels::cpu::solve_range<complex_double, 0, false, true>;
            CHECK(d.run == fused);
            CHECK(z.run == fused_z);
            CHECK(d.lanes == 1);
            // Negative control: the scalar family's kernel is another one.
            CHECK(tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, n, CpuFamily::Scalar).run != fused);
            ++checked;
        }
    CHECK(tdls::runtime::cpu_kernel(TDLS_FLOAT64, false, TDLS_MAX_ORDER + 1, CpuFamily::GpuReference).run ==
          nullptr);
    REQUIRE(checked == 2 * 5);
}
