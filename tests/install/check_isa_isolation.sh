#!/usr/bin/env bash
# The SIMD kernels of each instruction set are compiled with that set's flags;
# a function they define outside their own namespace (an inline helper, a
# standard-library template) would be a weak symbol the linker may pick for
# every caller in libtdls.so, running AVX-512 code on a machine without it.
# Every symbol these objects define must live in their ISA's namespace.
# Usage: check_isa_isolation.sh <isa> <object files...> (also as one
# ';'-separated list, as CMake's $<TARGET_OBJECTS> hands them over).
set -euo pipefail
isa=$1
shift
objects=()
for argument in "$@"; do
  IFS=';' read -ra parts <<< "$argument"
  objects+=("${parts[@]}")
done
[ ${#objects[@]} -gt 0 ] || { echo "no object files given" >&2; exit 1; }
# Mangled prefix of tdls::kernels::cpu::simd::<isa>:: (plain, const member),
# and of what is local to a function of it (_ZZN...: a lambda, a local static).
own="^_Z(N|Z|ZN)K?4tdls7kernels3cpu4simd${#isa}${isa}"
symbols=$(for object in "${objects[@]}"; do nm --defined-only "$object" | awk 'NF == 3 { print $3 }'; done | sort -u)
strays=$(echo "$symbols" | grep -v -E "${own}|^DW\.ref\.__gxx_personality_v0$|^\.L" || true)
if [ -n "$strays" ]; then
  echo "symbols of the ${isa} kernels outside their namespace:" >&2
  echo "$strays" | c++filt >&2
  exit 1
fi
# Negative control: the objects must define the kernels themselves.
defined=$(echo "$symbols" | grep -c -E "${own}" || true)
[ "$defined" -gt 0 ] || { echo "no ${isa} kernel symbols found: wrong objects?" >&2; exit 1; }
echo "check_isa_isolation: ${defined} ${isa} symbols, none outside tdls::kernels::cpu::simd::${isa}"
