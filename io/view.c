/* view.c — file views: a filetype flattened once, at set_view, into the runs of one element
 * (offset, length, data before), tiled every extent from disp; a view byte's file position is
 * then a division and a binary search. Also get_view, get_type_extent, get_byte_offset. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core.h"
#include "io.h"

typedef struct {
    io_frun_t *r;
    int n, cap;
    int order; /* IO_ORDER_* */
    int rc;
} io_fl_t;

enum { IO_MAX_RUNS = 1 << 26 };

static void fl_add(io_fl_t *fl, int64_t off, int64_t len)
{
    if (len <= 0 || fl->rc)
        return;
    io_frun_t *last = fl->n ? &fl->r[fl->n - 1] : NULL;
    if (last && ((fl->order >= IO_ORDER_STARTS && off < last->off) ||
                 (fl->order == IO_ORDER_DISJOINT && off < last->off + last->len))) {
        fl->rc = RMP_ERR_TYPE; /* a typemap stepping back (or overlapping itself) */
        return;
    }
    if (last && last->off + last->len == off) {
        last->len += len;
        return;
    }
    if (fl->n == fl->cap) {
        int cap = fl->cap ? 2 * fl->cap : 16;
        io_frun_t *p = cap <= IO_MAX_RUNS ? realloc(fl->r, (size_t)cap * sizeof *p) : NULL;
        if (!p) {
            fl->rc = RMP_ERR_NO_MEM;
            return;
        }
        fl->r = p;
        fl->cap = cap;
    }
    int64_t pre = last ? last->pre + last->len : 0;
    fl->r[fl->n++] = (io_frun_t){off, len, pre};
}

static int64_t fl_extent(const dtype_t *t)
{
    return t->neg_extent ? (int64_t)t->neg_extent : (int64_t)t->extent;
}

/* count elements of t at base, in typemap order (as datatype.c's dt_copy walks them). */
static void fl_walk(io_fl_t *fl, const dtype_t *t, int64_t count, int64_t base)
{
    if (t->contig) {
        fl_add(fl, base, count * (int64_t)t->size);
        return;
    }
    for (int64_t e = 0; e < count && !fl->rc; e++) {
        int64_t u = base + e * fl_extent(t);
        if (t->nblocks > 0) {
            for (int b = 0; b < t->nblocks; b++) {
                const dt_block_t *k = &t->blocks[b];
                fl_walk(fl, &rmp_ctx.dtypes[k->old], k->count, u + k->disp);
            }
            continue;
        }
        if (t->count <= 0)
            continue;
        const dtype_t *o = &rmp_ctx.dtypes[t->old];
        int64_t step = (int64_t)t->stride * fl_extent(o);
        for (int b = 0; b < t->count; b++) {
            if (o->contig)
                fl_add(fl, u + b * step, (int64_t)t->blocklen * (int64_t)o->size);
            else
                fl_walk(fl, o, t->blocklen, u + b * step);
        }
    }
}

int io_flatten(rmp_datatype_t type, int64_t count, int order, io_frun_t **runs, int *n)
{
    const dtype_t *t = dtype_get(type, true);
    if (!t)
        return RMP_ERR_TYPE;
    io_fl_t fl = {.order = order};
    fl_walk(&fl, t, count, 0);
    if (fl.rc) {
        free(fl.r);
        return fl.rc;
    }
    *runs = fl.r;
    *n = fl.n;
    return RMP_SUCCESS;
}

void io_view_free(io_view_t *v)
{
    free(v->runs);
    v->runs = NULL;
    const dtype_t *t;
    if ((t = dtype_get(v->etype, false)) && !t->builtin)
        rmp_type_free(&v->etype);
    if ((t = dtype_get(v->filetype, false)) && !t->builtin)
        rmp_type_free(&v->filetype);
    v->etype = v->filetype = RMP_BYTE;
}

int io_view_default(io_view_t *v)
{
    memset(v, 0, sizeof *v);
    v->etype = v->filetype = RMP_BYTE;
    v->esize = v->tsize = v->textent = 1;
    strcpy(v->datarep, "native");
    v->rep = IO_REP_NATIVE;
    return io_flatten(RMP_BYTE, 1, IO_ORDER_DISJOINT, &v->runs, &v->nruns);
}

