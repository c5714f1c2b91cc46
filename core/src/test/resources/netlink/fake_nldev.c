/*
 * A fake RDMA netlink kernel for the tests of rdma-counters.
 *
 * It answers RDMA_NL_NLDEV requests on AF_UNIX SOCK_SEQPACKET sockets as the kernel answers
 * them on NETLINK_RDMA: one end of a socketpair (fake_nldev_connect) for the Java client, or a
 * listening socket (fake_nldev_listen) that the LD_PRELOAD shim nldev_shim.c connects iproute2's
 * rdma tool to. Each rule below names the kernel function it follows:
 *
 * - drivers/infiniband/core/netlink.c, rdma_nl_rcv_skb: every message of a datagram is handled;
 *   requests without NLM_F_REQUEST and control types are only acknowledged; an error, or
 *   NLM_F_ACK, gets a netlink_ack; a started dump gets none (-EINTR).
 * - netlink.c, rdma_nl_rcv_msg: an unknown client or op is EINVAL; RDMA_NL_ADMIN_PERM without
 *   CAP_NET_ADMIN is EPERM; NLM_F_DUMP runs the op's .dump (EINVAL if it has none), otherwise its
 *   .doit.
 * - net/netlink/af_netlink.c, netlink_ack: NLMSG_ERROR with the error and the request's header,
 *   its payload too for an error (no NETLINK_CAP_ACK here); NLM_F_CAPPED otherwise.
 * - af_netlink.c, netlink_dump and netlink_dump_done: a dump fills one datagram per call of the
 *   .dump callback (NLMSG_GOODSIZE bytes); when the callback returns 0 or an error, NLMSG_DONE
 *   carries that value, in the same datagram if it fits.
 * - drivers/infiniband/core/nldev.c: the handlers and nldev_cb_table, cited where they are.
 *
 * The port id of a connection is the peer's pid (SO_PEERCRED), as netlink_autobind gives the
 * first socket of a process its tgid; the shim's getsockname reports the same. CAP_NET_ADMIN is
 * read from the peer's /proc/<pid>/status (CapEff), unless a test overrides it.
 *
 * A control API (fake_nldev_*) lets the tests describe devices, ports, counters and queue pairs,
 * inject faults and read what the fake saw.
 */
#define _GNU_SOURCE
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define FAKE_EXPORT __attribute__((visibility("default")))
#define FK_MAX_DEVICES 8
#define FK_MAX_PORTS 4
#define FK_MAX_COUNTERS 64
#define FK_NAME 64
/* NLMSG_GOODSIZE (include/linux/netlink.h): SKB_WITH_OVERHEAD(PAGE_SIZE) with 4 KiB pages on
 * x86_64, the size of a dump's datagram before the reader has used a larger buffer. */
#define FK_GOODSIZE 3776
/* NLMSG_DEFAULT_SIZE: what nldev's doit handlers allocate with nlmsg_new */
#define FK_DEFAULT_SIZE (FK_GOODSIZE - NLMSG_HDRLEN)
#define FK_CAP_NET_ADMIN 12
#define FK_CAP_NET_RAW 13
/* enum ib_qp_type (include/rdma/ib_verbs.h) */
#define FK_QPT_RC 2
#define FK_QPT_UC 3
#define FK_QPT_XRC_INI 9
#define FK_QPT_XRC_TGT 10
#define FK_QPT_RAW_PACKET 8
#define FK_QPS_INIT 1

/*
 * RDMA netlink's monitor, include/uapi/rdma/rdma_netlink.h since Linux 6.12 (commit 9cbed5aab5ae,
 * "RDMA/nldev: Add support for RDMA monitoring"; RDMA_NLDEV_SYS_ATTR_MONITOR_MODE from
 * 12fb1153c53b; the rename events from "RDMA/nldev: Add IB device and net device rename events",
 * 6.13). Debian 12's 6.1 header has none of them: the numbers are the uapi header's, and
 * NldevMonitorAbiTests checks them against the installed header where it has them.
 */
#define FK_GROUP_NOTIFY 4		/* RDMA_NL_GROUP_NOTIFY */
#define FK_CMD_MONITOR 28		/* RDMA_NLDEV_CMD_MONITOR */
#define FK_ATTR_EVENT_TYPE 102		/* RDMA_NLDEV_ATTR_EVENT_TYPE */
#define FK_SYS_ATTR_MONITOR_MODE 103	/* RDMA_NLDEV_SYS_ATTR_MONITOR_MODE */
#define FK_NETLINK_GROUPS 32		/* netlink_kernel_create: at least 32 groups */
enum { FK_REGISTER_EVENT, FK_UNREGISTER_EVENT, FK_NETDEV_ATTACH_EVENT, FK_NETDEV_DETACH_EVENT, FK_RENAME_EVENT,
       FK_NETDEV_RENAME_EVENT }; /* enum rdma_nl_notify_event_type */
#define FK_ATTRS (FK_SYS_ATTR_MONITOR_MODE + 1)

struct fk_counter {
	char name[FK_NAME];
	int optional; /* IB_STAT_FLAG_OPTIONAL */
	int enabled;  /* !test_bit(i, stats->is_disabled) */
	uint64_t value;
};

struct fk_port {
	int has_stats; /* ib_get_hw_stats_port() != NULL */
	int ncounters;
	struct fk_counter counters[FK_MAX_COUNTERS];
	uint32_t ndev_index; /* the netdev ib_device_set_netdev attached, 0 for none */
	char ndev_name[16];
	int mode, mask, num_counters; /* struct rdma_port_counter: mode.mode, mode.mask, num_counters */
};

/* struct rdma_counter: a counter queue pairs are bound to; its stats have the port's counters */
struct fk_qpcounter {
	uint32_t id;
	uint32_t port;
	int mode;
	uint8_t qp_type; /* auto_mode_param */
	uint32_t pid;	 /* res.task of the first queue pair (rdma_restrack_parent_name) */
	int nvalues;
	uint64_t values[FK_MAX_COUNTERS];
	int enabled[FK_MAX_COUNTERS]; /* !test_bit(i, stats->is_disabled) */
};

struct fk_qp {
	uint32_t port;
	uint32_t lqpn;
	uint8_t type;
	uint8_t state;
	uint32_t pid; /* 0: a kernel QP, named by kern_name */
	char kern_name[16];
	uint32_t counter; /* qp->counter's id, 0 for none */
};

