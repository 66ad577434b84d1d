// The launch plan and the GPU driver's mapping, against the published
// properties of real devices: the invariants of every plan over a sweep of
// orders, scalar types and layouts, a few plans computed by hand, and an
// exhaustive check that the grid and map_lane solve every system of a batch
// exactly once, with a deliberately wrong mapping as the negative control.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>

#include "device_sets.hpp"
#include "common/plan.hpp"
#include "common/scalar_type.hpp"

namespace {

using tdls::runtime::DeviceProperties;
using tdls::runtime::Grid;
using tdls::runtime::LaneMapping;
using tdls::runtime::Plan;
using tdls::runtime::Vendor;
namespace runtime = tdls::runtime;
namespace devices = tdls_test::devices;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr tdls_dtype_t real_dtypes[] = {TDLS_FLOAT32, TDLS_FLOAT64};
constexpr tdls_layout_t layouts[] = {TDLS_COL_MAJOR, TDLS_ROW_MAJOR};

int element_bytes_of(tdls_dtype_t dtype) {
    return dtype == TDLS_FLOAT32 ? 4 : dtype == TDLS_COMPLEX128 ? 16 : 8;
}
bool is_complex(tdls_dtype_t dtype) {
    return dtype == TDLS_COMPLEX64 || dtype == TDLS_COMPLEX128;
}
constexpr tdls_dtype_t all_dtypes[] = {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128};

/// Every order from 1 to 256, then orders up to and past TDLS_MAX_ORDER and nonsense ones.
std::vector<std::int64_t> swept_orders() {
    std::vector<std::int64_t> orders;
    for (std::int64_t n = 1; n <= 256; ++n) orders.push_back(n);
    for (std::int64_t n : {257, 300, 511, 512, 1000, 1023, 1024, 1025, 2048}) orders.push_back(n);
    for (std::int64_t n : {std::int64_t(0), std::int64_t(-1), int64_max}) orders.push_back(n);
    return orders;
}

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

/// Rows per thread that keep the group in one warp and the rows within half the registers a thread may
/// address, written independently of the library: each with its group size and groups per warp.
struct Candidate {
    int rows;
    int threads;
    int groups;
};

std::vector<Candidate> valid_rows_per_thread(std::int64_t n, int element_bytes, const DeviceProperties& device,
                                             bool complex = false) {
    std::vector<Candidate> valid;
    // Half the registers for real rows, a quarter for complex ones (their arithmetic's temporaries).
    const std::int64_t budget = (device.max_registers_per_thread + 1) / (complex ? 4 : 2);
    for (std::int64_t rows = 1; rows <= n; ++rows) {
        const std::int64_t threads = (n + rows - 1) / rows;
        const std::int64_t registers = rows * n * element_bytes / 4;
        if (threads <= device.warp_size && registers <= budget)
            valid.push_back({int(rows), int(threads), device.warp_size / int(threads)});
    }
    return valid;
}

/// The rule of the plan, stated as a choice over the whole candidate set: the smallest candidate whose
/// warp has at least 3/4 of its row slots busy, else the busiest (ties to the smallest); 0 if none.
int expected_rows_per_thread(std::int64_t n, int element_bytes, const DeviceProperties& device,
                             bool complex = false) {
    const std::vector<Candidate> valid = valid_rows_per_thread(n, element_bytes, device, complex);
    const auto busy_slots = [&](const Candidate& c) { return n * c.groups; };
    const auto all_slots = [&](const Candidate& c) { return std::int64_t(device.warp_size) * c.rows; };
    for (const Candidate& c : valid)
        if (4 * busy_slots(c) >= 3 * all_slots(c)) return c.rows;
    const Candidate* best = nullptr;
    for (const Candidate& c : valid)
        if (best == nullptr || busy_slots(c) * all_slots(*best) > busy_slots(*best) * all_slots(c)) best = &c;
    return best == nullptr ? 0 : best->rows;
}

/// Checks every invariant of a supported GPU plan.
void check_gpu_plan(const Plan& plan, std::int64_t n, int element_bytes, const DeviceProperties& device) {
    const int warp = device.warp_size;
    CHECK(plan.warp_size == warp);
    CHECK(plan.element_bytes == element_bytes);
    // The group: rows_per_thread rows per thread, inside one warp.
    CHECK(plan.rows_per_thread >= 1);
    CHECK(plan.threads_per_system == (n + plan.rows_per_thread - 1) / plan.rows_per_thread);
    CHECK(plan.threads_per_system <= warp);
    CHECK(plan.groups_per_warp == warp / plan.threads_per_system);
    CHECK(plan.groups_per_warp * plan.threads_per_system <= warp);
    CHECK(std::int64_t(plan.rows_per_thread) * n * element_bytes / 4 <=
          (device.max_registers_per_thread + 1) / 2);
    // The block: whole warps, within the device's limits.
    CHECK(plan.block_size % warp == 0);
    CHECK(plan.block_size >= warp);
    CHECK(plan.block_size <= device.max_threads_per_block);
    CHECK(std::int64_t(plan.block_size) * device.max_registers_per_thread <=
          device.registers_per_multiprocessor);
    CHECK(plan.systems_per_block == plan.block_size / warp * plan.groups_per_warp);
    // The workspace: the solver's size, 16-byte slots, within the block's shared memory.
    CHECK(plan.workspace_elements ==
          tdls::detail::coop::workspace_elements<true>(int(n), plan.threads_per_system));
    CHECK(plan.shared_memory_bytes ==
          plan.systems_per_block * round_up(std::int64_t(plan.workspace_elements) * element_bytes, 16));
    CHECK(plan.shared_memory_bytes <= device.shared_memory_per_block);
    CHECK(plan.shared_memory_bytes <= device.shared_memory_per_multiprocessor);
}

/// What an exhaustive walk of every lane of every block of every launch found.
struct Coverage {
    std::int64_t lanes_visited = 0;
    std::int64_t active_lanes = 0;
    std::int64_t missing = 0;        // (system, rank) pairs no lane took
    std::int64_t duplicated = 0;     // (system, rank) pairs several lanes took
    std::int64_t out_of_range = 0;   // active lanes with a system or rank outside the batch or group
    std::int64_t split_groups = 0;   // active lanes whose group is not whole, consecutive lanes of one warp
    std::int64_t bad_workspaces = 0; // workspaces off a 16-byte boundary, overlapping or outside the block
    std::int64_t wrong_slots = 0;    // active lanes whose group_in_block is not their system's place in the block
    bool ok() const { return missing + duplicated + out_of_range + split_groups + bad_workspaces + wrong_slots == 0; }
};

using Mapper = LaneMapping (*)(const Plan&, std::int64_t, int, std::int64_t, std::int64_t);

/// Walks every lane the grid launches and counts how often each (system, rank) is taken.
Coverage check_coverage(const Plan& plan, const Grid& grid, std::int64_t batch, Mapper mapper) {
    Coverage found;
    const int group = plan.threads_per_system;
    std::vector<int> taken(std::size_t(batch) * std::size_t(group), 0);
    std::vector<LaneMapping> block_lanes(std::size_t(plan.block_size));
    const std::int64_t blocks_per_launch = grid.blocks_x * grid.blocks_y;
    for (std::int64_t launch = 0; launch < grid.launches; ++launch) {
        const std::int64_t first = launch * grid.systems_per_launch;
        for (std::int64_t block = 0; block < blocks_per_launch; ++block) {
            for (int thread = 0; thread < plan.block_size; ++thread) {
                const LaneMapping lane = mapper(plan, block, thread, first, batch);
                block_lanes[std::size_t(thread)] = lane;
                ++found.lanes_visited;
                if (!lane.active) continue;
                ++found.active_lanes;
                if (lane.system < 0 || lane.system >= batch || lane.tx < 0 || lane.tx >= group) {
                    ++found.out_of_range;
                    continue;
                }
                // The group's workspace slot is its place among the block's systems.
                if (lane.group_in_block != lane.system - first - block * plan.systems_per_block)
                    ++found.wrong_slots;
                ++taken[std::size_t(lane.system) * std::size_t(group) + std::size_t(lane.tx)];
            }
            // Each active lane's group is lanes thread - tx .. thread - tx + group - 1 of its warp,
            // all active on the same system, ranked in order.
            for (int thread = 0; thread < plan.block_size; ++thread) {
                const LaneMapping lane = block_lanes[std::size_t(thread)];
                if (!lane.active) continue;
                const int first_lane = thread - lane.tx;
                const bool one_warp =
                    first_lane >= 0 &&
                    first_lane / plan.warp_size == (first_lane + group - 1) / plan.warp_size &&
                    first_lane + group <= plan.block_size;
                bool whole = one_warp;
                for (int k = 0; whole && k < group; ++k) {
                    const LaneMapping member = block_lanes[std::size_t(first_lane + k)];
                    whole = member.active && member.system == lane.system && member.tx == k;
                }
                if (!whole) ++found.split_groups;
            }
        }
    }
    for (int count : taken) {
        if (count == 0) ++found.missing;
        if (count > 1) ++found.duplicated;
    }
    // Workspaces of the block's groups: 16-byte aligned, disjoint, inside the block's shared memory.
    for (int g = 0; g < plan.systems_per_block; ++g) {
        const std::int64_t offset = runtime::workspace_offset(plan, g);
        const std::int64_t begin = offset * plan.element_bytes;
        const std::int64_t end = begin + std::int64_t(plan.workspace_elements) * plan.element_bytes;
        const bool disjoint =
            g == 0 || offset - runtime::workspace_offset(plan, g - 1) >= plan.workspace_elements;
        const bool inside = plan.shared_memory_bytes == 0 || end <= plan.shared_memory_bytes;
        if (begin % 16 != 0 || !disjoint || !inside) ++found.bad_workspaces;
    }
    return found;
}

/// map_lane with an off-by-one at the end of the batch: the lane of system `batch` is active too.
LaneMapping map_lane_past_the_end(const Plan& plan, std::int64_t block, int thread, std::int64_t first,
                                  std::int64_t batch) {
    return runtime::map_lane(plan, block, thread, first, batch + 1);
}

/// map_lane with an off-by-one in the stride between blocks: consecutive blocks share a system.
LaneMapping map_lane_short_block_stride(const Plan& plan, std::int64_t block, int thread, std::int64_t first,
                                        std::int64_t batch) {
    const int warp = thread / plan.warp_size;
    const int lane = thread % plan.warp_size;
    const int group_in_warp = lane / plan.threads_per_system;
    if (group_in_warp >= plan.groups_per_warp) return {-1, 0, false, 0};
    const std::int64_t system = first + block * (plan.systems_per_block - 1) +
                                std::int64_t(warp) * plan.groups_per_warp + group_in_warp;
    if (system >= batch) return {-1, 0, false, 0};
    return {system, lane % plan.threads_per_system, true, warp * plan.groups_per_warp + group_in_warp};
}

/// map_lane with an off-by-one in the rank: tx counts from 1.
LaneMapping map_lane_rank_from_one(const Plan& plan, std::int64_t block, int thread, std::int64_t first,
                                   std::int64_t batch) {
    LaneMapping lane = runtime::map_lane(plan, block, thread, first, batch);
    if (lane.active) lane.tx += 1;
    return lane;
}

/// A device like `base` whose grids hold at most max_x by max_y blocks, to force several launches.
DeviceProperties with_grid(DeviceProperties base, std::int64_t max_x, std::int64_t max_y) {
    base.max_grid_x = max_x;
    base.max_grid_y = max_y;
    return base;
}

/// The grid's own promises: within the device's limits, covering the batch, no launch wasted.
void check_grid(const Grid& grid, const Plan& plan, std::int64_t batch, const DeviceProperties& device) {
    if (batch == 0) {
        CHECK(grid.blocks_x == 0);
        CHECK(grid.blocks_y == 0);
        CHECK(grid.launches == 0);
        CHECK(grid.systems_per_launch == 0);
        return;
    }
    CHECK(grid.blocks_x >= 1);
    CHECK(grid.blocks_y >= 1);
    CHECK(grid.blocks_x <= device.max_grid_x);
    CHECK(grid.blocks_y <= std::max<std::int64_t>(1, device.max_grid_y));
    CHECK(grid.launches >= 1);
    // launches = ceil(batch / systems_per_launch): enough to cover the batch, and no launch beyond it.
    CHECK(grid.launches == (batch - 1) / grid.systems_per_launch + 1);
    if (grid.launches == 1) {
        CHECK(grid.systems_per_launch == batch);
        // The blocks of the one launch hold the batch; division keeps this free of overflow.
        CHECK((batch - 1) / plan.systems_per_block / grid.blocks_x < grid.blocks_y);
    } else {
        CHECK(grid.systems_per_launch == grid.blocks_x * grid.blocks_y * plan.systems_per_block);
        CHECK(grid.systems_per_launch < batch);
    }
}

} // namespace

