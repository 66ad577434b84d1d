"""tdls.lu_factor / tdls.lu_solve against scipy.linalg.lu_factor / lu_solve."""
import numpy as np
import pytest
import scipy.linalg

import tdls
from oracle import assert_solves, random_matrices

ORDERS = [1, 2, 3, 5, 8, 16, 17, 31, 64, 65, 96]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", ORDERS)
def test_lu_factor_is_lapacks(rng, n, dtype):
    a = random_matrices(rng, (6, n, n), dtype)
    before = a.copy()
    lu, piv = tdls.lu_factor(a)
    np.testing.assert_array_equal(a, before)
    assert lu.shape == a.shape and piv.shape == (6, n) and piv.dtype == np.int32 and lu.dtype == dtype
    eps = np.finfo(dtype).eps
    for s in range(6):
        lu_ref, piv_ref = scipy.linalg.lu_factor(a[s])
        np.testing.assert_array_equal(piv[s], piv_ref)  # LAPACK's pivots at tau = 1, 0-based
        assert np.max(np.abs(lu[s] - lu_ref)) <= 64 * n * eps * max(1.0, np.max(np.abs(lu_ref)))


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("n", [1, 4, 9, 33, 70])
def test_lu_solve_matches_scipy(rng, n, trans):
    a = random_matrices(rng, (5, n, n), np.float64)
    b = rng.standard_normal((5, n, 3))
    factors = tdls.lu_factor(a)
    lu_before, piv_before, b_before = factors[0].copy(), factors[1].copy(), b.copy()
    x = tdls.lu_solve(factors, b, trans=trans)
    np.testing.assert_array_equal(factors[0], lu_before)
    np.testing.assert_array_equal(factors[1], piv_before)
    np.testing.assert_array_equal(b, b_before)
    operator = a if trans == 0 else np.swapaxes(a, -1, -2)
    assert_solves(operator, b, x, np.float64)
    for s in range(5):
        expected = scipy.linalg.lu_solve(scipy.linalg.lu_factor(a[s]), b[s], trans=trans)
        np.testing.assert_allclose(x[s], expected, rtol=1e-9, atol=1e-11)


def test_factor_once_solve_many(rng):
    """scipy's factors work too; one factorization serves broadcast right-hand sides."""
    a = random_matrices(rng, (6, 6), np.float64)
    lu, piv = scipy.linalg.lu_factor(a)
    b = rng.standard_normal((40, 6))  # forty vectors against one factorization
    x = tdls.lu_solve((lu, piv), b[..., None])[..., 0]
    np.testing.assert_allclose(x, np.linalg.solve(a, b.T).T, rtol=1e-10)
    lu_c = np.ascontiguousarray(lu)  # C-ordered factors are read through a copy
    np.testing.assert_array_equal(tdls.lu_solve((lu_c, piv), b[0]), tdls.lu_solve((lu, piv), b[0]))
    piv64 = piv.astype(np.int64)
    np.testing.assert_array_equal(tdls.lu_solve((lu, piv64), b[0]), tdls.lu_solve((lu, piv), b[0]))


def test_lu_solve_refuses_bad_pivots(rng):
    a = random_matrices(rng, (3, 4, 4), np.float64)
    lu, piv = tdls.lu_factor(a)
    b = rng.standard_normal((3, 4))
    for bad in (4, -1, 2**31, 2**40):
        wrong = piv.astype(np.int64)
        wrong[1, 2] = bad
        before = b.copy()
        with pytest.raises(ValueError) as error:
            tdls.lu_solve((lu, wrong), b)
        assert "outside" in str(error.value)
        np.testing.assert_array_equal(b, before)
    with pytest.raises(ValueError):
        tdls.lu_solve((lu, piv[:, :3]), b)
    with pytest.raises(TypeError):
        tdls.lu_solve((lu, piv.astype(np.float64)), b)
    with pytest.raises(ValueError):
        tdls.lu_solve((lu, piv), b, trans=3)


def test_lu_factor_singular(rng):
    a = random_matrices(rng, (4, 3, 3), np.float64)
    a[2][:, 1] = 0
    with pytest.raises(tdls.SingularMatrixError) as error:
        tdls.lu_factor(a)
    assert error.value.indices[0].tolist() == [2] and error.value.info.tolist() == [2]
    lu, piv, info = tdls.lu_factor(a, check=False)
    assert info.tolist() == [0, 0, 2, 0]
    with pytest.warns(scipy.linalg.LinAlgWarning):
        lu_ref, piv_ref = scipy.linalg.lu_factor(a[2])
    np.testing.assert_array_equal(piv[2], piv_ref)


def test_pivot_threshold_changes_the_pivots(rng):
    """tau < 1 keeps the diagonal pivot when it is large enough: pivots differ
    from LAPACK's (the negative control of the pivot comparison), x still solves."""
    a = random_matrices(rng, (50, 6, 6), np.float64)
    lapack = tdls.lu_factor(a)[1]
    with tdls.Handle(pivot_threshold=0.1):
        _, relaxed = tdls.lu_factor(a)
        x = tdls.solve(a, np.ones((50, 6)))
    assert not np.array_equal(relaxed, lapack)
    assert_solves(a, np.ones((50, 6)), x, np.float64)


def test_empty(rng):
    lu, piv = tdls.lu_factor(np.zeros((0, 3, 3)))
    assert lu.shape == (0, 3, 3) and piv.shape == (0, 3)
    assert tdls.lu_solve((lu, piv), np.zeros((0, 3))).shape == (0, 3)
