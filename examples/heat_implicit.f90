! Example (Fortran): implicit time stepping of many small heat equations with
! the module `tdls`. Each of `batch` rods at n interior points obeys
! y' = J y, J = kappa_s / dx^2 * tridiag(1, -2, 1). Backward Euler,
! (I - h J) y_{k+1} = y_k, factors the step matrix once (tdls_getrf) and
! solves every step (tdls_getrs on y(n, batch)).
!
! Check: from J's first eigenvector v, the discrete solution is exactly
! (1 - h lambda)^-steps v; the program stops with an error when any rod
! differs by more than a small multiple of the rounding error.
program heat_implicit
    use, intrinsic :: iso_c_binding, only: c_double, c_int32_t
    use tdls, only: tdls_getrf, tdls_getrs
    implicit none
    integer, parameter :: n = 12, batch = 1000, steps = 50
    real(c_double), parameter :: pi = acos(-1.0_c_double), dx = 1.0_c_double/(n + 1), h = 1e-3_c_double
    real(c_double), allocatable :: A(:, :, :), y(:, :)
    integer(c_int32_t), allocatable :: ipiv(:, :), info(:)
    real(c_double) :: kappa, c, lambda, decay, worst
    integer :: s, i, k

    allocate (A(n, n, batch), y(n, batch), ipiv(n, batch), info(batch))
    A = 0
    do s = 1, batch
        kappa = 0.1_c_double + 10.0_c_double*(s - 1)/batch
        c = h*kappa/dx**2
        do i = 1, n
            A(i, i, s) = 1 + 2*c
            if (i > 1) A(i, i - 1, s) = -c
            if (i < n) A(i, i + 1, s) = -c
            y(i, s) = sin(pi*i*dx)
        end do
    end do

    call tdls_getrf(A, ipiv, info) ! no status: a failure stops with libtdls' message
    if (any(info /= 0)) error stop 'heat_implicit: I - hJ singular'
    do k = 1, steps
        call tdls_getrs(A, ipiv, y)
    end do

    worst = 0
    do s = 1, batch
        kappa = 0.1_c_double + 10.0_c_double*(s - 1)/batch
        lambda = -4*kappa/dx**2*sin(pi*dx/2)**2
        decay = (1 - h*lambda)**(-steps)
        do i = 1, n
            worst = max(worst, abs(y(i, s) - decay*sin(pi*i*dx))/decay)
        end do
    end do
    print '(a, i0, a, i0, a, i0, a, es9.2)', 'heat_implicit (Fortran): ', batch, ' rods, n = ', n, ', ', steps, &
        ' steps: max relative error ', worst
    if (.not. (worst <= 1e-12_c_double)) error stop 'heat_implicit: error above 1e-12'
    ! A main program's allocatables live to the end; released here so that a
    ! leak checker sees a clean exit.
    deallocate (A, y, ipiv, info)
end program heat_implicit
