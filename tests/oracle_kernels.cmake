# Read by ctest before it runs any test here (TEST_INCLUDE_FILES): the LAPACK
# oracle of the tests runs OpenBLAS's kernels for this processor's vector
# width. OpenBLAS 0.3.21 (Debian 12) does not know every newer processor: on
# an AVX-512 Xeon that reports family 6, model 207 it fell back to its SSE3
# kernels ("Prescott", no multiply-add fused), whose rounding of a singular
# system of order 257 (duplicate rows) put a factor of it 18 units from ours,
# past the tests' bound of 16; its AVX2 and AVX-512 kernels put it within
# the bound, as they do on the hosts OpenBLAS recognises. A value the caller
# set is kept.
if(NOT DEFINED ENV{OPENBLAS_CORETYPE} AND EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo tdls_cpu_flags REGEX "^flags" LIMIT_COUNT 1)
  if(tdls_cpu_flags MATCHES " avx512f " AND tdls_cpu_flags MATCHES " avx512dq ")
    set(ENV{OPENBLAS_CORETYPE} SkylakeX)
  elseif(tdls_cpu_flags MATCHES " avx2 " AND tdls_cpu_flags MATCHES " fma ")
    set(ENV{OPENBLAS_CORETYPE} Haswell)
  endif()
endif()
