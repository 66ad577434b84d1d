// The C ABI's solves against LAPACKE, on the CPU backend: tdls_batched_gesv,
// tdls_batched_gesv_ptr and tdls_batched_gesv_interleaved, float and double,
// both layouts, nrhs 0..4, padded leading dimensions and strides, orders 1-16
// (static instances) and above (the dynamic solver), well-conditioned,
// pivot-heavy, ill-conditioned and exactly singular systems in one batch.
// Then the pivot threshold and the thread count of a handle. Next to one
// gesv call of each configuration (the forms and options in turns) runs the
// solve of the same form (tdls_batched_solve, _ptr, _interleaved) on fresh
// copies of the same operands: its X and info must be that call's bits, and
// A (every guard, the pointer arrays) as given.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "capi_support.hpp"
#include "lapack.hpp"
#include "reference_lu.hpp"

using namespace capi_test;

namespace {

/// A CPU handle for the length of a test case.
struct CpuHandle {
    tdls_handle_t handle = nullptr;
    CpuHandle() {
        const tdls_status_t status = tdls_create(&handle, TDLS_BACKEND_CPU, 0);
        INFO(tdls_last_error());
        REQUIRE(status == TDLS_SUCCESS);
    }
    ~CpuHandle() { tdls_destroy(handle); }
    CpuHandle(const CpuHandle&) = delete;
    CpuHandle& operator=(const CpuHandle&) = delete;
};

/// The systems of one batch: every kind, singular ones between the others.
/// 11 systems up to n = 64 (so blocks of 3 and 8 leave a partial last block),
/// 7 above, where each system costs more.
std::vector<Kind> batch_kinds(int n) {
    if (n <= 64)
        return {Kind::Uniform,    Kind::PivotHeavy,    Kind::ZeroColumn, Kind::IllConditioned,
                Kind::Uniform,    Kind::DuplicateRows, Kind::PivotHeavy, Kind::IllConditioned,
                Kind::ZeroMatrix, Kind::Uniform,       Kind::PivotHeavy};
    return {Kind::Uniform,        Kind::ZeroColumn, Kind::PivotHeavy, Kind::DuplicateRows,
            Kind::IllConditioned, Kind::ZeroMatrix, Kind::Uniform};
}

/// Leading dimensions above the order, gaps above the footprint.
constexpr Padding padded{
    .lda_extra = 3, .ldb_extra = 2, .strideA_extra = 5, .strideIpiv_extra = 2, .strideB_extra = 4};

struct Tally {
    int systems = 0;   // systems checked against LAPACK
    int singular = 0;  // of which exactly singular (B checked unchanged)
    int solutions = 0; // right-hand sides whose backward error was checked
    int forms = 0;     // further calls compared bitwise with the reference call
    int solves = 0;    // solve calls compared with their gesv call (solve_mismatch)
    int controls = 0;  // negative controls that failed as they must
};

/// The solve's verdict against the gesv call of the same form and operands.
template <typename T>
void require_solve_agrees(const Outcome<T>& solve, const Outcome<T>& gesv, const SystemSet<T>& set,
                          const char* what, int& solves) {
    const std::string mismatch = solve_mismatch(solve, gesv, set);
    INFO(what << ", the solve: " << mismatch);
    REQUIRE(mismatch.empty());
    ++solves;
}

/// Checks one configuration: the reference call (strided, padded, CPU handle)
/// against LAPACK system by system, then the other forms and options bitwise
/// against the reference call (all of them with every_form, else one of each
/// form), one of them (the turn-th, when turn >= 0) with the matching solve
/// next to it, then the negative controls of each check.
template <typename T>
void check_configuration(tdls_handle_t handle, int n, int nrhs, tdls_layout_t layout, bool every_form,
                         int turn, Tally& tally) {
    INFO("n = " << n << ", nrhs = " << nrhs << ", " << layout_name(layout) << ", " << type_name<T>());
    const SystemSet<T> set = make_set<T>(n, nrhs, layout, batch_kinds(n), 1000u * n + 10u * nrhs + layout);
    const std::int64_t batch = set.batch();

    const Outcome<T> reference = run_strided(handle, set, padded);
    {
        INFO(reference.error);
        REQUIRE(reference.status == TDLS_SUCCESS);
    }
    REQUIRE(reference.guards_intact);
    REQUIRE(reference.ipiv.size() == std::size_t(batch));

    int first_checked = -1, first_singular = -1;
    for (std::int64_t s = 0; s < batch; ++s) {
        INFO("system " << s << " (" << kind_name(set.kinds[s]) << ")");
        const Oracle<T> lapack = lapack_oracle(set.A[s], n, set.B[s], nrhs, layout);
        // The oracle itself: the kinds are what they claim.
        REQUIRE(lapack.info == expected_singular_info(set.kinds[s], n));

        REQUIRE(reference.info[s] == lapack.info);
        REQUIRE(same_bits(reference.ipiv[s], lapack.ipiv));
        const double factors = factor_ratio(reference.A[s], lapack.lu, set.A[s], n);
        INFO("factor ratio " << factors);
        REQUIRE(factors <= factor_bound);
        if (lapack.info > 0) {
            // Nothing of the caller's right-hand sides is lost.
            REQUIRE(same_bits(reference.B[s], set.B[s]));
            ++tally.singular;
            if (first_singular < 0) first_singular = int(s);
        } else if (nrhs == 0) {
            REQUIRE(same_bits(reference.B[s], set.B[s]));
        } else {
            const double ours = solution_ratio(set.A[s], n, layout, reference.B[s], set.B[s], nrhs);
            const double theirs = solution_ratio(set.A[s], n, layout, lapack.X, set.B[s], nrhs);
            INFO("backward error ratio " << ours << ", LAPACK's " << theirs);
            REQUIRE(theirs <= tdls_test::backward_error_bound);
            REQUIRE(ours <= tdls_test::backward_error_bound);
            tally.solutions += nrhs;
        }
        if (first_checked < 0 && set.kinds[s] == Kind::Uniform) first_checked = int(s);
        ++tally.systems;
    }

    // Every form and option gives the reference call's bits. Next to one of
    // these calls (check_orders says which, in turns) runs the solve of its
    // form on the same operands, which must give that call's X and info: a
    // solve costs about what gesv costs on the CPU, so one next to each call
    // would nearly double the suite's time (under ASan above all). (A solve
    // takes no pivots: next to a gesv call with ipiv NULL it would repeat
    // the one next to the same geometry with them.)
    const auto same_as_reference = [&](const Outcome<T>& o, const char* what, bool with_ipiv) {
        INFO(what << ": " << o.error);
        REQUIRE(o.status == TDLS_SUCCESS);
        REQUIRE(o.guards_intact);
        REQUIRE(same_outcome(o, reference, with_ipiv));
        ++tally.forms;
    };
    enum Slot {
        StridedPadded,
        StridedPacked,
        PointersPadded,
        Interleaved3,
        Interleaved8,
        PointersPacked,
        Interleaved1,
        InterleavedBatch,
        None
    };
    constexpr Slot one_per_form[] = {StridedPadded, PointersPadded, Interleaved3}; // without every_form
    const Slot slot = turn < 0 ? None : every_form ? Slot(turn % 8) : one_per_form[turn % 3];
    // The gesv call of a form and option against the reference, then, in its
    // turn, the solve of the same form on the same operands against it.
    const auto check_form = [&](const Outcome<T>& gesv, bool solve_too, auto&& solve, const char* what,
                                bool with_ipiv) {
        same_as_reference(gesv, what, with_ipiv);
        if (solve_too) require_solve_agrees(solve(), gesv, set, what, tally.solves);
    };
    if (slot == StridedPadded)
        require_solve_agrees(run_solve_strided(handle, set, padded), reference, set, "strided, padded",
                             tally.solves);
    check_form(
        run_strided(handle, set), slot == StridedPacked, [&] { return run_solve_strided(handle, set); },
        "strided, packed", true);
    check_form(
        run_pointers(handle, set, padded), slot == PointersPadded,
        [&] { return run_solve_pointers(handle, set, padded); }, "pointer arrays, padded", true);
    // Block 3 leaves a partial last block (7 and 11 systems); 8 does too with
    // 11 systems and is wider than the batch with 7.
    check_form(
        run_interleaved(handle, set, 3), slot == Interleaved3,
        [&] { return run_solve_interleaved(handle, set, 3); }, "interleaved, block 3", true);
    check_form(
        run_interleaved(handle, set, 8), slot == Interleaved8,
        [&] { return run_solve_interleaved(handle, set, 8); }, "interleaved, block 8", true);
    if (every_form) {
        same_as_reference(run_strided(handle, set, padded, {.ipiv = false}), "strided, ipiv NULL", false);
        check_form(
            run_pointers(handle, set, no_padding, {.ipiv = false}), slot == PointersPacked,
            [&] { return run_solve_pointers(handle, set); }, "pointer arrays, ipiv NULL", false);
        check_form(
            run_interleaved(handle, set, 1), slot == Interleaved1,
            [&] { return run_solve_interleaved(handle, set, 1); }, "interleaved, block 1", true);
        check_form(
            run_interleaved(handle, set, batch), slot == InterleavedBatch,
            [&] { return run_solve_interleaved(handle, set, batch); }, "interleaved, block = batch", true);
        same_as_reference(run_interleaved(handle, set, 3, {.ipiv = false}), "interleaved, ipiv NULL", false);
    }
    if (nrhs == 0) {
        // The solve of the form whose turn it is once more: info only, and B
        // (here NULL) never needed.
        const bool strided = slot == StridedPadded || slot == StridedPacked;
        const bool pointers = slot == PointersPadded || slot == PointersPacked;
        const bool interleaved = slot != None && !strided && !pointers;
        check_form(
            run_strided(handle, set, padded, {.ipiv = true, .B = false}), strided,
            [&] { return run_solve_strided(handle, set, padded, {.B = false}); }, "strided, B NULL", true);
        check_form(
            run_pointers(handle, set, padded, {.ipiv = true, .B = false}), pointers,
            [&] { return run_solve_pointers(handle, set, padded, {.B = false}); }, "pointers, B_array NULL",
            true);
        check_form(
            run_interleaved(handle, set, 8, {.ipiv = true, .B = false}), interleaved,
            [&] { return run_solve_interleaved(handle, set, 8, {.B = false}); }, "interleaved, B NULL", true);
    }

    // Negative controls: a wrong answer fails each check used above.
    REQUIRE(first_checked >= 0);
    REQUIRE(first_singular >= 0);
    {
        const std::size_t s = std::size_t(first_checked);
        const Oracle<T> lapack = lapack_oracle(set.A[s], n, set.B[s], nrhs, layout);
        constexpr double eps = std::numeric_limits<real_of<T>>::epsilon();
        if (n >= 2) {
            CHECK_FALSE(same_bits(corrupted_pivots(reference.ipiv[s]), lapack.ipiv));
            ++tally.controls;
        }
        CHECK(factor_ratio(perturbed(reference.A[s], 16 * factor_bound * n * eps), lapack.lu, set.A[s], n) >
              factor_bound);
        ++tally.controls;
        if (nrhs > 0) {
            const std::vector<T> wrong = perturbed(reference.B[s], 1000.0 * n * n * eps);
            CHECK(solution_ratio(set.A[s], n, layout, wrong, set.B[s], nrhs) >
                  tdls_test::backward_error_bound);
            ++tally.controls;
        }
        Outcome<T> flipped = reference;
        flipped.A[s][0] = next_up(flipped.A[s][0]);
        CHECK_FALSE(same_outcome(flipped, reference));
        ++tally.controls;
        // The solve's check: the outcome a correct solve leaves passes it;
        // its A holding gesv's factors, one info off or one bit of X flipped
        // fails it.
        Outcome<T> solved = reference;
        solved.A = set.A;
        solved.ipiv.clear();
        REQUIRE(solve_mismatch(solved, reference, set).empty());
        if (n >= 2) {
            Outcome<T> factored = solved;
            factored.A[s] = reference.A[s];
            CHECK_FALSE(solve_mismatch(factored, reference, set).empty());
            ++tally.controls;
        }
        Outcome<T> off = solved;
        off.info[s] += 1;
        CHECK_FALSE(solve_mismatch(off, reference, set).empty());
        ++tally.controls;
        if (nrhs > 0) {
            Outcome<T> one_bit = solved;
            one_bit.B[s].back() = with_bit_flipped(one_bit.B[s].back(), 0);
            CHECK_FALSE(solve_mismatch(one_bit, reference, set).empty());
            ++tally.controls;
        }
        if (nrhs > 0) {
            const std::size_t t = std::size_t(first_singular);
            std::vector<T> touched = reference.B[t];
            touched.back() = next_up(touched.back());
            CHECK_FALSE(same_bits(touched, set.B[t]));
            ++tally.controls;
        }
    }
}

/// Every configuration of the orders, nrhs values and both layouts. Every
/// solve_period-th configuration gets a solve next to one of its calls; the
/// calls take turns, and as an order's configurations are consecutive turns
/// (the next order's begin 3 turns later), each order meets every call (8
/// with every_form, 3 without) when solve_period is 1.
template <typename T>
void check_orders(const std::vector<int>& orders, const std::vector<int>& nrhs_values, bool every_form,
                  int solve_period, Tally& tally) {
    CpuHandle cpu;
    const int per_layout = int(nrhs_values.size());
    for (int l = 0; l < 2; ++l)
        for (std::size_t o = 0; o < orders.size(); ++o)
            for (int r = 0; r < per_layout; ++r) {
                const int step = 3 * int(o) + l * per_layout + r;
                const int turn = step % solve_period == 0 ? step / solve_period : -1;
                check_configuration<T>(cpu.handle, orders[o], nrhs_values[std::size_t(r)], both_layouts[l],
                                       every_form, turn, tally);
            }
}

} // namespace