TEST_CASE("GPU plans keep every invariant on every device set", "[plan]") {
    const std::vector<std::int64_t> orders = swept_orders();
    int cases = 0;
    int supported = 0;
    for (const DeviceProperties& device : devices::all_gpus) {
        for (std::int64_t n : orders) {
            for (tdls_dtype_t dtype : real_dtypes) {
                const int element_bytes = element_bytes_of(dtype);
                const Plan col = runtime::make_plan(n, dtype, TDLS_COL_MAJOR, device);
                const Plan row = runtime::make_plan(n, dtype, TDLS_ROW_MAJOR, device);
                for (const Plan& plan : {col, row}) {
                    INFO(device.name << ", n = " << n << ", " << element_bytes << "-byte elements");
                    ++cases;
                    // The layout changes no size today.
                    CHECK(plan == col);
                    if (n < 1 || n > TDLS_MAX_ORDER) {
                        CHECK(plan == Plan{});
                        continue;
                    }
                    const bool fits = expected_rows_per_thread(n, element_bytes, device) != 0;
                    CHECK(plan.supported == fits);
                    if (!plan.supported) {
                        CHECK(plan == Plan{});
                        continue;
                    }
                    ++supported;
                    check_gpu_plan(plan, n, element_bytes, device);
                }
            }
        }
    }
    REQUIRE(cases == int(devices::all_gpus.size() * orders.size() * 2 * 2));
    // Every device solves every order up to 32 in both types (MAGMA's small-system range).
    REQUIRE(supported >= int(devices::all_gpus.size()) * 32 * 2 * 2);
}

