"""Singular systems: SingularMatrixError with the systems and LAPACK's info,
or the info array with check=False; x keeps b for a singular system."""
import numpy as np
import pytest
import scipy.linalg

import tdls
from oracle import assert_solves, random_matrices


def lapack_info(matrix):
    """dgetrf's info for the factorization tdls runs on this memory: of the
    matrix when it is F-ordered, of its transpose when C-ordered (the C ABI's
    row-major mirror solve). Either is nonzero exactly when the matrix is singular."""
    factored = matrix if matrix.flags.f_contiguous and not matrix.flags.c_contiguous else matrix.T
    return scipy.linalg.lapack.dgetrf(factored.astype(np.float64))[2]


def singular_stack(rng, dtype):
    """(a, info of a's LU): systems 1, 4 and 6 singular in column 3, 1 and n."""
    n = 5
    a = random_matrices(rng, (8, n, n), dtype)
    a[1][:, 2] = 0                      # U(3,3) = 0 after two columns
    a[4][:, 0] = 0                      # first column zero
    a[6][:, n - 1] = 0                  # zero last column
    info = np.zeros(8, dtype=np.int32)
    info[1], info[4], info[6] = 3, 1, n
    return a, info


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_singular_raises_with_indices_and_info(rng, dtype):
    a, info = singular_stack(rng, dtype)
    b = rng.standard_normal((8, 5)).astype(dtype)
    with pytest.raises(tdls.SingularMatrixError) as error:
        tdls.solve(a, b)
    assert isinstance(error.value, np.linalg.LinAlgError)  # numpy.linalg's exception type
    singular = np.nonzero(info)[0]
    assert error.value.indices[0].tolist() == singular.tolist()
    assert error.value.info.tolist() == [lapack_info(a[s]) for s in singular]
    # F-ordered matrices are factored as they are: LAPACK's info of a itself.
    with pytest.raises(tdls.SingularMatrixError) as error:
        tdls.solve(np.asfortranarray(a.transpose(1, 2, 0)).transpose(2, 0, 1), b)
    assert error.value.info.tolist() == info[singular].tolist()
    assert error.value.batch_shape == (8,)
    assert "Singular matrix" in str(error.value)


def test_check_false_returns_info(rng):
    a, info = singular_stack(rng, np.float64)
    b = rng.standard_normal((8, 5, 2))
    x, got = tdls.solve(a, b, check=False)
    assert got.dtype == np.int32 and got.shape == (8,)
    assert np.array_equal(got > 0, info > 0)
    for s in range(8):
        assert got[s] == lapack_info(a[s])
    regular = info == 0
    assert_solves(a[regular], b[regular], x[regular], np.float64)
    np.testing.assert_array_equal(x[~regular], b[~regular])  # B left as it was


def test_info_takes_the_batch_shape(rng):
    a = random_matrices(rng, (2, 3, 4, 4), np.float64)
    a[1, 2] = 0
    _, info = tdls.solve(a, np.ones((2, 3, 4)), check=False)
    assert info.shape == (2, 3) and info[1, 2] == 1 and info.sum() == 1
    with pytest.raises(tdls.SingularMatrixError) as error:
        tdls.solve(a, np.ones((2, 3, 4)))
    assert [int(i[0]) for i in error.value.indices] == [1, 2]


def test_nan_and_inf_are_not_singular(rng):
    """NaN or Inf entries are not a singular verdict (LAPACK's info is 0 too);
    a NaN spreads into x, as in numpy.linalg.solve; the other systems are unharmed."""
    a = random_matrices(rng, (3, 4, 4), np.float64)
    a[0, 1, 1] = np.nan
    a[1, 2, 3] = np.inf
    x = tdls.solve(a, np.ones((3, 4)))  # check=True: no exception
    _, info = tdls.solve(a, np.ones((3, 4)), check=False)
    assert info.tolist() == [lapack_info(m) for m in a] == [0, 0, 0]
    assert np.isnan(x[0]).all()
    assert_solves(a[2:], np.ones((1, 4)), x[2:], np.float64)
