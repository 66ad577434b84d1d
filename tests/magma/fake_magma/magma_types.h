/* A stand-in for MAGMA's magma_types.h, for tests only: the guard macro and
 * the types MAGMA's header declares (MAGMA 2.x's names and values), so that
 * tdls/magma.h is seen to use them rather than declare its own when MAGMA's
 * header comes first or is reachable. */
#ifndef MAGMA_TYPES_H
#define MAGMA_TYPES_H

#if defined(MAGMA_ILP64) || defined(MKL_ILP64)
typedef long long int magma_int_t;
#else
typedef int magma_int_t;
#endif
typedef magma_int_t magma_device_t;
struct magma_queue;
typedef struct magma_queue* magma_queue_t;
/* MAGMA's CUDA build: cuFloatComplex / cuDoubleComplex, CUDA's float2 / double2. */
typedef struct { float x, y; } magmaFloatComplex;
typedef struct { double x, y; } magmaDoubleComplex;

typedef enum {
    MagmaNoTrans = 111,
    MagmaTrans = 112,
    MagmaConjTrans = 113,
    Magma_ConjTrans = MagmaConjTrans
} magma_trans_t;

#define MAGMA_SUCCESS 0
#define MAGMA_ERR -100
#define MAGMA_ERR_HOST_ALLOC -112

#endif
