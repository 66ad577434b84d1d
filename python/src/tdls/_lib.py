"""The C ABI of libtdls.so (include/tdls/tdls.h), bound with ctypes.

The library is the one the package build installed next to this file; the
environment variable TDLS_LIBRARY names another (a development build). ctypes
releases the GIL for the duration of every foreign call, so CPU solves run
while other Python threads go on.
"""
import ctypes
import os
import pathlib

# Enum values of the C ABI (fixed by ../shared/spec/capi.md).
SUCCESS = 0
ERROR_INVALID_VALUE = 2
ERROR_NOT_SUPPORTED = 3

FLOAT32, FLOAT64, COMPLEX64, COMPLEX128 = 0, 1, 2, 3
COL_MAJOR, ROW_MAJOR = 0, 1
BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2, "hip": 3}

_SONAME_MAJOR = 0  # libtdls.so.<ABI major>, as capi/CMakeLists.txt sets it


def _library_path():
    override = os.environ.get("TDLS_LIBRARY")
    if override:
        return override
    here = pathlib.Path(__file__).resolve().parent
    return str(here / f"libtdls.so.{_SONAME_MAJOR}")


def _load():
    path = _library_path()
    try:
        return ctypes.CDLL(path)
    except OSError as error:
        raise ImportError(
            f"tdls: cannot load the libtdls shared library {path} ({error}); the package "
            "installs it next to its modules (pip install ./python), TDLS_LIBRARY names another"
        ) from None


lib = _load()

_i64 = ctypes.c_int64
_vp = ctypes.c_void_p
_status = ctypes.c_int
_handle = ctypes.c_void_p


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


get_version = _declare("tdls_get_version", None, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                       ctypes.POINTER(ctypes.c_int))
backend_available = _declare("tdls_backend_available", ctypes.c_int, ctypes.c_int)
status_name = _declare("tdls_status_name", ctypes.c_char_p, _status)
last_error = _declare("tdls_last_error", ctypes.c_char_p)
create = _declare("tdls_create", _status, ctypes.POINTER(_handle), ctypes.c_int, ctypes.c_int)
destroy = _declare("tdls_destroy", _status, _handle)
set_stream = _declare("tdls_set_stream", _status, _handle, _vp)
get_backend = _declare("tdls_get_backend", _status, _handle, ctypes.POINTER(ctypes.c_int))
set_pivot_threshold = _declare("tdls_set_pivot_threshold", _status, _handle, ctypes.c_double)
set_num_threads = _declare("tdls_set_num_threads", _status, _handle, ctypes.c_int)

# Pointers travel as plain integers (c_void_p accepts them): the callers pass
# addresses taken from array interfaces, host or device.
batched_solve = _declare("tdls_batched_solve", _status, _handle, ctypes.c_int, ctypes.c_int, _i64, _i64,
                         _vp, _i64, _i64, _vp, _i64, _i64, _vp, _i64)
batched_solve_ptr = _declare("tdls_batched_solve_ptr", _status, _handle, ctypes.c_int, ctypes.c_int, _i64, _i64,
                             _vp, _i64, _vp, _i64, _vp, _i64)
batched_getrf = _declare("tdls_batched_getrf", _status, _handle, ctypes.c_int, ctypes.c_int, _i64,
                         _vp, _i64, _i64, _vp, _i64, _vp, _i64)
batched_getrs = _declare("tdls_batched_getrs", _status, _handle, ctypes.c_int, ctypes.c_int, _i64, _i64,
                         _vp, _i64, _i64, _vp, _i64, _vp, _i64, _i64, _i64)


def version():
    """(major, minor, patch) of the loaded libtdls."""
    parts = [ctypes.c_int(), ctypes.c_int(), ctypes.c_int()]
    get_version(*(ctypes.byref(p) for p in parts))
    return tuple(p.value for p in parts)


def check(status, what):
    """Raises the exception for a failed C call, with the library's own message."""
    if status == SUCCESS:
        return
    from ._errors import InvalidValueError, TdlsError

    message = (last_error() or b"").decode("utf-8", "replace")
    name = (status_name(status) or b"TDLS_ERROR").decode()
    error = InvalidValueError if status == ERROR_INVALID_VALUE else TdlsError
    raise error(status, name, message or f"{what} failed")
