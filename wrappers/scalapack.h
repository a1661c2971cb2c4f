/* Prototypes of the BLACS, ScaLAPACK, PBLAS and BLAS routines hetmap calls.
 * Debian ships no C headers for them. Fortran routines take the hidden
 * lengths of their character arguments at the end (gfortran ABI); the PBLAS
 * (pd*mm, pd*mv) are C and take none. */
#ifndef HM_SCALAPACK_H
#define HM_SCALAPACK_H

#include <mpi.h>
#include <stddef.h>

void Cblacs_pinfo(int *rank, int *nprocs);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int rows, int cols);
void Cblacs_gridinfo(int context, int *rows, int *cols, int *row, int *col);
void Cblacs_gridexit(int context);
/* a BLACS system context over an MPI communicator, and its release */
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);

int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc,
	    const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
	       const int *irsrc, const int *icsrc, const int *ictxt, const int *lld,
	       int *info);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
	      const int *desca, int *ipiv, int *info);
void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
	      const int *ia, const int *ja, const int *desca, const int *ipiv,
	      double *b, const int *ib, const int *jb, const int *descb, int *info,
	      size_t trans_len);
void pdgetf2_(const int *m, const int *n, double *a, const int *ia, const int *ja,
	      const int *desca, int *ipiv, int *info);
void pdlaswp_(const char *direc, const char *rowcol, const int *n, double *a, const int *ia,
	      const int *ja, const int *desca, const int *k1, const int *k2, const int *ipiv,
	      size_t direc_len, size_t rowcol_len);
double pdlange_(const char *norm, const int *m, const int *n, const double *a,
		const int *ia, const int *ja, const int *desca, double *work,
		size_t norm_len);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n,
	     const int *k, const double *alpha, const double *a, const int *ia,
	     const int *ja, const int *desca, const double *b, const int *ib,
	     const int *jb, const int *descb, const double *beta, double *c,
	     const int *ic, const int *jc, const int *descc);
void pdgemv_(const char *trans, const int *m, const int *n, const double *alpha,
	     const double *a, const int *ia, const int *ja, const int *desca,
	     const double *x, const int *ix, const int *jx, const int *descx,
	     const int *incx, const double *beta, double *y, const int *iy,
	     const int *jy, const int *descy, const int *incy);

/* BLAS (OpenBLAS), for the calibration kernels. */
void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
	    const int *k, const double *alpha, const double *a, const int *lda,
	    const double *b, const int *ldb, const double *beta, double *c,
	    const int *ldc, size_t transa_len, size_t transb_len);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
	    const int *m, const int *n, const double *alpha, const double *a,
	    const int *lda, double *b, const int *ldb, size_t side_len,
	    size_t uplo_len, size_t transa_len, size_t diag_len);
int idamax_(const int *n, const double *x, const int *incx);
void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy);
void dscal_(const int *n, const double *alpha, double *x, const int *incx);
void dger_(const int *m, const int *n, const double *alpha, const double *x,
	   const int *incx, const double *y, const int *incy, double *a, const int *lda);

#endif /* HM_SCALAPACK_H */
