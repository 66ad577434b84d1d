"""The exceptions of the package."""
import numpy as np


class TdlsError(RuntimeError):
    """A libtdls call failed: ``status`` is its tdls_status_t value, ``status_name``
    its name ("TDLS_ERROR_NOT_SUPPORTED"), and the message is the library's own
    (tdls_last_error). No operand was modified."""

    def __init__(self, status, status_name, message):
        super().__init__(f"{message} [{status_name}]")
        self.status = status
        self.status_name = status_name


class SingularMatrixError(np.linalg.LinAlgError):
    """Some systems of the batch are singular: U(k, k) is below the singular
    floor (the smallest normal number of the type) for them.

    ``indices``: the batch indices of those systems, a tuple of index arrays
    over the (broadcast) batch shape, as ``numpy.nonzero`` gives them;
    ``info``: their LAPACK ``info`` values (k, 1-based), in the same order;
    ``batch_shape``: the batch shape of the call. Pass ``check=False`` to get
    the whole ``info`` array instead of this exception."""

    def __init__(self, indices, info, batch_shape):
        self.indices = indices
        self.info = info
        self.batch_shape = tuple(batch_shape)
        count = len(info)
        total = int(np.prod(self.batch_shape, dtype=np.int64))
        first = tuple(int(axis[0]) for axis in indices)
        where = f"system {first}" if self.batch_shape else "the system"
        super().__init__(
            f"Singular matrix: {count} of {total} systems singular; {where} has U({int(info[0])},{int(info[0])}) "
            f"below the singular floor (info {int(info[0])})"
        )


class InvalidValueError(TdlsError, ValueError):
    """A libtdls call refused an argument (TDLS_ERROR_INVALID_VALUE)."""
