/*
 * verbs_smoke: a one-process check that a verbs device really moves data, and a report of the
 * device limits rmp's verbs transport has to respect.
 *
 * One RC QP is connected to itself (its own QPN and GID as the destination), receives go to
 * an SRQ, and every transfer is checked byte for byte:
 *   SEND (inline when the device allows it) -> SRQ buffer
 *   SEND with immediate, several MTUs long  -> SRQ buffer
 *   RDMA WRITE, RDMA READ (multi-packet), ATOMIC FETCH_AND_ADD (when atomic_cap allows)
 *
 * Usage: verbs_smoke [-d DEVICE] [-p PORT] [-g GID_INDEX]
 *   Defaults: the first device, port 1, and the GID picked from the GID table: RoCE v2 with an
 *   IPv4-mapped address first (what rdmacm uses on RoCE), then any RoCE v2, then anything.
 * Exit status: 0 all checks passed, 1 a check failed, 77 no RDMA device (skip).
 *
 * Build: cc -std=c11 -O2 -Wall -Wextra -Werror -o verbs_smoke verbs_smoke.c -libverbs
 * Run without RDMA hardware: tests/vm/rxe-vm -- ./verbs_smoke
 */
#define _POSIX_C_SOURCE 200809L

#include <infiniband/verbs.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POLL_TIMEOUT_SEC 10

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("verbs_smoke: FAIL: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Verbs calls return either an errno value or -1 with errno set, depending on the call. */
#define CHECK(cond, what)                                                              \
	do {                                                                           \
		if (!(cond))                                                           \
			die("%s (line %d): %s", (what), __LINE__, strerror(errno));    \
	} while (0)
#define CHECK_RC(rc, what)                                                             \
	do {                                                                           \
		int rc_ = (rc);                                                        \
		if (rc_)                                                               \
			die("%s (line %d): %s", (what), __LINE__,                      \
			    strerror(rc_ > 0 ? rc_ : errno));                          \
	} while (0)

static const char *gid_type_str(uint32_t t)
{
	switch (t) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}

static const char *atomic_cap_str(enum ibv_atomic_cap c)
{
	switch (c) {
	case IBV_ATOMIC_NONE: return "NONE";
	case IBV_ATOMIC_HCA: return "HCA";
	case IBV_ATOMIC_GLOB: return "GLOB";
	default: return "unknown";
	}
}

static int mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128 << m : 0;
}

static int is_zero_gid(const union ibv_gid *g)
{
	static const union ibv_gid zero;

	return !memcmp(g, &zero, sizeof *g);
}

static int is_ipv4_mapped(const union ibv_gid *g)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	return !memcmp(g->raw, prefix, sizeof prefix);
}

static int gid_rank(const struct ibv_gid_entry *e)
{
	if (is_zero_gid(&e->gid))
		return 0;
	if (e->gid_type == IBV_GID_TYPE_ROCE_V2)
		return is_ipv4_mapped(&e->gid) ? 4 : 3;
	return e->gid_type == IBV_GID_TYPE_ROCE_V1 ? 2 : 1;
}

/*
 * Pick the GID to address ourselves with. ibv_query_gid_table returns only the valid entries in
 * one call; kernels without it get the per-index ibv_query_gid_ex. (ibv_query_gid_type is not
 * public API: it lives in infiniband/driver.h for providers.)
 */
static int pick_gid(struct ibv_context *ctx, uint8_t port, int table_len,
		    struct ibv_gid_entry *best)
{
	struct ibv_gid_entry *tab = calloc((size_t)table_len, sizeof *tab);
	ssize_t n;
	int found = 0;

	CHECK(tab, "calloc");
	n = ibv_query_gid_table(ctx, tab, (size_t)table_len, 0);
	if (n < 0) {
		n = 0;
		for (int i = 0; i < table_len; i++)
			if (!ibv_query_gid_ex(ctx, port, (uint32_t)i, &tab[n], 0))
				n++;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (tab[i].port_num != port)
			continue;
		if (!found || gid_rank(&tab[i]) > gid_rank(best)) {
			*best = tab[i];
			found = gid_rank(best) > 0;
		}
	}
	free(tab);
	return found ? 0 : -1;
}