TEST_CASE("the checking functions reject wrong answers and touched guards", "[gesv][controls]") {
    int controls = 0;
    // A write into a leading-dimension pad or a gap between systems.
    {
        StridedBuffer<double> buffer(3, 4, 4, 6, 30);
        buffer.put(1, std::vector<double>(16, 1.0));
        REQUIRE(buffer.guards_intact());
        buffer.data()[30 + 4] = 0.0; // row 4 of column 0 of system 1: inside lda, outside the matrix
        CHECK_FALSE(buffer.guards_intact());
        ++controls;
        StridedBuffer<float> gaps(2, 3, 2, 3, 9);
        REQUIRE(gaps.guards_intact());
        gaps.data()[7] = 1.0f; // past the footprint (6) of system 0
        CHECK_FALSE(gaps.guards_intact());
        ++controls;
    }
    // A write into a slot of the partial last block that no system owns.
    {
        InterleavedBuffer<double> buffer(5, 4, 3); // 2 blocks of 3: lane 2 of block 1 is no system
        for (int s = 0; s < 5; ++s) buffer.put(s, std::vector<double>(4, double(s)));
        REQUIRE(buffer.guards_intact());
        buffer.data()[3 * 4 + 2] = 0.0; // block 1, element 0, lane 2: system 5 does not exist
        CHECK_FALSE(buffer.guards_intact());
        ++controls;
        REQUIRE(buffer.get(4) == std::vector<double>(4, 4.0));
    }
    // info past the batch.
    {
        InfoBuffer info(4);
        REQUIRE(info.guards_intact());
        info.data()[4] = 0;
        CHECK_FALSE(info.guards_intact());
        ++controls;
    }
    // A sentinel NaN differs from any other NaN bitwise.
    {
        std::vector<float> a{sentinel<float>()}, b{std::numeric_limits<float>::quiet_NaN()};
        CHECK_FALSE(same_bits(a, b));
        ++controls;
    }
    // The oracle's expected infos for the singular kinds are what LAPACK says.
    for (const Kind k : {Kind::ZeroColumn, Kind::DuplicateRows, Kind::ZeroMatrix})
        for (const int n : {1, 2, 3, 7, 40}) {
            std::vector<double> S = make_stored_matrix<double>(k, n, 5);
            std::vector<lapack_int> ipiv(n);
            CHECK(lapack_getrf(n, S.data(), ipiv.data()) == expected_singular_info(k, n));
            // ...and the same matrix with a nonzero where the kind needs a zero is regular.
            std::vector<double> regular = make_stored_matrix<double>(Kind::Uniform, n, 5);
            CHECK(lapack_getrf(n, regular.data(), ipiv.data()) == 0);
            ++controls;
        }
    REQUIRE(controls >= 5 + 15);
}

