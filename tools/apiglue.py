"""apiglue — the large-count (_c) forms that are pure forwarding, generated from api/mpi.api
(tools/gen-api glue). A _c form is forwarding when its int form differs only in scalar COUNT
arguments each followed by its DATATYPE: then MPI_X_c(..., count, type, ...) is MPI_X(...,
v.count, v.type, ...) with (v.count, v.type) = (count, type) when count is within int, else
(1, one derived type holding count elements) (rmpi_bc_make, mpi/bigcount.h). Where a count
cannot travel so, the form fails with the COUNT kind's class (MPI_ERR_COUNT): a persistent
request (an *_init: rmp rebuilds its schedule from the types at each start, so a type of ours
would have to outlive the call) and a reduction with a user op (the op must see the program's
own type). Every other bigcount entry must be named in HAND_WRITTEN (mpi/bigcount*.c) —
the generator stops on one that is neither, so no _c form is silently missing.
"""
import apilib

# The _c forms written by hand in mpi/bigcount*.c (and MPI-IO's in mpi/io*.c): they convert arrays, outputs or
# arguments that are not a (count, datatype) pair, or split reductions into pieces.
HAND_WRITTEN = {
    # bigcount.c (blocking point-to-point, collectives, the first datatype calls)
    "MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Recv",
    "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Get_count", "MPI_Get_elements",
    "MPI_Type_size", "MPI_Type_get_extent", "MPI_Type_contiguous", "MPI_Type_vector",
    "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan",
    "MPI_Reduce_scatter_block", "MPI_Gather", "MPI_Scatter", "MPI_Allgather", "MPI_Alltoall",
    "MPI_Gatherv", "MPI_Scatterv", "MPI_Allgatherv", "MPI_Alltoallv",
    # bigcount_type.c (constructors with count arrays, decoding, extents)
    "MPI_Type_indexed", "MPI_Type_create_hvector", "MPI_Type_create_hindexed",
    "MPI_Type_create_hindexed_block", "MPI_Type_create_indexed_block",
    "MPI_Type_create_struct", "MPI_Type_create_subarray", "MPI_Type_create_darray",
    "MPI_Type_create_resized", "MPI_Type_get_true_extent", "MPI_Type_get_envelope",
    "MPI_Type_get_contents",
    # bigcount_misc.c (byte counts that are no (count, type) pair: packing, buffers, windows)
    "MPI_Pack", "MPI_Unpack", "MPI_Pack_size", "MPI_Pack_external", "MPI_Unpack_external",
    "MPI_Pack_external_size", "MPI_Buffer_attach", "MPI_Buffer_detach",
    "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_shared_query",
    "MPI_Op_create",
    # bigcount_v.c (v- and w-forms: arrays of counts and displacements)
    "MPI_Alltoallw", "MPI_Ialltoallw", "MPI_Alltoallw_init", "MPI_Neighbor_alltoallw",
    "MPI_Ineighbor_alltoallw", "MPI_Neighbor_alltoallw_init", "MPI_Igatherv", "MPI_Iscatterv",
    "MPI_Iallgatherv", "MPI_Ialltoallv", "MPI_Gatherv_init", "MPI_Scatterv_init",
    "MPI_Allgatherv_init", "MPI_Alltoallv_init", "MPI_Neighbor_allgatherv",
    "MPI_Neighbor_alltoallv", "MPI_Ineighbor_allgatherv", "MPI_Ineighbor_alltoallv",
    "MPI_Neighbor_allgatherv_init", "MPI_Neighbor_alltoallv_init", "MPI_Reduce_scatter",
    "MPI_Ireduce_scatter", "MPI_Reduce_scatter_init",
    # mpi/io.c, mpi/io_data.c (MPI-IO: the file's own count path, a Count extent, the
    # conversion functions' MPI_Count form)
    "MPI_File_get_type_extent", "MPI_Register_datarep",
    *("MPI_File_" + x + y for x in ("read", "write") for y in (
        "_at", "_at_all", "", "_all", "_shared", "_ordered", "_at_all_begin", "_all_begin",
        "_ordered_begin")),
    *("MPI_File_i" + x + y for x in ("read", "write") for y in (
        "_at", "_at_all", "", "_all", "_shared")),
}


