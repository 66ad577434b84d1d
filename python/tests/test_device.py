"""The GPU path, on the stand-in GPU (standin_gpu.py): device arrays go to the
CUDA plugin as device pointers, on the array's current stream, the result is
a device array of the same library, and its bits are the CPU path's."""
import numpy as np
import pytest

import standin_gpu
import tdls
from oracle import random_matrices

xp = pytest.importorskip("standin_cupy")  # registered by conftest.py; never missing


def on_device(host):
    return xp.asarray(host)


def test_the_standin_is_the_cuda_backend():
    assert tdls.backend_available("cuda")  # the stand-in's one device
    assert tdls.backend_available("cpu")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 3, 8, 16, 33])
def test_solve_on_the_device(rng, n, dtype):
    a = random_matrices(rng, (11, n, n), dtype)
    b = random_matrices(rng, (11, n, 2), dtype)
    da, db = on_device(a), on_device(b)
    x = tdls.solve(da, db)
    assert isinstance(x, standin_gpu.StandinArray) and x.shape == (11, n, 2) and x.dtype == dtype
    np.testing.assert_array_equal(xp.asnumpy(x), tdls.solve(a, b))  # bitwise the CPU backend's
    np.testing.assert_array_equal(xp.asnumpy(da), a)  # a on the device untouched
    np.testing.assert_array_equal(xp.asnumpy(db), b)
    (call,) = standin_gpu.calls()
    assert call.operation == standin_gpu.SOLVE and call.form == standin_gpu.STRIDED
    assert call.stream == standin_gpu.STREAM  # the array's current stream
    assert call.A == da.__cuda_array_interface__["data"][0]  # a itself: no copy
    assert call.n == n and call.nrhs == 2 and call.batch == 11 and call.row_major == 1
    assert call.dtype == {np.float32: 0, np.float64: 1, np.complex64: 2, np.complex128: 3}[dtype]  # tdls.h


def test_negative_control_nothing_solved_is_seen(rng):
    """With the stand-in computing nothing, x keeps b: the bitwise check above would fail."""
    a = random_matrices(rng, (4, 3, 3), np.float64)
    b = rng.standard_normal((4, 3))
    with standin_gpu.not_solving():
        x = tdls.solve(on_device(a), on_device(b), check=False)[0]
    assert len(standin_gpu.calls()) == 1
    np.testing.assert_array_equal(xp.asnumpy(x), b)
    assert not np.array_equal(xp.asnumpy(x), tdls.solve(a, b))


def test_broadcast_goes_through_device_pointer_arrays(rng):
    a = random_matrices(rng, (3, 1, 4, 4), np.float64)
    b = rng.standard_normal((5, 4, 2))
    x = tdls.solve(on_device(a), on_device(b))
    np.testing.assert_array_equal(xp.asnumpy(x), tdls.solve(a, b))
    (call,) = standin_gpu.calls()
    assert call.form == standin_gpu.POINTERS and call.batch == 15
    # The pointer arrays are device memory (the core refuses host arrays of device pointers).
    assert call.A_array and call.B_array


def test_column_major_and_strided_device_stacks(rng):
    base = random_matrices(rng, (8, 7, 7), np.float64)
    device = on_device(base)
    views = [
        (xp.swapaxes(device, -1, -2), base.transpose(0, 2, 1)),  # column-major matrices
        (device[::2, :5, :5], base[::2, :5, :5]),                 # lda > n, every other system
    ]
    for view, host in views:
        b = rng.standard_normal(host.shape[:-1])
        np.testing.assert_array_equal(xp.asnumpy(tdls.solve(view, on_device(b))), tdls.solve(host, b))
        assert standin_gpu.calls()[-1].A == view.__cuda_array_interface__["data"][0]  # read in place


def test_lu_factor_and_lu_solve_on_the_device(rng):
    a = random_matrices(rng, (6, 5, 5), np.float64)
    b = rng.standard_normal((6, 5, 3))
    lu, piv = tdls.lu_factor(on_device(a))
    assert isinstance(lu, standin_gpu.StandinArray) and isinstance(piv, standin_gpu.StandinArray)
    host_lu, host_piv = tdls.lu_factor(a)
    np.testing.assert_array_equal(xp.asnumpy(lu), host_lu)
    np.testing.assert_array_equal(xp.asnumpy(piv), host_piv)
    for trans in (0, 1):
        x = tdls.lu_solve((lu, piv), on_device(b), trans=trans)
        np.testing.assert_array_equal(xp.asnumpy(x), tdls.lu_solve((host_lu, host_piv), b, trans=trans))
    operations = [c.operation for c in standin_gpu.calls()]
    assert operations == [standin_gpu.GETRF, standin_gpu.GETRS, standin_gpu.GETRS]