TEST_CASE("the solve's checks catch a written A, guard or pointer array and one flipped bit of X",
          "[gesv][solve][controls]") {
    // The solve run as the tests run it, then the same call followed by one
    // write a faulty solve could make, through the same collection of what
    // the call left: only the untampered run may pass solve_mismatch.
    using T = double;
    const int n = 5, nrhs = 2;
    const SystemSet<T> set = make_set<T>(n, nrhs, TDLS_COL_MAJOR, batch_kinds(n), 99);
    const std::int64_t batch = set.batch(), block = 3;
    REQUIRE(batch == 11);
    const Outcome<T> gesv = run_strided(nullptr, set, padded);
    const Outcome<T> gesv_ptr = run_pointers(nullptr, set, padded);
    const Outcome<T> gesv_interleaved = run_interleaved(nullptr, set, block);
    for (const Outcome<T>* o : {&gesv, &gesv_ptr, &gesv_interleaved}) {
        INFO(o->error);
        REQUIRE(o->status == TDLS_SUCCESS);
        REQUIRE(o->info[0] == 0); // system 0 is regular: its X is written
    }
    const Operands no_pivots{.ipiv = false};
    const auto strided = [](const StridedCall<T>& c) {
        return tdls_batched_solve(nullptr, TDLS_FLOAT64, c.layout, c.n, c.nrhs, c.A, c.l.lda, c.l.strideA,
                                  c.B, c.l.ldb, c.l.strideB, c.info, c.batch);
    };
    const auto pointers = [](const PointerCall& c) {
        return tdls_batched_solve_ptr(nullptr, TDLS_FLOAT64, c.layout, c.n, c.nrhs, c.A_array, c.l.lda,
                                      c.B_array, c.l.ldb, c.info, c.batch);
    };
    const auto interleaved = [](const InterleavedCall<T>& c) {
        return tdls_batched_solve_interleaved(nullptr, TDLS_FLOAT64, c.layout, c.n, c.nrhs, c.A, c.B, c.info,
                                              c.batch, c.block);
    };
    REQUIRE(solve_mismatch(run_strided_with(set, padded, no_pivots, strided), gesv, set).empty());
    REQUIRE(solve_mismatch(run_pointers_with(set, padded, no_pivots, pointers), gesv_ptr, set).empty());
    REQUIRE(solve_mismatch(run_interleaved_with(set, block, no_pivots, interleaved), gesv_interleaved, set)
                .empty());

    int controls = 0;
    const auto caught = [&](const Outcome<T>& tampered, const Outcome<T>& reference,
                            const std::string& expected) {
        const std::string why = solve_mismatch(tampered, reference, set);
        INFO("expected \"" << expected << "\" in \"" << why << "\"");
        CHECK(why.find(expected) != std::string::npos);
        ++controls;
    };
    const auto bump = [](T& e) { e = next_up(e); };
    const std::int64_t last = batch - 1;
    // Strided: one element of the last system's A, the lda padding of
    // another, one bit of system 0's X, info past the batch.
    caught(run_strided_with(set, padded, no_pivots,
                            [&](const StridedCall<T>& c) {
                                const tdls_status_t status = strided(c);
                                bump(c.A[last * c.l.strideA + 1 * c.l.lda + 2]);
                                return status;
                            }),
           gesv, "A of system 10 was written");
    caught(run_strided_with(set, padded, no_pivots,
                            [&](const StridedCall<T>& c) {
                                const tdls_status_t status = strided(c);
                                c.A[2 * c.l.strideA + n] = T(0); // row n of column 0: inside lda, outside A
                                return status;
                            }),
           gesv, "a guard");
    caught(run_strided_with(set, padded, no_pivots,
                            [&](const StridedCall<T>& c) {
                                const tdls_status_t status = strided(c);
                                c.B[1] = with_bit_flipped(c.B[1], 0);
                                return status;
                            }),
           gesv, "B of system 0 differs");
    caught(run_strided_with(set, padded, no_pivots,
                            [&](const StridedCall<T>& c) {
                                const tdls_status_t status = strided(c);
                                c.info[c.batch] = 0;
                                return status;
                            }),
           gesv, "a guard");
    // Pointer arrays: an entry of A_array or B_array changed (the system's
    // own memory is left as it was), and a write through an entry.
    caught(run_pointers_with(set, padded, no_pivots,
                             [&](const PointerCall& c) {
                                 const tdls_status_t status = pointers(c);
                                 std::swap(c.A_array[0], c.A_array[1]);
                                 return status;
                             }),
           gesv_ptr, "a pointer array was written");
    caught(run_pointers_with(set, padded, no_pivots,
                             [&](const PointerCall& c) {
                                 const tdls_status_t status = pointers(c);
                                 c.B_array[last] = c.B_array[0];
                                 return status;
                             }),
           gesv_ptr, "a pointer array was written");
    caught(run_pointers_with(set, padded, no_pivots,
                             [&](const PointerCall& c) {
                                 const tdls_status_t status = pointers(c);
                                 bump(static_cast<T*>(c.A_array[3])[0]);
                                 return status;
                             }),
           gesv_ptr, "A of system 3 was written");
    // Interleaved: element 0 of the last system, and the slot of the partial
    // last block that no system owns.
    const std::int64_t block_start = last / block * block * n * n;
    caught(run_interleaved_with(set, block, no_pivots,
                                [&](const InterleavedCall<T>& c) {
                                    const tdls_status_t status = interleaved(c);
                                    bump(c.A[block_start + last % block]);
                                    return status;
                                }),
           gesv_interleaved, "A of system 10 was written");
    caught(run_interleaved_with(set, block, no_pivots,
                                [&](const InterleavedCall<T>& c) {
                                    const tdls_status_t status = interleaved(c);
                                    c.A[block_start + block - 1] = T(0); // lane 2 of the last block: nobody's
                                    return status;
                                }),
           gesv_interleaved, "a guard");
    // A failed solve next to a successful gesv.
    caught(run_strided_with(set, padded, no_pivots,
                            [&](const StridedCall<T>& c) {
                                StridedCall<T> bad = c;
                                bad.l.lda = n - 1;
                                return strided(bad);
                            }),
           gesv, "status TDLS_ERROR_INVALID_VALUE");
    REQUIRE(controls == 10);
}