struct fk_device {
	int in_use;
	uint32_t index;
	char name[FK_NAME];
	uint32_t nports;
	uint64_t node_guid;
	char fw[FK_NAME];
	char protocol[8];
	struct fk_port ports[FK_MAX_PORTS + 1];
	struct fk_qp *qps;
	int nqps;
	int qp_capacity;
	struct fk_qpcounter *qpcounters;
	int nqpcounters;
	int qpcounter_capacity;
	uint32_t next_counter_id;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fk_device devices[FK_MAX_DEVICES];
static int ndevices;
static int cap_mode = -1; /* -1: from the peer's credentials, 0: without, 1: with CAP_NET_ADMIN */
static int goodsize = FK_GOODSIZE;
static long counts_requests, counts_dumps, counts_stat_set, counts_eperm, counts_open, counts_datagrams;
static long counts_stat_del;
static int fault_wrong_seq, fault_wrong_pid, fault_silent;
static int bind_opcnt; /* Linux 6.15: a manual bind binds the port's enabled optional counters */
static int listen_fd = -1;

/* ---- message building, as nlmsg_put / nla_put / nla_nest_* (include/net/netlink.h) ---- */

struct buf {
	char *data;
	int cap;
	int len;
};

static int msg_put(struct buf *b, uint32_t portid, uint32_t seq, int type, int flags)
{
	if (b->cap - b->len < NLMSG_HDRLEN)
		return -1;
	int at = b->len;
	struct nlmsghdr *h = (struct nlmsghdr *)(b->data + at);
	memset(h, 0, NLMSG_HDRLEN);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = portid;
	b->len += NLMSG_HDRLEN;
	return at;
}

static void msg_end(struct buf *b, int at)
{
	((struct nlmsghdr *)(b->data + at))->nlmsg_len = b->len - at;
}

static void cancel(struct buf *b, int at)
{
	b->len = at;
}

static int put(struct buf *b, int type, const void *payload, int len)
{
	int total = NLA_ALIGN(NLA_HDRLEN + len);
	if (b->cap - b->len < total)
		return -EMSGSIZE;
	struct nlattr *a = (struct nlattr *)(b->data + b->len);
	a->nla_len = NLA_HDRLEN + len;
	a->nla_type = type;
	memcpy(b->data + b->len + NLA_HDRLEN, payload, len);
	memset(b->data + b->len + NLA_HDRLEN + len, 0, total - NLA_HDRLEN - len);
	b->len += total;
	return 0;
}

static int put_u8(struct buf *b, int type, uint8_t v) { return put(b, type, &v, 1); }
static int put_u32(struct buf *b, int type, uint32_t v) { return put(b, type, &v, 4); }
static int put_string(struct buf *b, int type, const char *s) { return put(b, type, s, strlen(s) + 1); }

/*
 * nla_put_u64_64bit (lib/nlattr.c): where the u64 would not be 8-byte aligned, a pad attribute
 * (RDMA_NLDEV_ATTR_PAD) comes first. Architectures with efficient unaligned access skip it; the
 * fake always aligns, so readers meet the pad attribute.
 */
static int put_u64(struct buf *b, int type, uint64_t v)
{
	if (((b->len + NLA_HDRLEN) & 7) != 0 && put(b, RDMA_NLDEV_ATTR_PAD, NULL, 0))
		return -EMSGSIZE;
	return put(b, type, &v, 8);
}

static int nest_start(struct buf *b, int type)
{
	if (b->cap - b->len < NLA_HDRLEN)
		return -1;
	int at = b->len;
	struct nlattr *a = (struct nlattr *)(b->data + at);
	a->nla_len = 0;
	a->nla_type = type | NLA_F_NESTED;
	b->len += NLA_HDRLEN;
	return at;
}

static void nest_end(struct buf *b, int at)
{
	((struct nlattr *)(b->data + at))->nla_len = b->len - at;
}

/* ---- request parsing, as nlmsg_parse into tb[] (the last attribute of a type wins) ---- */

struct attrs {
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
};

static int parse(const char *data, int len, struct attrs *out)
{
	memset(out, 0, sizeof(*out));
	int off = 0;
	while (len - off >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)(data + off);
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len - off)
			return -EINVAL;
		int type = a->nla_type & NLA_TYPE_MASK;
		if (type < RDMA_NLDEV_ATTR_MAX)
			out->tb[type] = a;
		off += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

static const void *payload(const struct nlattr *a) { return (const char *)a + NLA_HDRLEN; }

/* nla_get_u32; the policy (nldev_policy, NLA_U32) rejects a shorter payload with EINVAL */
static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (a->nla_len < NLA_HDRLEN + 4)
		return -EINVAL;
	memcpy(v, payload(a), 4);
	return 0;
}

/* ---- the model ---- */

/* ib_device_get_by_index: NULL for an unknown index; nldev's callers answer EINVAL */
static struct fk_device *device_by_index(uint32_t index)
{
	for (int i = 0; i < ndevices; i++)
		if (devices[i].in_use && devices[i].index == index)
			return &devices[i];
	return NULL;
}

/* rdma_is_port_valid */
static int port_valid(struct fk_device *d, uint32_t port)
{
	return port >= 1 && port <= d->nports;
}

struct conn {
	int fd;
	uint32_t portid;
	int cap_net_admin;
	int client_fd;	 /* the other end of a socketpair, -1 for a connection of the shim */
	ino_t client_ino; /* its inode: a closed client's number may already be another socket's */
	uint32_t groups; /* the multicast groups joined, bit group - 1 */
	int cap_net_raw;
};

#define FK_MAX_CONNS 64
static struct conn *conns[FK_MAX_CONNS]; /* under lock */
static int monitor_level = 2; /* 0: before Linux 6.12, 1: 6.12, 2: 6.13 and later (rename events) */
static int fault_join;
static long counts_events;
static void notify(struct fk_device *d, uint32_t port, int type);
static void notify_raw(const void *data, int len);
static void forget_conn(struct conn *c);

struct request {
	const struct nlmsghdr *nlh;
	struct attrs a;
};

static int handle_u32(const struct attrs *a, int type, uint32_t *v)
{
	if (!a->tb[type])
		return -EINVAL;
	return get_u32(a->tb[type], v);
}

/* fill_nldev_handle */
static int fill_handle(struct buf *b, struct fk_device *d)
{
	if (put_u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, d->index) || put_string(b, RDMA_NLDEV_ATTR_DEV_NAME, d->name))
		return -EMSGSIZE;
	return 0;
}

/* fill_dev_info */
static int fill_dev_info(struct buf *b, struct fk_device *d)
{
	if (fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, d->nports) ||
	    put_u64(b, RDMA_NLDEV_ATTR_CAP_FLAGS, 0))
		return -EMSGSIZE;
	if (d->fw[0] && put_string(b, RDMA_NLDEV_ATTR_FW_VERSION, d->fw))
		return -EMSGSIZE;
	if (put_u64(b, RDMA_NLDEV_ATTR_NODE_GUID, d->node_guid) ||
	    put_u64(b, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, d->node_guid) ||
	    put_u8(b, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1 /* RDMA_NODE_IB_CA */) ||
	    put_u8(b, RDMA_NLDEV_ATTR_DEV_DIM, 0))
		return -EMSGSIZE;
	if (d->protocol[0] && put_string(b, RDMA_NLDEV_ATTR_DEV_PROTOCOL, d->protocol))
		return -EMSGSIZE;
	return 0;
}

/* nldev_get_doit */
static int get_doit(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t index;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), 0);
	if (m < 0 || fill_dev_info(b, d))
		return -EMSGSIZE;
	msg_end(b, m);
	return 0;
}

/* _nldev_get_dumpit under ib_enum_all_devs, which stops at the first device added: one device a
 * datagram */
static int get_dumpit(struct conn *c, struct request *r, long *args, struct buf *b)
{
	unsigned int idx = 0;
	for (int i = 0; i < ndevices; i++) {
		if (!devices[i].in_use)
			continue;
		if (idx >= (unsigned long)args[0]) {
			int m = msg_put(b, c->portid, r->nlh->nlmsg_seq,
					RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), NLM_F_MULTI);
			if (m < 0 || fill_dev_info(b, &devices[i])) {
				if (m >= 0)
					cancel(b, m);
			} else {
				msg_end(b, m);
				idx++;
			}
			args[0] = idx;
			return b->len;
		}
		idx++;
	}
	return 0;
}

static struct fk_port *port_stats(struct fk_device *d, uint32_t port)
{
	/* ib_get_hw_stats_port: NULL for an invalid port or a device without port counters */
	if (!port_valid(d, port) || !d->ports[port].has_stats)
		return NULL;
	return &d->ports[port];
}

static int hwcounter_entry(struct buf *b, const char *name, uint64_t value)
{
	int e = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (e < 0 || put_string(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name) ||
	    put_u64(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value))
		return -EMSGSIZE;
	nest_end(b, e);
	return 0;
}

static int stat_get_doit_qp(struct conn *c, struct request *r, struct buf *b);
static int res_counter_dumpit(struct conn *c, struct request *r, long *args, struct buf *b);
static int stat_set_mode_doit(struct conn *c, struct request *r, struct buf *b, struct fk_device *d,
			      uint32_t port);
static int stat_del_doit(struct conn *c, struct request *r, struct buf *b);
static void counter_unbind_qp(struct fk_device *d, struct fk_qp *q);
static void counter_bind_qp_auto(struct fk_device *d, struct fk_qp *q);

/* nldev_stat_get_doit: without RDMA_NLDEV_ATTR_STAT_RES, stat_get_doit_default_counter, which
 * skips the counters that are disabled (test_bit(i, stats->is_disabled)) */
static int stat_get_doit(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t index, port;
	if (r->a.tb[RDMA_NLDEV_ATTR_STAT_RES])
		return stat_get_doit_qp(c, r, b); /* MR counters are not modelled */
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_PORT_INDEX, &port))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	struct fk_port *p = port_stats(d, port);
	if (!p)
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET), 0);
	if (m < 0 || fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	int t = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (t < 0)
		return -EMSGSIZE;
	for (int i = 0; i < p->ncounters; i++) {
		if (!p->counters[i].enabled)
			continue;
		if (hwcounter_entry(b, p->counters[i].name, p->counters[i].value))
			return -EMSGSIZE;
	}
	nest_end(b, t);
	msg_end(b, m);
	return 0;
}

