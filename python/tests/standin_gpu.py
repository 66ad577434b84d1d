"""A stand-in GPU for the device path, as the C tests have (tests/plugins/):

- the stand-in CUDA plugin (tests/plugins/fake_plugin.c, one device, compiled
  here with the system C compiler), whose "device memory" is a static host
  arena: libtdls locates operands inside it on CUDA device 0 and hands the
  call to the plugin;
- ``standin_cupy`` and ``standin_torch``, array libraries with the part of
  CuPy's and PyTorch's API the package uses, whose arrays live in that arena
  (CuPy's export ``__cuda_array_interface__``); the package's CuPy and
  PyTorch adapters serve them;
- the plugin's solve, done on the host: the operands are copied out of the
  arena, solved by libtdls's CPU backend, and the results copied back, so the
  GPU path's answers must be bitwise the CPU path's.

``TDLS_PLUGIN_DIR`` must name the stand-in before libtdls first looks for its
plugins, so conftest.py calls ``install()`` before any test runs.
"""
import contextlib
import ctypes
import os
import pathlib
import subprocess
import sys
import tempfile
import types

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]
STREAM = 0x5EED  # standin_cupy's "current stream"
TORCH_STREAM = 0x70C4  # standin_torch's


class PluginCall(ctypes.Structure):
    """tdls_plugin_call (src/backends/plugin/plugin_abi.h)."""

    _fields_ = [("operation", ctypes.c_int32), ("dtype", ctypes.c_int32), ("row_major", ctypes.c_int32),
                ("form", ctypes.c_int32), ("n", ctypes.c_int64), ("nrhs", ctypes.c_int64),
                ("batch", ctypes.c_int64), ("A", ctypes.c_void_p), ("A_array", ctypes.c_void_p),
                ("lda", ctypes.c_int64), ("strideA", ctypes.c_int64), ("ipiv", ctypes.c_void_p),
                ("ipiv_array", ctypes.c_void_p), ("strideIpiv", ctypes.c_int64), ("B", ctypes.c_void_p),
                ("B_array", ctypes.c_void_p), ("ldb", ctypes.c_int64), ("strideB", ctypes.c_int64),
                ("info", ctypes.c_void_p), ("block", ctypes.c_int64), ("pivot_threshold", ctypes.c_double),
                ("device", ctypes.c_int32), ("stream", ctypes.c_void_p)]


GESV, GETRF, GETRS, SOLVE = 0, 1, 2, 3
STRIDED, POINTERS = 0, 1
_SOLVER_TYPE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(PluginCall), ctypes.c_char_p, ctypes.c_size_t)


class _State:
    plugin = None
    arena = None  # numpy uint8 view of the plugin's arena
    arena_address = 0
    top = 0
    calls = []
    solver = None  # keeps the ctypes callback alive
    solving = True


def build_plugin(directory):
    source = REPO / "tests" / "plugins" / "fake_plugin.c"
    target = pathlib.Path(directory) / "libtdls_cuda.so"
    compiler = os.environ.get("CC", "cc")
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-DFAKE_DEVICES=1",
                    f"-I{REPO / 'src' / 'backends' / 'plugin'}", str(source), "-o", str(target)], check=True)
    return target


def install():
    """Builds the stand-in plugin, points libtdls at it, and registers standin_cupy."""
    directory = tempfile.mkdtemp(prefix="tdls-standin-")
    path = build_plugin(directory)
    os.environ["TDLS_PLUGIN_DIR"] = directory
    # The same file libtdls will dlopen: one loaded object, one arena.
    plugin = ctypes.CDLL(str(path))
    plugin.fake_plugin_arena.restype = ctypes.c_void_p
    plugin.fake_plugin_arena.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
    size = ctypes.c_size_t()
    address = plugin.fake_plugin_arena(ctypes.byref(size))
    _State.plugin = plugin
    _State.arena_address = address
    _State.arena = np.ctypeslib.as_array((ctypes.c_uint8 * size.value).from_address(address))
    _State.solver = _SOLVER_TYPE(_solve_on_host)
    plugin.fake_plugin_set_solver(_State.solver)
    sys.modules["standin_cupy"] = _module()
    sys.modules["standin_torch"] = _torch_module()
    import tdls._arrays

    tdls._arrays.register_device_kind(tdls._arrays.CupyKind("standin_cupy"))
    tdls._arrays.register_device_kind(tdls._arrays.TorchKind("standin_torch"))