TEMPLATE_TEST_CASE("gesv, static orders 1-16: three forms against LAPACK", "[gesv][static]", float, double,
                   tdls::complex_float, tdls::complex_double) {
    std::vector<int> orders;
    for (int n = 1; n <= 16; ++n) orders.push_back(n);
    Tally tally;
    check_orders<TestType>(orders, {0, 1, 2, 3, 4}, true, 1, tally);
    // 2 layouts x 16 orders x 5 nrhs x 11 systems, 3 of them singular.
    REQUIRE(tally.systems >= 2 * 16 * 5 * 11);
    REQUIRE(tally.singular >= 2 * 16 * 5 * 3);
    REQUIRE(tally.solutions >= 2 * 16 * (1 + 2 + 3 + 4) * 8);
    REQUIRE(tally.forms >= 2 * 16 * (5 * 9 + 3));
    // One solve per configuration, one more with nrhs 0.
    REQUIRE(tally.solves == 2 * 16 * (5 + 1));
    // Per configuration: factors, bits, pivots (n >= 2), solution and B (nrhs > 0).
    REQUIRE(tally.controls >= 2 * (16 * 5 * 2 + 15 * 5 + 16 * 4 * 2));
}

TEMPLATE_TEST_CASE("gesv, dynamic orders 17-64: three forms against LAPACK", "[gesv][dynamic]", float, double,
                   tdls::complex_float, tdls::complex_double) {
    Tally tally;
    check_orders<TestType>({17, 20, 31, 32, 33, 48, 64}, {0, 1, 2, 3, 4}, true, 1, tally);
    REQUIRE(tally.systems >= 2 * 7 * 5 * 11);
    REQUIRE(tally.singular >= 2 * 7 * 5 * 3);
    REQUIRE(tally.solutions >= 2 * 7 * (1 + 2 + 3 + 4) * 8);
    REQUIRE(tally.forms >= 2 * 7 * (5 * 9 + 3));
    REQUIRE(tally.solves == 2 * 7 * (5 + 1));
    REQUIRE(tally.controls >= 2 * (7 * 5 * 3 + 7 * 4 * 2));
}