/* nldev_stat_get_dumpit: needs RDMA_NLDEV_ATTR_STAT_RES; of queue pairs, nldev_res_get_counter_dumpit
 * (MR counters are not modelled) */
static int stat_get_dumpit(struct conn *c, struct request *r, long *args, struct buf *b)
{
	uint32_t res;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_RES, &res) || res != RDMA_NLDEV_ATTR_RES_QP)
		return -EINVAL;
	return res_counter_dumpit(c, r, args, b);
}

/* nldev_stat_get_counter_status_doit */
static int stat_get_status_doit(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t index, port;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_PORT_INDEX, &port))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	if (!port_valid(d, port))
		return -EINVAL;
	struct fk_port *p = port_stats(d, port);
	if (!p)
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET_STATUS), 0);
	if (m < 0 || fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	int t = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (t < 0)
		return -EMSGSIZE;
	for (int i = 0; i < p->ncounters; i++) {
		int e = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		if (e < 0 || put_string(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, p->counters[i].name) ||
		    put_u32(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, i))
			return -EMSGSIZE;
		if (p->counters[i].optional &&
		    put_u8(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, p->counters[i].enabled))
			return -EMSGSIZE;
		nest_end(b, e);
	}
	nest_end(b, t);
	msg_end(b, m);
	return 0;
}

/* nldev_stat_set_doit with nldev_stat_set_counter_dynamic_doit: every index must name an
 * optional counter (else EINVAL, before anything changes); then each optional counter is enabled
 * if named and disabled if not: the set replaces the enabled ones. */
static int stat_set_doit(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t index, port;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_PORT_INDEX, &port))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	if (!port_valid(d, port))
		return -EINVAL;
	if (!r->a.tb[RDMA_NLDEV_ATTR_STAT_MODE] && !r->a.tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return -EINVAL;
	if (r->a.tb[RDMA_NLDEV_ATTR_STAT_MODE])
		return stat_set_mode_doit(c, r, b, d, port); /* not together with HWCOUNTERS here */
	struct fk_port *p = port_stats(d, port);
	if (!p)
		return -EINVAL;
	int target[FK_MAX_COUNTERS] = { 0 };
	const struct nlattr *nest = r->a.tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS];
	int len = nest->nla_len - NLA_HDRLEN, off = 0;
	/* nla_for_each_nested, nla_get_u32 of each, whatever its type */
	while (len - off >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)((const char *)payload(nest) + off);
		uint32_t i;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len - off || get_u32(a, &i))
			return -EINVAL;
		if (i >= (uint32_t)p->ncounters || !p->counters[i].optional)
			return -EINVAL;
		target[i] = 1;
		off += NLA_ALIGN(a->nla_len);
	}
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_SET), 0);
	if (m < 0 || fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	for (int i = 0; i < p->ncounters; i++)
		if (p->counters[i].optional)
			p->counters[i].enabled = target[i];
	counts_stat_set++;
	msg_end(b, m);
	return 0;
}

/* fill_res_qp_entry with fill_res_name_pid and fill_res_qp_entry_query; -EAGAIN skips a QP of
 * another port */
static int fill_qp(struct buf *b, struct fk_qp *q, uint32_t port)
{
	if (port && port != q->port)
		return -EAGAIN;
	if (q->port && put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, q->port))
		return -EMSGSIZE;
	if (put_u32(b, RDMA_NLDEV_ATTR_RES_LQPN, q->lqpn))
		return -EMSGSIZE;
	if (q->pid && put_u32(b, RDMA_NLDEV_ATTR_RES_PDN, 1))
		return -EMSGSIZE;
	if (q->pid ? put_u32(b, RDMA_NLDEV_ATTR_RES_PID, q->pid)
		   : put_string(b, RDMA_NLDEV_ATTR_RES_KERN_NAME, q->kern_name))
		return -EMSGSIZE;
	if (q->type == FK_QPT_RC || q->type == FK_QPT_UC) {
		if (put_u32(b, RDMA_NLDEV_ATTR_RES_RQPN, q->lqpn ^ 1) || put_u32(b, RDMA_NLDEV_ATTR_RES_RQ_PSN, 0))
			return -EMSGSIZE;
	}
	if (put_u32(b, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0))
		return -EMSGSIZE;
	if ((q->type == FK_QPT_RC || q->type == FK_QPT_UC || q->type == FK_QPT_XRC_INI ||
	     q->type == FK_QPT_XRC_TGT) &&
	    put_u8(b, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 0 /* IB_MIG_MIGRATED */))
		return -EMSGSIZE;
	if (put_u8(b, RDMA_NLDEV_ATTR_RES_TYPE, q->type) || put_u8(b, RDMA_NLDEV_ATTR_RES_STATE, q->state))
		return -EMSGSIZE;
	return 0;
}

/* res_get_common_dumpit for RDMA_RESTRACK_QP: one message a call, as many entries as fit,
 * continuing at cb->args[0]; a call that fills nothing cancels its message and ends the dump */
static int res_qp_dumpit(struct conn *c, struct request *r, long *args, struct buf *b)
{
	uint32_t index, port = 0;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	if (r->a.tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		if (get_u32(r->a.tb[RDMA_NLDEV_ATTR_PORT_INDEX], &port) || !port_valid(d, port))
			return -EINVAL;
	}
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_QP_GET),
			NLM_F_MULTI);
	if (m < 0 || fill_handle(b, d)) {
		cancel(b, m < 0 ? b->len : m);
		return -EMSGSIZE;
	}
	int t = nest_start(b, RDMA_NLDEV_ATTR_RES_QP);
	if (t < 0) {
		cancel(b, m);
		return -EMSGSIZE;
	}
	int filled = 0;
	long idx;
	for (idx = 0; idx < d->nqps; idx++) {
		if (idx < args[0])
			continue;
		filled = 1;
		int e = nest_start(b, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		if (e < 0)
			break;
		int ret = fill_qp(b, &d->qps[idx], port);
		if (ret) {
			cancel(b, e);
			if (ret == -EMSGSIZE)
				break;
			continue; /* -EAGAIN */
		}
		nest_end(b, e);
	}
	nest_end(b, t);
	msg_end(b, m);
	args[0] = idx;
	if (!filled) {
		cancel(b, m);
		return 0;
	}
	return b->len;
}

/* nldev_sys_get_doit: the subsystem's settings; RDMA_NLDEV_SYS_ATTR_MONITOR_MODE since 6.12 */
static int sys_get_doit(struct conn *c, struct request *r, struct buf *b)
{
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET), 0);
	if (m < 0 || put_u8(b, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1 /* ib_devices_shared_netns */))
		return -EMSGSIZE;
	if (monitor_level >= 1 && put_u8(b, FK_SYS_ATTR_MONITOR_MODE, 1))
		return -EMSGSIZE;
	if (put_u8(b, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1))
		return -EMSGSIZE;
	msg_end(b, m);
	return 0;
}

/* ---- queue pair counters (drivers/infiniband/core/counters.c and their nldev handlers) ---- */

static struct fk_qp *qp_by_number(struct fk_device *d, uint32_t lqpn)
{
	for (int i = 0; i < d->nqps; i++)
		if (d->qps[i].lqpn == lqpn)
			return &d->qps[i];
	return NULL;
}

static struct fk_qpcounter *qpcounter_by_id(struct fk_device *d, uint32_t id)
{
	for (int i = 0; i < d->nqpcounters; i++)
		if (d->qpcounters[i].id == id)
			return &d->qpcounters[i];
	return NULL;
}

/* rdma_counter_get_qp: rdma_restrack_get_byid, and a raw packet QP needs CAP_NET_RAW; both ENOENT */
static struct fk_qp *counter_get_qp(struct conn *c, struct fk_device *d, uint32_t lqpn)
{
	struct fk_qp *q = qp_by_number(d, lqpn);
	if (q && q->type == FK_QPT_RAW_PACKET && !c->cap_net_raw)
		return NULL;
	return q;
}

/* alloc_and_bind: a counter of the port's statistics, the optional ones disabled
 * (mlx5_ib_counter_alloc_stats) unless the bind binds them (6.15, mode.bind_opcnt); num_counters++;
 * then __rdma_counter_bind_qp */
