# GPU languages for the plugins, the compile checks and the device suite:
# enables CUDA (nvcc at /usr/local/cuda or on the PATH) and HIP (Debian's
# hipcc, cmake/tdls_hip.cmake) at the top level, where every directory sees
# them, and sets TDLS_CUDA_FOUND / TDLS_HIP_FOUND. Included at directory
# scope: enable_language cannot run inside a function.
set(TDLS_CUDA_FOUND OFF)
set(TDLS_HIP_FOUND OFF)
if(NOT (TDLS_BUILD_GPU_PLUGINS OR TDLS_GPU_COMPILE_CHECKS OR TDLS_BUILD_DEVICE_SUITE))
  return()
endif()

include(CheckLanguage)
if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  # Before enable_language: CMake's own default would be the toolkit's oldest arch.
  if(NOT CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${TDLS_CUDA_ARCHITECTURES})
  endif()
  enable_language(CUDA)
  # CMake 3.25 has no C++20 dialect flag for nvcc.
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  find_package(CUDAToolkit REQUIRED)
  set(TDLS_CUDA_FOUND ON)
endif()

include(tdls_hip)
