# NB_PAPI: configure's part of the PAPI build (papi.mk, doc/papi-component.md).
#
# PAPI 7.0.0's source comes from Debian's source package (apt-get source papi), or from the tree or tarball given
# with --with-papi-source; scripts/get-papi-source.sh fetches it into the build tree once and checks its version.
# --disable-papi leaves PAPI out (the sanitizer and fuzzing builds do: libpapi's programs run under Valgrind).
AC_DEFUN([NB_PAPI], [
AC_ARG_ENABLE([papi],
  [AS_HELP_STRING([--disable-papi], [do not build libpapi with the netburst component (nor its tests)])],
  [], [enable_papi=yes])
AC_ARG_WITH([papi-source],
  [AS_HELP_STRING([--with-papi-source=DIR|TARBALL],
    [PAPI 7.0.0 source tree or release tarball (default: Debian's source package, apt-get source papi)])],
  [], [with_papi_source=])
AS_CASE([$with_papi_source],
  [yes|no], [AC_MSG_ERROR([--with-papi-source needs a directory or a tarball])],
  [""|/*], [],
  [with_papi_source="$ac_pwd/$with_papi_source"])

# gfortran: PAPI's Fortran tests and our Fortran integration test (PAPI's Fortran interface).
AC_PROG_FC([gfortran])

PAPI_TREE=papi/papi-7.0.0
AS_IF([test "x$enable_papi" = xyes], [
  AS_IF([test -z "$FC"], [AC_MSG_ERROR([gfortran was not found: install the Debian package gfortran (scripts/install-deps.sh)])])
  AC_MSG_CHECKING([for PAPI 7.0.0 source])
  AC_MSG_RESULT([${with_papi_source:-Debian source package papi}])
  origin="${with_papi_source:-debian}"
  AS_IF([test -f "$PAPI_TREE/.papi-netburst-origin" && test "x`cat $PAPI_TREE/.papi-netburst-origin`" != "x$origin"],
    [rm -rf "$PAPI_TREE"])
  "$srcdir/scripts/get-papi-source.sh" ${with_papi_source:+--from "$with_papi_source"} "$PAPI_TREE" ||
    AC_MSG_ERROR([could not get PAPI 7.0.0's source (see above)])
  echo "$origin" > "$PAPI_TREE/.papi-netburst-origin"
])
AM_CONDITIONAL([WITH_PAPI], [test "x$enable_papi" = xyes])
AC_SUBST([PAPI_TREE])
])