static struct fk_qpcounter *alloc_and_bind(struct fk_device *d, uint32_t port, struct fk_qp *q, int mode,
					   int opcnt)
{
	struct fk_port *p = &d->ports[port];
	if (d->nqpcounters == d->qpcounter_capacity) {
		int capacity = d->qpcounter_capacity ? d->qpcounter_capacity * 2 : 16;
		struct fk_qpcounter *grown = realloc(d->qpcounters, capacity * sizeof(*grown));
		if (!grown)
			return NULL;
		d->qpcounters = grown;
		d->qpcounter_capacity = capacity;
	}
	struct fk_qpcounter *k = &d->qpcounters[d->nqpcounters++];
	memset(k, 0, sizeof(*k));
	k->id = d->next_counter_id++;
	k->port = port;
	k->mode = mode;
	k->qp_type = q->type;
	k->pid = q->pid;
	k->nvalues = p->ncounters;
	for (int i = 0; i < p->ncounters; i++)
		k->enabled[i] = !p->counters[i].optional || (opcnt && p->counters[i].enabled);
	if (mode == RDMA_COUNTER_MODE_MANUAL)
		p->mode = RDMA_COUNTER_MODE_MANUAL; /* __counter_set_mode(port_counter, MANUAL, 0) */
	p->num_counters++;
	q->counter = k->id;
	return k;
}

/* counter_release and rdma_counter_free, once no QP holds the counter: num_counters--, and a manual
 * port without counters goes back to none */
static void counter_put(struct fk_device *d, uint32_t id)
{
	for (int i = 0; i < d->nqps; i++)
		if (d->qps[i].counter == id)
			return;
	struct fk_qpcounter *k = qpcounter_by_id(d, id);
	if (!k)
		return;
	struct fk_port *p = &d->ports[k->port];
	p->num_counters--;
	if (!p->num_counters && p->mode == RDMA_COUNTER_MODE_MANUAL)
		p->mode = RDMA_COUNTER_MODE_NONE;
	*k = d->qpcounters[--d->nqpcounters];
}

/* rdma_counter_unbind_qp(qp, true) */
static void counter_unbind_qp(struct fk_device *d, struct fk_qp *q)
{
	uint32_t id = q->counter;
	if (!id)
		return;
	q->counter = 0;
	counter_put(d, id);
}

/* rdma_counter_bind_qp_auto: user QPs only, on a port in auto mode; the first counter whose
 * parameters match (auto_mode_match: same type, same pid, as the mask says), else a new one */
static void counter_bind_qp_auto(struct fk_device *d, struct fk_qp *q)
{
	struct fk_port *p = &d->ports[q->port];
	if (!q->pid || q->counter || !port_valid(d, q->port) || p->mode != RDMA_COUNTER_MODE_AUTO)
		return;
	for (int i = 0; i < d->nqpcounters; i++) {
		struct fk_qpcounter *k = &d->qpcounters[i];
		if (k->port != q->port || k->mode != RDMA_COUNTER_MODE_AUTO)
			continue;
		if ((p->mask & RDMA_COUNTER_MASK_QP_TYPE) && k->qp_type != q->type)
			continue;
		if ((p->mask & RDMA_COUNTER_MASK_PID) && k->pid != q->pid)
			continue;
		q->counter = k->id;
		return;
	}
	alloc_and_bind(d, q->port, q, RDMA_COUNTER_MODE_AUTO, 0);
}

/* fill_res_counter_entry: port, id, fill_stat_counter_mode (the mode; in auto mode the type and
 * pid the mask groups by), fill_stat_counter_qps, fill_stat_counter_hwcounters (enabled ones) */
static int fill_counter(struct buf *b, struct fk_device *d, struct fk_qpcounter *k, uint32_t port)
{
	if (port && port != k->port)
		return -EAGAIN;
	if (put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, k->port) || put_u32(b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, k->id) ||
	    put_u32(b, RDMA_NLDEV_ATTR_STAT_MODE, k->mode))
		return -EMSGSIZE;
	if (k->mode == RDMA_COUNTER_MODE_AUTO) {
		int mask = d->ports[k->port].mask;
		if ((mask & RDMA_COUNTER_MASK_QP_TYPE) && put_u8(b, RDMA_NLDEV_ATTR_RES_TYPE, k->qp_type))
			return -EMSGSIZE;
		if ((mask & RDMA_COUNTER_MASK_PID) && put_u32(b, RDMA_NLDEV_ATTR_RES_PID, k->pid))
			return -EMSGSIZE;
	}
	int t = nest_start(b, RDMA_NLDEV_ATTR_RES_QP);
	if (t < 0)
		return -EMSGSIZE;
	for (int i = 0; i < d->nqps; i++) {
		if (d->qps[i].counter != k->id)
			continue;
		int e = nest_start(b, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		if (e < 0 || put_u32(b, RDMA_NLDEV_ATTR_RES_LQPN, d->qps[i].lqpn))
			return -EMSGSIZE;
		nest_end(b, e);
	}
	nest_end(b, t);
	t = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (t < 0)
		return -EMSGSIZE;
	for (int i = 0; i < k->nvalues; i++)
		if (k->enabled[i] && hwcounter_entry(b, d->ports[k->port].counters[i].name, k->values[i]))
			return -EMSGSIZE;
	nest_end(b, t);
	return 0;
}

/* nldev_res_get_counter_dumpit: res_get_common_dumpit over the device's counters, as res_qp_dumpit */
static int res_counter_dumpit(struct conn *c, struct request *r, long *args, struct buf *b)
{
	uint32_t index, port = 0;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d)
		return -EINVAL;
	if (r->a.tb[RDMA_NLDEV_ATTR_PORT_INDEX] &&
	    (get_u32(r->a.tb[RDMA_NLDEV_ATTR_PORT_INDEX], &port) || !port_valid(d, port)))
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET),
			NLM_F_MULTI);
	if (m < 0 || fill_handle(b, d)) {
		cancel(b, m < 0 ? b->len : m);
		return -EMSGSIZE;
	}
	int t = nest_start(b, RDMA_NLDEV_ATTR_STAT_COUNTER);
	if (t < 0) {
		cancel(b, m);
		return -EMSGSIZE;
	}
	int filled = 0;
	long idx;
	for (idx = 0; idx < d->nqpcounters; idx++) {
		if (idx < args[0])
			continue;
		filled = 1;
		int mark = b->len;
		int e = nest_start(b, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
		if (e < 0)
			break;
		int ret = fill_counter(b, d, &d->qpcounters[idx], port);
		if (ret) {
			cancel(b, mark);
			if (ret == -EMSGSIZE)
				break;
			continue; /* -EAGAIN */
		}
		nest_end(b, e);
	}
	nest_end(b, t);
	msg_end(b, m);
	args[0] = idx;
	if (!filled) {
		cancel(b, m);
		return 0;
	}
	return b->len;
}

/* stat_get_doit_qp: with a counter id, nldev_res_get_counter_doit (res_get_common_doit, which needs
 * the port for a counter and answers ENOENT for an unknown id); otherwise the port's mode, which
 * needs RDMA_NLDEV_ATTR_STAT_MODE in the request */
static int stat_get_doit_qp(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t res, index, port, id;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_RES, &res) || res != RDMA_NLDEV_ATTR_RES_QP)
		return -EINVAL;
	int with_id = r->a.tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] != NULL;
	if ((!with_id && !r->a.tb[RDMA_NLDEV_ATTR_STAT_MODE]) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_PORT_INDEX, &port))
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d || !port_valid(d, port))
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET), 0);
	if (m < 0 || fill_handle(b, d))
		return -EMSGSIZE;
	if (with_id) {
		if (handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, &id))
			return -EINVAL;
		struct fk_qpcounter *k = qpcounter_by_id(d, id);
		if (!k)
			return -ENOENT;
		int ret = fill_counter(b, d, k, port);
		if (ret)
			return ret;
	} else {
		struct fk_port *p = &d->ports[port];
		if (put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port) || put_u32(b, RDMA_NLDEV_ATTR_STAT_MODE, p->mode))
			return -EMSGSIZE;
		if (p->mode == RDMA_COUNTER_MODE_AUTO && put_u32(b, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, p->mask))
			return -EMSGSIZE;
	}
	msg_end(b, m);
	return 0;
}

