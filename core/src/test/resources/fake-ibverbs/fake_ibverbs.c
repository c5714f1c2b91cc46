/*
 * A fake libibverbs for the tests of rdma-counters.
 *
 * It is compiled by the test run (io.github.rdmacounters.testsupport.FakeVerbs) against the
 * installed <infiniband/verbs.h> and exports the symbols the JNA binding calls. Contexts are
 * laid out the way libibverbs lays them out: a struct verbs_context whose op table lies before
 * the struct ibv_context handed out, with sz and abi_compat set. Counters, flows and reads
 * behave like the mlx5 provider and the kernel (static attach, EBUSY, EINVAL, aggregation).
 *
 * Raw packet QPs follow mlx5's state machine (RESET, INIT on a port, RTR); flows are accepted on
 * a UD or raw packet QP in any state, as the kernel does (ib_uverbs_ex_create_flow checks the QP
 * type and CAP_NET_RAW, never the state). Steering follows drivers/infiniband/hw/mlx5/fs.c: one
 * table per (priority, don't-trap), one match per table, don't-trap continues to lower priorities,
 * a trapping rule ends the walk; RoCE traffic (RoCEv2's UDP 4791, RoCEv1's Ethernet type 0x8915)
 * on a RoCE-enabled Ethernet port goes to the HCA's RoCE path and is seen by port and hw counters
 * only.
 *
 * Every handle is remembered in a registry and never freed, so a call on a destroyed or
 * unknown handle, or on a child of a closed context (ibv_close_device frees them all), is
 * detected and recorded as misuse instead of touching freed memory.
 * A control API (fake_*) lets the tests configure devices, inject packets and faults.
 */
#include <infiniband/verbs.h>

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#undef ibv_query_port

#define FAKE_MAX_DEVICES 16
#define FAKE_MAX_PORTS 8
#define FAKE_MAX_INDEX 256
#define FAKE_MAX_FAULTS 32
#define FAKE_MAX_MISUSE 256
#define FAKE_MISUSE_TEXT 200
#define FAKE_EXPORT __attribute__((visibility("default")))
/* MLX5_IB_FLOW_LAST_PRIO = MLX5_BY_PASS_NUM_REGULAR_PRIOS - 1 (drivers/infiniband/hw/mlx5/mlx5_ib.h,
 * include/linux/mlx5/device.h): mlx5_ib_create_flow fails with ENOMEM beyond it. */
#define FAKE_LAST_PRIO 15
#define FAKE_ROCE_V2_PORT 4791
#define FAKE_ROCE_V1_ETHER_TYPE 0x8915

enum fake_type {
	FAKE_LIST = 1,
	FAKE_CONTEXT,
	FAKE_PD,
	FAKE_CQ,
	FAKE_QP,
	FAKE_COUNTERS,
	FAKE_FLOW
};

static const char *const type_names[] = {
	"?", "device list", "context", "pd", "cq", "qp", "counters", "flow"
};

struct fake_port {
	int state;
	int phys_state;
	int link_layer;
	int active_mtu;
	int active_speed;
	int active_width;
};

struct fake_device {
	struct ibv_device dev; /* handed out as struct ibv_device * */
	int in_use;
	uint64_t guid;
	char fw[64];
	uint32_t vendor_id;
	uint32_t vendor_part_id;
	int nports;
	struct fake_port ports[FAKE_MAX_PORTS + 1];
	int counters_supported;
	int flow_steering;
	int legacy;
	size_t ctx_size; /* 0: sizeof(struct verbs_context) */
	int roce_disabled; /* devlink enable_roce=false: UDP 4791 is plain Ethernet traffic */
	int linux_before_5_8; /* create_dont_trap_rule without user data: a counted don't-trap flow fails */
	struct fake_port_counters {
		uint64_t rcv_packets, rcv_bytes, rx_write_requests, rx_read_requests, rx_atomic_requests;
	} counters[FAKE_MAX_PORTS + 1];
};

struct fake_context {
	struct verbs_context vctx; /* vctx.context is what the library hands out */
	int device;
};

struct fake_pd {
	struct ibv_pd pd;
};

struct fake_cq {
	struct ibv_cq cq;
};

struct fake_qp {
	struct ibv_qp qp;
	int port; /* set by the move to INIT */
};

struct fake_point {
	int desc;
	uint32_t index;
};

struct fake_flow;

struct fake_counters {
	struct ibv_counters counters;
	int npoints;
	struct fake_point points[FAKE_MAX_INDEX];
	uint64_t values[FAKE_MAX_INDEX];
	int nflows; /* mlx5_counters.refcount: flows created with this handle and not destroyed */
};

struct fake_match {
	int has_eth;
	struct ibv_flow_eth_filter eth_val, eth_mask;
	int has_ipv4;
	struct ibv_flow_ipv4_filter ipv4_val, ipv4_mask;
	int has_ipv6;
	struct ibv_flow_ipv6_filter ipv6_val, ipv6_mask;
	int l4_type; /* 0, IBV_FLOW_SPEC_TCP or IBV_FLOW_SPEC_UDP */
	struct ibv_flow_tcp_udp_filter l4_val, l4_mask;
};

struct fake_flow {
	struct ibv_flow flow;
	struct fake_qp *qp;
	int device;
	int port;
	int priority;
	uint32_t flags;
	struct fake_match match;
	struct fake_counters *counters;
	uint64_t packets;
	char specs[64]; /* the spec kinds in the order received, e.g. "eth,ipv4,udp,count" */
};

/* A packet handed in by fake_deliver; network byte order where the wire has it. */
struct fake_packet {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	uint16_t ether_type; /* host order */
	int32_t vlan_id; /* -1: untagged */
	int32_t ip_version; /* 0, 4 or 6 */
	uint8_t src_ip[16];
	uint8_t dst_ip[16];
	int32_t ip_protocol;
	int32_t src_port; /* host order */
	int32_t dst_port; /* host order */
	int32_t length;
	int32_t roce_op; /* RoCE opcode class of a UDP 4791 packet: 0 send, 1 write, 2 read, 3 atomic */
};

struct fake_object {
	void *ptr;
	int type;
	int alive;
	int orphaned; /* freed by ibv_close_device of its context, not by its own destroy */
	int device;
};

struct fake_fault {
	char verb[64];
	int err;
	int always;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fake_device devices[FAKE_MAX_DEVICES];
static int ndevices;
static int no_kernel_stack;
static int short_reads; /* read_counters accepts ncounters below the highest index + 1 */
static struct fake_object *objects;
static int nobjects;
static int objects_capacity;
static struct fake_fault faults[FAKE_MAX_FAULTS];
static int nfaults;
static char misuse_log[FAKE_MAX_MISUSE][FAKE_MISUSE_TEXT];
static int misuse_count;
static uint32_t next_handle = 1;
/* calls of the query verbs, counted whatever their outcome, for the tests of the query cache */
static long query_port_calls;
static long query_device_calls;
/* calls of the verbs that list and open devices, for the tests that nothing opens a device */
static long get_device_list_calls;
static long open_device_calls;

static void misuse(const char *fmt, ...)
{
	va_list ap;

	if (misuse_count < FAKE_MAX_MISUSE) {
		va_start(ap, fmt);
		vsnprintf(misuse_log[misuse_count], FAKE_MISUSE_TEXT, fmt, ap);
		va_end(ap);
	}
	misuse_count++;
}

static void remember(void *ptr, int type, int device)
{
	if (nobjects == objects_capacity) {
		int capacity = objects_capacity ? objects_capacity * 2 : 256;
		struct fake_object *grown = realloc(objects, capacity * sizeof(*grown));

		if (!grown)
			abort();
		objects = grown;
		objects_capacity = capacity;
	}
	objects[nobjects].ptr = ptr;
	objects[nobjects].type = type;
	objects[nobjects].alive = 1;
	objects[nobjects].orphaned = 0;
	objects[nobjects].device = device;
	nobjects++;
}

static struct fake_object *find(const void *ptr)
{
	for (int i = nobjects - 1; i >= 0; i--)
		if (objects[i].ptr == ptr)
			return &objects[i];
	return NULL;
}

/* Return the live object of that type, or NULL after recording the misuse. */
static struct fake_object *check(const char *verb, const void *ptr, int type)
{
	struct fake_object *obj = find(ptr);

