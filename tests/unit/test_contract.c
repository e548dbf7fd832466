/* test_contract.c — the transport contract (tests/contract/contract.c) against self (one
 * rank) and shm (forked ranks on this host): every case that applies, each reported by name
 * when it fails; verbs runs the same cases in the VM (tests/vm/run-verbs-suite contract). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"

/* Every case against ops; the failures, one per line, in `failed`. How many ran. */
static int run_all(const tp_ops_t *ops, char *failed, size_t len)
{
    int ran = 0;
    for (int i = 0; i < ct_ncases; i++) {
        const ct_case_t *c = &ct_cases[i];
        int n = ct_default_ranks(ops, c);
        if (n < c->min_ranks)
            continue;
        char why[768] = "";
        ran++;
        if (ct_run(ops, n, c, why, sizeof(why)) != 0)
            snprintf(failed + strlen(failed), len - strlen(failed), "\n  %s over %s (%d ranks): %s",
                     c->name, ops->name, n, why);
    }
    return ran;
}

Test(contract, self, .timeout = 300)
{
    char failed[4096] = "";
    int ran = run_all(&tp_self_ops, failed, sizeof(failed));
    int one = 0;
    for (int i = 0; i < ct_ncases; i++)
        one += ct_cases[i].min_ranks <= 1;
    cr_assert_eq(ran, one, "self runs every case that needs no other rank (%d), ran %d", one,
                 ran);
    cr_assert_str_empty(failed, "contract failures:%s", failed);
}

Test(contract, shm, .timeout = 300)
{
    char failed[4096] = "";
    int ran = run_all(&tp_shm_ops, failed, sizeof(failed));
    cr_assert_eq(ran, ct_ncases, "shm runs every case, ran %d", ran);
    cr_assert_str_empty(failed, "contract failures:%s", failed);
}

/* A case the harness does not know, and one that needs more ranks than it is given, are
 * refused with a reason, not run. */
Test(contract, refuses_what_cannot_run)
{
    cr_assert_null(ct_find("no-such-case"));
    const ct_case_t *c = ct_find("peer_failed");
    cr_assert_not_null(c);
    char why[256] = "";
    cr_assert_eq(ct_run(&tp_self_ops, 1, c, why, sizeof(why)), -1);
    cr_assert_str_eq(why, "peer_failed needs 2 to 8 ranks, not 1");
}
