// One measured (type, n, nrhs, threads, solver, storage) and how it is
// written: markdown tables on stdout, a CSV, an SVG plot.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "machine.hpp"
#include "solver.hpp"
#include "timing.hpp"

namespace bench {

struct Row {
    char type = 'd'; // LAPACK's prefix: s, d, c or z
    int n = 0, nrhs = 1;
    int threads = 1; // 0: a GPU solver, which ignores the CPU thread count
    std::string solver, form;
    std::int64_t systems = 0;
    std::string status = "ok"; // ok, or why it did not run / failed
    Samples samples;
    CheckResult check;
    bool in_place = true;  // writes the factors back (roofline traffic); false: tdls solve
    double roofline = 0;   // systems/s; 0 without machine limits
    double other_cpu = -1; // cores used by other processes during the measurement

    std::size_t element_size() const { return type_element_size(type); }
    bool ok() const { return status == "ok" && !samples.seconds.empty(); }
    double best_rate() const { return ok() ? double(systems) / samples.best() : 0; }
    double median_rate() const { return ok() ? double(systems) / samples.median() : 0; }
    double gflops() const { return best_rate() * flops_per_system(type, n, nrhs) * 1e-9; }
    std::string label() const; // "tdls strided col", "lapacke", ...
};

/// Markdown: per (type, nrhs, threads) one table of tdls' rate, GFLOP/s,
/// roofline fraction and ratios to each peer; a thread-scaling table when
/// the sweep has more than one thread count.
void print_report(const std::vector<Row>& rows, int reps);

bool write_csv(const std::vector<Row>& rows, const std::string& path);

/// Log-log plot of the best rate against n, one polyline per solver,
/// storage, thread count and type.
bool write_svg(const std::vector<Row>& rows, const std::string& path, const std::string& title);

} // namespace bench
