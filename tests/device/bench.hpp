// The benchmark: libtdls on the CUDA backend against cuBLAS's batched LU
// (cublas?getrfBatched + cublas?getrsBatched) on the same systems, in the
// same run, each answer checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tdls/tdls.h>

#include "context.hpp"

namespace tdls_device {

struct BenchRow {
    std::int64_t n = 0;
    tdls_dtype_t dtype = TDLS_FLOAT64;
    const char* type = "";
    std::int64_t batch = 0;
    double tdls_seconds = 0, cublas_seconds = 0; // medians
    double tdls_worst_ratio = 0, cublas_worst_ratio = 0;
    double predicted = 0;      // systems/s the roofline allows (roofline.hpp)
    std::string kernel;        // the kernel the plan picks
    std::string problem; // "" when both solvers ran and passed their checks
};

struct BenchTotals {
    std::vector<BenchRow> rows;
    FailureLog failures;
    double seconds = 0;

    bool passed() const { return !rows.empty() && failures.count == 0; }
    /// The markdown table of the rows.
    std::string table() const;
};

BenchTotals run_bench(const Context& context);

} // namespace tdls_device
