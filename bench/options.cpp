// tdls-bench's command line. Every value is validated here, so that the sweep
// never meets a size or name it cannot handle.
#include "options.hpp"

#include "cli.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <utility>

#include <tdls/tdls.h>

namespace bench {

const char* form_name(Form form) {
    switch (form) {
    case Form::strided:
        return "strided";
    case Form::ptr:
        return "ptr";
    case Form::interleaved:
        return "interleaved";
    }
    return "?";
}

bool Options::wants_peer(const std::string& name) const {
    return std::find(peers.begin(), peers.end(), name) != peers.end();
}

namespace {

constexpr const char* usage = R"(usage: tdls-bench [options]
Times libtdls (C ABI) against the solvers a user would otherwise pick, on the
same batches of small dense systems, checks every answer's backward error and
writes a CSV and an SVG plot. Default: a short sweep (under a minute).

  --sizes LIST      orders n, e.g. 2,3,4,8 (1..1024)            [2,4,8,16,32,64]
  --types LIST      d (double), s (float), z (complex double),
                    c (complex float)                            [d,s]
  --layouts LIST    col, row (tdls only; peers use col)         [col]
  --forms LIST      strided, ptr, interleaved                   [strided]
  --ops LIST        gesv, solve (A read-only, no pivots)        [gesv,solve]
  --block B         interleaved block; 0 = whole batch          [0]
  --nrhs LIST       right-hand sides                            [1]
  --threads LIST    CPU threads, e.g. 1,2                       [1]
  --backend NAME    cpu, auto, cuda, hip                        [cpu]
  --mib M           target size of A + B per batch, MiB         [32]
  --offset BYTES    A and B start this far past a 64-byte        [0]
                    boundary (16: malloc's and std::vector's
                    large blocks)
  --reps R          timed samples per measurement               [3]
  --peers LIST      lapacke, eigen, cublas, mkl, or none        [lapacke,eigen,cublas,mkl]
                    (mkl: oneMKL batch strided LU and compact LU without
                    pivoting, loaded at run time; pip install mkl)
  --no-machine      skip the FMA-peak and triad measurements (no roofline)
  --triad-mib M     size of each triad array, MiB               [64]
  --out DIR         directory of the CSV and SVG                [.]
  --csv FILE        CSV name (relative to --out)                [tdls-bench.csv]
  --svg FILE        SVG name (relative to --out)                [tdls-bench.svg]
  --quick           --sizes 2,8 --mib 1 --reps 1 --no-machine (a smoke test)
  --full            --mib 128 --reps 5 --triad-mib 256 --threads 1,2
                    --sizes 2,3,4,5,8,12,16,24,32,48,64,96,128,129,192,
                    256,257,384,512,768,1024 --forms strided,interleaved
  --self-test       negative control: perturbs one tdls solution; the check
                    must report it and the run must fail
  --help            this text
Exit status: 0 all checks passed, 1 a backward-error check failed or a call
failed, 2 bad command line.
)";

using cli::bad;
using cli::parse_integer;
using cli::parse_integers;
using cli::parse_positive;
using cli::split;

template <typename E>
using Choice = std::pair<const char*, E>;
constexpr Choice<char> type_choices[] = {{"d", 'd'}, {"s", 's'}, {"z", 'z'}, {"c", 'c'}};
constexpr Choice<bool> layout_choices[] = {{"col", false}, {"row", true}};
constexpr Choice<Form> form_choices[] = {{"strided", Form::strided}, {"ptr", Form::ptr}, {"interleaved", Form::interleaved}};
constexpr Choice<Op> op_choices[] = {{"gesv", Op::gesv}, {"solve", Op::solve}};

/// A comma-separated list of at least one of the choices' names, as their
/// values; an unknown name: "<option>: '<name>' is not a, b or c".
template <typename E, std::size_t Size>
std::vector<E> parse_choices(const std::string& option, const std::string& text, const Choice<E> (&choices)[Size]) {
    std::vector<E> values;
    for (const std::string& item : split(text)) {
        const Choice<E>* found =
            std::find_if(std::begin(choices), std::end(choices), [&](const Choice<E>& c) { return item == c.first; });
        if (found == std::end(choices)) {
            std::string names;
            for (std::size_t i = 0; i < Size; ++i)
                names += std::string(i == 0 ? "" : i + 1 == Size ? " or " : ", ") + choices[i].first;
            bad(option + ": '" + item + "' is not " + names);
        }
        values.push_back(found->second);
    }
    if (values.empty()) bad(option + " needs at least one value");
    return values;
}

} // namespace

