"""tdls.solve, tdls.lu_factor, tdls.lu_solve: NumPy's and SciPy's conventions
over libtdls's C ABI.

Each function broadcasts the batch dimensions, maps the operands onto the C
ABI's forms without a copy where their strides allow (_layout), makes the
result with the operands' own array library (_arrays), calls the library
with the GIL released, and turns a failed status or a singular system into
an exception.
"""
import numpy as np

from . import _handle, _lib
from ._arrays import kind_of
from ._errors import SingularMatrixError

_DTYPES = {np.dtype(np.float32): _lib.FLOAT32, np.dtype(np.float64): _lib.FLOAT64,
           np.dtype(np.complex64): _lib.COMPLEX64, np.dtype(np.complex128): _lib.COMPLEX128}


def _compute_dtype(*dtypes):
    """The type of the solve: NumPy's promotion, integers and booleans as float64
    (as numpy.linalg does); float16 and every other type are refused."""
    result = np.result_type(*dtypes)
    if result.kind in "biu":
        return np.dtype(np.float64)
    if result not in _DTYPES:
        raise TypeError(f"tdls: array type {result} is unsupported (float32, float64, complex64, complex128)")
    return result


def _square_stack(kind, a, what):
    shape = kind.shape(a)
    if len(shape) < 2:
        raise np.linalg.LinAlgError(
            f"{what}: {len(shape)}-dimensional array given. Array must be at least two-dimensional")
    if shape[-1] != shape[-2]:
        raise np.linalg.LinAlgError(f"{what}: last 2 dimensions of the array must be square, not {shape[-2:]}")
    return shape[-1]


def _addressable(kind, a, dtype, n, need_column_major=False):
    """a itself when the C ABI can read it as it is, else a copy that it can
    (C order, or F order per matrix when need_column_major); and its layout.
    An empty stack is never read (NumPy gives it zero strides)."""
    if 0 in kind.shape(a):
        return a, kind.stack(a), (_lib.ROW_MAJOR if not need_column_major else _lib.COL_MAJOR, max(n, 1))
    if kind.dtype(a) == dtype and kind.usable(a):
        stack = kind.stack(a)
        layout = stack.layout(n)
        if layout is not None and (not need_column_major or n <= 1 or stack.row_stride == stack.itemsize):
            return a, stack, layout
    if need_column_major:
        copy = kind.swap_last(kind.empty(a, kind.shape(a)[:-2] + (n, n), dtype))
        kind.assign(copy, a)
    else:
        copy = kind.convert(a, dtype)
    stack = kind.stack(copy)
    return copy, stack, stack.layout(n)


def _broadcast(stack, batch_shape):
    from ._layout import MatrixStack, broadcast_strides

    strides = broadcast_strides(stack.batch_shape, stack.batch_strides, batch_shape)
    return MatrixStack(stack.address, batch_shape, strides, stack.row_stride, stack.col_stride, stack.itemsize)


def _batch_shape(first, second):
    """The broadcast batch shape (NumPy's rules; equal shapes need no work)."""
    return tuple(first) if tuple(first) == tuple(second) else tuple(np.broadcast_shapes(first, second))


def _system_count(batch_shape):
    count = 1
    for size in batch_shape:
        count *= int(size)
    return count


class _Call:
    """One C call: the handle it runs with (locked for the call), the stream of
    a device call, the status check."""

    def __init__(self, kind, like, handle, threads):
        self.kind = kind
        self.like = like
        self.handle = _handle.resolve(handle, threads, kind.device)

    def run(self, function, name, *args):
        if self.handle is None:
            status = function(None, *args)
            _lib.check(status, name)
            return
        with self.handle._use():
            pointer = self.handle._pointer
            if self.kind.device and self.handle.stream is None and self.handle.backend != "cpu":
                _lib.check(_lib.set_stream(pointer, self.kind.stream(self.like)), "tdls_set_stream")
            status = function(pointer, *args)
        _lib.check(status, name)


def _singular(kind, info, batch_shape, check):
    """check: raise for singular systems (a device call waits for its info
    here, as torch.linalg.solve does); else the info array in the batch
    shape, of the operands' array type (a device call stays asynchronous)."""
    if not check:
        return info.reshape(batch_shape) if batch_shape else info.reshape(())
    host = np.asarray(kind.to_host(info)).reshape(batch_shape)
    if host.any() and (host > 0).any():  # info < 0 (a NULL device pointer entry) is not singular
        where = np.nonzero(host > 0)
        raise SingularMatrixError(where, host[where], batch_shape)
    return None


def _rhs(kind, b, n, a_ndim, a_shape):
    """b as a stack of n x k matrices, and whether it was a stack of vectors
    (torch.linalg.solve's rule: b.ndim == 1, or b's shape is a's without the last axis)."""
    shape = kind.shape(b)
    vector = len(shape) == 1 or (len(shape) == a_ndim - 1 and shape == a_shape[:-1])
    if vector:
        b = b[..., None]
        shape = shape + (1,)
    if len(shape) < 2 or shape[-2] != n:
        raise ValueError(f"tdls: b of shape {kind.shape(b)[:-1] if vector else shape} does not match a of "
                         f"shape {a_shape}: b needs {n} rows (shape (..., {n}, k), or (..., {n}) for vectors)")
    return b, vector


