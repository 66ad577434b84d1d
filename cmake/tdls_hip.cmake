# Enables the HIP language with Debian's HIP (hipcc 5.2 = clang++-15) when it
# is installed, and sets TDLS_HIP_FOUND. Included at directory scope, since
# enable_language cannot run inside a function. Debian spreads ROCm over
# /usr and /usr/lib/<multiarch>, where CMake's HIP support expects one ROCm
# root: a small shim folder in the build tree points it at the right places.
set(TDLS_HIP_FOUND OFF)
if(NOT TDLS_ENABLE_HIP)
  return()
endif()
find_program(TDLS_HIP_CLANG NAMES clang++-15)
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-multiarch
                OUTPUT_VARIABLE TDLS_MULTIARCH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT TDLS_MULTIARCH)
  set(TDLS_MULTIARCH x86_64-linux-gnu)
endif()
set(TDLS_HIP_CMAKE_DIR /usr/lib/${TDLS_MULTIARCH}/cmake)
set(TDLS_HIP_BITCODE_DIR /usr/lib/${TDLS_MULTIARCH}/amdgcn/bitcode)

if(TDLS_HIP_CLANG AND EXISTS ${TDLS_HIP_CMAKE_DIR}/hip-lang AND EXISTS ${TDLS_HIP_BITCODE_DIR})
  set(TDLS_ROCM_SHIM ${CMAKE_BINARY_DIR}/rocm-shim)
  file(MAKE_DIRECTORY ${TDLS_ROCM_SHIM}/lib)
  if(NOT EXISTS ${TDLS_ROCM_SHIM}/lib/cmake)
    file(CREATE_LINK ${TDLS_HIP_CMAKE_DIR} ${TDLS_ROCM_SHIM}/lib/cmake SYMBOLIC)
  endif()
  set(CMAKE_HIP_COMPILER ${TDLS_HIP_CLANG})
  set(CMAKE_HIP_COMPILER_ROCM_ROOT ${TDLS_ROCM_SHIM})
  set(ENV{CMAKE_PREFIX_PATH} "${TDLS_HIP_CMAKE_DIR}:$ENV{CMAKE_PREFIX_PATH}")
  set(CMAKE_HIP_FLAGS "--rocm-path=/usr --rocm-device-lib-path=${TDLS_HIP_BITCODE_DIR} ${CMAKE_HIP_FLAGS}")
  set(CMAKE_HIP_ARCHITECTURES ${TDLS_HIP_ARCHITECTURES})
  enable_language(HIP)
  set(TDLS_HIP_FOUND ON)
endif()
