"""tdls.Handle: a libtdls handle (backend, device, stream, pivot threshold,
CPU threads), and which handle a call uses."""
import contextvars
import ctypes
import threading

from . import _lib

_current = contextvars.ContextVar("tdls_current_handle", default=None)


class Handle:
    """A libtdls context: the backend ("auto", "cpu", "cuda", "hip"), the GPU
    device, the GPU stream (an integer cudaStream_t / hipStream_t; None: the
    array's current stream for CuPy and PyTorch arrays, else the default
    stream), the pivot threshold tau in (0, 1] (1: LAPACK's partial pivoting)
    and the number of CPU threads (0: all).

    Pass it as ``handle=`` to any solve, or make it the current one for the
    calls of a ``with`` block (the block's exit closes it). A handle serves one
    call at a time: calls from several threads on one handle take turns."""

    _pointer = None  # before tdls_create has run (close and __del__ read it)

    def __init__(self, backend="auto", device=0, stream=None, pivot_threshold=1.0, threads=0):
        if backend not in _lib.BACKENDS:
            raise ValueError(f"backend must be one of {sorted(_lib.BACKENDS)}, not {backend!r}")
        self._pointer = ctypes.c_void_p()
        self._lock = threading.Lock()
        self._token = None
        _lib.check(_lib.create(ctypes.byref(self._pointer), _lib.BACKENDS[backend], int(device)), "tdls_create")
        self.backend = backend
        self.device = int(device)
        self.stream = None
        try:
            self.pivot_threshold = float(pivot_threshold)
            _lib.check(_lib.set_pivot_threshold(self._pointer, self.pivot_threshold), "tdls_set_pivot_threshold")
            self.threads = _threads(threads)
            _lib.check(_lib.set_num_threads(self._pointer, self.threads), "tdls_set_num_threads")
            if stream is not None:
                self.set_stream(stream)
        except BaseException:
            self.close()
            raise

    def set_stream(self, stream):
        """Makes ``stream`` (an integer, or None for the array's current stream) the handle's stream."""
        self.stream = None if stream is None else int(stream)
        _lib.check(_lib.set_stream(self._pointer, self.stream or 0), "tdls_set_stream")

    def close(self):
        """Destroys the libtdls handle (idempotent)."""
        pointer, self._pointer = self._pointer, None
        if pointer:
            _lib.destroy(pointer)

    def __del__(self):
        self.close()

    def __enter__(self):
        self._token = _current.set(self)
        return self

    def __exit__(self, *exc):
        _current.reset(self._token)
        self._token = None
        self.close()

    def __repr__(self):
        return (f"tdls.Handle(backend={self.backend!r}, device={self.device}, stream={self.stream}, "
                f"pivot_threshold={self.pivot_threshold}, threads={self.threads})")

    def _use(self):
        if not self._pointer:
            raise ValueError("tdls.Handle is closed")
        return self._lock


def _threads(threads):
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads must be an integer >= 0 (0: all), not {threads!r}")
    return threads


_per_thread = threading.local()


def _for_threads(threads, stream_follows_array):
    """A handle of this thread for ``threads=`` without a handle (cached per
    thread, since a handle serves one thread at a time)."""
    cache = getattr(_per_thread, "handles", None)
    if cache is None:
        cache = _per_thread.handles = {}
    key = (threads, stream_follows_array)
    handle = cache.get(key)
    if handle is None:
        handle = cache[key] = Handle(threads=threads)
    return handle


def resolve(handle, threads, device_call):
    """The Handle a call runs with, or None for the library's default context."""
    if handle is None:
        handle = _current.get()
    if handle is not None:
        if threads is not None:
            raise ValueError("pass threads= or handle= (whose threads setting applies), not both")
        return handle
    if threads is not None:
        return _for_threads(_threads(threads), device_call)
    if device_call:
        # The array's current stream needs a handle to carry it.
        return _for_threads(0, True)
    return None
