/* fuzz-sources: runtime/util/knobs.c */
/* fuzz_knobs.c — libFuzzer target for the RMP_* knob parser (runtime/util/knobs.c). Input: one
 * byte choosing the knob (or, above KNOB_COUNT, a made-up knob with extreme bounds), then the
 * value text; or "=NAME=VALUE" to look NAME up (and for typos) before parsing VALUE. Checks
 * the parser's promises: a value is accepted only within the knob's range or set, a refusal
 * always comes with one line that names the variable, and nothing is read or written out of
 * bounds (ASan, UBSan). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond))                                                                           \
            __builtin_trap();                                                                  \
    } while (0)

/* Bounds the table does not use: the whole of long long, and a range below zero. */
static const knob_t extra[] = {
    {"RMP_FUZZ_SIZE", KNOB_SIZE, 0, LLONG_MAX, NULL, NULL, NULL, NULL, "fuzz"},
    {"RMP_FUZZ_INT", KNOB_INT, LLONG_MIN, LLONG_MAX, NULL, NULL, NULL, NULL, "fuzz"},
    {"RMP_FUZZ_NEG", KNOB_INT, -1000, -10, NULL, NULL, NULL, NULL, "fuzz"},
    {"RMP_FUZZ_SMALL", KNOB_SIZE, 3, 1000, NULL, NULL, NULL, NULL, "fuzz"},
};

static void check_one(const knob_t *k, const char *text)
{
    knob_val_t v;
    memset(&v, 0xa5, sizeof(v));
    char err[600];
    memset(err, 0, sizeof(err));
    size_t errlen = 1 + (unsigned char)text[0] % sizeof(err); /* short buffers too */
    int rc = knob_parse(k, text, &v, err, errlen);
    if (rc != 0) {
        CHECK(rc == -1);
        CHECK(err[errlen - 1] == '\0');
        CHECK(strchr(err, '\n') == NULL);
        CHECK(strncmp(err, k->name, strnlen(err, strlen(k->name))) == 0);
        return;
    }
    CHECK(v.set);
    CHECK(strcmp(v.text, text) == 0);
    switch (k->type) {
    case KNOB_BOOL:
        CHECK(v.num == 0 || v.num == 1);
        break;
    case KNOB_INT:
    case KNOB_SIZE:
        CHECK(v.num >= k->min && v.num <= k->max);
        CHECK(text[0] >= '0' ? 1 : text[0] == '-'); /* no sign but '-', no blank */
        break;
    case KNOB_ENUM:
        CHECK(v.num >= 0 && strcmp(k->set[v.num], text) == 0);
        break;
    case KNOB_STRING:
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0'; /* the text stops at the first NUL, as in the environment */
    const knob_t *k = NULL;
    const char *text = s;
    if (data[0] == '=') {
        char *eq = strchr(s, '=');
        if (eq)
            *eq = '\0', text = eq + 1;
        k = knob_find(s);
        const knob_t *t = knob_suggest(s);
        CHECK(!t || !k); /* a knob's own name is never a typo */
        if (!k)
            k = t;
    } else {
        unsigned i = data[0] % (KNOB_COUNT + sizeof(extra) / sizeof(extra[0]));
        k = i < KNOB_COUNT ? &knob_table[i] : &extra[i - KNOB_COUNT];
    }
    if (k)
        check_one(k, text);
    free(s);
    return 0;
}
