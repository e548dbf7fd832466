/* visibility.h — force-included (-include) first in every library object, which is compiled
 * with -fvisibility=hidden: what include/rmp.h declares keeps default visibility (the exported
 * API); any other global the library defines stays inside it (see the Makefile). */
#pragma GCC visibility push(default)
#include "rmp.h"
#pragma GCC visibility pop
