! The Fortran interface of libtdls (`use tdls`): bind(c) interfaces to every
! function of tdls/tdls.h with its enum values, and the generic conveniences
! tdls_gesv, tdls_solve, tdls_getrf and tdls_getrs on contiguous real(4),
! real(8), complex(4) and complex(8) arrays, column-major, through the
! default context (CPU for host arrays).
!
!   call tdls_gesv(A, ipiv, B, info [, status])   A(n,n,batch), B(n,nrhs,batch) or B(n,batch),
!                                                 ipiv(n,batch), info(batch)
!   call tdls_solve(A, B, info [, status])        gesv's B and info; A intent(in), not written
!   call tdls_getrf(A, ipiv, info [, status])     factors only
!   call tdls_getrs(A, ipiv, B [, status])        solves from the factors of tdls_getrf (or LAPACK)
!
! Results are LAPACK's ?gesv / ?getrf / ?getrs: LU factors in A, 1-based
! pivots, info(s) = 0 or the first singular column (B(:,:,s) is then left as
! it was). A singular system is not a failure: status stays TDLS_SUCCESS.
! A failure (inconsistent shapes, or a status of libtdls) modifies nothing;
! with `status` present it is returned there (tdls_error_message() has
! libtdls' detail); without it the program stops with `error stop` and the
! message, because a silent failure would leave results that were never
! computed.
!
! Copyright (c) 2026, the libtdls developers. BSD 3-Clause License.
module tdls
    use, intrinsic :: iso_c_binding
    implicit none
    private

    ! ---- enum values of tdls.h (fixed by the contract) ----------------------
    integer(c_int), parameter, public :: TDLS_SUCCESS = 0, TDLS_ERROR_INVALID_HANDLE = 1, &
        TDLS_ERROR_INVALID_VALUE = 2, TDLS_ERROR_NOT_SUPPORTED = 3, TDLS_ERROR_BACKEND_UNAVAILABLE = 4, &
        TDLS_ERROR_ALLOCATION = 5, TDLS_ERROR_EXECUTION = 6, TDLS_ERROR_INTERNAL = 7
    integer(c_int), parameter, public :: TDLS_FLOAT32 = 0, TDLS_FLOAT64 = 1, TDLS_COMPLEX64 = 2, &
        TDLS_COMPLEX128 = 3
    integer(c_int), parameter, public :: TDLS_COL_MAJOR = 0, TDLS_ROW_MAJOR = 1
    integer(c_int), parameter, public :: TDLS_BACKEND_AUTO = 0, TDLS_BACKEND_CPU = 1, TDLS_BACKEND_CUDA = 2, &
        TDLS_BACKEND_HIP = 3
    integer(c_int), parameter, public :: TDLS_MAX_ORDER = 1024

    public :: tdls_get_version, tdls_backend_available, tdls_status_name, tdls_status_string, tdls_last_error
    public :: tdls_create, tdls_destroy, tdls_set_stream, tdls_get_backend, tdls_set_pivot_threshold
    public :: tdls_set_num_threads
    public :: tdls_batched_gesv, tdls_batched_gesv_ptr, tdls_batched_gesv_interleaved
    public :: tdls_batched_solve, tdls_batched_solve_ptr, tdls_batched_solve_interleaved
    public :: tdls_batched_getrf, tdls_batched_getrs, tdls_batched_getrf_ptr, tdls_batched_getrs_ptr
    public :: tdls_gesv, tdls_solve, tdls_getrf, tdls_getrs, tdls_error_message, tdls_string

    ! ---- the C ABI: pointers are type(c_ptr) by value (c_loc(array) or c_null_ptr),
    ! enums integer(c_int), int64_t integer(c_int64_t) ------------------------
    interface
        subroutine tdls_get_version(major, minor, patch) bind(c, name='tdls_get_version')
            import :: c_int
            integer(c_int), intent(out) :: major, minor, patch
        end subroutine
        integer(c_int) function tdls_backend_available(backend) bind(c, name='tdls_backend_available')
            import :: c_int
            integer(c_int), value :: backend
        end function
        type(c_ptr) function tdls_status_name(s) bind(c, name='tdls_status_name')
            import :: c_int, c_ptr
            integer(c_int), value :: s
        end function
        type(c_ptr) function tdls_status_string(s) bind(c, name='tdls_status_string')
            import :: c_int, c_ptr
            integer(c_int), value :: s
        end function
        type(c_ptr) function tdls_last_error() bind(c, name='tdls_last_error')
            import :: c_ptr
        end function
        integer(c_int) function tdls_create(handle, backend, device) bind(c, name='tdls_create')
            import :: c_int, c_ptr
            type(c_ptr), intent(inout) :: handle
            integer(c_int), value :: backend, device
        end function
        integer(c_int) function tdls_destroy(handle) bind(c, name='tdls_destroy')
            import :: c_int, c_ptr
            type(c_ptr), value :: handle
        end function
        integer(c_int) function tdls_set_stream(handle, stream) bind(c, name='tdls_set_stream')
            import :: c_int, c_ptr
            type(c_ptr), value :: handle, stream
        end function
        integer(c_int) function tdls_get_backend(handle, backend) bind(c, name='tdls_get_backend')
            import :: c_int, c_ptr
            type(c_ptr), value :: handle
            integer(c_int), intent(inout) :: backend
        end function
        integer(c_int) function tdls_set_pivot_threshold(handle, tau) bind(c, name='tdls_set_pivot_threshold')
            import :: c_int, c_ptr, c_double
            type(c_ptr), value :: handle
            real(c_double), value :: tau
        end function
        integer(c_int) function tdls_set_num_threads(handle, threads) bind(c, name='tdls_set_num_threads')
            import :: c_int, c_ptr
            type(c_ptr), value :: handle
            integer(c_int), value :: threads
        end function
        integer(c_int) function tdls_batched_gesv(handle, dtype, layout, n, nrhs, A, lda, strideA, ipiv, &
                                                  strideIpiv, B, ldb, strideB, info, batch) &
            bind(c, name='tdls_batched_gesv')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, ipiv, B, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, strideA, strideIpiv, ldb, strideB, batch
        end function
        integer(c_int) function tdls_batched_gesv_ptr(handle, dtype, layout, n, nrhs, A_array, lda, &
                                                      ipiv_array, B_array, ldb, info, batch) &
            bind(c, name='tdls_batched_gesv_ptr')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A_array, ipiv_array, B_array, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
        end function
        integer(c_int) function tdls_batched_gesv_interleaved(handle, dtype, layout, n, nrhs, A, ipiv, B, &
                                                              info, batch, block) &
            bind(c, name='tdls_batched_gesv_interleaved')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, ipiv, B, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, batch, block
        end function
        integer(c_int) function tdls_batched_solve(handle, dtype, layout, n, nrhs, A, lda, strideA, B, ldb, &
                                                   strideB, info, batch) bind(c, name='tdls_batched_solve')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, B, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
        end function
        integer(c_int) function tdls_batched_solve_ptr(handle, dtype, layout, n, nrhs, A_array, lda, &
                                                       B_array, ldb, info, batch) &
            bind(c, name='tdls_batched_solve_ptr')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A_array, B_array, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
        end function
        integer(c_int) function tdls_batched_solve_interleaved(handle, dtype, layout, n, nrhs, A, B, info, &
                                                               batch, block) &
            bind(c, name='tdls_batched_solve_interleaved')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, B, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, batch, block
        end function
        integer(c_int) function tdls_batched_getrf(handle, dtype, layout, n, A, lda, strideA, ipiv, &
                                                   strideIpiv, info, batch) bind(c, name='tdls_batched_getrf')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, ipiv, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, lda, strideA, strideIpiv, batch
        end function
        integer(c_int) function tdls_batched_getrs(handle, dtype, layout, n, nrhs, A, lda, strideA, ipiv, &
                                                   strideIpiv, B, ldb, strideB, batch) &
            bind(c, name='tdls_batched_getrs')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A, ipiv, B
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, strideA, strideIpiv, ldb, strideB, batch
        end function
        integer(c_int) function tdls_batched_getrf_ptr(handle, dtype, layout, n, A_array, lda, ipiv_array, &
                                                       info, batch) bind(c, name='tdls_batched_getrf_ptr')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A_array, ipiv_array, info
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, lda, batch
        end function
        integer(c_int) function tdls_batched_getrs_ptr(handle, dtype, layout, n, nrhs, A_array, lda, &
                                                       ipiv_array, B_array, ldb, batch) &
            bind(c, name='tdls_batched_getrs_ptr')
            import :: c_int, c_int64_t, c_ptr
            type(c_ptr), value :: handle, A_array, ipiv_array, B_array
            integer(c_int), value :: dtype, layout
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
        end function
        integer(c_size_t) function c_strlen(s) bind(c, name='strlen')
            import :: c_ptr, c_size_t
            type(c_ptr), value :: s
        end function
    end interface

    ! ---- generic conveniences ------------------------------------------------
    interface tdls_gesv
        module procedure gesv_r4, gesv_r8, gesv_r4_1rhs, gesv_r8_1rhs, gesv_c4, gesv_c8, gesv_c4_1rhs, gesv_c8_1rhs
    end interface
    interface tdls_solve
        module procedure solve_r4, solve_r8, solve_r4_1rhs, solve_r8_1rhs, solve_c4, solve_c8, solve_c4_1rhs, &
            solve_c8_1rhs
    end interface
    interface tdls_getrf
        module procedure getrf_r4, getrf_r8, getrf_c4, getrf_c8
    end interface
    interface tdls_getrs
        module procedure getrs_r4, getrs_r8, getrs_r4_1rhs, getrs_r8_1rhs, getrs_c4, getrs_c8, getrs_c4_1rhs, &
            getrs_c8_1rhs
    end interface

    integer, parameter :: op_gesv = 1, op_getrf = 2, op_getrs = 3, op_solve = 4
    !> The ipiv shape tdls_solve hands run(): it has no pivots.
    integer(c_int64_t), parameter :: no_pivots(2) = [0_c_int64_t, 0_c_int64_t]

contains

    !> A C string of libtdls (status names, messages) as a Fortran string.
    function tdls_string(text) result(string)
        type(c_ptr), intent(in) :: text
        character(len=:), allocatable :: string
        character(kind=c_char), pointer :: chars(:)
        integer :: i, length
        if (.not. c_associated(text)) then
            string = ''
            return
        end if
        length = int(c_strlen(text))
        call c_f_pointer(text, chars, [length])
        allocate (character(len=length) :: string)
        do i = 1, length
            string(i:i) = chars(i)
        end do
    end function

    !> tdls_last_error() of the calling thread as a Fortran string.
    function tdls_error_message() result(message)
        character(len=:), allocatable :: message
        message = tdls_string(tdls_last_error())
    end function

    subroutine gesv_r8(A, ipiv, B, info, status)
        real(c_double), intent(inout), target, contiguous :: A(:, :, :), B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_FLOAT64, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_r8(A), c_loc_i4(ipiv), address_r8(B), c_loc_i4(info), status)
    end subroutine

    subroutine gesv_r4(A, ipiv, B, info, status)
        real(c_float), intent(inout), target, contiguous :: A(:, :, :), B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_FLOAT32, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_r4(A), c_loc_i4(ipiv), address_r4(B), c_loc_i4(info), status)
    end subroutine

    subroutine gesv_r8_1rhs(A, ipiv, B, info, status)
        real(c_double), intent(inout), target, contiguous :: A(:, :, :), B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_FLOAT64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_r8(A), c_loc_i4(ipiv), address_r8_2(B), c_loc_i4(info), status)
    end subroutine

    subroutine gesv_r4_1rhs(A, ipiv, B, info, status)
        real(c_float), intent(inout), target, contiguous :: A(:, :, :), B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_FLOAT32, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_r4(A), c_loc_i4(ipiv), address_r4_2(B), c_loc_i4(info), status)
    end subroutine

    ! tdls_solve has no pivots: run() checks no ipiv shape for it and passes none.
    subroutine solve_r8(A, B, info, status)
        real(c_double), intent(in), target, contiguous :: A(:, :, :)
        real(c_double), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_FLOAT64, shape(A, c_int64_t), shape(B, c_int64_t), no_pivots, &
                 size(info, kind=c_int64_t), address_r8(A), c_null_ptr, address_r8(B), c_loc_i4(info), status)
    end subroutine

    subroutine solve_r4(A, B, info, status)
        real(c_float), intent(in), target, contiguous :: A(:, :, :)
        real(c_float), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_FLOAT32, shape(A, c_int64_t), shape(B, c_int64_t), no_pivots, &
                 size(info, kind=c_int64_t), address_r4(A), c_null_ptr, address_r4(B), c_loc_i4(info), status)
    end subroutine

    subroutine solve_r8_1rhs(A, B, info, status)
        real(c_double), intent(in), target, contiguous :: A(:, :, :)
        real(c_double), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_FLOAT64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), &
                 no_pivots, size(info, kind=c_int64_t), address_r8(A), c_null_ptr, &
                 address_r8_2(B), c_loc_i4(info), status)
    end subroutine

    subroutine solve_r4_1rhs(A, B, info, status)
        real(c_float), intent(in), target, contiguous :: A(:, :, :)
        real(c_float), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_FLOAT32, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), &
                 no_pivots, size(info, kind=c_int64_t), address_r4(A), c_null_ptr, &
                 address_r4_2(B), c_loc_i4(info), status)
    end subroutine

    subroutine getrf_r8(A, ipiv, info, status)
        real(c_double), intent(inout), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_getrf, TDLS_FLOAT64, shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
                 shape(ipiv, c_int64_t), size(info, kind=c_int64_t), address_r8(A), c_loc_i4(ipiv), c_null_ptr, &
                 c_loc_i4(info), status)
    end subroutine

    subroutine getrf_r4(A, ipiv, info, status)
        real(c_float), intent(inout), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_getrf, TDLS_FLOAT32, shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
                 shape(ipiv, c_int64_t), size(info, kind=c_int64_t), address_r4(A), c_loc_i4(ipiv), c_null_ptr, &
                 c_loc_i4(info), status)
    end subroutine

    subroutine getrs_r8(A, ipiv, B, status)
        real(c_double), intent(in), target, contiguous :: A(:, :, :)
        real(c_double), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_FLOAT64, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_r8(A), c_loc_i4(ipiv), address_r8(B), c_null_ptr, status)
    end subroutine

    subroutine getrs_r4(A, ipiv, B, status)
        real(c_float), intent(in), target, contiguous :: A(:, :, :)
        real(c_float), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_FLOAT32, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_r4(A), c_loc_i4(ipiv), address_r4(B), c_null_ptr, status)
    end subroutine

    subroutine getrs_r8_1rhs(A, ipiv, B, status)
        real(c_double), intent(in), target, contiguous :: A(:, :, :)
        real(c_double), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_FLOAT64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_r8(A), c_loc_i4(ipiv), address_r8_2(B), c_null_ptr, status)
    end subroutine

    subroutine getrs_r4_1rhs(A, ipiv, B, status)
        real(c_float), intent(in), target, contiguous :: A(:, :, :)
        real(c_float), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_FLOAT32, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_r4(A), c_loc_i4(ipiv), address_r4_2(B), c_null_ptr, status)
    end subroutine

    ! ---- complex(8) and complex(4): the same calls with TDLS_COMPLEX128 / 64 ----
    subroutine gesv_c8(A, ipiv, B, info, status)
        complex(c_double_complex), intent(inout), target, contiguous :: A(:, :, :), B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_COMPLEX128, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_c8(A), c_loc_i4(ipiv), address_c8(B), c_loc_i4(info), status)
    end subroutine

    subroutine gesv_c8_1rhs(A, ipiv, B, info, status)
        complex(c_double_complex), intent(inout), target, contiguous :: A(:, :, :), B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_COMPLEX128, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_c8(A), c_loc_i4(ipiv), address_c8_2(B), c_loc_i4(info), &
                 status)
    end subroutine

    subroutine solve_c8(A, B, info, status)
        complex(c_double_complex), intent(in), target, contiguous :: A(:, :, :)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_COMPLEX128, shape(A, c_int64_t), shape(B, c_int64_t), no_pivots, &
                 size(info, kind=c_int64_t), address_c8(A), c_null_ptr, address_c8(B), c_loc_i4(info), status)
    end subroutine

    subroutine solve_c8_1rhs(A, B, info, status)
        complex(c_double_complex), intent(in), target, contiguous :: A(:, :, :)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_COMPLEX128, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), &
                 no_pivots, size(info, kind=c_int64_t), address_c8(A), c_null_ptr, &
                 address_c8_2(B), c_loc_i4(info), status)
    end subroutine

    subroutine getrf_c8(A, ipiv, info, status)
        complex(c_double_complex), intent(inout), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_getrf, TDLS_COMPLEX128, shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
                 shape(ipiv, c_int64_t), size(info, kind=c_int64_t), address_c8(A), c_loc_i4(ipiv), c_null_ptr, &
                 c_loc_i4(info), status)
    end subroutine

    subroutine getrs_c8(A, ipiv, B, status)
        complex(c_double_complex), intent(in), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_COMPLEX128, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_c8(A), c_loc_i4(ipiv), address_c8(B), c_null_ptr, status)
    end subroutine

    subroutine getrs_c8_1rhs(A, ipiv, B, status)
        complex(c_double_complex), intent(in), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_COMPLEX128, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_c8(A), c_loc_i4(ipiv), address_c8_2(B), c_null_ptr, status)
    end subroutine

    subroutine gesv_c4(A, ipiv, B, info, status)
        complex(c_float_complex), intent(inout), target, contiguous :: A(:, :, :), B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_COMPLEX64, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_c4(A), c_loc_i4(ipiv), address_c4(B), c_loc_i4(info), status)
    end subroutine

    subroutine gesv_c4_1rhs(A, ipiv, B, info, status)
        complex(c_float_complex), intent(inout), target, contiguous :: A(:, :, :), B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_gesv, TDLS_COMPLEX64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 size(info, kind=c_int64_t), address_c4(A), c_loc_i4(ipiv), address_c4_2(B), c_loc_i4(info), &
                 status)
    end subroutine

    subroutine solve_c4(A, B, info, status)
        complex(c_float_complex), intent(in), target, contiguous :: A(:, :, :)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_COMPLEX64, shape(A, c_int64_t), shape(B, c_int64_t), no_pivots, &
                 size(info, kind=c_int64_t), address_c4(A), c_null_ptr, address_c4(B), c_loc_i4(info), status)
    end subroutine

    subroutine solve_c4_1rhs(A, B, info, status)
        complex(c_float_complex), intent(in), target, contiguous :: A(:, :, :)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_solve, TDLS_COMPLEX64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), &
                 no_pivots, size(info, kind=c_int64_t), address_c4(A), c_null_ptr, &
                 address_c4_2(B), c_loc_i4(info), status)
    end subroutine

    subroutine getrf_c4(A, ipiv, info, status)
        complex(c_float_complex), intent(inout), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:, :)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int), intent(out), optional :: status
        call run(op_getrf, TDLS_COMPLEX64, shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
                 shape(ipiv, c_int64_t), size(info, kind=c_int64_t), address_c4(A), c_loc_i4(ipiv), c_null_ptr, &
                 c_loc_i4(info), status)
    end subroutine

    subroutine getrs_c4(A, ipiv, B, status)
        complex(c_float_complex), intent(in), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:, :, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_COMPLEX64, shape(A, c_int64_t), shape(B, c_int64_t), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_c4(A), c_loc_i4(ipiv), address_c4(B), c_null_ptr, status)
    end subroutine

    subroutine getrs_c4_1rhs(A, ipiv, B, status)
        complex(c_float_complex), intent(in), target, contiguous :: A(:, :, :)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:, :)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:, :)
        integer(c_int), intent(out), optional :: status
        call run(op_getrs, TDLS_COMPLEX64, shape(A, c_int64_t), one_rhs(shape(B, c_int64_t)), shape(ipiv, c_int64_t), &
                 0_c_int64_t, address_c4(A), c_loc_i4(ipiv), address_c4_2(B), c_null_ptr, status)
    end subroutine

    ! ---- helpers ----------------------------------------------------------------

    !> B(n, batch) seen as B(n, 1, batch).
    pure function one_rhs(b_shape) result(full)
        integer(c_int64_t), intent(in) :: b_shape(2)
        integer(c_int64_t) :: full(3)
        full = [b_shape(1), 1_c_int64_t, b_shape(2)]
    end function

    ! c_loc of an empty array is not defined by the standard: NULL, which
    ! libtdls accepts exactly when there is nothing to read (n or batch 0).
    type(c_ptr) function address_r8(x)
        real(c_double), intent(in), target, contiguous :: x(:, :, :)
        address_r8 = c_null_ptr
        if (size(x) > 0) address_r8 = c_loc(x)
    end function
    type(c_ptr) function address_r4(x)
        real(c_float), intent(in), target, contiguous :: x(:, :, :)
        address_r4 = c_null_ptr
        if (size(x) > 0) address_r4 = c_loc(x)
    end function
    type(c_ptr) function address_r8_2(x)
        real(c_double), intent(in), target, contiguous :: x(:, :)
        address_r8_2 = c_null_ptr
        if (size(x) > 0) address_r8_2 = c_loc(x)
    end function
    type(c_ptr) function address_r4_2(x)
        real(c_float), intent(in), target, contiguous :: x(:, :)
        address_r4_2 = c_null_ptr
        if (size(x) > 0) address_r4_2 = c_loc(x)
    end function
    type(c_ptr) function address_c8(x)
        complex(c_double_complex), intent(in), target, contiguous :: x(:, :, :)
        address_c8 = c_null_ptr
        if (size(x) > 0) address_c8 = c_loc(x)
    end function
    type(c_ptr) function address_c8_2(x)
        complex(c_double_complex), intent(in), target, contiguous :: x(:, :)
        address_c8_2 = c_null_ptr
        if (size(x) > 0) address_c8_2 = c_loc(x)
    end function
    type(c_ptr) function address_c4(x)
        complex(c_float_complex), intent(in), target, contiguous :: x(:, :, :)
        address_c4 = c_null_ptr
        if (size(x) > 0) address_c4 = c_loc(x)
    end function
    type(c_ptr) function address_c4_2(x)
        complex(c_float_complex), intent(in), target, contiguous :: x(:, :)
        address_c4_2 = c_null_ptr
        if (size(x) > 0) address_c4_2 = c_loc(x)
    end function
    type(c_ptr) function c_loc_i4(x)
        integer(c_int32_t), intent(in), target, contiguous :: x(..)
        c_loc_i4 = c_null_ptr
        if (size(x) > 0) c_loc_i4 = c_loc(x)
    end function

    function text(value) result(string)
        integer(c_int64_t), intent(in) :: value
        character(len=:), allocatable :: string
        character(len=24) :: buffer
        write (buffer, '(i0)') value
        string = trim(buffer)
    end function

    function shape_text(dims) result(string)
        integer(c_int64_t), intent(in) :: dims(:)
        character(len=:), allocatable :: string
        integer :: i
        string = text(dims(1))
        do i = 2, size(dims)
            string = string//' x '//text(dims(i))
        end do
    end function

    !> The one path of every convenience: shapes checked against A(n, n, batch)
    !> before anything is touched, then the strided C call, packed (lda = ldb = n).
    subroutine run(op, dtype, a_shape, b_shape, ipiv_shape, info_size, A, ipiv, B, info, status)
        integer, intent(in) :: op
        integer(c_int), intent(in) :: dtype
        integer(c_int64_t), intent(in) :: a_shape(3), b_shape(3), ipiv_shape(2), info_size
        type(c_ptr), intent(in) :: A, ipiv, B, info
        integer(c_int), intent(out), optional :: status
        character(len=:), allocatable :: caller, message
        integer(c_int64_t) :: n, nrhs, batch
        integer(c_int) :: s

        select case (op)
        case (op_gesv)
            caller = 'tdls_gesv'
        case (op_getrf)
            caller = 'tdls_getrf'
        case (op_solve)
            caller = 'tdls_solve'
        case default
            caller = 'tdls_getrs'
        end select
        n = a_shape(2)
        batch = a_shape(3)
        nrhs = b_shape(2)
        message = ''
        if (a_shape(1) /= n) then
            message = 'A is '//shape_text(a_shape)//', not n x n x batch'
        else if (op /= op_solve .and. (ipiv_shape(1) /= n .or. ipiv_shape(2) /= batch)) then
            message = 'ipiv is '//shape_text(ipiv_shape)//', not '//shape_text([n, batch])//' (n x batch)'
        else if (op /= op_getrf .and. (b_shape(1) /= n .or. b_shape(3) /= batch)) then
            message = 'B is '//shape_text(b_shape)//', not '//text(n)//' x nrhs x '//text(batch)//' (n x nrhs x batch)'
        else if (op /= op_getrs .and. info_size /= batch) then
            message = 'info has '//text(info_size)//' elements, not batch = '//text(batch)
        end if

        if (len(message) > 0) then
            s = TDLS_ERROR_INVALID_VALUE
        else
            select case (op)
            case (op_gesv)
                s = tdls_batched_gesv(c_null_ptr, dtype, TDLS_COL_MAJOR, n, nrhs, A, n, n*n, ipiv, n, B, n, &
                                      n*nrhs, info, batch)
            case (op_solve)
                s = tdls_batched_solve(c_null_ptr, dtype, TDLS_COL_MAJOR, n, nrhs, A, n, n*n, B, n, n*nrhs, info, &
                                       batch)
            case (op_getrf)
                s = tdls_batched_getrf(c_null_ptr, dtype, TDLS_COL_MAJOR, n, A, n, n*n, ipiv, n, info, batch)
            case default
                s = tdls_batched_getrs(c_null_ptr, dtype, TDLS_COL_MAJOR, n, nrhs, A, n, n*n, ipiv, n, B, n, &
                                       n*nrhs, batch)
            end select
            if (s /= TDLS_SUCCESS) message = tdls_error_message()
        end if

        if (present(status)) then
            status = s
        else if (s /= TDLS_SUCCESS) then
            error stop caller//': '//message
        end if
    end subroutine

end module tdls