/* nldev_stat_set_mode_doit: queue pairs only; auto mode (rdma_counter_set_auto_mode), or a manual
 * bind of a queue pair number to a new counter (rdma_counter_bind_qpn_alloc) or to one given
 * (rdma_counter_bind_qpn); the reply names the counter and the queue pair */
static int stat_set_mode_doit(struct conn *c, struct request *r, struct buf *b, struct fk_device *d,
			      uint32_t port)
{
	uint32_t res, mode, mask = 0, lqpn, id = 0;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_RES, &res) || res != RDMA_NLDEV_ATTR_RES_QP ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_MODE, &mode))
		return -EINVAL;
	struct fk_port *p = &d->ports[port];
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_SET), 0);
	if (m < 0 || fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	if (mode == RDMA_COUNTER_MODE_AUTO) {
		if (r->a.tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] &&
		    get_u32(r->a.tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK], &mask))
			return -EINVAL;
		if (!p->has_stats)
			return -EOPNOTSUPP;
		int next = mask ? RDMA_COUNTER_MODE_AUTO
				: (p->num_counters ? RDMA_COUNTER_MODE_MANUAL : RDMA_COUNTER_MODE_NONE);
		if (next != p->mode || (int)mask != p->mask) {
			/* __counter_set_mode */
			if (next == RDMA_COUNTER_MODE_AUTO) {
				if (mask & ~(RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID))
					return -EINVAL;
				if (p->num_counters)
					return -EBUSY;
			}
			p->mode = next;
			p->mask = mask;
		}
		msg_end(b, m);
		counts_stat_set++;
		return 0;
	}
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_RES_LQPN, &lqpn))
		return -EINVAL;
	if (p->mode == RDMA_COUNTER_MODE_AUTO)
		return -EINVAL;
	struct fk_qp *q = counter_get_qp(c, d, lqpn);
	if (!q)
		return -ENOENT;
	if (r->a.tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]) {
		/* rdma_counter_bind_qpn */
		if (get_u32(r->a.tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID], &id))
			return -EINVAL;
		struct fk_qpcounter *k = qpcounter_by_id(d, id);
		if (!k)
			return -ENOENT;
		if ((k->pid == 0) != (q->pid == 0) || k->port != q->port)
			return -EINVAL;
		if (q->counter) /* __rdma_counter_bind_qp */
			return -EINVAL;
		q->counter = k->id;
	} else {
		/* rdma_counter_bind_qpn_alloc */
		if (!p->has_stats)
			return -EOPNOTSUPP;
		if (port_valid(d, q->port) && q->port != port)
			return -EINVAL;
		if (q->counter) /* alloc_and_bind fails in __rdma_counter_bind_qp: NULL, -ENOMEM */
			return -ENOMEM;
		struct fk_qpcounter *k = alloc_and_bind(d, port, q, RDMA_COUNTER_MODE_MANUAL, bind_opcnt);
		if (!k)
			return -ENOMEM;
		id = k->id;
	}
	if (put_u32(b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id) || put_u32(b, RDMA_NLDEV_ATTR_RES_LQPN, lqpn))
		return -EMSGSIZE;
	msg_end(b, m);
	counts_stat_set++;
	return 0;
}

/* nldev_stat_del_doit: every attribute is required; the reply has the type of STAT_SET; then
 * rdma_counter_unbind_qpn, which wants the QP bound to that counter on a port in manual mode */
static int stat_del_doit(struct conn *c, struct request *r, struct buf *b)
{
	uint32_t res, index, port, id, lqpn;
	if (handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_RES, &res) || handle_u32(&r->a, RDMA_NLDEV_ATTR_DEV_INDEX, &index) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_PORT_INDEX, &port) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, &id) ||
	    handle_u32(&r->a, RDMA_NLDEV_ATTR_RES_LQPN, &lqpn) || res != RDMA_NLDEV_ATTR_RES_QP)
		return -EINVAL;
	struct fk_device *d = device_by_index(index);
	if (!d || !port_valid(d, port))
		return -EINVAL;
	int m = msg_put(b, c->portid, r->nlh->nlmsg_seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_SET), 0);
	if (m < 0 || fill_handle(b, d) || put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port) ||
	    put_u32(b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id) || put_u32(b, RDMA_NLDEV_ATTR_RES_LQPN, lqpn))
		return -EMSGSIZE;
	struct fk_qp *q = counter_get_qp(c, d, lqpn);
	if (!q)
		return -ENOENT;
	if (port_valid(d, q->port) && q->port != port)
		return -EINVAL;
	if (!q->counter || q->counter != id || d->ports[port].mode != RDMA_COUNTER_MODE_MANUAL)
		return -EINVAL;
	counter_unbind_qp(d, q);
	msg_end(b, m);
	counts_stat_del++;
	return 0;
}

typedef int (*doit_fn)(struct conn *, struct request *, struct buf *);
typedef int (*dumpit_fn)(struct conn *, struct request *, long *, struct buf *);

/* nldev_cb_table, for the ops the fake models */
static const struct {
	doit_fn doit;
	dumpit_fn dump;
	int admin;
} cb_table[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = { get_doit, get_dumpit, 0 },
	[RDMA_NLDEV_CMD_RES_QP_GET] = { NULL, res_qp_dumpit, 0 },
	[RDMA_NLDEV_CMD_STAT_SET] = { stat_set_doit, NULL, 1 },
	[RDMA_NLDEV_CMD_STAT_GET] = { stat_get_doit, stat_get_dumpit, 0 },
	[RDMA_NLDEV_CMD_STAT_DEL] = { stat_del_doit, NULL, 1 },
	[RDMA_NLDEV_CMD_STAT_GET_STATUS] = { stat_get_status_doit, NULL, 0 },
	[RDMA_NLDEV_CMD_SYS_GET] = { sys_get_doit, NULL, 0 },
};

/* ---- sending ---- */

static int send_buf(struct conn *c, struct buf *b)
{
	if (b->len >= NLMSG_HDRLEN) {
		struct nlmsghdr *h = (struct nlmsghdr *)b->data;
		pthread_mutex_lock(&lock);
		if (fault_wrong_seq) {
			fault_wrong_seq = 0;
			h->nlmsg_seq += 1000;
		}
		if (fault_wrong_pid) {
			fault_wrong_pid = 0;
			h->nlmsg_pid += 1;
		}
		counts_datagrams++;
		pthread_mutex_unlock(&lock);
	}
	/* MSG_NOSIGNAL: a reader that went away is EPIPE, not SIGPIPE */
	return send(c->fd, b->data, b->len, MSG_NOSIGNAL) == b->len ? 0 : -1;
}

/*
 * rdma_nl_notify_event (nldev.c): one message, nlmsg_put(skb, 0, 0, RDMA_NLDEV_CMD_MONITOR, 0, 0),
 * multicast with rdma_nl_multicast to RDMA_NL_GROUP_NOTIFY. Register, unregister and rename carry
 * fill_nldev_handle; a netdev attach or detach fill_mon_netdev_association (device, port, and the
 * netdev while one is attached); a netdev rename fill_mon_netdev_rename (the netdev only). Call
 * with the lock held.
 */
static void notify(struct fk_device *d, uint32_t port, int type)
{
	if (monitor_level < 1 || (type >= FK_RENAME_EVENT && monitor_level < 2))
		return;
	char data[FK_DEFAULT_SIZE];
	struct buf b = { data, sizeof(data), 0 };
	int m = msg_put(&b, 0, 0, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, FK_CMD_MONITOR), 0);
	struct fk_port *p = &d->ports[port];
	int err = m < 0;
	if (type == FK_REGISTER_EVENT || type == FK_UNREGISTER_EVENT || type == FK_RENAME_EVENT) {
		err = err || fill_handle(&b, d);
	} else if (type == FK_NETDEV_ATTACH_EVENT || type == FK_NETDEV_DETACH_EVENT) {
		err = err || fill_handle(&b, d) || put_u32(&b, RDMA_NLDEV_ATTR_PORT_INDEX, port);
		if (p->ndev_index)
			err = err || put_u32(&b, RDMA_NLDEV_ATTR_NDEV_INDEX, p->ndev_index) ||
			      put_string(&b, RDMA_NLDEV_ATTR_NDEV_NAME, p->ndev_name);
	} else if (p->ndev_index) {
		err = err || put_u32(&b, RDMA_NLDEV_ATTR_NDEV_INDEX, p->ndev_index) ||
		      put_string(&b, RDMA_NLDEV_ATTR_NDEV_NAME, p->ndev_name);
	}
	if (err || put_u8(&b, FK_ATTR_EVENT_TYPE, type))
		return;
	msg_end(&b, m);
	notify_raw(b.data, b.len);
}