/* The run holding data byte `within` of a filetype element. */
static int run_of(const io_view_t *v, int64_t within)
{
    int lo = 0, hi = v->nruns - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (v->runs[mid].pre <= within)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int runs_push(io_run_t **out, size_t *n, size_t *cap, int64_t off, int64_t len, char *mem)
{
    if (*n && (*out)[*n - 1].off + (*out)[*n - 1].len == off &&
        (*out)[*n - 1].mem + (*out)[*n - 1].len == mem) {
        (*out)[*n - 1].len += len;
        return RMP_SUCCESS;
    }
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 16;
        io_run_t *p = realloc(*out, c * sizeof *p);
        if (!p)
            return RMP_ERR_NO_MEM;
        *out = p;
        *cap = c;
    }
    (*out)[(*n)++] = (io_run_t){off, len, mem};
    return RMP_SUCCESS;
}

int io_view_runs(const io_view_t *v, int64_t vpos, int64_t len, char *base, io_run_t **out,
                 size_t *n)
{
    size_t cap = *n;
    int64_t done = 0;
    while (done < len) {
        int64_t p = vpos + done, tile = p / v->tsize, within = p % v->tsize;
        const io_frun_t *r = &v->runs[run_of(v, within)];
        int64_t in_run = within - r->pre, take = r->len - in_run;
        if (take > len - done)
            take = len - done;
        int64_t off = v->disp + tile * v->textent + r->off + in_run;
        if (off < 0)
            return RMP_ERR_ARG; /* the view reaches before the file's start */
        int rc = runs_push(out, n, &cap, off, take, base + done);
        if (rc != RMP_SUCCESS)
            return rc;
        done += take;
    }
    return RMP_SUCCESS;
}

static bool runs_nonneg(const io_frun_t *r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i].off < 0)
            return false;
    return true;
}

/* MPI-3.1 13.3: an etype's (and filetype's) typemap has nonnegative displacements, in
 * increasing order and not overlapping where the file is written (ROMIO: MPI_ERR_IO). */
static int view_typemap_ok(rmp_datatype_t type, bool ro)
{
    io_frun_t *r;
    int n;
    int rc = io_flatten(type, 1, ro ? IO_ORDER_STARTS : IO_ORDER_DISJOINT, &r, &n);
    if (rc == RMP_ERR_TYPE || (rc == RMP_SUCCESS && !runs_nonneg(r, n)))
        rc = RMP_ERR_IO;
    if (rc == RMP_SUCCESS)
        free(r);
    return rc;
}

/* set_view's checks and the new view, on this rank. */
static int view_make(io_file_t *f, rmp_offset_t disp, rmp_datatype_t etype,
                     rmp_datatype_t filetype, const char *datarep, io_view_t *v)
{
    const dtype_t *et = dtype_get(etype, true), *ft = dtype_get(filetype, true);
    if (!et || !ft)
        return RMP_ERR_TYPE;
    if (!datarep)
        return RMP_ERR_ARG;
    if (disp < 0 && disp != RMP_DISPLACEMENT_CURRENT)
        return RMP_ERR_ARG;
    if ((disp == RMP_DISPLACEMENT_CURRENT) != !!(f->amode & RMP_FMODE_SEQUENTIAL))
        return RMP_ERR_ARG; /* the shared pointer's place, for sequential files only */
    if (et->size == 0 || ft->size % et->size != 0 || ft->size == 0)
        return RMP_ERR_ARG; /* MPI: a filetype is made of whole etypes */
    bool ro = f->amode & RMP_FMODE_RDONLY;
    if (ft->neg_extent || (ft->extent < ft->size && !ro))
        return RMP_ERR_IO; /* elements would overlap each other */
    int rc = view_typemap_ok(etype, ro);
    if (rc != RMP_SUCCESS)
        return rc;
    memset(v, 0, sizeof *v);
    v->etype = v->filetype = RMP_BYTE;
    rc = io_rep_lookup(datarep, &v->rep, &v->rep_user);
    if (rc != RMP_SUCCESS)
        return rc;
    snprintf(v->datarep, sizeof v->datarep, "%s", datarep);
    v->esize = (int64_t)et->size;
    v->tsize = (int64_t)ft->size;
    v->textent = (int64_t)ft->extent;
    rc = io_flatten(filetype, 1, ro ? IO_ORDER_STARTS : IO_ORDER_DISJOINT, &v->runs, &v->nruns);
    if (rc == RMP_ERR_TYPE || (rc == RMP_SUCCESS && !runs_nonneg(v->runs, v->nruns)))
        rc = RMP_ERR_IO;
    if (rc == RMP_SUCCESS && !ro && v->nruns &&
        v->runs[v->nruns - 1].off + v->runs[v->nruns - 1].len > (int64_t)ft->lb + v->textent)
        rc = RMP_ERR_IO; /* data past the extent: tiles would overlap */
    if (rc == RMP_SUCCESS && !et->builtin)
        rc = rmp_type_dup(etype, &v->etype);
    else if (rc == RMP_SUCCESS)
        v->etype = etype;
    if (rc == RMP_SUCCESS && !ft->builtin)
        rc = rmp_type_dup(filetype, &v->filetype);
    else if (rc == RMP_SUCCESS)
        v->filetype = filetype;
    if (rc == RMP_SUCCESS && disp == RMP_DISPLACEMENT_CURRENT) {
        int64_t sh;
        rc = io_shared_fetch_add(f, 0, &sh);
        disp = f->view.disp + sh * f->view.esize; /* the old view's pointer, in bytes */
    }
    v->disp = disp;
    return rc;
}

