! Counts known floating-point work through PAPI's Fortran interface on the emulated Pentium 4 (run under
! netburst-run): a dot product of n1 and of n2 elements, inside PAPIF_start/PAPIF_stop, once with presets and once
! with a native event named as users write it. Prints "EVENT COUNT" for the difference of the two runs, which is
! the work of n2 - n1 elements: one scalar double-precision multiply and one add each (the build compiles this
! file with -O1 -fno-tree-vectorize, so neither vector instructions nor FMA appear).
!
! tests/integration/papi/papi_integration_test.cpp runs it and checks the counts.
program fortran_counts
  implicit none
  include 'f90papi.h'
  integer, parameter :: n1 = 1000, n2 = 101000
  double precision, allocatable :: x(:), y(:)
  integer :: retval, presets, native, code
  integer(kind=8) :: first(2), second(2), nfirst(1), nsecond(1)

  allocate (x(n2), y(n2))
  x = 1.5d0
  y = 2.0d0

  retval = PAPI_VER_CURRENT
  call PAPIF_library_init(retval)
  call check('PAPIF_library_init', retval, PAPI_VER_CURRENT)

  presets = PAPI_NULL
  call PAPIF_create_eventset(presets, retval)
  call check('PAPIF_create_eventset', retval, PAPI_OK)
  call PAPIF_add_event(presets, PAPI_FP_INS, retval)
  call check('PAPIF_add_event PAPI_FP_INS', retval, PAPI_OK)
  call PAPIF_add_event(presets, PAPI_TOT_INS, retval)
  call check('PAPIF_add_event PAPI_TOT_INS', retval, PAPI_OK)

  native = PAPI_NULL
  call PAPIF_create_eventset(native, retval)
  call check('PAPIF_create_eventset', retval, PAPI_OK)
  call PAPIF_event_name_to_code('netburst:::scalar_DP_retired:NBOGUS', code, retval)
  call check('PAPIF_event_name_to_code', retval, PAPI_OK)
  call PAPIF_add_event(native, code, retval)
  call check('PAPIF_add_event scalar_DP_retired', retval, PAPI_OK)

  call measure(presets, n1, first)
  call measure(presets, n2, second)
  call measure(native, n1, nfirst)
  call measure(native, n2, nsecond)

  print '(A,I0)', 'elements ', n2 - n1
  print '(A,I0)', 'PAPI_FP_INS ', second(1) - first(1)
  print '(A,I0)', 'PAPI_TOT_INS ', second(2) - first(2)
  print '(A,I0)', 'scalar_DP_retired ', nsecond(1) - nfirst(1)
  call PAPIF_shutdown()

contains

  subroutine measure(eventset, n, values)
    integer, intent(in) :: eventset, n
    integer(kind=8), intent(out) :: values(:)
    double precision :: s
    integer :: status
    call PAPIF_start(eventset, status)
    call check('PAPIF_start', status, PAPI_OK)
    s = dot(n)
    call PAPIF_stop(eventset, values, status)
    call check('PAPIF_stop', status, PAPI_OK)
    if (s /= 3.0d0 * n) stop 4
  end subroutine measure

  double precision function dot(n)
    integer, intent(in) :: n
    integer :: i
    dot = 0.0d0
    do i = 1, n
      dot = dot + x(i) * y(i)
    end do
  end function dot

  subroutine check(what, got, expected)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, expected
    if (got /= expected) then
      print '(A,A,I0)', what, ' failed: ', got
      stop 3
    end if
  end subroutine check

end program fortran_counts
