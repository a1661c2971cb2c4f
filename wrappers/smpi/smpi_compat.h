/* wrappers/smpi/smpi_compat.h - force-included (-include) into every C
 * source of ScaLAPACK when it is built against SimGrid's SMPI.
 *
 * SMPI 3.32 declares MPI_Type_match_size but aborts when it is called
 * ("Not yet implemented"); BLACS calls it (38 places) to find the MPI
 * type of a Fortran INTEGER, REAL or COMPLEX of a given size. The answer
 * is one of the predefined types, which SMPI has: this header maps the
 * call onto them. Nothing else of ScaLAPACK is changed. */
#ifndef HM_SMPI_COMPAT_H
#define HM_SMPI_COMPAT_H

#include <mpi.h>

static inline int hm_smpi_type_match_size(int typeclass, int size, MPI_Datatype *type)
{
	*type = MPI_DATATYPE_NULL;
	if (typeclass == MPI_TYPECLASS_INTEGER)
		*type = size == 1 ? MPI_SIGNED_CHAR : size == 2 ? MPI_SHORT : size == 4 ? MPI_INT :
			size == 8 ? MPI_LONG_LONG : MPI_DATATYPE_NULL;
	else if (typeclass == MPI_TYPECLASS_REAL)
		*type = size == 4 ? MPI_FLOAT : size == 8 ? MPI_DOUBLE :
			size == 16 ? MPI_LONG_DOUBLE : MPI_DATATYPE_NULL;
	else if (typeclass == MPI_TYPECLASS_COMPLEX)
		*type = size == 8 ? MPI_C_FLOAT_COMPLEX : size == 16 ? MPI_C_DOUBLE_COMPLEX :
			MPI_DATATYPE_NULL;
	return *type == MPI_DATATYPE_NULL ? MPI_ERR_ARG : MPI_SUCCESS;
}

#undef MPI_Type_match_size
#define MPI_Type_match_size hm_smpi_type_match_size

#endif /* HM_SMPI_COMPAT_H */