// [cooperative]: orders past 64, in the scalar family's cooperative kernel
// (one system per thread) and in each SIMD family's tiles (100, 128, 256)
// and blocked kernel (257; complex: the cooperative kernel, one system per
// thread) (tests/capi/CMakeLists.txt says where each family runs them).
TEMPLATE_TEST_CASE("gesv, dynamic orders 100-257: three forms against LAPACK", "[gesv][dynamic][cooperative]",
                   float, double, tdls::complex_float, tdls::complex_double) {
    // Fewer right-hand-side counts and one call per form here: a call costs
    // up to 7 x 2/3 n^3 flops, 0.15 s at n = 256.
    Tally tally;
    check_orders<TestType>({100, 128}, {0, 3}, false, 1, tally);
    // 256: the tiles' largest order; 257: the blocked kernel's first.
    check_orders<TestType>({256, 257}, {1, 4}, false, 4, tally); // one solve at each: strided, pointers
    REQUIRE(tally.systems >= 2 * 4 * 2 * 7);
    REQUIRE(tally.singular >= 2 * 4 * 2 * 3);
    REQUIRE(tally.solutions >= 2 * (2 * 3 + 2 * (1 + 4)) * 4);
    REQUIRE(tally.forms >= 2 * 4 * 2 * 4 + 2 * 2 * 3);
    // One solve per configuration at 100 and 128 (one more with nrhs 0), one at 256 and at 257.
    REQUIRE(tally.solves == 2 * 2 * (2 + 1) + 2);
    REQUIRE(tally.controls >= 2 * (4 * 2 * 3 + 6 * 2));
}