/* netlink_broadcast: to every member of the group; a full receive buffer drops the message */
static void notify_raw(const void *data, int len)
{
	for (int i = 0; i < FK_MAX_CONNS; i++) {
		if (conns[i] && (conns[i]->groups & (1u << (FK_GROUP_NOTIFY - 1)))) {
			send(conns[i]->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
			counts_events++;
		}
	}
}

/* netlink_ack */
static int send_ack(struct conn *c, const struct nlmsghdr *req, int err)
{
	int echo = err ? req->nlmsg_len : NLMSG_HDRLEN;
	char data[NLMSG_SPACE(sizeof(struct nlmsgerr)) + 65536];
	struct buf b = { data, NLMSG_HDRLEN + (int)sizeof(int) + echo, 0 };
	int m = msg_put(&b, c->portid, req->nlmsg_seq, NLMSG_ERROR, err ? 0 : NLM_F_CAPPED);
	memcpy(b.data + b.len, &err, sizeof(int));
	memcpy(b.data + b.len + sizeof(int), req, echo);
	b.len += sizeof(int) + echo;
	msg_end(&b, m);
	return send_buf(c, &b);
}

/* netlink_dump and netlink_dump_done */
static int run_dump(struct conn *c, struct request *r, dumpit_fn dump)
{
	long args[6] = { 0 };
	int done_errno = 1;
	char *data = malloc(goodsize);
	if (!data)
		return -1;
	for (;;) {
		struct buf b = { data, goodsize, 0 };
		pthread_mutex_lock(&lock);
		if (done_errno > 0)
			done_errno = dump(c, r, args, &b);
		pthread_mutex_unlock(&lock);
		if (done_errno > 0 || b.cap - b.len < (int)NLMSG_SPACE(sizeof(int))) {
			if (send_buf(c, &b)) {
				free(data);
				return -1;
			}
			continue;
		}
		int m = msg_put(&b, c->portid, r->nlh->nlmsg_seq, NLMSG_DONE, NLM_F_MULTI);
		memcpy(b.data + b.len, &done_errno, sizeof(int));
		b.len += sizeof(int);
		msg_end(&b, m);
		int ret = send_buf(c, &b);
		free(data);
		return ret;
	}
}

/*
 * A device that does not answer. nldev's handlers wait on the device: nldev_stat_get_doit
 * (stat_get_doit_default_counter) reads a port's counters with ib_dev->ops.get_hw_stats, and the
 * counter dump (nldev_res_get_counter_dumpit, fill_res_counter_entry) a bound counter's with
 * rdma_counter_query_stats, both mlx5_ib_get_hw_stats on mlx5: a QUERY_VPORT_COUNTER or
 * QUERY_Q_COUNTER firmware command in mlx5_cmd_exec, which waits up to the command timeout. The kernel runs them in the requester's sendmsg
 * (netlink_unicast_kernel calls rdma_nl_rcv), so the request does not return until the
 * device answers. Here a held op blocks the connection's server thread before its handler
 * runs, and the client waits for the reply instead, up to its reply timeout. One op, or every
 * op (hold_op == RDMA_NLDEV_NUM_OPS); fake_nldev_release lets every held request go on.
 */
static pthread_cond_t hold_cond = PTHREAD_COND_INITIALIZER;
static int hold_op = -1;
static long hold_generation;
static int held;

static void hold_point(unsigned int op)
{
	pthread_mutex_lock(&lock);
	if (hold_op == (int)op || hold_op == RDMA_NLDEV_NUM_OPS) {
		long generation = hold_generation;
		held++;
		while (generation == hold_generation)
			pthread_cond_wait(&hold_cond, &lock);
		held--;
	}
	pthread_mutex_unlock(&lock);
}

/* rdma_nl_rcv_msg: the error to acknowledge, or -EINTR for a dump that was started */
static int rcv_msg(struct conn *c, const struct nlmsghdr *nlh)
{
	unsigned int client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	if (client != RDMA_NL_NLDEV || op >= RDMA_NLDEV_NUM_OPS)
		return -EINVAL;
	if (!cb_table[op].doit && !cb_table[op].dump)
		return -EINVAL;
	if (cb_table[op].admin && !c->cap_net_admin) {
		pthread_mutex_lock(&lock);
		counts_eperm++;
		pthread_mutex_unlock(&lock);
		return -EPERM;
	}
	struct request r = { nlh };
	if (parse((const char *)nlh + NLMSG_HDRLEN, nlh->nlmsg_len - NLMSG_HDRLEN, &r.a))
		return -EINVAL;
	hold_point(op);
	if (nlh->nlmsg_flags & NLM_F_DUMP) {
		if (!cb_table[op].dump)
			return -EINVAL;
		pthread_mutex_lock(&lock);
		counts_dumps++;
		pthread_mutex_unlock(&lock);
		run_dump(c, &r, cb_table[op].dump);
		return -EINTR;
	}
	if (!cb_table[op].doit)
		return -EINVAL;
	char data[FK_DEFAULT_SIZE];
	struct buf b = { data, sizeof(data), 0 };
	pthread_mutex_lock(&lock);
	int err = cb_table[op].doit(c, &r, &b);
	pthread_mutex_unlock(&lock);
	if (err)
		return err;
	/* rdma_nl_unicast: the reply, before the acknowledgement */
	send_buf(c, &b);
	return 0;
}

/* rdma_nl_rcv_skb */
static void rcv_datagram(struct conn *c, const char *data, int len)
{
	int off = 0;
	while (len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(data + off);
		int err = 0;
		if (nlh->nlmsg_len < NLMSG_HDRLEN || (int)nlh->nlmsg_len > len - off)
			return;
		pthread_mutex_lock(&lock);
		counts_requests++;
		int silent = fault_silent;
		fault_silent = 0;
		pthread_mutex_unlock(&lock);
		if (silent)
			return;
		if ((nlh->nlmsg_flags & NLM_F_REQUEST) && nlh->nlmsg_type >= NLMSG_MIN_TYPE)
			err = rcv_msg(c, nlh);
		if (err != -EINTR && ((nlh->nlmsg_flags & NLM_F_ACK) || err))
			send_ack(c, nlh, err);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

static int peer_has_cap(pid_t pid, int cap)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int has = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			has = (caps >> cap) & 1;
			break;
		}
	}
	fclose(f);
	return has;
}

static void forget_conn(struct conn *c)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FK_MAX_CONNS; i++)
		if (conns[i] == c)
			conns[i] = NULL;
	pthread_mutex_unlock(&lock);
}

static void *serve(void *arg)
{
	struct conn *c = arg;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	c->portid = getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 ? (uint32_t)cred.pid : 0;
	pthread_mutex_lock(&lock);
	c->cap_net_admin = cap_mode >= 0 ? cap_mode : peer_has_cap(cred.pid, FK_CAP_NET_ADMIN);
	c->cap_net_raw = peer_has_cap(cred.pid, FK_CAP_NET_RAW);
	pthread_mutex_unlock(&lock);
	char *data = malloc(65536);
	for (;;) {
		ssize_t n = recv(c->fd, data, 65536, 0);
		if (n <= 0)
			break;
		rcv_datagram(c, data, (int)n);
	}
	free(data);
	/* out of the groups before the socket closes: notify() sends under the lock */
	forget_conn(c);
	close(c->fd);
	pthread_mutex_lock(&lock);
	counts_open--;
	pthread_mutex_unlock(&lock);
	free(c);
	return NULL;
}

