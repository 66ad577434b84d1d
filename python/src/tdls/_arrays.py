"""The array libraries a call can take its operands from, behind one small
interface: NumPy (host memory, the CPU backend) and the GPU array libraries
that export ``__cuda_array_interface__`` (CuPy, PyTorch CUDA tensors), whose
memory libtdls locates on the device itself. The result of a call is made by
the operands' own library, so it has their array type.

Every kind answers: ``stack(x)`` (where x's systems are), ``empty``,
``assign`` (a broadcasting copy), ``to_kind`` (host integers to the kind's
memory: pointer arrays, pivots), ``to_host`` (info), ``convert`` (a dtype or
a copy the C ABI can address) and ``stream`` (the handle's stream when the
caller gave none).
"""
import sys

import numpy as np

from ._layout import MatrixStack


def _stack_from(shape, strides, address, itemsize):
    return MatrixStack(address, shape[:-2], strides[:-2], strides[-2], strides[-1], itemsize)


class NumpyKind:
    name = "numpy"
    device = False

    def matches(self, x):
        return isinstance(x, np.ndarray)

    def asarray(self, x):
        return np.asarray(x)

    def dtype(self, x):
        return x.dtype

    def shape(self, x):
        return x.shape

    def usable(self, x):
        """True when libtdls can read x's memory as it is."""
        return x.flags.aligned and x.dtype.isnative

    def stack(self, x):
        return _stack_from(x.shape, x.strides, x.ctypes.data, x.itemsize)

    def address(self, x):
        return x.ctypes.data

    def convert(self, x, dtype):
        return np.ascontiguousarray(x, dtype=dtype)

    def empty(self, like, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def assign(self, dst, src):
        np.copyto(dst, src)

    def to_kind(self, like, host):
        return np.ascontiguousarray(host)

    def to_host(self, x):
        return np.asarray(x)

    def stream(self, like):
        return None

    def swap_last(self, x):
        return np.swapaxes(x, -1, -2)


def _cai_stack(interface, itemsize):
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    if strides is None:  # C-contiguous
        strides, step = [], itemsize
        for size in reversed(shape):
            strides.append(step)
            step *= max(size, 1)
        strides = tuple(reversed(strides))
    return _stack_from(shape, tuple(strides), int(interface["data"][0]), itemsize)


class CupyKind:
    """CuPy arrays (``module`` names the library: "cupy", or a stand-in with
    CuPy's API in the tests)."""

    device = True

    def __init__(self, module="cupy"):
        self.name = module

    def _xp(self):
        return sys.modules[self.name]

    def matches(self, x):
        return type(x).__module__.split(".")[0] == self.name and hasattr(x, "__cuda_array_interface__")

    def asarray(self, x):
        return self._xp().asarray(x)

    def dtype(self, x):
        return np.dtype(x.dtype)

    def shape(self, x):
        return tuple(x.shape)

    def usable(self, x):
        interface = x.__cuda_array_interface__
        return np.dtype(interface["typestr"]).isnative and int(interface["data"][0]) % x.dtype.itemsize == 0

    def stack(self, x):
        return _cai_stack(x.__cuda_array_interface__, np.dtype(x.dtype).itemsize)

    def address(self, x):
        return int(x.__cuda_array_interface__["data"][0])

    def convert(self, x, dtype):
        with self._xp().cuda.Device(x.device.id):
            return self._xp().ascontiguousarray(x, dtype=dtype)

    def empty(self, like, shape, dtype):
        with self._xp().cuda.Device(like.device.id):
            return self._xp().empty(shape, dtype=dtype)

    def assign(self, dst, src):
        dst[...] = src

    def to_kind(self, like, host):
        with self._xp().cuda.Device(like.device.id):
            return self._xp().asarray(np.ascontiguousarray(host))

    def to_host(self, x):
        return self._xp().asnumpy(x)

    def stream(self, like):
        with self._xp().cuda.Device(like.device.id):
            return int(self._xp().cuda.get_current_stream().ptr)

    def swap_last(self, x):
        return self._xp().swapaxes(x, -1, -2)


class TorchKind:
    """PyTorch tensors on a CUDA (or ROCm) device (``module``: "torch", or a
    stand-in with PyTorch's API in the tests)."""

    device = True

    def __init__(self, module="torch"):
        self.name = module

    def _torch(self):
        return sys.modules[self.name]

    def matches(self, x):
        torch = sys.modules.get(self.name)
        return torch is not None and isinstance(x, torch.Tensor) and x.is_cuda

    def asarray(self, x):
        return x

    def dtype(self, x):
        return np.dtype(str(x.dtype).rsplit(".", 1)[-1])  # "torch.float64" -> float64

    def shape(self, x):
        return tuple(x.shape)

    def usable(self, x):
        return x.data_ptr() % x.element_size() == 0

    def stack(self, x):
        item = x.element_size()
        return _stack_from(tuple(x.shape), tuple(s * item for s in x.stride()), x.data_ptr(), item)

    def address(self, x):
        return x.data_ptr()

    def _dtype(self, dtype):
        return getattr(self._torch(), np.dtype(dtype).name)

    def convert(self, x, dtype):
        return x.to(dtype=self._dtype(dtype)).contiguous()

    def empty(self, like, shape, dtype):
        return self._torch().empty(shape, dtype=self._dtype(dtype), device=like.device)

    def assign(self, dst, src):
        dst.copy_(src.expand(dst.shape) if src.dim() else src)

    def to_kind(self, like, host):
        return self._torch().from_numpy(np.ascontiguousarray(host)).to(like.device)

    def to_host(self, x):
        return x.cpu().numpy()

    def stream(self, like):
        return int(self._torch().cuda.current_stream(like.device).cuda_stream)

    def swap_last(self, x):
        return x.transpose(-1, -2)


NUMPY = NumpyKind()
_device_kinds = [CupyKind(), TorchKind()]


def register_device_kind(kind):
    """Adds an array library (first in the search); the tests' stand-in uses it."""
    _device_kinds.insert(0, kind)


def unregister_device_kind(kind):
    _device_kinds.remove(kind)


def kind_of(*operands):
    """The kind every operand belongs to (host NumPy unless one is a device
    array; then all must be of that library)."""
    if all(type(x) is np.ndarray for x in operands):  # the common case, without the device checks
        return NUMPY
    found = None
    for x in operands:
        kind = next((k for k in _device_kinds if k.matches(x)), None)
        if kind is None:
            if hasattr(x, "__cuda_array_interface__"):
                raise TypeError(f"tdls: {type(x).__module__}.{type(x).__name__} exports __cuda_array_interface__, "
                                "but only CuPy arrays and PyTorch CUDA tensors are supported on the GPU")
            continue
        if found is not None and found is not kind:
            raise TypeError(f"tdls: operands from different array libraries ({found.name}, {kind.name})")
        found = kind
    if found is None:
        return NUMPY
    for x in operands:
        if not found.matches(x):
            raise TypeError(f"tdls: operands in different places: a {found.name} device array and a "
                            f"{type(x).__module__}.{type(x).__name__} (move both to the same device)")
    return found
