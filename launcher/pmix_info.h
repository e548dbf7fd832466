/* pmix_info.h: the job's namespace info that mrun's PMIx server registers (pmix_info.c). */
#ifndef MRUN_PMIX_INFO_H
#define MRUN_PMIX_INFO_H

#include <pmix_common.h>

#include "layout.h"

/* Job, node and rank info for namespace nspace laid out as lay, into *arr (PMIX_SUCCESS:
 * the caller destructs it) or an error from PMIx. */
pmix_status_t pmix_job_info(const char *nspace, const layout_t *lay, pmix_data_array_t *arr);

#endif