TEST_CASE("rows_per_thread is the smallest well-used valid choice, else the best-used one", "[plan]") {
    int cases = 0;
    int chosen_above_smallest = 0;
    int below_well_used = 0;
    for (const DeviceProperties& device : devices::all_gpus) {
        for (std::int64_t n = 1; n <= TDLS_MAX_ORDER; ++n) {
            for (tdls_dtype_t dtype : all_dtypes) {
                const int element_bytes = element_bytes_of(dtype);
                const bool complex = is_complex(dtype);
                INFO(device.name << ", n = " << n << ", " << element_bytes << "-byte elements, complex " << complex);
                ++cases;
                const Plan plan = runtime::make_plan(n, dtype, TDLS_COL_MAJOR, device);
                const int expected = expected_rows_per_thread(n, element_bytes, device, complex);
                CHECK(plan.rows_per_thread == expected);
                CHECK(runtime::choose_rows_per_thread(int(n), element_bytes, device.warp_size,
                                                      device.max_registers_per_thread, complex) == expected);
                const std::vector<Candidate> valid = valid_rows_per_thread(n, element_bytes, device, complex);
                if (!valid.empty() && expected != valid.front().rows) ++chosen_above_smallest;
                if (plan.supported &&
                    4 * n * plan.groups_per_warp < 3 * std::int64_t(device.warp_size) * plan.rows_per_thread)
                    ++below_well_used;
            }
        }
    }
    REQUIRE(cases == int(devices::all_gpus.size()) * TDLS_MAX_ORDER * 4);
    // Both branches of the rule are exercised: a larger rows_per_thread chosen to fill the warp, and a
    // fallback where no choice reaches three quarters.
    REQUIRE(chosen_above_smallest > 0);
    REQUIRE(below_well_used > 0);
}

TEST_CASE("CPU plan: one thread per system, workspace on the stack", "[plan]") {
    const std::vector<std::int64_t> orders = swept_orders();
    int cases = 0;
    for (int threads : {1, 8, 64}) {
        const DeviceProperties cpu = runtime::cpu_properties(threads);
        CHECK(cpu.vendor == Vendor::Cpu);
        CHECK(cpu.warp_size == 1);
        CHECK(cpu.cpu_threads == threads);
        CHECK(cpu.max_grid_x == int64_max);
        CHECK(cpu.max_threads_per_block == 0);
        CHECK(cpu.shared_memory_per_block == 0);
        CHECK(cpu.max_registers_per_thread == 0);
        CHECK(cpu.multiprocessors == 0);
        CHECK(cpu.max_grid_y == 0);
        for (std::int64_t n : orders) {
            for (tdls_dtype_t dtype : real_dtypes) {
                for (tdls_layout_t layout : layouts) {
                    INFO("n = " << n << ", dtype " << int(dtype) << ", layout " << int(layout));
                    ++cases;
                    const Plan plan = runtime::make_plan(n, dtype, layout, cpu);
                    if (n < 1 || n > TDLS_MAX_ORDER) {
                        CHECK(plan == Plan{});
                        continue;
                    }
                    REQUIRE(plan.supported);
                    CHECK(plan.rows_per_thread == n);
                    CHECK(plan.threads_per_system == 1);
                    CHECK(plan.groups_per_warp == 1);
                    CHECK(plan.systems_per_block == 1);
                    CHECK(plan.block_size == 1);
                    CHECK(plan.warp_size == 1);
                    CHECK(plan.shared_memory_bytes == 0);
                    CHECK(plan.element_bytes == element_bytes_of(dtype));
                    CHECK(plan.workspace_elements == tdls::detail::coop::workspace_elements<true>(int(n), 1));
                }
            }
        }
    }
    REQUIRE(cases == 3 * int(orders.size()) * 2 * 2);
}

// Values outside an enumeration's range cannot be formed in C++ without undefined behaviour; the C ABI
// rejects them before the runtime sees them, so only the valid enumerators are tried here.
TEST_CASE("complex types plan by their element size; orders out of range have no plan", "[plan]") {
    std::vector<DeviceProperties> all(devices::all_gpus.begin(), devices::all_gpus.end());
    all.push_back(runtime::cpu_properties(4));
    int cases = 0;
    for (const DeviceProperties& device : all) {
        INFO(device.name);
        for (tdls_layout_t layout : layouts) {
            for (std::int64_t n : {1, 8, 32}) {
                // 8 bytes either way: the plan of a complex float is that of a double.
                ++cases;
                CHECK(runtime::make_plan(n, TDLS_COMPLEX64, layout, device) ==
                      runtime::make_plan(n, TDLS_FLOAT64, layout, device));
                // 16 bytes: twice the registers of a double per row, never more rows.
                ++cases;
                const Plan z = runtime::make_plan(n, TDLS_COMPLEX128, layout, device);
                const Plan d = runtime::make_plan(n, TDLS_FLOAT64, layout, device);
                CHECK(z.element_bytes == (z.supported ? 16 : 0));
                CHECK(z.rows_per_thread <= d.rows_per_thread);
                if (device.vendor == runtime::Vendor::Cpu) CHECK(z.supported);
            }
        }
        for (std::int64_t n : {std::int64_t(TDLS_MAX_ORDER) + 1, std::int64_t(0), std::int64_t(-5),
                               std::numeric_limits<std::int64_t>::min(), int64_max}) {
            ++cases;
            CHECK(runtime::make_plan(n, TDLS_FLOAT32, TDLS_COL_MAJOR, device) == Plan{});
        }
        // An unsupported plan launches nothing, whatever the batch.
        ++cases;
        const Grid none = runtime::make_grid(Plan{}, 1000, device);
        CHECK(
            (none.blocks_x == 0 && none.blocks_y == 0 && none.launches == 0 && none.systems_per_launch == 0));
    }
    REQUIRE(cases == int(all.size()) * (2 * 3 * 2 + 5 + 1));
}

