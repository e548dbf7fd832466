/* hints.c — the hints a file uses, read from an info object (open, set_view, set_info) and
 * reported by get_info with the values in force, defaults included, as ROMIO does: a program
 * learns what collective buffering and data sieving will do. Keys rmp does not use are not
 * kept (MPI: get_info returns the hints actually used). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

enum { IO_CB_BUFFER = 16 << 20, IO_DS_BUFFER = 4 << 20, IO_DS_WBUFFER = 512 << 10 };

static int sw_parse(const char *v, int *out)
{
    if (strcmp(v, "enable") == 0)
        *out = IOH_ENABLE;
    else if (strcmp(v, "disable") == 0)
        *out = IOH_DISABLE;
    else if (strcmp(v, "automatic") == 0)
        *out = IOH_AUTO;
    else
        return RMP_ERR_INFO_VALUE;
    return RMP_SUCCESS;
}

static const char *sw_name(int v)
{
    return v == IOH_ENABLE ? "enable" : v == IOH_DISABLE ? "disable" : "automatic";
}

static int num_parse(const char *v, int64_t lo, int64_t *out)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || x < lo)
        return RMP_ERR_INFO_VALUE;
    *out = x;
    return RMP_SUCCESS;
}

/* One key of info into f->hints (unknown keys ignored). A bad value is ignored too: MPI says
 * an implementation ignores hints it cannot honour, and the value reported tells. */
static void hint_one(io_file_t *f, const char *key, const char *val)
{
    io_hints_t *h = &f->hints;
    int64_t x;
    int s;
    if (strcmp(key, "cb_buffer_size") == 0 && num_parse(val, 1, &x) == RMP_SUCCESS)
        h->cb_buffer_size = x;
    else if (strcmp(key, "cb_nodes") == 0 && num_parse(val, 1, &x) == RMP_SUCCESS)
        h->cb_nodes = (int)(x < f->size ? x : f->size);
    else if (strcmp(key, "romio_cb_write") == 0 && sw_parse(val, &s) == RMP_SUCCESS)
        h->romio_cb_write = s;
    else if (strcmp(key, "romio_cb_read") == 0 && sw_parse(val, &s) == RMP_SUCCESS)
        h->romio_cb_read = s;
    else if (strcmp(key, "romio_ds_write") == 0 && sw_parse(val, &s) == RMP_SUCCESS)
        h->ds_write = s;
    else if (strcmp(key, "romio_ds_read") == 0 && sw_parse(val, &s) == RMP_SUCCESS)
        h->ds_read = s;
    else if (strcmp(key, "striping_unit") == 0 && num_parse(val, 1, &x) == RMP_SUCCESS)
        h->striping_unit = x;
    else if (strcmp(key, "ind_rd_buffer_size") == 0 && num_parse(val, 1, &x) == RMP_SUCCESS)
        f->ind_rd_buf = x;
    else if (strcmp(key, "ind_wr_buffer_size") == 0 && num_parse(val, 1, &x) == RMP_SUCCESS)
        f->ind_wr_buf = x;
}

static int hint_put(rmp_info_t info, const char *key, long long v)
{
    char s[32];
    snprintf(s, sizeof s, "%lld", v);
    return rmp_info_set(info, key, s);
}

/* f->info from f's hints, every one with its value in force. */
static int hints_report(io_file_t *f)
{
    rmp_info_t info;
    int rc = rmp_info_create(&info);
    if (rc != RMP_SUCCESS)
        return rc;
    const io_hints_t *h = &f->hints;
    int aggs = h->cb_nodes > 0 ? h->cb_nodes : 2 * (f->nnodes > 0 ? f->nnodes : 1);
    rc |= hint_put(info, "cb_buffer_size", h->cb_buffer_size > 0 ? h->cb_buffer_size : IO_CB_BUFFER);
    rc |= hint_put(info, "cb_nodes", aggs < f->size ? aggs : f->size);
    rc |= rmp_info_set(info, "romio_cb_write", sw_name(h->romio_cb_write));
    rc |= rmp_info_set(info, "romio_cb_read", sw_name(h->romio_cb_read));
    rc |= rmp_info_set(info, "romio_ds_write", sw_name(h->ds_write));
    rc |= rmp_info_set(info, "romio_ds_read", sw_name(h->ds_read));
    rc |= hint_put(info, "ind_rd_buffer_size", f->ind_rd_buf);
    rc |= hint_put(info, "ind_wr_buffer_size", f->ind_wr_buf);
    if (h->striping_unit > 0)
        rc |= hint_put(info, "striping_unit", h->striping_unit);
    if (rc != RMP_SUCCESS) {
        rmp_info_free(&info);
        return RMP_ERR_NO_MEM;
    }
    if (f->info != RMP_INFO_NULL)
        rmp_info_free(&f->info);
    f->info = info;
    return RMP_SUCCESS;
}

int io_hints_set(io_file_t *f, rmp_info_t info)
{
    if (!f->ind_rd_buf)
        f->ind_rd_buf = IO_DS_BUFFER;
    if (!f->ind_wr_buf)
        f->ind_wr_buf = IO_DS_WBUFFER;
    int n = 0;
    if (info != RMP_INFO_NULL && rmp_info_get_nkeys(info, &n) != RMP_SUCCESS)
        return RMP_ERR_INFO;
    for (int i = 0; i < n; i++) {
        char key[RMP_MAX_INFO_KEY + 1], val[RMP_MAX_INFO_VAL + 1];
        int flag = 0;
        if (rmp_info_get_nthkey(info, i, key) == RMP_SUCCESS &&
            rmp_info_get(info, key, RMP_MAX_INFO_VAL, val, &flag) == RMP_SUCCESS && flag)
            hint_one(f, key, val);
    }
    return hints_report(f);
}

int rmp_file_set_info(rmp_file_t fh, rmp_info_t info)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    return io_agree(f->comm, io_hints_set(f, info));
}

int rmp_file_get_info(rmp_file_t fh, rmp_info_t *info)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!info)
        return RMP_ERR_ARG;
    return rmp_info_dup(f->info, info);
}
