! A Fortran program outside the build tree: `use tdls` from the installed
! module, linked through find_package(tdls) -> tdls::fortran.
program consumer
    use, intrinsic :: iso_c_binding, only: c_double, c_int, c_int32_t
    use tdls
    implicit none
    ! [2 1; 1 3] and [0 1; 1 0], column-major; right-hand sides for x = (1, 2).
    real(c_double) :: A(2, 2, 2) = reshape([2, 1, 1, 3, 0, 1, 1, 0], [2, 2, 2])
    real(c_double) :: B(2, 2) = reshape([4, 7, 2, 1], [2, 2])
    integer(c_int32_t) :: ipiv(2, 2), info(2)
    integer(c_int) :: status
    call tdls_gesv(A, ipiv, B, info, status)
    if (status /= TDLS_SUCCESS) error stop 'consumer.f90: '//tdls_error_message()
    if (any(info /= 0) .or. any(abs(B(1, :) - 1) > 1e-14_c_double) .or. any(abs(B(2, :) - 2) > 1e-14_c_double)) &
        error stop 'consumer.f90: wrong solution'
    print '(a)', 'consumer.f90: solved 2 systems through the module tdls'
end program consumer
