"""How a stack of matrices in memory maps onto the C ABI's batch forms.

Pure stride arithmetic on (shape, byte strides) pairs, shared by host and
device arrays, so that NumPy, CuPy and PyTorch stacks take the same path:

- one matrix: row-major (unit column stride, lda = row stride) or column-major
  (unit row stride, lda = column stride), either with lda >= n; anything else
  (negative or non-unit inner strides) needs a copy;
- the batch: one stride over all batch dimensions (tdls_batched_solve and
  friends) when the dimensions collapse into one and the stride covers a
  system's footprint; otherwise an array of per-system addresses (the _ptr
  forms), which serves any strides, broadcast (stride 0) included.
"""
from . import _lib


def broadcast_strides(shape, strides, target):
    """Strides of an array of ``shape``/``strides`` broadcast to ``target``
    (NumPy's rules: leading dimensions added, size-1 dimensions get stride 0)."""
    extra = len(target) - len(shape)
    if extra < 0:
        raise ValueError(f"cannot broadcast shape {tuple(shape)} to {tuple(target)}")
    out = [0] * extra
    for size, stride, want in zip(shape, strides, target[extra:]):
        if size == want:
            out.append(stride if size != 1 else 0)
        elif size == 1:
            out.append(0)
        else:
            raise ValueError(f"cannot broadcast shape {tuple(shape)} to {tuple(target)}")
    return tuple(out)


def matrix_layout(n, row_stride, col_stride, itemsize):
    """(layout, lda) for an n x n (or n x k) matrix with these byte strides,
    or None when the C ABI cannot address it without a copy."""
    if n <= 1:
        return _lib.ROW_MAJOR, 1
    if col_stride == itemsize and row_stride % itemsize == 0 and row_stride // itemsize >= n:
        return _lib.ROW_MAJOR, row_stride // itemsize
    if row_stride == itemsize and col_stride % itemsize == 0 and col_stride // itemsize >= n:
        return _lib.COL_MAJOR, col_stride // itemsize
    return None


def single_batch_stride(shape, strides):
    """The one byte stride that steps through every system of a C-ordered
    batch of this shape and these strides, or None when there is none.
    Size-1 dimensions do not count; an empty or one-system batch has stride 0."""
    dims = [(size, stride) for size, stride in zip(shape, strides) if size != 1]
    if not dims:
        return 0
    size_inner, stride = dims[-1]
    for size, outer in reversed(dims[:-1]):
        if outer != stride * size_inner:
            return None
        size_inner *= size
    return stride


def batch_offsets(shape, strides):
    """Byte offset of every system of the batch, in C order (int64 NumPy array)."""
    import numpy as np

    offsets = np.zeros((1,), dtype=np.int64)
    for size, stride in zip(shape, strides):
        offsets = (offsets[:, None] + np.arange(size, dtype=np.int64)[None, :] * stride).reshape(-1)
    return offsets


class MatrixStack:
    """Where the systems of one operand are: the base address, the batch's
    shape and byte strides, the matrix's byte strides, the element size."""

    def __init__(self, address, batch_shape, batch_strides, row_stride, col_stride, itemsize):
        self.address = address
        self.batch_shape = tuple(batch_shape)
        self.batch_strides = tuple(batch_strides)
        self.row_stride = row_stride
        self.col_stride = col_stride
        self.itemsize = itemsize

    def layout(self, n):
        return matrix_layout(n, self.row_stride, self.col_stride, self.itemsize)

    def strided(self, footprint_elements):
        """The element stride of the strided form, or None (then the pointer form)."""
        stride = single_batch_stride(self.batch_shape, self.batch_strides)
        if stride is None or stride % self.itemsize != 0:
            return None
        batch = 1
        for size in self.batch_shape:
            batch *= size
        if batch <= 1:
            return footprint_elements
        elements = stride // self.itemsize
        return elements if elements >= footprint_elements else None

    def addresses(self):
        """Every system's address, C order (int64 NumPy array)."""
        return batch_offsets(self.batch_shape, self.batch_strides) + self.address
