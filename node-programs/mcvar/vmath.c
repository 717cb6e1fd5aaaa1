/* vmath.c: the kernels (vmath_impl.h) built twice, for the baseline x86-64 (SSE2: each
 * four-lane operation becomes two) and for AVX2, and the choice between them by the CPU,
 * made once. Built with -ffp-contract=off (CMakeLists.txt), so both give the same bits. */
#include "vmath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* Two lanes (one SSE2 register), four (one AVX2 register) or eight (one AVX-512 register):
 * GCC lowers vectors wider than the hardware's poorly (comparisons to scalar code), so each
 * path has its own width. */
typedef double vm_d2 __attribute__((vector_size(16)));
typedef long long vm_i2 __attribute__((vector_size(16)));
typedef double vm_d4 __attribute__((vector_size(32)));
typedef long long vm_i4 __attribute__((vector_size(32)));
typedef double vm_d8 __attribute__((vector_size(64)));
typedef long long vm_i8 __attribute__((vector_size(64)));

#define VM_SPLAT(c) ((vm_d){0} + (c))
#define VM_ROUND 6755399441055744.0            /* 1.5 * 2^52: adding it rounds to an integer */
#define VM_LOG2E 1.44269504088896338700e+00
#define VM_LN2_HI 6.93147180369123816490e-01   /* 0x3fe62e42fee00000: 32 significant bits */
#define VM_LN2_LO 1.90821492927058770002e-10   /* ln 2 - VM_LN2_HI */
#define VM_RSQRT_PI 5.6418958354775628695e-1   /* 1/sqrt(pi) */

#define vm_d vm_d2
#define vm_i vm_i2
#define VM_LANES 2
#define VM_ATTR
#define VM_NAME(base) base##_baseline
/* any lane of a mask set: its sign bits */
#if defined(__x86_64__) || defined(__i386__)
#define VM_ANY(m) (_mm_movemask_pd((__m128d)(m)) != 0)
#else
#define VM_ANY(m) (((m)[0] | (m)[1]) != 0)
#endif
#include "vmath_impl.h"
#undef VM_ATTR
#undef VM_NAME

#if defined(__x86_64__) || defined(__i386__)
#define VM_HAVE_AVX2_PATH 1
#undef VM_ANY
#undef vm_d
#undef vm_i
#undef VM_LANES
#define vm_d vm_d4
#define vm_i vm_i4
#define VM_LANES 4
#define VM_ATTR __attribute__((target("avx2")))
#define VM_NAME(base) base##_avx2
#define VM_ANY(m) (_mm256_movemask_pd((__m256d)(m)) != 0)
#include "vmath_impl.h"
#undef VM_ATTR
#undef VM_NAME
#undef VM_ANY
#undef vm_d
#undef vm_i
#undef VM_LANES
#define vm_d vm_d8
#define vm_i vm_i8
#define VM_LANES 8
#define VM_ATTR __attribute__((target("avx512f,avx512dq")))
#define VM_NAME(base) base##_avx512
#define VM_ANY(m) (_mm512_movepi64_mask((__m512i)(m)) != 0)
#include "vmath_impl.h"
#undef VM_ATTR
#undef VM_NAME
#endif

typedef void (*vm_array_fn)(double *, const double *, int);
static vm_array_fn exp_fn, erfc_fn;
static vm_isa in_use;

static int cpu_has(vm_isa isa) {
#ifdef VM_HAVE_AVX2_PATH
    __builtin_cpu_init();
    if (isa == VM_ISA_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    return isa == VM_ISA_BASELINE || __builtin_cpu_supports("avx2");
#else
    return isa == VM_ISA_BASELINE;
#endif
}

int vm_use_isa(vm_isa isa) {
    if (!cpu_has(isa)) return -1;
    exp_fn = exp_array_baseline;
    erfc_fn = erfc_array_baseline;
#ifdef VM_HAVE_AVX2_PATH
    if (isa == VM_ISA_AVX2) {
        exp_fn = exp_array_avx2;
        erfc_fn = erfc_array_avx2;
    } else if (isa == VM_ISA_AVX512) {
        exp_fn = exp_array_avx512;
        erfc_fn = erfc_array_avx512;
    }
#endif
    in_use = isa;
    return 0;
}

/* The widest set the CPU has; MCVAR_ISA=baseline|avx2|avx512 picks a narrower one (tests run
 * every path a CPU has and compare the outputs; README "Vector kernels"). */
static void choose(void) {
    static const char *const names[] = {"baseline", "avx2", "avx512"};
    const char *want = getenv("MCVAR_ISA");
    if (want && *want) {
        for (int i = 0; i < 3; i++)
            if (strcmp(want, names[i]) == 0 && vm_use_isa((vm_isa)i) == 0) return;
        fprintf(stderr, "mcvar: MCVAR_ISA=%s is not baseline, avx2 or avx512 or this CPU lacks "
                "it; using the widest it has\n", want);
    }
    if (vm_use_isa(VM_ISA_AVX512) && vm_use_isa(VM_ISA_AVX2)) vm_use_isa(VM_ISA_BASELINE);
}

vm_isa vm_isa_in_use(void) {
    if (!exp_fn) choose();
    return in_use;
}

void vm_exp(double *y, const double *x, int n) {
    if (!exp_fn) choose();
    exp_fn(y, x, n);
}

void vm_erfc(double *y, const double *x, int n) {
    if (!erfc_fn) choose();
    erfc_fn(y, x, n);
}