TEST_CASE("plans computed by hand", "[plan]") {
    struct Expected {
        const char* what;
        DeviceProperties device;
        std::int64_t n;
        tdls_dtype_t dtype;
        Plan plan;
    };
    // A device whose block may hold only 3000 bytes of shared memory, and one that holds less than a
    // workspace, to exercise the shared-memory rule; one with 64-thread blocks for the thread limit.
    DeviceProperties small_shared = devices::h200;
    small_shared.shared_memory_per_block = 3000;
    DeviceProperties tiny_shared = devices::h200;
    tiny_shared.shared_memory_per_block = 1000;
    DeviceProperties small_blocks = devices::mi250x_gcd;
    small_blocks.max_threads_per_block = 64;

    // Workspace (physical interchanges): 2 + 2n + 2 threads + 5 elements, slots rounded up to 16 bytes.
    // Register budget: 128 registers on sm_80/sm_90 and RDNA3 (255 or 256 addressable), 256 on gfx90a.
    const DeviceProperties& h200 = devices::h200;
    const DeviceProperties& mi250x = devices::mi250x_gcd;
    const DeviceProperties& rdna3 = devices::rx7900xtx;
    const DeviceProperties cpu = runtime::cpu_properties(8);
    constexpr tdls_dtype_t f32 = TDLS_FLOAT32;
    constexpr tdls_dtype_t f64 = TDLS_FLOAT64;
    const Expected table[] = {
        // n = 8: one row per thread, 4 groups of 8 per warp; 39 doubles = 312 B -> 320 B slots.
        {"H200 double n=8", h200, 8, f64, {true, 1, 8, 4, 32, 256, 39, 32 * 320, 8, 32}},
        // n = 17: 1 row idles 15 lanes; 2 rows: 3 groups of 9 (51 of 64 slots busy); 59 doubles -> 480 B.
        {"H200 double n=17", h200, 17, f64, {true, 2, 9, 3, 24, 256, 59, 24 * 480, 8, 32}},
        // n = 20: 2 rows, 3 groups of 10; 67 doubles = 536 B -> 544 B.
        {"H200 double n=20", h200, 20, f64, {true, 2, 10, 3, 24, 256, 67, 24 * 544, 8, 32}},
        // n = 32: the warp is the group; 32 doubles of rows = 64 registers; 135 doubles = 1080 B -> 1088 B.
        {"H200 double n=32", h200, 32, f64, {true, 1, 32, 1, 8, 256, 135, 8 * 1088, 8, 32}},
        // n = 33 and up in double: 2 rows of 33 doubles are 132 registers, above the budget of 128.
        {"H200 double n=33", h200, 33, f64, Plan{}},
        {"H200 double n=64", h200, 64, f64, Plan{}},
        {"H200 double n=256", h200, 256, f64, Plan{}},
        // n = 64 in float: 2 rows of 64 floats = 128 registers, the whole budget; 199 floats -> 800 B.
        {"H200 float n=64", h200, 64, f32, {true, 2, 32, 1, 8, 256, 199, 8 * 800, 4, 32}},
        {"A100 float n=64", devices::a100, 64, f32, {true, 2, 32, 1, 8, 256, 199, 8 * 800, 4, 32}},
        {"H100 float n=65", devices::h100_sxm, 65, f32, Plan{}},
        // n = 1: 32 one-thread groups per warp, 256 per block; 11 floats = 44 B -> 48 B.
        {"H200 float n=1", h200, 1, f32, {true, 1, 1, 32, 256, 256, 11, 256 * 48, 4, 32}},
        // MI250X: wavefront 64, 4 wavefronts per block of 256; 2 groups of 32 per wavefront.
        {"MI250X double n=32", mi250x, 32, f64, {true, 1, 32, 2, 8, 256, 135, 8 * 1088, 8, 64}},
        // n = 40: 1 row idles 24 of 64 lanes; 2 rows: 3 groups of 20 (160 of 256 registers); 127 -> 1024 B.
        {"MI250X double n=40", mi250x, 40, f64, {true, 2, 20, 3, 12, 256, 127, 12 * 1024, 8, 64}},
        // n = 64: the wavefront is the group, 128 registers of rows; 263 doubles = 2104 B -> 2112 B.
        {"MI250X double n=64", mi250x, 64, f64, {true, 1, 64, 1, 4, 256, 263, 4 * 2112, 8, 64}},
        // n = 128 double needs 2 rows of 128 doubles = 512 registers; in float 256, the whole budget.
        {"MI250X double n=128", mi250x, 128, f64, Plan{}},
        {"MI250X float n=128", mi250x, 128, f32, {true, 2, 64, 1, 4, 256, 391, 4 * 1568, 4, 64}},
        // RDNA3 wave32: 8 waves per block of 256 (98304 / (32 x 256) = 12 would fit the registers).
        {"RX 7900 XTX double n=32", rdna3, 32, f64, {true, 1, 32, 1, 8, 256, 135, 8 * 1088, 8, 32}},
        // Shared memory: 1088 B per warp, 3000 B per block -> 2 warps; 1000 B -> not even one workspace.
        {"H200 n=32, 3000 B", small_shared, 32, f64, {true, 1, 32, 1, 2, 64, 135, 2 * 1088, 8, 32}},
        {"H200 n=32, 1000 B", tiny_shared, 32, f64, Plan{}},
        // Thread limit: one 64-lane wavefront per block.
        {"MI250X n=32, 64 threads", small_blocks, 32, f64, {true, 1, 32, 2, 2, 64, 135, 2 * 1088, 8, 64}},
        // CPU: the whole system in one thread; 2 + 2048 + 2 + 5 elements.
        {"CPU double n=1024", cpu, 1024, f64, {true, 1024, 1, 1, 1, 1, 2057, 0, 8, 1}},
        {"CPU float n=1", cpu, 1, f32, {true, 1, 1, 1, 1, 1, 11, 0, 4, 1}},
    };
    int cases = 0;
    for (const Expected& e : table) {
        for (tdls_layout_t layout : layouts) {
            INFO(e.what << ", layout " << int(layout));
            ++cases;
            const Plan plan = runtime::make_plan(e.n, e.dtype, layout, e.device);
            CHECK(plan.supported == e.plan.supported);
            CHECK(plan.rows_per_thread == e.plan.rows_per_thread);
            CHECK(plan.threads_per_system == e.plan.threads_per_system);
            CHECK(plan.groups_per_warp == e.plan.groups_per_warp);
            CHECK(plan.systems_per_block == e.plan.systems_per_block);
            CHECK(plan.block_size == e.plan.block_size);
            CHECK(plan.workspace_elements == e.plan.workspace_elements);
            CHECK(plan.shared_memory_bytes == e.plan.shared_memory_bytes);
            CHECK(plan.element_bytes == e.plan.element_bytes);
            CHECK(plan.warp_size == e.plan.warp_size);
        }
    }
    REQUIRE(cases == int(sizeof(table) / sizeof(table[0])) * 2);
}

