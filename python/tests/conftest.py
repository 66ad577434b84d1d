"""Test set-up: the stand-in GPU (standin_gpu.py) is installed before any
test runs, because libtdls reads TDLS_PLUGIN_DIR when it first looks for its
plugins; every test starts with an empty stand-in arena."""
import pathlib
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import standin_gpu  # noqa: E402

standin_gpu.install()


@pytest.fixture(autouse=True)
def _fresh_standin():
    standin_gpu.reset()
    yield


@pytest.fixture
def rng(request):
    # One seed per test, from its name: reruns see the same numbers.
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
