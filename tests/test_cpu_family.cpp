// Which CPU kernels the library runs (src/registry.cpp): the widest
// instruction set this machine executes, lowered by TDLS_CPU_KERNEL. The
// expectation is computed here on its own from the CPU's feature flags; ctest
// runs this binary once per value of the variable (the choice is made once per
// process), so that the C-ABI suites run under each value test what they say.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

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
    if (requested == nullptr || rank_of(requested) < 0) return widest;
    return rank_of(requested) < rank_of(widest) ? requested : widest;
}

} // namespace

TEST_CASE("the CPU kernel family follows the machine and TDLS_CPU_KERNEL", "[registry]") {
    const std::string expected = expected_family();
    const char* requested = std::getenv("TDLS_CPU_KERNEL");
    INFO("TDLS_CPU_KERNEL=" << (requested ? requested : "(unset)") << ", widest here " << widest_here());
    const CpuFamily family = tdls::runtime::cpu_family();
    REQUIRE(std::string(tdls::runtime::name(family)) == expected);
    // Negative control: no other family's name matches.
    int others = 0;
    for (const char* other : {"scalar", "generic", "avx2", "avx512"})
        if (expected != other) {
            CHECK(std::string(tdls::runtime::name(family)) != other);
            ++others;
        }
    REQUIRE(others == 3);
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
            for (const int n : {1, 2, 16, 17, 64}) {
                const auto d = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, n, f.family);
                const auto s = tdls::runtime::cpu_kernel(TDLS_FLOAT32, row_major, n, f.family);
                REQUIRE(d.run != nullptr);
                REQUIRE(s.run != nullptr);
                CHECK(d.lanes == f.double_lanes);
                CHECK(s.lanes == (f.double_lanes == 1 ? 1 : 2 * f.double_lanes));
                ++checked;
            }
            // Past the SIMD kernels' largest order: the one-system-per-thread solver.
            const auto big = tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, 65, f.family);
            REQUIRE(big.run != nullptr);
            CHECK(big.lanes == 1);
            CHECK(tdls::runtime::cpu_kernel(TDLS_FLOAT64, row_major, TDLS_MAX_ORDER + 1, f.family).run ==
                  nullptr);
            ++checked;
        }
    }
    REQUIRE(checked == 4 * 2 * 6);
}
