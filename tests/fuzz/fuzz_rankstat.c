/* fuzz-sources: launcher/rankstat.c */
/* fuzz_rankstat.c — mrun's parser of the status lines a rank writes (launcher/rankstat.c):
 * any bytes, split at any points, must leave a state that only names ranks of the job and
 * never reads or writes outside its line buffer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../launcher/rankstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int nprocs = 1 + data[0] % 16; /* the job size, from the first byte */
    size_t cut = data[1] % (size - 1); /* one read split into two at a random point */
    rankstat_t st;
    rankstat_init(&st, -1);
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    if (cut > len)
        cut = len;
    rankstat_feed(&st, text, (int)cut, nprocs);
    rankstat_feed(&st, text + cut, (int)(len - cut), nprocs);
    if (st.saw_peer < -1 || st.saw_peer >= nprocs || st.len < 0 || st.len > (int)sizeof st.buf)
        abort();
    return 0;
}
