"""tdls.solve on NumPy stacks, against numpy.linalg.solve and the backward error."""
import numpy as np
import pytest

import tdls
from oracle import assert_solves, backward_errors, numpy_solve, random_matrices

DTYPES = [np.float32, np.float64]
# Every order class of the CPU backend: the SIMD tiles' static orders
# (1..16), their dynamic kernel (17..256: column by column up to 24, in
# panels from 25, exchange sets of 64 rows up to 64, lane by lane past it),
# the blocked kernel (257..1024).
ORDERS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 32, 33, 48, 64, 65, 100, 128, 257]


def solve_checked(a, b, **options):
    """tdls.solve, with a and b checked to be left exactly as they were."""
    a_before, b_before = a.copy(), b.copy()
    x = tdls.solve(a, b, **options)
    np.testing.assert_array_equal(a, a_before)
    np.testing.assert_array_equal(b, b_before)
    return x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", ORDERS)
def test_random_stacks(rng, n, dtype):
    batch = 37 if n <= 64 else 5
    a = random_matrices(rng, (batch, n, n), dtype)
    for b in (rng.standard_normal((batch, n, 3)).astype(dtype), rng.standard_normal((batch, n)).astype(dtype)):
        x = solve_checked(a, b)
        assert x.dtype == dtype and x.shape == b.shape
        assert_solves(a, b, x, dtype)


@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_right_hand_side_counts(rng, k):
    a = random_matrices(rng, (9, 6, 6), np.float64)
    b = rng.standard_normal((9, 6, k))
    x = solve_checked(a, b)
    assert x.shape == (9, 6, k)
    assert_solves(a, b, x, np.float64)


def test_oracle_rejects_a_wrong_answer(rng):
    """Negative control: the checks above fail for a solution off by one ulp-scale step."""
    a = random_matrices(rng, (8, 5, 5), np.float64)
    b = rng.standard_normal((8, 5))
    x = tdls.solve(a, b)
    wrong = x.copy()
    wrong[3, 2] += 1e-9 * max(1.0, abs(wrong[3, 2]))
    with pytest.raises(AssertionError):
        assert_solves(a, b, wrong, np.float64)
    with pytest.raises(AssertionError):
        assert_solves(a, b, x[::-1], np.float64)


@pytest.mark.parametrize("a_shape, b_shape", [
    ((4, 4), (4,)),                 # one system, a vector
    ((4, 4), (4, 2)),               # one system, a matrix
    ((7, 4, 4), (4,)),              # a vector for every system
    ((7, 4, 4), (7, 4)),            # a stack of vectors (b.shape == a.shape[:-1])
    ((7, 4, 4), (4, 3)),            # one b for every system
    ((3, 1, 4, 4), (5, 4, 2)),      # batch dimensions broadcast both ways
    ((1, 4, 4), (6, 4, 1)),         # a shared by all
    ((2, 3, 4, 4), (3, 4, 2)),
    ((2, 3, 4, 4), (2, 1, 4, 2)),
    ((5, 1, 1), (5, 1)),            # n = 1
    ((1, 1), (1,)),
])
def test_broadcasting(rng, a_shape, b_shape):
    a = random_matrices(rng, a_shape, np.float64)
    b = rng.standard_normal(b_shape)
    x = solve_checked(a, b)
    expected = numpy_solve(a, b)
    assert x.shape == expected.shape
    np.testing.assert_allclose(x, expected, rtol=1e-10, atol=1e-12)


def test_broadcast_mismatch_raises(rng):
    a = random_matrices(rng, (3, 4, 4), np.float64)
    b = rng.standard_normal((2, 4, 1))
    with pytest.raises(ValueError):
        tdls.solve(a, b)


def _views(rng, dtype):
    """Stacks whose memory is not a packed C array, and what each stresses."""
    base = random_matrices(rng, (12, 9, 9), dtype)
    fortran = np.asfortranarray(random_matrices(rng, (6, 6, 10), dtype)).transpose(2, 0, 1)
    yield "F-ordered matrices", fortran
    yield "transposed matrices", base.transpose(0, 2, 1)
    yield "submatrices (lda > n)", base[:, :5, :5]
    yield "every other system", base[::2]
    yield "reversed batch (negative stride)", base[::-1]
    yield "reversed rows (copied)", base[:, ::-1, :]
    yield "2-D batch of a 4-D array", random_matrices(rng, (3, 4, 7, 7), dtype)[:, ::2]
    yield "broadcast over the batch (stride 0)", np.broadcast_to(base[0], (5, 9, 9))
    yield "column step 2 (copied)", random_matrices(rng, (4, 6, 12), dtype)[:, :, ::2]
    big_endian = base[:4].astype(base.dtype.newbyteorder(">"))
    yield "non-native byte order (copied)", big_endian
    raw = np.zeros(4 * 9 * 9 * base.itemsize + 1, dtype=np.uint8)
    unaligned = raw[1:].view(dtype).reshape(4, 9, 9)
    unaligned[...] = base[:4]
    yield "unaligned (copied)", unaligned