int rmp_file_set_view(rmp_file_t fh, rmp_offset_t disp, rmp_datatype_t etype,
                      rmp_datatype_t filetype, const char *datarep, rmp_info_t info)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (f->split)
        return RMP_ERR_REQUEST;
    io_view_t v;
    int rc = view_make(f, disp, etype, filetype, datarep, &v);
    if (rc == RMP_SUCCESS)
        rc = io_hints_set(f, info);
    rc = io_agree(f->comm, rc);
    if (rc != RMP_SUCCESS) {
        io_view_free(&v);
        return rc;
    }
    io_view_free(&f->view);
    f->view = v;
    f->pos = 0;
    if (f->rank == 0)
        rc = io_shared_set(f, 0);
    return io_agree(f->comm, rc);
}

int rmp_file_get_view(rmp_file_t fh, rmp_offset_t *disp, rmp_datatype_t *etype,
                      rmp_datatype_t *filetype, char *datarep)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!disp || !etype || !filetype || !datarep)
        return RMP_ERR_ARG;
    *disp = f->view.disp;
    *etype = f->view.etype;
    *filetype = f->view.filetype;
    strcpy(datarep, f->view.datarep);
    return RMP_SUCCESS;
}

int rmp_file_get_type_extent(rmp_file_t fh, rmp_datatype_t type, ptrdiff_t *extent)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!extent)
        return RMP_ERR_ARG;
    int64_t e;
    int rc = io_rep_size(&f->view, type, &e);
    if (rc == RMP_SUCCESS)
        *extent = (ptrdiff_t)e;
    return rc;
}

int rmp_file_get_byte_offset(rmp_file_t fh, rmp_offset_t offset, rmp_offset_t *disp)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!disp || offset < 0)
        return RMP_ERR_ARG;
    const io_view_t *v = &f->view;
    int64_t p = offset * v->esize, tile = p / v->tsize, within = p % v->tsize;
    const io_frun_t *r = &v->runs[run_of(v, within)];
    *disp = v->disp + tile * v->textent + r->off + (within - r->pre);
    return RMP_SUCCESS;
}

int io_view_end(io_file_t *f, int64_t *end)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0)
        return io_errno(errno, "fstat", f->path);
    int64_t size = (int64_t)sb.st_size;
    const io_view_t *v = &f->view;
    int64_t rel = size - v->disp, data = 0;
    if (rel > 0) {
        int64_t rem = rel % v->textent;
        data = rel / v->textent * v->tsize;
        for (int i = 0; i < v->nruns; i++) {
            int64_t in = rem - v->runs[i].off;
            data += in <= 0 ? 0 : in < v->runs[i].len ? in : v->runs[i].len;
        }
    }
    *end = (data + v->esize - 1) / v->esize; /* the first etype not wholly before the end */
    return RMP_SUCCESS;
}