def test_singular_on_the_device(rng):
    a = random_matrices(rng, (3, 4, 4), np.float64)
    a[1] = 0
    with pytest.raises(tdls.SingularMatrixError) as error:
        tdls.solve(on_device(a), on_device(np.ones((3, 4))))
    assert error.value.indices[0].tolist() == [1]
    x, info = tdls.solve(on_device(a), on_device(np.ones((3, 4))), check=False)
    # info stays on the device (no wait for the solve), in the batch shape
    assert isinstance(info, standin_gpu.StandinArray) and xp.asnumpy(info).tolist() == [0, 1, 0]


def test_a_handle_stream_wins(rng):
    a = random_matrices(rng, (2, 3, 3), np.float64)
    with tdls.Handle(stream=0xABC):
        tdls.solve(on_device(a), on_device(np.ones((2, 3))))
    assert standin_gpu.calls()[0].stream == 0xABC


def test_cpu_handle_refuses_device_arrays(rng):
    da = on_device(random_matrices(rng, (2, 3, 3), np.float64))
    db = on_device(np.ones((2, 3)))
    with pytest.raises(tdls.InvalidValueError) as error:
        tdls.solve(da, db, handle=tdls.Handle(backend="cpu"))
    assert "CUDA device 0" in str(error.value)
    assert standin_gpu.calls() == []


def test_mixed_host_and_device_operands(rng):
    a = random_matrices(rng, (2, 3, 3), np.float64)
    with pytest.raises(TypeError):
        tdls.solve(on_device(a), np.ones((2, 3)))
    with pytest.raises(TypeError):
        tdls.solve(a, on_device(np.ones((2, 3))))


def test_unknown_device_array_library():
    class Foreign:
        __cuda_array_interface__ = {"shape": (2, 2), "typestr": "<f8", "data": (0, False), "version": 3}

    with pytest.raises(TypeError) as error:
        tdls.solve(Foreign(), Foreign())
    assert "CuPy" in str(error.value)


def test_launch_failure_reaches_the_caller(rng):
    """The stand-in fails every n = 13 call as a launch error would: the
    plugin's words come back in TdlsError."""
    a = random_matrices(rng, (2, 13, 13), np.float64)
    with pytest.raises(tdls.TdlsError) as error:
        tdls.solve(on_device(a), on_device(np.ones((2, 13))))
    assert error.value.status_name == "TDLS_ERROR_EXECUTION"
    assert "cudaErrorLaunchFailure" in str(error.value)


# --- PyTorch's adapter, on standin_torch ----------------------------------------

def test_torch_tensors_on_the_device(rng):
    a = random_matrices(rng, (3, 1, 6, 6), np.float32)
    b = rng.standard_normal((5, 6, 2)).astype(np.float32)
    ta, tb = standin_gpu.torch_tensor(a), standin_gpu.torch_tensor(b)
    x = tdls.solve(ta, tb)
    assert isinstance(x, standin_gpu.StandinTensor) and x.is_cuda and x.shape == (3, 5, 6, 2)
    np.testing.assert_array_equal(x.cpu().numpy(), tdls.solve(a, b))
    (call,) = standin_gpu.calls()
    assert call.form == standin_gpu.POINTERS and call.stream == standin_gpu.TORCH_STREAM
    # vectors, the strided form, check=False keeps info a device tensor
    x, info = tdls.solve(ta[:, 0], tb[0, :, 0][None].expand((3, 6)), check=False)
    assert isinstance(info, standin_gpu.StandinTensor) and info.cpu().numpy().tolist() == [0, 0, 0]
    np.testing.assert_array_equal(x.cpu().numpy(), tdls.solve(a[:, 0], np.broadcast_to(b[0, :, 0], (3, 6))))


def test_torch_lu_factor_and_lu_solve(rng):
    a = random_matrices(rng, (4, 5, 5), np.float64)
    b = rng.standard_normal((4, 5))
    lu, piv = tdls.lu_factor(standin_gpu.torch_tensor(a))
    host_lu, host_piv = tdls.lu_factor(a)
    np.testing.assert_array_equal(lu.cpu().numpy(), host_lu)
    np.testing.assert_array_equal(piv.cpu().numpy(), host_piv)
    x = tdls.lu_solve((lu, piv), standin_gpu.torch_tensor(b))
    np.testing.assert_array_equal(x.cpu().numpy(), tdls.lu_solve((host_lu, host_piv), b))
    piv64 = piv.to(dtype=standin_gpu.sys.modules["standin_torch"].int64)
    x64 = tdls.lu_solve((lu, piv64), standin_gpu.torch_tensor(b))  # 64-bit pivots: through the host check
    np.testing.assert_array_equal(x64.cpu().numpy(), x.cpu().numpy())


def test_torch_and_cupy_operands_do_not_mix(rng):
    a = random_matrices(rng, (2, 3, 3), np.float64)
    with pytest.raises(TypeError):
        tdls.solve(standin_gpu.torch_tensor(a), on_device(np.ones((2, 3))))
