! The Fortran module `tdls` against LAPACK's own sgesv / dgesv, called from
! Fortran: tdls_gesv (B(n,nrhs,batch) and B(n,batch)), tdls_getrf,
! tdls_getrs and tdls_solve on batches with singular systems, real(4) and
! real(8), and complex(8) / complex(4) against zgesv / cgesv; pivots and info equal LAPACK's, factors close, backward error of X
! within LAPACK's test ratio, B untouched for a singular system, getrf +
! getrs = gesv and solve = gesv bit for bit, solve's A unwritten. Then the enum values against the library's names, the bind(c)
! interfaces with a handle, and failures with `status`: a status, a message,
! no operand modified. Every check has a negative control; the program
! counts its cases and fails unless all ran and passed.
module checks
    use, intrinsic :: iso_c_binding
    implicit none
    integer :: passed = 0, failed = 0

    interface
        subroutine dgesv(n, nrhs, a, lda, ipiv, b, ldb, info)
            import :: c_int32_t, c_double
            integer(c_int32_t), intent(in) :: n, nrhs, lda, ldb
            real(c_double), intent(inout) :: a(lda, *), b(ldb, *)
            integer(c_int32_t), intent(out) :: ipiv(*), info
        end subroutine
        subroutine sgesv(n, nrhs, a, lda, ipiv, b, ldb, info)
            import :: c_int32_t, c_float
            integer(c_int32_t), intent(in) :: n, nrhs, lda, ldb
            real(c_float), intent(inout) :: a(lda, *), b(ldb, *)
            integer(c_int32_t), intent(out) :: ipiv(*), info
        end subroutine
        subroutine zgesv(n, nrhs, a, lda, ipiv, b, ldb, info)
            import :: c_int32_t, c_double_complex
            integer(c_int32_t), intent(in) :: n, nrhs, lda, ldb
            complex(c_double_complex), intent(inout) :: a(lda, *), b(ldb, *)
            integer(c_int32_t), intent(out) :: ipiv(*), info
        end subroutine
        subroutine cgesv(n, nrhs, a, lda, ipiv, b, ldb, info)
            import :: c_int32_t, c_float_complex
            integer(c_int32_t), intent(in) :: n, nrhs, lda, ldb
            complex(c_float_complex), intent(inout) :: a(lda, *), b(ldb, *)
            integer(c_int32_t), intent(out) :: ipiv(*), info
        end subroutine
    end interface

contains

    subroutine check(condition, what)
        logical, intent(in) :: condition
        character(len=*), intent(in) :: what
        if (condition) then
            passed = passed + 1
        else
            failed = failed + 1
            print '(a)', 'FAILED: '//what
        end if
    end subroutine

    !> LAPACK's test ratio ||b - A x|| / (||A|| ||x|| n eps), infinity norms.
    real(c_double) function backward_ratio(A, x, b, eps) result(ratio)
        real(c_double), intent(in) :: A(:, :), x(:), b(:), eps
        real(c_double) :: r(size(x)), anorm, xnorm
        integer :: i, n
        n = size(x)
        r = b - matmul(A, x)
        anorm = 0
        do i = 1, n
            anorm = max(anorm, sum(abs(A(i, :))))
        end do
        xnorm = maxval(abs(x))
        ratio = maxval(abs(r))/(anorm*xnorm*n*eps)
        if (ratio /= ratio) ratio = huge(ratio)
    end function

    !> The same ratio for a complex system (moduli in the norms).
    real(c_double) function backward_ratio_z(A, x, b, eps) result(ratio)
        complex(c_double_complex), intent(in) :: A(:, :), x(:), b(:)
        real(c_double), intent(in) :: eps
        complex(c_double_complex) :: r(size(x))
        real(c_double) :: anorm, xnorm
        integer :: i, n
        n = size(x)
        r = b - matmul(A, x)
        anorm = 0
        do i = 1, n
            anorm = max(anorm, sum(abs(A(i, :))))
        end do
        xnorm = maxval(abs(x))
        ratio = maxval(abs(r))/(anorm*xnorm*n*eps)
        if (ratio /= ratio) ratio = huge(ratio)
    end function

end module checks

