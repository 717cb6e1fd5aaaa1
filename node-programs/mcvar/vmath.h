/* vmath: exp and erfc over arrays of doubles, four lanes at a time (eight with AVX-512; GCC
 * vector extensions), for the pricing loops (README "Vector kernels").
 *   exp:  Cody-Waite reduction x = k ln2 + r (|r| <= ln2/2), exp(r) by its Taylor series to
 *         degree 13 (truncation below 4.3e-18 relative), 2^k built in the exponent bits.
 *   erfc: W. J. Cody's rational Chebyshev approximations ("Rational Chebyshev approximations
 *         for the error function", Math. Comp. 23 (1969) 631-637; the coefficients of his
 *         CALERF routine) on |x| <= 0.46875, 0.46875 < |x| <= 4 and |x| > 4, every lane
 *         computed without branches and the interval chosen per lane; exp(-x^2) from the
 *         exact square of x rounded to a multiple of 1/16 plus the small rest (Cody's device),
 *         in one exp.
 * Only +, -, *, / and bit operations, no fused multiply-add (the file is built with
 * -ffp-contract=off), so every instruction set gives the same bits: the AVX2 path (chosen
 * at run time when the CPU has it) and the baseline x86-64 (SSE2) path are bit-identical,
 * and so are the results of ranks on different CPUs. Accuracy against libm's long-double
 * functions is checked by test_vmath (README). */
#ifndef MCVAR_VMATH_H
#define MCVAR_VMATH_H

/* y[i] = exp(x[i]), i < n (y may be x). */
void vm_exp(double *y, const double *x, int n);
/* y[i] = erfc(x[i]), i < n (y may be x). */
void vm_erfc(double *y, const double *x, int n);

typedef enum { VM_ISA_BASELINE, VM_ISA_AVX2, VM_ISA_AVX512 } vm_isa;
/* The instruction set in use: the widest the CPU has (AVX-512 F and DQ, AVX2, the baseline),
 * or the one the environment's MCVAR_ISA (baseline, avx2, avx512) names, where the CPU has it. */
vm_isa vm_isa_in_use(void);
/* Forces an instruction set (tests compare the paths); returns -1 when the CPU lacks it. */
int vm_use_isa(vm_isa isa);

#endif
