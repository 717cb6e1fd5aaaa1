/* vmath_impl.h: the kernels of vmath.c, included there once per instruction set with
 * VM_ATTR (the target attribute of every function) and VM_NAME(base) (their names) defined.
 * Every lane is computed the same way whatever the others hold; a test of a mask only skips
 * an interval no lane needs, so it never changes a result. */

static inline VM_ATTR vm_d VM_NAME(sel)(vm_i m, vm_d a, vm_d b) {
    return (vm_d)(((vm_i)a & m) | ((vm_i)b & ~m));
}

static inline __attribute__((always_inline)) VM_ATTR int VM_NAME(any)(vm_i m) { return VM_ANY(m); }

/* exp(hi + lo) where lo is small against hi or hi is exact (lo = 0 for a plain exp).
 * k = round((hi + lo) / ln 2) by the 1.5 * 2^52 rounding constant (its low bits are then k);
 * r = ((hi - k ln2_hi) + lo) - k ln2_lo, the first difference exact (Cody and Waite, "Software
 * Manual for the Elementary Functions", 1980: ln2_hi has 32 significant bits, so k ln2_hi
 * is exact for |k| < 2^21); exp(r) by the Taylor series to r^13/13! (|r| <= 0.347: the
 * next term is below 4.3e-18 of the result); then the product with 2^k, exact for a normal
 * result. wide = 0 promises -708 <= hi + lo <= 709 in every lane (2^k is one normal
 * double; wide = -1 promises |hi + lo| <= 0.34, so k = 0 and the reduction is skipped: the
 * same operations give the same bits); wide = 1 takes any argument: beyond the double range clamped (exp(710) = inf,
 * exp(-746) = 0), 2^k = 2^k1 2^k2 with k1 = round(k/2), so that a result in the subnormal
 * range is rounded once, by the last product. Both give the same bits where both apply.
 * NaN gives NaN. */
static inline __attribute__((always_inline)) VM_ATTR vm_d VM_NAME(exp_hl)(vm_d hi, vm_d lo,
                                                                         int wide) {
    if (wide) {
        vm_d x = hi + lo;
        vm_i over = x > VM_SPLAT(710.0), under = x < VM_SPLAT(-746.0);
        hi = VM_NAME(sel)(over, VM_SPLAT(710.0), VM_NAME(sel)(under, VM_SPLAT(-746.0), hi));
        lo = VM_NAME(sel)(over | under, VM_SPLAT(0.0), lo);
    }
    vm_d x = hi + lo;
    vm_d t = x * VM_SPLAT(VM_LOG2E) + VM_SPLAT(VM_ROUND);
    vm_d kd = t - VM_SPLAT(VM_ROUND);
    vm_i k = (vm_i)t - (vm_i)VM_SPLAT(VM_ROUND);
    vm_d r = wide < 0 ? x : ((hi - kd * VM_SPLAT(VM_LN2_HI)) + lo) - kd * VM_SPLAT(VM_LN2_LO);
    /* 1 + r (1 + r T(r)): the last two steps by Horner (they carry the result's rounding),
     * T = 1/2! + r/3! + ... + r^11/13! by Estrin's scheme (pairs, then r^2, r^4, r^8), a
     * short dependency chain */
    vm_d r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    vm_d t23 = 0.5 + r * (1.0 / 6.0), t45 = 1.0 / 24.0 + r * (1.0 / 120.0);
    vm_d t67 = 1.0 / 720.0 + r * (1.0 / 5040.0), t89 = 1.0 / 40320.0 + r * (1.0 / 362880.0);
    vm_d t1011 = 1.0 / 3628800.0 + r * (1.0 / 39916800.0);
    vm_d t1213 = 1.0 / 479001600.0 + r * (1.0 / 6227020800.0);
    vm_d tt = (t23 + t45 * r2) + (t67 + t89 * r2) * r4 + (t1011 + t1213 * r2) * r8;
    vm_d p = 1.0 + r * (1.0 + r * tt);
    if (wide < 0) return p;
    if (!wide) return p * (vm_d)((k + 1023) << 52);
    vm_d t1 = kd * VM_SPLAT(0.5) + VM_SPLAT(VM_ROUND);
    vm_i k1 = (vm_i)t1 - (vm_i)VM_SPLAT(VM_ROUND), k2 = k - k1;
    vm_d s1 = (vm_d)((k1 + 1023) << 52), s2 = (vm_d)((k2 + 1023) << 52);
    return p * s1 * s2;
}