static int start(int fd, int client_fd)
{
	struct conn *c = calloc(1, sizeof(*c));
	pthread_t thread;
	c->fd = fd;
	c->client_fd = client_fd;
	struct stat st;
	if (client_fd >= 0 && fstat(client_fd, &st) == 0)
		c->client_ino = st.st_ino;
	pthread_mutex_lock(&lock);
	counts_open++;
	for (int i = 0; i < FK_MAX_CONNS; i++) {
		if (!conns[i]) {
			conns[i] = c;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	if (pthread_create(&thread, NULL, serve, c)) {
		forget_conn(c);
		close(fd);
		free(c);
		return -1;
	}
	pthread_detach(thread);
	return 0;
}

static void *accept_loop(void *arg)
{
	int fd = (int)(intptr_t)arg;
	for (;;) {
		int client = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		if (client < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		start(client, -1);
	}
	return NULL;
}

/* ---- control API ---- */

FAKE_EXPORT void fake_nldev_reset(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FK_MAX_DEVICES; i++) {
		free(devices[i].qps);
		free(devices[i].qpcounters);
	}
	memset(devices, 0, sizeof(devices));
	ndevices = 0;
	cap_mode = -1;
	goodsize = FK_GOODSIZE;
	counts_requests = counts_dumps = counts_stat_set = counts_eperm = counts_datagrams = counts_stat_del = 0;
	fault_wrong_seq = fault_wrong_pid = fault_silent = 0;
	monitor_level = 2;
	fault_join = 0;
	counts_events = 0;
	bind_opcnt = 0;
	hold_op = -1;
	hold_generation++;
	pthread_cond_broadcast(&hold_cond);
	pthread_mutex_unlock(&lock);
}

/* Returns the new device's index (ib_device index, from 0), or -1. */
FAKE_EXPORT int fake_nldev_add_device(const char *name, int nports, uint64_t node_guid, const char *fw,
				      const char *protocol)
{
	if (nports < 1 || nports > FK_MAX_PORTS)
		return -1;
	pthread_mutex_lock(&lock);
	if (ndevices == FK_MAX_DEVICES) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	struct fk_device *d = &devices[ndevices];
	d->in_use = 1;
	d->index = ndevices;
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->fw, sizeof(d->fw), "%s", fw);
	snprintf(d->protocol, sizeof(d->protocol), "%s", protocol);
	d->nports = nports;
	d->node_guid = node_guid;
	d->next_counter_id = 1;
	int index = ndevices++;
	notify(d, 0, FK_REGISTER_EVENT);
	pthread_mutex_unlock(&lock);
	return index;
}

/* Removes a device, as ib_unregister_device does; its index is not reused. */
FAKE_EXPORT int fake_nldev_remove_device(int index)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	if (d) {
		/* __ib_unregister_device: disable_device, then the event, while it is still listed */
		notify(d, 0, FK_UNREGISTER_EVENT);
		d->in_use = 0;
	}
	pthread_mutex_unlock(&lock);
	return d ? 0 : -1;
}

