// tdls-bench's command line: what to sweep and where to write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

enum class Form { strided, ptr, interleaved };
const char* form_name(Form form);

/// What tdls is asked: gesv (A -> LU, ipiv, B -> X) or solve (A read-only,
/// B -> X, no pivots).
enum class Op { gesv, solve };

struct Options {
    std::vector<int> sizes = {2, 4, 8, 16, 32, 64};
    std::vector<char> types = {'d', 's'};      // LAPACK's prefixes: d, s, z (complex double), c (complex float)
    std::vector<bool> row_major = {false};     // layouts; false = column-major
    std::vector<Form> forms = {Form::strided}; // batch forms of tdls
    std::vector<Op> ops = {Op::gesv, Op::solve}; // tdls entry points
    std::int64_t block = 0;                    // interleaved block; 0 = the whole batch
    std::vector<int> nrhs = {1};
    std::vector<int> threads = {1};
    std::string backend = "cpu"; // cpu | auto | cuda | hip
    double mib = 32;             // A + B of one batch, in MiB
    int offset = 0;              // bytes past a 64-byte boundary where A and B start (0, 16, 32, 48)
    int reps = 3;                // timed samples per measurement
    std::vector<std::string> peers = {"lapacke", "eigen", "cublas", "mkl"};
    bool machine = true;    // measure FMA peak and triad bandwidth
    double triad_mib = 64;  // size of each of the triad's three arrays
    bool self_test = false; // perturb one tdls solution: the check must fail
    std::string out = ".";  // directory of the CSV and SVG
    std::string csv = "tdls-bench.csv";
    std::string svg = "tdls-bench.svg";
    std::string command_line;

    bool wants_peer(const std::string& name) const;
};

/// Parses argv; prints usage and exits 0 on --help, prints the problem and
/// exits 2 on a bad option.
Options parse_options(int argc, char** argv);

} // namespace bench