/* erfc by Cody's three approximations (vmath.h), with y = |x| clamped to 28 (erfc(26.6)
 * is already below the smallest subnormal):
 *   y <= 0.46875:     erf(x) = x A(y^2) / B(y^2),         erfc = 1 - erf;
 *   0.46875 < y <= 4: erfc(y) = exp(-y^2) C(y) / D(y);
 *   y > 4:            erfc(y) = exp(-y^2) (1/sqrt(pi) - R(1/y^2) / y^2) / y, R = P / Q,
 *                     here with numerator and denominator multiplied by y^10 so that
 *                     the three cases share one division: polynomials in w = y^2 with
 *                     Cody's coefficients in reverse order;
 *   x < 0 (the last two): erfc(x) = 2 - erfc(y).
 * exp(-y^2) = exp(-(s^2) - (y - s)(y + s)), s = y rounded to a multiple of 1/16 (s^2 is
 * exact; Cody truncates, rounding keeps |y - s| <= 1/32), in one exp_hl. */
static inline __attribute__((always_inline)) VM_ATTR vm_d VM_NAME(erfc)(vm_d x) {
    vm_i neg = x < VM_SPLAT(0.0);
    vm_d y = VM_NAME(sel)(neg, -x, x);
    y = VM_NAME(sel)(y > VM_SPLAT(28.0), VM_SPLAT(28.0), y);
    vm_i small = y <= VM_SPLAT(0.46875), big = y > VM_SPLAT(4.0);
    vm_i mid = ~(small | big);
    vm_d num = VM_SPLAT(0.0), den = VM_SPLAT(1.0);
    /* the polynomials by Estrin's scheme, as exp's (ascending powers in the comments) */
    if (VM_NAME(any)(small)) {
        vm_d z = y * y, z2 = z * z;
        /* A: a4 a3 a2 a1 a5;  B: b4 b3 b2 b1 1 */
        vm_d a = (3.20937758913846947e03 + 3.77485237685302021e02 * z) +
                 (1.13864154151050156e02 + 3.16112374387056560e00 * z) * z2 +
                 1.85777706184603153e-1 * (z2 * z2);
        vm_d b = (2.84423683343917062e03 + 1.28261652607737228e03 * z) +
                 (2.44024637934444173e02 + 2.36012909523441209e01 * z) * z2 + z2 * z2;
        num = VM_NAME(sel)(small, x * a, num);
        den = VM_NAME(sel)(small, b, den);
    }
    if (VM_NAME(any)(mid)) {
        vm_d y2 = y * y, y4 = y2 * y2;
        /* C: c8 c7 c6 c5 c4 c3 c2 c1 c9;  D: d8 d7 d6 d5 d4 d3 d2 d1 1 */
        vm_d c = ((1.23033935479799725e03 + 2.05107837782607147e03 * y) +
                  (1.71204761263407058e03 + 8.81952221241769090e02 * y) * y2) +
                 ((2.98635138197400131e02 + 6.61191906371416295e01 * y) +
                  (8.88314979438837594e00 + 5.64188496988670089e-1 * y) * y2) * y4 +
                 2.15311535474403846e-8 * (y4 * y4);
        vm_d d = ((1.23033935480374942e03 + 3.43936767414372164e03 * y) +
                  (4.36261909014324716e03 + 3.29079923573345963e03 * y) * y2) +
                 ((1.62138957456669019e03 + 5.37181101862009858e02 * y) +
                  (1.17693950891312499e02 + 1.57449261107098347e01 * y) * y2) * y4 +
                 y4 * y4;
        num = VM_NAME(sel)(mid, c, num);
        den = VM_NAME(sel)(mid, d, den);
    }
    if (VM_NAME(any)(big)) {
        vm_d w = y * y, w2 = w * w;
        /* P reversed: p6 p1 p2 p3 p4 p5;  Q reversed: 1 q1 q2 q3 q4 q5 */
        vm_d p = (1.63153871373020978e-2 + 3.05326634961232344e-1 * w) +
                 (3.60344899949804439e-1 + 1.25781726111229246e-1 * w) * w2 +
                 (1.60837851487422766e-2 + 6.58749161529837803e-4 * w) * (w2 * w2);
        vm_d q = (1.0 + 2.56852019228982242e00 * w) +
                 (1.87295284992346047e00 + 5.27905102951428412e-1 * w) * w2 +
                 (6.05183413124413191e-2 + 2.33520497626869185e-3 * w) * (w2 * w2);
        vm_d wq = w * q;
        num = VM_NAME(sel)(big, wq * VM_SPLAT(VM_RSQRT_PI) - p, num);
        den = VM_NAME(sel)(big, y * wq, den);
    }
    vm_d ratio = num / den;
    if (!VM_NAME(any)(~small)) return VM_SPLAT(1.0) - ratio; /* no lane needs exp(-y^2) */
    vm_d s = (y * VM_SPLAT(16.0) + VM_SPLAT(VM_ROUND) - VM_SPLAT(VM_ROUND)) * VM_SPLAT(0.0625);
    vm_d hi = -(s * s), lo = -((y - s) * (y + s));
    /* -y^2 >= -708 unless y > 26.6, where erfc is subnormal or 0 */
    vm_d e = VM_NAME(any)(y > VM_SPLAT(26.5)) ? VM_NAME(exp_hl)(hi, lo, 1)
                                              : VM_NAME(exp_hl)(hi, lo, 0);
    vm_d tail = e * ratio;
    tail = VM_NAME(sel)(neg, VM_SPLAT(2.0) - tail, tail);
    return VM_NAME(sel)(small, VM_SPLAT(1.0) - ratio, tail);
}

