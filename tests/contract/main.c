/* main.c — `contract TRANSPORT [CASE...]`: runs the transport contract cases (contract.c)
 * against self, shm or verbs, each with its default number of forked ranks; one line per case
 * ("PASS name" or "FAIL name: why"), then "contract TRANSPORT: N passed, M failed". Exit 0 when
 * all passed. tests/vm/run-verbs-suite runs it for verbs; the host's unit tests run the same
 * cases for self and shm. */
#include <stdio.h>
#include <string.h>

#include "contract.h"

int main(int argc, char **argv)
{
    const tp_ops_t *all[] = {&tp_self_ops, &tp_shm_ops, &tp_verbs_ops}, *ops = NULL;
    for (size_t i = 0; argc > 1 && i < sizeof(all) / sizeof(all[0]); i++)
        if (!strcmp(argv[1], all[i]->name))
            ops = all[i];
    if (!ops) {
        fprintf(stderr, "usage: %s self|shm|verbs [case...]\ncases:", argv[0]);
        for (int i = 0; i < ct_ncases; i++)
            fprintf(stderr, " %s", ct_cases[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    int passed = 0, failed = 0;
    for (int i = 0; i < ct_ncases; i++) {
        const ct_case_t *c = &ct_cases[i];
        bool wanted = argc == 2;
        for (int a = 2; a < argc; a++)
            wanted |= !strcmp(argv[a], c->name);
        int n = ct_default_ranks(ops, c);
        if (!wanted || n < c->min_ranks)
            continue;
        char why[768] = "";
        if (ct_run(ops, n, c, why, sizeof(why)) == 0) {
            printf("PASS %s (%d ranks)\n", c->name, n);
            passed++;
        } else {
            printf("FAIL %s (%d ranks): %s\n", c->name, n, why);
            failed++;
        }
        fflush(stdout);
    }
    printf("contract %s: %d passed, %d failed\n", ops->name, passed, failed);
    return failed || !passed ? 1 : 0;
}