	if (!obj) {
		misuse("%s: unknown %s handle", verb, type_names[type]);
		return NULL;
	}
	if (obj->type != type) {
		misuse("%s: handle is a %s, not a %s", verb, type_names[obj->type], type_names[type]);
		return NULL;
	}
	if (!obj->alive && obj->orphaned) {
		misuse("%s: %s handle used after its context was closed", verb, type_names[type]);
		return NULL;
	}
	if (!obj->alive) {
		misuse("%s: %s handle used after it was destroyed", verb, type_names[type]);
		return NULL;
	}
	return obj;
}

static int children_of(const void *parent, int type)
{
	int n = 0;

	for (int i = 0; i < nobjects; i++) {
		struct fake_object *obj = &objects[i];

		if (!obj->alive || obj->type != type)
			continue;
		switch (type) {
		case FAKE_PD:
			n += ((struct ibv_pd *)obj->ptr)->context == parent;
			break;
		case FAKE_CQ:
			n += ((struct ibv_cq *)obj->ptr)->context == parent;
			break;
		case FAKE_QP: {
			struct ibv_qp *qp = obj->ptr;

			n += qp->context == parent || (void *)qp->pd == parent || (void *)qp->send_cq == parent
					|| (void *)qp->recv_cq == parent;
			break;
		}
		case FAKE_COUNTERS:
			n += ((struct ibv_counters *)obj->ptr)->context == parent;
			break;
		case FAKE_FLOW:
			n += ((struct fake_flow *)obj->ptr)->flow.context == parent
					|| (void *)((struct fake_flow *)obj->ptr)->qp == parent;
			break;
		}
	}
	return n;
}

/* Return the context a PD, CQ, QP, counters or flow belongs to, or NULL for other types. */
static struct ibv_context *context_of(const struct fake_object *obj)
{
	switch (obj->type) {
	case FAKE_PD:
		return ((struct ibv_pd *)obj->ptr)->context;
	case FAKE_CQ:
		return ((struct ibv_cq *)obj->ptr)->context;
	case FAKE_QP:
		return ((struct ibv_qp *)obj->ptr)->context;
	case FAKE_COUNTERS:
		return ((struct ibv_counters *)obj->ptr)->context;
	case FAKE_FLOW:
		return ((struct fake_flow *)obj->ptr)->flow.context;
	default:
		return NULL;
	}
}

/* Return the errno to inject for this verb, or 0. */
static int fault(const char *verb)
{
	for (int i = 0; i < nfaults; i++) {
		if (strcmp(faults[i].verb, verb) == 0) {
			int err = faults[i].err;

			if (!faults[i].always) {
				faults[i] = faults[nfaults - 1];
				nfaults--;
			}
			return err;
		}
	}
	return 0;
}

/*
 * Held calls: a test makes ibv_read_counters or ibv_query_port stall the way mlx5 does while
 * the firmware does not answer. Both are one firmware command per call on mlx5: a counters
 * read is mlx5_cmd_fc_query (drivers/net/ethernet/mellanox/mlx5/core/fs_counters.c, via
 * mlx5_ib_read_counters), a port query reads the vport state (mlx5_query_vport_state); each
 * goes through mlx5_cmd_exec, whose wait_func sleeps until the firmware answers or the
 * command timeout (60 s, MLX5_CMD_TIMEOUT_MSEC) ends it with -ETIMEDOUT. A held call waits
 * outside the fake's lock, as the caller waits in the kernel with no libibverbs lock held,
 * until fake_release() (the firmware answered: the call goes on normally) or until its time
 * runs out (the command timeout: it fails with ETIMEDOUT). While a call on an object is held,
 * destroying the object or closing its context is misuse: the kernel's uverbs holds the object
 * for the call (uverbs_try_lock_object) and libibverbs frees it on close.
 */
#define FAKE_MAX_HELD 64

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cond = PTHREAD_COND_INITIALIZER;
static char hold_verb[64]; /* empty: nothing is held */
static struct timespec hold_until; /* CLOCK_REALTIME, as pthread_cond_timedwait measures */
static unsigned long hold_generation; /* bumped when a hold ends */
static int held_now;
static long held_calls;
static const void *held_objects[FAKE_MAX_HELD]; /* the object of each held call */
static const void *held_contexts[FAKE_MAX_HELD]; /* and its context */

static void hold_end_locked(void)
{
	hold_verb[0] = '\0';
	hold_generation++;
	pthread_cond_broadcast(&hold_cond);
}

/* Hold a call of verb on obj (the counters of ibv_read_counters, the context of ibv_query_port) while a hold
 * of that verb is on; 0 if released, ETIMEDOUT if its time ran out. */
static int hold(const char *verb, const void *obj)
{
	int rc = 0, slot = -1;
	unsigned long generation;
	const struct ibv_context *context;

	pthread_mutex_lock(&hold_lock);
	if (hold_verb[0] == '\0' || strcmp(hold_verb, verb) != 0) {
		pthread_mutex_unlock(&hold_lock);
		return 0;
	}
	/* handles are never freed (see above), so a held call may look at its object */
	context = (strcmp(verb, "ibv_read_counters") == 0) ? ((const struct ibv_counters *)obj)->context : obj;
	generation = hold_generation;
	held_now++;
	held_calls++;
	for (int i = 0; i < FAKE_MAX_HELD; i++) {
		if (!held_objects[i]) {
			held_objects[i] = obj;
			held_contexts[i] = context;
			slot = i;
			break;
		}
	}
	while (generation == hold_generation) {
		if (pthread_cond_timedwait(&hold_cond, &hold_lock, &hold_until) == ETIMEDOUT
				&& generation == hold_generation) {
			hold_end_locked();
			rc = ETIMEDOUT;
		}
	}
	if (slot >= 0) {
		held_objects[slot] = NULL;
		held_contexts[slot] = NULL;
	}
	held_now--;
	pthread_cond_broadcast(&hold_cond);
	pthread_mutex_unlock(&hold_lock);
	return rc;
}

/* Whether a call on obj (an object or a context), or on an object of the context obj, is held now. */
static int is_held(const void *obj)
{
	int held = 0;

	pthread_mutex_lock(&hold_lock);
	for (int i = 0; i < FAKE_MAX_HELD && !held; i++)
		held = held_objects[i] && (held_objects[i] == obj || held_contexts[i] == obj);
	pthread_mutex_unlock(&hold_lock);
	return held;
}

/* Hold every call of verb (ibv_read_counters or ibv_query_port) from now on, for at most ms milliseconds. */
FAKE_EXPORT int fake_hold(const char *verb, int ms)
{
	struct timespec now;

	if (strcmp(verb, "ibv_read_counters") != 0 && strcmp(verb, "ibv_query_port") != 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&hold_lock);
	hold_end_locked();
	snprintf(hold_verb, sizeof(hold_verb), "%s", verb);
	hold_until.tv_sec = now.tv_sec + ms / 1000;
	hold_until.tv_nsec = now.tv_nsec + (long)(ms % 1000) * 1000000L;
	if (hold_until.tv_nsec >= 1000000000L) {
		hold_until.tv_sec++;
		hold_until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_unlock(&hold_lock);
	return 0;
}

/* End the hold: the held calls go on as if the firmware answered. */
FAKE_EXPORT void fake_release(void)
{
	pthread_mutex_lock(&hold_lock);
	hold_end_locked();
	pthread_mutex_unlock(&hold_lock);
}

/* The number of calls held now. */
FAKE_EXPORT int fake_held(void)
{
	int n;

	pthread_mutex_lock(&hold_lock);
	n = held_now;
	pthread_mutex_unlock(&hold_lock);
	return n;
}

/* The number of calls held since the last fake_reset. */
FAKE_EXPORT long fake_held_calls(void)
{
	long n;

	pthread_mutex_lock(&hold_lock);
	n = held_calls;
	pthread_mutex_unlock(&hold_lock);
	return n;
}

static struct fake_device *device_of_context(struct ibv_context *ctx)
{
	struct fake_context *fc = (struct fake_context *)((uint8_t *)ctx - offsetof(struct verbs_context, context));

	return &devices[fc->device];
}

/* async events: defined in the block at the end of the file */
static void fake_async_open(struct ibv_context *ctx);
static void fake_async_close(struct ibv_context *ctx);
static int fake_async_gone(struct ibv_context *ctx);
static void fake_async_reset(void);

/* ---- exported libibverbs symbols ---------------------------------------------------------- */

FAKE_EXPORT struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct ibv_device **list;
	int err, n = 0;

	pthread_mutex_lock(&lock);
	get_device_list_calls++;
	if (no_kernel_stack) {
		pthread_mutex_unlock(&lock);
		errno = ENOSYS;
		return NULL;
	}
	err = fault("ibv_get_device_list");
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	list = calloc(FAKE_MAX_DEVICES + 1, sizeof(*list));
	for (int i = 0; i < ndevices; i++)
		if (devices[i].in_use)
			list[n++] = &devices[i].dev;
	remember(list, FAKE_LIST, -1);
	if (num_devices)
		*num_devices = n;
	pthread_mutex_unlock(&lock);
	return list;
}

FAKE_EXPORT void ibv_free_device_list(struct ibv_device **list)
{
	struct fake_object *obj;

	pthread_mutex_lock(&lock);
	obj = check("ibv_free_device_list", list, FAKE_LIST);
	if (obj)
		obj->alive = 0;
	pthread_mutex_unlock(&lock);
}

static struct fake_device *check_device(const char *verb, struct ibv_device *device)
{
	for (int i = 0; i < ndevices; i++)
		if (&devices[i].dev == device)
			return &devices[i];
	misuse("%s: unknown device", verb);
	return NULL;
}

FAKE_EXPORT const char *ibv_get_device_name(struct ibv_device *device)
{
	struct fake_device *dev;

	pthread_mutex_lock(&lock);
	dev = check_device("ibv_get_device_name", device);
	pthread_mutex_unlock(&lock);
	return dev ? dev->dev.name : NULL;
}

FAKE_EXPORT __be64 ibv_get_device_guid(struct ibv_device *device)
{
	struct fake_device *dev;
	uint64_t guid = 0;

	pthread_mutex_lock(&lock);
	dev = check_device("ibv_get_device_guid", device);
	if (dev)
		guid = dev->guid;
	pthread_mutex_unlock(&lock);
	return htobe64(guid);
}

/*
 * rdma-core 50 appends uint32_t active_speed_ex after port_cap_flags2 (commit 91b4ed8dd);
 * no macro marks it, so it is there when the struct can hold it. The fake then behaves as
 * that library: the speed code goes to active_speed_ex, as ibv_cmd_query_port copies the
 * kernel's resp_ex.active_speed_ex (libibverbs/cmd_device.c), and the u8 active_speed keeps
 * the low byte the kernel's ib_uverbs_query_port_resp has room for (0 for XDR, 256). Built
 * against an older header, only active_speed exists and an XDR port reads 0, as it does
 * through such a library.
 */
#define PORT_ATTR_SPEED_EX_OFFSET \
	((offsetof(struct ibv_port_attr, port_cap_flags2) + sizeof(uint16_t) + 3) & ~(size_t)3)
#define PORT_ATTR_HAS_SPEED_EX (sizeof(struct ibv_port_attr) >= PORT_ATTR_SPEED_EX_OFFSET + sizeof(uint32_t))

static int fill_port(struct fake_device *dev, uint8_t port, struct ibv_port_attr *attr, size_t len)
{
	struct ibv_port_attr full;
	struct fake_port *p;

	if (port < 1 || port > dev->nports)
		return EINVAL;
	p = &dev->ports[port];
	memset(&full, 0, sizeof(full));
	full.state = p->state;
	full.max_mtu = IBV_MTU_4096;
	full.active_mtu = p->active_mtu;
	full.gid_tbl_len = 256;
	full.port_cap_flags = 0x04010000;
	full.max_msg_sz = 0x40000000;
	full.pkey_tbl_len = 1;
	full.active_width = p->active_width;
	full.active_speed = (uint8_t)p->active_speed;
	if (PORT_ATTR_HAS_SPEED_EX) {
		uint32_t speed_ex = (uint32_t)p->active_speed;

		memcpy((char *)&full + PORT_ATTR_SPEED_EX_OFFSET, &speed_ex, sizeof(speed_ex));
	}
	full.phys_state = p->phys_state;
	full.link_layer = p->link_layer;
	full.port_cap_flags2 = 0x1;
	/* __lib_query_port (libibverbs/verbs.c): a longer buffer is zeroed and gets what the
	 * library's struct holds; a shorter one gets its first len bytes. */
	memset(attr, 0, len);
	memcpy(attr, &full, len < sizeof(full) ? len : sizeof(full));
	return 0;
}

/* The exported compat symbol: fills the old struct, which ends before port_cap_flags2. */
FAKE_EXPORT int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)
{
	int rc, held = hold("ibv_query_port", context);

	pthread_mutex_lock(&lock);
	query_port_calls++;
	if (!check("ibv_query_port", context, FAKE_CONTEXT)) {
		rc = EINVAL;
	} else if (fake_async_gone(context)) {
		rc = EIO;
	} else if (held) {
		rc = held;
	} else if ((rc = fault("ibv_query_port")) == 0) {
		rc = fill_port(device_of_context(context), port_num, (struct ibv_port_attr *)port_attr,
				offsetof(struct ibv_port_attr, port_cap_flags2));
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int op_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr,
		size_t port_attr_len)
{
	int rc, held = hold("ibv_query_port", context);

	pthread_mutex_lock(&lock);
	query_port_calls++;
	if (!check("query_port", context, FAKE_CONTEXT)) {
		rc = EINVAL;
	} else if (fake_async_gone(context)) {
		rc = EIO;
	} else if (held) {
		rc = held;
	} else if ((rc = fault("ibv_query_port")) == 0) {
		rc = fill_port(device_of_context(context), port_num, port_attr, port_attr_len);
		if (rc == 0 && port_attr_len >= sizeof(struct ibv_port_attr))
			port_attr->port_cap_flags2 |= 0x8000; /* marks the full-size path for the tests */
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *attr)
{
	struct fake_device *dev;
	int rc;

	pthread_mutex_lock(&lock);
	query_device_calls++;
	if (!check("ibv_query_device", context, FAKE_CONTEXT)) {
		rc = EINVAL;
	} else if (fake_async_gone(context)) {
		rc = EIO;
	} else if ((rc = fault("ibv_query_device")) == 0) {
		dev = device_of_context(context);
		memset(attr, 0, sizeof(*attr));
		snprintf(attr->fw_ver, sizeof(attr->fw_ver), "%s", dev->fw);
		attr->node_guid = htobe64(dev->guid);
		attr->sys_image_guid = htobe64(dev->guid);
		attr->max_mr_size = UINT64_MAX;
		attr->page_size_cap = 0xfffff000;
		attr->vendor_id = dev->vendor_id;
		attr->vendor_part_id = dev->vendor_part_id;
		attr->max_qp = 1 << 18;
		attr->max_cq = 1 << 24;
		attr->max_pd = 1 << 24;
		attr->device_cap_flags = IBV_DEVICE_PORT_ACTIVE_EVENT | IBV_DEVICE_RC_RNR_NAK_GEN;
		if (dev->flow_steering)
			attr->device_cap_flags |= IBV_DEVICE_MANAGED_FLOW_STEERING;
		attr->phys_port_cnt = (uint8_t)dev->nports;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static struct ibv_counters *op_create_counters(struct ibv_context *, struct ibv_counters_init_attr *);
static int op_destroy_counters(struct ibv_counters *);
static int op_attach_counters_point_flow(struct ibv_counters *, struct ibv_counter_attach_attr *, struct ibv_flow *);
static int op_read_counters(struct ibv_counters *, uint64_t *, uint32_t, uint32_t);
static struct ibv_flow *op_create_flow(struct ibv_qp *, struct ibv_flow_attr *);
static int op_destroy_flow(struct ibv_flow *);

/* libibverbs' dummy ops: what every provider but mlx5 leaves in the table. */
static struct ibv_counters *dummy_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *attr)
{
	(void)context;
	(void)attr;
	errno = EOPNOTSUPP;
	return NULL;
}

static int dummy_destroy_counters(struct ibv_counters *counters)
{
	(void)counters;
	return EOPNOTSUPP;
}

static int dummy_attach_counters_point_flow(struct ibv_counters *counters, struct ibv_counter_attach_attr *attr,
		struct ibv_flow *flow)
{
	(void)counters;
	(void)attr;
	(void)flow;
	return EOPNOTSUPP;
}

static int dummy_read_counters(struct ibv_counters *counters, uint64_t *values, uint32_t n, uint32_t flags)
{
	(void)counters;
	(void)values;
	(void)n;
	(void)flags;
	return EOPNOTSUPP;
}

FAKE_EXPORT struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct fake_device *dev;
	struct fake_context *fc;
	struct ibv_context *ctx;
	int err;

	pthread_mutex_lock(&lock);
	open_device_calls++;
	dev = check_device("ibv_open_device", device);
	if (!dev) {
		pthread_mutex_unlock(&lock);
		errno = ENODEV;
		return NULL;
	}
	err = fault("ibv_open_device");
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	fc = calloc(1, sizeof(*fc));
	fc->device = (int)(dev - devices);
	ctx = &fc->vctx.context;
	ctx->device = device;
	ctx->cmd_fd = -1;
	ctx->async_fd = -1;
	ctx->num_comp_vectors = 1;
	pthread_mutex_init(&ctx->mutex, NULL);
	if (!dev->legacy) {
		struct verbs_context *v = &fc->vctx;

		ctx->abi_compat = (void *)UINTPTR_MAX;
		v->sz = dev->ctx_size ? dev->ctx_size : sizeof(struct verbs_context);
		v->query_port = op_query_port;
		v->ibv_create_flow = op_create_flow;
		v->ibv_destroy_flow = op_destroy_flow;
		if (dev->counters_supported) {
			v->create_counters = op_create_counters;
			v->destroy_counters = op_destroy_counters;
			v->attach_counters_point_flow = op_attach_counters_point_flow;
			v->read_counters = op_read_counters;
		} else {
			v->create_counters = dummy_create_counters;
			v->destroy_counters = dummy_destroy_counters;
			v->attach_counters_point_flow = dummy_attach_counters_point_flow;
			v->read_counters = dummy_read_counters;
		}
	}
	remember(ctx, FAKE_CONTEXT, fc->device);
	fake_async_open(ctx);
	pthread_mutex_unlock(&lock);
	return ctx;
}

FAKE_EXPORT int ibv_close_device(struct ibv_context *context)
{
	struct fake_object *obj;
	int rc = 0, children;

	pthread_mutex_lock(&lock);
	obj = check("ibv_close_device", context, FAKE_CONTEXT);
	if (!obj) {
		rc = EINVAL;
	} else if (is_held(context)) {
		misuse("ibv_close_device: a held call on the context or its counters is still running");
		rc = EBUSY;
	} else if ((rc = fault("ibv_close_device")) == 0) {
		children = children_of(context, FAKE_PD) + children_of(context, FAKE_CQ) + children_of(context, FAKE_QP)
				+ children_of(context, FAKE_COUNTERS) + children_of(context, FAKE_FLOW);
		if (children)
			misuse("ibv_close_device: %d objects of the context are still alive", children);
		/* as in rdma-core, closing the context frees what is left of it: later calls are misuse */
		for (int i = 0; i < nobjects; i++) {
			if (objects[i].alive && context_of(&objects[i]) == context) {
				objects[i].alive = 0;
				objects[i].orphaned = 1;
			}
		}
		obj->alive = 0;
		fake_async_close(context);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct fake_pd *pd;
	struct fake_object *obj;
	int err;

	pthread_mutex_lock(&lock);
	obj = check("ibv_alloc_pd", context, FAKE_CONTEXT);
	err = obj ? fault("ibv_alloc_pd") : EINVAL;
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	pd = calloc(1, sizeof(*pd));
	pd->pd.context = context;
	pd->pd.handle = next_handle++;
	remember(pd, FAKE_PD, obj->device);
	pthread_mutex_unlock(&lock);
	return &pd->pd;
}

FAKE_EXPORT int ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct fake_object *obj;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("ibv_dealloc_pd", pd, FAKE_PD);
	if (!obj)
		rc = EINVAL;
	else if ((rc = fault("ibv_dealloc_pd")) == 0) {
		if (children_of(pd, FAKE_QP))
			rc = EBUSY;
		else
			obj->alive = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
		struct ibv_comp_channel *channel, int comp_vector)
{
	struct fake_cq *cq;
	struct fake_object *obj;
	int err;

	pthread_mutex_lock(&lock);
	obj = check("ibv_create_cq", context, FAKE_CONTEXT);
	err = obj ? fault("ibv_create_cq") : EINVAL;
	if (!err && (cqe < 1 || channel != NULL || comp_vector != 0))
		err = EINVAL;
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	cq->cq.context = context;
	cq->cq.cq_context = cq_context;
	cq->cq.cqe = cqe;
	cq->cq.handle = next_handle++;
	remember(cq, FAKE_CQ, obj->device);
	pthread_mutex_unlock(&lock);
	return &cq->cq;
}

FAKE_EXPORT int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct fake_object *obj;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("ibv_destroy_cq", cq, FAKE_CQ);
	if (!obj)
		rc = EINVAL;
	else if ((rc = fault("ibv_destroy_cq")) == 0) {
		if (children_of(cq, FAKE_QP))
			rc = EBUSY;
		else
			obj->alive = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/*
 * The kernel's resource tracker, when a test connects the fake RDMA netlink kernel: the uverbs
 * commands record each QP with its creator (rdma_restrack_add in drivers/infiniband/core/
 * restrack.c, called from ib_create_qp_user), update it on modify and drop it on destroy
 * (rdma_restrack_del), so RDMA_NLDEV_CMD_RES_QP_GET lists it with this process's pid.
 */
typedef void (*fake_restrack_fn)(const char *device, uint32_t lqpn, int type, int state, int port, int alive);
static fake_restrack_fn restrack;

FAKE_EXPORT void fake_set_restrack(fake_restrack_fn fn)
{
	pthread_mutex_lock(&lock);
	restrack = fn;
	pthread_mutex_unlock(&lock);
}

static void track_qp(int device, struct ibv_qp *qp, int port, int alive)
{
	if (restrack)
		restrack(devices[device].dev.name, qp->qp_num, qp->qp_type, qp->state, port, alive);
}

FAKE_EXPORT struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct fake_qp *qp;
	struct fake_object *obj;
	int err;

	pthread_mutex_lock(&lock);
	obj = check("ibv_create_qp", pd, FAKE_PD);
	err = obj ? fault("ibv_create_qp") : EINVAL;
	if (!err && (!check("ibv_create_qp", attr->send_cq, FAKE_CQ) || !check("ibv_create_qp", attr->recv_cq, FAKE_CQ)))
		err = EINVAL;
	if (!err && attr->send_cq->context != pd->context)
		err = EINVAL;
	if (!err && attr->qp_type != IBV_QPT_RAW_PACKET && attr->qp_type != IBV_QPT_UD)
		err = EOPNOTSUPP;
	if (!err && (attr->cap.max_recv_wr < 1 || attr->cap.max_recv_sge < 1 || attr->srq != NULL))
		err = EINVAL;
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	qp->qp.context = pd->context;
	qp->qp.qp_context = attr->qp_context;
	qp->qp.pd = pd;
	qp->qp.send_cq = attr->send_cq;
	qp->qp.recv_cq = attr->recv_cq;
	qp->qp.handle = next_handle++;
	qp->qp.qp_num = 0x100 + qp->qp.handle;
	qp->qp.state = IBV_QPS_RESET;
	qp->qp.qp_type = attr->qp_type;
	remember(qp, FAKE_QP, obj->device);
	track_qp(obj->device, &qp->qp, 0, 1);
	pthread_mutex_unlock(&lock);
	return &qp->qp;
}

FAKE_EXPORT int ibv_destroy_qp(struct ibv_qp *qp)
{
	struct fake_object *obj;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("ibv_destroy_qp", qp, FAKE_QP);
	if (!obj)
		rc = EINVAL;
	else if ((rc = fault("ibv_destroy_qp")) == 0) {
		if (children_of(qp, FAKE_FLOW))
			rc = EBUSY;
		else {
			obj->alive = 0;
			track_qp(obj->device, qp, 0, 0);
		}
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/*
 * Raw packet QPs as mlx5 takes them: RESET to INIT with exactly IBV_QP_STATE | IBV_QP_PORT and a
 * valid port, INIT to RTR with exactly IBV_QP_STATE, any state back to RESET with IBV_QP_STATE.
 */
FAKE_EXPORT int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct fake_object *obj;
	struct fake_qp *fq = (struct fake_qp *)qp;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("ibv_modify_qp", qp, FAKE_QP);
	if (!obj)
		rc = EINVAL;
	else if ((rc = fault("ibv_modify_qp")) != 0)
		;
	else if (!(attr_mask & IBV_QP_STATE))
		rc = EINVAL;
	else if (attr->qp_state == IBV_QPS_RESET && attr_mask == IBV_QP_STATE) {
		qp->state = IBV_QPS_RESET;
		fq->port = 0;
	} else if (attr->qp_state == IBV_QPS_INIT && qp->state == IBV_QPS_RESET
			&& attr_mask == (IBV_QP_STATE | IBV_QP_PORT)) {
		if (attr->port_num < 1 || attr->port_num > devices[obj->device].nports) {
			rc = EINVAL;
		} else {
			qp->state = IBV_QPS_INIT;
			fq->port = attr->port_num;
		}
	} else if (attr->qp_state == IBV_QPS_RTR && qp->state == IBV_QPS_INIT && attr_mask == IBV_QP_STATE)
		qp->state = IBV_QPS_RTR;
	else
		rc = EINVAL;
	if (obj && rc == 0)
		track_qp(obj->device, qp, fq->port, 1);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* ---- the provider ops (mlx5 behaviour) ---------------------------------------------------- */

static struct ibv_counters *op_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *attr)
{
	struct fake_counters *c;
	struct fake_object *obj;
	int err;

	pthread_mutex_lock(&lock);
	obj = check("create_counters", context, FAKE_CONTEXT);
	err = obj ? fault("ibv_create_counters") : EINVAL;
	if (!err && attr->comp_mask != 0)
		err = EOPNOTSUPP;
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	c->counters.context = context;
	remember(c, FAKE_COUNTERS, obj->device);
	pthread_mutex_unlock(&lock);
	return &c->counters;
}

static int op_destroy_counters(struct ibv_counters *counters)
{
	struct fake_object *obj;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("destroy_counters", counters, FAKE_COUNTERS);
	if (!obj)
		rc = EINVAL;
	else if (is_held(counters)) {
		misuse("ibv_destroy_counters: an ibv_read_counters of these counters is still running");
		rc = EBUSY;
	} else if ((rc = fault("ibv_destroy_counters")) == 0) {
		if (((struct fake_counters *)counters)->nflows) /* uverbs destroy: usecnt, EBUSY */
			rc = EBUSY;
		else
			obj->alive = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int op_attach_counters_point_flow(struct ibv_counters *counters, struct ibv_counter_attach_attr *attr,
		struct ibv_flow *flow)
{
	struct fake_counters *c = (struct fake_counters *)counters;
	int rc;

	pthread_mutex_lock(&lock);
	if (!check("attach_counters_point_flow", counters, FAKE_COUNTERS))
		rc = EINVAL;
	else if ((rc = fault("ibv_attach_counters_point_flow")) != 0)
		;
	else if (flow != NULL)
		rc = ENOTSUP; /* mlx5 supports static binding only */
	else if (attr->counter_desc > IBV_COUNTER_BYTES)
		rc = ENOTSUP;
	else if (attr->comp_mask != 0)
		rc = EOPNOTSUPP;
	else if (c->nflows)
		rc = EBUSY; /* mlx5_attach_counters_point_flow: refcount != 0 */
	else if (attr->index >= FAKE_MAX_INDEX || c->npoints >= FAKE_MAX_INDEX)
		rc = EINVAL;
	else {
		c->points[c->npoints].desc = attr->counter_desc;
		c->points[c->npoints].index = attr->index;
		c->npoints++;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static uint32_t counters_needed(struct fake_counters *c)
{
	uint32_t needed = 0;

	for (int i = 0; i < c->npoints; i++)
		if (c->points[i].index + 1 > needed)
			needed = c->points[i].index + 1;
	return needed;
}

static int op_read_counters(struct ibv_counters *counters, uint64_t *values, uint32_t ncounters, uint32_t flags)
{
	struct fake_counters *c = (struct fake_counters *)counters;
	uint32_t needed;
	int rc, held = hold("ibv_read_counters", counters);

	pthread_mutex_lock(&lock);
	if (!check("read_counters", counters, FAKE_COUNTERS))
		rc = EINVAL;
	else if (fake_async_gone(counters->context))
		rc = EIO;
	else if ((rc = held) != 0)
		;
	else if ((rc = fault("ibv_read_counters")) != 0)
		;
	else if (flags & ~(uint32_t)IBV_READ_COUNTERS_ATTR_PREFER_CACHED)
		rc = EINVAL;
	else if (!c->nflows)
		rc = EINVAL;
	else if (ncounters < (needed = counters_needed(c)) && !short_reads)
		rc = EINVAL;
	else {
		memset(values, 0, ncounters * sizeof(*values));
		memcpy(values, c->values, (ncounters < needed ? ncounters : needed) * sizeof(*values));
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static void append_kind(char *kinds, size_t len, const char *kind)
{
	size_t used = strlen(kinds);

	snprintf(kinds + used, len - used, "%s%s", used ? "," : "", kind);
}

static int parse_specs(struct ibv_flow_attr *attr, struct fake_match *m, struct fake_counters **counters,
		char *kinds, size_t kinds_len)
{
	uint8_t *p = (uint8_t *)(attr + 1);
	uint8_t *end = (uint8_t *)attr + attr->size;
	int actions = 0;

	if (attr->size < sizeof(*attr))
		return EINVAL;
	memset(m, 0, sizeof(*m));
	*counters = NULL;
	for (int i = 0; i < attr->num_of_specs; i++) {
		struct ibv_flow_spec *spec = (struct ibv_flow_spec *)p;

		if (p + 8 > end || spec->hdr.size < 8 || p + spec->hdr.size > end)
			return EINVAL;
		switch (spec->hdr.type) {
		case IBV_FLOW_SPEC_ETH:
			if (spec->hdr.size != sizeof(struct ibv_flow_spec_eth) || m->has_eth)
				return EINVAL;
			m->has_eth = 1;
			append_kind(kinds, kinds_len, "eth");
			m->eth_val = spec->eth.val;
			m->eth_mask = spec->eth.mask;
			break;
		case IBV_FLOW_SPEC_IPV4:
			if (spec->hdr.size != sizeof(struct ibv_flow_spec_ipv4) || m->has_ipv4 || m->has_ipv6)
				return EINVAL;
			m->has_ipv4 = 1;
			append_kind(kinds, kinds_len, "ipv4");
			m->ipv4_val = spec->ipv4.val;
			m->ipv4_mask = spec->ipv4.mask;
			break;
		case IBV_FLOW_SPEC_IPV6:
			if (spec->hdr.size != sizeof(struct ibv_flow_spec_ipv6) || m->has_ipv4 || m->has_ipv6)
				return EINVAL;
			m->has_ipv6 = 1;
			append_kind(kinds, kinds_len, "ipv6");
			m->ipv6_val = spec->ipv6.val;
			m->ipv6_mask = spec->ipv6.mask;
			break;
		case IBV_FLOW_SPEC_TCP:
		case IBV_FLOW_SPEC_UDP:
			if (spec->hdr.size != sizeof(struct ibv_flow_spec_tcp_udp) || m->l4_type)
				return EINVAL;
			m->l4_type = spec->hdr.type;
			append_kind(kinds, kinds_len, spec->hdr.type == IBV_FLOW_SPEC_TCP ? "tcp" : "udp");
			m->l4_val = spec->tcp_udp.val;
			m->l4_mask = spec->tcp_udp.mask;
			break;
		case IBV_FLOW_SPEC_ACTION_COUNT: {
			struct ibv_flow_spec_counter_action *action = (struct ibv_flow_spec_counter_action *)p;

			if (spec->hdr.size != sizeof(*action) || ++actions > 1)
				return EINVAL;
			if (!check("create_flow", action->counters, FAKE_COUNTERS))
				return EINVAL;
			*counters = (struct fake_counters *)action->counters;
			append_kind(kinds, kinds_len, "count");
			break;
		}
		default:
			return EINVAL;
		}
		p += spec->hdr.size;
	}
	if (p != end)
		return EINVAL;
	return 0;
}

static struct ibv_flow *op_create_flow(struct ibv_qp *qp, struct ibv_flow_attr *attr)
{
	struct fake_object *obj;
	struct fake_device *dev;
	struct fake_counters *counters = NULL;
	struct fake_flow *f;
	struct fake_match match;
	char kinds[64] = "";
	int err;

	pthread_mutex_lock(&lock);
	obj = check("create_flow", qp, FAKE_QP);
	err = obj ? fault("ibv_create_flow") : EINVAL;
	if (!err) {
		dev = &devices[obj->device];
		if (!dev->flow_steering)
			err = EOPNOTSUPP;
		else if (qp->qp_type != IBV_QPT_RAW_PACKET && qp->qp_type != IBV_QPT_UD)
			err = EINVAL;
		else if (attr->priority > FAKE_LAST_PRIO)
			err = ENOMEM; /* mlx5_ib_create_flow: priority > MLX5_IB_FLOW_LAST_PRIO */
		else if (attr->comp_mask != 0 || attr->type != IBV_FLOW_ATTR_NORMAL)
			err = EINVAL;
		else if (attr->flags & ~(uint32_t)IBV_FLOW_ATTR_FLAGS_DONT_TRAP)
			err = EINVAL;
		else if (attr->port < 1 || attr->port > dev->nports)
			err = EINVAL;
		else
			/* no QP state check: ib_uverbs_ex_create_flow checks only the QP type */
			err = parse_specs(attr, &match, &counters, kinds, sizeof(kinds));
	}
	if (!err && counters) {
		/* allocate_flow_counters_descriptions: EINVAL without a point, but only for the first
		 * flow; a second flow on bound counters is accepted and shares them (refcount++) */
		if (counters->counters.context != qp->context || (counters->nflows == 0 && counters->npoints == 0))
			err = EINVAL;
		else if (dev->linux_before_5_8 && (attr->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP))
			err = EINVAL; /* Linux < 5.8 (before 8e14c75c999a): create_dont_trap_rule, no count */
	}
	if (err) {
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	f->flow.context = qp->context;
	f->flow.handle = next_handle++;
	f->qp = (struct fake_qp *)qp;
	f->device = obj->device;
	f->port = attr->port;
	f->priority = attr->priority;
	f->flags = attr->flags;
	f->match = match;
	f->counters = counters;
	snprintf(f->specs, sizeof(f->specs), "%s", kinds);
	if (counters)
		counters->nflows++;
	remember(f, FAKE_FLOW, obj->device);
	pthread_mutex_unlock(&lock);
	return &f->flow;
}

static int op_destroy_flow(struct ibv_flow *flow)
{
	struct fake_object *obj;
	struct fake_flow *f = (struct fake_flow *)flow;
	int rc;

	pthread_mutex_lock(&lock);
	obj = check("destroy_flow", flow, FAKE_FLOW);
	if (!obj)
		rc = EINVAL;
	else if ((rc = fault("ibv_destroy_flow")) == 0) {
		if (f->counters)
			f->counters->nflows--; /* mlx5_destroy_flow: refcount-- */
		obj->alive = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* ---- packet matching ------------------------------------------------------------------------ */

static int masked_equal(const uint8_t *a, const uint8_t *b, const uint8_t *mask, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((a[i] & mask[i]) != (b[i] & mask[i]))
			return 0;
	return 1;
}

static int flow_matches(const struct fake_match *m, const struct fake_packet *pkt)
{
	if (m->has_eth) {
		uint16_t type = htobe16(pkt->ether_type);

		if (!masked_equal(pkt->dst_mac, m->eth_val.dst_mac, m->eth_mask.dst_mac, 6))
			return 0;
		if (!masked_equal(pkt->src_mac, m->eth_val.src_mac, m->eth_mask.src_mac, 6))
			return 0;
		if (!masked_equal((uint8_t *)&type, (const uint8_t *)&m->eth_val.ether_type,
				(const uint8_t *)&m->eth_mask.ether_type, 2))
			return 0;
		if (m->eth_mask.vlan_tag) {
			uint16_t tag;

			if (pkt->vlan_id < 0)
				return 0;
			tag = htobe16((uint16_t)pkt->vlan_id);
			if (!masked_equal((uint8_t *)&tag, (const uint8_t *)&m->eth_val.vlan_tag,
					(const uint8_t *)&m->eth_mask.vlan_tag, 2))
				return 0;
		}
	}
	if (m->has_ipv4) {
		if (pkt->ip_version != 4)
			return 0;
		if (!masked_equal(pkt->src_ip, (const uint8_t *)&m->ipv4_val.src_ip, (const uint8_t *)&m->ipv4_mask.src_ip, 4)
				|| !masked_equal(pkt->dst_ip, (const uint8_t *)&m->ipv4_val.dst_ip,
						(const uint8_t *)&m->ipv4_mask.dst_ip, 4))
			return 0;
	}
	if (m->has_ipv6) {
		if (pkt->ip_version != 6)
			return 0;
		if (!masked_equal(pkt->src_ip, m->ipv6_val.src_ip, m->ipv6_mask.src_ip, 16)
				|| !masked_equal(pkt->dst_ip, m->ipv6_val.dst_ip, m->ipv6_mask.dst_ip, 16))
			return 0;
		if (m->ipv6_mask.next_hdr && m->ipv6_val.next_hdr != pkt->ip_protocol)
			return 0;
	}
	if (m->l4_type) {
		uint16_t src = htobe16((uint16_t)pkt->src_port);
		uint16_t dst = htobe16((uint16_t)pkt->dst_port);
		int protocol = m->l4_type == IBV_FLOW_SPEC_TCP ? 6 : 17;

		if (pkt->ip_version == 0 || pkt->ip_protocol != protocol)
			return 0;
		if (!masked_equal((uint8_t *)&src, (const uint8_t *)&m->l4_val.src_port,
				(const uint8_t *)&m->l4_mask.src_port, 2)
				|| !masked_equal((uint8_t *)&dst, (const uint8_t *)&m->l4_val.dst_port,
						(const uint8_t *)&m->l4_mask.dst_port, 2))
			return 0;
	}
	return 1;
}

/* ---- control API for the tests ------------------------------------------------------------- */

FAKE_EXPORT void fake_reset(void)
{
	pthread_mutex_lock(&lock);
	memset(devices, 0, sizeof(devices));
	ndevices = 0;
	no_kernel_stack = 0;
	short_reads = 0;
	/* handles stay allocated: a stale pointer is then reported as unknown, never dereferenced */
	nobjects = 0;
	nfaults = 0;
	misuse_count = 0;
	query_port_calls = 0;
	query_device_calls = 0;
	get_device_list_calls = 0;
	open_device_calls = 0;
	fake_async_reset();
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&hold_lock);
	hold_end_locked();
	held_calls = 0;
	pthread_mutex_unlock(&hold_lock);
}

FAKE_EXPORT int fake_add_device(const char *name, uint64_t guid, const char *fw, uint32_t vendor_id,
		uint32_t vendor_part_id, int nports, int counters_supported, int flow_steering, int legacy,
		uint64_t ctx_size)
{
	struct fake_device *dev;
	int index;

	pthread_mutex_lock(&lock);
	if (ndevices == FAKE_MAX_DEVICES || nports < 1 || nports > FAKE_MAX_PORTS
			|| strlen(name) >= sizeof(dev->dev.name)) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	index = ndevices++;
	dev = &devices[index];
	memset(dev, 0, sizeof(*dev));
	dev->in_use = 1;
	snprintf(dev->dev.name, sizeof(dev->dev.name), "%s", name);
	snprintf(dev->dev.dev_name, sizeof(dev->dev.dev_name), "uverbs%d", index);
	dev->dev.node_type = IBV_NODE_CA;
	dev->dev.transport_type = IBV_TRANSPORT_IB;
	dev->guid = guid;
	snprintf(dev->fw, sizeof(dev->fw), "%s", fw);
	dev->vendor_id = vendor_id;
	dev->vendor_part_id = vendor_part_id;
	dev->nports = nports;
	dev->counters_supported = counters_supported;
	dev->flow_steering = flow_steering;
	dev->legacy = legacy;
	dev->ctx_size = (size_t)ctx_size;
	for (int p = 1; p <= nports; p++) {
		dev->ports[p].state = IBV_PORT_ACTIVE;
		dev->ports[p].phys_state = 5;
		dev->ports[p].link_layer = IBV_LINK_LAYER_ETHERNET;
		dev->ports[p].active_mtu = IBV_MTU_1024;
		dev->ports[p].active_speed = 64;
		dev->ports[p].active_width = 2;
	}
	pthread_mutex_unlock(&lock);
	return index;
}

static struct fake_device *named(const char *name)
{
	for (int i = 0; i < ndevices; i++)
		if (devices[i].in_use && strcmp(devices[i].dev.name, name) == 0)
			return &devices[i];
	return NULL;
}

FAKE_EXPORT int fake_set_port(const char *device, int port, int state, int phys_state, int link_layer,
		int active_mtu, int active_speed, int active_width)
{
	struct fake_device *dev;
	int rc = -1;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (dev && port >= 1 && port <= dev->nports) {
		struct fake_port *p = &dev->ports[port];

		if (state >= 0)
			p->state = state;
		if (phys_state >= 0)
			p->phys_state = phys_state;
		if (link_layer >= 0)
			p->link_layer = link_layer;
		if (active_mtu >= 0)
			p->active_mtu = active_mtu;
		if (active_speed >= 0)
			p->active_speed = active_speed;
		if (active_width >= 0)
			p->active_width = active_width;
		rc = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT void fake_no_kernel_stack(int on)
{
	pthread_mutex_lock(&lock);
	no_kernel_stack = on;
	pthread_mutex_unlock(&lock);
}

/* Make read_counters accept short arrays (fill what fits) instead of failing with EINVAL. */
FAKE_EXPORT void fake_short_reads(int on)
{
	pthread_mutex_lock(&lock);
	short_reads = on;
	pthread_mutex_unlock(&lock);
}

FAKE_EXPORT int fake_fail(const char *verb, int err, int always)
{
	int rc = -1;

	pthread_mutex_lock(&lock);
	if (nfaults < FAKE_MAX_FAULTS && strlen(verb) < sizeof(faults[0].verb)) {
		snprintf(faults[nfaults].verb, sizeof(faults[nfaults].verb), "%s", verb);
		faults[nfaults].err = err;
		faults[nfaults].always = always;
		nfaults++;
		rc = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT void fake_clear_faults(void)
{
	pthread_mutex_lock(&lock);
	nfaults = 0;
	pthread_mutex_unlock(&lock);
}

static void count_packet(struct fake_flow *f, const struct fake_packet *pkt)
{
	struct fake_counters *c = f->counters;

	f->packets++;
	if (!c)
		return;
	for (int k = 0; k < c->npoints; k++)
		c->values[c->points[k].index] += c->points[k].desc == IBV_COUNTER_PACKETS ? 1 : (uint64_t)pkt->length;
}

/*
 * Deliver a packet to a port; return the number of flows that counted it, or -1. An inactive
 * port drops it. The port counters count every packet received. RoCE (RoCEv2's UDP 4791 and
 * RoCEv1's Ethernet type 0x8915) on a RoCE-enabled Ethernet port is taken by the HCA's RoCE
 * path (mlx5 devlink enable_roce; Linux commit 0de60af64953: only on a port not enabled for
 * RoCE are incoming RoCE packets plain Ethernet packets to the NIC): it moves the
 * responder's hw_counters and no flow sees it. Other packets walk the BYPASS tables in
 * ib_prio_to_core_prio order (2 * priority, +1 without don't-trap): in each table the oldest
 * matching rule counts the packet; a don't-trap rule lets it go on, a trapping rule ends the walk.
 */
FAKE_EXPORT int fake_deliver(const char *device, int port, const struct fake_packet *pkt)
{
	struct fake_device *dev;
	struct fake_port_counters *pc;
	int counted = 0;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (!dev || port < 1 || port > dev->nports) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	if (dev->ports[port].state != IBV_PORT_ACTIVE) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	pc = &dev->counters[port];
	pc->rcv_packets++;
	pc->rcv_bytes += (uint64_t)pkt->length;
	if ((pkt->ether_type == FAKE_ROCE_V1_ETHER_TYPE
				|| (pkt->ip_version != 0 && pkt->ip_protocol == 17 && pkt->dst_port == FAKE_ROCE_V2_PORT))
			&& !dev->roce_disabled && dev->ports[port].link_layer == IBV_LINK_LAYER_ETHERNET) {
		if (pkt->roce_op == 1)
			pc->rx_write_requests++;
		else if (pkt->roce_op == 2)
			pc->rx_read_requests++;
		else if (pkt->roce_op == 3)
			pc->rx_atomic_requests++;
		pthread_mutex_unlock(&lock);
		return 0;
	}
	for (int table = 0; table <= 2 * FAKE_LAST_PRIO + 1; table++) {
		struct fake_flow *hit = NULL;

		for (int i = 0; i < nobjects && !hit; i++) {
			struct fake_flow *f;

			if (!objects[i].alive || objects[i].type != FAKE_FLOW)
				continue;
			f = objects[i].ptr;
			if (&devices[f->device] != dev || f->port != port
					|| 2 * f->priority + !(f->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP) != table
					|| !flow_matches(&f->match, pkt))
				continue;
			hit = f;
		}
		if (!hit)
			continue;
		counted++;
		count_packet(hit, pkt);
		if (!(hit->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP))
			break;
	}
	pthread_mutex_unlock(&lock);
	return counted;
}

/* Turn RoCE on or off on a device (devlink enable_roce); return -1 for an unknown device. */
FAKE_EXPORT int fake_set_roce(const char *device, int enabled)
{
	struct fake_device *dev;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (dev)
		dev->roce_disabled = !enabled;
	pthread_mutex_unlock(&lock);
	return dev ? 0 : -1;
}

/* Make a device behave like Linux < 5.8: a don't-trap flow with a count action fails. */
FAKE_EXPORT int fake_set_linux_before_5_8(const char *device, int on)
{
	struct fake_device *dev;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (dev)
		dev->linux_before_5_8 = on;
	pthread_mutex_unlock(&lock);
	return dev ? 0 : -1;
}

/* Read a port counter by its sysfs path below ports/<n>/, e.g. "counters/port_rcv_packets"; -1 if none. */
FAKE_EXPORT int64_t fake_port_counter(const char *device, int port, const char *file)
{
	struct fake_device *dev;
	struct fake_port_counters *pc;
	int64_t value = -1;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (dev && port >= 1 && port <= dev->nports) {
		pc = &dev->counters[port];
		if (strcmp(file, "counters/port_rcv_packets") == 0)
			value = (int64_t)pc->rcv_packets;
		else if (strcmp(file, "counters/port_rcv_data") == 0)
			value = (int64_t)(pc->rcv_bytes / 4); /* the PMA counts 4-byte words */
		else if (strcmp(file, "hw_counters/rx_write_requests") == 0)
			value = (int64_t)pc->rx_write_requests;
		else if (strcmp(file, "hw_counters/rx_read_requests") == 0)
			value = (int64_t)pc->rx_read_requests;
		else if (strcmp(file, "hw_counters/rx_atomic_requests") == 0)
			value = (int64_t)pc->rx_atomic_requests;
	}
	pthread_mutex_unlock(&lock);
	return value;
}

FAKE_EXPORT int fake_live_objects(void)
{
	int n = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < nobjects; i++)
		n += objects[i].alive;
	pthread_mutex_unlock(&lock);
	return n;
}

/* Describe the live objects, e.g. "context qp flow", into buf. */
FAKE_EXPORT void fake_live_description(char *buf, int len)
{
	int used = 0;

	if (len <= 0)
		return;
	buf[0] = '\0';
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nobjects && used < len - 1; i++)
		if (objects[i].alive)
			used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", type_names[objects[i].type]);
	pthread_mutex_unlock(&lock);
}

/* Describe the n-th live flow as the fake received it; return -1 if there is none. */
FAKE_EXPORT int fake_flow_describe(int n, char *buf, int len)
{
	int rc = -1;

	if (len <= 0)
		return -1;
	buf[0] = '\0';
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nobjects; i++) {
		struct fake_flow *f;

		if (!objects[i].alive || objects[i].type != FAKE_FLOW || n-- > 0)
			continue;
		f = objects[i].ptr;
		snprintf(buf, len, "%s port %d priority %d flags 0x%x specs %s", devices[f->device].dev.name, f->port,
				f->priority, f->flags, f->specs);
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

FAKE_EXPORT int fake_misuse_count(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = misuse_count;
	pthread_mutex_unlock(&lock);
	return n;
}

FAKE_EXPORT void fake_misuse_entry(int i, char *buf, int len)
{
	if (len <= 0)
		return;
	pthread_mutex_lock(&lock);
	if (i >= 0 && i < misuse_count && i < FAKE_MAX_MISUSE)
		snprintf(buf, len, "%s", misuse_log[i]);
	else
		buf[0] = '\0';
	pthread_mutex_unlock(&lock);
}

/* Calls of a verb so far: ibv_query_port (through either entry point: the exported compat symbol
 * and the context's query_port op), ibv_query_device, ibv_get_device_list or ibv_open_device;
 * -1 for another verb. */
FAKE_EXPORT long fake_call_count(const char *verb)
{
	long n = -1;

	pthread_mutex_lock(&lock);
	if (strcmp(verb, "ibv_query_port") == 0)
		n = query_port_calls;
	else if (strcmp(verb, "ibv_query_device") == 0)
		n = query_device_calls;
	else if (strcmp(verb, "ibv_get_device_list") == 0)
		n = get_device_list_calls;
	else if (strcmp(verb, "ibv_open_device") == 0)
		n = open_device_calls;
	pthread_mutex_unlock(&lock);
	return n;
}

/* The cheapest call there is: the baseline of the read benchmark. */
FAKE_EXPORT int fake_noop(void)
{
	return 0;
}

/* ==== async events (issue 11) ================================================================
 *
 * Each open context gets a pipe: its read end is ctx->async_fd, blocking as the kernel's async
 * event file is until the application sets O_NONBLOCK. Raising an event writes a
 * struct ib_uverbs_async_event_desc (the kernel's uapi layout: element, event_type, reserved) to
 * every open context of the device, as ib_uverbs_async_handler() queues it on every file of the
 * device; ibv_get_async_event() reads one such record from async_fd, as rdma-core's
 * libibverbs/device.c does, and fails with the read's errno (EAGAIN on an empty non-blocking fd).
 * Each event handed out must be acknowledged with ibv_ack_async_event() before its context is
 * closed; an event left unacknowledged, an event structure reused before its acknowledgement, or
 * a get on a closed context is recorded as misuse.
 *
 * fake_remove_device() models a device that goes away (driver reload, reset, hot unplug): like
 * ib_uverbs_free_hw_resources() it raises IBV_EVENT_DEVICE_FATAL on every open context, which is
 * then disassociated: queries and counter reads fail with EIO, while destroys and closes still
 * succeed (rdma-core with RDMAV_ALLOW_DISASSOC_DESTROY; the kernel released the objects). The
 * device disappears from ibv_get_device_list until fake_restore_device().
 */

#include <fcntl.h>
#include <unistd.h>

#define FAKE_MAX_ASYNC 256

struct fake_async_desc {
	uint64_t element;
	uint32_t event_type;
	uint32_t reserved;
};

struct fake_async {
	struct ibv_context *ctx; /* NULL: free slot */
	int write_fd;
	int gone;
};

struct fake_pending_ack {
	struct ibv_async_event *event; /* NULL: free slot */
	struct ibv_context *ctx;
};

static struct fake_async asyncs[FAKE_MAX_ASYNC];
static struct fake_pending_ack pending_acks[FAKE_MAX_ASYNC];

static struct fake_async *async_of(struct ibv_context *ctx)
{
	for (int i = 0; i < FAKE_MAX_ASYNC; i++)
		if (asyncs[i].ctx == ctx)
			return &asyncs[i];
	return NULL;
}

/* Called by ibv_open_device with the lock held. */
static void fake_async_open(struct ibv_context *ctx)
{
	struct fake_async *a = async_of(NULL);
	int fds[2];

	if (!a || pipe(fds) != 0)
		abort();
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFL, O_NONBLOCK); /* a full queue drops events instead of blocking the fake */
	a->ctx = ctx;
	a->write_fd = fds[1];
	a->gone = 0;
	ctx->async_fd = fds[0];
}

/* Called by ibv_close_device with the lock held, once the context is closed. */
static void fake_async_close(struct ibv_context *ctx)
{
	struct fake_async *a = async_of(ctx);
	int unacked = 0;

	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		if (pending_acks[i].event && pending_acks[i].ctx == ctx) {
			pending_acks[i].event = NULL;
			unacked++;
		}
	}
	if (unacked)
		misuse("ibv_close_device: %d async event(s) were never acknowledged", unacked);
	if (a) {
		close(ctx->async_fd);
		close(a->write_fd);
		a->ctx = NULL;
	}
	ctx->async_fd = -1;
}

static int fake_async_gone(struct ibv_context *ctx)
{
	struct fake_async *a = async_of(ctx);

	return a && a->gone;
}

/* Called by fake_reset with the lock held: contexts left open by a test are forgotten. */
static void fake_async_reset(void)
{
	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		if (asyncs[i].ctx) {
			close(asyncs[i].ctx->async_fd);
			close(asyncs[i].write_fd);
			asyncs[i].ctx->async_fd = -1;
			asyncs[i].ctx = NULL;
		}
		pending_acks[i].event = NULL;
	}
}

FAKE_EXPORT int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	struct fake_async_desc desc;
	int fd;
	ssize_t n;

	pthread_mutex_lock(&lock);
	if (!check("ibv_get_async_event", context, FAKE_CONTEXT) || !async_of(context)) {
		pthread_mutex_unlock(&lock);
		errno = EINVAL;
		return -1;
	}
	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		if (pending_acks[i].event == event) {
			misuse("ibv_get_async_event: the event structure is reused before ibv_ack_async_event");
			pending_acks[i].event = NULL;
		}
	}
	fd = context->async_fd;
	pthread_mutex_unlock(&lock);
	/* the read may block (a blocking fd): never under the lock */
	n = read(fd, &desc, sizeof(desc));
	if (n != (ssize_t)sizeof(desc))
		return -1;
	pthread_mutex_lock(&lock);
	event->event_type = desc.event_type;
	event->element.port_num = (int)desc.element;
	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		if (!pending_acks[i].event) {
			pending_acks[i].event = event;
			pending_acks[i].ctx = context;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

FAKE_EXPORT void ibv_ack_async_event(struct ibv_async_event *event)
{
	int found = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		if (pending_acks[i].event == event) {
			pending_acks[i].event = NULL;
			found = 1;
			break;
		}
	}
	if (!found)
		misuse("ibv_ack_async_event: the event was not returned by ibv_get_async_event or was acked twice");
	pthread_mutex_unlock(&lock);
}

static struct fake_device *named_any(const char *name)
{
	for (int i = 0; i < ndevices; i++)
		if (strcmp(devices[i].dev.name, name) == 0)
			return &devices[i];
	return NULL;
}

/* Queue an event on every open, not disassociated context of a device; return how many. */
static int raise_locked(struct fake_device *dev, int type, int port)
{
	struct fake_async_desc desc = { .element = (uint64_t)port, .event_type = (uint32_t)type };
	int n = 0;

	for (int i = 0; i < FAKE_MAX_ASYNC; i++) {
		struct fake_async *a = &asyncs[i];

		if (!a->ctx || a->gone || device_of_context(a->ctx) != dev)
			continue;
		if (write(a->write_fd, &desc, sizeof(desc)) == (ssize_t)sizeof(desc))
			n++;
	}
	return n;
}

/*
 * Raise an async event (enum ibv_event_type; port for port events, ignored for DEVICE_FATAL) on
 * every open context of the device. Return the number of contexts it was queued on, or -1 if
 * there is no such device or port.
 */
FAKE_EXPORT int fake_raise_async_event(const char *device, int type, int port)
{
	struct fake_device *dev;
	int n;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (!dev || (type != IBV_EVENT_DEVICE_FATAL && (port < 1 || port > dev->nports))) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	n = raise_locked(dev, type, type == IBV_EVENT_DEVICE_FATAL ? 0 : port);
	pthread_mutex_unlock(&lock);
	return n;
}

/* The device goes away: DEVICE_FATAL on every open context, which is disassociated. */
FAKE_EXPORT int fake_remove_device(const char *device)
{
	struct fake_device *dev;
	int n;

	pthread_mutex_lock(&lock);
	dev = named(device);
	if (!dev) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	n = raise_locked(dev, IBV_EVENT_DEVICE_FATAL, 0);
	for (int i = 0; i < FAKE_MAX_ASYNC; i++)
		if (asyncs[i].ctx && device_of_context(asyncs[i].ctx) == dev)
			asyncs[i].gone = 1;
	dev->in_use = 0;
	pthread_mutex_unlock(&lock);
	return n;
}

/* The device is back: listed and openable again; contexts opened before stay disassociated. */
FAKE_EXPORT int fake_restore_device(const char *device)
{
	struct fake_device *dev;

	pthread_mutex_lock(&lock);
	dev = named_any(device);
	if (dev)
		dev->in_use = 1;
	pthread_mutex_unlock(&lock);
	return dev ? 0 : -1;
}

/* Return the number of events handed out by ibv_get_async_event and not acknowledged. */
FAKE_EXPORT int fake_unacked_async_events(void)
{
	int n = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < FAKE_MAX_ASYNC; i++)
		n += pending_acks[i].event != NULL;
	pthread_mutex_unlock(&lock);
	return n;
}

/* ==== end of async events ================================================================== */
