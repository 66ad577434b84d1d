// The peers tdls-bench times next to tdls, all on the column-major strided
// batch (their native storage). Each factory returns a solver whose
// unavailable() says why it cannot run here.
#pragma once

#include <memory>
#include <string>

#include "batch.hpp"
#include "solver.hpp"

namespace bench {

template <typename T>
std::unique_ptr<Solver> make_lapacke_solver(std::shared_ptr<HostBatch<T>> batch);

template <typename T>
std::unique_ptr<Solver> make_eigen_solver(std::shared_ptr<HostBatch<T>> batch);

template <typename T>
std::unique_ptr<Solver> make_cublas_solver(std::shared_ptr<HostBatch<T>> batch);

/// OpenBLAS' configuration string and its thread settings, for the report.
std::string lapacke_description();
/// Which Eigen build runs here (ISA chosen at run time) and its SIMD sets.
std::string eigen_description();
/// The GPU cuBLAS would use, or why the GPU peers are skipped.
std::string cublas_description();

} // namespace bench
