# wrappers/smpi/smpi.cmake - the SMPI flavour (wrappers/README.md, "The SMPI flavour"),
# built only when HETMAP_SMPI_SCALAPACK names a ScaLAPACK source tarball
# (Reference-ScaLAPACK 2.2.1, the release Debian's package is built from):
#  1. ScaLAPACK with its own CMake build, C compiler smpicc (BLACS, PBLAS
#     and the tools call MPI), Fortran compiler plain gfortran (the Fortran
#     parts never call MPI; SimGrid 3.32's smpif90 misnames the objects of
#     fixed-form sources), smpi_compat.h force-included into the C parts;
#  2. hetmap-driver-smpi and hetmap-calibrate-bench-smpi, the native
#     sources compiled with smpicc, the modeled kernels' library and
#     ScaLAPACK's LU tester as a user's program (wrappers/smpi/CMakeLists.txt).
# Once per build tree: the tarball is unpacked and built on the first
# build only. Both land beside hetmap, which looks for them there.
set(HETMAP_SMPI_SCALAPACK "" CACHE FILEPATH
    "ScaLAPACK source tarball to build the SMPI (SimGrid) flavour from; empty: no SMPI flavour")
if(NOT HETMAP_SMPI_SCALAPACK)
  return()
endif()
find_program(HM_SMPICC smpicc)
find_program(HM_SMPIF90 smpif90)
find_program(HM_GFORTRAN gfortran)
if(NOT EXISTS "${HETMAP_SMPI_SCALAPACK}")
  message(FATAL_ERROR "HETMAP_SMPI_SCALAPACK: ${HETMAP_SMPI_SCALAPACK}: no such file")
endif()
if(NOT HM_SMPICC OR NOT HM_SMPIF90 OR NOT HM_GFORTRAN)
  message(FATAL_ERROR "the SMPI flavour needs smpicc and smpif90 (Debian package "
          "libsimgrid-dev) and gfortran")
endif()
message(STATUS "SMPI flavour: ScaLAPACK from ${HETMAP_SMPI_SCALAPACK} is built with smpicc on the "
        "first build (2-3 minutes)")
include(ExternalProject)
include(ProcessorCount)
ProcessorCount(HM_NPROC)
if(HM_NPROC EQUAL 0)
  set(HM_NPROC 1)
endif()
find_library(HM_OPENBLAS_LIB openblas REQUIRED)
set(HM_SMPI_COMPAT ${CMAKE_SOURCE_DIR}/wrappers/smpi/smpi_compat.h)
ExternalProject_Add(scalapack-smpi
  URL ${HETMAP_SMPI_SCALAPACK}
  DOWNLOAD_EXTRACT_TIMESTAMP TRUE
  PREFIX ${CMAKE_BINARY_DIR}/smpi/scalapack
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${HM_SMPICC}
    -DCMAKE_Fortran_COMPILER=${HM_GFORTRAN}
    # only so that ScaLAPACK's find_package(MPI) succeeds
    -DMPI_C_COMPILER=${HM_SMPICC}
    -DMPI_Fortran_COMPILER=${HM_SMPIF90}
    "-DCMAKE_C_FLAGS=-O2 -fPIC -include ${HM_SMPI_COMPAT} -Wno-implicit-function-declaration"
    # gfortran >= 10 rejects the argument mismatches ScaLAPACK relies on
    "-DCMAKE_Fortran_FLAGS=-O2 -fPIC -fallow-argument-mismatch"
    -DBLAS_LIBRARIES=${HM_OPENBLAS_LIB}
    -DLAPACK_LIBRARIES=${HM_OPENBLAS_LIB}
    -DBUILD_SHARED_LIBS=OFF
    -DBUILD_TESTING=OFF
    -DSCALAPACK_BUILD_TESTS=OFF
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target scalapack --parallel ${HM_NPROC}
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS <BINARY_DIR>/lib/libscalapack.a
  # its build's own progress lines show (2-3 minutes, once per build tree)
  LOG_CONFIGURE ON LOG_OUTPUT_ON_FAILURE ON USES_TERMINAL_BUILD ON)
ExternalProject_Get_Property(scalapack-smpi BINARY_DIR SOURCE_DIR)
ExternalProject_Add(hetmap-smpi
  SOURCE_DIR ${CMAKE_SOURCE_DIR}/wrappers/smpi
  PREFIX ${CMAKE_BINARY_DIR}/smpi/programs
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_COMPILER=${HM_SMPICC}
    -DHETMAP_SOURCE=${CMAKE_SOURCE_DIR}
    -DSCALAPACK_LIB=${BINARY_DIR}/lib/libscalapack.a
    -DSCALAPACK_SOURCE=${SOURCE_DIR}
    -DCMAKE_Fortran_COMPILER=${HM_GFORTRAN}
    -DOUT_DIR=${CMAKE_BINARY_DIR}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  DEPENDS scalapack-smpi)
# installed beside the native helpers; the kernels' library in lib/ for
# programs of the user's own built with smpicc
install(PROGRAMS ${CMAKE_BINARY_DIR}/hetmap-driver-smpi ${CMAKE_BINARY_DIR}/hetmap-calibrate-bench-smpi
        DESTINATION ${HM_LIBEXEC_DIR})
install(FILES ${CMAKE_BINARY_DIR}/libhetmap-smpi-kernels.so DESTINATION ${CMAKE_INSTALL_LIBDIR})
# what they link, and smpirun (libsimgrid-dev), which 'run --launcher smpi'
# and 'plan --judge' start: the Debian package's dependencies (CMakeLists.txt)
set(HM_DEB_SMPI_DEPENDS ", libsimgrid3.32, libsimgrid-dev, libgfortran5" PARENT_SCOPE)