def reset():
    """Frees every stand-in array and forgets the recorded calls."""
    _State.top = 0
    _State.calls = []
    _State.solving = True


def calls():
    """The plugin calls since reset(), as PluginCall copies."""
    return list(_State.calls)


@contextlib.contextmanager
def not_solving():
    """The plugin records calls but computes nothing (the negative control)."""
    _State.solving = False
    try:
        yield
    finally:
        _State.solving = True


# --- the array library ------------------------------------------------------

def _allocate(nbytes):
    start = (_State.top + 63) // 64 * 64
    if start + nbytes > _State.arena.size:
        raise MemoryError("stand-in GPU arena full (reset() between tests)")
    _State.top = start + nbytes
    return start


class StandinArray:
    """A device array of the stand-in: a NumPy view of arena memory."""

    def __init__(self, view):
        self._np = view

    dtype = property(lambda self: self._np.dtype)
    shape = property(lambda self: self._np.shape)
    strides = property(lambda self: self._np.strides)
    ndim = property(lambda self: self._np.ndim)
    device = property(lambda self: types.SimpleNamespace(id=0))

    @property
    def __cuda_array_interface__(self):
        return {"shape": self._np.shape, "typestr": self._np.dtype.str, "version": 3,
                "data": (self._np.ctypes.data if self._np.size else 0, False),
                "strides": self._np.strides, "stream": STREAM}

    def reshape(self, *shape):
        return StandinArray(self._np.reshape(*shape))

    def __getitem__(self, key):
        return StandinArray(self._np[key])

    def __setitem__(self, key, value):
        if isinstance(value, np.ndarray):
            raise TypeError("standin_cupy: no implicit host-to-device copy (as CuPy)")
        self._np[key] = value._np if isinstance(value, StandinArray) else value

    def _new(self, result):
        out = empty(result.shape, result.dtype)
        out._np[...] = result
        return out

    def __add__(self, other):
        return self._new(self._np + other)

    def __sub__(self, other):
        return self._new(self._np - other)

    def astype(self, dtype):
        return self._new(self._np.astype(dtype))

    def __array__(self, *args, **kwargs):
        raise TypeError("standin_cupy: no implicit device-to-host copy (as CuPy)")


def empty(shape, dtype=np.float64):
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    start = _allocate(count * dtype.itemsize)
    view = _State.arena[start:start + count * dtype.itemsize].view(dtype).reshape(shape)
    return StandinArray(view)


def asarray(x):
    if isinstance(x, StandinArray):
        return x
    host = np.asarray(x)
    out = empty(host.shape, host.dtype)
    out._np[...] = host
    return out


def ascontiguousarray(x, dtype=None):
    host = np.ascontiguousarray(x._np, dtype=dtype)
    out = empty(host.shape, host.dtype)
    out._np[...] = host
    return out


def asnumpy(x):
    return np.array(x._np)


def swapaxes(x, a, b):
    return StandinArray(np.swapaxes(x._np, a, b))


class _Device:
    def __init__(self, ordinal):
        if ordinal != 0:
            raise ValueError("the stand-in has device 0 only")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _module():
    module = types.ModuleType("standin_cupy")
    module.empty, module.asarray, module.ascontiguousarray = empty, asarray, ascontiguousarray
    module.asnumpy, module.swapaxes = asnumpy, swapaxes
    module.cuda = types.SimpleNamespace(Device=_Device,
                                        get_current_stream=lambda: types.SimpleNamespace(ptr=STREAM))
    StandinArray.__module__ = "standin_cupy"
    return module


