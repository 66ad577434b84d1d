#!/usr/bin/env bash
# A GPU plugin exports tdls_plugin_entry and nothing else (no symbol of its
# static runtime or of its kernels leaks into the process).
# Usage: check_plugin_exports.sh <path to libtdls_cuda.so or libtdls_hip.so>
set -euo pipefail
plugin=$1
mapfile -t symbols < <(nm -D --defined-only "$plugin" | awk '{print $3}' | sed 's/@.*//')
if [[ ${#symbols[@]} -ne 1 || ${symbols[0]} != tdls_plugin_entry ]]; then
  echo "check_plugin_exports: $plugin exports ${#symbols[@]} symbols: ${symbols[*]:0:10}" >&2
  exit 1
fi
echo "check_plugin_exports: $plugin exports tdls_plugin_entry only"