TEST_CASE("grids cover batches within the device's limits", "[plan][grid]") {
    const DeviceProperties tiny = with_grid(devices::h200, 10, 7);
    const DeviceProperties narrow = with_grid(devices::mi250x_gcd, 3, 1);
    const DeviceProperties cpu = runtime::cpu_properties(4);
    struct Setup {
        DeviceProperties device;
        std::int64_t n;
        tdls_dtype_t dtype;
    };
    const Setup setups[] = {{devices::h200, 8, TDLS_FLOAT64},
                            {devices::h200, 32, TDLS_FLOAT64},
                            {devices::mi250x_gcd, 40, TDLS_FLOAT64},
                            {devices::rx7900xtx, 1, TDLS_FLOAT32},
                            {tiny, 8, TDLS_FLOAT64},
                            {tiny, 20, TDLS_FLOAT64},
                            {narrow, 32, TDLS_FLOAT64},
                            {cpu, 5, TDLS_FLOAT64}};
    int cases = 0;
    for (const Setup& s : setups) {
        const Plan plan = runtime::make_plan(s.n, s.dtype, TDLS_COL_MAJOR, s.device);
        REQUIRE(plan.supported);
        const std::int64_t per_block = plan.systems_per_block;
        for (std::int64_t batch :
             {std::int64_t(0), std::int64_t(1), per_block - 1, per_block, per_block + 1, std::int64_t(1000),
              std::int64_t(70000), std::int64_t(1) << 40, std::int64_t(1) << 62, int64_max - 1, int64_max}) {
            if (batch < 0) continue;
            INFO(s.device.name << ", n = " << s.n << ", batch " << batch);
            ++cases;
            check_grid(runtime::make_grid(plan, batch, s.device), plan, batch, s.device);
        }
    }
    // per_block - 1 is 0 for the CPU plan, so every setup runs all 11 batches.
    REQUIRE(cases == int(sizeof(setups) / sizeof(setups[0])) * 11);
}

TEST_CASE("every system of a batch is solved exactly once, by one whole group", "[plan][grid]") {
    const DeviceProperties tiny = with_grid(devices::h200, 10, 7);
    const DeviceProperties square = with_grid(devices::h200, 100, 100);
    const DeviceProperties narrow = with_grid(devices::mi250x_gcd, 3, 2);
    struct Setup {
        const char* what;
        DeviceProperties device;
        std::int64_t n;
        tdls_dtype_t dtype;
        std::vector<std::int64_t> batches;
        std::int64_t expected_launches_of_last; // launches of the last batch, to show what the case exercises
    };
    std::vector<std::int64_t> small_batches;
    for (std::int64_t batch = 0; batch <= 70; ++batch) small_batches.push_back(batch);
    const std::vector<Setup> setups = {
        // 4 groups of 8 per warp, 32 per block; 2188 blocks on a 10 x 7 grid: 32 launches.
        {"H200 n=8 on a 10 x 7 grid", tiny, 8, TDLS_FLOAT64, {70000}, 32},
        // 2188 blocks fit one launch of 100 x 22 blocks: the y dimension.
        {"H200 n=8 on a 100 x 100 grid", square, 8, TDLS_FLOAT64, {70000}, 1},
        // 3 groups of 10 per warp, 2 unused lanes per warp; 24 per block.
        {"H200 n=20 on a 10 x 7 grid", tiny, 20, TDLS_FLOAT64, small_batches, 1},
        // 2 groups per wavefront, 4 wavefronts: 8 per block; 3 x 2 blocks per launch.
        {"MI250X n=32 on a 3 x 2 grid", narrow, 32, TDLS_FLOAT64, small_batches, 2},
        // 2 rows per thread: 3 groups of 20 per wavefront, 12 per block; up to 7 launches.
        {"MI250X n=40 on a 3 x 2 grid", narrow, 40, TDLS_FLOAT64, {0, 1, 11, 12, 13, 71, 72, 73, 500}, 7},
        // One-thread groups: 256 systems per block; 274 blocks take 4 launches of 70.
        {"H200 n=1 on a 10 x 7 grid", tiny, 1, TDLS_FLOAT32, {255, 256, 257, 70000}, 4},
        {"CPU n=6", runtime::cpu_properties(2), 6, TDLS_FLOAT64, small_batches, 1},
    };
    int cases = 0;
    std::int64_t lanes = 0;
    for (const Setup& s : setups) {
        const Plan plan = runtime::make_plan(s.n, s.dtype, TDLS_ROW_MAJOR, s.device);
        REQUIRE(plan.supported);
        Grid grid{};
        for (std::int64_t batch : s.batches) {
            INFO(s.what << ", batch " << batch);
            ++cases;
            grid = runtime::make_grid(plan, batch, s.device);
            check_grid(grid, plan, batch, s.device);
            const Coverage found = check_coverage(plan, grid, batch, runtime::map_lane);
            CHECK(found.ok());
            CHECK(found.missing == 0);
            CHECK(found.duplicated == 0);
            CHECK(found.out_of_range == 0);
            CHECK(found.split_groups == 0);
            CHECK(found.bad_workspaces == 0);
            CHECK(found.active_lanes == batch * plan.threads_per_system);
            lanes += found.lanes_visited;
        }
        INFO(s.what);
        CHECK(grid.launches == s.expected_launches_of_last);
    }
    REQUIRE(cases == 1 + 1 + 71 + 71 + 9 + 4 + 71);
    // The walk really enumerated lanes: the 70000-system case alone has 32 x 70 x 256.
    REQUIRE(lanes >= 32 * 70 * 256);
}

