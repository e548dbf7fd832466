/* group.h — what the communicator layer's files share about groups (group.c): a group's
 * members (comm_create.c makes communicators of them), the session a group derives from
 * (0: none; lock NOT held), and setting it (the groups of a session's psets; a union or an
 * inclusion keeps its operands' session). */
#ifndef RMP_GROUP_H
#define RMP_GROUP_H

#include <stdbool.h>

#include "rmp.h"

typedef struct group {
    bool in_use;
    int n;
    int *world; /* member i's world rank */
    int session; /* the session it derives from (a pset's group, and groups made of it), 0 */
} group_t;

/* The group of a handle, NULL if invalid (lock held). */
group_t *group_get(rmp_group_t h);
/* Position of world rank w in g, or RMP_UNDEFINED. */
int group_pos(const group_t *g, int w);
int group_session(rmp_group_t group);
void group_set_session(rmp_group_t group, int session);

#endif