Options parse_options(int argc, char** argv) {
    Options o;
    for (int a = 0; a < argc; ++a) {
        if (a) o.command_line += ' ';
        o.command_line += argv[a];
    }
    for (int a = 1; a < argc; ++a) {
        const std::string key = argv[a];
        auto value = [&]() -> std::string {
            if (a + 1 >= argc) bad(key + " needs a value");
            return argv[++a];
        };
        if (key == "--help" || key == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        } else if (key == "--sizes") {
            o.sizes = parse_integers(key, value(), 1, TDLS_MAX_ORDER);
        } else if (key == "--types") {
            o.types = parse_choices(key, value(), type_choices);
        } else if (key == "--layouts") {
            o.row_major = parse_choices(key, value(), layout_choices);
        } else if (key == "--forms") {
            o.forms = parse_choices(key, value(), form_choices);
        } else if (key == "--ops") {
            o.ops = parse_choices(key, value(), op_choices);
        } else if (key == "--block") {
            o.block = parse_integer(key, value(), 0, 1L << 40);
        } else if (key == "--nrhs") {
            o.nrhs = parse_integers(key, value(), 1, 1024);
        } else if (key == "--threads") {
            o.threads = parse_integers(key, value(), 1, 4096);
        } else if (key == "--backend") {
            o.backend = value();
            if (o.backend != "cpu" && o.backend != "auto" && o.backend != "cuda" && o.backend != "hip")
                bad("--backend: '" + o.backend + "' is not cpu, auto, cuda or hip");
        } else if (key == "--mib") {
            o.mib = parse_positive(key, value());
        } else if (key == "--offset") {
            o.offset = int(parse_integer(key, value(), 0, 48));
            if (o.offset % 16 != 0) bad("--offset: " + std::to_string(o.offset) + " is not 0, 16, 32 or 48");
        } else if (key == "--triad-mib") {
            o.triad_mib = parse_positive(key, value());
        } else if (key == "--reps") {
            o.reps = int(parse_integer(key, value(), 1, 1000));
        } else if (key == "--peers") {
            o.peers.clear();
            for (const std::string& item : split(value())) {
                if (item == "none") continue;
                if (item != "lapacke" && item != "eigen" && item != "cublas" && item != "mkl")
                    bad("--peers: '" + item + "' is not lapacke, eigen, cublas, mkl or none");
                o.peers.push_back(item);
            }
        } else if (key == "--no-machine") {
            o.machine = false;
        } else if (key == "--out") {
            o.out = value();
        } else if (key == "--csv") {
            o.csv = value();
        } else if (key == "--svg") {
            o.svg = value();
        } else if (key == "--quick") {
            o.sizes = {2, 8};
            o.mib = 1;
            o.reps = 1;
            o.machine = false;
        } else if (key == "--full") {
            // Every kernel's range and edges (the tiles to 191 or 223, the
            // blocked kernel to 1024), powers of two and one past.
            o.sizes = {2, 3, 4, 5, 8, 12, 16, 24, 32, 48, 64, 96, 128, 129, 192, 256, 257, 384, 512, 768, 1024};
            o.mib = 128;
            o.reps = 5;
            o.triad_mib = 256;
            o.threads = {1, 2};
            o.forms = {Form::strided, Form::interleaved};
        } else if (key == "--self-test") {
            o.self_test = true;
        } else {
            bad("unknown option '" + key + "'");
        }
    }
    return o;
}

} // namespace bench