TEST_CASE("negative control: the coverage check catches off-by-one mappings", "[plan][grid]") {
    const DeviceProperties narrow = with_grid(devices::h200, 3, 2);
    int cases = 0;
    for (std::int64_t n : {8, 20, 32}) {
        const Plan plan = runtime::make_plan(n, TDLS_FLOAT64, TDLS_COL_MAJOR, narrow);
        REQUIRE(plan.supported);
        // Batches that leave padding lanes at the end, so that the past-the-end mapping has a lane to misuse.
        for (std::int64_t batch : {plan.systems_per_block * 3 - 1, plan.systems_per_block * 7 + 1}) {
            INFO("n = " << n << ", batch " << batch);
            const Grid grid = runtime::make_grid(plan, batch, narrow);
            ++cases;
            CHECK(check_coverage(plan, grid, batch, runtime::map_lane).ok());
            ++cases;
            const Coverage past_end = check_coverage(plan, grid, batch, map_lane_past_the_end);
            CHECK_FALSE(past_end.ok());
            CHECK(past_end.out_of_range > 0);
            ++cases;
            const Coverage short_stride = check_coverage(plan, grid, batch, map_lane_short_block_stride);
            CHECK_FALSE(short_stride.ok());
            CHECK(short_stride.duplicated > 0);
            ++cases;
            const Coverage rank_from_one = check_coverage(plan, grid, batch, map_lane_rank_from_one);
            CHECK_FALSE(rank_from_one.ok());
            CHECK(rank_from_one.out_of_range > 0);
        }
    }
    // A plan whose shared memory is too small for its workspaces must be caught too.
    const Plan plan = runtime::make_plan(32, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::mi250x_gcd);
    const Grid grid = runtime::make_grid(plan, 20, devices::mi250x_gcd);
    ++cases;
    CHECK(check_coverage(plan, grid, 20, runtime::map_lane).bad_workspaces == 0);
    Plan short_of_memory = plan;
    short_of_memory.shared_memory_bytes -= 16;
    ++cases;
    CHECK(check_coverage(short_of_memory, grid, 20, runtime::map_lane).bad_workspaces > 0);
    REQUIRE(cases == 3 * 2 * 4 + 2);
}

TEST_CASE("a batch of INT64_MAX systems is planned and mapped without overflow", "[plan][grid]") {
    int cases = 0;
    for (const DeviceProperties& device :
         {devices::h200, devices::mi250x_gcd, with_grid(devices::h200, 10, 7), runtime::cpu_properties(8)}) {
        for (std::int64_t n : {1, 3, 8, 20}) {
            const Plan plan = runtime::make_plan(n, TDLS_FLOAT32, TDLS_COL_MAJOR, device);
            REQUIRE(plan.supported);
            for (std::int64_t batch : {int64_max, int64_max - 1}) {
                INFO(device.name << ", n = " << n << ", batch " << batch);
                ++cases;
                const Grid grid = runtime::make_grid(plan, batch, device);
                check_grid(grid, plan, batch, device);
                // The last launch: the block holding the last system, and the one after it if launched.
                const std::int64_t first = (grid.launches - 1) * grid.systems_per_launch;
                const std::int64_t last_block = (batch - 1 - first) / plan.systems_per_block;
                int last_seen = 0;
                for (std::int64_t block : {last_block, last_block + 1}) {
                    if (block >= grid.blocks_x * grid.blocks_y) continue;
                    for (int thread = 0; thread < plan.block_size; ++thread) {
                        const LaneMapping lane = runtime::map_lane(plan, block, thread, first, batch);
                        if (!lane.active) continue;
                        CHECK(lane.system < batch);
                        CHECK(lane.system >= first + block * plan.systems_per_block);
                        if (lane.system == batch - 1) ++last_seen;
                    }
                }
                CHECK(last_seen == plan.threads_per_system);
            }
        }
    }
    REQUIRE(cases == 4 * 4 * 2);
}

TEST_CASE("the mapping is usable in constant expressions, as device code needs", "[plan]") {
    // H200, double, n = 20: 3 groups of 10 per warp, 8 warps, 67-element workspaces in 544-byte slots.
    constexpr Plan plan{true, 2, 10, 3, 24, 256, 67, 24 * 544, 8, 32};
    static_assert(runtime::map_lane(plan, 0, 0, 0, 100).system == 0);
    static_assert(runtime::map_lane(plan, 0, 19, 0, 100).system == 1 &&
                  runtime::map_lane(plan, 0, 19, 0, 100).tx == 9);
    static_assert(!runtime::map_lane(plan, 0, 30, 0, 100).active); // lanes 30 and 31 hold no group
    static_assert(runtime::map_lane(plan, 0, 32, 0, 100).system == 3);
    static_assert(runtime::map_lane(plan, 4, 0, 1000, 1200).system == 1000 + 4 * 24);
    static_assert(runtime::map_lane(plan, 7, 0, 1000, 1200).system == 1168);
    // Block 8 starts at system 1192: its groups 0 to 7 are the last 8 systems, group 8 (lane 84) is past.
    static_assert(runtime::map_lane(plan, 8, 83, 1000, 1200).system == 1199);
    static_assert(!runtime::map_lane(plan, 8, 84, 1000, 1200).active);
    static_assert(!runtime::map_lane(plan, 9, 0, 1000, 1200).active);
    static_assert(!runtime::map_lane(plan, 1, 0, int64_max - 10, int64_max).active);
    static_assert(runtime::workspace_offset(plan, 0) == 0);
    static_assert(runtime::workspace_offset(plan, 1) == 68); // 544 B / 8 B
    static_assert(runtime::workspace_stride_bytes(plan) == 544);
    static_assert(runtime::choose_rows_per_thread(20, 8, 32, 255) == 2);
    static_assert(runtime::choose_rows_per_thread(64, 8, 32, 255) == 0);
    static_assert(runtime::register_budget_for_rows(255) == 128);
    static_assert(runtime::register_budget_for_rows(255, true) == 64);
    // Complex rows take a quarter of the registers: complex double (16 B) holds 16 rows of one per
    // thread on NVIDIA (64 registers; ptxas spilled at 20), none past; CDNA's 512 registers hold 32.
    static_assert(runtime::choose_rows_per_thread(16, 16, 32, 255, true) == 1);
    static_assert(runtime::choose_rows_per_thread(17, 16, 32, 255, true) == 0);
    static_assert(runtime::choose_rows_per_thread(32, 16, 64, 512, true) == 1);
    // Complex float n = 21: one row per thread (42 registers), not the 3 (126) a double takes.
    static_assert(runtime::choose_rows_per_thread(21, 8, 32, 255, true) == 1);
    static_assert(runtime::choose_rows_per_thread(21, 8, 32, 255) == 3);
    int cases = 0;
    // The same values at run time, through the non-constexpr plan.
    const Plan made = runtime::make_plan(20, TDLS_FLOAT64, TDLS_COL_MAJOR, devices::h200);
    ++cases;
    CHECK(made == plan);
    REQUIRE(cases == 1);
}