class NotForwarding(Exception):
    pass


def pairs(e):
    """Indices of the COUNT arguments (each followed by its DATATYPE) of a forwarding form."""
    out = []
    for i, a in enumerate(e.args):
        if a.big_decl() == a.decl:
            continue
        nxt = e.args[i + 1] if i + 1 < len(e.args) else None
        if a.kind != "COUNT" or a.is_array or a.dir != "in" or "c_big" in a.attrs \
                or not nxt or nxt.kind != "DATATYPE" or nxt.is_array:
            raise NotForwarding(f"{a.name} is no scalar (count, datatype) pair")
        out.append(i)
    if len(e.all_args) != len(e.args) or not out:
        raise NotForwarding("the _c form has other arguments")
    return out


def raiser(e, cls=None):
    """How the form raises an error it detects: on the first communicator's or window's
    handler (as its int form does), else on MPI_COMM_WORLD's; with cls, as that MPI class
    (the one the argument's kind implies, apilib.KIND_CLASS, or its err= override)."""
    on, fn = "MPI_COMM_WORLD", "rmpi_raise"
    for a in e.args:
        if a.kind in ("COMM", "WIN") and not a.is_array and a.dir == "in":
            on, fn = a.name, "rmpi_raise" if a.kind == "COMM" else "rmpi_raise_win"
            break
    if cls:
        return f"{fn}_code({on}, {cls}, __func__)"
    return f"{fn}({on}, rc, __func__)"


def count_class(a):
    return a.attrs.get("err") or apilib.KIND_CLASS[a.kind]


def big_ok(e):
    if e.name.endswith("_init"):
        return "false"
    op = next((a for a in e.args if a.kind == "OP" and a.dir == "in"), None)
    return f"rmpi_op_builtin({op.name})" if op else "true"


def forward(e, wrap):
    idx = pairs(e)
    vs = {i: f"v{k}" for k, i in enumerate(idx)}
    ok = big_ok(e)
    body = [f"    rmpi_bc_t {', '.join(vs.values())};", "    int rc;"]
    conds = []
    for i in idx:
        conds.append(f"(rc = rmpi_bc_make({e.args[i].name}, {e.args[i + 1].name}, {ok}, "
                     f"&{vs[i]}))")
    # make each pair in turn; on a failure free those made before it
    for k, i in enumerate(idx):
        body.append(f"    if ({conds[k]}) {{")
        for j in reversed(idx[:k]):
            body.append(f"        rmpi_bc_free(&{vs[j]});")
        # a count no derived type can carry here: the class of the count's kind
        body.append(f"        return rc == RMP_ERR_COUNT ? {raiser(e, count_class(e.args[i]))}")
        body.append(f"                                   : {raiser(e)};")
        body.append("    }")
    call = []
    for i, a in enumerate(e.args):
        if i in vs:
            call.append(f"{vs[i]}.count")
        elif i - 1 in vs:
            call.append(f"{vs[i - 1]}.type")
        else:
            call.append(a.name)
    body.append(wrap(f"    rc = {e.name}", call))
    for i in idx:
        body.append(f"    rmpi_bc_free(&{vs[i]});")
    body.append("    return rc;")
    head = wrap(f"{e.ret} {e.name}_c", e.big_decls(), tail="")
    return head + "\n{\n" + "\n".join(body) + "\n}\n"


def glue(api, wrap):
    out = ["/* api_glue.c — GENERATED from api/mpi.api by tools/gen-api glue: do not edit. The",
           " * large-count forms that are pure forwarding to their int forms (tools/apiglue.py",
           " * says how; the others are in mpi/bigcount*.c). */",
           "#include <stdbool.h>", "", '#include "bigcount.h"', '#include "rmpi.h"', ""]
    errors = []
    for e in api.entries:
        if not e.bigcount or e.name in HAND_WRITTEN:
            continue
        try:
            out.append(forward(e, wrap))
        except NotForwarding as why:
            errors.append(f"{e.name}_c: {why}: write it in mpi/bigcount*.c and name it in "
                          f"tools/apiglue.py's HAND_WRITTEN")
    if errors:
        raise apilib.ApiError("\n".join(errors))
    return "\n".join(out)