@pytest.mark.parametrize("dtype", DTYPES)
def test_non_contiguous_views(rng, dtype):
    cases = 0
    for what, a in _views(rng, dtype):
        n = a.shape[-1]
        b = rng.standard_normal(a.shape[:-2] + (n, 2)).astype(dtype)
        x = solve_checked(a, b)
        assert_solves(np.asarray(a, dtype=dtype), b, x, dtype), what
        # The same systems packed must give the same bits: the layout is only a view.
        packed = tdls.solve(np.ascontiguousarray(a, dtype=dtype), b)
        if what.startswith(("F-ordered", "transposed")):
            # column-major storage runs the mirror solve: same x, not always the same bits
            np.testing.assert_allclose(x, packed, rtol=1e-4 if dtype == np.float32 else 1e-10, err_msg=what)
        else:
            np.testing.assert_array_equal(x, packed, err_msg=what)
        cases += 1
    assert cases == 11


def test_non_contiguous_b(rng):
    a = random_matrices(rng, (6, 5, 5), np.float64)
    b = rng.standard_normal((6, 5, 8))[:, :, ::3]
    x = solve_checked(a, b)
    assert_solves(a, b, x, np.float64)


def test_dtype_promotion(rng):
    a = random_matrices(rng, (4, 3, 3), np.float32)
    b32 = rng.standard_normal((4, 3)).astype(np.float32)
    assert tdls.solve(a, b32).dtype == np.float32
    assert tdls.solve(a, b32.astype(np.float64)).dtype == np.float64  # NumPy's promotion
    ints = np.array([[2, 1], [1, 3]])
    x = tdls.solve(ints, np.array([3, 5]))
    assert x.dtype == np.float64
    np.testing.assert_allclose(x, np.linalg.solve(ints, np.array([3, 5])))
    assert tdls.solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0]).tolist() == [1.0, 0.5]  # lists too


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, object, "U3"])
def test_unsupported_dtypes(dtype):
    a = np.eye(3).astype(dtype)
    b = np.ones(3).astype(dtype)
    with pytest.raises(TypeError):
        tdls.solve(a, b)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 5, 16, 33, 64])
def test_complex_stacks(rng, n, dtype):
    """Complex systems (issue 18) against numpy.linalg.solve, both parts drawn;
    the solution keeps the dtype. Negative control: the system with its
    imaginary parts dropped is not what was solved."""
    a = random_matrices(rng, (11, n, n), dtype)
    b = random_matrices(rng, (11, n, 2), dtype)
    x = solve_checked(a, b)
    assert x.dtype == dtype
    assert_solves(a, b, x, dtype)
    assert np.max(backward_errors(a.real, b, x)) > 1e3 * np.finfo(dtype).eps


def test_empty_batches_and_order_zero():
    assert tdls.solve(np.zeros((0, 3, 3)), np.zeros((0, 3))).shape == (0, 3)
    assert tdls.solve(np.zeros((0, 3, 3)), np.zeros((0, 3, 2))).shape == (0, 3, 2)
    assert tdls.solve(np.zeros((2, 0, 0)), np.zeros((2, 0))).shape == (2, 0)
    x, info = tdls.solve(np.zeros((2, 0, 0)), np.zeros((2, 0, 3)), check=False)
    assert x.shape == (2, 0, 3) and info.tolist() == [0, 0]
    assert tdls.solve(np.eye(3), np.zeros((3, 0))).shape == (3, 0)


def test_n_above_the_largest_order():
    with pytest.raises(tdls.TdlsError) as error:
        tdls.solve(np.eye(tdls.MAX_ORDER + 1), np.ones(tdls.MAX_ORDER + 1))
    assert error.value.status_name == "TDLS_ERROR_NOT_SUPPORTED"
    assert str(tdls.MAX_ORDER) in str(error.value)


def test_largest_order(rng):
    n = tdls.MAX_ORDER
    a = random_matrices(rng, (n, n), np.float64)
    b = rng.standard_normal(n)
    x = solve_checked(a, b)
    assert float(backward_errors(a, b, x)) <= 8 * n * np.finfo(np.float64).eps


@pytest.mark.parametrize("a_shape, b_shape, error", [
    ((3,), (3,), np.linalg.LinAlgError),          # a not a matrix
    ((3, 4), (3,), np.linalg.LinAlgError),        # a not square
    ((2, 3, 4), (2, 3), np.linalg.LinAlgError),
    ((3, 3), (4,), ValueError),                   # b's rows
    ((3, 3), (4, 1), ValueError),
    ((2, 3, 3), (2, 4), ValueError),
    ((3, 3), (), ValueError),                     # a scalar b
])
def test_wrong_shapes(a_shape, b_shape, error):
    a = np.ones(a_shape)
    b = np.ones(b_shape)
    a_before, b_before = a.copy(), b.copy()
    with pytest.raises(error):
        tdls.solve(a, b)
    np.testing.assert_array_equal(a, a_before)
    np.testing.assert_array_equal(b, b_before)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ill_conditioned(rng, dtype):
    """Graded matrices with cond up to 1/eps: the backward error stays LU's."""
    n = 8
    u, _ = np.linalg.qr(rng.standard_normal((20, n, n)))
    v, _ = np.linalg.qr(rng.standard_normal((20, n, n)))
    exponents = np.linspace(0, -np.log10(np.finfo(dtype).eps) * 0.9, n)
    a = ((u * 10.0 ** -exponents[None, None, :]) @ v).astype(dtype)
    b = rng.standard_normal((20, n)).astype(dtype)
    x = solve_checked(a, b)
    worst = float(np.max(backward_errors(a, b, x)))
    assert worst <= 8 * n * np.finfo(dtype).eps
