/* objmeta.h — what the runtime keeps about communicators, datatypes and windows besides their
 * own tables: the names programs give them and, for communicators and windows, the info hints
 * set on them (objmeta.c). Kept apart so that those tables stay as they are; the owners of
 * the handles call objmeta_forget when a handle is released, so that its next owner starts
 * without a name or hints. */
#ifndef RMP_OBJMETA_H
#define RMP_OBJMETA_H

#include <stdbool.h>

#include "rmp.h"

enum { OBJ_COMM = 0, OBJ_TYPE = 1, OBJ_WIN = 2, OBJ_NKINDS };

/* The handle h of that kind is gone (any lock may be held: this takes only its own mutex
 * and the info table's). */
void objmeta_forget(int kind, int h);
/* child gets a copy of parent's hints (rmp_comm_dup). RMP_SUCCESS or RMP_ERR_NO_MEM. */
int objmeta_copy_info(int kind, int parent, int child);
/* The name set on h, copied into name (RMP_MAX_OBJECT_NAME bytes): false if none was set. */
bool objmeta_name(int kind, int h, char *name);

#endif
