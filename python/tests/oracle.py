"""The tests' oracle: NumPy's solve and the backward error of a solution."""
import numpy as np


def is_vector_rhs(a_shape, b_shape):
    """torch.linalg.solve's (and tdls's) rule for a stack of vectors."""
    return len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and tuple(b_shape) == tuple(a_shape[:-1]))


def numpy_solve(a, b):
    """numpy.linalg.solve under tdls's vector rule (NumPy 2 only takes 1-D b as a vector)."""
    if is_vector_rhs(a.shape, b.shape):
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


def wide(*arrays):
    """float64, or complex128 when any of the arrays is complex: what the checks compute in."""
    return np.complex128 if any(np.iscomplexobj(v) for v in arrays) else np.float64


def backward_errors(a, b, x):
    """Per system: ||b - a x|| / (||a|| ||x|| + ||b||) in the infinity norm, in float64 (complex128)."""
    w = wide(a, b, x)
    a64, b64, x64 = (np.asarray(v, dtype=w) for v in (a, b, x))
    if is_vector_rhs(a.shape, b.shape):
        b64, x64 = b64[..., None], x64[..., None]
    r = b64 - a64 @ x64
    norm_a = np.max(np.sum(np.abs(a64), axis=-1), axis=-1)
    norm_x = np.max(np.sum(np.abs(x64), axis=-1), axis=-1)
    norm_b = np.max(np.sum(np.abs(b64), axis=-1), axis=-1)
    norm_r = np.max(np.sum(np.abs(r), axis=-1), axis=-1)
    return norm_r / np.maximum(norm_a * norm_x + norm_b, np.finfo(np.float64).tiny)


def assert_solves(a, b, x, dtype):
    """x solves a x = b to LU's backward error (a small multiple of n * eps of
    the type), and agrees with NumPy within what the condition number allows."""
    n = a.shape[-1]
    eps = np.finfo(dtype).eps
    errors = backward_errors(a, b, x)
    worst = float(np.max(errors)) if errors.size else 0.0
    assert worst <= 8 * max(n, 1) * eps, f"backward error {worst:.3g} > 8 n eps ({8 * max(n, 1) * eps:.3g})"
    w = wide(a, b)
    expected = numpy_solve(a.astype(w), b.astype(w))
    assert x.shape == expected.shape
    if x.size == 0:
        return
    if is_vector_rhs(a.shape, b.shape):
        x, expected = x[..., None], expected[..., None]
    size = np.maximum(np.max(np.abs(expected), axis=(-2, -1)), np.finfo(np.float64).tiny)
    deviation = np.max(np.abs(x - expected), axis=(-2, -1)) / size
    cond = np.linalg.cond(a.astype(w)) if n > 0 else np.ones(a.shape[:-2])
    bound = 64 * max(n, 1) * eps * cond
    worst = np.max(deviation / np.broadcast_to(bound, deviation.shape))
    assert worst <= 1.0, f"deviation from numpy.linalg.solve {worst:.3g} x the bound 64 n eps cond(a)"


def random_matrices(rng, shape, dtype):
    """Gaussian matrices (both parts, for a complex dtype): partial pivoting
    interchanges rows in almost every column."""
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)
