/* The vector kernels (mcvar/vmath.h) against the C library's long-double exp and erfc
 * (x87 extended precision, 11 more bits than a double, so their rounding to double is the
 * reference) over millions of points of the domains the pricer uses and their tails, the
 * special values, and every instruction set's path against the others bit for bit. Prints the
 * largest errors found (and the double libm's against the same reference, for comparison)
 * and the nanoseconds per value of each; the exit code is the number of failures. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vmath.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* Largest accepted errors (README "Vector kernels"): ulps of the reference where it is a
 * normal double; below DBL_MIN (subnormal results) the same number of units of the smallest
 * subnormal (absolute). Measured: exp 1.12 ulps, erfc 6.3 (glibc's erfc 3.15). */
#define EXP_MAX_ULPS 2.0
#define ERFC_MAX_ULPS 8.0

static uint64_t state = 0x9e3779b97f4a7c15ull;
static double uniform(double a, double b) { /* splitmix64 */
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return a + (b - a) * ((double)(z >> 11) * 0x1p-53);
}

typedef struct err_stats {
    double max_ulps, at_ulps, max_abs, at_abs, max_sub, at_sub;
} err_stats;

/* Error of got against the exact ref: ulps where ref is normal, absolute everywhere. */
static void account(err_stats *e, double x, double got, long double ref) {
    long double diff = fabsl((long double)got - ref);
    double r = (double)ref;
    if (isinf(r) || isnan(r)) {
        if (!(got == r || (isnan(got) && isnan(r)))) e->max_ulps = INFINITY, e->at_ulps = x;
        return;
    }
    if (fabs(r) >= DBL_MIN) {
        double ulps = (double)(diff / (long double)(nextafter(fabs(r), INFINITY) - fabs(r)));
        if (ulps > e->max_ulps) e->max_ulps = ulps, e->at_ulps = x;
    } else {
        double units = (double)(diff / 0x1p-1074L);
        if (units > e->max_sub) e->max_sub = units, e->at_sub = x;
    }
    if ((double)diff > e->max_abs) e->max_abs = (double)diff, e->at_abs = x;
}

#define N_POINTS (1 << 21)
static double xs[N_POINTS], ys[N_POINTS], ys2[N_POINTS];

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fills xs with n points: uniform over the ranges, then each range's ends. */
static int fill(const double (*ranges)[2], int nranges) {
    int n = 0, per = N_POINTS / nranges - 2;
    for (int k = 0; k < nranges; k++) {
        for (int i = 0; i < per; i++) xs[n++] = uniform(ranges[k][0], ranges[k][1]);
        xs[n++] = ranges[k][0];
        xs[n++] = ranges[k][1];
    }
    return n;
}

typedef void (*kernel)(double *, const double *, int);

static err_stats check_kernel(const char *name, kernel vec, double (*lib)(double),
                              long double (*ref)(long double), int n, double max_ulps) {
    err_stats e = {0}, el = {0};
    /* in blocks of 61, as the pricer's blocks end, so the padded remainder is exercised */
    for (int i = 0; i < n; i += 61) vec(ys + i, xs + i, n - i < 61 ? n - i : 61);
    for (int i = 0; i < n; i++) {
        long double r = ref((long double)xs[i]);
        account(&e, xs[i], ys[i], r);
        account(&el, xs[i], lib(xs[i]), r);
    }
    printf("%s: %d points: max %.3f ulps (at %.17g), max abs %.3g (at %.17g), subnormal results "
           "max %.3f units of 2^-1074; libm %s: %.3f ulps, abs %.3g, subnormal %.3f\n",
           name, n, e.max_ulps, e.at_ulps, e.max_abs, e.at_abs, e.max_sub, name, el.max_ulps,
           el.max_abs, el.max_sub);
    CHECK(e.max_ulps <= max_ulps, "%s: %.3f ulps at %.17g (limit %.1f)", name, e.max_ulps,
          e.at_ulps, max_ulps);
    CHECK(e.max_sub <= max_ulps, "%s: subnormal result off by %.3f units at %.17g",
          name, e.max_sub, e.at_sub);
    /* every other path the CPU has gives the same bits as the one checked */
    vm_isa chosen = vm_isa_in_use();
    static const char *const names[] = {"baseline", "AVX2", "AVX-512"};
    for (int isa = VM_ISA_BASELINE; isa <= VM_ISA_AVX512; isa++) {
        if (isa == (int)chosen) continue;
        if (vm_use_isa((vm_isa)isa)) {
            printf("%s: this CPU has no %s; that path was not checked\n", name, names[isa]);
            continue;
        }
        for (int i = 0; i < n; i += 61) vec(ys2 + i, xs + i, n - i < 61 ? n - i : 61);
        CHECK(memcmp(ys, ys2, sizeof(double) * (size_t)n) == 0, "%s: the %s and %s paths differ",
              name, names[isa], names[chosen]);
        printf("%s: the %s path gives the same bits as the %s path\n", name, names[isa],
               names[chosen]);
    }
    vm_use_isa(chosen);
    /* the short paths (every lane's exp argument in the normal range or in [-0.34, 0.34];
     * every erfc lane below 0.46875) give the bits of the general path: each point again
     * beside a lane that forces the general one */
    int differ = 0;
    for (int i = 0; i < n; i += 5) {
        double pair[2] = {xs[i], 1000.0}, out[2];
        vec(out, pair, 2);
        differ += memcmp(&out[0], &ys[i], sizeof(double)) != 0;
    }
    CHECK(differ == 0, "%s: %d points differ between the short and the general path", name, differ);
    return e;
}