class _TorchDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"standin_torch.{self.name}"


class StandinTensor:
    """A tensor of standin_torch: on "cuda:0" (the arena) or on the host."""

    def __init__(self, view, on_device):
        self._np = view
        self.is_cuda = on_device
        self.device = "cuda:0" if on_device else "cpu"

    shape = property(lambda self: self._np.shape)
    dtype = property(lambda self: getattr(_torch_module_object, self._np.dtype.name))

    def data_ptr(self):
        return self._np.ctypes.data if self._np.size else 0

    def element_size(self):
        return self._np.itemsize

    def stride(self):
        return tuple(s // self._np.itemsize for s in self._np.strides)

    def dim(self):
        return self._np.ndim

    def _fresh(self, host, on_device):
        if not on_device:
            return StandinTensor(np.array(host), False)
        out = empty(host.shape, host.dtype)
        out._np[...] = host
        return StandinTensor(out._np, True)

    def to(self, device=None, dtype=None):
        target = self.is_cuda if device is None else str(device).startswith("cuda")
        data = self._np if dtype is None else self._np.astype(dtype.name)
        if target == self.is_cuda and data is self._np:
            return self
        return self._fresh(data, target)

    def contiguous(self):
        return self if self._np.flags.c_contiguous else self._fresh(self._np, self.is_cuda)

    def copy_(self, src):
        if src.is_cuda != self.is_cuda:
            raise TypeError("standin_torch: copies between host and device are not what the package does here")
        self._np[...] = src._np
        return self

    def expand(self, shape):
        return StandinTensor(np.broadcast_to(self._np, shape), self.is_cuda)

    def cpu(self):
        return self._fresh(self._np, False)

    def numpy(self):
        if self.is_cuda:
            raise TypeError("standin_torch: can't convert cuda:0 device type tensor to numpy")
        return self._np

    def transpose(self, a, b):
        return StandinTensor(np.swapaxes(self._np, a, b), self.is_cuda)

    def reshape(self, *shape):
        return StandinTensor(self._np.reshape(*shape), self.is_cuda)

    def __getitem__(self, key):
        return StandinTensor(self._np[key], self.is_cuda)

    def __add__(self, other):
        return self._fresh(self._np + other, self.is_cuda)

    def __sub__(self, other):
        return self._fresh(self._np - other, self.is_cuda)


def _torch_empty(shape, dtype, device):
    assert str(device).startswith("cuda")
    return StandinTensor(empty(shape, dtype.name)._np, True)


def torch_tensor(host):
    """A device tensor of standin_torch holding host's values."""
    return StandinTensor(np.asarray(host), False).to("cuda:0")


def _torch_module():
    global _torch_module_object
    module = types.ModuleType("standin_torch")
    module.Tensor = StandinTensor
    for name in ("float32", "float64", "int32", "int64", "int16", "uint8", "bool"):
        setattr(module, name, _TorchDtype(name))
    module.empty = _torch_empty
    module.from_numpy = lambda host: StandinTensor(host, False)
    module.cuda = types.SimpleNamespace(
        current_stream=lambda device=None: types.SimpleNamespace(cuda_stream=TORCH_STREAM))
    _torch_module_object = module
    return module


_torch_module_object = None


# --- the plugin's solve, on the host ------------------------------------------

def _arena_array(address, count, dtype):
    """A NumPy view of count elements of arena memory at address."""
    offset = address - _State.arena_address
    nbytes = count * np.dtype(dtype).itemsize
    if offset < 0 or offset + nbytes > _State.arena.size:
        raise ValueError("stand-in: an operand outside the arena")
    return _State.arena[offset:offset + nbytes].view(dtype)


def _solve_on_host(call_pointer, message, size):
    call = call_pointer.contents
    copy = PluginCall()
    ctypes.pointer(copy)[0] = call
    _State.calls.append(copy)
    if not _State.solving:
        return 0
    try:
        return _run(call)
    except Exception as error:  # a test failure must not unwind through C
        text = f"stand-in solver: {error!r}".encode()[: size - 1]
        ctypes.memmove(message, text, len(text) + 1)
        return 7  # TDLS_ERROR_INTERNAL


def _run(call):
    from tdls import _lib

    dtype = {_lib.FLOAT32: np.float32, _lib.FLOAT64: np.float64,
             _lib.COMPLEX64: np.complex64, _lib.COMPLEX128: np.complex128}[call.dtype]
    n, nrhs, batch = call.n, call.nrhs, call.batch
    b_footprint = call.ldb * (n if call.row_major else nrhs)
    if call.form == POINTERS:
        a_addresses = _arena_array(call.A_array, batch, np.int64)
        b_addresses = _arena_array(call.B_array, batch, np.int64) if call.B_array else None
        A = np.concatenate([_arena_array(int(p), call.lda * n, dtype) for p in a_addresses])
        B = (np.concatenate([_arena_array(int(p), b_footprint, dtype) for p in b_addresses])
             if b_addresses is not None else None)
        stride_a, stride_b = call.lda * n, b_footprint
    else:
        stride_a, stride_b = call.strideA, call.strideB
        A = _arena_array(call.A, (batch - 1) * stride_a + call.lda * n, dtype).copy()
        B = _arena_array(call.B, (batch - 1) * stride_b + b_footprint, dtype).copy() if call.B else None
    info = np.zeros(batch, dtype=np.int32)
    ipiv = None
    if call.operation in (GETRF, GETRS):
        ipiv = _arena_array(call.ipiv, (batch - 1) * call.strideIpiv + n, np.int32).copy()
    handle = ctypes.c_void_p()
    _lib.check(_lib.create(ctypes.byref(handle), _lib.BACKENDS["cpu"], 0), "tdls_create")
    try:
        _lib.set_pivot_threshold(handle, call.pivot_threshold)
        layout = _lib.ROW_MAJOR if call.row_major else _lib.COL_MAJOR
        B_address = B.ctypes.data if B is not None else None
        if call.operation == SOLVE:
            status = _lib.batched_solve(handle, call.dtype, layout, n, nrhs, A.ctypes.data, call.lda, stride_a,
                                        B_address, call.ldb, stride_b, info.ctypes.data, batch)
        elif call.operation == GETRF:
            status = _lib.batched_getrf(handle, call.dtype, layout, n, A.ctypes.data, call.lda, stride_a,
                                        ipiv.ctypes.data, call.strideIpiv, info.ctypes.data, batch)
        elif call.operation == GETRS:
            status = _lib.batched_getrs(handle, call.dtype, layout, n, nrhs, A.ctypes.data, call.lda, stride_a,
                                        ipiv.ctypes.data, call.strideIpiv, B_address, call.ldb, stride_b, batch)
        else:
            raise ValueError(f"operation {call.operation} is not one the package calls")
        _lib.check(status, "stand-in host solve")
    finally:
        _lib.destroy(handle)
    # Back into the arena: what the operation writes.
    if call.form == POINTERS:
        if B is not None:
            for s, p in enumerate(b_addresses):
                _arena_array(int(p), b_footprint, dtype)[...] = B[s * b_footprint:(s + 1) * b_footprint]
    else:
        if call.operation == GETRF:
            _arena_array(call.A, A.size, dtype)[...] = A
            _arena_array(call.ipiv, ipiv.size, np.int32)[...] = ipiv
        if B is not None and call.operation != GETRF:
            _arena_array(call.B, B.size, dtype)[...] = B
    if call.info:
        _arena_array(call.info, batch, np.int32)[...] = info
    return 0