/* The largest max_inline_data an RC QP can be created with (devices round up, so probe). */
static uint32_t probe_max_inline(struct ibv_pd *pd, struct ibv_cq *cq)
{
	uint32_t lo = 0, hi = 1u << 16;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		struct ibv_qp_init_attr a = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = {.max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
				.max_recv_sge = 1, .max_inline_data = mid},
		};
		struct ibv_qp *qp = ibv_create_qp(pd, &a);

		if (qp) {
			ibv_destroy_qp(qp);
			lo = mid;
		} else {
			hi = mid - 1;
		}
	}
	return lo;
}

static struct ibv_cq *cq;

/* Wait for n completions, failing on error status or if nothing arrives in time. */
static void poll_n(struct ibv_wc *wc, int n)
{
	struct timespec t0, now;
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < n) {
		int r = ibv_poll_cq(cq, n - got, wc + got);

		if (r < 0)
			die("ibv_poll_cq returned %d", r);
		for (int i = got; i < got + r; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				die("completion wr_id %" PRIu64 ": %s (vendor_err 0x%x)",
				    wc[i].wr_id, ibv_wc_status_str(wc[i].status),
				    wc[i].vendor_err);
		got += r;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > POLL_TIMEOUT_SEC)
			die("timed out waiting for %d completion(s), got %d", n, got);
	}
}

/* The receive completion among the first n; SRQs need not hand out WQEs in posting order. */
static const struct ibv_wc *find_recv(const struct ibv_wc *wc, int n)
{
	for (int i = 0; i < n; i++)
		if (wc[i].opcode & IBV_WC_RECV)
			return &wc[i];
	die("no receive completion");
	return NULL;
}

static void fill(uint8_t *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7 + (i >> 8));
}

/* Layout of the single registered buffer. */
enum {
	OFF_RECV0 = 0,            /* two SRQ receive slots of SLOT bytes */
	SLOT = 16384,
	OFF_SEND = 2 * SLOT,      /* send source */
	OFF_WSRC = 3 * SLOT,      /* RDMA WRITE source ... */
	OFF_WDST = 4 * SLOT,      /* ... and destination */
	WLEN = SLOT,
	OFF_RSRC = 5 * SLOT,      /* RDMA READ source (64 KiB) ... */
	RLEN = 65536,
	OFF_RDST = OFF_RSRC + RLEN, /* ... and destination */
	OFF_ATOM = OFF_RDST + RLEN, /* 8-byte atomic target, then the fetched value */
	BUF_LEN = OFF_ATOM + 4096,
};

