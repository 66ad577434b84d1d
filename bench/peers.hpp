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

/// oneMKL's ?getrf_batch_strided + ?getrs_batch_strided (partial pivoting).
template <typename T>
std::unique_ptr<Solver> make_mkl_batch_solver(std::shared_ptr<HostBatch<T>> batch);

/// oneMKL's compact LU without pivoting; `batch` must be generated unshuffled.
template <typename T>
std::unique_ptr<Solver> make_mkl_compact_solver(std::shared_ptr<HostBatch<T>> batch);

/// OpenBLAS' configuration string and its thread settings, for the report.
std::string lapacke_description();
/// Which Eigen build runs here (ISA chosen at run time) and its SIMD sets.
std::string eigen_description();
/// The GPU cuBLAS would use, or why the GPU peers are skipped.
std::string cublas_description();
/// oneMKL's version, threading and compact format, or why it is not loaded.
std::string mkl_description();

} // namespace bench
