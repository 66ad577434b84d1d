"""tdls: batched LU solves of many small dense linear systems (libtdls).

    import numpy as np, tdls
    x = tdls.solve(a, b)              # a: (..., n, n), b: (..., n, k) or (..., n)
    lu, piv = tdls.lu_factor(a)       # SciPy's convention, 0-based pivots
    x = tdls.lu_solve((lu, piv), b)

NumPy arrays are solved on the CPU (oneTBB threads over the batch, the GIL
released); CuPy arrays and PyTorch CUDA tensors on their device, on their
current stream, without a host round trip. ``a`` and ``b`` are never
modified. See the README's "Python" section.
"""
from ._errors import SingularMatrixError, TdlsError, InvalidValueError
from ._handle import Handle
from ._lib import version as library_version
from ._solve import lu_factor, lu_solve, solve
from . import _lib


def backend_available(backend):
    """True when libtdls can run calls on ``backend`` ("cpu", "cuda", "hip") now."""
    if backend not in _lib.BACKENDS or backend == "auto":
        raise ValueError(f"backend must be 'cpu', 'cuda' or 'hip', not {backend!r}")
    return bool(_lib.backend_available(_lib.BACKENDS[backend]))


MAX_ORDER = 1024  # TDLS_MAX_ORDER of tdls.h
__version__ = ".".join(str(part) for part in library_version())
__all__ = ["solve", "lu_factor", "lu_solve", "Handle", "SingularMatrixError", "TdlsError", "InvalidValueError",
           "backend_available", "library_version", "MAX_ORDER"]