program test_fortran
    use, intrinsic :: iso_c_binding
    use tdls
    use checks
    implicit none
    integer, parameter :: orders(7) = [1, 2, 3, 5, 8, 17, 40], kinds = 6, expected_systems = 7*(2*2 + 2)*kinds
    integer :: i, systems, singular, controls

    systems = 0
    singular = 0
    controls = 0
    call random_seed(put=[(7919*i + 17, i=1, 64)])
    do i = 1, size(orders)
        call check_double(orders(i), 1)
        call check_double(orders(i), 3)
        call check_single(orders(i), 1)
        call check_single(orders(i), 3)
        call check_complex8(orders(i), 2)
        call check_complex4(orders(i), 1)
    end do
    call check(systems == expected_systems, 'every system of every configuration was checked')
    call check(singular == expected_systems/3, 'a third of the systems were singular')
    call check_library()
    call check_failures()
    call check(controls == 90, 'every negative control ran')

    print '(a, i0, a, i0, a, i0, a)', 'test_fortran: ', passed, ' of ', passed + failed, ' checks passed (', &
        systems, ' systems against LAPACK)'
    if (failed /= 0 .or. passed /= 1493) error stop 1 ! the checks this program makes, all of them

contains

    !> The batch: kinds 1, 3, 4, 6 random (4 diagonally dominant), 2 a zero
    !> column n/2 + 1 (info n/2 + 1), 5 the zero matrix (info 1).
    subroutine make_batch(n, A)
        integer, intent(in) :: n
        real(c_double), intent(out) :: A(:, :, :)
        integer :: k
        call random_number(A)
        A = 2*A - 1
        do k = 1, n
            A(k, k, 4) = A(k, k, 4) + n
        end do
        A(:, n/2 + 1, 2) = 0
        A(:, :, 5) = 0
    end subroutine

    subroutine check_double(n, nrhs)
        integer, intent(in) :: n, nrhs
        real(c_double) :: A(n, n, kinds), B(n, nrhs, kinds), LU(n, n, kinds), X(n, nrhs, kinds)
        real(c_double) :: F(n, n, kinds), Y(n, nrhs, kinds), B1(n, kinds), G(n, n), W(n, nrhs)
        integer(c_int32_t) :: ipiv(n, kinds), ipiv1(n, kinds), ipivf(n, kinds), info(kinds), info1(kinds)
        integer(c_int32_t) :: lapack_ipiv(n), lapack_info, infof(kinds), first_ipiv(n), wrong_ipiv(n)
        real(c_double), parameter :: eps = epsilon(1.0_c_double)
        real(c_double) :: ratio, worst_factor
        character(len=64) :: where
        integer :: s, k
        integer(c_int) :: status

        write (where, '(a, i0, a, i0)') 'double n = ', n, ', nrhs = ', nrhs
        call make_batch(n, A)
        call random_number(B)
        LU = A
        X = B
        call tdls_gesv(LU, ipiv, X, info, status)
        call check(status == TDLS_SUCCESS, trim(where)//': tdls_gesv status')
        do s = 1, kinds
            G = A(:, :, s)
            W = B(:, :, s)
            call dgesv(n, nrhs, G, n, lapack_ipiv, W, n, lapack_info)
            call check(info(s) == lapack_info, trim(where)//': info equals LAPACK''s')
            call check(all(ipiv(:, s) == lapack_ipiv), trim(where)//': pivots equal LAPACK''s')
            if (s == 1) first_ipiv = lapack_ipiv
            worst_factor = maxval(abs(LU(:, :, s) - G))/(max(1.0_c_double, maxval(abs(G)))*n*eps)
            call check(worst_factor <= 64, trim(where)//': factors close to LAPACK''s')
            if (lapack_info > 0) then
                call check(all(X(:, :, s) == B(:, :, s)), trim(where)//': singular system keeps B')
                singular = singular + 1
            else
                do k = 1, nrhs
                    ratio = backward_ratio(A(:, :, s), X(:, k, s), B(:, k, s), eps)
                    call check(ratio <= 30, trim(where)//': backward error')
                end do
            end if
            systems = systems + 1
        end do
        ! Negative controls: a wrong answer fails the checks above.
        ratio = backward_ratio(A(:, :, 1), X(:, 1, 1) + 1000*n*n*eps*maxval(abs(X(:, 1, 1))), B(:, 1, 1), eps)
        call check(ratio > 30, trim(where)//': control: a perturbed solution fails the backward error')
        controls = controls + 1
        if (n >= 2) then
            wrong_ipiv = ipiv(:, 1)
            wrong_ipiv(1) = merge(1, n, wrong_ipiv(1) == n)
            call check(.not. all(wrong_ipiv == first_ipiv), trim(where)//': control: another valid pivot differs')
            controls = controls + 1
        end if

        ! One right-hand side as B(n, batch): the first column of the 3-D call.
        F = A
        B1 = B(:, 1, :)
        call tdls_gesv(F, ipiv1, B1, info1)
        call check(all(F == LU) .and. all(ipiv1 == ipiv) .and. all(info1 == info), trim(where)//': B(n,batch) factors')
        if (nrhs == 1) call check(all(B1 == X(:, 1, :)), trim(where)//': B(n,batch) solution')

        ! getrf + getrs: gesv's bits.
        F = A
        call tdls_getrf(F, ipivf, infof)
        call check(all(F == LU) .and. all(ipivf == ipiv) .and. all(infof == info), trim(where)//': getrf = gesv')
        Y = B
        call tdls_getrs(F, ipivf, Y)
        do s = 1, kinds
            if (info(s) == 0) call check(all(Y(:, :, s) == X(:, :, s)), trim(where)//': getrs = gesv')
        end do
        ! tdls_solve: gesv's X and info bit for bit (B kept where singular), A not written.
        F = A
        Y = B
        infof = -7
        call tdls_solve(F, Y, infof, status)
        call check(status == TDLS_SUCCESS, trim(where)//': tdls_solve status')
        call check(all(F == A), trim(where)//': tdls_solve leaves A as it was')
        call check(all(Y == X) .and. all(infof == info), trim(where)//': tdls_solve = gesv')
        B1 = B(:, 1, :)
        call tdls_solve(A, B1, info1)
        if (nrhs == 1) call check(all(B1 == X(:, 1, :)) .and. all(info1 == info), trim(where)//': B(n,batch) solve')
        F(1, 1, 1) = nearest(F(1, 1, 1), 1.0_c_double)
        call check(.not. all(F == LU), trim(where)//': control: a one-ulp change is seen')
        Y(1, 1, 1) = nearest(Y(1, 1, 1), 1.0_c_double)
        call check(.not. all(Y(:, :, 1) == X(:, :, 1)), trim(where)//': control: a changed solution is seen')
        controls = controls + 2
    end subroutine

    !> make_batch for complex: both parts random in [-1, 1], the same kinds.
    subroutine make_batch_z(n, A)
        integer, intent(in) :: n
        complex(c_double_complex), intent(out) :: A(:, :, :)
        real(c_double) :: re(size(A, 1), size(A, 2), size(A, 3)), im(size(A, 1), size(A, 2), size(A, 3))
        call make_batch(n, re)
        call random_number(im)
        im = 2*im - 1
        A = cmplx(re, im, c_double_complex)
        A(:, n/2 + 1, 2) = 0
        A(:, :, 5) = 0
    end subroutine

    !> complex(8): tdls_gesv against zgesv (info, pivots, factors, backward
    !> error, B kept where singular), getrf + getrs and solve = gesv bit for bit.
    subroutine check_complex8(n, nrhs)
        integer, intent(in) :: n, nrhs
        complex(c_double_complex) :: A(n, n, kinds), B(n, nrhs, kinds), LU(n, n, kinds), X(n, nrhs, kinds)
        complex(c_double_complex) :: F(n, n, kinds), Y(n, nrhs, kinds), G(n, n), W(n, nrhs)
        real(c_double) :: Bre(n, nrhs, kinds), Bim(n, nrhs, kinds)
        integer(c_int32_t) :: ipiv(n, kinds), ipivf(n, kinds), info(kinds), infof(kinds)
        integer(c_int32_t) :: lapack_ipiv(n), lapack_info
        real(c_double), parameter :: eps = epsilon(1.0_c_double)
        real(c_double) :: ratio, worst_factor
        character(len=64) :: where
        integer :: s, k
        integer(c_int) :: status

        write (where, '(a, i0, a, i0)') 'complex(8) n = ', n, ', nrhs = ', nrhs
        call make_batch_z(n, A)
        call random_number(Bre)
        call random_number(Bim)
        B = cmplx(Bre, Bim, c_double_complex)
        LU = A
        X = B
        call tdls_gesv(LU, ipiv, X, info, status)
        call check(status == TDLS_SUCCESS, trim(where)//': tdls_gesv status')
        do s = 1, kinds
            G = A(:, :, s)
            W = B(:, :, s)
            call zgesv(n, nrhs, G, n, lapack_ipiv, W, n, lapack_info)
            call check(info(s) == lapack_info, trim(where)//': info equals zgesv''s')
            call check(all(ipiv(:, s) == lapack_ipiv), trim(where)//': pivots equal zgesv''s')
            worst_factor = maxval(abs(LU(:, :, s) - G))/(max(1.0_c_double, maxval(abs(G)))*n*eps)
            call check(worst_factor <= 64, trim(where)//': factors close to zgesv''s')
            if (lapack_info > 0) then
                call check(all(X(:, :, s) == B(:, :, s)), trim(where)//': singular system keeps B')
                singular = singular + 1
            else
                do k = 1, nrhs
                    ratio = backward_ratio_z(A(:, :, s), X(:, k, s), B(:, k, s), eps)
                    call check(ratio <= 30, trim(where)//': backward error')
                end do
            end if
            systems = systems + 1
        end do
        ! Negative control: a solution with its imaginary parts dropped fails.
        ratio = backward_ratio_z(A(:, :, 1), cmplx(real(X(:, 1, 1)), 0, c_double_complex), B(:, 1, 1), eps)
        call check(ratio > 30, trim(where)//': control: the real part alone fails the backward error')
        controls = controls + 1

        F = A
        call tdls_getrf(F, ipivf, infof)
        call check(all(F == LU) .and. all(ipivf == ipiv) .and. all(infof == info), trim(where)//': getrf = gesv')
        Y = B
        call tdls_getrs(F, ipivf, Y)
        do s = 1, kinds
            if (info(s) == 0) call check(all(Y(:, :, s) == X(:, :, s)), trim(where)//': getrs = gesv')
        end do
        F = A
        Y = B
        infof = -7
        call tdls_solve(F, Y, infof, status)
        call check(status == TDLS_SUCCESS .and. all(F == A), trim(where)//': tdls_solve leaves A as it was')
        call check(all(Y == X) .and. all(infof == info), trim(where)//': tdls_solve = gesv')
    end subroutine

    !> complex(4), one right-hand side as B(n, batch): against cgesv.
    subroutine check_complex4(n, nrhs)
        integer, intent(in) :: n, nrhs
        complex(c_double_complex) :: A8(n, n, kinds)
        complex(c_float_complex) :: A(n, n, kinds), B(n, kinds), LU(n, n, kinds), X(n, kinds), G(n, n), W(n, 1)
        real(c_float) :: Bre(n, kinds), Bim(n, kinds)
        integer(c_int32_t) :: ipiv(n, kinds), info(kinds), lapack_ipiv(n), lapack_info
        real(c_double), parameter :: eps = epsilon(1.0_c_float)
        real(c_double) :: ratio
        character(len=64) :: where
        integer :: s
        integer(c_int) :: status

        write (where, '(a, i0, a, i0)') 'complex(4) n = ', n, ', nrhs = ', nrhs
        call make_batch_z(n, A8)
        A = cmplx(A8, kind=c_float_complex)
        call random_number(Bre)
        call random_number(Bim)
        B = cmplx(Bre, Bim, c_float_complex)
        LU = A
        X = B
        call tdls_gesv(LU, ipiv, X, info, status)
        call check(status == TDLS_SUCCESS, trim(where)//': tdls_gesv status')
        do s = 1, kinds
            G = A(:, :, s)
            W(:, 1) = B(:, s)
            call cgesv(n, 1, G, n, lapack_ipiv, W, n, lapack_info)
            call check(info(s) == lapack_info .and. all(ipiv(:, s) == lapack_ipiv), &
                       trim(where)//': info and pivots equal cgesv''s')
            if (lapack_info > 0) then
                call check(all(X(:, s) == B(:, s)), trim(where)//': singular system keeps B')
                singular = singular + 1
            else
                ratio = backward_ratio_z(cmplx(A(:, :, s), kind=c_double_complex), &
                                         cmplx(X(:, s), kind=c_double_complex), cmplx(B(:, s), kind=c_double_complex), eps)
                call check(ratio <= 30, trim(where)//': backward error')
            end if
            systems = systems + 1
        end do
        if (nrhs /= 1) error stop 'check_complex4 takes one right-hand side'
    end subroutine

    subroutine check_single(n, nrhs)
        integer, intent(in) :: n, nrhs
        real(c_double) :: A8(n, n, kinds)
        real(c_float) :: A(n, n, kinds), B(n, nrhs, kinds), LU(n, n, kinds), X(n, nrhs, kinds)
        real(c_float) :: F(n, n, kinds), Y(n, nrhs, kinds), G(n, n), W(n, nrhs)
        integer(c_int32_t) :: ipiv(n, kinds), ipivf(n, kinds), info(kinds), infof(kinds)
        integer(c_int32_t) :: lapack_ipiv(n), lapack_info
        real(c_double), parameter :: eps = epsilon(1.0_c_float)
        real(c_double) :: ratio, worst_factor
        character(len=64) :: where
        integer :: s, k

        write (where, '(a, i0, a, i0)') 'single n = ', n, ', nrhs = ', nrhs
        call make_batch(n, A8)
        A = real(A8, c_float)
        call random_number(B)
        LU = A
        X = B
        call tdls_gesv(LU, ipiv, X, info) ! no status: a failure would stop the program
        do s = 1, kinds
            G = A(:, :, s)
            W = B(:, :, s)
            call sgesv(n, nrhs, G, n, lapack_ipiv, W, n, lapack_info)
            call check(info(s) == lapack_info, trim(where)//': info equals LAPACK''s')
            call check(all(ipiv(:, s) == lapack_ipiv), trim(where)//': pivots equal LAPACK''s')
            worst_factor = maxval(abs(real(LU(:, :, s) - G, c_double)))/(max(1.0_c_double, &
                           real(maxval(abs(G)), c_double))*n*eps)
            call check(worst_factor <= 64, trim(where)//': factors close to LAPACK''s')
            if (lapack_info > 0) then
                call check(all(X(:, :, s) == B(:, :, s)), trim(where)//': singular system keeps B')
                singular = singular + 1
            else
                do k = 1, nrhs
                    ratio = backward_ratio(real(A(:, :, s), c_double), real(X(:, k, s), c_double), &
                                           real(B(:, k, s), c_double), eps)
                    call check(ratio <= 30, trim(where)//': backward error')
                end do
            end if
            systems = systems + 1
        end do
        ratio = backward_ratio(real(A(:, :, 1), c_double), real(X(:, 1, 1), c_double) + &
                               1000*n*n*eps*maxval(abs(X(:, 1, 1))), real(B(:, 1, 1), c_double), eps)
        call check(ratio > 30, trim(where)//': control: a perturbed solution fails the backward error')
        controls = controls + 1

        F = A
        call tdls_getrf(F, ipivf, infof)
        call check(all(F == LU) .and. all(ipivf == ipiv) .and. all(infof == info), trim(where)//': getrf = gesv')
        Y = B
        call tdls_getrs(F, ipivf, Y)
        do s = 1, kinds
            if (info(s) == 0) call check(all(Y(:, :, s) == X(:, :, s)), trim(where)//': getrs = gesv')
        end do
        F = A
        Y = B
        infof = -7
        call tdls_solve(F, Y, infof)
        call check(all(F == A), trim(where)//': tdls_solve leaves A as it was')
        call check(all(Y == X) .and. all(infof == info), trim(where)//': tdls_solve = gesv')
        Y(1, 1, 1) = nearest(Y(1, 1, 1), 1.0_c_float)
        call check(.not. all(Y(:, :, 1) == X(:, :, 1)), trim(where)//': control: a changed solution is seen')
        controls = controls + 1
    end subroutine

    !> The enum values and bind(c) interfaces against the library itself.
    subroutine check_library()
        integer(c_int) :: major, minor, patch, backend
        type(c_ptr) :: handle
        real(c_double), target :: A(2, 2), B(2)
        integer(c_int32_t), target :: ipiv(2), info(1)
        call tdls_get_version(major, minor, patch)
        call check(major == 0 .and. minor >= 1, 'tdls_get_version')
        call check(tdls_string(tdls_status_name(TDLS_ERROR_INVALID_VALUE)) == 'TDLS_ERROR_INVALID_VALUE', &
                   'TDLS_ERROR_INVALID_VALUE names itself')
        call check(tdls_string(tdls_status_name(TDLS_ERROR_BACKEND_UNAVAILABLE)) == &
                   'TDLS_ERROR_BACKEND_UNAVAILABLE', 'TDLS_ERROR_BACKEND_UNAVAILABLE names itself')
        call check(tdls_string(tdls_status_name(TDLS_SUCCESS)) == 'TDLS_SUCCESS', 'TDLS_SUCCESS names itself')
        call check(tdls_string(tdls_status_name(TDLS_ERROR_INTERNAL)) == 'TDLS_ERROR_INTERNAL', &
                   'TDLS_ERROR_INTERNAL names itself')
        call check(tdls_backend_available(TDLS_BACKEND_CPU) == 1, 'CPU backend available')
        handle = c_null_ptr
        call check(tdls_create(handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS, 'tdls_create')
        call check(tdls_get_backend(handle, backend) == TDLS_SUCCESS .and. backend == TDLS_BACKEND_CPU, &
                   'tdls_get_backend answers TDLS_BACKEND_CPU')
        call check(tdls_set_num_threads(handle, 1) == TDLS_SUCCESS, 'tdls_set_num_threads')
        call check(tdls_set_pivot_threshold(handle, 1.0_c_double) == TDLS_SUCCESS, 'tdls_set_pivot_threshold')
        ! Row-major through the raw interface: A = [1 2; 3 4] row by row, x = (1, 1).
        A = reshape([1, 2, 3, 4], [2, 2])
        B = [3, 7]
        call check(tdls_batched_gesv(handle, TDLS_FLOAT64, TDLS_ROW_MAJOR, 2_c_int64_t, 1_c_int64_t, c_loc(A), &
                                     2_c_int64_t, 4_c_int64_t, c_loc(ipiv), 2_c_int64_t, c_loc(B), 1_c_int64_t, &
                                     2_c_int64_t, c_loc(info), 1_c_int64_t) == TDLS_SUCCESS, 'raw tdls_batched_gesv')
        call check(info(1) == 0 .and. all(abs(B - 1) < 1e-14_c_double), 'raw row-major solve gives x = (1, 1)')
        call check(tdls_destroy(handle) == TDLS_SUCCESS, 'tdls_destroy')
        call check(tdls_destroy(handle) == TDLS_ERROR_INVALID_HANDLE, 'a destroyed handle is invalid')
    end subroutine

    !> Failures with status: a status, a message, nothing modified.
    subroutine check_failures()
        real(c_double) :: A(3, 3, 2), B(3, 2, 2), A0(3, 3, 2), B0(3, 2, 2), B2(2, 2, 2)
        real(c_double), allocatable :: big(:, :, :), bigb(:, :)
        integer(c_int32_t) :: ipiv(3, 2), info(2), short_ipiv(2, 2), bigp(1025, 1), biginfo(1)
        integer(c_int) :: status
        call random_number(A)
        call random_number(B)
        A0 = A
        B0 = B
        ipiv = -7
        info = -9
        call tdls_gesv(A, short_ipiv, B, info, status)
        call check(status == TDLS_ERROR_INVALID_VALUE, 'ipiv of the wrong shape: INVALID_VALUE')
        call check(all(A == A0) .and. all(B == B0) .and. all(info == -9), 'ipiv of the wrong shape: nothing modified')
        B2 = 5
        call tdls_gesv(A, ipiv, B2, info, status)
        call check(status == TDLS_ERROR_INVALID_VALUE .and. all(A == A0) .and. all(B2 == 5), &
                   'B with 2 rows for n = 3: INVALID_VALUE, nothing modified')
        call tdls_gesv(A, ipiv, B, info(1:1), status)
        call check(status == TDLS_ERROR_INVALID_VALUE .and. all(A == A0) .and. all(ipiv == -7), &
                   'info too short: INVALID_VALUE, nothing modified')
        allocate (big(1025, 1025, 1), bigb(1025, 1))
        big = 0
        bigb = 1
        call tdls_gesv(big, bigp, bigb, biginfo, status)
        call check(status == TDLS_ERROR_NOT_SUPPORTED, 'n = 1025: NOT_SUPPORTED')
        call check(index(tdls_error_message(), '1024') > 0, 'n = 1025: the message names the limit')
        call check(all(bigb == 1), 'n = 1025: B not modified')
        ! Control: a valid call with status succeeds and modifies A.
        call tdls_gesv(A, ipiv, B, info, status)
        call check(status == TDLS_SUCCESS .and. .not. all(A == A0), 'control: a valid call succeeds and writes')
        controls = controls + 1
    end subroutine

end program test_fortran