int main(int argc, char **argv)
{
	const char *want_dev = NULL;
	uint8_t port = 1;
	int want_gid = -1, opt, ndev;

	while ((opt = getopt(argc, argv, "d:p:g:h")) != -1) {
		switch (opt) {
		case 'd': want_dev = optarg; break;
		case 'p': port = (uint8_t)atoi(optarg); break;
		case 'g': want_gid = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-d DEVICE] [-p PORT] [-g GID_INDEX]\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}

	/* ---- device, port, GID ---- */
	struct ibv_device **list = ibv_get_device_list(&ndev), *dev = NULL;
	if (!list || ndev == 0) {
		printf("verbs_smoke: SKIP: no RDMA device (ibv_get_device_list found none)\n");
		return 77;
	}
	for (int i = 0; i < ndev && !dev; i++)
		if (!want_dev || !strcmp(ibv_get_device_name(list[i]), want_dev))
			dev = list[i];
	if (!dev)
		die("device %s not found", want_dev);

	struct ibv_context *ctx = ibv_open_device(dev);
	CHECK(ctx, "ibv_open_device");
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	CHECK_RC(ibv_query_device(ctx, &da), "ibv_query_device");
	CHECK_RC(ibv_query_port(ctx, port, &pa), "ibv_query_port");
	if (pa.state != IBV_PORT_ACTIVE)
		die("%s port %u is %s, not ACTIVE", ibv_get_device_name(dev), port,
		    ibv_port_state_str(pa.state));

	int roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	struct ibv_gid_entry ge;
	if (want_gid >= 0) {
		CHECK_RC(ibv_query_gid_ex(ctx, port, (uint32_t)want_gid, &ge, 0), "ibv_query_gid_ex");
	} else if (pick_gid(ctx, port, pa.gid_tbl_len, &ge)) {
		die("no usable GID on port %u", port);
	}
	char gidstr[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, ge.gid.raw, gidstr, sizeof gidstr);

	printf("device          %s (%d device(s) found), port %u %s, link %s\n",
	       ibv_get_device_name(dev), ndev, port, ibv_port_state_str(pa.state),
	       roce ? "Ethernet (RoCE)" : "InfiniBand");
	printf("gid             [%u] %s, %s%s\n", ge.gid_index, gidstr, gid_type_str(ge.gid_type),
	       want_gid >= 0 ? " (from -g)" : " (picked from the GID table)");
	if (!roce)
		printf("lid             %u\n", pa.lid);

	/* ---- resources ---- */
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	CHECK(pd, "ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	CHECK(cq, "ibv_create_cq");
	uint32_t max_inline = probe_max_inline(pd, cq);

	printf("max_qp_wr       %d\n", da.max_qp_wr);
	printf("max_srq_wr      %d\n", da.max_srq_wr);
	printf("max_msg_sz      %u (port)\n", pa.max_msg_sz);
	printf("max_inline_data %u (largest an RC QP could be created with)\n", max_inline);
	printf("atomic_cap      %s\n", atomic_cap_str(da.atomic_cap));
	printf("active_mtu      %d (max_mtu %d)\n", mtu_bytes(pa.active_mtu), mtu_bytes(pa.max_mtu));
	printf("max_qp_rd_atom  %d (max_qp_init_rd_atom %d)\n", da.max_qp_rd_atom,
	       da.max_qp_init_rd_atom);
	printf("other           max_qp %d, max_cqe %d, max_sge %d, max_srq %d, max_srq_sge %d, "
	       "max_mr_size 0x%" PRIx64 "\n", da.max_qp, da.max_cqe, da.max_sge, da.max_srq,
	       da.max_srq_sge, da.max_mr_size);

	struct ibv_srq_init_attr sia = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct ibv_srq *srq = ibv_create_srq(pd, &sia);
	CHECK(srq, "ibv_create_srq");

	int atomics = da.atomic_cap != IBV_ATOMIC_NONE;
	uint8_t *buf = aligned_alloc(4096, BUF_LEN);
	CHECK(buf, "aligned_alloc");
	memset(buf, 0, BUF_LEN);
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
		     (atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, BUF_LEN, access);
	CHECK(mr, "ibv_reg_mr (is RLIMIT_MEMLOCK large enough?)");

	uint32_t inline_len = max_inline < 64 ? max_inline : 64;
	struct ibv_qp_init_attr qia = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 16, .max_send_sge = 1, .max_inline_data = inline_len},
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &qia);
	CHECK(qp, "ibv_create_qp");

	/* ---- connect the QP to itself: RESET -> INIT -> RTR -> RTS ---- */
	const uint32_t psn = 0x1234;
	int rd_atom = da.max_qp_rd_atom < 16 ? da.max_qp_rd_atom : 16;
	int init_rd_atom = da.max_qp_init_rd_atom < 16 ? da.max_qp_init_rd_atom : 16;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = port,
		.qp_access_flags = access & ~IBV_ACCESS_LOCAL_WRITE,
	};
	CHECK_RC(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					IBV_QP_ACCESS_FLAGS), "modify_qp INIT");
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = pa.active_mtu;
	a.dest_qp_num = qp->qp_num;
	a.rq_psn = psn;
	a.max_dest_rd_atomic = (uint8_t)rd_atom;
	a.min_rnr_timer = 12;
	a.ah_attr.port_num = port;
	if (roce) {
		/* RoCE has no LIDs: every packet carries a GRH built from the GID. */
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = ge.gid;
		a.ah_attr.grh.sgid_index = (uint8_t)ge.gid_index;
		a.ah_attr.grh.hop_limit = 64;
	} else {
		a.ah_attr.dlid = pa.lid;
	}
	CHECK_RC(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER),
		 "modify_qp RTR");
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = (uint8_t)init_rd_atom;
	CHECK_RC(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
					IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					IBV_QP_MAX_QP_RD_ATOMIC), "modify_qp RTS");
	printf("qp              RC qpn 0x%x connected to itself, path_mtu %d, rd_atomic %d/%d\n",
	       qp->qp_num, mtu_bytes(pa.active_mtu), init_rd_atom, rd_atom);

	const uint64_t base = (uintptr_t)buf;
	struct ibv_send_wr *bad;
	struct ibv_recv_wr *rbad;
	struct ibv_wc wc[4];

	/* ---- 1: small SEND, inline if possible, lands in an SRQ slot ---- */
	for (uint64_t s = 0; s < 2; s++) {
		struct ibv_sge rsge = {base + OFF_RECV0 + s * SLOT, SLOT, mr->lkey};
		struct ibv_recv_wr rwr = {.wr_id = 100 + s, .sg_list = &rsge, .num_sge = 1};
		CHECK_RC(ibv_post_srq_recv(srq, &rwr, &rbad), "ibv_post_srq_recv");
	}
	const uint32_t small = 48;
	fill(buf + OFF_SEND, small, 1);
	struct ibv_sge ssge = {base + OFF_SEND, small, mr->lkey};
	struct ibv_send_wr swr = {.wr_id = 1, .sg_list = &ssge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED};
	int use_inline = small <= inline_len;
	if (use_inline)
		swr.send_flags |= IBV_SEND_INLINE;
	CHECK_RC(ibv_post_send(qp, &swr, &bad), "ibv_post_send SEND");
	if (use_inline)
		memset(buf + OFF_SEND, 0xee, small); /* inline data was copied at post time */
	poll_n(wc, 2);
	const struct ibv_wc *r = find_recv(wc, 2);
	uint64_t slot = r->wr_id - 100;
	if (r->opcode != IBV_WC_RECV || r->byte_len != small || r->qp_num != qp->qp_num ||
	    slot > 1)
		die("SEND: recv completion opcode %d byte_len %u qp 0x%x wr_id %" PRIu64,
		    r->opcode, r->byte_len, r->qp_num, r->wr_id);
	fill(buf + OFF_SEND, small, 1);
	if (memcmp(buf + OFF_RECV0 + slot * SLOT, buf + OFF_SEND, small))
		die("SEND: received data differs");
	printf("ok   SEND %u B%s -> SRQ slot %" PRIu64 "\n", small, use_inline ? " inline" : "",
	       slot);
	slot = 1 - slot; /* the one still posted */

	/* ---- 2: SEND with immediate, several packets long, lands in the next SRQ slot ---- */
	const uint32_t big = (uint32_t)mtu_bytes(pa.active_mtu) * 3 + 100;
	fill(buf + OFF_SEND, big, 2);
	ssge.length = big;
	swr.wr_id = 2;
	swr.opcode = IBV_WR_SEND_WITH_IMM;
	swr.send_flags = IBV_SEND_SIGNALED;
	swr.imm_data = htonl(0xc0ffee);
	CHECK_RC(ibv_post_send(qp, &swr, &bad), "ibv_post_send SEND_WITH_IMM");
	poll_n(wc, 2);
	r = find_recv(wc, 2);
	if (r->opcode != IBV_WC_RECV || r->byte_len != big || !(r->wc_flags & IBV_WC_WITH_IMM) ||
	    ntohl(r->imm_data) != 0xc0ffee || r->wr_id != 100 + slot)
		die("SEND_WITH_IMM: recv completion opcode %d byte_len %u flags 0x%x imm 0x%x",
		    r->opcode, r->byte_len, r->wc_flags, ntohl(r->imm_data));
	if (memcmp(buf + OFF_RECV0 + slot * SLOT, buf + OFF_SEND, big))
		die("SEND_WITH_IMM: received data differs");
	printf("ok   SEND_WITH_IMM %u B (%u packets) -> SRQ slot %" PRIu64 ", imm 0x%x\n", big,
	       (big + (uint32_t)mtu_bytes(pa.active_mtu) - 1) / (uint32_t)mtu_bytes(pa.active_mtu),
	       slot, ntohl(r->imm_data));

	/* ---- 3: RDMA WRITE ---- */
	fill(buf + OFF_WSRC, WLEN, 3);
	struct ibv_sge wsge = {base + OFF_WSRC, WLEN, mr->lkey};
	struct ibv_send_wr wwr = {.wr_id = 3, .sg_list = &wsge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = {base + OFF_WDST, mr->rkey}};
	CHECK_RC(ibv_post_send(qp, &wwr, &bad), "ibv_post_send RDMA_WRITE");
	poll_n(wc, 1);
	if (wc[0].wr_id != 3 || wc[0].opcode != IBV_WC_RDMA_WRITE)
		die("RDMA WRITE: unexpected completion wr_id %" PRIu64, wc[0].wr_id);
	if (memcmp(buf + OFF_WDST, buf + OFF_WSRC, WLEN))
		die("RDMA WRITE: data differs");
	printf("ok   RDMA WRITE %d B\n", WLEN);

	/* ---- 4: RDMA READ ---- */
	fill(buf + OFF_RSRC, RLEN, 4);
	struct ibv_sge rdsge = {base + OFF_RDST, RLEN, mr->lkey};
	struct ibv_send_wr rdwr = {.wr_id = 4, .sg_list = &rdsge, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED,
				   .wr.rdma = {base + OFF_RSRC, mr->rkey}};
	CHECK_RC(ibv_post_send(qp, &rdwr, &bad), "ibv_post_send RDMA_READ");
	poll_n(wc, 1);
	if (wc[0].wr_id != 4 || wc[0].opcode != IBV_WC_RDMA_READ || wc[0].byte_len != RLEN)
		die("RDMA READ: unexpected completion wr_id %" PRIu64 " byte_len %u", wc[0].wr_id,
		    wc[0].byte_len);
	if (memcmp(buf + OFF_RDST, buf + OFF_RSRC, RLEN))
		die("RDMA READ: data differs");
	printf("ok   RDMA READ %d B\n", RLEN);

	/* ---- 5: ATOMIC FETCH_AND_ADD ---- */
	if (atomics) {
		uint64_t *word = (uint64_t *)(void *)(buf + OFF_ATOM), *old = word + 1;
		*word = 40;
		*old = 0;
		struct ibv_sge asge = {base + OFF_ATOM + 8, 8, mr->lkey};
		struct ibv_send_wr awr = {.wr_id = 5, .sg_list = &asge, .num_sge = 1,
					  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
					  .send_flags = IBV_SEND_SIGNALED,
					  .wr.atomic = {base + OFF_ATOM, 2, 0, mr->rkey}};
		CHECK_RC(ibv_post_send(qp, &awr, &bad), "ibv_post_send FETCH_AND_ADD");
		poll_n(wc, 1);
		if (wc[0].opcode != IBV_WC_FETCH_ADD || *old != 40 || *word != 42)
			die("FETCH_AND_ADD: old %" PRIu64 " new %" PRIu64, *old, *word);
		printf("ok   ATOMIC FETCH_AND_ADD 40 + 2 -> 42 (fetched 40)\n");
	} else {
		printf("skip ATOMIC FETCH_AND_ADD: atomic_cap NONE\n");
	}

	/* ---- teardown, checked too: leaks here become failures in long runs ---- */
	CHECK_RC(ibv_destroy_qp(qp), "ibv_destroy_qp");
	CHECK_RC(ibv_destroy_srq(srq), "ibv_destroy_srq");
	CHECK_RC(ibv_dereg_mr(mr), "ibv_dereg_mr");
	CHECK_RC(ibv_destroy_cq(cq), "ibv_destroy_cq");
	CHECK_RC(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	CHECK_RC(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	printf("verbs_smoke: PASS\n");
	return 0;
}