// [cooperative]: the blocked kernel loads and stores the systems side by
// side in an interleaved block in groups (those sharing a cache line: 16
// floats or 8 doubles), and the results must not depend on it: 21 systems,
// blocks of 16 (a whole group, then a short one; as allocated, 16 bytes past
// a 64-byte boundary, on one, and 16 bytes past one again), 5 and 12 (groups
// cut by every block's end, single systems after groups) and the batch,
// both layouts, order 257 (a row past the transposes' last W-row step):
// bitwise the strided call's factors, pivots, info and X, and the solve's X
// bitwise that gesv's. With AVX-512 a group of more than half a line's
// systems moves through register transposes (BlockedLu::vector_group), by
// masked moves short of a whole line (double: blocks of 5 and the last
// block's 5 systems; float: blocks of 12 and the last one's 9), and the
// sentinels past the last block must stay; with AVX2 (the avx2 family's
// run of [cooperative]) a group of one or two whole vectors (double:
// blocks of 16, 12 and the batch; float: blocks of 16). And order 256 strided at
// lda = n (factored in the caller's matrix) against lda = n + 3 (through
// the scratch). (Mutations selecting the wrong matrix for a single system
// after a group, loading one row of a group twice, solving from the scratch
// after an in-place factorization, dropping the last W-row step of the
// whole-line load or store (stop 50), skipping one W-row step of a whole
// group's load, storing a short group's vectors unmasked, dropping its
// load's rows past the last W-row step, leaving its last matrix out of
// the store's transposes, or, with AVX2, loading or storing a group's
// second vector at the first one's place, failed it.)
TEMPLATE_TEST_CASE("gesv past the tiles, systems side by side: bitwise the strided form's",
                   "[gesv][cooperative][side_by_side]", float, double) {
    using T = TestType;
    CpuHandle cpu;
    const int n = 257, nrhs = 2;
    std::vector<Kind> kinds;
    const Kind cycle[] = {Kind::Uniform, Kind::PivotHeavy, Kind::ZeroColumn, Kind::IllConditioned,
                          Kind::DuplicateRows};
    for (int s = 0; s < 21; ++s) kinds.push_back(cycle[s % 5]);
    int forms = 0, solves = 0, singular = 0, in_place_runs = 0;
    for (const tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
        INFO(layout_name(layout));
        const SystemSet<T> set = make_set<T>(n, nrhs, layout, kinds, 8100u + layout);
        const Outcome<T> reference = run_strided(cpu.handle, set, padded);
        INFO(reference.error);
        REQUIRE(reference.status == TDLS_SUCCESS);
        for (const std::int32_t info : reference.info) singular += info > 0 ? 1 : 0;
        // Blocks of 16 also on a 64-byte boundary and 16 bytes past one:
        // with AVX-512, whole groups on the boundary move by whole lines,
        // and off it each vector spans two.
        const struct {
            std::int64_t block;
            int line_offset;
        } runs[] = {{16, -1}, {5, -1}, {12, -1}, {set.batch(), -1}, {16, 0}, {16, 16}};
        for (const auto& run : runs) {
            INFO("block " << run.block << ", line offset " << run.line_offset);
            const Outcome<T> gesv = run_interleaved(cpu.handle, set, run.block, {}, run.line_offset);
            INFO(gesv.error);
            REQUIRE(gesv.status == TDLS_SUCCESS);
            REQUIRE(gesv.guards_intact);
            REQUIRE(same_outcome(gesv, reference));
            ++forms;
        }
        for (const int line_offset : {-1, 0}) {
            INFO("solve, line offset " << line_offset);
            const std::string mismatch =
                solve_mismatch(run_solve_interleaved(cpu.handle, set, 16, {}, line_offset), reference, set);
            INFO(mismatch);
            REQUIRE(mismatch.empty());
            ++solves;
        }
        // Order 256, a whole number of vector pairs: at lda = n the blocked
        // kernel factors each system where it lies, in either layout
        // (BlockedLu::fits_in_place); at lda = n + 3 through its scratch.
        // Both routes, gesv and solve, the same bits.
        constexpr int in_place_n = 256;
        const SystemSet<T> even = make_set<T>(in_place_n, nrhs, layout, kinds, 8200u + layout);
        const Outcome<T> scratch = run_strided(cpu.handle, even, padded);
        const Outcome<T> in_place = run_strided(cpu.handle, even, no_padding);
        INFO(scratch.error << in_place.error);
        REQUIRE(scratch.status == TDLS_SUCCESS);
        REQUIRE(in_place.status == TDLS_SUCCESS);
        REQUIRE(in_place.guards_intact);
        REQUIRE(same_outcome(in_place, scratch));
        const std::string in_place_mismatch =
            solve_mismatch(run_solve_strided(cpu.handle, even, no_padding), scratch, even);
        INFO(in_place_mismatch);
        REQUIRE(in_place_mismatch.empty());
        ++in_place_runs;
    }
    REQUIRE(forms == 2 * 6);
    REQUIRE(solves == 2 * 2);
    REQUIRE(in_place_runs == 2);
    REQUIRE(singular == 2 * 8); // zero columns and duplicate rows: systems 2, 4, 7, 9, ..., 19
}

// ---- the handle's pivot threshold ------------------------------------------------