/* The arrays, VM_LANES at a time; the last few elements go through a zero-padded vector. */
#define VM_ARRAY(name, kernel)                                                  \
    static VM_ATTR void VM_NAME(name)(double *y, const double *x, int n) {      \
        int i = 0;                                                              \
        for (; i + VM_LANES <= n; i += VM_LANES) {                              \
            vm_d v;                                                             \
            memcpy(&v, x + i, sizeof v);                                        \
            v = kernel;                                                         \
            memcpy(y + i, &v, sizeof v);                                        \
        }                                                                       \
        if (i < n) {                                                            \
            double t[VM_LANES] = {0};                                           \
            memcpy(t, x + i, sizeof(double) * (size_t)(n - i));                 \
            vm_d v;                                                             \
            memcpy(&v, t, sizeof v);                                            \
            v = kernel;                                                         \
            memcpy(t, &v, sizeof v);                                            \
            memcpy(y + i, t, sizeof(double) * (size_t)(n - i));                 \
        }                                                                       \
    }
/* the plain exp takes the short paths when every lane lies in [-708, 709] or in [-0.34, 0.34]
 * (discount factors over a year or two: NaN does not) */
VM_ARRAY(exp_array, VM_NAME(any)(~((v >= VM_SPLAT(-708.0)) & (v <= VM_SPLAT(709.0))))
                        ? VM_NAME(exp_hl)(v, VM_SPLAT(0.0), 1)
                    : VM_NAME(any)(~((v >= VM_SPLAT(-0.34)) & (v <= VM_SPLAT(0.34))))
                        ? VM_NAME(exp_hl)(v, VM_SPLAT(0.0), 0)
                        : VM_NAME(exp_hl)(v, VM_SPLAT(0.0), -1))
VM_ARRAY(erfc_array, VM_NAME(erfc)(v))
#undef VM_ARRAY
