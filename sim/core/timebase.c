#include "timebase.h"

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int tb_init(timebase_t *tb, int64_t ref_mhz, const int64_t *other_mhz, int n_other)
{
    if (ref_mhz <= 0)
        return -1;
    int64_t l = ref_mhz;
    for (int i = 0; i < n_other; i++) {
        int64_t f = other_mhz[i];
        if (f <= 0)
            return -1;
        int64_t g = gcd64(l, f);
        if (l / g > INT64_MAX / 1000000 / f)
            return -1;
        l = l / g * f;
    }
    tb->per_ps = l;
    tb->cycle = tb_period(tb, ref_mhz);
    return 0;
}