def solve(a, b, *, check=True, threads=None, handle=None):
    """Solves a @ x = b for x, for every system of a stack, by LU with partial
    pivoting (libtdls's read-only solve: ``a`` and ``b`` are not modified).

    Parameters
    ----------
    a : (..., n, n) array
        The matrices (NumPy, or a CuPy / PyTorch CUDA array: then solved on
        its device, on its current stream). Any strides: C- or F-ordered
        matrices and strided or broadcast stacks are read in place.
    b : (..., n, k) or (..., n) array
        The right-hand sides. b of shape (n,), or of ``a.shape[:-1]``, is a
        stack of vectors (as in ``torch.linalg.solve``); the batch dimensions
        of a and b broadcast.
    check : bool
        True: raise :class:`tdls.SingularMatrixError` when a system is
        singular (a device call waits for the verdict). False: return
        ``(x, info)``, info an int32 array of the batch shape and the
        operands' array type: 0, or k > 0 for a singular system, whose x then
        holds b. k is LAPACK's info of the factorization run on the memory as
        it is: of a for F-ordered matrices, of a.T for C-ordered ones (the C
        ABI's row-major mirror solve); either is nonzero exactly when a is
        singular.
    threads : int, optional
        CPU threads (0: all); the default context uses all.
    handle : tdls.Handle, optional
        Backend, device, stream and pivot threshold (also taken from an
        enclosing ``with tdls.Handle(...)``).

    Returns
    -------
    x : array of the broadcast shape, the operands' array type, float32 or
        float64 (integers solve in float64), and ``info`` with ``check=False``.
    """
    kind = kind_of(a, b)
    a, b = kind.asarray(a), kind.asarray(b)
    n = _square_stack(kind, a, "tdls.solve")
    a_shape = kind.shape(a)
    b, vector = _rhs(kind, b, n, len(a_shape), a_shape)
    k = kind.shape(b)[-1]
    batch_shape = _batch_shape(a_shape[:-2], kind.shape(b)[:-2])
    dtype = _compute_dtype(kind.dtype(a), kind.dtype(b))
    dtype_code = _DTYPES[dtype]
    a, a_stack, (layout, lda) = _addressable(kind, a, dtype, n)
    # x in the layout of a (the C ABI takes one layout for both).
    if layout == _lib.ROW_MAJOR:
        x = kind.empty(a, batch_shape + (n, k), dtype)
        ldb = max(k, 1)
    else:
        x = kind.swap_last(kind.empty(a, batch_shape + (k, n), dtype))
        ldb = max(n, 1)
    if k > 0 and n > 0:
        kind.assign(x, b)
    count = _system_count(batch_shape)
    info = kind.empty(a, (count,), np.int32)
    if count > 0:
        call = _Call(kind, a, handle, threads)
        b_address = kind.address(x) if k > 0 and n > 0 else None
        a_stack = _broadcast(a_stack, batch_shape)
        stride_a = a_stack.strided(lda * n)
        if stride_a is not None or n == 0:
            call.run(_lib.batched_solve, "tdls_batched_solve", dtype_code, layout, n, k,
                     a_stack.address if n > 0 else None, max(lda, 1), stride_a or 0,
                     b_address, ldb, ldb * n if layout == _lib.ROW_MAJOR else ldb * k, kind.address(info), count)
        else:
            a_array = kind.to_kind(a, a_stack.addresses())
            if b_address is None:
                b_array, b_array_address = None, None
            else:
                b_array = kind.to_kind(a, kind.stack(x).addresses())
                b_array_address = kind.address(b_array)
            call.run(_lib.batched_solve_ptr, "tdls_batched_solve_ptr", dtype_code, layout, n, k,
                     kind.address(a_array), lda, b_array_address, ldb, kind.address(info), count)
    info = _singular(kind, info, batch_shape, check)
    if vector:
        x = x[..., 0]
    return x if check else (x, info)


def lu_factor(a, *, check=True, threads=None, handle=None):
    """LU factorization with partial pivoting of every matrix of a stack,
    in SciPy's convention: ``(lu, piv)`` with ``lu`` (..., n, n) holding L
    (unit diagonal, not stored) below and U on and above the diagonal, and
    ``piv`` (..., n) int32, 0-based: row i was interchanged with row piv[i].
    At the default pivot threshold these are LAPACK ``?getrf``'s (and
    ``scipy.linalg.lu_factor``'s) factors. ``a`` is not modified.

    check=True raises :class:`tdls.SingularMatrixError` for a singular
    system; check=False returns ``(lu, piv, info)``. threads, handle: as in
    :func:`tdls.solve`."""
    kind = kind_of(a)
    a = kind.asarray(a)
    n = _square_stack(kind, a, "tdls.lu_factor")
    batch_shape = tuple(kind.shape(a)[:-2])
    dtype = _compute_dtype(kind.dtype(a))
    # getrf works in place: on a copy, column-major per matrix (LAPACK's factors of a itself).
    lu = kind.swap_last(kind.empty(a, batch_shape + (n, n), dtype))
    if n > 0:
        kind.assign(lu, a)
    count = _system_count(batch_shape)
    ipiv = kind.empty(a, batch_shape + (n,), np.int32)
    info = kind.empty(a, (count,), np.int32)
    if count > 0:
        call = _Call(kind, a, handle, threads)
        call.run(_lib.batched_getrf, "tdls_batched_getrf", _DTYPES[dtype], _lib.COL_MAJOR, n,
                 kind.address(lu) if n > 0 else None, max(n, 1), n * n,
                 kind.address(ipiv) if n > 0 else None, n, kind.address(info), count)
    info = _singular(kind, info, batch_shape, check)
    piv = ipiv - 1
    return (lu, piv) if check else (lu, piv, info)