TEMPLATE_TEST_CASE("pivot threshold 0.5: other pivots, bounded backward error", "[gesv][threshold]", float,
                   double) {
    using T = TestType;
    constexpr double tau = 0.5;
    // Threshold pivoting grows the factors more than partial pivoting; a
    // small factor over LAPACK's bound covers that on well-conditioned systems.
    constexpr double threshold_bound = 4 * tdls_test::backward_error_bound;
    constexpr T eps = std::numeric_limits<T>::epsilon();
    constexpr T multiplier_bound = T(1 / tau) * (1 + 4 * eps);
    const auto largest_multiplier = [](const std::vector<T>& lu, int n) {
        T largest = 0;
        for (int j = 0; j < n; ++j)
            for (int i = j + 1; i < n; ++i)
                largest = std::max(largest, std::fabs(lu[std::size_t(j) * n + i]));
        return largest;
    };
    CpuHandle relaxed, strict;
    {
        const tdls_status_t status = tdls_set_pivot_threshold(relaxed.handle, tau);
        INFO(tdls_last_error());
        REQUIRE(status == TDLS_SUCCESS);
    }
    {
        const tdls_status_t status = tdls_set_pivot_threshold(strict.handle, 1.0);
        INFO(tdls_last_error());
        REQUIRE(status == TDLS_SUCCESS);
    }
    int systems = 0, differing = 0, rule_checked = 0, same_as_default = 0, controls = 0, solves = 0;
    for (const tdls_layout_t layout : both_layouts)
        for (const int n : {2, 3, 5, 8, 12, 16, 17, 24, 32, 64}) {
            INFO("n = " << n << ", " << layout_name(layout) << ", " << type_name<T>());
            const int nrhs = 2;
            const SystemSet<T> set =
                make_set<T>(n, nrhs, layout, std::vector<Kind>(12, Kind::Uniform), 77u + n);
            const Outcome<T> out = run_strided(relaxed.handle, set, padded);
            {
                INFO(out.error);
                REQUIRE(out.status == TDLS_SUCCESS);
            }
            REQUIRE(out.guards_intact);
            // The solve on the same handle pivots with the same threshold: gesv's bits.
            require_solve_agrees(run_solve_strided(relaxed.handle, set, padded), out, set, "tau 0.5", solves);
            for (std::int64_t s = 0; s < set.batch(); ++s) {
                INFO("system " << s);
                REQUIRE(out.info[s] == 0);
                const Oracle<T> lapack = lapack_oracle(set.A[s], n, set.B[s], nrhs, layout);
                if (!same_bits(out.ipiv[s], lapack.ipiv)) ++differing;
                const double ratio = solution_ratio(set.A[s], n, layout, out.B[s], set.B[s], nrhs);
                INFO("backward error ratio " << ratio);
                REQUIRE(ratio <= threshold_bound);
                // The rule: a multiplier is at most 1 / tau in magnitude...
                REQUIRE(largest_multiplier(out.A[s], n) <= multiplier_bound);
                // ...and the pivots are those the test suite's reference LU picks with tau.
                const auto rule =
                    tdls_test::reference_factor<T>(set.A[s], n, T(tau), std::numeric_limits<T>::min());
                const std::vector<int> rule_pivots = tdls_test::swap_sequence(rule.perm);
                REQUIRE(out.ipiv[s] == rule_pivots);
                ++rule_checked;
                ++systems;
            }
            // Negative controls of the three checks, on system 0.
            {
                const std::vector<T> wrong = perturbed(out.B[0], 1000.0 * n * n * eps);
                CHECK(solution_ratio(set.A[0], n, layout, wrong, set.B[0], nrhs) > threshold_bound);
                std::vector<T> grown = out.A[0];
                grown[1] = T(2.5); // L(1, 0)
                CHECK(largest_multiplier(grown, n) > multiplier_bound);
                const auto rule =
                    tdls_test::reference_factor<T>(set.A[0], n, T(tau), std::numeric_limits<T>::min());
                CHECK(corrupted_pivots(out.ipiv[0]) != tdls_test::swap_sequence(rule.perm));
                controls += 3;
            }
            // tau = 1 on a handle is the default context, bit for bit.
            const Outcome<T> by_default = run_strided(nullptr, set, padded);
            const Outcome<T> with_one = run_strided(strict.handle, set, padded);
            REQUIRE(by_default.status == TDLS_SUCCESS);
            REQUIRE(with_one.status == TDLS_SUCCESS);
            REQUIRE(same_outcome(with_one, by_default));
            ++same_as_default;
        }
    // The threshold took effect: some pivots differ from LAPACK's.
    INFO(differing << " of " << systems << " systems pivoted differently from LAPACK");
    REQUIRE(differing >= systems / 10);
    REQUIRE(systems >= 2 * 10 * 12);
    REQUIRE(rule_checked >= 2 * 10 * 12);
    REQUIRE(same_as_default >= 2 * 10);
    REQUIRE(solves >= 2 * 10);
    REQUIRE(controls >= 2 * 10 * 3);
}

// ---- the handle's thread count -----------------------------------------------------

