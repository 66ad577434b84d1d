"""Handles, threads and the GIL."""
import ctypes
import threading

import numpy as np
import pytest

import tdls
from tdls import _lib
from oracle import assert_solves, random_matrices


def test_threads_give_the_same_bits(rng):
    a = random_matrices(rng, (3000, 6, 6), np.float64)
    b = rng.standard_normal((3000, 6))
    reference = tdls.solve(a, b)
    for threads in (1, 2, 0):
        np.testing.assert_array_equal(tdls.solve(a, b, threads=threads), reference)
        with tdls.Handle(threads=threads) as handle:
            np.testing.assert_array_equal(tdls.solve(a, b, handle=handle), reference)
            np.testing.assert_array_equal(tdls.solve(a, b), reference)  # the with block's handle


def test_handle_settings_are_checked():
    with pytest.raises(ValueError):
        tdls.Handle(threads=-1)
    with pytest.raises(ValueError):
        tdls.Handle(backend="opencl")
    with pytest.raises(tdls.InvalidValueError) as error:
        tdls.Handle(pivot_threshold=0.0)
    assert "tdls_set_pivot_threshold" in str(error.value)
    with pytest.raises(tdls.TdlsError):
        tdls.Handle(backend="cpu", stream=0x1234)  # a CPU handle has no streams
    handle = tdls.Handle()
    handle.close()
    with pytest.raises(ValueError):
        tdls.solve(np.eye(2), np.ones(2), handle=handle)
    with pytest.raises(ValueError):
        tdls.solve(np.eye(2), np.ones(2), handle=tdls.Handle(), threads=1)
    with pytest.raises(ValueError):
        tdls.solve(np.eye(2), np.ones(2), threads=1.5)


def test_with_block_restores_the_previous_handle(rng):
    a = random_matrices(rng, (40, 6, 6), np.float64)
    lapack = tdls.lu_factor(a)[1]
    with tdls.Handle(pivot_threshold=0.1):
        with tdls.Handle(pivot_threshold=1.0):
            np.testing.assert_array_equal(tdls.lu_factor(a)[1], lapack)
        assert not np.array_equal(tdls.lu_factor(a)[1], lapack)
    np.testing.assert_array_equal(tdls.lu_factor(a)[1], lapack)


def test_many_python_threads(rng):
    """Calls from many threads at once, on the default context, per-thread
    handles (threads=) and one shared handle (its calls take turns)."""
    stacks = [(random_matrices(rng, (500, 5, 5), np.float64), rng.standard_normal((500, 5))) for _ in range(8)]
    expected = [tdls.solve(a, b) for a, b in stacks]
    shared = tdls.Handle(threads=1)
    results, errors = {}, []

    def work(i):
        try:
            a, b = stacks[i]
            for round_ in range(5):
                options = [{}, {"threads": 1}, {"handle": shared}][(i + round_) % 3]
                results[(i, round_)] = tdls.solve(a, b, **options)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 40
    for (i, _), x in results.items():
        np.testing.assert_array_equal(x, expected[i])


def test_the_gil_is_released_during_calls():
    """ctypes.CDLL (not PyDLL) functions drop the GIL for the foreign call."""
    assert isinstance(_lib.lib, ctypes.CDLL) and not isinstance(_lib.lib, ctypes.PyDLL)
    assert not _lib.batched_solve._flags_ & ctypes._FUNCFLAG_PYTHONAPI


def test_errors_carry_the_librarys_message():
    with pytest.raises(tdls.TdlsError) as error:
        tdls.solve(np.eye(2000), np.ones(2000))
    assert error.value.status == 3 and "tdls_batched_solve: n (2000)" in str(error.value)


def test_backend_available():
    assert tdls.backend_available("cpu")
    with pytest.raises(ValueError):
        tdls.backend_available("auto")


def test_package_metadata():
    import os
    import pathlib
    from importlib import metadata

    if not os.environ.get("TDLS_LIBRARY"):  # the library the package carries, next to its modules
        loaded = pathlib.Path(_lib._library_path())
        assert loaded.parent == pathlib.Path(tdls.__file__).resolve().parent and loaded.is_file()

    assert tdls.__version__ == ".".join(map(str, tdls.library_version()))
    assert metadata.version("tdls") == tdls.__version__  # pyproject.toml's version is the library's


def test_threads_argument_solves_correctly(rng):
    a = random_matrices(rng, (64, 20, 20), np.float32)
    b = rng.standard_normal((64, 20, 2)).astype(np.float32)
    assert_solves(a, b, tdls.solve(a, b, threads=2), np.float32)