static void timing(const char *name, kernel vec, double (*lib)(double), int n) {
    double t0 = seconds();
    for (int i = 0; i < n; i += 64) vec(ys + i, xs + i, n - i < 64 ? n - i : 64);
    double t1 = seconds();
    for (int i = 0; i < n; i++) ys2[i] = lib(xs[i]);
    double t2 = seconds();
    static const char *const names[] = {"baseline", "AVX2", "AVX-512"};
    printf("%s: %.2f CPU-ns per value (%s path), libm %.2f CPU-ns\n", name, 1e9 * (t1 - t0) / n,
           names[vm_isa_in_use()], 1e9 * (t2 - t1) / n);
}

static void special_values(void) {
    double in[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 709.78, 710.0, 1000.0, -745.2, -746.0,
                   -1000.0, 1e-300, -1e-300};
    int n = (int)(sizeof in / sizeof *in);
    double out[16];
    vm_exp(out, in, n);
    CHECK(out[0] == 1.0 && out[1] == 1.0, "exp(+-0) = %g %g", out[0], out[1]);
    CHECK(isinf(out[2]) && out[2] > 0 && out[3] == 0.0, "exp(+-inf) = %g %g", out[2], out[3]);
    CHECK(isnan(out[4]), "exp(nan) = %g", out[4]);
    CHECK(isfinite(out[5]) && isinf(out[6]) && isinf(out[7]), "exp near overflow: %g %g %g",
          out[5], out[6], out[7]);
    CHECK(out[8] == 0.0 && out[9] == 0.0 && out[10] == 0.0, "exp near underflow: %g %g %g",
          out[8], out[9], out[10]);
    CHECK(out[11] == 1.0 && out[12] == 1.0, "exp(+-1e-300) = %g %g", out[11], out[12]);
    vm_erfc(out, in, n);
    CHECK(out[0] == 1.0 && out[1] == 1.0, "erfc(+-0) = %g %g", out[0], out[1]);
    CHECK(out[2] == 0.0 && out[3] == 2.0, "erfc(+-inf) = %g %g", out[2], out[3]);
    CHECK(isnan(out[4]), "erfc(nan) = %g", out[4]);
    CHECK(out[5] == 0.0 && out[8] == 2.0, "erfc(709.78) = %g, erfc(-745.2) = %g", out[5], out[8]);
    CHECK(out[11] == 1.0 && out[12] == 1.0, "erfc(+-1e-300) = %g %g", out[11], out[12]);
}

int main(void) {
    special_values();
    /* exp: the whole double range; the pricer's discount factors exp(-r tau) (|r tau| < 5)
     * and the dense middle */
    static const double exp_ranges[][2] = {{-745.5, 709.9}, {-5.0, 5.0}, {-0.5, 0.5},
                                           {-1e-6, 1e-6}, {-745.5, -700.0}, {700.0, 709.9}};
    int n = fill(exp_ranges, 6);
    check_kernel("exp", vm_exp, exp, expl, n, EXP_MAX_ULPS);
    timing("exp", vm_exp, exp, n);
    /* erfc: the normal CDF's arguments -d / sqrt(2) of the options (|d| up to ~10 in any
     * book), the ends of Cody's intervals, and the tails to underflow (26.55) and beyond */
    static const double erfc_ranges[][2] = {{-6.0, 6.0}, {-0.46875, 0.46875}, {0.46, 0.48},
                                            {3.99, 4.01}, {-4.01, -3.99}, {4.0, 27.5},
                                            {25.0, 27.0}, {-1e-8, 1e-8}};
    n = fill(erfc_ranges, 8);
    check_kernel("erfc", vm_erfc, erfc, erfcl, n, ERFC_MAX_ULPS);
    timing("erfc", vm_erfc, erfc, n);
    static const char *const names[] = {"baseline", "AVX2", "AVX-512"};
    printf("instruction set in use: %s\n", names[vm_isa_in_use()]);
    return failures;
}