TEMPLATE_TEST_CASE("1, 2 and all threads give the default context's bits on 10000 systems", "[gesv][threads]",
                   float, double) {
    using T = TestType;
    int compared = 0, controls = 0, solves = 0;
    for (const int n : {6, 20}) {
        const tdls_layout_t layout = n == 6 ? TDLS_COL_MAJOR : TDLS_ROW_MAJOR;
        INFO("n = " << n << ", " << layout_name(layout));
        std::vector<Kind> kinds;
        for (int s = 0; s < 10000; ++s) {
            const Kind cycle[] = {Kind::Uniform,       Kind::PivotHeavy, Kind::IllConditioned, Kind::Uniform,
                                  Kind::DuplicateRows, Kind::Uniform,    Kind::ZeroColumn};
            kinds.push_back(cycle[s % 7]);
        }
        const SystemSet<T> set = make_set<T>(n, 2, layout, kinds, 4242u + n);
        const Outcome<T> by_default = run_strided(nullptr, set, padded);
        {
            INFO(by_default.error);
            REQUIRE(by_default.status == TDLS_SUCCESS);
        }
        REQUIRE(by_default.guards_intact);
        // Spot-check the default context itself against LAPACK.
        for (std::int64_t s = 0; s < set.batch(); s += 997) {
            const Oracle<T> lapack = lapack_oracle(set.A[s], n, set.B[s], 2, layout);
            REQUIRE(by_default.info[s] == lapack.info);
            REQUIRE(same_bits(by_default.ipiv[s], lapack.ipiv));
        }
        for (const int threads : {1, 2, 0}) {
            INFO("threads = " << threads);
            CpuHandle cpu;
            const tdls_status_t status = tdls_set_num_threads(cpu.handle, threads);
            {
                INFO(tdls_last_error());
                REQUIRE(status == TDLS_SUCCESS);
            }
            const Outcome<T> out = run_strided(cpu.handle, set, padded);
            {
                INFO(out.error);
                REQUIRE(out.status == TDLS_SUCCESS);
            }
            REQUIRE(out.guards_intact);
            REQUIRE(same_outcome(out, by_default));
            ++compared;
            // The solve, split among all threads as gesv is (once: it costs as much as gesv).
            if (threads == 0 && n == 6)
                require_solve_agrees(run_solve_strided(cpu.handle, set, padded), out, set, "the solve",
                                     solves);
            // Negative control: one bit of the last system differs.
            Outcome<T> flipped = out;
            flipped.B.back()[0] = next_up(flipped.B.back()[0]);
            CHECK_FALSE(same_outcome(flipped, by_default));
            ++controls;
        }
    }
    REQUIRE(compared >= 2 * 3);
    REQUIRE(solves == 1);
    REQUIRE(controls >= 2 * 3);
}

// The kernels' edges, in the default run only (tagged [largest], so neither
// family rerun repeats it): the SIMD tiles past 64 rows of exchange sets
// (65, 97 and 127: just past and one short of the blocked kernel's panels
// of 32 columns, which served them until the tiles reached 256), the
// blocked kernel's first orders past the tiles' 256 and past a panel
// (257 = 8*32 + 1, 289 = 9*32 + 1, 319 one short of 10), and the largest
// order, 1024, whose padded columns are the aliasing case. A uniform, a pivot-heavy
// and a singular system each, both layouts, two right-hand sides: pivots and
// info LAPACK's, factors close, X within LAPACK's backward error, the solve
// bitwise gesv's with A untouched; at 257, getrf + getrs bitwise gesv's.
TEMPLATE_TEST_CASE("orders at the kernels' edges and the largest order, against LAPACK", "[gesv][largest]",
                   float, double) {
    using T = TestType;
    CpuHandle cpu;
    int systems = 0, solutions = 0, getrs_solutions = 0;
    for (const int n : {65, 97, 127, 257, 289, 319, TDLS_MAX_ORDER}) {
        for (const tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
            INFO("n = " << n << ", " << layout_name(layout));
            const int nrhs = 2;
            const SystemSet<T> set = make_set<T>(
                n, nrhs, layout, {Kind::Uniform, Kind::PivotHeavy, Kind::ZeroColumn}, 7000u + n + layout);
            const Outcome<T> gesv = run_strided(cpu.handle, set, padded);
            INFO(gesv.error);
            REQUIRE(gesv.status == TDLS_SUCCESS);
            REQUIRE(gesv.guards_intact);
            for (std::int64_t s = 0; s < set.batch(); ++s) {
                INFO("system " << s << " (" << kind_name(set.kinds[s]) << ")");
                const Oracle<T> lapack = lapack_oracle(set.A[s], n, set.B[s], nrhs, layout);
                REQUIRE(lapack.info == expected_singular_info(set.kinds[s], n));
                REQUIRE(gesv.info[s] == lapack.info);
                REQUIRE(same_bits(gesv.ipiv[s], lapack.ipiv));
                REQUIRE(factor_ratio(gesv.A[s], lapack.lu, set.A[s], n) <= factor_bound);
                if (lapack.info > 0) {
                    REQUIRE(same_bits(gesv.B[s], set.B[s]));
                } else {
                    REQUIRE(solution_ratio(set.A[s], n, layout, gesv.B[s], set.B[s], nrhs) <=
                            tdls_test::backward_error_bound);
                    solutions += nrhs;
                }
                ++systems;
            }
            const std::string mismatch =
                solve_mismatch(run_solve_strided(cpu.handle, set, padded), gesv, set);
            INFO(mismatch);
            REQUIRE(mismatch.empty());
            if (n == 257) { // the blocked kernel's getrf, then getrs on its factors: gesv's bits
                const Outcome<T> getrf = run_strided(cpu.handle, set, padded, {}, /*factor_only=*/true);
                REQUIRE(getrf.status == TDLS_SUCCESS);
                REQUIRE(getrf.guards_intact);
                REQUIRE(same_bits(getrf.info, gesv.info));
                const Outcome<T> getrs = run_getrs(cpu.handle, set, getrf.A, getrf.ipiv, padded);
                REQUIRE(getrs.status == TDLS_SUCCESS);
                REQUIRE(getrs.guards_intact);
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    REQUIRE(same_bits(getrf.A[s], gesv.A[s]));
                    REQUIRE(same_bits(getrf.ipiv[s], gesv.ipiv[s]));
                    if (gesv.info[s] != 0) continue;
                    REQUIRE(same_bits(getrs.B[s], gesv.B[s]));
                    ++getrs_solutions;
                }
            }
        }
    }
    REQUIRE(systems == 7 * 2 * 3);
    REQUIRE(solutions == 7 * 2 * 2 * 2);
    REQUIRE(getrs_solutions == 2 * 2); // two regular systems, both layouts
}