namespace {

/// Every invariant of a supported warp plan.
void check_warp_plan(const runtime::WarpPlan& plan, std::int64_t n, int element_bytes,
                     const DeviceProperties& device) {
    const Plan& g = plan.groups;
    const int warp = device.warp_size;
    CHECK(g.supported);
    CHECK(g.warp_size == warp);
    CHECK(g.element_bytes == element_bytes);
    CHECK(g.rows_per_thread == (n + warp - 1) / warp);
    CHECK(g.rows_per_thread <= runtime::max_warp_rows_per_thread);
    CHECK(g.threads_per_system == (n + g.rows_per_thread - 1) / g.rows_per_thread);
    CHECK(g.groups_per_warp >= 1);
    CHECK(g.groups_per_warp * g.threads_per_system <= warp);
    CHECK(g.block_size % warp == 0);
    CHECK(g.block_size <= runtime::target_block_threads);
    CHECK(g.systems_per_block == g.block_size / warp * g.groups_per_warp);
    CHECK(g.workspace_elements == tdls::detail::coop::workspace_elements<true>(int(n), g.threads_per_system));
    // The region: workspace, order (n + 1 ints), matrix, each on a 16-byte boundary, none overlapping.
    CHECK(plan.order_offset_bytes == round_up(std::int64_t(g.workspace_elements) * element_bytes, 16));
    CHECK(plan.matrix_offset_bytes == plan.order_offset_bytes + round_up((n + 1) * 4, 16));
    CHECK(plan.group_bytes == plan.matrix_offset_bytes + round_up(n * n * element_bytes, 16));
    CHECK(g.shared_memory_bytes == g.systems_per_block * plan.group_bytes);
    CHECK(g.shared_memory_bytes <= device.shared_memory_per_block);
    // No other number of warps per block keeps more systems resident per multiprocessor: shared
    // memory with CUDA's 1 KiB reserve per block, 128 registers a thread, 32 blocks.
    const auto resident = [&](std::int64_t warps) {
        const std::int64_t bytes = warps * g.groups_per_warp * plan.group_bytes;
        if (bytes > device.shared_memory_per_block) return std::int64_t(-1);
        const std::int64_t reserve = device.vendor == Vendor::Nvidia ? 1024 : 0;
        const std::int64_t blocks =
            std::min({device.shared_memory_per_multiprocessor / (bytes + reserve), std::int64_t(32),
                      std::int64_t(device.registers_per_multiprocessor) / (warps * warp * 128)});
        return blocks * warps * g.groups_per_warp;
    };
    const std::int64_t chosen = resident(g.block_size / warp);
    for (std::int64_t w = 1; w * warp <= runtime::target_block_threads; ++w) CHECK(resident(w) <= chosen);
}

} // namespace

TEST_CASE("warp plans computed by hand", "[plan][warp]") {
    struct Expected {
        const char* what;
        DeviceProperties device;
        std::int64_t n;
        tdls_dtype_t dtype;
        int rows, threads, groups_per_warp, systems, block;
        std::int64_t group_bytes;
    };
    DeviceProperties cramped = devices::h200;
    cramped.shared_memory_per_block = 600;
    const Expected cases[] = {
        // Workspace 127 doubles (1016 -> 1024 B), order 41 ints (176 B), matrix 12800 B: 14000 B; 16 fit.
        {"H200 n=40 double", devices::h200, 40, TDLS_FLOAT64, 2, 20, 1, 8, 256, 14000},
        // 27 floats (112 B), 6 ints (32 B), 25 floats (112 B): 256 B; 6 groups per warp, 8 warps.
        {"H200 n=5 float", devices::h200, 5, TDLS_FLOAT32, 1, 5, 6, 48, 256, 256},
        // 199 x 16 B, 65 ints (272 B), 65536 B: 68992 B; 3 fit in 227 KiB: 3 warps of one group.
        {"H200 n=64 complex double", devices::h200, 64, TDLS_COMPLEX128, 2, 32, 1, 3, 96, 68992},
        // Wavefront 64: 217 floats (880 B), 71 ints (288 B), 19600 B: 20768 B; 3 fit in 64 KiB.
        {"MI250X n=70 float", devices::mi250x_gcd, 70, TDLS_FLOAT32, 2, 35, 1, 3, 192, 20768},
        // 17456 B a region: 8 warps would make one 137 KiB block per SM (8 systems); blocks of 6 warps
        // fit twice in 228 KiB with the runtime's 1 KiB reserve each, and twice in the registers: 12
        // (as many as blocks of one warp; ties go to more warps).
        {"H200 n=64 float", devices::h200, 64, TDLS_FLOAT32, 2, 32, 1, 6, 192, 17456},
        // Two regions fit, fewer than a warp's 6 groups: one warp of 2 groups.
        {"600 B of shared memory, n=5 float", cramped, 5, TDLS_FLOAT32, 1, 5, 2, 2, 32, 256},
    };
    for (const Expected& e : cases) {
        INFO(e.what);
        const runtime::WarpPlan plan = runtime::make_warp_plan(e.n, e.dtype, e.device);
        REQUIRE(plan.supported);
        CHECK(plan.groups.rows_per_thread == e.rows);
        CHECK(plan.groups.threads_per_system == e.threads);
        CHECK(plan.groups.groups_per_warp == e.groups_per_warp);
        CHECK(plan.groups.systems_per_block == e.systems);
        CHECK(plan.groups.block_size == e.block);
        CHECK(plan.group_bytes == e.group_bytes);
        check_warp_plan(plan, e.n, tdls::kernels::element_bytes(e.dtype), e.device);
    }
    // None: three rows per lane, a region past the block's memory (MI250X n = 100 double: 82880 B), the
    // CPU, orders out of range.
    CHECK_FALSE(runtime::make_warp_plan(65, TDLS_FLOAT32, devices::h200).supported);
    CHECK_FALSE(runtime::make_warp_plan(100, TDLS_FLOAT64, devices::mi250x_gcd).supported);
    CHECK(runtime::make_warp_plan(100, TDLS_FLOAT32, devices::mi250x_gcd).supported); // 40000 B + 2.3 KiB
    CHECK_FALSE(runtime::make_warp_plan(5, TDLS_FLOAT64, runtime::cpu_properties(2)).supported);
    CHECK_FALSE(runtime::make_warp_plan(0, TDLS_FLOAT64, devices::h200).supported);
    CHECK_FALSE(runtime::make_warp_plan(-1, TDLS_FLOAT64, devices::h200).supported);
    CHECK(runtime::make_warp_plan(65, TDLS_FLOAT64, devices::h200) == runtime::WarpPlan{});
}