def lu_solve(lu_and_piv, b, trans=0, *, threads=None, handle=None):
    """Solves a @ x = b (trans=0) or a.T @ x = b (trans=1, or 2 for real
    types) from :func:`tdls.lu_factor`'s (or ``scipy.linalg.lu_factor``'s)
    ``(lu, piv)``, for every system of a stack; b as in :func:`tdls.solve`
    (batch dimensions broadcast against lu's). Pivots outside 0..n-1 raise
    ValueError and nothing is solved. lu, piv and b are not modified."""
    lu, piv = lu_and_piv
    kind = kind_of(lu, piv, b)
    lu, piv, b = kind.asarray(lu), kind.asarray(piv), kind.asarray(b)
    n = _square_stack(kind, lu, "tdls.lu_solve")
    lu_shape = kind.shape(lu)
    if trans not in (0, 1, 2):
        raise ValueError(f"tdls.lu_solve: trans must be 0, 1 or 2, not {trans!r}")
    if kind.shape(piv) != lu_shape[:-1]:
        raise ValueError(f"tdls.lu_solve: piv of shape {kind.shape(piv)} does not match lu of shape {lu_shape}: "
                         f"it needs shape {lu_shape[:-1]}")
    if kind.dtype(piv).kind not in "iu":
        raise TypeError(f"tdls.lu_solve: piv must hold integers, not {kind.dtype(piv)}")
    b, vector = _rhs(kind, b, n, len(lu_shape), lu_shape)
    k = kind.shape(b)[-1]
    batch_shape = _batch_shape(lu_shape[:-2], kind.shape(b)[:-2])
    dtype = _compute_dtype(kind.dtype(lu), kind.dtype(b))
    if trans == 2 and dtype.kind == "c":
        raise NotImplementedError("tdls.lu_solve: trans=2 (conjugate transpose) is not supported for complex types")
    # The factors must read column-major as LAPACK's; trans=1 reads the same
    # memory as row-major, which the C ABI takes for the factors of a.T.
    lu, lu_stack, (_, lda) = _addressable(kind, lu, dtype, n, need_column_major=True)
    layout = _lib.COL_MAJOR if trans == 0 else _lib.ROW_MAJOR
    if layout == _lib.ROW_MAJOR:
        x = kind.empty(lu, batch_shape + (n, k), dtype)
        ldb = max(k, 1)
    else:
        x = kind.swap_last(kind.empty(lu, batch_shape + (k, n), dtype))
        ldb = max(n, 1)
    if k > 0 and n > 0:
        kind.assign(x, b)
    count = _system_count(batch_shape)
    if count == 0 or n == 0 or k == 0:
        return x[..., 0] if vector else x
    # 1-based pivots, one copy per system of the broadcast batch.
    ipiv = kind.empty(lu, batch_shape + (n,), np.int32)
    kind.assign(ipiv, kind.convert(piv + 1, np.int32) if kind.dtype(piv).itemsize <= 4 else
                _clipped_pivots(kind, piv, n))
    lu_stack = _broadcast(lu_stack, batch_shape)
    if lu_stack.strided(lda * n) is None:
        # getrs has no pointer form: systems that share factors get their own copy.
        expanded = kind.swap_last(kind.empty(lu, batch_shape + (n, n), dtype))
        kind.assign(expanded, lu)
        lu, lda = expanded, n
        lu_stack = kind.stack(lu)
    stride_a = lu_stack.strided(lda * n)
    call = _Call(kind, lu, handle, threads)
    call.run(_lib.batched_getrs, "tdls_batched_getrs", _DTYPES[dtype], layout, n, k,
             kind.address(lu), lda, stride_a, kind.address(ipiv), n, kind.address(x), ldb, n * k, count)
    return x[..., 0] if vector else x


def _clipped_pivots(kind, piv, n):
    """64-bit pivots as int32, with out-of-range values kept out of range (not
    wrapped into 1..n) so that the library refuses them."""
    limit = np.iinfo(np.int32).max - 1
    host = np.asarray(kind.to_host(piv)).astype(np.int64)
    host = np.clip(host, -1, limit) + 1
    return kind.to_kind(piv, host.astype(np.int32))