FAKE_EXPORT int fake_nldev_add_counter(int index, int port, const char *name, int optional, int enabled,
				       uint64_t value)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ret = -1;
	if (d && port_valid(d, port) && d->ports[port].ncounters < FK_MAX_COUNTERS) {
		struct fk_port *p = &d->ports[port];
		struct fk_counter *k = &p->counters[p->ncounters++];
		p->has_stats = 1;
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->optional = optional;
		k->enabled = optional ? enabled : 1;
		k->value = value;
		ret = p->ncounters - 1;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

FAKE_EXPORT int fake_nldev_set_counter(int index, int port, const char *name, uint64_t value)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ret = -1;
	if (d && port_valid(d, port)) {
		for (int i = 0; i < d->ports[port].ncounters; i++) {
			if (strcmp(d->ports[port].counters[i].name, name) == 0) {
				d->ports[port].counters[i].value = value;
				ret = 0;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* Returns 1 if the counter is enabled, 0 if not, -1 if there is none. */
FAKE_EXPORT int fake_nldev_counter_enabled(int index, int port, const char *name)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ret = -1;
	if (d && port_valid(d, port))
		for (int i = 0; i < d->ports[port].ncounters; i++)
			if (strcmp(d->ports[port].counters[i].name, name) == 0)
				ret = d->ports[port].counters[i].enabled;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* Adds count QPs numbered from first_lqpn; pid 0 makes kernel QPs owned by kern_name. */
FAKE_EXPORT int fake_nldev_add_qps(int index, int port, int count, uint32_t first_lqpn, int type, int state,
				   uint32_t pid, const char *kern_name)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	if (!d || port < 0 || port > (int)d->nports || count < 0) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	if (d->nqps + count > d->qp_capacity) {
		int capacity = (d->nqps + count) * 2;
		struct fk_qp *qps = realloc(d->qps, capacity * sizeof(*qps));
		if (!qps) {
			pthread_mutex_unlock(&lock);
			return -1;
		}
		d->qps = qps;
		d->qp_capacity = capacity;
	}
	for (int i = 0; i < count; i++) {
		struct fk_qp *q = &d->qps[d->nqps++];
		memset(q, 0, sizeof(*q));
		q->port = port;
		q->lqpn = first_lqpn + i;
		q->type = type;
		q->state = state;
		q->pid = pid;
		snprintf(q->kern_name, sizeof(q->kern_name), "%s", kern_name ? kern_name : "");
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

/*
 * rdma_restrack_add, an update on modify, and rdma_restrack_del (drivers/infiniband/core/
 * restrack.c) for a QP this process created through the fake libibverbs (fake_set_restrack):
 * owned by this process, as res->task is the creator. A device that is not there is ignored,
 * as a QP of another namespace's device is.
 */
FAKE_EXPORT void fake_nldev_restrack(const char *device, uint32_t lqpn, int type, int state, int port, int alive)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = NULL;
	for (int i = 0; i < ndevices; i++)
		if (devices[i].in_use && strcmp(devices[i].name, device) == 0)
			d = &devices[i];
	int found = -1;
	for (int i = 0; d && i < d->nqps; i++)
		if (d->qps[i].lqpn == lqpn && d->qps[i].pid == (uint32_t)getpid())
			found = i;
	if (d && found >= 0 && !alive) {
		/* ib_destroy_qp_user: rdma_counter_unbind_qp(qp, true) before the QP goes */
		counter_unbind_qp(d, &d->qps[found]);
		memmove(&d->qps[found], &d->qps[found + 1], (d->nqps - found - 1) * sizeof(*d->qps));
		d->nqps--;
	} else if (d && found >= 0) {
		d->qps[found].state = state;
		d->qps[found].port = port;
		/* _ib_modify_qp: a move to INIT with a port binds in auto mode (rdma_counter_bind_qp_auto) */
		if (state == FK_QPS_INIT && port)
			counter_bind_qp_auto(d, &d->qps[found]);
	}
	pthread_mutex_unlock(&lock);
	if (d && found < 0 && alive)
		fake_nldev_add_qps((int)d->index, port, 1, lqpn, type, state, (uint32_t)getpid(), NULL);
}

/* -1: CAP_NET_ADMIN from the peer's credentials; 0: every peer lacks it; 1: every peer has it.
 * Applies to connections made afterwards. */
FAKE_EXPORT void fake_nldev_set_cap_net_admin(int mode)
{
	pthread_mutex_lock(&lock);
	cap_mode = mode;
	pthread_mutex_unlock(&lock);
}

FAKE_EXPORT void fake_nldev_set_dump_size(int size)
{
	pthread_mutex_lock(&lock);
	goodsize = size;
	pthread_mutex_unlock(&lock);
}

/* The next datagram sent carries a wrong sequence number ("seq") or port id ("pid"), or the next
 * request gets no answer at all ("silent"). */
FAKE_EXPORT int fake_nldev_inject(const char *fault)
{
	int ret = 0;
	pthread_mutex_lock(&lock);
	if (strcmp(fault, "seq") == 0)
		fault_wrong_seq = 1;
	else if (strcmp(fault, "pid") == 0)
		fault_wrong_pid = 1;
	else if (strcmp(fault, "silent") == 0)
		fault_silent = 1;
	else if (strcmp(fault, "join") == 0)
		fault_join = 1;
	else
		ret = -1;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* Hold every request of an op ("get", "stat_get", "stat_get_status", "stat_set", "stat_del",
 * "res_qp_get", "sys_get") or of every op ("all") until fake_nldev_release: 0, or -1 for another
 * name. */
FAKE_EXPORT int fake_nldev_hold(const char *command)
{
	static const struct {
		const char *name;
		int op;
	} ops[] = { { "get", RDMA_NLDEV_CMD_GET },
		    { "stat_get", RDMA_NLDEV_CMD_STAT_GET },
		    { "stat_get_status", RDMA_NLDEV_CMD_STAT_GET_STATUS },
		    { "stat_set", RDMA_NLDEV_CMD_STAT_SET },
		    { "stat_del", RDMA_NLDEV_CMD_STAT_DEL },
		    { "res_qp_get", RDMA_NLDEV_CMD_RES_QP_GET },
		    { "sys_get", RDMA_NLDEV_CMD_SYS_GET },
		    { "all", RDMA_NLDEV_NUM_OPS } };
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strcmp(command, ops[i].name) == 0) {
			pthread_mutex_lock(&lock);
			hold_op = ops[i].op;
			pthread_mutex_unlock(&lock);
			return 0;
		}
	}
	return -1;
}

/* Let every held request go on, and hold no more. */
FAKE_EXPORT void fake_nldev_release(void)
{
	pthread_mutex_lock(&lock);
	hold_op = -1;
	hold_generation++;
	pthread_cond_broadcast(&hold_cond);
	pthread_mutex_unlock(&lock);
}

/* How many requests wait in a hold now. */
FAKE_EXPORT int fake_nldev_held(void)
{
	pthread_mutex_lock(&lock);
	int ret = held;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* whether the fake still serves the connection of a client socket, named by its inode */
FAKE_EXPORT int fake_nldev_serving(uint64_t client_ino)
{
	int serving = 0;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FK_MAX_CONNS; i++)
		if (conns[i] && (uint64_t)conns[i]->client_ino == client_ino)
			serving = 1;
	pthread_mutex_unlock(&lock);
	return serving;
}

FAKE_EXPORT long fake_nldev_count(const char *what)
{
	long ret = -1;
	pthread_mutex_lock(&lock);
	if (strcmp(what, "requests") == 0)
		ret = counts_requests;
	else if (strcmp(what, "dumps") == 0)
		ret = counts_dumps;
	else if (strcmp(what, "stat_set") == 0)
		ret = counts_stat_set;
	else if (strcmp(what, "eperm") == 0)
		ret = counts_eperm;
	else if (strcmp(what, "open") == 0)
		ret = counts_open;
	else if (strcmp(what, "datagrams") == 0)
		ret = counts_datagrams;
	else if (strcmp(what, "events") == 0)
		ret = counts_events;
	else if (strcmp(what, "stat_del") == 0)
		ret = counts_stat_del;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ---- control API of the queue pair counters ---- */

/* 1: model Linux 6.15, where a manual bind binds the port's enabled optional counters too */
FAKE_EXPORT void fake_nldev_set_bind_opcnt(int on)
{
	pthread_mutex_lock(&lock);
	bind_opcnt = on;
	pthread_mutex_unlock(&lock);
}

/* Traffic of a queue pair: the port counts it, and so does the counter the QP is bound to. */
FAKE_EXPORT int fake_nldev_qp_traffic(int index, uint32_t lqpn, const char *name, uint64_t delta)
{
	int ret = -1;
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	struct fk_qp *q = d ? qp_by_number(d, lqpn) : NULL;
	if (q && port_valid(d, q->port)) {
		struct fk_port *p = &d->ports[q->port];
		struct fk_qpcounter *k = q->counter ? qpcounter_by_id(d, q->counter) : NULL;
		for (int i = 0; i < p->ncounters; i++) {
			if (strcmp(p->counters[i].name, name) != 0)
				continue;
			p->counters[i].value += delta;
			if (k && k->enabled[i])
				k->values[i] += delta;
			ret = 0;
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* The id of the counter a QP is bound to, 0 if none, -1 without such a QP. */
FAKE_EXPORT long fake_nldev_qp_counter(int index, uint32_t lqpn)
{
	long ret = -1;
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	struct fk_qp *q = d ? qp_by_number(d, lqpn) : NULL;
	if (q)
		ret = q->counter;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* The port's counter mode and mask (mode | mask << 8), or -1. */
FAKE_EXPORT int fake_nldev_port_counter_mode(int index, int port)
{
	int ret = -1;
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	if (d && port_valid(d, port))
		ret = d->ports[port].mode | d->ports[port].mask << 8;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* The number of counters the device has. */
FAKE_EXPORT int fake_nldev_qp_counters(int index)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ret = d ? d->nqpcounters : -1;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* Returns the client's end of a new socketpair whose other end the fake serves, or -1. */
FAKE_EXPORT int fake_nldev_connect(void)
{
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds))
		return -1;
	if (start(fds[1], fds[0])) {
		close(fds[0]);
		return -1;
	}
	return fds[0];
}

/* Serves every connection made to a SOCK_SEQPACKET socket at path, as the shim makes them. */
FAKE_EXPORT int fake_nldev_listen(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	pthread_t thread;
	if (listen_fd >= 0)
		return -1;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 16) ||
	    pthread_create(&thread, NULL, accept_loop, (void *)(intptr_t)fd)) {
		close(fd);
		return -1;
	}
	pthread_detach(thread);
	listen_fd = fd;
	return 0;
}

/* ---- RDMA netlink's monitor ---- */

/* 0: a kernel before 6.12 (no monitor), 1: 6.12, 2: 6.13 and later, with the rename events. */
FAKE_EXPORT void fake_nldev_set_monitor(int level)
{
	pthread_mutex_lock(&lock);
	monitor_level = level;
	pthread_mutex_unlock(&lock);
}

/*
 * setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, group) on the client's end of a socketpair,
 * as netlink_setsockopt decides it: EPERM unless the kernel socket has NL_CFG_F_NONROOT_RECV
 * (rdma_nl_net_init sets it since 6.12) or the peer has CAP_NET_ADMIN; EINVAL for group 0 or one
 * beyond the protocol's 32. Returns 0 or the errno; the "join" fault refuses the next with EPERM.
 */
FAKE_EXPORT int fake_nldev_join(int client_fd, int group)
{
	int ret = EBADF;
	struct stat st;
	if (fstat(client_fd, &st))
		return EBADF;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FK_MAX_CONNS; i++) {
		struct conn *c = conns[i];
		/* by number and inode: the connection of an earlier socket with this number may not
		 * have seen its close yet */
		if (!c || c->client_fd != client_fd || c->client_ino != st.st_ino)
			continue;
		if (fault_join) {
			fault_join = 0;
			ret = EPERM;
		} else if (monitor_level < 1 && !c->cap_net_admin) {
			ret = EPERM;
		} else if (group < 1 || group > FK_NETLINK_GROUPS) {
			ret = EINVAL;
		} else {
			c->groups |= 1u << (group - 1);
			ret = 0;
		}
		break;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ib_device_rename, then the RENAME event with the new name */
FAKE_EXPORT int fake_nldev_rename_device(int index, const char *name)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	if (d) {
		snprintf(d->name, sizeof(d->name), "%s", name);
		notify(d, 0, FK_RENAME_EVENT);
	}
	pthread_mutex_unlock(&lock);
	return d ? 0 : -1;
}

/* ib_device_set_netdev: attaches a netdev to a port (name NULL detaches it), then the event */
FAKE_EXPORT int fake_nldev_set_netdev(int index, int port, uint32_t ifindex, const char *name)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ok = d && port_valid(d, port);
	if (ok) {
		struct fk_port *p = &d->ports[port];
		p->ndev_index = name ? ifindex : 0;
		snprintf(p->ndev_name, sizeof(p->ndev_name), "%s", name ? name : "");
		notify(d, port, name ? FK_NETDEV_ATTACH_EVENT : FK_NETDEV_DETACH_EVENT);
	}
	pthread_mutex_unlock(&lock);
	return ok ? 0 : -1;
}

/* ib_netdevice_event on NETDEV_CHANGENAME of an attached netdev */
FAKE_EXPORT int fake_nldev_rename_netdev(int index, int port, const char *name)
{
	pthread_mutex_lock(&lock);
	struct fk_device *d = device_by_index(index);
	int ok = d && port_valid(d, port) && d->ports[port].ndev_index;
	if (ok) {
		snprintf(d->ports[port].ndev_name, sizeof(d->ports[port].ndev_name), "%s", name);
		notify(d, port, FK_NETDEV_RENAME_EVENT);
	}
	pthread_mutex_unlock(&lock);
	return ok ? 0 : -1;
}

/* A raw message to the notify group, for the tests of malformed and unknown events. */
FAKE_EXPORT void fake_nldev_notify_raw(const void *data, int len)
{
	pthread_mutex_lock(&lock);
	notify_raw(data, len);
	pthread_mutex_unlock(&lock);
}