TEST_CASE("warp plans keep every invariant, and their grids cover every system once", "[plan][warp]") {
    int supported = 0, unsupported = 0, coverages = 0;
    for (const DeviceProperties& device : devices::all_gpus)
        for (const tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128})
            for (std::int64_t n = 1; n <= 2 * device.warp_size + 1; ++n) {
                INFO(device.name << ", dtype " << int(dtype) << ", n = " << n);
                const int element_bytes = tdls::kernels::element_bytes(dtype);
                const runtime::WarpPlan plan = runtime::make_warp_plan(n, dtype, device);
                const std::int64_t region = round_up(
                    round_up(std::int64_t(tdls::detail::coop::workspace_elements<true>(
                                 int(n), int((n - 1) / ((n - 1) / device.warp_size + 1) + 1))) *
                                 element_bytes,
                             16) +
                        round_up((n + 1) * 4, 16) + round_up(n * n * element_bytes, 16),
                    16);
                const bool expected = n <= 2 * device.warp_size && region <= device.shared_memory_per_block;
                CHECK(plan.supported == expected);
                if (!plan.supported) {
                    ++unsupported;
                    continue;
                }
                ++supported;
                check_warp_plan(plan, n, element_bytes, device);
                if (n % 7 == 0 || n == 1 || n == 2 * device.warp_size) { // the lanes of a few batches
                    for (const std::int64_t batch : {std::int64_t(1), std::int64_t(plan.groups.systems_per_block) + 1,
                                                     std::int64_t(3 * plan.groups.systems_per_block - 1)}) {
                        const Grid grid = runtime::make_grid(plan.groups, batch, device);
                        const Coverage found = check_coverage(plan.groups, grid, batch, runtime::map_lane);
                        CHECK(found.ok());
                        CHECK(found.active_lanes == batch * plan.groups.threads_per_system);
                        ++coverages;
                    }
                }
            }
    // Floors: most shapes plan, the orders past two rows per lane never do, and the walks ran.
    CHECK(supported >= 4 * (3 * 64 + 2 * 128) * 7 / 10);
    CHECK(unsupported >= 5 * 4);
    CHECK(coverages >= 100);
}

TEST_CASE("block plans: one row per thread to the kernel's bound, two past it", "[plan]") {
    // Complex double's block kernel is bounded at 512 threads (more registers
    // per thread than 1024 threads leave); the other types' at 1024.
    struct Expected {
        std::int64_t n;
        tdls_dtype_t dtype;
        int rows;
        int threads;
    };
    const Expected by_hand[] = {
        {65, TDLS_FLOAT64, 1, 65},       {1024, TDLS_FLOAT64, 1, 1024},    {1024, TDLS_COMPLEX64, 1, 1024},
        {512, TDLS_COMPLEX128, 1, 512},  {513, TDLS_COMPLEX128, 2, 257},   {1024, TDLS_COMPLEX128, 2, 512},
        {1023, TDLS_COMPLEX128, 2, 512}, {1000, TDLS_FLOAT32, 1, 1000},
    };
    for (const Expected& e : by_hand) {
        const runtime::BlockPlan plan = runtime::make_block_plan(e.n, e.dtype, devices::h200, true);
        INFO("n " << e.n << " dtype " << int(e.dtype));
        REQUIRE(plan.supported);
        CHECK(plan.rows_per_thread == e.rows);
        CHECK(plan.threads == e.threads);
    }
    // Every order of every type on every device set: the threads cover the
    // rows, fit the kernel's bound and the device, and two rows only where one
    // would not fit; the workspace is the solver's for that group.
    int cases = 0;
    int two_rows = 0;
    for (const DeviceProperties& device : devices::all_gpus) {
        for (const tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128}) {
            const int element_bytes = tdls::kernels::element_bytes(dtype);
            const int bound = std::min(device.max_threads_per_block, runtime::block_kernel_threads(element_bytes));
            for (std::int64_t n = 1; n <= TDLS_MAX_ORDER; ++n) {
                const runtime::BlockPlan plan = runtime::make_block_plan(n, dtype, device, true);
                ++cases;
                const int rows = n <= bound ? 1 : 2;
                const std::int64_t threads = (n + rows - 1) / rows;
                const std::int64_t in_place_bytes =
                    round_up(std::int64_t(tdls::detail::coop::workspace_elements<true>(int(n), int(threads))) *
                                 element_bytes,
                             16) +
                    round_up((n + 1) * 4, 16);
                // Packed: refused only past two rows per thread or where the workspace and order do not fit.
                CHECK(plan.supported == (n <= 2 * std::int64_t(bound) && in_place_bytes <= device.shared_memory_per_block));
                if (!plan.supported) continue;
                CHECK(plan.rows_per_thread == rows);
                CHECK(plan.threads == (n + plan.rows_per_thread - 1) / plan.rows_per_thread);
                CHECK(plan.threads <= bound);
                CHECK(plan.workspace_elements ==
                      tdls::detail::coop::workspace_elements<true>(int(n), plan.threads));
                if (plan.rows_per_thread == 2) ++two_rows;
            }
        }
    }
    REQUIRE(cases == int(devices::all_gpus.size()) * 4 * TDLS_MAX_ORDER);
    REQUIRE(two_rows >= int(devices::all_gpus.size()) * 512); // complex double past 512, on every set
    // No device's blocks hold no thread.
    DeviceProperties none = devices::h200;
    none.max_threads_per_block = 0;
    CHECK(!runtime::make_block_plan(8, TDLS_FLOAT64, none, true).supported);
}
